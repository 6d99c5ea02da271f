//! The line, the lure, the fish and the rod's bend at one instant of the session (issue 34).
//! Pure functions of the session state, like the rod keys: deterministic and scrubbable,
//! nothing carried between frames.
//!
//! The story the line tells, phase by phase (actor space, the angler facing +Z):
//! - seated hold, wind-up, forward stroke: the lure hangs from the tip on the line's drop,
//!   swung by the tip's acceleration (a pendulum that follows at once), never below the water;
//! - release: it flies along a ballistic path from where it hung to the water, `length_out`
//!   metres out along the rod's direction (eased in time, so it leaves and lands smoothly),
//!   the line trailing from the tip, and floats there;
//! - retrieve: it comes in over the water as the reel turns, the line shortening and
//!   tightening toward where it enters the water;
//! - strike: a fish takes it and dives, the pull rising to `fish_pull`;
//! - landing: the fish is brought to the net's hoop, the rod bent under the pull.
//!
//! Every phase starts where the one before ended, so the line is continuous in time (each
//! piece eases with the phase's smootherstep).

use super::calibration::GripCalibration;
use super::gear::Gear;
use super::rod_bend::{BendChain, RodBend, RodBendError, RodBendJob};
use super::rod_guides::RodGuide;
use super::seat::BodyFit;
use super::session::{Phase, SessionState};
use super::session_frames::{SessionFrames, ease};
use super::tackle_params::WaterParams;
use crate::rig::Transform;
use glam::DVec3;

/// Points of the line's polyline, tip first.
pub const LINE_POINTS: usize = 48;

/// Gravity, m/s².
pub const GRAVITY: f64 = 9.81;

/// The most the tip's acceleration swings the hanging lure, as a share of gravity: the swing
/// saturates toward it (`|a|·k / (|a| + k)`, k = this × g), so the lure swings smoothly
/// behind and ahead of the tip but never over it.
const SWING: f64 = 0.8;

/// The share of the release in which the lure flies; it floats for the rest.
const FLIGHT: f64 = 0.7;

/// How much of the way back toward the rod the retrieve brings the lure.
const RETRIEVED: f64 = 0.55;

/// How deep the fish dives in the strike, metres.
const DIVE: f64 = 0.35;

/// The lure stays this far beyond the bank's edge, metres.
const OFF_BANK: f64 = 0.5;

/// Step of the second difference that gives the tip's acceleration, seconds. A wide step is
/// the acceleration averaged under a triangle 2 × this wide: the keys' acceleration has a
/// kink at every phase boundary (smootherstep's jerk turns over there), and a lure hanging
/// from it would swing with a jump in speed; averaged, its swing is smooth (and closer to a
/// real lure's lag).
const STEP: f64 = 0.2;

/// The line, lure, fish and bend at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct Tackle {
    /// The line, actor space: [`LINE_POINTS`] points from the (bent) rod tip to the lure or
    /// the fish.
    pub line_in_actor: Vec<DVec3>,
    /// The lure (the fish's mouth once it has taken it), actor space.
    pub lure_in_actor: DVec3,
    /// The fish, when one is on (strike and landing).
    pub fish_in_actor: Option<DVec3>,
    /// The line's pull on the tip, newtons.
    pub pull: f64,
    /// The rod's bend under that pull, rod space.
    pub bend: RodBend,
    /// The bent tip, actor space.
    pub tip_in_actor: DVec3,
    /// Where the line leaves the reel, actor space (`None` without guides or a reel found).
    pub reel_exit_in_actor: Option<DVec3>,
    /// The centres of the rod's guides as bent, actor space, butt first: the line runs from
    /// the reel through them to the tip (empty for a rod without guides: it starts at the
    /// tip).
    pub guides_in_actor: Vec<DVec3>,
    /// How far the line's middle hangs below the straight tip–lure segment, metres.
    pub sag: f64,
    /// The water.
    pub water: WaterParams,
}

/// One instant of tackle to solve: what poses the rod, and the session.
#[derive(Clone, Copy, Debug)]
pub struct TackleJob<'a> {
    /// The instant and the session's parameters.
    pub state: &'a SessionState,
    /// Carries the rod (its adjustment).
    pub calibration: &'a GripCalibration,
    /// The rod and net keys carried to the body.
    pub fit: &'a BodyFit,
    /// The rod's length and grips, the net's hoop.
    pub gear: &'a Gear,
    /// The rod's guides (see [`super::rod_guides::find_guides`]; empty: the line leaves the
    /// tip alone).
    pub guides: &'a [RodGuide],
    /// Where the line leaves the reel, rod space (see
    /// [`super::rod_guides::find_reel_exit`], which finds none without guides); ahead of the
    /// bend, so it does not move.
    pub reel_exit_in_rod: Option<DVec3>,
}

