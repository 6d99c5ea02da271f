//! The file commands of [`EditorState`]: an artist's props, reloading the character,
//! animation export, save and open. Props and reloads are not undo steps (the file is
//! reloaded to go back); export never changes the document.

use super::command::FileCommand;
use super::files;
use super::state::{EditorError, EditorState};

impl EditorState {
    /// Applies one file command (see [`FileCommand`]).
    ///
    /// # Errors
    /// A file cannot be read, written or used (the message names it); the document is then
    /// unchanged.
    pub(super) fn file_command(&mut self, cmd: FileCommand) -> Result<(), EditorError> {
        use FileCommand as C;
        match cmd {
            C::UseProp { prop, path } => self.use_prop(prop, path)?,
            C::SetRodFrame { flip_ends, length } => self.set_rod_frame(flip_ends, length)?,
            C::ReloadCharacter => self.reload_character()?,
            C::ExportAnimation {
                path,
                fps,
                first,
                last,
            } => {
                self.finish_pending();
                let options = crate::preset::ClipOptions {
                    fps,
                    first,
                    last,
                    ..Default::default()
                };
                let clips = files::export_animation(&mut self.doc.stage, &path, &options)?;
                let keys: usize = clips.iter().map(|c| c.keys_after()).sum();
                let worst = clips.iter().map(|c| c.max_error).fold(0.0, f64::max);
                self.message = Some(format!(
                    "exported {} clips ({keys} keys, within {:.2} mm) to {}",
                    clips.len(),
                    worst * 1e3,
                    path.display()
                ));
            }
            C::Save { path } => {
                self.finish_pending();
                let path = path
                    .or_else(|| self.doc.path.clone())
                    .ok_or_else(|| EditorError::Invalid("no file name to save to".into()))?;
                files::save(&mut self.doc, &path)?;
                let _ = files::add_recent(&path);
                self.message = Some(format!("saved {}", path.display()));
            }
            C::Open { path } => {
                let (doc, warnings) = files::open(&path)?;
                let viewport = self.viewport;
                *self = EditorState::new(doc);
                self.viewport = viewport;
                if files::autosave_path().is_some_and(|a| a == path) {
                    // A recovered autosave is unsaved work, not a file of its own.
                    self.doc.path = None;
                    self.doc.dirty = true;
                } else {
                    let _ = files::add_recent(&path);
                }
                self.message = Some(if warnings.is_empty() {
                    format!("opened {}", path.display())
                } else {
                    warnings.join("; ")
                });
            }
        }
        Ok(())
    }
}
