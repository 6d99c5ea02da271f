//! Carrying a calibration from one character to another through the humanoid map, normalised
//! by the body: grip places on the rod kept, palm corrections and curls kept, poles carried
//! about the shoulders and scaled by arm length, the rod adjustment's offset scaled by the mean
//! arm scale, limits kept (the CCD forearm hinge
//! follows the new elbow axis when it was the old character's default).
//!
//! Both actors are in actor space (upright, facing +Z, metres; see [`crate::rig::CharacterFrame`]),
//! so shoulder frames line up and only origins and scales differ.

use super::actor::ActorRig;
use super::calibrate::{CalibrationReport, refine};
use super::calibration::GripCalibration;
use super::poser::SessionError;
use super::session::SessionParams;
use super::settings::SolverSettings;
use super::{PerSide, SIDES};
use crate::rig::Side;
use glam::DVec3;

/// What retargeting changed and what it could not map.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct RetargetReport {
    /// Target arm length over source arm length, per side.
    pub arm_scale: PerSide<f64>,
    /// Human-readable findings ("the target's left hand has no finger bones: …").
    pub notes: Vec<String>,
}

fn arm_length(actor: &ActorRig, side: Side) -> f64 {
    let arm = actor.arm(side);
    let p = |b| actor.base.world_position(b);
    (p(arm.fore) - p(arm.upper)).length() + (p(arm.hand) - p(arm.fore)).length()
}

fn shoulder(actor: &ActorRig, side: Side) -> DVec3 {
    actor.base.world_position(actor.arm(side).upper)
}

fn hand_scale(actor: &ActorRig, side: Side) -> f64 {
    let m = actor.base.world_from_bone(actor.arm(side).hand);
    m.matrix3.x_axis.length().max(1e-12)
}

/// Maps `calib` and `settings`, tuned on `source`, onto `target`. Pure; `calib` is only read.
pub fn retarget(
    source: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    target: &ActorRig,
) -> (GripCalibration, SolverSettings, RetargetReport) {
    let mut out = calib.clone();
    let mut report = RetargetReport::default();
    let scale = PerSide::new(Side::Left, Side::Right)
        .map(|_, &side| arm_length(target, side) / arm_length(source, side).max(1e-12));
    report.arm_scale = scale;
    for side in SIDES {
        let k = *scale.get(side);
        let (from, to) = (shoulder(source, side), shoulder(target, side));
        let carry = |p: DVec3| to + (p - from) * k;
        let keys = out.poles.get_mut(side);
        keys.pole_in_actor = carry(keys.pole_in_actor);
        for p in keys.per_phase.values_mut() {
            *p = carry(*p);
        }
        // The palm offset lives in hand-bone units: through world metres, scaled by the palm.
        let (ps, pt) = (
            source.arm(side).hand_frame.palm_length,
            target.arm(side).hand_frame.palm_length,
        );
        let hand = out.hands.get_mut(side);
        hand.palm_offset_in_hand *=
            hand_scale(source, side) * (pt / ps.max(1e-12)) / hand_scale(target, side);
        let (fs, ft) = (
            source.arm(side).fingers.len(),
            target.arm(side).fingers.len(),
        );
        if fs > 0 && ft == 0 {
            report.notes.push(format!(
                "the target's {} hand has no finger bones: its finger and thumb curls have no \
                 effect",
                side.name()
            ));
        } else if ft < fs {
            report.notes.push(format!(
                "the target's {} hand has {ft} of the source's {fs} fingers",
                side.name()
            ));
        }
    }
    let k = 0.5 * (scale.left + scale.right);
    out.rod_adjust.offset_in_object *= k;
    let mut new_settings = *settings;
    let (source_default, target_default) = (source.default_settings(), target.default_settings());
    for side in SIDES {
        let was = settings.arm(side).ccd.forearm;
        let default = source_default.arm(side).ccd.forearm;
        if (was.limitation, was.rotation_min, was.rotation_max)
            == (
                default.limitation,
                default.rotation_min,
                default.rotation_max,
            )
        {
            let new = target_default.arm(side).ccd.forearm;
            let f = &mut new_settings.arm_mut(side).ccd.forearm;
            f.limitation = new.limitation;
            f.rotation_min = new.rotation_min;
            f.rotation_max = new.rotation_max;
        } else {
            report.notes.push(format!(
                "the {} CCD forearm hinge was tuned by hand; kept as it is (check it against \
                 the target's elbow)",
                side.name()
            ));
        }
    }
    (out, new_settings, report)
}

/// A retargeted calibration and its settings, refined on the target.
pub type Retargeted = (
    GripCalibration,
    SolverSettings,
    RetargetReport,
    CalibrationReport,
);

/// [`retarget`] `(source, calib, settings)` onto `target`, then [`refine`] it there over
/// the session `params` (the session the result will be used in) on `samples` samples and
/// `threads` threads, keeping each grip's place on the rod: only the rod adjustment and
/// the poles are chosen. What `anglerpose retarget` and the editor's "apply preset to
/// character" both do.
///
/// # Errors
/// As [`refine`].
pub fn retarget_refined(
    (source, calib, settings): (&ActorRig, &GripCalibration, &SolverSettings),
    target: &ActorRig,
    params: &SessionParams,
    samples: usize,
    threads: usize,
) -> Result<Retargeted, SessionError> {
    let (mapped, settings, report) = retarget(source, calib, settings, target);
    let (refined, fit) = refine(target, &settings, params, mapped, false, samples, threads)?;
    Ok((refined, settings, report, fit))
}
