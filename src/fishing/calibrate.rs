//! One-step calibration: grip offsets along the rod's handle, per-arm poles (per phase where
//! one pole cannot serve the whole session) and a per-phase report, chosen over the whole
//! session timeline so wrists reach their grips wherever the body allows, elbows do not flip,
//! stay within limits and outside the torso. Deterministic: a fixed candidate set, ties to the
//! first candidate, the same result on any number of threads.

use super::SolverSettings;
use super::actor::ActorRig;
use super::analysis::{ArmSample, TimelineAnalysis};
use super::calibration::{GripCalibration, GripKind, GripOffset, PoleKeys};
use super::candidate_score::{
    ScoreJob, Scored, ScoredArms, hard_counts, inside, lowest, on_grip, outward, reach, score_all,
    shoulder,
};
use super::poser::SessionError;
use super::session::{Phase, SessionParams};
use super::stability::Boundary;
use super::stability_timeline::{
    MARGIN_REACH, margin_finalists, smallest_margin, timeline_margins, timeline_margins_to,
    widest_margin,
};
use super::timeline_bound::PosedArms;
use super::{PerSide, SIDES};
use crate::rig::Side;
use glam::DVec3;

pub use super::analysis::default_threads;

pub use super::candidate_score::REACH_RESIDUAL;

/// One phase of one arm in the report.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PhaseReport {
    /// The phase these samples fall in.
    pub phase: Phase,
    /// Timeline samples in this phase.
    pub samples: usize,
    /// Samples whose wrist reached its grip (residual ≤ [`REACH_RESIDUAL`]).
    pub reached: usize,
    /// Largest wrist-to-target distance in this phase, metres (0 without samples).
    pub worst_residual: f64,
    /// Samples at which the elbow flipped.
    pub flips: usize,
    /// Samples with the elbow on its limit.
    pub clamps: usize,
    /// Samples with the elbow nearer the body's midline than the shoulder.
    pub elbow_inside: usize,
    /// Finger contacts on the held surface over the phase's samples (contact grips).
    pub fingers_on_grip: usize,
    /// Of those, the ones touching.
    pub fingers_touching: usize,
    /// The finger gap farthest from the surface in the phase, metres (negative: inside).
    pub worst_finger_gap: f64,
    /// The smallest stability margin in the phase, metres: how far the wrist target could
    /// move before the elbow flips or the arm cannot reach (at most
    /// [`super::stability_timeline::MARGIN_REACH`]: no boundary that near; see
    /// [`super::stability_timeline::timeline_margins`]).
    pub smallest_margin: f64,
    /// The smallest margin to the flip boundary alone (among targets the arm reaches), the
    /// part the poles decide, metres (at most [`MARGIN_REACH`]).
    pub smallest_flip_margin: f64,
}

/// What calibration chose and what it achieves.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct CalibrationReport {
    /// Timeline samples per arm.
    pub samples: usize,
    /// One report per phase for each arm, in timeline order.
    pub per_arm: PerSide<Vec<PhaseReport>>,
    /// Fraction of samples reached per arm.
    pub reached_fraction: PerSide<f64>,
    /// Elbow flips over the timeline, both arms together.
    pub flips: usize,
    /// Candidate timelines evaluated.
    pub evaluations: usize,
}

impl CalibrationReport {
    fn from_analysis(
        actor: &ActorRig,
        a: &TimelineAnalysis,
        (margins, flip_margins): (&PerSide<Vec<f64>>, &PerSide<Vec<f64>>),
        evaluations: usize,
    ) -> Self {
        let per_arm = a.samples.map(|side, samples| {
            Phase::ALL
                .iter()
                .map(|&phase| {
                    let s: Vec<&ArmSample> = samples.iter().filter(|s| s.phase == phase).collect();
                    let smallest = |margins: &PerSide<Vec<f64>>| {
                        samples
                            .iter()
                            .zip(margins.get(side))
                            .filter(|(s, _)| s.phase == phase)
                            .map(|(_, m)| *m)
                            .fold(MARGIN_REACH, f64::min)
                    };
                    PhaseReport {
                        phase,
                        samples: s.len(),
                        reached: s.iter().filter(|s| on_grip(s)).count(),
                        worst_residual: s.iter().map(|s| s.residual).fold(0.0, f64::max),
                        flips: s.iter().filter(|s| s.flipped).count(),
                        clamps: s.iter().filter(|s| s.limited).count(),
                        elbow_inside: s.iter().filter(|s| inside(actor, side, s)).count(),
                        fingers_on_grip: s.iter().map(|s| s.fingers_on_grip as usize).sum(),
                        fingers_touching: s.iter().map(|s| s.fingers_touching as usize).sum(),
                        worst_finger_gap: s
                            .iter()
                            .map(|s| s.worst_finger_gap)
                            .fold(0.0, |a, g| if g.abs() > a.abs() { g } else { a }),
                        smallest_margin: smallest(margins),
                        smallest_flip_margin: smallest(flip_margins),
                    }
                })
                .collect()
        });
        let reached_fraction = a
            .samples
            .map(|_, s| s.iter().filter(|s| on_grip(s)).count() as f64 / s.len().max(1) as f64);
        Self {
            samples: a.samples.left.len(),
            per_arm,
            reached_fraction,
            flips: a.flips.len(),
            evaluations,
        }
    }
}

