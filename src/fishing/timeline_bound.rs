//! Timelines that stop once they cannot win (issue 37): calibration scores many candidate
//! calibrations over the whole session and keeps the lowest score, a sum of non-negative
//! terms per sample. [`analyse_timeline_while`] poses one instant at a time and asks after
//! each whether to go on, so a candidate whose partial score already exceeds the best
//! complete one stops there; and a candidate that changes one arm's pole alone poses only
//! that arm, taking the other arm's samples from an analysis they share.

use super::actor::ActorRig;
use super::analysis::{
    ArmSample, SessionSampler, TimelineAnalysis, TimelineBuilder, arm_sample, rest_normals,
};
use super::calibration::GripCalibration;
use super::poser::SessionError;
use super::session::SessionParams;
use super::settings::SolverSettings;
use super::{PerSide, SIDES};
use crate::rig::Side;

/// Which arms a timeline poses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PosedArms<'a> {
    /// Both.
    Both,
    /// The arm on the side alone; the other arm's samples are the given analysis's, which
    /// must be of a calibration that differs from this one in that arm's pole at most (the
    /// other arm's pose depends on nothing else that differs).
    One(Side, &'a TimelineAnalysis),
}

/// The analysis of `samples` instants of the session with `calib`, posing the arms
/// `posed`, one instant at a time in order; after each instant `go_on` sees the samples so
/// far and may stop the timeline (then `None`). The analysis, when complete, is the one
/// [`super::analyse_timeline_on`] gives.
///
/// # Errors
/// As [`super::analyse_timeline_on`].
pub(crate) fn analyse_timeline_while(
    actor: &ActorRig,
    calib: &GripCalibration,
    (settings, params): (&SolverSettings, &SessionParams),
    samples: usize,
    posed: PosedArms<'_>,
    mut go_on: impl FnMut(&PerSide<Vec<ArmSample>>) -> bool,
) -> Result<Option<TimelineAnalysis>, SessionError> {
    let samples = samples.max(2);
    let normals = rest_normals(actor);
    let mut session = SessionSampler::new(actor, calib, settings, params, samples);
    let mut timeline = TimelineBuilder::new(params, samples);
    for k in 0..samples {
        match posed {
            PosedArms::Both => {
                let (state, eval) = session.pose_at(k)?;
                for side in SIDES {
                    let r = eval.arms.get(side);
                    let (s, n) = arm_sample(actor, side, &state, r, &session.pose, &normals);
                    timeline.push(side, s, Some(n));
                }
            }
            PosedArms::One(side, shared) => {
                let (state, r) = session.pose_arm_at(k, side)?;
                let (s, n) = arm_sample(actor, side, &state, &r, &session.pose, &normals);
                for other in SIDES {
                    if other == side {
                        timeline.push(side, s, Some(n));
                    } else {
                        timeline.push(other, shared.samples.get(other)[k], None);
                    }
                }
            }
        }
        if !go_on(&timeline.out) {
            return Ok(None);
        }
    }
    Ok(Some(timeline.finish()))
}
