//! three's step of one CCD link before its limits, shared by the passes (`solve.rs`) and the
//! planar finish (`planar.rs`).

use glam::{DQuat, DVec3};

/// `cos(1e-5)`: `acos(d) < 1e-5` exactly when `d >` this (up to the rounding of acos).
const COS_MIN_STEP_ANGLE: f64 = 0.999_999_999_95;

/// three's step of a link before its limits: the local rotation `local` turned by the
/// rotation taking the direction `e` to `t` (both in the link's frame, any positive length),
/// its angle raised to `min_angle` and capped at `max_angle` (the chain's, in a pass). `None`
/// when three would skip the link (angle below 1e-5) or the axis is undefined (a zero
/// direction).
#[inline(always)]
pub(super) fn turn(
    (min_angle, max_angle): (Option<f64>, Option<f64>),
    local: DQuat,
    e: DVec3,
    t: DVec3,
) -> Option<DQuat> {
    let n = (e.length_squared() * t.length_squared()).sqrt();
    if !(n > 0.0 && n.is_finite()) {
        return None; // effector or target on the link: no axis (see module docs)
    }
    let dot = e.dot(t);
    let d = (dot / n).clamp(-1.0, 1.0);
    if d > COS_MIN_STEP_ANGLE {
        return None;
    }
    let cross = e.cross(t);
    // The step as a rotation `k·step` and its inverse scale `1/k` (1 when unit).
    let (step, inv) = if min_angle.is_some() || max_angle.is_some() {
        let mut angle = d.acos();
        if let Some(min) = min_angle
            && angle < min
        {
            angle = min;
        }
        if let Some(max) = max_angle
            && angle > max
        {
            angle = max;
        }
        let len = cross.length();
        let axis = if len != 0.0 && len.is_finite() {
            cross * (1.0 / len)
        } else {
            e.any_orthonormal_vector() // exactly behind: any perpendicular axis
        };
        let (s, c) = (angle / 2.0).sin_cos();
        (DQuat::from_xyzw(axis.x * s, axis.y * s, axis.z * s, c), 1.0)
    } else {
        // axisAngle(normalize(e × t), acos(d)) as the half-way quaternion
        // normalize(e × t, |e||t| + e·t): same rotation, no acos / sin / cos.
        let w = n + dot;
        let len = (cross.length_squared() + w * w).sqrt();
        if cross == DVec3::ZERO {
            let axis = e.any_orthonormal_vector(); // exactly behind: a half turn
            (DQuat::from_xyzw(axis.x, axis.y, axis.z, 0.0), 1.0)
        } else {
            // Normalised after the product: the product need not wait for the root.
            (DQuat::from_xyzw(cross.x, cross.y, cross.z, w), 1.0 / len)
        }
    };
    Some((local * step) * inv)
}