/// The fixed inputs of one calibration and how many timelines it has evaluated.
struct Search<'a> {
    actor: &'a ActorRig,
    settings: &'a SolverSettings,
    params: &'a SessionParams,
    samples: usize,
    threads: usize,
    evaluations: usize,
    /// Prefer, among poles that score alike, the one keeping the larger margin.
    keep_margin: bool,
}

impl Search<'_> {
    /// The lowest-scoring candidate by both arms (first on ties) and its analysis.
    fn pick(
        &mut self,
        candidates: &[GripCalibration],
    ) -> Result<(usize, TimelineAnalysis), SessionError> {
        let arms = (ScoredArms::Both, PosedArms::Both);
        let mut scored = self.score_all(candidates, arms, 0.0)?;
        let k = lowest(&scored).ok_or_else(no_candidates)?;
        Ok((k, scored.swap_remove(k).1.ok_or_else(no_candidates)?))
    }

    fn score_all(
        &mut self,
        candidates: &[GripCalibration],
        arms: (ScoredArms, PosedArms<'_>),
        slack: f64,
    ) -> Result<Vec<Scored>, SessionError> {
        self.evaluations += candidates.len();
        let job = ScoreJob {
            actor: self.actor,
            settings: self.settings,
            params: self.params,
            samples: self.samples,
            arms,
            slack,
            threads: self.threads,
        };
        score_all(&job, candidates)
    }

    /// The pole candidate to keep for `side`'s arm (in `phase` alone when given): the lowest
    /// score of that arm ([`ScoredArms::One`]; first on ties), or, keeping the margin, of the
    /// candidates with that one's misses, flips and clamps ([`margin_finalists`]), the one
    /// whose arm keeps the largest smallest margin to the flip boundary ([`widest_margin`]).
    /// The margin is what the pole decides: the reach boundary does not move with it.
    /// `current`: the analysis of a calibration that differs from every candidate in
    /// `side`'s poles alone (only that arm is posed; the other's samples are taken from it).
    fn pick_pole(
        &mut self,
        side: Side,
        phase: Option<Phase>,
        candidates: &[GripCalibration],
        current: &TimelineAnalysis,
    ) -> Result<(usize, TimelineAnalysis), SessionError> {
        let actor = self.actor;
        let arms = (ScoredArms::One(side), PosedArms::One(side, current));
        let slack = if self.keep_margin {
            super::MARGIN_SLACK
        } else {
            0.0
        };
        let mut scored = self.score_all(candidates, arms, slack)?;
        let best = lowest(&scored).ok_or_else(no_candidates)?;
        let mut chosen = best;
        if self.keep_margin {
            let counts = |k: usize| {
                let analysis = scored[k].1.as_ref();
                analysis.map(|a| hard_counts(a.samples.get(side)))
            };
            let scores: Vec<f64> = scored.iter().map(|(score, _)| *score).collect();
            let finalists = margin_finalists(&scores, best, |k| counts(k) == counts(best));
            let measure = |k: usize, stop_at: f64| {
                let walk = (side, Boundary::Flip, phase);
                let (s, p, n) = (self.settings, self.params, self.samples);
                smallest_margin(actor, &candidates[k], s, p, n, walk, stop_at)
            };
            if let Some((k, _)) =
                widest_margin::<SessionError>(&finalists, self.threads, |k, stop| {
                    Ok(measure(k, stop)?)
                })?
            {
                chosen = k;
            }
        }
        let analysis = scored.swap_remove(chosen).1.ok_or_else(no_candidates)?;
        Ok((chosen, analysis))
    }
}

