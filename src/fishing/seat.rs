//! A seated base pose for any humanoid, and how the session's props fit its body.
//!
//! The bundled angler's seated posture is carried over by limb *directions*, not raw local
//! rotations, so T-pose, A-pose and arms-down rest poses all end up alike: spine upright
//! (the angler's slight forward lean), thighs near level, shins down to the floor, feet as
//! flat as they stand in the rest pose, arms hanging forward with the elbows bent. Each bone
//! turns by the shortest arc that takes its segment (joint → child joint) onto the template
//! direction, parents first, so twist stays as the rest pose has it.
//!
//! Actor space as in [`super`]: +Y up, facing +Z, left at +X, metres.

use crate::rig::{
    BodyMap, HumanoidMap, Pose, Side, Skeleton, Transform, apply_world_rotation, rotation_between,
};
use glam::{DQuat, DVec3};
use thiserror::Error;

/// The angler's spine polyline in the seated rest pose: pelvis, spine_01..03, neck, head,
/// top of the head (actor space).
pub const TEMPLATE_SPINE: [DVec3; 7] = [
    DVec3::new(0.0, 0.53, 0.0),
    DVec3::new(0.0, 0.63, 0.005),
    DVec3::new(0.0, 0.75, 0.02),
    DVec3::new(0.0, 0.88, 0.04),
    DVec3::new(0.0, 1.045, 0.06),
    DVec3::new(0.0, 1.13, 0.07),
    DVec3::new(0.0, 1.345, 0.075),
];
/// Left thigh (hip → knee) and shin (knee → ankle) directions of the seated angler.
pub const TEMPLATE_THIGH_L: DVec3 = DVec3::new(0.07, -0.07, 1.0);
/// Left shin (knee → ankle) direction of the seated angler (not unit length).
pub const TEMPLATE_SHIN_L: DVec3 = DVec3::new(0.01, -1.0, 0.12);

/// The seated angler's measures (actor space) that the props were placed for.
pub mod angler {
    use glam::DVec3;
    /// Left shoulder (upper-arm joint).
    pub const SHOULDER_L: DVec3 = DVec3::new(0.175, 1.03, 0.045);
    /// Upper arm + forearm.
    pub const ARM_LENGTH: f64 = (0.186 + 0.146) * 1.75;
    /// Hip joint height above the floor.
    pub const HIP_HEIGHT: f64 = 0.535;
    /// Hip → knee length, metres.
    pub const THIGH_LENGTH: f64 = 0.245 * 1.75;
    /// The bundled stool's seat height.
    pub const STOOL_HEIGHT: f64 = 0.45;
}

/// Left upper arm and forearm directions of the seated angler: 12° out, 20° forward, elbow
/// bent 45° toward the front.
pub fn template_arm_l() -> (DVec3, DVec3) {
    let (out, fwd) = (12f64.to_radians(), 20f64.to_radians());
    let upper = DVec3::new(out.sin(), -out.cos() * fwd.cos(), out.cos() * fwd.sin());
    let bend_axis = upper.cross(DVec3::new(0.0, 0.2, 1.0)).normalize();
    let fore = DQuat::from_axis_angle(bend_axis, 45f64.to_radians()) * upper;
    (upper, fore)
}

fn mirror(v: DVec3, side: Side) -> DVec3 {
    match side {
        Side::Left => v,
        Side::Right => DVec3::new(-v.x, v.y, v.z),
    }
}

/// Why no seated pose could be made.
#[derive(Debug, Error, PartialEq)]
pub enum SeatError {
    /// The humanoid map has no body; the missing roles, comma-separated.
    #[error("no seated pose without a body: missing {0}")]
    NoBody(String),
}

/// Bones turned by less than this keep their rest rotation (radians).
const SAME_DIRECTION: f64 = 1e-6;

/// The seated pose and whether anything had to move.
#[derive(Clone, Debug)]
pub struct SeatedPose {
    /// The seated base pose, actor space.
    pub pose: Pose,
    /// True when the rest pose already is the template posture (the bundled angler): the
    /// pose is then the rest pose, bit for bit, and placement is left alone.
    pub already_seated: bool,
}

