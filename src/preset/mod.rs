//! Pose presets: everything an artist tunes for one character, as a versioned, diff-friendly
//! JSON file (`"format": "anglerpose-preset", "version": 2`).
//!
//! # Format (version 2)
//! Pretty-printed JSON, keys in a fixed order (structs and `BTreeMap`s only):
//! - `format`, `version`: always `"anglerpose-preset"` and `2`.
//! - `character`: `{ "path": "../angler.glb", "sha256": "<hex>" }` — the glTF file, relative to
//!   the preset's folder (`/`-separated), and the SHA-256 of its bytes (`null` when unknown).
//! - `rod`, `net`, `seat` (optional; absent = the bundled model): an artist's models, each
//!   `{ "path": …, "sha256": … }` like `character` (a changed file is a warning). `rod` may add
//!   `length` (metres, for a file not in metres; default 2.4), `rear_grip` and `reel_seat`
//!   (metres from the butt, replacing what was detected) and `reel_above` (the reel on top of
//!   the blank, a baitcaster; default: detected), `flip_ends` (the butt is the thinner end)
//!   and `butt_offset` (metres up the blank from the end). `net` may add `length`.
//! - `humanoid_overrides`: role → bone name (`{"left.hand": "hand.L"}`), see
//!   [`crate::rig::HumanoidOverride`].
//! - `calibration`: [`GripCalibration`] — grip offsets, hands (palm corrections, curls) and the
//!   arm poles (`poles.left.pole_in_actor`, optional `per_phase` keys).
//! - `settings`: [`SolverSettings`] — the global limit switch `limits_enabled`, `soften`,
//!   `weight`, and per arm `arms.{left,right}`: `solver` (`"two_bone"` or `"ccd"`), the
//!   two-bone `elbow_limit.{min_bend, max_bend, enabled}` and `twist` (radians, −π..=π; a
//!   preset without it reads 0) and the CCD chain `ccd.{iterations,
//!   min_angle, max_angle, blend_factor, planar_finish}` (`planar_finish`: jump to the limit of
//!   the passes once planar, not in three.js; a preset without it reads `true`) with per-link
//!   limits `ccd.{forearm,upper_arm}.{enabled, limitation, rotation_min, rotation_max}`
//!   (three.js `BoneLink` fields; `null` = none).
//! - `state`: [`SessionState`] — phase, normalised time and session parameters.
//! - `poses`: named poses, name → `{ "state": …, "calibration": … (optional override) }`.
//!
//! Vectors are `[x, y, z]`, quaternions `[x, y, z, w]`, lengths in metres, angles in radians.
//!
//! # Version 1 (migrated on load)
//! Version 1 had one `settings.elbow_limit` shared by both arms and no solver choice. It is
//! migrated to both arms' `elbow_limit` with the two-bone solver and default CCD parameters;
//! problems in a version-1 file are reported at its own `settings.elbow_limit` path.
//!
//! # Version 0 (migrated on load)
//! The earlier layout had `"character": "<relative path>"` (a plain string, no hash), a
//! calibration without `poles`, a flat top-level `"poles": {"left": [x,y,z], "right": [x,y,z]}`
//! (constant poles) and no named poses. It is migrated to version 1, then 2, in memory; saving
//! writes version 2. Versions newer than [`VERSION`] are refused.
//!
//! This module is pure (no I/O) except [`io`], which reads and writes files. The format
//! itself (this file, `parse.rs`, `check.rs`, `migrate.rs`, `examples.rs`) depends only on
//! the core; what puts a preset on a stage or takes one from it is in `on_stage.rs`, `io.rs`
//! and the exports, and [`PresetError`] (which names the stage's errors) in `error.rs`
//! (`tests/layers.rs` checks it).
#![warn(missing_docs)]

mod check;
pub mod clip;
mod error;
mod examples;
mod export_glb;
mod export_tackle;
pub mod io;
mod migrate;
mod on_stage;
mod parse;
mod pose_table;

pub use check::check_preset;
pub use clip::{BakedClip, ClipError, ClipOptions, animated_glb, bake_clips};
pub use error::PresetError;
pub use examples::example_presets;
pub use export_glb::{ExportError, posed_glb};
pub use parse::parse_preset;
pub use pose_table::{
    BoneInfo, LocalTransform, PoseSample, PoseTable, bone_keys, pose_table, timeline_states,
};

use crate::fishing::{GripCalibration, PoseInputs, SessionState, SolverSettings};
use crate::rig::HumanoidOverride;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The value of the `format` field.
pub const FORMAT: &str = "anglerpose-preset";
/// The newest version this build reads and the one it writes.
pub const VERSION: u64 = 2;

/// The character file of a preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterRef {
    /// Relative to the preset's folder, `/`-separated (absolute paths are accepted on load).
    pub path: String,
    /// Lower-case hex SHA-256 of the file's bytes; `None` when unknown (migrated presets).
    pub sha256: Option<String>,
}