/// Why the tackle cannot be solved.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TackleError {
    /// A session parameter out of its range (`path: message`).
    #[error("session: {0}")]
    Params(String),
    /// The rod's bend (a rod with no blank past its grips).
    #[error(transparent)]
    Bend(#[from] RodBendError),
}

impl TackleJob<'_> {
    /// # Errors
    /// [`TackleError::Params`] for a session parameter out of its range.
    pub fn validate(&self) -> Result<(), TackleError> {
        self.state.params.validate().map_err(TackleError::Params)
    }

    /// The tackle at the job's instant.
    ///
    /// # Errors
    /// See [`TackleJob::validate`]; a rod whose grips leave no blank to bend.
    pub fn solve(&self) -> Result<Tackle, TackleError> {
        self.validate()?;
        let water = self.state.params.water;
        // The rod alone (the grips are the poser's; the net only in the landing).
        let actor_from_rod =
            SessionFrames::rod_in_actor(self.state, self.calibration, self.fit, self.gear);
        let rod = &self.gear.rod;
        let chain = BendChain::for_rod(rod.length, rod.reel_seat);
        let straight_tip = self.tip_in(&actor_from_rod);
        let (lure, fish) = self.lure_and_fish(straight_tip);
        let pull = self.pull();
        let mut bend = RodBend::straight(chain);
        let mut tip = straight_tip;
        if pull > 0.0 {
            let rod_from_actor = actor_from_rod.rotation.inverse();
            let job = |from: DVec3| RodBendJob {
                chain,
                action: self.state.params.rod_action,
                tip_load_in_rod: rod_from_actor * ((lure - from).normalize_or_zero() * pull),
            };
            // Twice: the pull's direction from the bent tip moves the tip a little again. The
            // first solve gives only that tip; the second starts from its shape.
            let first = job(straight_tip).solve_tip()?;
            bend = job(point(&actor_from_rod, first.tip_in_rod)).solve_near_tip(&first)?;
            tip = point(&actor_from_rod, bend.tip_in_rod);
        }
        let guides_in_actor = self
            .guides
            .iter()
            .map(|g| point(&actor_from_rod, g.bent_in_rod(&bend)))
            .collect();
        let reel_exit_in_actor = self.reel_exit_in_rod.map(|p| point(&actor_from_rod, p));
        let sag = self.sag() * tip.distance(lure);
        let line_in_actor = (0..LINE_POINTS)
            .map(|i| {
                let u = i as f64 / (LINE_POINTS - 1) as f64;
                tip.lerp(lure, u) - DVec3::Y * (4.0 * sag * u * (1.0 - u))
            })
            .collect();
        Ok(Tackle {
            line_in_actor,
            lure_in_actor: lure,
            fish_in_actor: fish,
            pull,
            bend,
            tip_in_actor: tip,
            reel_exit_in_actor,
            guides_in_actor,
            sag,
            water,
        })
    }

    /// The straight rod's tip, actor space, with the rod at `actor_from_rod`.
    fn tip_in(&self, actor_from_rod: &Transform) -> DVec3 {
        point(actor_from_rod, DVec3::Y * self.gear.rod.length)
    }

    /// The straight rod's tip at `state`, actor space (the rod alone posed).
    fn tip_of(&self, state: &SessionState) -> DVec3 {
        self.tip_in(&SessionFrames::rod_in_actor(
            state,
            self.calibration,
            self.fit,
            self.gear,
        ))
    }

    fn tip_at(&self, seconds: f64) -> DVec3 {
        self.tip_of(&SessionState::at_time(seconds, self.state.params))
    }

    fn at(&self, phase: Phase, t: f64) -> SessionState {
        SessionState::new(phase, t, self.state.params)
    }

    /// The lure hanging from the tip on the drop at `state` (`tip`: the straight rod's tip
    /// then), swung by the tip's acceleration.
    fn hanging(&self, state: &SessionState, tip: DVec3) -> DVec3 {
        let s = state.time();
        let accel = (self.tip_at(s + STEP) - 2.0 * tip + self.tip_at(s - STEP)) / (STEP * STEP);
        let k = SWING * GRAVITY;
        let swing = accel * (k / (accel.length() + k));
        let pulled = DVec3::NEG_Y * GRAVITY - swing;
        let down = pulled.try_normalize().unwrap_or(DVec3::NEG_Y);
        let mut lure = tip + down * self.state.params.line.drop;
        lure.y = lure.y.max(self.state.params.water.height);
        lure
    }

    /// Where the cast lands — on the water `length_out` from the tip at the release, along
    /// the rod's direction then, beyond the bank — and where the retrieve leaves the lure:
    /// both from the rod at the release, posed once.
    fn cast(&self) -> Cast {
        let params = &self.state.params;
        let release = SessionFrames::rod_in_actor(
            &self.at(Phase::Release, 0.0),
            self.calibration,
            self.fit,
            self.gear,
        );
        let tip = self.tip_in(&release);
        let butt = release.translation;
        let flat = DVec3::new(tip.x - butt.x, 0.0, tip.z - butt.z);
        let dir = flat.try_normalize().unwrap_or(DVec3::Z);
        let off_bank = params.water.near + OFF_BANK;
        let mut land = tip + dir * params.line.length_out;
        land.y = params.water.height;
        land.z = land.z.max(off_bank);
        let mut retrieved = land.lerp(DVec3::new(tip.x, land.y, tip.z), RETRIEVED);
        retrieved.z = retrieved.z.max(off_bank);
        Cast { land, retrieved }
    }

    /// The net's hoop at the job's instant, actor space.
    fn hoop(&self) -> DVec3 {
        let net = &self.gear.net;
        let from_end = net.length - (0.15 * net.length).min(0.25);
        let actor_from_net = SessionFrames::net_in_actor(self.state, self.fit, self.gear);
        point(&actor_from_net, DVec3::Y * from_end)
    }

    /// The lure, and the fish once one is on, at the job's instant (`tip`: the straight rod's
    /// tip then).
    fn lure_and_fish(&self, tip: DVec3) -> (DVec3, Option<DVec3>) {
        let state = self.state;
        let t = state.t_clamped();
        match state.phase {
            Phase::SeatedHold | Phase::CastWindUp | Phase::CastForward => {
                (self.hanging(state, tip), None)
            }
            Phase::Release => {
                let release = self.at(Phase::Release, 0.0);
                let from = self.hanging(&release, self.tip_of(&release));
                let to = self.cast().land;
                // Along the ballistic path, leaving and landing at rest (smoothstep in time):
                // the lure hung still at the end of the stroke, and a kink in its motion
                // would be a jump in any clip's between-frame error.
                let flight = FLIGHT * state.params.phase_duration(Phase::Release);
                let u = (t / FLIGHT).min(1.0);
                let tau = u * u * (3.0 - 2.0 * u) * flight;
                (ballistic(from, to, flight, tau), None)
            }
            Phase::Retrieve => {
                let cast = self.cast();
                (cast.land.lerp(cast.retrieved, ease(t)), None)
            }
            Phase::Strike => {
                let fish = self.cast().retrieved - DVec3::Y * (DIVE * ease(t));
                (fish, Some(fish))
            }
            Phase::Landing => {
                let from = self.cast().retrieved - DVec3::Y * DIVE;
                let fish = from.lerp(self.hoop(), ease(t));
                (fish, Some(fish))
            }
        }
    }

    /// The line's pull on the tip, newtons: the fish's, rising through the strike and
    /// easing as the fish comes to the net; nothing without a fish.
    fn pull(&self) -> f64 {
        let pull = self.state.params.line.fish_pull;
        let t = ease(self.state.t_clamped());
        match self.state.phase {
            Phase::Strike => pull * t,
            Phase::Landing => pull * (1.0 - 0.6 * t),
            _ => 0.0,
        }
    }

    /// The line's sag at its middle, as a share of the tip–lure distance: none while the
    /// lure hangs or a fish pulls, some while it trails and lies on the water.
    fn sag(&self) -> f64 {
        let t = ease(self.state.t_clamped());
        match self.state.phase {
            Phase::SeatedHold | Phase::CastWindUp | Phase::CastForward | Phase::Landing => 0.0,
            Phase::Release => 0.04 * t,
            Phase::Retrieve => 0.04 - 0.03 * t,
            Phase::Strike => 0.01 * (1.0 - t),
        }
    }
}

