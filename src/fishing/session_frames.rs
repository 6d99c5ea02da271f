//! From one session state: the rod and net transforms in actor-root space and the grip each
//! hand holds.
//!
//! Rod space (matches the bundled `rod.glb`): the blank runs along +Y from the butt (origin)
//! to the tip; the reel hangs on the −Z side. Net space (`net.glb`): the handle runs along +Y
//! from its end (origin) to the hoop.
//!
//! Grip frame convention, shared with [`super::HandFrame`]: origin on the axis of the object
//! held; +Y points out of the fist on the thumb side; +Z points from the palm toward the axis.
//!
//! Keys are written for a right-handed angler and mirrored (x → −x) for a left-handed one.
//! Each phase interpolates from its key to the next phase's key with smootherstep easing, so
//! the rod and every grip are continuous across phase boundaries.

use super::calibration::{GripCalibration, GripKind};
use super::gear::{Gear, NetGear, RodGear, curl_for_radius};
use super::seat::BodyFit;
use super::session::{Handedness, Phase, SessionState};
use super::{PerSide, SIDES};
use crate::ik::grip_contact::Capsule;
use crate::ik::hand::basis_from_directions;
use crate::rig::{Side, Transform};
use glam::{DQuat, DVec3};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

pub use super::gear::{NET_GRIP, ROD_FRONT_GRIP, ROD_REAR_GRIP};

/// What a hand holds, possibly while moving between two grips.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct GripHold {
    /// The grip the hand leaves (or holds, when `from == to`).
    pub from: GripKind,
    /// The grip the hand moves to.
    pub to: GripKind,
    /// 0 = on `from`, 1 = on `to`.
    pub blend: f64,
}

impl GripHold {
    /// Holding `kind` alone.
    pub fn on(kind: GripKind) -> Self {
        Self {
            from: kind,
            to: kind,
            blend: 0.0,
        }
    }

    /// The grip the hand is mostly on.
    pub fn main(&self) -> GripKind {
        if self.blend < 0.5 { self.from } else { self.to }
    }
}

/// Where one hand's grip is, in actor-root space.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct GripTarget {
    /// What the hand holds.
    pub hold: GripHold,
    /// Grip frame → actor space, unit scale (grip frame convention above).
    pub actor_from_grip: Transform,
    /// Scale of the calibrated finger curl: 1 while holding, lower while the hand travels.
    pub curl_scale: f64,
    /// How far the hand is closed on its grips, 1 while holding, lower while it travels
    /// (the contact grip's bends are scaled by it).
    pub opening: f64,
}

/// Everything the session state decides, in actor-root space.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SessionFrames {
    /// Rod space (the canonical frame of the rod's model) → actor space, unit scale.
    pub actor_from_rod: Transform,
    /// The rod's hold frame (the reel below the blank; see [`super::gear`]) → actor space:
    /// `actor_from_rod` itself unless the reel sits on top.
    pub actor_from_hold: Transform,
    /// Net space → actor space, unit scale.
    pub actor_from_net: Transform,
    /// The grip of each hand.
    pub grips: PerSide<GripTarget>,
    /// The hand holding the reel seat.
    pub front_side: Side,
    /// The reel's crank angle, radians, about the hold frame's X axis (see
    /// [`reel_handle_in_hold`]): 0 (the knob toward the tip) but while the retrieve cranks.
    pub crank: f64,
}

#[derive(Clone, Copy, Debug)]
struct RodKey {
    butt: DVec3,
    elevation_deg: f64,
    azimuth_deg: f64,
}

const fn key(x: f64, y: f64, z: f64, el: f64, az: f64) -> RodKey {
    RodKey {
        butt: DVec3::new(x, y, z),
        elevation_deg: el,
        azimuth_deg: az,
    }
}

