//! Joint angle limits shared by the CCD and two-bone solvers, three.js-exact Euler XYZ
//! conversions, and the arc data a UI needs to draw a limit.
//!
//! Conventions: quaternions are glam `DQuat` (x, y, z, w); Euler angles are three.js order
//! `'XYZ'`, i.e. `q = Rx(x) * Ry(y) * Rz(z)` applied to column vectors. Every function here is
//! pure, allocation-free and finite for finite input.

use crate::rig::{Pose, Skeleton};
use glam::{DQuat, DVec3};
use std::f64::consts::PI;

/// Euler XYZ angles of `q`, computed exactly like three.js r187
/// (`Euler.setFromQuaternion` → `Matrix4.makeRotationFromQuaternion` → `setFromRotationMatrix`):
/// `y = asin(clamp(m13, -1, 1))`; if `|m13| < 0.9999999`, `x = atan2(-m23, m33)` and
/// `z = atan2(-m12, m11)`, else (gimbal lock, `y = ±π/2`) `x = atan2(m32, m22)` and `z = 0`.
///
/// `q` is used as given (three does not normalise it either). Singular case: at gimbal lock
/// the split between x and z is not unique and all of it goes to x. A zero quaternion yields
/// the matrix identity and therefore `(0, 0, 0)`.
pub fn euler_xyz_from_quat(q: DQuat) -> DVec3 {
    let EulerEntries {
        m11,
        m12,
        m13,
        m22,
        m23,
        m32,
        m33,
    } = EulerEntries::of(q);
    let ey = asin_exact(m13.clamp(-1.0, 1.0));
    if m13.abs() < 0.9999999 {
        DVec3::new(atan2_exact(-m23, m33), ey, atan2_exact(-m12, m11))
    } else {
        DVec3::new(atan2_exact(m32, m22), ey, 0.0)
    }
}

/// The rotation-matrix entries of `q` that [`euler_xyz_from_quat`] decomposes (three.js's
/// `makeRotationFromQuaternion`, row-major `mRC`), computed in three's order. The fast
/// inside-the-range test (`EulerInsideTest`) reads the very same values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EulerEntries {
    /// Row 1, column 1: `1 − 2(y² + z²)`.
    pub m11: f64,
    /// Row 1, column 2: `2(xy − wz)`.
    pub m12: f64,
    /// Row 1, column 3: `2(xz + wy)`, the sine of the Y angle.
    pub m13: f64,
    /// Row 2, column 2: `1 − 2(x² + z²)`.
    pub m22: f64,
    /// Row 2, column 3: `2(yz − wx)`.
    pub m23: f64,
    /// Row 3, column 2: `2(yz + wx)`.
    pub m32: f64,
    /// Row 3, column 3: `1 − 2(x² + y²)`.
    pub m33: f64,
}

impl EulerEntries {
    /// The entries of `q` as given (not normalised, as in three).
    #[inline(always)]
    pub fn of(q: DQuat) -> Self {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        Self {
            m11: 1.0 - (yy + zz),
            m12: xy - wz,
            m13: xz + wy,
            m22: 1.0 - (xx + zz),
            m23: yz - wx,
            m32: yz + wx,
            m33: 1.0 - (xx + yy),
        }
    }
}

// Zero angles are common here (a hinge rotates about one axis, so two of its Euler angles
// are ±0) and libm's answers for them are exact by IEEE 754 / C Annex F: asin(±0) = ±0,
// atan2(±0, x > 0) = ±0, sin(±0) = ±0, cos(±0) = 1. These return those bits without the call;
// every other input goes to libm, so results are bit-identical to the plain calls.

/// `v.asin()`, with ±0 returned as is.
#[inline]
fn asin_exact(v: f64) -> f64 {
    if v == 0.0 { v } else { v.asin() }
}

/// `y.atan2(x)`, with `(±0, x > 0)` returning `±0` without the call.
#[inline]
fn atan2_exact(y: f64, x: f64) -> f64 {
    if y == 0.0 && x > 0.0 { y } else { y.atan2(x) }
}

/// `v.sin_cos()`, with ±0 returning `(±0, 1)` without the call.
#[inline]
fn sin_cos_exact(v: f64) -> (f64, f64) {
    if v == 0.0 { (v, 1.0) } else { v.sin_cos() }
}