/// Turns `bone` so that the segment from it to `child` points along `dir` (world), then
/// refreshes its subtree. Returns the angle turned.
fn aim(skel: &Skeleton, pose: &mut Pose, bone: usize, child: usize, dir: DVec3) -> f64 {
    let seg = pose.world_position(child) - pose.world_position(bone);
    if seg.length_squared() < 1e-18 {
        return 0.0;
    }
    let angle = seg.angle_between(dir);

    if angle < SAME_DIRECTION {
        return 0.0;
    }
    let delta = rotation_between(seg, dir, DVec3::X);
    apply_world_rotation(skel, pose, bone, delta);
    pose.refresh_subtree(skel, bone);
    angle
}

/// Direction of the template spine polyline (pelvis → head) at fraction `u` of its length.
fn spine_direction(u: f64) -> DVec3 {
    let pts = &TEMPLATE_SPINE[..6];
    let total: f64 = pts.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    let mut acc = 0.0;
    for w in pts.windows(2) {
        acc += (w[1] - w[0]).length();
        if u * total <= acc {
            return (w[1] - w[0]).normalize();
        }
    }
    (pts[5] - pts[4]).normalize()
}

/// The seated base pose of a character in actor space. `rest` is the refreshed rest pose
/// (actor placement identity) and `map` its humanoid map with a body and both arms.
///
/// # Errors
/// [`SeatError::NoBody`] when the map has no body.
pub fn seat(skel: &Skeleton, rest: &Pose, map: &HumanoidMap) -> Result<SeatedPose, SeatError> {
    let Some(body) = &map.body else {
        let missing: Vec<String> = map.body_missing.iter().map(|r| r.to_string()).collect();
        return Err(SeatError::NoBody(missing.join(", ")));
    };
    let mut pose = rest.clone();
    let mut turned = 0.0f64;
    // Spine: hips → spine… → neck → head by fraction of the chain's length; the head's own
    // segment (to its end joint, when it has one) like the angler's head.
    let mut chain = vec![body.hips];
    chain.extend(&body.spine);
    chain.extend(body.neck);
    chain.push(body.head);
    let pts: Vec<DVec3> = chain.iter().map(|&b| rest.world_position(b)).collect();
    let total: f64 = pts.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    if total > 0.0 {
        let mut acc = 0.0;
        for k in 0..chain.len() - 1 {
            let len = (pts[k + 1] - pts[k]).length();
            let mid = (acc + 0.5 * len) / total;
            acc += len;
            turned = turned.max(aim(
                skel,
                &mut pose,
                chain[k],
                chain[k + 1],
                spine_direction(mid),
            ));
        }
    }
    if let Some(&end) = skel.children(body.head).first() {
        let head_dir = TEMPLATE_SPINE[6] - TEMPLATE_SPINE[5];
        turned = turned.max(aim(skel, &mut pose, body.head, end, head_dir));
    }
    // Legs: thigh forward, shin down, foot back to its rest (standing) orientation.
    for side in [Side::Left, Side::Right] {
        let leg = body.leg(side);
        turned = turned.max(aim(
            skel,
            &mut pose,
            leg.thigh,
            leg.shin,
            mirror(TEMPLATE_THIGH_L, side),
        ));
        turned = turned.max(aim(
            skel,
            &mut pose,
            leg.shin,
            leg.foot,
            mirror(TEMPLATE_SHIN_L, side),
        ));
        let back = rest.world_rotation(leg.foot) * pose.world_rotation(leg.foot).inverse();
        if back.angle_between(DQuat::IDENTITY) > SAME_DIRECTION {
            turned = turned.max(back.angle_between(DQuat::IDENTITY));
            apply_world_rotation(skel, &mut pose, leg.foot, back.normalize());
            pose.refresh_subtree(skel, leg.foot);
        }
    }
    // Arms: hanging forward, elbows bent; the IK takes them from here.
    let (upper, fore) = template_arm_l();
    for side in [Side::Left, Side::Right] {
        let Some(arm) = map.arm(side) else { continue };
        turned = turned.max(aim(
            skel,
            &mut pose,
            arm.upper_arm,
            arm.forearm,
            mirror(upper, side),
        ));
        turned = turned.max(aim(
            skel,
            &mut pose,
            arm.forearm,
            arm.hand,
            mirror(fore, side),
        ));
    }
    if turned == 0.0 {
        return Ok(SeatedPose {
            pose: rest.clone(),
            already_seated: true,
        });
    }
    Ok(SeatedPose {
        pose,
        already_seated: false,
    })
}

