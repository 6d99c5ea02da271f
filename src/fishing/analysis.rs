//! Timeline analysis (elbow flips, out-of-reach grips, limit clamps) and a pole search that
//! proposes poles without flips and with natural elbows.

use super::actor::ActorRig;
use super::arm_report::ArmReport;
use super::calibration::{GripCalibration, PoleKeys};
use super::poser::{PoseEvaluation, Poser, SessionError};
use super::session::{Phase, SessionParams, SessionState};
use super::{PerSide, SIDES};
use super::{PoseInputs, SolverSettings};
use crate::rig::{Pose, Side, Transform};
use glam::DVec3;

/// One arm at one timeline sample.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ArmSample {
    /// Seconds from the start of the timeline.
    pub time: f64,
    /// The phase at this sample.
    pub phase: Phase,
    /// Elbow bend in radians (0 = straight arm).
    pub elbow_bend: f64,
    /// Cosine between the bend-plane normal and the arm's rest bend normal: +1 = the elbow
    /// bends the way it does at rest, −1 = the opposite way.
    pub bend_side: f64,
    /// The wrist reached its target (see [`super::ArmReport::ik`]).
    pub reached: bool,
    /// Distance from the wrist to its target, metres.
    pub residual: f64,
    /// The elbow was on its limit (CCD: the forearm link hit a limit).
    pub limited: bool,
    /// The bend plane turned by more than 90° since the previous sample.
    pub flipped: bool,
    /// Elbow position in actor space.
    pub elbow_in_actor: DVec3,
    /// Fingers with a contact on the held surface (contact grips, a hand on one grip).
    pub fingers_on_grip: u32,
    /// Of those, the fingers touching it.
    pub fingers_touching: u32,
    /// The finger gap farthest from the surface, metres (negative: inside; 0 without any).
    pub worst_finger_gap: f64,
}

/// A sample at which an arm's bend plane flipped.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FlipEvent {
    /// The arm that flipped.
    pub side: Side,
    /// Index of the sample in [`TimelineAnalysis::samples`].
    pub sample: usize,
    /// Seconds from the start of the timeline.
    pub time: f64,
    /// The phase at the sample.
    pub phase: Phase,
    /// Normalised time within the phase, 0..=1.
    pub t: f64,
}

/// A run of consecutive samples with a problem.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TimelineIssue {
    /// The arm affected.
    pub side: Side,
    /// Index of the first sample of the run.
    pub first_sample: usize,
    /// Index of the last sample of the run (inclusive).
    pub last_sample: usize,
    /// Time of the first sample, seconds.
    pub start_time: f64,
    /// Time of the last sample, seconds.
    pub end_time: f64,
    /// Largest residual (out of reach), largest elbow bend in radians (limit clamps) or
    /// smallest stability margin in metres ([`TimelineAnalysis::thin_margins`]).
    pub worst: f64,
}

/// What [`analyse_timeline`] found over the whole session.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct TimelineAnalysis {
    /// Every sample of each arm, in time order.
    pub samples: PerSide<Vec<ArmSample>>,
    /// Every flip, in sample order.
    pub flips: Vec<FlipEvent>,
    /// Runs whose wrist missed its target (`worst` = largest residual, metres).
    pub out_of_reach: Vec<TimelineIssue>,
    /// Runs with the elbow on its limit (`worst` = largest bend, radians).
    pub limit_clamps: Vec<TimelineIssue>,
}

/// A proposed pole for one arm with what it changes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PoleProposal {
    /// The arm the pole is for.
    pub side: Side,
    /// The calibration's base pole (`pole_in_actor`), actor space.
    pub current_in_actor: DVec3,
    /// The proposed constant pole, actor space (the current one when no candidate is better).
    pub proposed_in_actor: DVec3,
    /// This arm's flips over the timeline with the current poles.
    pub flips_before: usize,
    /// This arm's flips with the proposed pole.
    pub flips_after: usize,
    /// This arm's cost with the current poles (lower is better; 1000 per flip).
    pub cost_before: f64,
    /// The proposed pole's cost, plus a small penalty for its distance from the current one.
    pub cost_after: f64,
    /// This arm's smallest margin to the flip boundary over the timeline with the current
    /// poles, metres (at most [`super::MARGIN_REACH`]; see [`super::smallest_margin`]).
    pub margin_before: f64,
    /// The same with the proposed pole.
    pub margin_after: f64,
}