/// Quaternion of Euler XYZ angles `v`, exactly like three.js `Quaternion.setFromEuler` for
/// order `'XYZ'`. Always unit length (up to rounding); any finite `v` is accepted.
pub fn quat_from_euler_xyz(v: DVec3) -> DQuat {
    let (s1, c1) = sin_cos_exact(v.x / 2.0);
    let (s2, c2) = sin_cos_exact(v.y / 2.0);
    let (s3, c3) = sin_cos_exact(v.z / 2.0);
    DQuat::from_xyzw(
        s1 * c2 * c3 + c1 * s2 * s3,
        c1 * s2 * c3 - s1 * c2 * s3,
        c1 * c2 * s3 + s1 * s2 * c3,
        c1 * c2 * c3 - s1 * s2 * s3,
    )
}

/// three.js `MathUtils.euclideanModulo(n, m)`: `((n % m) + m) % m`, in `[0, m)` for `m > 0`.
pub fn euclidean_modulo(n: f64, m: f64) -> f64 {
    rem_exact(rem_exact(n, m) + m, m)
}

/// `x % m` (C `fmod`: exact, sign of `x`) for `m > 0`, bit for bit, with the common cases
/// done without a division loop: `|x| < m` returns `x`, and `m ≤ |x| < 2m` subtracts `m`
/// once from `|x|`, which is exact (Sterbenz). Everything else (and NaN) goes to `%`, whose
/// software `fmod` costs hundreds of instructions.
#[inline]
pub fn rem_exact(x: f64, m: f64) -> f64 {
    let a = x.abs();
    if a < m {
        x
    } else if a < 2.0 * m {
        (a - m).copysign(x) // keeps fmod's sign on a zero result (x = -m gives -0)
    } else {
        x % m
    }
}

/// Wraps `angle` into `[centre - π, centre + π)` (three r187's wrap before an Euler clamp, so
/// that ranges crossing ±π clamp correctly).
pub fn wrap_near(angle: f64, centre: f64) -> f64 {
    centre + euclidean_modulo(angle - centre + PI, 2.0 * PI) - PI
}

/// [`wrap_near`] on each component of Euler angles `v` with its own `centre`.
pub fn wrap_euler_near(v: DVec3, centre: DVec3) -> DVec3 {
    DVec3::new(
        wrap_near(v.x, centre.x),
        wrap_near(v.y, centre.y),
        wrap_near(v.z, centre.z),
    )
}

/// three.js r187 Euler clamp of the CCD solver: when both limits exist, each component is first
/// wrapped into `centre ± π` (`centre = (min + max) / 2`); then `v = max(v, min)`,
/// `v = min(v, max)`. Returns the clamped vector and whether any component was moved by the
/// clamp (the wrap alone does not count: it names the same rotation).
///
/// Singular case: when `min > max` on a component the result is `max` (three's order).
pub fn clamp_euler_three(v: DVec3, min: Option<DVec3>, max: Option<DVec3>) -> (DVec3, bool) {
    let mut w = v;
    if let (Some(lo), Some(hi)) = (min, max) {
        w = wrap_euler_near(w, (lo + hi) * 0.5);
    }
    let wrapped = w;
    if let Some(lo) = min {
        w = DVec3::new(w.x.max(lo.x), w.y.max(lo.y), w.z.max(lo.z));
    }
    if let Some(hi) = max {
        w = DVec3::new(w.x.min(hi.x), w.y.min(hi.y), w.z.min(hi.z));
    }
    (w, w != wrapped)
}

/// Per-component Euler XYZ limits of a bone's *local* rotation (three.js
/// `rotationMin` / `rotationMax`). A disabled limit leaves rotations untouched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EulerLimit {
    /// Lower Euler XYZ bounds, radians.
    pub min: DVec3,
    /// Upper Euler XYZ bounds, radians.
    pub max: DVec3,
    /// `false` makes [`EulerLimit::clamp`] a no-op and `arcs` report no `on_limit`.
    pub enabled: bool,
}

