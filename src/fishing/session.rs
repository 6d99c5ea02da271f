//! Phases, session parameters and the continuous timeline.

use super::rules::{self, FieldProblem, Path};
use super::tackle_params::{LineParams, RodAction, WaterParams};
use crate::rig::Side;
use serde::{Deserialize, Serialize};

/// The phases of a session, in timeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Seated, rod held with both hands, tip about 35° up.
    SeatedHold,
    /// The tip goes back past vertical ("1 o'clock").
    CastWindUp,
    /// The forward stroke to "10 o'clock".
    CastForward,
    /// Line released; the follow-through lowers the tip toward the water.
    Release,
    /// Reeling: the rear hand leaves the butt and turns the reel handle.
    Retrieve,
    /// A quick lift of the tip to set the hook.
    Strike,
    /// The rod hand lifts the rod high and back; the other hand takes the net low and forward.
    Landing,
}

impl Phase {
    /// Every phase, in timeline order.
    pub const ALL: [Phase; 7] = [
        Phase::SeatedHold,
        Phase::CastWindUp,
        Phase::CastForward,
        Phase::Release,
        Phase::Retrieve,
        Phase::Strike,
        Phase::Landing,
    ];

    /// Position in [`Phase::ALL`] (0 for [`Phase::SeatedHold`]).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The snake_case key used in presets and JSON (`seated_hold`, …).
    pub fn name(self) -> &'static str {
        match self {
            Phase::SeatedHold => "seated_hold",
            Phase::CastWindUp => "cast_wind_up",
            Phase::CastForward => "cast_forward",
            Phase::Release => "release",
            Phase::Retrieve => "retrieve",
            Phase::Strike => "strike",
            Phase::Landing => "landing",
        }
    }

    /// The phase whose [`Phase::name`] is `name`, if any.
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Which hand is dominant: it holds the rod at the reel seat; the other hand holds the butt,
/// turns the reel and takes the net.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Handedness {
    /// The right hand holds the reel seat (the default).
    #[default]
    Right,
    /// The left hand holds the reel seat; the rod, net and grip keys are mirrored (x → −x).
    Left,
}

impl Handedness {
    /// The side of the hand that holds the reel seat (the front grip).
    pub fn front_side(self) -> Side {
        match self {
            Self::Right => Side::Right,
            Self::Left => Side::Left,
        }
    }
}

/// Session parameters. Preconditions (checked by [`SessionParams::validate`]): finite,
/// `rod_length` in 1.0..=5.0 m, `cast_power` in 0.2..=2.0, water and line within their
/// ranges (see [`WaterParams`], [`LineParams`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionParams {
    /// Butt-to-tip length of the rod, metres (1.0..=5.0).
    pub rod_length: f64,
    /// Scales how far back the wind-up goes and how fast the cast phases run.
    pub cast_power: f64,
    /// Which hand is dominant.
    pub handedness: Handedness,
    /// Where the water is (issue 34).
    #[serde(default)]
    pub water: WaterParams,
    /// The line, lure and fish (issue 34).
    #[serde(default)]
    pub line: LineParams,
    /// Where the rod bends under the line's pull.
    #[serde(default)]
    pub rod_action: RodAction,
}

impl Default for SessionParams {
    fn default() -> Self {
        Self {
            rod_length: 2.4,
            cast_power: 1.0,
            handedness: Handedness::Right,
            water: WaterParams::default(),
            line: LineParams::default(),
            rod_action: RodAction::default(),
        }
    }
}

impl SessionParams {
    /// Every broken rule under `prefix`: `rod_length` in 1..=5 m, `cast_power` in 0.2..=2,
    /// the water's and the line's ranges.
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        self.check(&Path::root(prefix), &mut out);
        out
    }

    fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        rules::number(self.rod_length, &at.join("rod_length"), 1.0, 5.0, out);
        rules::number(self.cast_power, &at.join("cast_power"), 0.2, 2.0, out);
        self.water.check(&at.join("water"), out);
        self.line.check(&at.join("line"), out);
    }

    /// The first of [`SessionParams::problems`].
    ///
    /// # Errors
    /// The first problem, as `path: message`, when a rule is broken.
    pub fn validate(&self) -> Result<(), String> {
        rules::first(self.problems(""))
    }

    /// Duration of each phase in seconds; the cast phases run faster with more power.
    pub fn phase_duration(&self, phase: Phase) -> f64 {
        let power = self.cast_power.clamp(0.2, 2.0);
        match phase {
            Phase::SeatedHold => 2.0,
            Phase::CastWindUp => 1.0 / power.sqrt(),
            Phase::CastForward => 0.5 / power.sqrt(),
            Phase::Release => 0.8,
            Phase::Retrieve => 3.0,
            Phase::Strike => 0.4,
            Phase::Landing => 2.5,
        }
    }

    /// Length of the whole timeline in seconds.
    pub fn total_duration(&self) -> f64 {
        Phase::ALL.iter().map(|&p| self.phase_duration(p)).sum()
    }

    /// Seconds from the start of the timeline to the start of `phase`.
    pub fn phase_start(&self, phase: Phase) -> f64 {
        Phase::ALL[..phase.index()]
            .iter()
            .map(|&p| self.phase_duration(p))
            .sum()
    }
}

/// Where the session is: a phase, the normalised time within it (0..=1) and the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionState {
    /// The current phase.
    pub phase: Phase,
    /// Normalised time within the phase, 0..=1 (clamped on use).
    pub t: f64,
    /// The session parameters.
    pub params: SessionParams,
}

impl Default for SessionState {
    fn default() -> Self {
        Self {
            phase: Phase::SeatedHold,
            t: 0.0,
            params: SessionParams::default(),
        }
    }
}

impl SessionState {
    /// A state from its fields, stored as given (`t` is not clamped).
    pub fn new(phase: Phase, t: f64, params: SessionParams) -> Self {
        Self { phase, t, params }
    }

    /// The state at `seconds` on the continuous timeline (clamped to its ends; NaN maps to
    /// the start). The end of a phase and the start of the next are the same pose.
    pub fn at_time(seconds: f64, params: SessionParams) -> Self {
        let mut rest = if seconds.is_finite() {
            seconds.max(0.0)
        } else {
            0.0
        };
        for phase in Phase::ALL {
            let d = params.phase_duration(phase);
            if rest < d || phase == Phase::Landing {
                return Self::new(phase, (rest / d).min(1.0), params);
            }
            rest -= d;
        }
        unreachable!("the loop returns at the last phase")
    }

    /// The state at `u` in 0..=1 of the whole timeline.
    pub fn at_fraction(u: f64, params: SessionParams) -> Self {
        Self::at_time(u * params.total_duration(), params)
    }

    /// Seconds from the start of the timeline.
    pub fn time(&self) -> f64 {
        self.params.phase_start(self.phase)
            + self.t_clamped() * self.params.phase_duration(self.phase)
    }

    /// Every broken rule under `prefix`: `t` in 0..=1 and the parameters'.
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        let root = Path::root(prefix);
        rules::number(self.t, &root.join("t"), 0.0, 1.0, &mut out);
        self.params.check(&root.join("params"), &mut out);
        out
    }

    /// `t` clamped into 0..=1 (NaN → 0).
    pub fn t_clamped(&self) -> f64 {
        if self.t.is_nan() {
            0.0
        } else {
            self.t.clamp(0.0, 1.0)
        }
    }
}