/// An artist's rod model: the file, its hash, and the corrections of what detection found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RodRef {
    /// Relative to the preset's folder, `/`-separated.
    pub path: String,
    /// Lower-case hex SHA-256 of the file's bytes; `None` when unknown.
    pub sha256: Option<String>,
    /// The real length, metres, for a file not in metres (`None`: 2.4 m).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    /// The rear grip, metres from the butt (`None`: detected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rear_grip: Option<f64>,
    /// The reel seat, metres from the butt (`None`: detected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reel_seat: Option<f64>,
    /// The reel sits on top of the blank in use (`None`: detected from its shape).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reel_above: Option<bool>,
    /// The butt is at the other end than the thicker one (absent: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flip_ends: bool,
    /// The butt is this many metres up the blank from the end (absent: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub butt_offset: Option<f64>,
}

/// An artist's landing-net model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetRef {
    /// Relative to the preset's folder, `/`-separated.
    pub path: String,
    /// Lower-case hex SHA-256 of the file's bytes; `None` when unknown.
    pub sha256: Option<String>,
    /// The real length, metres, for a file not in metres (`None`: 1.7 m).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
}

/// One named pose: a session state and, optionally, a calibration used instead of the
/// preset's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedPose {
    /// The session state of the pose (`poses.<name>.state`).
    pub state: SessionState,
    /// A calibration replacing the preset's for this pose; `None` (key absent) = the preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<GripCalibration>,
}

/// A preset, version 2 (see the module docs for the layout).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "PresetFile", into = "PresetFile")]
pub struct Preset {
    /// Always [`FORMAT`] in a parsed preset.
    pub format: String,
    /// Always [`VERSION`] in a parsed preset (older files are migrated on load).
    pub version: u64,
    /// The character file and its hash.
    pub character: CharacterRef,
    /// An artist's rod (`None`: the bundled one).
    pub rod: Option<RodRef>,
    /// An artist's landing net (`None`: the bundled one).
    pub net: Option<NetRef>,
    /// An artist's seat (`None`: the bundled stool).
    pub seat: Option<CharacterRef>,
    /// Role → bone name overrides of humanoid detection (empty when the key is absent).
    pub humanoid_overrides: HumanoidOverride,
    /// Grip offsets, hands and arm poles; the solver settings; the current phase, time and
    /// session parameters (the keys `calibration`, `settings` and `state`).
    pub inputs: PoseInputs,
    /// Named poses by name (empty when the key is absent).
    pub poses: BTreeMap<String, NamedPose>,
}

/// [`Preset`] as stored: the pose inputs' three keys sit beside the file references (serde
/// cannot flatten them under `deny_unknown_fields`).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    format: String,
    version: u64,
    character: CharacterRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rod: Option<RodRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    net: Option<NetRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<CharacterRef>,
    #[serde(default)]
    humanoid_overrides: HumanoidOverride,
    calibration: GripCalibration,
    settings: SolverSettings,
    state: SessionState,
    #[serde(default)]
    poses: BTreeMap<String, NamedPose>,
}

impl From<PresetFile> for Preset {
    fn from(f: PresetFile) -> Self {
        Self {
            format: f.format,
            version: f.version,
            character: f.character,
            rod: f.rod,
            net: f.net,
            seat: f.seat,
            humanoid_overrides: f.humanoid_overrides,
            inputs: PoseInputs::new(f.calibration, f.settings, f.state),
            poses: f.poses,
        }
    }
}

impl From<Preset> for PresetFile {
    fn from(p: Preset) -> Self {
        Self {
            format: p.format,
            version: p.version,
            character: p.character,
            rod: p.rod,
            net: p.net,
            seat: p.seat,
            humanoid_overrides: p.humanoid_overrides,
            calibration: p.inputs.calibration,
            settings: p.inputs.settings,
            state: p.inputs.state,
            poses: p.poses,
        }
    }
}

/// How bad a [`Problem`] is: errors stop a load; warnings (e.g. a changed character hash)
/// are reported but the preset still loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The preset cannot be loaded or saved (`"error"`).
    Error,
    /// Reported only; the preset still loads (`"warning"`).
    Warning,
}

/// One problem found in a preset, at a JSON path such as `calibration.poles.left.pole_in_actor[1]`
/// (`(root)` for the document itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Whether the problem stops a load.
    pub severity: Severity,
    /// The JSON path of the offending value, `(root)` for the document itself.
    pub path: String,
    /// What is wrong, as a sentence fragment.
    pub message: String,
}

impl Problem {
    /// An error at `path`.
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            path: path.into(),
            message: message.into(),
        }
    }

    /// A warning at `path`.
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            path: path.into(),
            message: message.into(),
        }
    }

    /// Whether the severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{kind} at {}: {}", self.path, self.message)
    }
}

/// Formats a list of problems one per line, indented.
pub fn format_problems(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("  {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Preset {
    /// Pretty-printed JSON with a trailing newline (stable key order). Non-finite numbers
    /// would become `null`; [`check_preset`] rejects them before saving.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
