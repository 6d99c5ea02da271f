//! How calibration scores a candidate calibration over the session (lower is better), and
//! scores many at once on a few threads, stopping each as soon as it cannot be kept
//! (issue 37). The score is a sum of non-negative terms per sample, so its partial sums only
//! grow: a candidate whose partial score is already above the best complete score (plus the
//! slack within which the margin term still compares candidates) is never the one kept, nor
//! a margin finalist, and is left unfinished. The candidates kept, their scores and their
//! analyses are exactly those of scoring every candidate to the end.

use super::actor::ActorRig;
use super::analysis::{ArmSample, TimelineAnalysis};
use super::calibration::GripCalibration;
use super::poser::SessionError;
use super::session::SessionParams;
use super::settings::SolverSettings;
use super::timeline_bound::{PosedArms, analyse_timeline_while};
use super::{PerSide, SIDES};
use crate::rig::Side;
use glam::DVec3;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Residual below which a wrist counts as on its grip when scoring (metres).
pub const REACH_RESIDUAL: f64 = 1e-3;

pub(crate) fn on_grip(s: &ArmSample) -> bool {
    s.reached && s.residual <= REACH_RESIDUAL
}

pub(crate) fn shoulder(actor: &ActorRig, side: Side) -> DVec3 {
    actor.base.world_position(actor.arm(side).upper)
}

pub(crate) fn reach(actor: &ActorRig, side: Side) -> f64 {
    let arm = actor.arm(side);
    let p = |b| actor.base.world_position(b);
    (p(arm.fore) - p(arm.upper)).length() + (p(arm.hand) - p(arm.fore)).length()
}

pub(crate) fn outward(side: Side) -> f64 {
    if side == Side::Left { 1.0 } else { -1.0 }
}

/// The elbow nearer the body's midline than the shoulder by more than 5% of the arm: inside
/// the torso.
pub(crate) fn inside(actor: &ActorRig, side: Side, s: &ArmSample) -> bool {
    let sh = shoulder(actor, side);
    outward(side) * (sh.x - s.elbow_in_actor.x) > 0.05 * reach(actor, side)
}

/// The shoulder and the reach of `side`'s arm: what [`add_arm_terms`] measures against.
fn arm_measure(actor: &ActorRig, side: Side) -> (DVec3, f64) {
    (shoulder(actor, side), reach(actor, side))
}

/// Adds one sample's terms of an arm's score to `score`, each `≥ 0`: misses and flips
/// dominate, then residuals, limit clamps and unnatural elbows (above the shoulder, inside
/// the torso).
fn add_arm_terms(score: &mut f64, (sh, r): (DVec3, f64), side: Side, s: &ArmSample) {
    if !on_grip(s) {
        *score += 10.0 + s.residual / r;
    }
    if s.flipped {
        *score += 1000.0;
    }
    if s.limited {
        *score += 1.0;
    }
    let above = (s.elbow_in_actor.y - sh.y).max(0.0) / r;
    let into = (outward(side) * (sh.x - s.elbow_in_actor.x) + 0.05 * r).max(0.0) / r;
    *score += 2.0 * (above + into);
}

/// An arm's misses, flips and clamps over a timeline: what [`super::MARGIN_SLACK`] never
/// trades.
pub(crate) fn hard_counts(samples: &[ArmSample]) -> [usize; 3] {
    [
        samples.iter().filter(|s| !on_grip(s)).count(),
        samples.iter().filter(|s| s.flipped).count(),
        samples.iter().filter(|s| s.limited).count(),
    ]
}

/// The arms a candidate is scored by: one arm's score is the mean over the timeline of its
/// samples' terms ([`add_arm_terms`]); both arms' is the sum of theirs. Lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScoredArms {
    /// The sum of both arms' scores.
    Both,
    /// The one arm's score.
    One(Side),
}

/// A candidate's score as its samples come: the sums of their terms in sample order, divided
/// by the whole timeline's count. Before the last sample it is a lower bound of the score
/// (every term is `≥ 0` and rounding is monotonic); after it, the score.
struct RunningScore {
    arms: ScoredArms,
    at: PerSide<(DVec3, f64)>,
    sums: PerSide<f64>,
    seen: usize,
    n: f64,
}