impl PoleProposal {
    /// Whether applying the proposal changes anything for the better: a lower cost, or as
    /// few flips and a larger flip margin (by more than [`super::MARGIN_QUANTUM`]).
    pub fn improves(&self) -> bool {
        self.cost_after < self.cost_before
            || (self.flips_after <= self.flips_before
                && self.margin_after > self.margin_before + super::MARGIN_QUANTUM)
    }
}

/// Rest bend normal of each arm (actor space): (wrist − shoulder) × (elbow − shoulder).
pub(crate) fn rest_normals(actor: &ActorRig) -> PerSide<DVec3> {
    actor.arms.map(|_, arm| {
        let a = actor.base.world_position(arm.upper);
        let b = actor.base.world_position(arm.fore);
        let c = actor.base.world_position(arm.hand);
        (c - a).cross(b - a).try_normalize().unwrap_or(DVec3::X)
    })
}

/// Samples the whole timeline at `samples` evenly spaced times (both ends included) with the
/// actor at the origin, and lists flips, out-of-reach runs and limit clamps. Runs on every
/// core the system offers (see [`analyse_timeline_on`]).
///
/// # Errors
/// Any [`SessionError`] of [`Poser::evaluate`] (a broken rule or an arm that fails its
/// checks).
pub fn analyse_timeline(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
) -> Result<TimelineAnalysis, SessionError> {
    analyse_timeline_on(actor, calib, settings, params, samples, default_threads())
}

/// Worker threads for timelines and calibration: every core the system offers (1 when it
/// cannot tell).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One sample's arms, before flips are known: the sample and its bend normal.
type Posed = PerSide<(ArmSample, DVec3)>;

/// The session posed at `samples` instants spread evenly over it (both ends included; at
/// least two), one instant at a time, each a pure function of the state: the pose starts
/// from the actor's base pose, the actor at the origin. The sampling every timeline
/// measure shares (flips, margins).
pub(crate) struct SessionSampler<'a> {
    actor: &'a ActorRig,
    params: SessionParams,
    samples: usize,
    poser: Poser,
    inputs: PoseInputs,
    /// The pose of the instant posed last.
    pub(crate) pose: Pose,
}

impl<'a> SessionSampler<'a> {
    pub(crate) fn new(
        actor: &'a ActorRig,
        calib: &GripCalibration,
        settings: &SolverSettings,
        params: &SessionParams,
        samples: usize,
    ) -> Self {
        Self {
            actor,
            params: *params,
            samples: samples.max(2),
            poser: Poser::new(),
            inputs: PoseInputs::new(calib.clone(), *settings, SessionState::default()),
            pose: actor.base.clone(),
        }
    }

    /// The session's state at instant `k` (of `0..samples`).
    pub(crate) fn state_at(&self, k: usize) -> SessionState {
        SessionState::at_fraction(k as f64 / (self.samples - 1) as f64, self.params)
    }

    /// Poses instant `k` into [`SessionSampler::pose`]: its state and the evaluation.
    ///
    /// # Errors
    /// As [`Poser::evaluate`].
    pub(crate) fn pose_at(
        &mut self,
        k: usize,
    ) -> Result<(SessionState, PoseEvaluation), SessionError> {
        let state = self.state_at(k);
        self.inputs.state = state;
        let eval = self.poser.evaluate(
            self.actor,
            &self.inputs,
            &Transform::IDENTITY,
            &mut self.pose,
        )?;
        Ok((state, eval))
    }

    /// [`SessionSampler::pose_at`] for the arm on `side` alone ([`Poser::evaluate_arm`]):
    /// its state and the arm's report; the other arm stays at the base pose.
    ///
    /// # Errors
    /// As [`Poser::evaluate`].
    pub(crate) fn pose_arm_at(
        &mut self,
        k: usize,
        side: Side,
    ) -> Result<(SessionState, ArmReport), SessionError> {
        let state = self.state_at(k);
        self.inputs.state = state;
        let report = self.poser.evaluate_arm(
            self.actor,
            &self.inputs,
            &Transform::IDENTITY,
            &mut self.pose,
            side,
        )?;
        Ok((state, report))
    }
}

