//! The stability margin over the session (issue 36): at every timeline sample, per arm, the
//! margin walked along rays from the wrist target ([`MARGIN_STEP`] steps up to
//! [`MARGIN_REACH`]; see [`StabilityJob::margin_along_rays`]). What the calibration report
//! prints per phase and what a margin lane under the flip plot reads. Pure; threads like
//! `analyse_timeline_on`.

use super::actor::ActorRig;
use super::analysis::{SessionSampler, in_sample_chunks};
use super::calibration::GripCalibration;
use super::session::{Phase, SessionParams};
use super::settings::SolverSettings;
use super::stability::{Boundary, StabilityError, StabilityGrid, StabilityJob};
use super::{PerSide, SIDES};
use crate::rig::Side;
use glam::DVec3;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// How far from each target the session's margin looks, metres: a margin this large means
/// no boundary within it along any ray. 30 cm: the calibrated shared characters keep their
/// elbows 14-30 cm from a flip, and a shorter look (it was 12 cm) read them all as "no
/// boundary near", so the margin term could not tell their poles apart.
pub const MARGIN_REACH: f64 = 0.30;
/// The rays' step before bisection, metres.
pub const MARGIN_STEP: f64 = 0.01;
/// One candidate keeps a larger margin than a better-scoring one only when its margin is
/// larger by more than this, metres.
pub const MARGIN_QUANTUM: f64 = 1e-3;

/// How much worse a pole may score than the best and still be preferred for keeping a
/// larger stability margin (score units: twice the mean of the elbow's height above the
/// shoulder and depth toward the midline, as fractions of the arm; 0.005 ≈ 1.5 mm of a 60 cm
/// arm). It never buys a miss, a flip or a clamp: those must equal the best pole's.
pub const MARGIN_SLACK: f64 = 0.005;
/// Candidates within [`MARGIN_SLACK`] whose margins are measured, best score first.
pub const MARGIN_FINALISTS: usize = 12;

/// A margin as people read it: millimetres to a tenth, or `≥300` when it is
/// [`MARGIN_REACH`] (no boundary that near).
pub fn margin_text(margin: f64) -> String {
    if margin >= MARGIN_REACH {
        format!("≥{:.0}", MARGIN_REACH * 1000.0)
    } else {
        format!("{:.1}", margin * 1000.0)
    }
}

/// The candidates that may be kept for their margin instead of `best` (the best-scoring):
/// those `alike(k)` it (as many misses and flips) whose score is within [`MARGIN_SLACK`] of
/// its, best score first (candidate order on ties: `best` leads), at most
/// [`MARGIN_FINALISTS`]. `scores[k]` is candidate `k`'s score, lower is better.
pub fn margin_finalists(scores: &[f64], best: usize, alike: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut finalists: Vec<usize> = (0..scores.len())
        .filter(|&k| alike(k) && scores[k] <= scores[best] + MARGIN_SLACK)
        .collect();
    finalists.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(a.cmp(&b)));
    finalists.truncate(MARGIN_FINALISTS);
    finalists
}