fn no_candidates() -> SessionError {
    SessionError::Calibration("no calibration candidates".into())
}

/// Pole candidates around `side`'s shoulder: below, outside, behind and ahead of it, at one
/// and two arm lengths.
fn pole_candidates(actor: &ActorRig, side: Side) -> Vec<DVec3> {
    let sh = shoulder(actor, side);
    let r = reach(actor, side);
    let mut out = vec![actor.arm(side).default_pole_in_actor];
    for cx in [0.2, 0.6, 1.2] {
        for cy in [0.4, 1.0, 2.0] {
            for cz in [-0.8, -0.3, 0.0, 0.4] {
                for dist in [1.0, 2.0] {
                    let dir = DVec3::new(outward(side) * cx, -cy, cz).normalize();
                    out.push(sh + dir * r * dist);
                }
            }
        }
    }
    out
}

/// Stage 1's candidates: `calib` with the rod shifted in its own frame (across, along,
/// toward the reel) by 0, ±8 and ±16% of the mean arm's reach on each axis.
fn rod_candidates(actor: &ActorRig, calib: &GripCalibration) -> Vec<GripCalibration> {
    let r = 0.5 * (reach(actor, Side::Left) + reach(actor, Side::Right));
    let steps = [0.0, -0.08, 0.08, -0.16, 0.16].map(|k| k * r);
    let origin = calib.rod_adjust.offset_in_object;
    let mut candidates = Vec::with_capacity(125);
    for dx in steps {
        for dy in steps {
            for dz in steps {
                let mut c = calib.clone();
                c.rod_adjust.offset_in_object = origin + DVec3::new(dx, dy, dz);
                candidates.push(c);
            }
        }
    }
    candidates
}

/// Stage 2's candidates: `calib` with grip `kind` slid along the handle by each of
/// `shifts` metres (0: as it is).
fn grip_candidates(
    calib: &GripCalibration,
    kind: GripKind,
    shifts: &[f64],
) -> Vec<GripCalibration> {
    shifts
        .iter()
        .map(|&dy| {
            let mut c = calib.clone();
            if dy != 0.0 {
                c.grips.insert(
                    kind,
                    GripOffset {
                        offset_in_object: DVec3::new(0.0, dy, 0.0),
                        ..GripOffset::default()
                    },
                );
            }
            c
        })
        .collect()
}

impl Search<'_> {
    /// Stage 4: a per-phase pole for each arm's phases that still flip, clamp or miss with
    /// `calib` (whose analysis is `analysis`), kept where it does better. Returns the
    /// calibration and its analysis.
    fn per_phase_poles(
        &mut self,
        mut calib: GripCalibration,
        mut analysis: TimelineAnalysis,
    ) -> Result<(GripCalibration, TimelineAnalysis), SessionError> {
        let actor = self.actor;
        for side in SIDES {
            for phase in Phase::ALL {
                let bad = analysis
                    .samples
                    .get(side)
                    .iter()
                    .any(|s| s.phase == phase && (s.flipped || s.limited || !on_grip(s)));
                if !bad {
                    continue;
                }
                let mut candidates = vec![calib.clone()];
                for p in pole_candidates(actor, side) {
                    let mut c = calib.clone();
                    c.poles.get_mut(side).per_phase.insert(phase, p);
                    candidates.push(c);
                }
                let (k, a) = self.pick_pole(side, Some(phase), &candidates, &analysis)?;
                if k != 0 {
                    calib = candidates[k].clone();
                    analysis = a;
                }
            }
        }
        Ok((calib, analysis))
    }
}

/// Calibrates `actor` for a session with `params` over `samples` timeline samples (≥ 2),
/// using up to `threads` threads. Starts from the actor's default calibration and chooses,
/// in turn: a rod adjustment in rod space, grip offsets along the handle (rear and front
/// grip), a constant pole per arm, then per-phase poles for phases that still flip, clamp or
/// miss.
///
/// # Errors
/// Any [`SessionError`] the pipeline raises on a candidate (bad settings or parameters).
pub fn calibrate(
    actor: &ActorRig,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    threads: usize,
) -> Result<(GripCalibration, CalibrationReport), SessionError> {
    refine(
        actor,
        settings,
        params,
        actor.default_calibration(),
        true,
        samples,
        threads,
    )
}