/// Moves every root of `pose` by `delta` (actor space) and refreshes it.
pub fn translate_roots(skel: &Skeleton, pose: &mut Pose, delta: DVec3) {
    for b in 0..skel.len() {
        if skel.parent(b).is_none() {
            let mut t = *pose.local(b);
            t.translation += delta;
            pose.set_local(b, t);
        }
    }
    pose.refresh_all(skel);
}

/// Where the seated body puts the floor when the mesh is not known: below the ankles by the
/// rest pose's ankle height over its lowest joint.
pub fn floor_from_joints(skel: &Skeleton, rest: &Pose, seated: &Pose, body: &BodyMap) -> f64 {
    let lowest = (0..skel.len())
        .map(|b| rest.world_position(b).y)
        .fold(f64::INFINITY, f64::min);
    let mut sum = 0.0;
    for side in [Side::Left, Side::Right] {
        let f = body.leg(side).foot;
        sum += seated.world_position(f).y - (rest.world_position(f).y - lowest);
    }
    0.5 * sum
}

/// How the session's rod and net keys, written for the bundled angler, fit this body: points
/// are carried relative to the shoulders, across by shoulder width and along / up by arm
/// length, so the hands reach wherever the angler's do. The stool follows the legs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BodyFit {
    /// Midpoint of the shoulders (upper-arm joints), seated base pose.
    pub shoulder_mid: DVec3,
    /// Per axis scale from the angler's measures (x: shoulder width; y, z: arm length).
    pub scale: DVec3,
    /// The stool in actor space (origin on the floor below the seat centre, uniform scale).
    pub actor_from_stool: Transform,
}

impl BodyFit {
    /// The angler's own fit: every point unchanged.
    pub const IDENTITY: Self = Self {
        shoulder_mid: DVec3::new(0.0, angler::SHOULDER_L.y, angler::SHOULDER_L.z),
        scale: DVec3::ONE,
        actor_from_stool: Transform::IDENTITY,
    };

    /// The fit of a seated body. `already_seated` (the template itself) gives
    /// [`BodyFit::IDENTITY`] exactly.
    pub fn new(base: &Pose, map: &HumanoidMap, already_seated: bool) -> Self {
        let (Some(l), Some(r), Some(body)) = (map.arm(Side::Left), map.arm(Side::Right), &map.body)
        else {
            return Self::IDENTITY;
        };
        if already_seated {
            return Self::IDENTITY;
        }
        let (ls, rs) = (
            base.world_position(l.upper_arm),
            base.world_position(r.upper_arm),
        );
        let width = (ls - rs).length() / (2.0 * angler::SHOULDER_L.x);
        let arm = 0.5
            * (l.upper_arm_length + l.forearm_length + r.upper_arm_length + r.forearm_length)
            / angler::ARM_LENGTH;
        let hip_joints = 0.5
            * (base.world_position(body.left_leg.thigh)
                + base.world_position(body.right_leg.thigh));
        let thigh = 0.5 * (body.left_leg.thigh_length + body.right_leg.thigh_length);
        let seat = hip_joints.y
            - (angler::HIP_HEIGHT - angler::STOOL_HEIGHT) * thigh / angler::THIGH_LENGTH;
        let stool_scale = (seat / angler::STOOL_HEIGHT).max(0.05);
        Self {
            shoulder_mid: 0.5 * (ls + rs),
            scale: DVec3::new(width, arm, arm),
            actor_from_stool: Transform::new(
                DVec3::new(hip_joints.x, 0.0, hip_joints.z),
                DQuat::IDENTITY,
                DVec3::splat(stool_scale),
            ),
        }
    }

    /// Whether this is exactly [`BodyFit::IDENTITY`].
    pub fn is_identity(&self) -> bool {
        *self == Self::IDENTITY
    }

    /// A point placed for the angler, carried to this body.
    pub fn point(&self, p: DVec3) -> DVec3 {
        if self.is_identity() {
            return p;
        }
        self.shoulder_mid + self.scale * (p - Self::IDENTITY.shoulder_mid)
    }
}