/// The sample of the arm on `side` whose report is `r`, posed in `pose` at `state`, and its
/// bend normal (`normals`: the arms' rest bend normals); not yet marked flipped.
pub(crate) fn arm_sample(
    actor: &ActorRig,
    side: Side,
    state: &SessionState,
    r: &ArmReport,
    pose: &Pose,
    normals: &PerSide<DVec3>,
) -> (ArmSample, DVec3) {
    let sample = ArmSample {
        time: state.time(),
        phase: state.phase,
        elbow_bend: r.ik.elbow_bend,
        bend_side: r.ik.bend_normal.dot(*normals.get(side)),
        // A hand that reached only by sliding along its handle missed its grip (see
        // `ArmReport::short_of_grip`).
        reached: r.ik.reached && r.grip_slide == 0.0,
        residual: if r.grip_slide == 0.0 {
            r.ik.residual
        } else {
            r.short_of_grip
        },
        limited: r.ik.elbow_limited,
        flipped: false,
        elbow_in_actor: pose.world_position(actor.arm(side).fore),
        fingers_on_grip: r.contact.fingers.iter().flatten().count() as u32,
        fingers_touching: r
            .contact
            .fingers
            .iter()
            .flatten()
            .filter(|c| c.touches)
            .count() as u32,
        worst_finger_gap: r
            .contact
            .fingers
            .iter()
            .flatten()
            .map(|c| c.gap)
            .fold(0.0, |a, g| if g.abs() > a.abs() { g } else { a }),
    };
    (sample, r.ik.bend_normal)
}

/// A timeline analysis built one instant at a time, in sample order: flips are found as the
/// samples come (a bend normal turned by more than 90° since the arm's previous sample).
pub(crate) struct TimelineBuilder {
    params: SessionParams,
    samples: usize,
    pub(crate) out: PerSide<Vec<ArmSample>>,
    flips: Vec<FlipEvent>,
    previous: PerSide<Option<DVec3>>,
}

impl TimelineBuilder {
    /// An empty analysis of `samples` instants of the session with `params`.
    pub(crate) fn new(params: &SessionParams, samples: usize) -> Self {
        Self {
            params: *params,
            samples: samples.max(2),
            out: PerSide::new(Vec::with_capacity(samples), Vec::with_capacity(samples)),
            flips: Vec::new(),
            previous: PerSide::default(),
        }
    }

    /// Adds the next sample of the arm on `side` (the arms of one instant in [`SIDES`]
    /// order). With its bend `normal` it is marked flipped against the arm's previous one;
    /// without, it keeps its own mark (a sample taken from another analysis of the same arm).
    pub(crate) fn push(&mut self, side: Side, mut sample: ArmSample, normal: Option<DVec3>) {
        if let Some(normal) = normal {
            let before = self.previous.get_mut(side);
            sample.flipped = before.is_some_and(|n| n.dot(normal) < 0.0);
            *before = Some(normal);
        }
        let k = self.out.get(side).len();
        if sample.flipped {
            let fraction = k as f64 / (self.samples - 1) as f64;
            let state = SessionState::at_fraction(fraction, self.params);
            self.flips.push(FlipEvent {
                side,
                sample: k,
                time: sample.time,
                phase: sample.phase,
                t: state.t_clamped(),
            });
        }
        self.out.get_mut(side).push(sample);
    }

    /// The analysis of the samples pushed.
    pub(crate) fn finish(self) -> TimelineAnalysis {
        let out = self.out;
        let out_of_reach = runs(&out, |_, _, s| (!s.reached).then_some(s.residual), f64::max);
        let limit_clamps = runs(&out, |_, _, s| s.limited.then_some(s.elbow_bend), f64::max);
        TimelineAnalysis {
            samples: out,
            flips: self.flips,
            out_of_reach,
            limit_clamps,
        }
    }
}

/// Poses samples `range` of `samples` with a poser of its own (each pose is a pure function
/// of the state: the pose starts from the actor's base pose every time).
fn pose_samples(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    range: std::ops::Range<usize>,
    normals: &PerSide<DVec3>,
) -> Result<Vec<Posed>, SessionError> {
    let mut session = SessionSampler::new(actor, calib, settings, params, samples);
    let mut out = Vec::with_capacity(range.len());
    for k in range {
        let (state, eval) = session.pose_at(k)?;
        let pose = &session.pose;
        out.push(
            eval.arms
                .map(|side, r| arm_sample(actor, side, &state, r, pose, normals)),
        );
    }
    Ok(out)
}

