//! The playback commands of [`EditorState`]: scrubbing, phases, play and speed, and the
//! per-frame tick. Time is not an undo step and never dirties the document.

use super::command::PlaybackCommand;
use super::state::{EditorError, EditorState};
use crate::fishing::SessionState;

impl EditorState {
    /// Applies one playback command (see [`PlaybackCommand`]).
    ///
    /// # Errors
    /// The pose cannot be solved at the new time; the time then stays where it was.
    pub(super) fn playback_command(&mut self, cmd: PlaybackCommand) -> Result<(), EditorError> {
        use PlaybackCommand as C;
        match cmd {
            C::SetTime { seconds } => {
                let params = self.doc.stage.inputs.state.params;
                self.set_state(SessionState::at_time(seconds, params), true)?;
            }
            C::SetPhase { phase, t } => {
                let params = self.doc.stage.inputs.state.params;
                self.set_state(SessionState::new(phase, t.clamp(0.0, 1.0), params), true)?;
            }
            C::JumpToWeakest => {
                if let Some((_, seconds, _)) = self.weakest_instant() {
                    let params = self.doc.stage.inputs.state.params;
                    self.set_state(SessionState::at_time(seconds, params), true)?;
                }
            }
            C::Play { on } => self.playing = on,
            C::SetSpeed { value } => {
                if value.is_finite() {
                    self.speed = value.clamp(0.05, 4.0);
                }
            }
            C::Tick { dt } => {
                if self.playing && self.drag.is_none() && dt.is_finite() && dt > 0.0 {
                    let state = self.doc.stage.inputs.state;
                    let total = state.params.total_duration();
                    let mut t = state.time() + dt.min(0.5) * self.speed;
                    let wrapped = t > total;
                    if wrapped {
                        t = 0.0;
                    }
                    self.set_state(SessionState::at_time(t, state.params), wrapped)?;
                }
            }
        }
        Ok(())
    }

    /// Time changes are not undo steps and do not dirty the document.
    fn set_state(&mut self, state: SessionState, jump: bool) -> Result<(), EditorError> {
        let previous = self.doc.stage.inputs.state;
        self.doc.stage.inputs.state = state;
        if jump {
            self.doc.stage.reset_flip_tracking();
        }
        if let Err(e) = self.doc.stage.update() {
            self.doc.stage.inputs.state = previous;
            let _ = self.doc.stage.update();
            return Err(e.into());
        }
        Ok(())
    }
}