impl EulerLimit {
    /// Clamps a local rotation with three r187's wrap-then-clamp. Returns the new rotation, the
    /// Euler vector three would store, and whether a component was clamped. When disabled,
    /// returns `q` unchanged with its Euler angles and `false`.
    pub fn clamp(&self, q: DQuat) -> (DQuat, DVec3, bool) {
        let v = euler_xyz_from_quat(q);
        if !self.enabled {
            return (q, v, false);
        }
        let (c, hit) = clamp_euler_three(v, Some(self.min), Some(self.max));
        (quat_from_euler_xyz(c), c, hit)
    }

    /// True when some component of `q`'s Euler angles (wrapped near the range centre) sits
    /// on or beyond a limit, within `tolerance` radians.
    pub fn on_limit(&self, q: DQuat, tolerance: f64) -> bool {
        let w = wrap_euler_near(euler_xyz_from_quat(q), (self.min + self.max) * 0.5);
        (0..3).any(|i| w[i] <= self.min[i] + tolerance || w[i] >= self.max[i] - tolerance)
    }

    /// Three arcs, one per Euler component (X about the parent's X axis, Y about `Rx(x)·Y`,
    /// Z about `Rx(x)Ry(y)·Z`), for drawing. `zero` directions are perpendicular bone-frame axes
    /// (Y for X, Z for Y, X for Z). See [`LimitArc`] for singular cases.
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index of `pose`.
    pub fn arcs(
        &self,
        skeleton: &Skeleton,
        pose: &Pose,
        bone: usize,
        radius: f64,
    ) -> [LimitArc; 3] {
        let parent_rot = pose.parent_world_rotation(skeleton, bone);
        let centre = pose.world_position(bone);
        let v = euler_xyz_from_quat(pose.local(bone).rotation);
        let frames = [
            parent_rot,
            parent_rot * DQuat::from_rotation_x(v.x),
            parent_rot * DQuat::from_rotation_x(v.x) * DQuat::from_rotation_y(v.y),
        ];
        let axes = [DVec3::X, DVec3::Y, DVec3::Z];
        let refs = [DVec3::Y, DVec3::Z, DVec3::X];
        std::array::from_fn(|i| {
            let frame = frames[i];
            let axis = axes[i];
            let from = |a: f64| frame * (DQuat::from_axis_angle(axis, a) * refs[i]);
            let on_limit = self.enabled
                && (v[i] <= self.min[i] + ON_LIMIT_TOLERANCE
                    || v[i] >= self.max[i] - ON_LIMIT_TOLERANCE);
            LimitArc {
                centre_in_world: centre,
                axis_in_world: frame * axis,
                start_dir_in_world: from(self.min[i]),
                sweep: self.max[i] - self.min[i],
                current_angle: v[i] - self.min[i],
                current_dir_in_world: from(v[i]),
                on_limit,
                radius,
            }
        })
    }
}

/// Tolerance (radians) under which a joint counts as sitting on a limit for drawing.
pub const ON_LIMIT_TOLERANCE: f64 = 1e-6;

/// A one-axis (hinge) limit of a bone's local rotation.
///
/// The hinge angle of a local rotation `q` is the signed twist angle of `zero⁻¹ * q` about
/// `axis` (both in the bone's parent frame after `zero`), in `(-π, π]`: `zero` is the local
/// rotation at angle 0 (the bind pose, usually), `reference` a bone-local direction that
/// marks angle 0 when drawing (typically the direction to the child joint).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeLimit {
    /// Unit hinge axis in the bone's local frame at angle 0.
    pub axis: DVec3,
    /// Local rotation at hinge angle 0.
    pub zero: DQuat,
    /// Bone-local direction marking angle 0 in drawings; projected onto the plane normal to
    /// `axis` (any perpendicular is used when it is parallel to `axis` or zero).
    pub reference: DVec3,
    /// Lower bound (radians), `min <= max`.
    pub min: f64,
    /// Upper bound (radians).
    pub max: f64,
    /// `false` makes [`HingeLimit::clamp`] and [`HingeLimit::clamp_angle`] no-ops and `arc`
    /// report no `on_limit`.
    pub enabled: bool,
}