/// Like [`calibrate`], starting from `start` (its hands are kept) and, when `search_grips` is
/// false, keeping its grip offsets too: only the rod adjustment and the poles are chosen (a
/// retargeted preset keeps each grip's place on the rod).
///
/// The rod adjustment candidates are offsets added to `start`'s.
///
/// # Errors
/// As [`calibrate`].
pub fn refine(
    actor: &ActorRig,
    settings: &SolverSettings,
    params: &SessionParams,
    start: GripCalibration,
    search_grips: bool,
    samples: usize,
    threads: usize,
) -> Result<(GripCalibration, CalibrationReport), SessionError> {
    refine_with(
        actor,
        settings,
        params,
        start,
        (search_grips, true),
        samples,
        threads,
    )
}

/// [`refine`], choosing poles by score alone when `keep_margin` is false (the calibration
/// before the margin term: what the tests compare against).
///
/// # Errors
/// As [`calibrate`].
pub fn refine_with(
    actor: &ActorRig,
    settings: &SolverSettings,
    params: &SessionParams,
    start: GripCalibration,
    (search_grips, keep_margin): (bool, bool),
    samples: usize,
    threads: usize,
) -> Result<(GripCalibration, CalibrationReport), SessionError> {
    let samples = samples.max(2);
    let mut calib = start;
    let mut search = Search {
        actor,
        settings,
        params,
        samples,
        threads,
        evaluations: 0,
        keep_margin,
    };
    // 1. The rod in the hands: shift it in its own frame (across, along, toward the reel) so
    //    both hands and the reel handle come within reach of this body.
    // `current`: the analysis of `calib` as chosen so far.
    let mut current = {
        let candidates = rod_candidates(actor, &calib);
        let (k, a) = search.pick(&candidates)?;
        calib = candidates[k].clone();
        a
    };
    // 2. Grips along the handle: slide each grip toward or away from the butt in 2 cm
    //    steps (the hands stay on the handle: the rear grip never past the butt). A front
    //    hand whose fingers straddle the reel's stem sits where the stem is, and one behind
    //    a baitcaster's trigger or a reel's body (a mitten's, on a spinning reel) against
    //    them, wherever its grip frame is (the contact grip places it;
    //    `GripStyle::places_itself`): it has no place to search.
    let grip_stages = if search_grips { 2 } else { 0 };
    let front = params.handedness.front_side();
    let front_style =
        super::GripStyle::for_grip(GripKind::RodFront, &actor.gear, &Default::default())
            .for_hand(&actor.arms.get(front).contact);
    let front_placed = settings.finger_contact && front_style.places_itself(&actor.gear.rod);
    for (kind, shifts) in [
        (
            GripKind::RodRear,
            &[0.0, -0.02, 0.02, -0.04, 0.04, -0.06, 0.06, 0.08, 0.10, 0.12][..],
        ),
        (GripKind::RodFront, &[0.0, -0.02, 0.02, -0.04, 0.04][..]),
    ]
    .into_iter()
    .take(grip_stages)
    .filter(|(kind, _)| !(front_placed && *kind == GripKind::RodFront))
    {
        let candidates = grip_candidates(&calib, kind, shifts);
        let (k, a) = search.pick(&candidates)?;
        calib = candidates[k].clone();
        current = a;
    }
    // 3. A constant pole per arm (the other arm's pole held).
    for side in SIDES {
        let candidates: Vec<GripCalibration> = pole_candidates(actor, side)
            .into_iter()
            .map(|p| {
                let mut c = calib.clone();
                *c.poles.get_mut(side) = PoleKeys::constant(p);
                c
            })
            .collect();
        let (k, a) = search.pick_pole(side, None, &candidates, &current)?;
        calib = candidates[k].clone();
        current = a;
    }
    // 4. Per-phase poles where a phase still flips or clamps.
    let (calib, analysis) = search.per_phase_poles(calib, current)?;
    let threads = search.threads;
    let margins = timeline_margins(actor, &calib, settings, params, samples, threads)?;
    let flip_margins = timeline_margins_to(
        Boundary::Flip,
        actor,
        &calib,
        settings,
        params,
        samples,
        threads,
    )?;
    let report = CalibrationReport::from_analysis(
        actor,
        &analysis,
        (&margins, &flip_margins),
        search.evaluations,
    );
    Ok((calib, report))
}
