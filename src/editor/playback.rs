//! [`Playback`]: whether the session plays and how fast, and the playback commands —
//! scrubbing, phases, jumping to the weakest instant, play and speed, and the per-frame tick.
//! Time is not an undo step and never dirties the document.

use super::command::PlaybackCommand;
use super::edits::Edits;
use super::error::EditorError;
use crate::fishing::SessionState;

/// Play state and speed (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    playing: bool,
    /// Playback speed (1 = real time).
    speed: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            playing: false,
            speed: 1.0,
        }
    }
}

impl Playback {
    /// Whether the session plays.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Playback speed (1 = real time).
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Applies one playback command (see [`PlaybackCommand`]) to the session of `edits`.
    ///
    /// # Errors
    /// The pose cannot be solved at the new time; the time then stays where it was.
    pub(super) fn apply(
        &mut self,
        cmd: PlaybackCommand,
        edits: &mut Edits,
    ) -> Result<(), EditorError> {
        use PlaybackCommand as C;
        let params = edits.doc().stage.inputs.state.params;
        match cmd {
            C::SetTime { seconds } => {
                edits.set_state(SessionState::at_time(seconds, params), true)?;
            }
            C::SetPhase { phase, t } => {
                edits.set_state(SessionState::new(phase, t.clamp(0.0, 1.0), params), true)?;
            }
            C::JumpToWeakest => {
                if let Some((_, seconds, _)) = edits.weakest_instant() {
                    edits.set_state(SessionState::at_time(seconds, params), true)?;
                }
            }
            C::Play { on } => self.playing = on,
            C::SetSpeed { value } => {
                if value.is_finite() {
                    self.speed = value.clamp(0.05, 4.0);
                }
            }
            C::Tick { dt } => {
                if self.playing && edits.drag().is_none() && dt.is_finite() && dt > 0.0 {
                    let state = edits.doc().stage.inputs.state;
                    let total = state.params.total_duration();
                    let mut t = state.time() + dt.min(0.5) * self.speed;
                    let wrapped = t > total;
                    if wrapped {
                        t = 0.0;
                    }
                    edits.set_state(SessionState::at_time(t, state.params), wrapped)?;
                }
            }
        }
        Ok(())
    }
}