/// Runs `run` over the sample indices `0..samples` split into `threads` contiguous ranges,
/// one thread each (inline for one), and joins their results in sample order: the same on
/// any number of threads. The error is the one of the earliest range that failed.
pub(crate) fn in_sample_chunks<T: Send, E: Send>(
    samples: usize,
    threads: usize,
    run: impl Fn(std::ops::Range<usize>) -> Result<Vec<T>, E> + Sync,
) -> Result<Vec<T>, E> {
    let threads = threads.max(1);
    if threads == 1 {
        return run(0..samples);
    }
    let bounds: Vec<usize> = (0..=threads).map(|i| i * samples / threads).collect();
    let chunks: Vec<Result<Vec<T>, E>> = std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let range = w[0]..w[1];
                let run = &run;
                scope.spawn(move || run(range))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut out = Vec::with_capacity(samples);
    for chunk in chunks {
        out.extend(chunk?);
    }
    Ok(out)
}

/// [`analyse_timeline`] on `threads` threads (at least one; fewer when there are few
/// samples). Each thread poses a contiguous run of samples; flips — a bend normal turned by
/// more than 90° since the previous sample, exactly as [`Poser`] reports them — are found
/// afterwards in sample order, so the result is the same on any number of threads.
///
/// # Errors
/// As [`analyse_timeline`] (the error of the earliest failing sample).
pub fn analyse_timeline_on(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    threads: usize,
) -> Result<TimelineAnalysis, SessionError> {
    let samples = samples.max(2);
    let normals = rest_normals(actor);
    let threads = threads.clamp(1, (samples / 64).max(1));
    let posed = in_sample_chunks(samples, threads, |range| {
        pose_samples(actor, calib, settings, params, samples, range, &normals)
    })?;
    let mut timeline = TimelineBuilder::new(params, samples);
    for posed in &posed {
        for side in SIDES {
            let (sample, normal) = *posed.get(side);
            timeline.push(side, sample, Some(normal));
        }
    }
    Ok(timeline.finish())
}

/// The runs of consecutive samples, per arm, that `measure` finds bad (`Some(value)`), each
/// with the worst of its values by `worse` (for instance `f64::max`).
fn runs(
    samples: &PerSide<Vec<ArmSample>>,
    measure: impl Fn(Side, usize, &ArmSample) -> Option<f64>,
    worse: fn(f64, f64) -> f64,
) -> Vec<TimelineIssue> {
    let mut issues = Vec::new();
    for side in SIDES {
        let list = samples.get(side);
        let mut open: Option<TimelineIssue> = None;
        for (k, s) in list.iter().enumerate() {
            if let Some(value) = measure(side, k, s) {
                let issue = open.get_or_insert(TimelineIssue {
                    side,
                    first_sample: k,
                    last_sample: k,
                    start_time: s.time,
                    end_time: s.time,
                    worst: value,
                });
                issue.last_sample = k;
                issue.end_time = s.time;
                issue.worst = worse(issue.worst, value);
            } else if let Some(issue) = open.take() {
                issues.push(issue);
            }
        }
        issues.extend(open);
    }
    issues
}

impl TimelineAnalysis {
    /// The runs of samples, per arm, whose stability margin is below `threshold` metres
    /// (`worst`: the run's smallest margin). `margins` holds each arm's margin at this
    /// analysis's samples ([`super::timeline_margins`] with the same sample count); samples
    /// past its end count as not thin.
    pub fn thin_margins(&self, margins: &PerSide<Vec<f64>>, threshold: f64) -> Vec<TimelineIssue> {
        let thin = |side: Side, k: usize, _: &ArmSample| {
            margins.get(side).get(k).copied().filter(|m| *m < threshold)
        };
        runs(&self.samples, thin, f64::min)
    }
}