impl HingeLimit {
    /// Hinge about `axis` with `zero = identity`, reference any perpendicular.
    pub fn new(axis: DVec3, min: f64, max: f64) -> Self {
        let axis = axis.normalize_or(DVec3::X);
        Self {
            axis,
            zero: DQuat::IDENTITY,
            reference: axis.any_orthonormal_vector(),
            min,
            max,
            enabled: true,
        }
    }

    /// Signed twist angle of `q` about the hinge axis, in `(-π, π]`.
    ///
    /// Singular case: when `q` (relative to `zero`) is a half-turn about an axis
    /// perpendicular to the hinge, the twist is undefined and 0 is returned.
    pub fn angle_of(&self, q: DQuat) -> f64 {
        let r = self.zero.conjugate() * q;
        let along = DVec3::new(r.x, r.y, r.z).dot(self.axis);
        if along == 0.0 && r.w == 0.0 {
            return 0.0;
        }
        let a = 2.0 * along.atan2(r.w);
        wrap_near(a, 0.0).clamp(-PI, PI)
    }

    /// `angle` clamped into `[min, max]` when enabled, and whether it moved.
    pub fn clamp_angle(&self, angle: f64) -> (f64, bool) {
        if !self.enabled {
            return (angle, false);
        }
        let c = angle.max(self.min).min(self.max);
        (c, c != angle)
    }

    /// Local rotation whose hinge angle is `angle` and with no swing: `zero * R(axis, angle)`.
    pub fn rotation_at(&self, angle: f64) -> DQuat {
        self.zero * DQuat::from_axis_angle(self.axis, angle)
    }

    /// Clamps `q`'s hinge angle (swing–twist split: the swing part is kept). Returns the new
    /// rotation and whether the limit was active. When disabled, returns `q` and `false`.
    pub fn clamp(&self, q: DQuat) -> (DQuat, bool) {
        if !self.enabled {
            return (q, false);
        }
        let angle = self.angle_of(q);
        let (c, hit) = self.clamp_angle(angle);
        if !hit {
            return (q, false);
        }
        // zero⁻¹ q = swing * twist(angle)  =>  swing * twist(c)
        let r = self.zero.conjugate() * q;
        let swing = r * DQuat::from_axis_angle(self.axis, -angle);
        (
            (self.zero * swing * DQuat::from_axis_angle(self.axis, c)).normalize(),
            true,
        )
    }

    /// Arc data for bone `bone` with this limit, from the pose's cached world transforms
    /// (refresh the pose first). See [`LimitArc`].
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index of `pose`.
    pub fn arc(&self, skeleton: &Skeleton, pose: &Pose, bone: usize, radius: f64) -> LimitArc {
        let frame = pose.parent_world_rotation(skeleton, bone) * self.zero;
        let axis = self.axis.normalize_or(DVec3::X);
        let mut reference = self.reference - axis * self.reference.dot(axis);
        reference = reference.normalize_or(axis.any_orthonormal_vector());
        let dir = |a: f64| frame * (DQuat::from_axis_angle(axis, a) * reference);
        let current = self.angle_of(pose.local(bone).rotation);
        LimitArc {
            centre_in_world: pose.world_position(bone),
            axis_in_world: frame * axis,
            start_dir_in_world: dir(self.min),
            sweep: self.max - self.min,
            current_angle: current - self.min,
            current_dir_in_world: dir(current),
            on_limit: self.enabled
                && (current <= self.min + ON_LIMIT_TOLERANCE
                    || current >= self.max - ON_LIMIT_TOLERANCE),
            radius,
        }
    }
}

