//! The only file I/O of presets: loading (which never writes), atomic saving, reference
//! checks and building a [`Stage`] from a preset file.

use super::parse::parse_preset;
use super::{CharacterRef, NetRef, Preset, PresetError, Problem, RodRef, check_preset, sha256_hex};
use crate::gltf_io;
use crate::rig::Side;
use crate::stage::{
    NetSource, PropSources, Props, RodGrips, RodSource, Stage, StageError, bundled_assets_dir,
};
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The bundled default preset (used when no preset file is given).
pub fn bundled_preset_path() -> PathBuf {
    bundled_assets_dir()
        .join("presets")
        .join("seated_hold.json")
}

/// Largest preset file accepted. Presets are a few kilobytes; anything this large is not one,
/// and parsing it would take minutes and gigabytes.
pub const MAX_PRESET_BYTES: u64 = 16 << 20;

/// Reads and parses a preset. The file is only read, never modified. Files over
/// [`MAX_PRESET_BYTES`] are refused before they are read.
///
/// # Errors
/// [`PresetError::Io`] when the file cannot be read; [`PresetError::Invalid`] when it is too
/// large, not UTF-8 or fails [`parse_preset`].
pub fn load_preset(path: impl AsRef<Path>) -> Result<Preset, PresetError> {
    let path = path.as_ref();
    let size = std::fs::metadata(path)
        .map_err(|source| PresetError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if size > MAX_PRESET_BYTES {
        return Err(PresetError::Invalid {
            path: path.to_path_buf(),
            problems: vec![Problem::error(
                "(root)",
                format!(
                    "the file is {size} bytes, larger than the {MAX_PRESET_BYTES} bytes a preset \
                     may have"
                ),
            )],
        });
    }
    let bytes = std::fs::read(path).map_err(|source| PresetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| PresetError::Invalid {
        path: path.to_path_buf(),
        problems: vec![Problem::error(
            "(root)",
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )],
    })?;
    parse_preset(&text).map_err(|problems| PresetError::Invalid {
        path: path.to_path_buf(),
        problems,
    })
}

/// Checks `preset` and writes it atomically (see [`write_atomic`]). A preset with errors is
/// refused and nothing is written.
///
/// # Errors
/// [`PresetError::NotSaved`] when [`check_preset`] finds errors; [`PresetError::Io`] when
/// writing fails.
pub fn save_preset_atomic(path: impl AsRef<Path>, preset: &Preset) -> Result<(), PresetError> {
    let path = path.as_ref();
    let problems: Vec<Problem> = check_preset(preset)
        .into_iter()
        .filter(Problem::is_error)
        .collect();
    if !problems.is_empty() {
        return Err(PresetError::NotSaved {
            path: path.to_path_buf(),
            problems,
        });
    }
    write_atomic(path, preset.to_json().as_bytes()).map_err(|source| PresetError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `bytes` to `path` without ever leaving a partial file: a temporary file in the same
/// folder is written, flushed and fsynced, then renamed over `path` (and the folder fsynced,
/// best effort). On any failure the temporary file is removed and `path` is untouched.
///
/// # Errors
/// As [`write_atomic_with`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the content produced by `write` (which may fail half-way; the
/// target is then left as it was).
///
/// # Errors
/// When `path` has no file name, no temporary file can be created, `write` fails, or
/// flushing, fsyncing or renaming fails.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| std::io::Error::other(format!("{} has no file name", path.display())))?;
    // A save killed mid-write leaves its temp file behind, and a later process may get the
    // same pid: skip names that exist instead of failing.
    let (tmp, mut file) = {
        let mut attempt = 0;
        loop {
            let tmp = dir.join(format!(
                ".{name}.tmp-{}-{}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match File::create_new(&tmp) {
                Ok(file) => break (tmp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    };
    let result = (|| {
        {
            let mut buffered = std::io::BufWriter::new(&mut file);
            write(&mut buffered)?;
            buffered.flush()?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The character file of `preset`, resolved against the folder of `preset_path`.
pub fn character_path(preset_path: &Path, preset: &Preset) -> PathBuf {
    resolve(preset_path, &preset.character.path)
}

/// A preset's file reference `path`, resolved against the folder of `preset_path`.
pub fn resolve(preset_path: &Path, path: &str) -> PathBuf {
    let rel = Path::new(path);
    if rel.is_absolute() {
        return rel.to_path_buf();
    }
    let dir = preset_path.parent().unwrap_or(Path::new(""));
    dir.join(rel)
}

/// The artist's rod, net and seat files `preset` names, resolved against its folder, with
/// their corrections.
pub fn prop_sources(preset_path: &Path, preset: &Preset) -> PropSources {
    PropSources {
        rod: preset.rod.as_ref().map(|r| RodSource {
            path: resolve(preset_path, &r.path),
            length: r.length,
            flip_ends: r.flip_ends,
            grips: RodGrips {
                rear_grip: r.rear_grip,
                reel_seat: r.reel_seat,
                reel_above: r.reel_above,
                butt_offset: r.butt_offset,
            },
        }),
        net: preset.net.as_ref().map(|n| NetSource {
            path: resolve(preset_path, &n.path),
            length: n.length,
        }),
        seat: preset.seat.as_ref().map(|s| resolve(preset_path, &s.path)),
    }
}

/// A preset's `rod`, `net` and `seat` references.
pub type PropRefs = (Option<RodRef>, Option<NetRef>, Option<CharacterRef>);

/// The `rod`, `net` and `seat` references of a preset saved at `preset_path` for `sources`
/// (paths relative to the preset's folder, with the files' hashes).
///
/// # Errors
/// As [`character_ref`], for each file.
pub fn prop_refs(preset_path: &Path, sources: &PropSources) -> Result<PropRefs, PresetError> {
    let rod = match &sources.rod {
        Some(r) => {
            let f = character_ref(preset_path, &r.path)?;
            Some(RodRef {
                path: f.path,
                sha256: f.sha256,
                length: r.length,
                rear_grip: r.grips.rear_grip,
                reel_seat: r.grips.reel_seat,
                reel_above: r.grips.reel_above,
                flip_ends: r.flip_ends,
                butt_offset: r.grips.butt_offset,
            })
        }
        None => None,
    };
    let net = match &sources.net {
        Some(n) => {
            let f = character_ref(preset_path, &n.path)?;
            Some(NetRef {
                path: f.path,
                sha256: f.sha256,
                length: n.length,
            })
        }
        None => None,
    };
    let seat = match &sources.seat {
        Some(s) => Some(character_ref(preset_path, s)?),
        None => None,
    };
    Ok((rod, net, seat))
}

/// Every file reference of `preset` that has a hash: (JSON key, resolved file, hash).
fn hashed_files(preset_path: &Path, preset: &Preset) -> Vec<(&'static str, PathBuf, String)> {
    let mut out = Vec::new();
    let mut add = |key, path: &str, hash: &Option<String>| {
        if let Some(h) = hash {
            out.push((key, resolve(preset_path, path), h.clone()));
        }
    };
    add(
        "character",
        &preset.character.path,
        &preset.character.sha256,
    );
    if let Some(r) = &preset.rod {
        add("rod", &r.path, &r.sha256);
    }
    if let Some(n) = &preset.net {
        add("net", &n.path, &n.sha256);
    }
    if let Some(s) = &preset.seat {
        add("seat", &s.path, &s.sha256);
    }
    out
}

/// A [`CharacterRef`] for `character` as seen from a preset saved at `preset_path`: the path
/// relative to the preset's folder (`/`-separated; absolute when no relative path exists, e.g.
/// another drive) and the SHA-256 of the file.
///
/// # Errors
/// [`PresetError::Io`] when `character` cannot be read or canonicalised, or the preset's
/// folder cannot be canonicalised (it must exist).
pub fn character_ref(preset_path: &Path, character: &Path) -> Result<CharacterRef, PresetError> {
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PresetError::Io { path, source }
    };
    let bytes = std::fs::read(character).map_err(io_err(character))?;
    let target = std::fs::canonicalize(character).map_err(io_err(character))?;
    let dir = preset_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(dir).map_err(io_err(dir))?;
    Ok(CharacterRef {
        path: relative_path(&dir, &target),
        sha256: Some(sha256_hex(&bytes)),
    })
}

/// `target` relative to `base` (both absolute and canonical), `/`-separated.
fn relative_path(base: &Path, target: &Path) -> String {
    let b: Vec<Component> = base.components().collect();
    let t: Vec<Component> = target.components().collect();
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return target.to_string_lossy().into_owned();
    }
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Loads the character of a preset and builds the posed [`Stage`]: bundled props, humanoid
/// overrides, calibration, settings and state. Returns warnings (e.g. a changed character
/// hash) next to the stage.
///
/// # Errors
/// [`PresetError::Character`] when the character or the bundled props fail to load,
/// [`PresetError::Humanoid`] when the overrides do not fit the character, and
/// [`PresetError::Stage`] when building the stage or posing it fails.
pub fn load_stage(
    preset_path: &Path,
    preset: &Preset,
) -> Result<(Stage, Vec<Problem>), PresetError> {
    let path = preset_path.to_path_buf();
    let file = character_path(preset_path, preset);
    let warnings = hash_warnings(preset_path, preset);
    let character = gltf_io::load(&file).map_err(|source| PresetError::Character {
        path: path.clone(),
        character: file.clone(),
        source: Box::new(source),
    })?;
    let props = Props::load_with(&bundled_assets_dir(), &prop_sources(preset_path, preset))
        .map_err(|source| PresetError::Prop {
            path: path.clone(),
            source: Box::new(source),
        })?;
    let mut stage =
        Stage::with_overrides(character, props, &preset.humanoid_overrides).map_err(|source| {
            match source {
                StageError::Humanoid { source, .. } => PresetError::Humanoid {
                    path: path.clone(),
                    source,
                },
                source => PresetError::Stage {
                    path: path.clone(),
                    source: Box::new(source),
                },
            }
        })?;
    preset
        .apply_to(&mut stage)
        .map_err(|source| PresetError::Stage {
            path,
            source: Box::new(source.into()),
        })?;
    Ok((stage, warnings))
}

/// Loads and builds the bundled default preset.
///
/// # Errors
/// As [`load_preset`] and [`load_stage`].
pub fn load_default_stage() -> Result<(Preset, Stage, Vec<Problem>), PresetError> {
    let path = bundled_preset_path();
    let preset = load_preset(&path)?;
    let (stage, warnings) = load_stage(&path, &preset)?;
    Ok((preset, stage, warnings))
}

/// An error for each artist's prop file of `sources` that cannot be used, at its key.
fn prop_problems(sources: &PropSources) -> Vec<Problem> {
    let mut out = Vec::new();
    let Ok(mut props) = Props::load(&bundled_assets_dir()) else {
        return out;
    };
    if let Some(r) = &sources.rod
        && let Err(e) = props.set_rod(r)
    {
        out.push(Problem::error("rod.path", e.to_string()));
    }
    if let Some(n) = &sources.net
        && let Err(e) = props.set_net(n)
    {
        out.push(Problem::error("net.path", e.to_string()));
    }
    if let Some(s) = &sources.seat
        && let Err(e) = props.set_seat(s)
    {
        out.push(Problem::error("seat.path", e.to_string()));
    }
    out
}

/// A warning for each referenced file that has changed since the preset was saved.
fn hash_warnings(preset_path: &Path, preset: &Preset) -> Vec<Problem> {
    hashed_files(preset_path, preset)
        .into_iter()
        .filter_map(|(key, file, expected)| {
            let bytes = std::fs::read(&file).ok()?;
            let actual = sha256_hex(&bytes);
            (actual != expected).then(|| {
                Problem::warning(
                    format!("{key}.sha256"),
                    format!(
                        "{} has changed since the preset was saved (sha256 {actual}, preset \
                         has {expected}); poses may differ — re-save the preset to accept it",
                        file.display()
                    ),
                )
            })
        })
        .collect()
}

/// Every problem of a preset file: syntax and schema, finite numbers and ranges, and the
/// references (the character file exists, loads, matches its hash; every override names a
/// bone of it; both arms can be posed). Errors and warnings, in document order where possible.
pub fn validate_file(path: &Path) -> Vec<Problem> {
    let preset = match load_preset(path) {
        Ok(p) => p,
        Err(PresetError::Invalid { problems, .. }) => return problems,
        Err(e) => return vec![Problem::error("(root)", e.to_string())],
    };
    let mut out = check_preset(&preset);
    out.extend(hash_warnings(path, &preset));
    out.extend(prop_problems(&prop_sources(path, &preset)));
    let file = character_path(path, &preset);
    if !file.is_file() {
        out.push(Problem::error(
            "character.path",
            format!("character file {} does not exist", file.display()),
        ));
        return out;
    }
    let character = match gltf_io::load(&file) {
        Ok(c) => c,
        Err(e) => {
            out.push(Problem::error("character.path", e.to_string()));
            return out;
        }
    };
    let skel = &character.skeleton;
    let mut unknown = false;
    for (role, name) in &preset.humanoid_overrides.bones {
        if skel.bones().iter().all(|b| b.name != *name) {
            unknown = true;
            out.push(Problem::error(
                format!("humanoid_overrides[\"{role}\"]"),
                format!("no bone named {name:?} in {}", file.display()),
            ));
        }
    }
    if !unknown {
        match character.humanoid(&preset.humanoid_overrides) {
            Ok(map) => {
                for side in [Side::Left, Side::Right] {
                    if map.arm(side).is_none() {
                        out.push(Problem::error(
                            "humanoid_overrides",
                            format!(
                                "the {side:?} arm of {} is not mapped (upper arm, forearm and \
                                 hand are needed)",
                                file.display()
                            ),
                        ));
                    }
                }
            }
            Err(e) => out.push(Problem::error("humanoid_overrides", e.to_string())),
        }
    }
    out
}