/// Cost of one arm's samples: flips dominate; then elbows above the shoulder or inside the
/// torso (nearer the body's midline than the shoulder) are penalised in proportion.
fn arm_cost(actor: &ActorRig, side: Side, samples: &[ArmSample]) -> (usize, f64) {
    let arm = actor.arm(side);
    let shoulder = actor.base.world_position(arm.upper);
    let reach = (actor.base.world_position(arm.fore) - shoulder).length()
        + (actor.base.world_position(arm.hand) - actor.base.world_position(arm.fore)).length();
    let out = if side == Side::Left { 1.0 } else { -1.0 };
    let flips = samples.iter().filter(|s| s.flipped).count();
    let mut unnatural = 0.0;
    for s in samples {
        let above = (s.elbow_in_actor.y - shoulder.y).max(0.0) / reach;
        let inside = (out * (shoulder.x - s.elbow_in_actor.x) + 0.05 * reach).max(0.0) / reach;
        unnatural += above + inside;
    }
    (
        flips,
        1000.0 * flips as f64 + unnatural / samples.len().max(1) as f64,
    )
}

/// For each arm, tries poles on a grid of directions below, outside and around the shoulder
/// (plus the current poles) over the whole timeline, and proposes the one with the fewest
/// flips and the most natural elbow (ties to the pole nearest the current one); of the poles
/// with as few flips and a cost within [`super::MARGIN_SLACK`] of it, the one that keeps the
/// largest smallest margin to the flip boundary ([`super::widest_margin`]), as `calibrate`
/// chooses. The calibration passed in is not modified; apply a proposal with
/// `PoleKeys::constant` when it [`PoleProposal::improves`] anything.
///
/// # Errors
/// As [`analyse_timeline`].
pub fn search_poles(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
) -> Result<PerSide<PoleProposal>, SessionError> {
    let base = analyse_timeline(actor, calib, settings, params, samples)?;
    PerSide::try_from_fn(|side| -> Result<PoleProposal, SessionError> {
        let arm = actor.arm(side);
        let shoulder = actor.base.world_position(arm.upper);
        let reach = (arm.default_pole_in_actor - shoulder).length().max(1e-6);
        let current = calib.poles.get(side).pole_in_actor;
        let (flips_before, cost_before) = arm_cost(actor, side, base.samples.get(side));
        let out = if side == Side::Left {
            DVec3::X
        } else {
            DVec3::NEG_X
        };
        // (cost, flips, calibration), the current poles first.
        let mut tried = vec![(cost_before, flips_before, calib.clone())];
        for cx in [0.2, 0.6, 1.2] {
            for cy in [0.4, 1.0, 2.0] {
                for cz in [-0.8, -0.3, 0.0, 0.4, 1.0] {
                    for dist in [1.0, 2.0] {
                        let dir = (out * cx + DVec3::NEG_Y * cy + DVec3::Z * cz).normalize();
                        let pole = shoulder + dir * reach * dist;
                        let mut candidate = calib.clone();
                        *candidate.poles.get_mut(side) = PoleKeys::constant(pole);
                        let analysis =
                            analyse_timeline(actor, &candidate, settings, params, samples)?;
                        let (flips, cost) = arm_cost(actor, side, analysis.samples.get(side));
                        let cost = cost + 0.01 * (pole - current).length() / reach;
                        tried.push((cost, flips, candidate));
                    }
                }
            }
        }
        let best = (0..tried.len())
            .reduce(|b, k| if tried[k].0 < tried[b].0 { k } else { b })
            .unwrap_or(0);
        let costs: Vec<f64> = tried.iter().map(|(cost, _, _)| *cost).collect();
        let finalists = super::margin_finalists(&costs, best, |k| tried[k].1 == tried[best].1);
        let margin = |k: usize, stop_at: f64| {
            let walk = (side, super::Boundary::Flip, None);
            super::smallest_margin(actor, &tried[k].2, settings, params, samples, walk, stop_at)
        };
        let (chosen, margin_after) =
            super::widest_margin(&finalists, default_threads(), margin)?.unwrap_or((best, 0.0));
        let margin_before = if chosen == 0 {
            margin_after
        } else {
            margin(0, 0.0)?
        };
        let (cost_after, flips_after, proposed) = &tried[chosen];
        Ok(PoleProposal {
            side,
            current_in_actor: current,
            proposed_in_actor: proposed.poles.get(side).pole_in_actor,
            flips_before,
            flips_after: *flips_after,
            cost_before,
            cost_after: *cost_after,
            margin_before,
            margin_after,
        })
    })
}
