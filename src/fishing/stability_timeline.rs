//! The stability margin over the session (issue 36): at every timeline sample, per arm, the
//! margin walked along rays from the wrist target ([`MARGIN_STEP`] steps up to
//! [`MARGIN_REACH`]; see [`StabilityJob::margin_along_rays`]). What the calibration report
//! prints per phase and what a margin lane under the flip plot reads. Pure; threads like
//! `analyse_timeline_on`.

use super::actor::ActorRig;
use super::analysis::in_sample_chunks;
use super::calibration::GripCalibration;
use super::inputs::PoseInputs;
use super::poser::Poser;
use super::session::{SessionParams, SessionState};
use super::settings::SolverSettings;
use super::stability::{StabilityError, StabilityGrid, StabilityJob};
use super::{PerSide, SIDES};
use crate::rig::Transform;
use glam::DVec3;

/// How far from each target the session's margin looks, metres: a margin this large means
/// no boundary within it along any ray.
pub const MARGIN_REACH: f64 = 0.12;
/// The rays' step before bisection, metres.
pub const MARGIN_STEP: f64 = 0.01;

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
    let samples = samples.max(2);
    let threads = threads.clamp(1, (samples / 32).max(1));
    let margins = in_sample_chunks(samples, threads, |range| {
        let mut poser = Poser::new();
        let mut pose = actor.base.clone();
        let mut inputs = PoseInputs::new(calib.clone(), *settings, SessionState::default());
        let mut out = Vec::with_capacity(range.len());
        for k in range {
            let u = k as f64 / (samples - 1) as f64;
            inputs.state = SessionState::at_fraction(u, *params);
            let eval = poser.evaluate(actor, &inputs, &Transform::IDENTITY, &mut pose)?;
            let mut margins = [0.0; 2];
            for (slot, side) in margins.iter_mut().zip(SIDES) {
                *slot = StabilityJob::for_arm(
                    actor,
                    settings,
                    &pose,
                    (side, eval.arms.get(side)),
                    RAYS_ONLY,
                )
                .margin_along_rays(MARGIN_STEP, MARGIN_REACH)?
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

/// The rays walk the world's axes and diagonals; the grid itself is not solved.
const RAYS_ONLY: StabilityGrid = StabilityGrid {
    axes: [DVec3::X, DVec3::Y, DVec3::Z],
    half_extent: MARGIN_REACH,
    steps: [1; 3],
};