/// What a UI draws for one limited rotation axis: an arc of `sweep` radians around
/// `axis_in_world` (right-hand rule) starting at `start_dir_in_world`, centred on the joint,
/// plus a line from the centre along `current_dir_in_world`.
///
/// Singular cases: `sweep` may be negative if `min > max` was configured; `current_angle` is
/// measured from the start of the arc and lies outside `[0, sweep]` when the joint is beyond a
/// limit (then `on_limit` is true if the limit is enabled). Directions are unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitArc {
    /// The joint's origin, world space.
    pub centre_in_world: DVec3,
    /// The rotation axis, world space.
    pub axis_in_world: DVec3,
    /// Direction at the lower bound (`min`), world space.
    pub start_dir_in_world: DVec3,
    /// Arc length in radians (`max - min`).
    pub sweep: f64,
    /// Current angle measured from the start direction (radians).
    pub current_angle: f64,
    /// Direction at the current angle, world space.
    pub current_dir_in_world: DVec3,
    /// The joint sits on (or beyond) an enabled limit.
    pub on_limit: bool,
    /// Drawing radius, as passed by the caller (world units).
    pub radius: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn assert_same_bits(x: f64, m: f64) {
        let (got, want) = (rem_exact(x, m), x % m);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "rem_exact({x:e}, {m:e}) = {got:e}, fmod gives {want:e}"
        );
    }

    fn same_bits(got: f64, want: f64) -> bool {
        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
    }

    #[test]
    fn zero_angle_shortcuts_match_libm_bit_for_bit() {
        let values = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e-300,
            0.5,
            -0.5,
            1.0,
            -1.0,
            3.0,
            -3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for &y in &values {
            assert!(same_bits(asin_exact(y), y.asin()), "asin({y:e})");
            let (s, c) = sin_cos_exact(y);
            let (ws, wc) = y.sin_cos();
            assert!(same_bits(s, ws) && same_bits(c, wc), "sin_cos({y:e})");
            for &x in &values {
                assert!(
                    same_bits(atan2_exact(y, x), y.atan2(x)),
                    "atan2({y:e}, {x:e})"
                );
            }
        }
    }

    #[test]
    fn rem_exact_matches_fmod_on_edges() {
        let tau = 2.0 * PI;
        let edges = [
            0.0,
            -0.0,
            tau,
            -tau,
            2.0 * tau,
            -2.0 * tau,
            tau.next_up(),
            tau.next_down(),
            (2.0 * tau).next_down(),
            (2.0 * tau).next_up(),
            -(2.0 * tau).next_down(),
            1e300,
            -1e-300,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for m in [tau, 1.0, 3.0, 1e-300, f64::MAX, f64::INFINITY] {
            for x in edges {
                assert_same_bits(x, m);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn rem_exact_matches_fmod_bit_for_bit(x in -40.0f64..40.0, k in 0usize..4) {
            let m = [2.0 * PI, 1.0, 0.3, 7.5][k];
            assert_same_bits(x, m);
            assert_same_bits(x * 1e-3, m);
            assert_same_bits(x * 1e9, m);
        }
    }

    #[test]
    fn euler_round_trip_matches_rotation_order() {
        let v = DVec3::new(0.3, -0.7, 1.1);
        let q = quat_from_euler_xyz(v);
        let expect =
            DQuat::from_rotation_x(v.x) * DQuat::from_rotation_y(v.y) * DQuat::from_rotation_z(v.z);
        assert!(q.dot(expect).abs() > 1.0 - 1e-14);
        assert!((euler_xyz_from_quat(q) - v).abs().max_element() < 1e-12);
    }

    #[test]
    fn wrap_keeps_values_near_centre() {
        let w = wrap_near(-3.0, 3.0);
        assert!((w - (2.0 * PI - 3.0)).abs() < 1e-12);
        let (c, hit) = clamp_euler_three(
            DVec3::new(-3.0, 0.0, 0.0),
            Some(DVec3::new(2.8, -1.0, -1.0)),
            Some(DVec3::new(3.5, 1.0, 1.0)),
        );
        assert!(!hit, "-3 wraps to 3.28, inside [2.8, 3.5]");
        assert!((c.x - (2.0 * PI - 3.0)).abs() < 1e-12);
    }

    #[test]
    fn hinge_clamp_keeps_swing_and_limits_twist() {
        let h = HingeLimit::new(DVec3::X, -0.5, 0.25);
        let swing = DQuat::from_rotation_y(0.2);
        let q = swing * DQuat::from_rotation_x(1.0);
        assert!((h.angle_of(q) - 1.0).abs() < 1e-12);
        let (c, hit) = h.clamp(q);
        assert!(hit);
        assert!((h.angle_of(c) - 0.25).abs() < 1e-12);
        let expect = swing * DQuat::from_rotation_x(0.25);
        assert!(c.dot(expect).abs() > 1.0 - 1e-14);
        let off = HingeLimit {
            enabled: false,
            ..h
        };
        assert_eq!(off.clamp(q), (q, false));
    }
}