/// Where the cast puts the lure, actor space (see [`TackleJob::cast`]).
struct Cast {
    /// On the water where the cast lands.
    land: DVec3,
    /// On the water where the retrieve leaves it.
    retrieved: DVec3,
}

/// The ballistic path from `from` that reaches `to` after `flight` seconds, at `tau`
/// seconds (gravity only).
fn ballistic(from: DVec3, to: DVec3, flight: f64, tau: f64) -> DVec3 {
    let g = DVec3::NEG_Y * GRAVITY;
    let v0 = (to - from - 0.5 * g * flight * flight) / flight;
    from + v0 * tau + 0.5 * g * tau * tau
}

impl Tackle {
    /// The line as the quadratic Bézier curve it is (actor space): the tip, the control point
    /// and the lure. Its point at `u` is `(1−u)²·P0 + 2u(1−u)·P1 + u²·P2`, which is exactly
    /// where [`Tackle::line_in_actor`]'s points lie (`u = i / (LINE_POINTS − 1)`).
    pub fn line_bezier(&self) -> [DVec3; 3] {
        let control = self.tip_in_actor.lerp(self.lure_in_actor, 0.5) - DVec3::Y * (2.0 * self.sag);
        [self.tip_in_actor, control, self.lure_in_actor]
    }
}

fn point(t: &Transform, p: DVec3) -> DVec3 {
    t.translation + t.rotation * (p * t.scale)
}
