//! Opening and saving documents through `crate::preset`, plus the per-OS folders for recent
//! files and the autosave (from `directories`).

use super::document::{Document, Snapshot};
use crate::gltf_io;
use crate::preset::{self, Preset, PresetError};
use crate::stage::{Props, Stage, StageError, bundled_assets_dir};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FileError {
    #[error(transparent)]
    Preset(#[from] PresetError),
    #[error("{path}: {source}")]
    Stage { path: PathBuf, source: StageError },
    #[error("{path}: unsupported file type (expected .json, .glb or .gltf)")]
    Unsupported { path: PathBuf },
    #[error("{path}: {source}")]
    Clip {
        path: PathBuf,
        source: preset::ClipError,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// True for the extensions the editor opens (`.json` presets, `.glb` / `.gltf` / `.vrm` / `.fbx`
/// characters; a VRM is a GLB that declares its humanoid).
pub fn is_openable(path: &Path) -> bool {
    matches!(
        extension(path).as_str(),
        "json" | "glb" | "gltf" | "vrm" | "fbx"
    )
}

pub fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The bundled angler with the bundled default preset when it exists (else defaults).
pub fn open_default() -> Result<Document, FileError> {
    if preset::io::bundled_preset_path().exists() {
        let (p, stage, _warnings) = preset::io::load_default_stage()?;
        let mut doc = Document::new(stage, None);
        doc.preset = Some(p);
        return Ok(doc);
    }
    let stage = Stage::bundled().map_err(|source| FileError::Stage {
        path: bundled_assets_dir(),
        source,
    })?;
    Ok(Document::new(stage, None))
}

/// Opens a preset (`.json`) or a character (`.glb` / `.gltf` / `.vrm` / `.fbx`, with the bundled props and a
/// default calibration). Returns the document and any warnings.
pub fn open(path: &Path) -> Result<(Document, Vec<String>), FileError> {
    match extension(path).as_str() {
        "json" => {
            let p = preset::io::load_preset(path)?;
            let (stage, warnings) = preset::io::load_stage(path, &p)?;
            let mut doc = Document::new(stage, Some(path.to_path_buf()));
            doc.preset = Some(p);
            Ok((doc, warnings.iter().map(ToString::to_string).collect()))
        }
        "glb" | "gltf" | "vrm" | "fbx" => {
            let stage_err = |source| FileError::Stage {
                path: path.to_path_buf(),
                source,
            };
            let character = gltf_io::load(path).map_err(|e| stage_err(e.into()))?;
            let props = Props::load(&bundled_assets_dir()).map_err(|e| stage_err(e.into()))?;
            let warnings = character.warnings.clone();
            let stage = Stage::new(character, props).map_err(stage_err)?;
            Ok((Document::new(stage, None), warnings))
        }
        _ => Err(FileError::Unsupported {
            path: path.to_path_buf(),
        }),
    }
}

/// What a dropped glTF file looks like, for the "use as…" dialog: a humanoid character, a
/// rod or net (with what detection found), or an unknown model; or why it cannot be read.
pub fn describe_model(path: &Path) -> String {
    use crate::fishing::net_model::detect_net;
    use crate::stage::rod_file::{model_points, refuse_character, rod_model};
    let character = match gltf_io::load(path) {
        Ok(c) => c,
        Err(e) => return format!("cannot be read: {e}"),
    };
    if refuse_character(&character).is_err() {
        return "looks like a character (a skinned humanoid): open it as the character".into();
    }
    if let Ok(m) = rod_model(&character, None) {
        return format!(
            "looks like a rod: {:.2} m, reel seat {:.2} m from the butt, reel {} — use as rod?",
            m.length,
            m.reel_seat,
            if m.reel_above { "on top" } else { "below" }
        );
    }
    if let Ok(n) = detect_net(&model_points(&character), None) {
        return format!(
            "looks like a landing net: {:.2} m, hoop {:.0} mm — use as net?",
            n.gear.length,
            n.hoop_width * 1e3
        );
    }
    "neither a rod nor a net by its shape: use it as the seat?".into()
}

/// The preset `doc` would save to `path` (keeps overrides and named poses of the preset it
/// was opened from; names the artist's rod, net and seat in use, with the rod's grips).
pub fn preset_for(doc: &Document, path: &Path) -> Result<Preset, FileError> {
    let character = preset::io::character_ref(path, &doc.character_path)?;
    let mut p = match &doc.preset {
        Some(base) => base.clone(),
        None => Preset::from_stage(&doc.stage, character.clone()),
    };
    p.character = character;
    (p.rod, p.net, p.seat) = preset::io::prop_refs(path, &doc.stage.props.sources)?;
    p.inputs.clone_from(&doc.stage.inputs);
    Ok(p)
}

/// Saves `doc` atomically as a preset at `path`; on success the document takes the path and
/// is clean.
pub fn save(doc: &mut Document, path: &Path) -> Result<(), FileError> {
    let p = preset_for(doc, path)?;
    preset::io::save_preset_atomic(path, &p)?;
    doc.preset = Some(p);
    doc.path = Some(path.to_path_buf());
    doc.dirty = false;
    Ok(())
}

/// Per-OS folders: recent files live in the config folder, the autosave in the data folder.
/// `ANGLERPOSE_STATE_DIR` overrides both (tests).
pub fn state_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ANGLERPOSE_STATE_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("org", "anglerpose", "anglerpose")
        .map(|d| d.data_local_dir().to_path_buf())
}

pub fn autosave_path() -> Option<PathBuf> {
    state_dir().map(|d| d.join("autosave.json"))
}

fn recent_path() -> Option<PathBuf> {
    state_dir().map(|d| d.join("recent.json"))
}

/// Up to 10 recently opened or saved files, newest first (missing files dropped).
pub fn recent_files() -> Vec<PathBuf> {
    let Some(path) = recent_path() else {
        return Vec::new();
    };
    let list: Vec<PathBuf> = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    list.into_iter().filter(|p| p.exists()).collect()
}

/// Puts `file` first in the recent list.
pub fn add_recent(file: &Path) -> Result<(), FileError> {
    let Some(path) = recent_path() else {
        return Ok(());
    };
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let mut list = recent_files();
    list.retain(|p| *p != file);
    list.insert(0, file);
    list.truncate(10);
    let io = |source| FileError::Io {
        path: path.clone(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let text = serde_json::to_string_pretty(&list).unwrap_or_else(|_| "[]".into());
    preset::io::write_atomic(&path, text.as_bytes()).map_err(io)
}

/// Writes the autosave preset (atomic); see [`Autosaver`] for when.
pub fn write_autosave(doc: &Document) -> Result<(), FileError> {
    let Some(path) = autosave_path() else {
        return Ok(());
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| FileError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let p = preset_for(doc, &path)?;
    preset::io::save_preset_atomic(&path, &p)?;
    Ok(())
}

/// Removes the autosave (after a clean save or a clean exit).
pub fn clear_autosave() {
    if let Some(path) = autosave_path() {
        let _ = std::fs::remove_file(path);
    }
}

/// The autosave left by a session that did not exit cleanly, if any.
pub fn pending_autosave() -> Option<PathBuf> {
    autosave_path().filter(|p| p.exists())
}

/// When to write and remove the autosave, so that unsaved work is never lost:
///
/// - a changed, unsaved document is written at most once per `interval` (also while the
///   window is idle: the app wakes up at [`Autosaver::next_due`]);
/// - an autosave left by an earlier session that did not exit cleanly is neither overwritten
///   nor removed by this one until the user recovers it (the recovered document is in
///   memory: [`Autosaver::recovered`]) or discards it (the file is gone);
/// - a successful save or a clean exit removes this session's autosave.
#[derive(Debug)]
pub struct Autosaver {
    path: Option<PathBuf>,
    interval: Duration,
    /// Whether the file at `path` is this session's to write and remove.
    owned: bool,
    /// What the last write (or the recovered file) holds.
    written: Option<(Snapshot, PathBuf)>,
    last_write: Instant,
}

/// The autosave interval when none is given.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(10);
/// The shortest wait before trying again after a failed autosave.
pub const AUTOSAVE_RETRY: Duration = Duration::from_secs(5);

impl Autosaver {
    /// An autosaver for [`autosave_path`]; the first write is due `interval` from now.
    pub fn new(interval: Duration) -> Self {
        let path = autosave_path();
        let owned = !path.as_ref().is_some_and(|p| p.exists());
        Self {
            path,
            interval,
            owned,
            written: None,
            last_write: Instant::now(),
        }
    }

    /// The autosave of an earlier session still waiting for recover or discard.
    pub fn pending(&mut self) -> Option<PathBuf> {
        self.refresh_owner();
        if self.owned { None } else { self.path.clone() }
    }

    /// True for the autosave file itself (opening it is recovering it).
    pub fn is_autosave(&self, path: &Path) -> bool {
        self.path.as_deref() == Some(path)
    }

    /// The autosave was opened into `doc`: the file is this session's from now on.
    pub fn recovered(&mut self, doc: &Document) {
        self.owned = true;
        self.written = Some(key(doc));
    }

    /// When the next write is due (`None`: nothing to write).
    pub fn next_due(&mut self, doc: &Document) -> Option<Instant> {
        self.refresh_owner();
        let changed = self.written.as_ref() != Some(&key(doc));
        (self.owned && self.path.is_some() && doc.dirty && changed)
            .then(|| self.last_write + self.interval)
    }

    /// Writes the autosave when one is due at `now`; true when written. After a failed write
    /// the next try is one interval, and at least [`AUTOSAVE_RETRY`], later.
    pub fn tick(&mut self, doc: &Document, now: Instant) -> Result<bool, FileError> {
        if self.next_due(doc).is_none_or(|due| due > now) {
            return Ok(false);
        }
        self.last_write = now;
        if let Err(e) = write_autosave(doc) {
            self.last_write = now + AUTOSAVE_RETRY.saturating_sub(self.interval);
            return Err(e);
        }
        self.written = Some(key(doc));
        Ok(true)
    }

    /// The autosave file (`None` when the OS has no folder for it).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The document was saved (and is clean): its autosave is no longer needed.
    pub fn saved(&mut self) {
        self.refresh_owner();
        if self.owned {
            if let Some(path) = &self.path {
                // Nothing is lost when this fails: the next start offers the (older) work.
                let _ = std::fs::remove_file(path);
            }
            self.written = None;
        }
    }

    /// A clean exit: removes this session's autosave (never an earlier session's).
    pub fn clean_exit(&mut self) {
        self.saved();
    }

    fn refresh_owner(&mut self) {
        if !self.owned && !self.path.as_ref().is_some_and(|p| p.exists()) {
            // Discarded (or removed by hand): nothing of an earlier session left to keep.
            self.owned = true;
        }
    }
}

fn key(doc: &Document) -> (Snapshot, PathBuf) {
    (doc.snapshot(), doc.character_path.clone())
}

/// Writes `stage` with its session clips to `path` atomically (see
/// [`preset::animated_glb`]); the stage is left at its own state. Returns the clips.
pub fn export_animation(
    stage: &mut Stage,
    path: &Path,
    options: &preset::ClipOptions,
) -> Result<Vec<preset::BakedClip>, FileError> {
    let (bytes, clips) =
        preset::animated_glb(stage, options).map_err(|source| FileError::Clip {
            path: path.to_path_buf(),
            source,
        })?;
    preset::io::write_atomic(path, &bytes).map_err(|source| FileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(clips)
}