/// Right-handed keys; phase `i` runs from `KEYS[i]` to `KEYS[i + 1]`. The wind-up elevation is
/// scaled by cast power.
const KEYS: [RodKey; 8] = [
    key(-0.10, 0.58, 0.16, 35.0, -8.0),  // seated hold
    key(-0.10, 0.59, 0.17, 38.0, -8.0),  // end of the hold: a slight lift
    key(-0.22, 0.86, 0.32, 100.0, -4.0), // wind-up: tip past vertical ("1 o'clock")
    key(-0.12, 0.86, 0.32, 55.0, -4.0),  // forward stroke to "10 o'clock"
    key(-0.10, 0.68, 0.07, 16.0, -5.0),  // follow-through toward the water
    key(-0.08, 0.60, 0.06, 30.0, -4.0),  // retrieve: rod drawn in, reel in reach
    key(-0.12, 0.72, 0.20, 70.0, -8.0),  // strike
    key(-0.22, 0.98, 0.10, 62.0, -25.0), // landing: rod high and back
];

/// Smootherstep: zero first and second derivatives at both ends.
pub(crate) fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Rod rotation: azimuth about +Y (0 = forward, +Z), elevation above the horizontal (may pass
/// 90° to point backwards), and the reel (rod −Z) hanging below the blank.
fn rod_rotation(elevation: f64, azimuth: f64) -> DQuat {
    DQuat::from_rotation_y(azimuth)
        * DQuat::from_rotation_x(FRAC_PI_2 - elevation)
        * DQuat::from_rotation_y(PI)
}

/// The hold frame: the keys place the bundled reel seat ([`ROD_FRONT_GRIP`] from the butt),
/// and a rod whose seat is elsewhere slides along its blank so that its own seat is there.
fn rod_at(state: &SessionState, fit: &BodyFit, rod: &RodGear) -> Transform {
    let i = state.phase.index();
    let (a, mut b) = (KEYS[i], KEYS[i + 1]);
    let mut a = a;
    let power = state.params.cast_power.clamp(0.2, 2.0);
    let windup = |k: &mut RodKey| k.elevation_deg = 90.0 + 10.0 * power;
    if state.phase == Phase::CastWindUp {
        windup(&mut b);
    }
    if state.phase == Phase::CastForward {
        windup(&mut a);
    }
    let s = ease(state.t_clamped());
    let butt = a.butt.lerp(b.butt, s);
    let el = (a.elevation_deg + (b.elevation_deg - a.elevation_deg) * s).to_radians();
    let az = (a.azimuth_deg + (b.azimuth_deg - a.azimuth_deg) * s).to_radians();
    let rotation = rod_rotation(el, az);
    if fit.is_identity() {
        let slide = rotation * (DVec3::Y * (ROD_FRONT_GRIP - rod.reel_seat));
        return Transform::new(butt + slide, rotation, DVec3::ONE);
    }
    // The reel seat, where the front hand and the reel handle are, follows the body; the rod
    // keeps its length and direction around it.
    let seat = rotation * (DVec3::Y * ROD_FRONT_GRIP);
    let own_seat = rotation * (DVec3::Y * rod.reel_seat);
    Transform::new(fit.point(butt + seat) - own_seat, rotation, DVec3::ONE)
}

/// Net leaning against the stool (grip near the left hip, hoop on the ground ahead) and held
/// out low over the water while landing.
fn net_at(state: &SessionState, fit: &BodyFit, net: &NetGear) -> Transform {
    let place = |grip: DVec3, dir: DVec3| {
        let dir = dir.normalize();
        let grip = fit.point(grip);
        // Overhand hold: the palm side of the handle (+Z) faces down.
        let rot = basis_from_directions(dir, DVec3::NEG_Y, 1, 2);
        Transform::new(grip - dir * net.grip, rot, DVec3::ONE)
    };
    let rest = place(DVec3::new(0.34, 0.66, 0.06), DVec3::new(0.70, -0.41, 1.05));
    let held = place(DVec3::new(0.28, 0.80, 0.44), DVec3::new(0.15, -0.45, 0.88));
    if state.phase != Phase::Landing {
        return rest;
    }
    let s = ease((state.t_clamped() - 0.3) / 0.7);
    Transform::new(
        rest.translation.lerp(held.translation, s),
        rest.rotation.slerp(held.rotation, s).normalize(),
        DVec3::ONE,
    )
}

/// Reel handle knob of the bundled rod at crank angle `angle` (radians), and the grip frame
/// there (see [`reel_handle_in_hold`]).
pub fn reel_handle_in_rod(angle: f64) -> Transform {
    reel_handle_in_hold(&RodGear::BUNDLED, angle)
}

/// Reel handle knob in `rod`'s hold frame at crank angle `angle` (radians), and the grip
/// frame there. The crank turns about the hold frame's X axis; on the bundled rod the knob
/// sits below the blank on the −X side (the angler's left for a right-handed angler).
pub fn reel_handle_in_hold(rod: &RodGear, angle: f64) -> Transform {
    let (c, r) = (rod.crank.centre_in_hold, rod.crank.radius);
    let knob = c + DVec3::new(0.0, r * angle.cos(), r * angle.sin());
    // Thumb toward the tip, palm facing the reel body (+X).
    let rot = basis_from_directions(DVec3::Y, DVec3::X, 1, 2);
    Transform::new(knob, rot, DVec3::ONE)
}

fn nominal_in_object(kind: GripKind, gear: &Gear, crank: f64) -> Transform {
    match kind {
        GripKind::RodRear => Transform::from_translation(DVec3::Y * gear.rod.rear_grip),
        GripKind::RodFront => Transform::new(
            DVec3::Y * gear.rod.reel_seat,
            front_palm_roll(&gear.rod),
            DVec3::ONE,
        ),
        GripKind::ReelHandle => reel_handle_in_hold(&gear.rod, crank),
        GripKind::NetHandle => Transform::from_translation(DVec3::Y * gear.net.grip),
    }
}

/// The front grip's turn about the blank (hold space; the grip's +Z runs from the palm to the
/// handle's axis, unturned toward the top of the blank). On a spinning rod (reel below the
/// blank) anglers hold the seat with the palm beside the handle on the side away from the
/// reel's crank, the thumb along the top and the fingers under it, either side of the reel's
/// stem: a turn of 110° (a quarter and a little over), its sense from the side
/// the crank is on (a crank on −X, as on the bundled rod, puts the palm on +X). A reel on top
/// (a baitcaster) is held from above: no turn.
pub fn front_palm_roll(rod: &RodGear) -> DQuat {
    if rod.reel_above {
        return DQuat::IDENTITY;
    }
    let toward_crank = if rod.crank.centre_in_hold.x > 0.0 {
        1.0
    } else {
        -1.0
    };
    DQuat::from_rotation_y(toward_crank * FRONT_PALM_ROLL)
}

/// How far [`front_palm_roll`] turns the front grip about the blank, radians: the palm
/// beside the handle and a little over it (110°).
const FRONT_PALM_ROLL: f64 = 110.0 * PI / 180.0;

/// The share of the calibrated finger curl that the handle under `kind` takes (1 on the
/// bundled rod and net; see [`curl_for_radius`]).
fn curl_for_grip(kind: GripKind, gear: &Gear) -> f64 {
    // The knob is the same on every reel: exactly 1.
    curl_for_radius(gear.grip_radius(kind), Gear::BUNDLED.grip_radius(kind))
}

/// The reel's stem in the front grip's nominal frame (`None` on a rod without a stem): a
/// capsule whose start is where the stem leaves the seat, its end where it meets the reel's
/// body, its radius the stem's half thickness along the blank. Depends only on the gear and
/// the handedness, so it is the same at every instant and for every calibration: an offset an
/// artist gives the front grip moves the hand and its straddle with it, as it moves the
/// hand's other contacts (a left-handed session mirrors the rod and its grips together, so
/// the stem is mirrored across the grip's frame too).
pub fn front_stem_in_grip(handedness: Handedness, gear: &Gear) -> Option<Capsule> {
    let stem = gear.rod.stem?;
    Some(front_capsule_in_grip(
        handedness,
        gear,
        (stem.top_in_rod, stem.bottom_in_rod, stem.radius),
    ))
}

/// A reel on top's body ([`super::RodGear::reel_body`]) in the front grip's nominal
/// frame, as [`front_stem_in_grip`] puts the stem there (`None` without one).
pub fn front_reel_in_grip(handedness: Handedness, gear: &Gear) -> Option<Capsule> {
    let body = gear.rod.reel_body?;
    Some(front_capsule_in_grip(
        handedness,
        gear,
        (body.start_in_hold, body.end_in_hold, body.radius),
    ))
}

/// The handle round the reel seat ([`super::RodGear::front_handle`]: butt side, seat, tip
/// side) in the front grip's nominal frame, as [`front_stem_in_grip`] puts the stem there:
/// each stretch a capsule along the blank from its start to its end with its radius (`None`
/// when not measured).
pub fn front_handle_in_grip(handedness: Handedness, gear: &Gear) -> Option<[Capsule; 3]> {
    let sections = gear.rod.front_handle?;
    Some(sections.map(|s| {
        front_capsule_in_grip(
            handedness,
            gear,
            (DVec3::Y * s.start, DVec3::Y * s.end, s.radius),
        )
    }))
}

/// A capsule of the rod (hold space: start, end, radius) in the front grip's nominal frame,
/// mirrored for a left-handed session.
fn front_capsule_in_grip(
    handedness: Handedness,
    gear: &Gear,
    (start, end, radius): (DVec3, DVec3, f64),
) -> Capsule {
    let g = nominal_in_object(GripKind::RodFront, gear, 0.0);
    let grip_from_hold = g.rotation.inverse();
    let m = |p: DVec3| match handedness {
        Handedness::Right => p,
        Handedness::Left => DVec3::new(-p.x, p.y, p.z),
    };
    let at = |p: DVec3| m(grip_from_hold * (m(p) - g.translation));
    Capsule {
        start: at(start),
        end: at(end),
        radius,
    }
}

/// A grip in actor space, with its calibrated offset applied in object space.
fn grip_in_actor(
    kind: GripKind,
    calib: &GripCalibration,
    gear: &Gear,
    rod: &Transform,
    net: &Transform,
    crank: f64,
) -> Transform {
    let offset = calib.grip(kind);
    let mut g = nominal_in_object(kind, gear, crank);
    g.translation += offset.offset_in_object;
    g.rotation = (g.rotation * offset.rotation).normalize();
    let object = if kind == GripKind::NetHandle {
        net
    } else {
        rod
    };
    object.compose_rigid(&g)
}

/// The rear hand's hold at this moment (right-handed timeline).
fn rear_hold(state: &SessionState) -> (GripHold, f64) {
    let t = state.t_clamped();
    match state.phase {
        Phase::Retrieve => {
            let w = if t < 0.15 {
                ease(t / 0.15)
            } else if t > 0.85 {
                ease((1.0 - t) / 0.15)
            } else {
                1.0
            };
            // Four turns while cranking, none while the hand travels.
            let crank = TAU * 4.0 * ((t - 0.15) / 0.7).clamp(0.0, 1.0);
            (
                GripHold {
                    from: GripKind::RodRear,
                    to: GripKind::ReelHandle,
                    blend: w,
                },
                crank,
            )
        }
        Phase::Landing => (
            GripHold {
                from: GripKind::RodRear,
                to: GripKind::NetHandle,
                blend: ease(t / 0.3),
            },
            0.0,
        ),
        _ => (GripHold::on(GripKind::RodRear), 0.0),
    }
}

fn mirror(t: &Transform) -> Transform {
    let p = t.translation;
    let q = t.rotation;
    Transform::new(
        DVec3::new(-p.x, p.y, p.z),
        DQuat::from_xyzw(q.x, -q.y, -q.z, q.w),
        t.scale,
    )
}

/// `t` for the session's hand: as it is for a right-handed session, mirrored (see
/// [`mirror`]) for a left-handed one.
fn for_hand(state: &SessionState, t: Transform) -> Transform {
    if state.params.handedness == Handedness::Right {
        t
    } else {
        mirror(&t)
    }
}

/// The rod's hold frame (the keys' place with the calibration's adjustment) and its model's
/// frame (turned about the blank when the reel sits above it), before any mirroring.
fn rod_frames(
    state: &SessionState,
    calib: &GripCalibration,
    fit: &BodyFit,
    gear: &Gear,
) -> (Transform, Transform) {
    let adjust = &calib.rod_adjust;
    let rod = rod_at(state, fit, &gear.rod).compose_rigid(&Transform::new(
        adjust.offset_in_object,
        adjust.rotation,
        DVec3::ONE,
    ));
    let model = if gear.rod.reel_above {
        rod.compose_rigid(&Transform::new(
            DVec3::ZERO,
            gear.rod.hold_from_model(),
            DVec3::ONE,
        ))
    } else {
        rod
    };
    (rod, model)
}

impl SessionFrames {
    /// The rod model's frame alone, exactly [`SessionFrames::evaluate_geared`]'s
    /// `actor_from_rod` (without the net and the grips it also evaluates).
    pub fn rod_in_actor(
        state: &SessionState,
        calib: &GripCalibration,
        fit: &BodyFit,
        gear: &Gear,
    ) -> Transform {
        for_hand(state, rod_frames(state, calib, fit, gear).1)
    }

    /// The net's frame alone, exactly [`SessionFrames::evaluate_geared`]'s `actor_from_net`.
    pub fn net_in_actor(state: &SessionState, fit: &BodyFit, gear: &Gear) -> Transform {
        for_hand(state, net_at(state, fit, &gear.net))
    }

    /// Evaluates the rod, the net and both grips for `state` with `calib`'s grip offsets.
    /// Pure and deterministic: the same inputs give bit-identical frames.
    pub fn evaluate(state: &SessionState, calib: &GripCalibration) -> Self {
        Self::evaluate_fitted(state, calib, &BodyFit::IDENTITY)
    }

    /// Like [`SessionFrames::evaluate`] with the rod and net keys carried to a body by
    /// `fit` (the rod keeps its length; see [`BodyFit`]).
    pub fn evaluate_fitted(state: &SessionState, calib: &GripCalibration, fit: &BodyFit) -> Self {
        Self::evaluate_geared(state, calib, fit, &Gear::BUNDLED)
    }

    /// Like [`SessionFrames::evaluate_fitted`] for the rod and net of `gear`: the rod slides
    /// along its blank so that its reel seat is where the bundled one would be, the hands
    /// hold its own grip points and crank, and the finger curl follows its handle radii.
    pub fn evaluate_geared(
        state: &SessionState,
        calib: &GripCalibration,
        fit: &BodyFit,
        gear: &Gear,
    ) -> Self {
        let (rod, model) = rod_frames(state, calib, fit, gear);
        let net = net_at(state, fit, &gear.net);
        let front = GripTarget {
            hold: GripHold::on(GripKind::RodFront),
            actor_from_grip: grip_in_actor(GripKind::RodFront, calib, gear, &rod, &net, 0.0),
            curl_scale: curl_for_grip(GripKind::RodFront, gear),
            opening: 1.0,
        };
        let (hold, crank) = rear_hold(state);
        let from = grip_in_actor(hold.from, calib, gear, &rod, &net, crank);
        let to = grip_in_actor(hold.to, calib, gear, &rod, &net, crank);
        let w = hold.blend;
        let handle_curl = {
            let (a, b) = (curl_for_grip(hold.from, gear), curl_for_grip(hold.to, gear));
            if a == b { a } else { a + (b - a) * w }
        };
        let rear = GripTarget {
            hold,
            actor_from_grip: Transform::new(
                from.translation.lerp(to.translation, w),
                from.rotation.slerp(to.rotation, w).normalize(),
                DVec3::ONE,
            ),
            // The hand opens a little while it travels between grips.
            curl_scale: (1.0 - 0.6 * (PI * w).sin()) * handle_curl,
            // Exactly closed on a grip (sin π is not exactly 0).
            opening: if w == 0.0 || w == 1.0 {
                1.0
            } else {
                1.0 - 0.6 * (PI * w).sin()
            },
        };
        let right_handed = state.params.handedness == Handedness::Right;
        let front_side = state.params.handedness.front_side();
        let grips = if right_handed {
            PerSide::new(rear, front)
        } else {
            PerSide::new(front, rear)
        };
        let mut frames = Self {
            actor_from_rod: model,
            actor_from_hold: rod,
            actor_from_net: net,
            grips,
            front_side,
            crank,
        };
        if !right_handed {
            frames.actor_from_rod = mirror(&frames.actor_from_rod);
            frames.actor_from_hold = mirror(&frames.actor_from_hold);
            frames.actor_from_net = mirror(&frames.actor_from_net);
            for side in SIDES {
                let g = frames.grips.get_mut(side);
                g.actor_from_grip = mirror(&g.actor_from_grip);
            }
        }
        frames
    }
}
