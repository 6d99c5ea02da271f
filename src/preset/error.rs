//! Why loading, building or saving a preset failed.

use super::{Problem, format_problems};
use std::path::PathBuf;
use thiserror::Error;

/// Why loading, building or saving a preset failed. Every variant names the preset file
/// (`path`).
#[derive(Debug, Error)]
pub enum PresetError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder being read or written (the preset, or the character file and
        /// preset folder in [`super::io::character_ref`]).
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The preset file is too large, not UTF-8, or fails [`super::parse_preset`].
    #[error("{path}: invalid preset ({} problem(s)):\n{}", problems.len(), format_problems(problems))]
    Invalid {
        /// The preset file.
        path: PathBuf,
        /// Every error found.
        problems: Vec<Problem>,
    },
    /// The character file (or the bundled props) could not be loaded.
    #[error("{path}: the character file: {source}")]
    Character {
        /// The preset file.
        path: PathBuf,
        /// The file that failed: the character, or the bundled assets folder for the props.
        character: PathBuf,
        /// The loader's error.
        source: Box<crate::gltf_io::LoadError>,
    },
    /// An artist's rod, net or seat file could not be used.
    #[error("{path}: {source}")]
    Prop {
        /// The preset file.
        path: PathBuf,
        /// What is wrong with the prop file (it names the file).
        source: Box<crate::stage::rod_file::PropFileError>,
    },
    /// Building the [`crate::stage::Stage`] or posing it with the preset failed.
    #[error("{path}: {source}")]
    Stage {
        /// The preset file.
        path: PathBuf,
        /// The stage's error.
        source: Box<crate::stage::StageError>,
    },
    /// The `humanoid_overrides` do not fit the character.
    #[error("{path}: humanoid_overrides: {source}")]
    Humanoid {
        /// The preset file.
        path: PathBuf,
        /// The humanoid detection's error.
        source: crate::rig::HumanoidError,
    },
    /// The preset has no named pose `name`.
    #[error("{path}: no named pose {name:?} (available: {available})")]
    NoSuchPose {
        /// The preset file.
        path: PathBuf,
        /// The requested pose name.
        name: String,
        /// The preset's pose names, as one display string.
        available: String,
    },
    /// Saving was refused because the preset has errors; nothing was written.
    #[error("{path}: refusing to save: {}", format_problems(problems))]
    NotSaved {
        /// The file that was to be written.
        path: PathBuf,
        /// The errors of [`super::check_preset`].
        problems: Vec<Problem>,
    },
}
