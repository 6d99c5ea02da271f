//! Rotations between directions, and turning a bone in world space: the two corrections of
//! seed 001's step 5, shared by the two-bone solver, the palm turn and seating.

use super::{Pose, Skeleton};
use glam::{DQuat, DVec3};

/// Rotation taking direction `from` to direction `to` (neither need be unit).
///
/// Regular case: the shortest arc. When the directions are nearly opposite
/// (`1 + dot < 1e-6`) but `|cross|` still defines an axis, the rotation is built from
/// `axis = cross/|cross|`, `angle = atan2(|cross|, dot)`, which keeps the tiny remaining
/// sine measurable (seed 001, §6). Exactly opposite directions (cross ≈ 0) turn by π about
/// `preferred_axis` made perpendicular to `from`, or about any perpendicular when that fails.
/// Zero-length inputs give the identity.
pub fn rotation_between(from: DVec3, to: DVec3, preferred_axis: DVec3) -> DQuat {
    // Fast path: the half-way quaternion `normalize(f × t, |f||t| + f·t)` is the shortest arc
    // without normalising either input first (one square root instead of three).
    let norms_sq = from.length_squared() * to.length_squared();
    if norms_sq >= f64::MIN_POSITIVE
        && norms_sq.is_finite()
        && let Some(q) = half_way_arc(from, to, norms_sq.sqrt())
    {
        return q;
    }
    rotation_between_slow(from, to, preferred_axis)
}

/// The shortest arc from `from` to `to` as the half-way quaternion
/// `normalize(f × t, |f||t| + f·t)`, given `norms = |f||t|` (positive, finite), in the regular
/// case of seed 001 (`1 + cos ≥ 1e-6`); `None` when the directions are nearly opposite.
#[inline]
pub(crate) fn half_way_arc(from: DVec3, to: DVec3, norms: f64) -> Option<DQuat> {
    half_way_arc_scaled(from, to, norms).map(|q| q * (1.0 / q.length_squared().sqrt()))
}

/// [`half_way_arc`] before its normalisation: `k·q` for some `k > 0`. Rotating by it
/// ([`rotate_scaled`]) scales by `k²`, and the arc of a positively scaled direction is the arc
/// of the direction, so a second arc can start from it without waiting for the square root.
#[inline]
pub(crate) fn half_way_arc_scaled(from: DVec3, to: DVec3, norms: f64) -> Option<DQuat> {
    let w = norms + from.dot(to);
    (w >= 1e-6 * norms).then(|| {
        let cross = from.cross(to);
        DQuat::from_xyzw(cross.x, cross.y, cross.z, w)
    })
}

/// `q v q*` for any quaternion `q`: `|q|²` times `v` rotated by `q`'s rotation.
#[inline]
pub(crate) fn rotate_scaled(q: DQuat, v: DVec3) -> DVec3 {
    let c = DVec3::new(q.x, q.y, q.z);
    v * (q.w * q.w - c.length_squared()) + c * (2.0 * c.dot(v)) + c.cross(v) * (2.0 * q.w)
}

/// [`rotation_between`] for nearly opposite, tiny or huge inputs.
#[cold]
fn rotation_between_slow(from: DVec3, to: DVec3, preferred_axis: DVec3) -> DQuat {
    let (Some(f), Some(t)) = (from.try_normalize(), to.try_normalize()) else {
        return DQuat::IDENTITY;
    };
    let dot = f.dot(t).clamp(-1.0, 1.0);
    if 1.0 + dot >= 1e-6 {
        return DQuat::from_rotation_arc(f, t);
    }
    let cross = f.cross(t);
    let sine = cross.length();
    if sine > 1e-300 {
        return DQuat::from_axis_angle(cross / sine, sine.atan2(dot));
    }
    let axis = (preferred_axis - f * preferred_axis.dot(f))
        .try_normalize()
        .unwrap_or_else(|| f.any_orthonormal_vector());
    DQuat::from_axis_angle(axis, std::f64::consts::PI)
}

/// Turns `bone` in world space by `delta` and writes the result as a local rotation through
/// the parent's world rotation: `local = parent_world_rot⁻¹ · (delta · world_rot)`.
/// Does not refresh world transforms.
///
/// # Panics
///
/// If `bone` is not a bone index of `pose`.
pub fn apply_world_rotation(skeleton: &Skeleton, pose: &mut Pose, bone: usize, delta: DQuat) {
    let world_new = delta * pose.world_rotation(bone);
    let parent = pose.parent_world_rotation(skeleton, bone);
    pose.set_local_rotation(bone, (parent.inverse() * world_new).normalize());
}