/// Of `finalists` (candidates, best first by whatever else ranks them), the one whose
/// margin — `measure(candidate, stop_at)`, which may stop measuring once the margin is at
/// most `stop_at` (see [`smallest_margin`]) — is larger than every better-ranked one's by
/// more than [`MARGIN_QUANTUM`], with its margin: the first when none is. Stops measuring
/// once a margin reaches [`MARGIN_REACH`]. `None` without finalists.
///
/// Measures on up to `threads` threads, each taking the next finalist: a finalist is
/// measured with `stop_at` from the finalists before it already measured (never above what
/// measuring them one by one would give it), and a measure that stops there decides as one
/// that stops later would (both at most `stop_at`). The result is the one-by-one result on
/// any number of threads.
///
/// # Errors
/// The first error `measure` returns, in finalist order, among the finalists one by one
/// would measure.
pub fn widest_margin<E: Send>(
    finalists: &[usize],
    threads: usize,
    measure: impl Fn(usize, f64) -> Result<f64, E> + Sync,
) -> Result<Option<(usize, f64)>, E> {
    if finalists.is_empty() {
        return Ok(None);
    }
    let measured: Mutex<Vec<Option<Result<f64, E>>>> =
        Mutex::new(finalists.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let lock = || measured.lock().unwrap_or_else(PoisonError::into_inner);
    let work = || {
        loop {
            // The widest margin over the finalists measured so far in a row from the first:
            // a lower bound of the one-by-one `stop_at`.
            let (widest, done) = widest_of(finalists, &lock());
            if done {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&k) = finalists.get(i) else { break };
            let stop_at = widest.map_or(0.0, |(_, m)| m + MARGIN_QUANTUM);
            let m = measure(k, stop_at);
            lock()[i] = Some(m);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.clamp(1, finalists.len()) {
            scope.spawn(work);
        }
        work();
    });
    let mut measured = measured
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let mut widest: Option<(usize, f64)> = None;
    for (i, &k) in finalists.iter().enumerate() {
        if widest.is_some_and(|(_, m)| m >= MARGIN_REACH) {
            break;
        }
        let Some(m) = measured[i].take() else { break };
        keep_wider(&mut widest, k, m?);
    }
    Ok(widest)
}

/// The one-by-one rule: the first finalist's margin, then a later one's only where it is
/// larger by more than [`MARGIN_QUANTUM`].
fn keep_wider(widest: &mut Option<(usize, f64)>, k: usize, m: f64) {
    let wider = widest.is_none_or(|(_, w)| m > w + MARGIN_QUANTUM);
    if wider {
        *widest = Some((k, m));
    }
}

/// The one-by-one widest margin over the finalists measured in a row from the first, and
/// whether the search is over (a margin at [`MARGIN_REACH`], or every finalist measured).
fn widest_of<E>(
    finalists: &[usize],
    measured: &[Option<Result<f64, E>>],
) -> (Option<(usize, f64)>, bool) {
    let mut widest: Option<(usize, f64)> = None;
    for (i, &k) in finalists.iter().enumerate() {
        if widest.is_some_and(|(_, m)| m >= MARGIN_REACH) {
            return (widest, true);
        }
        match &measured[i] {
            Some(Ok(m)) => keep_wider(&mut widest, k, *m),
            // An error ends the search there.
            Some(Err(_)) => return (widest, true),
            None => return (widest, false),
        }
    }
    (widest, false)
}

/// Per arm, the margin at each of `samples` instants spread evenly over the session (as
/// `analyse_timeline` samples it), metres, on `threads` threads (the result does not depend
/// on how many).
///
/// # Errors
/// The first sample's posing or stability error, in sample order.
pub fn timeline_margins(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    threads: usize,
) -> Result<PerSide<Vec<f64>>, StabilityError> {
    timeline_margins_to(
        Boundary::Any,
        actor,
        calib,
        settings,
        params,
        samples,
        threads,
    )
}

/// [`timeline_margins`] to the boundaries `boundary` counts (see
/// [`StabilityJob::margin_to`]).
///
/// # Errors
/// As [`timeline_margins`].
pub fn timeline_margins_to(
    boundary: Boundary,
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    threads: usize,
) -> Result<PerSide<Vec<f64>>, StabilityError> {
    let samples = samples.max(2);
    let threads = threads.clamp(1, (samples / 32).max(1));
    let margins = in_sample_chunks(samples, threads, |range| {
        let mut session = SessionSampler::new(actor, calib, settings, params, samples);
        let mut out = Vec::with_capacity(range.len());
        for k in range {
            let (_, eval) = session.pose_at(k)?;
            let pose = &session.pose;
            let mut margins = [0.0; 2];
            for (slot, side) in margins.iter_mut().zip(SIDES) {
                *slot = StabilityJob::for_arm(
                    actor,
                    settings,
                    pose,
                    (side, eval.arms.get(side)),
                    RAYS_ONLY,
                )
                .margin_to(boundary, MARGIN_STEP, MARGIN_REACH)?
                .margin;
            }
            out.push(margins);
        }
        Ok::<_, StabilityError>(out)
    })?;
    Ok(PerSide::new(
        margins.iter().map(|m| m[0]).collect(),
        margins.iter().map(|m| m[1]).collect(),
    ))
}

/// The smallest margin of `side`'s arm to `boundary` at the instants of `samples` spread
/// evenly over the session (as [`timeline_margins`] samples them), only those in `phase`
/// when it is given, metres, at most [`MARGIN_REACH`] (also when no instant is in it). Each
/// instant's rays walk only as far as the smallest margin found so far, so a weak instant
/// makes the rest cheap; the walk stops as soon as the margin is at most `stop_at` (0: never),
/// returning the margin so far. One thread; deterministic.
///
/// # Errors
/// The first walked sample's posing or stability error.
pub fn smallest_margin(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    params: &SessionParams,
    samples: usize,
    (side, boundary, phase): (Side, Boundary, Option<Phase>),
    stop_at: f64,
) -> Result<f64, StabilityError> {
    let samples = samples.max(2);
    let mut session = SessionSampler::new(actor, calib, settings, params, samples);
    let mut smallest = MARGIN_REACH;
    for k in 0..samples {
        if phase.is_some_and(|p| p != session.state_at(k).phase) {
            continue;
        }
        // Only this arm is posed: the other one's pose changes nothing on its rays.
        let (_, report) = session.pose_arm_at(k, side)?;
        let arm = (side, &report);
        let job = StabilityJob::for_arm(actor, settings, &session.pose, arm, RAYS_ONLY);
        let m = job.margin_to(boundary, MARGIN_STEP.min(smallest), smallest)?;
        smallest = smallest.min(m.margin);
        if smallest <= stop_at {
            break;
        }
    }
    Ok(smallest)
}

/// The rays walk the world's axes and diagonals; the grid itself is not solved.
const RAYS_ONLY: StabilityGrid = StabilityGrid {
    axes: [DVec3::X, DVec3::Y, DVec3::Z],
    half_extent: MARGIN_REACH,
    steps: [1; 3],
};