impl RunningScore {
    fn new(actor: &ActorRig, arms: ScoredArms, samples: usize) -> Self {
        Self {
            arms,
            at: PerSide::new(
                arm_measure(actor, Side::Left),
                arm_measure(actor, Side::Right),
            ),
            sums: PerSide::default(),
            seen: 0,
            n: samples.max(2) as f64,
        }
    }

    /// Takes in the samples not seen yet and returns the score so far.
    fn update(&mut self, out: &PerSide<Vec<ArmSample>>) -> f64 {
        let sides: &[Side] = match self.arms {
            ScoredArms::Both => &SIDES,
            ScoredArms::One(ref side) => std::slice::from_ref(side),
        };
        let upto = out.left.len().min(out.right.len());
        for &side in sides {
            let sum = self.sums.get_mut(side);
            for s in &out.get(side)[self.seen..upto] {
                add_arm_terms(sum, *self.at.get(side), side, s);
            }
        }
        self.seen = upto;
        self.value()
    }

    /// The score over the samples taken in so far.
    fn value(&self) -> f64 {
        match self.arms {
            ScoredArms::Both => SIDES
                .iter()
                .map(|&s| *self.sums.get(s) / self.n)
                .sum::<f64>(),
            ScoredArms::One(side) => *self.sums.get(side) / self.n,
        }
    }
}

/// What [`score_all`] needs besides the candidates.
pub(crate) struct ScoreJob<'a> {
    pub actor: &'a ActorRig,
    pub settings: &'a SolverSettings,
    pub params: &'a SessionParams,
    pub samples: usize,
    /// The arms the score counts, and those posed (see [`PosedArms`]).
    pub arms: (ScoredArms, PosedArms<'a>),
    /// Candidates scoring within this of the best are still wanted (the margin term's
    /// finalists, [`super::MARGIN_SLACK`]); 0 when only the best is.
    pub slack: f64,
    pub threads: usize,
}

/// A candidate's score and analysis; `None` (score `+∞`) when it stopped early: its score
/// is above the best one's plus the job's slack.
pub(crate) type Scored = (f64, Option<TimelineAnalysis>);

/// Scores `candidates` (each a full calibration) on up to `job.threads` threads, each
/// taking the next candidate when done. The result is in candidate order and the same on
/// any number of threads, except which candidates above the best plus the slack were left
/// unfinished.
///
/// # Errors
/// The first error in candidate order among the candidates evaluated.
pub(crate) fn score_all(
    job: &ScoreJob<'_>,
    candidates: &[GripCalibration],
) -> Result<Vec<Scored>, SessionError> {
    let threads = job.threads.clamp(1, candidates.len().max(1));
    let next = AtomicUsize::new(0);
    // The best complete score so far, as bits: scores are ≥ 0, whose bit patterns order
    // like their values.
    let best = AtomicU64::new(f64::INFINITY.to_bits());
    let results: Mutex<Vec<Option<Result<Scored, SessionError>>>> =
        Mutex::new((0..candidates.len()).map(|_| None).collect());
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = candidates.get(k) else { break };
            let result = score_one(job, c, &best);
            if let Ok((score, Some(_))) = &result
                && *score >= 0.0
            {
                best.fetch_min(score.to_bits(), Ordering::Relaxed);
            }
            results
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)[k] = Some(result);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|r| r.unwrap_or(Ok((f64::INFINITY, None))))
        .collect()
}

fn score_one(
    job: &ScoreJob<'_>,
    calib: &GripCalibration,
    best: &AtomicU64,
) -> Result<Scored, SessionError> {
    let (arms, posed) = job.arms;
    let mut running = RunningScore::new(job.actor, arms, job.samples);
    let analysis = analyse_timeline_while(
        job.actor,
        calib,
        (job.settings, job.params),
        job.samples,
        posed,
        |out| {
            let bound = running.update(out);
            bound <= f64::from_bits(best.load(Ordering::Relaxed)) + job.slack
        },
    )?;
    // Complete, the running score has taken in every sample: it is the score.
    Ok(match analysis {
        Some(a) => (running.value(), Some(a)),
        None => (f64::INFINITY, None),
    })
}

/// The index of the lowest score (first on ties).
pub(crate) fn lowest(scored: &[Scored]) -> Option<usize> {
    (0..scored.len()).reduce(|b, k| if scored[k].0 < scored[b].0 { k } else { b })
}
