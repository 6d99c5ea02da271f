//! The file commands: an artist's props, reloading the character, animation export, save
//! and open. Props and reloads are not undo steps (the file is reloaded to go back); export
//! never changes the document; open replaces the whole editor but its viewport.

use super::command::FileCommand;
use super::document::Document;
use super::edits::Edits;
use super::error::EditorError;
use super::files;

/// What a file command did.
pub(super) enum FileOutcome {
    /// The document changed in place (or was written); the status line.
    Done(String),
    /// A file was opened: the editor starts over on `doc` (keeping its viewport).
    Opened { doc: Box<Document>, message: String },
}

/// Applies one file command (see [`FileCommand`]) to the document of `edits`.
///
/// # Errors
/// A file cannot be read, written or used (the message names it); the document is then
/// unchanged.
pub(super) fn apply(cmd: FileCommand, edits: &mut Edits) -> Result<FileOutcome, EditorError> {
    use FileCommand as C;
    let done = match cmd {
        C::UseProp { prop, path } => edits.use_prop(prop, path)?,
        C::SetRodFrame { flip_ends, length } => edits.set_rod_frame(flip_ends, length)?,
        C::ReloadCharacter => edits.reload_character()?,
        C::ExportAnimation {
            path,
            fps,
            first,
            last,
        } => {
            let options = crate::preset::ClipOptions {
                fps,
                first,
                last,
                ..Default::default()
            };
            export_animation(edits, &path, &options)?
        }
        C::Save { path } => save(edits, path)?,
        C::Open { path } => return open(&path),
    };
    Ok(FileOutcome::Done(done))
}

/// Opens the preset or character at `path` as a new document.
fn open(path: &std::path::Path) -> Result<FileOutcome, EditorError> {
    let (mut doc, warnings) = files::open(path)?;
    if files::autosave_path().is_some_and(|a| a == path) {
        // A recovered autosave is unsaved work, not a file of its own.
        doc.path = None;
        doc.dirty = true;
    } else {
        let _ = files::add_recent(path);
    }
    let message = if warnings.is_empty() {
        format!("opened {}", path.display())
    } else {
        warnings.join("; ")
    };
    Ok(FileOutcome::Opened {
        doc: Box::new(doc),
        message,
    })
}

/// Writes the session's clips (ending a drag or group first); returns the status line.
fn export_animation(
    edits: &mut Edits,
    path: &std::path::Path,
    options: &crate::preset::ClipOptions,
) -> Result<String, EditorError> {
    edits.finish_pending();
    let clips = files::export_animation(&mut edits.doc_mut().stage, path, options)?;
    let keys: usize = clips.iter().map(|c| c.keys_after()).sum();
    let worst = clips.iter().map(|c| c.max_error).fold(0.0, f64::max);
    Ok(format!(
        "exported {} clips ({keys} keys, within {:.2} mm) to {}",
        clips.len(),
        worst * 1e3,
        path.display()
    ))
}

/// Saves the document to `path` (else where it was saved before); returns the status line.
fn save(edits: &mut Edits, path: Option<std::path::PathBuf>) -> Result<String, EditorError> {
    edits.finish_pending();
    let path = path
        .or_else(|| edits.doc().path.clone())
        .ok_or_else(|| EditorError::Invalid("no file name to save to".into()))?;
    files::save(edits.doc_mut(), &path)?;
    let _ = files::add_recent(&path);
    Ok(format!("saved {}", path.display()))
}
