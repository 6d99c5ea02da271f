//! A conservative, trigonometry-free test that three.js r187's Euler clamp
//! ([`clamp_euler_three`]) would leave a rotation alone, so a CCD step can skip the Euler
//! decomposition (two `atan2`, one `asin`, three wraps) on the steps that stay inside a
//! link's range. Where the test answers `true`, the exact path would have answered "not
//! hit" and kept the quaternion; where it answers `false` the caller runs the exact path,
//! which still decides. So results are bit-identical with or without it.
//!
//! The idea: for each Euler component with centre `c = (min + max)/2` and half-width
//! `h = (max − min)/2`, three's wrapped angle `w` lies in `[c − π, c + π)`, and
//! `min ≤ w ≤ max ⇔ |w − c| ≤ h ⇔ cos(w − c) ≥ cos h`. `cos(w − c) = cos(v − c)` is read
//! straight from the rotation matrix entries three takes its `atan2`/`asin` of, with the
//! limit's `cos c`, `sin c` and `cos(h − margin)` computed once per limit.

use super::limits::{EulerEntries, clamp_euler_three, wrap_near};
use glam::{DQuat, DVec3};
use std::f64::consts::PI;

/// Distance (radians) the test keeps from each limit: far above the rounding of both three's
/// exact path (≤ ~1e-13 for centres up to [`MAX_CENTRE`]) and of the test itself (its cosine
/// is within ~1e-15 of the true one; see [`MIN_HALF_WIDTH`]).
const MARGIN: f64 = 1e-9;
/// Half-widths below this (and above `π −` this) get no arc test: near 0 and π the cosine is
/// flat, and `MARGIN · sin h` would no longer clear the test's own rounding.
const MIN_HALF_WIDTH: f64 = 1e-5;
/// Limits centred farther out than this get no test (the exact path's wrap of such angles
/// rounds at ~1e-14 · |c|).
const MAX_CENTRE: f64 = 100.0;

/// How one Euler component is tested.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    /// The range is wider than a turn: three's wrap always lands inside it.
    Always,
    /// Inside when `cos(v − c) > cos_limit` (`cos_limit = cos(h − MARGIN)`).
    Arc {
        cos_c: f64,
        sin_c: f64,
        cos_limit: f64,
    },
    /// No arc test (a range too narrow or too close to a full turn): only an angle that is
    /// exactly ±0 can be decided, by `zero_inside`.
    ZeroOnly,
}

/// The test for one link's `rotation_min` / `rotation_max` (both given). Build it once per
/// limit with [`EulerInsideTest::new`]; [`EulerInsideTest::inside`] costs about forty flops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EulerInsideTest {
    /// The limits' mid-range, `(min + max) / 2`: three's wrap centre.
    centre: DVec3,
    axes: [Axis; 3],
    /// Three's clamp keeps an exact ±0 on this component (decided with its own wrap).
    zero_inside: [bool; 3],
}

impl EulerInsideTest {
    /// The test for limits `min..max`, or `None` when it cannot help: a limit is missing (three
    /// then clamps without the wrap) or not finite, or a centre lies beyond ±100 rad.
    pub fn new(min: Option<DVec3>, max: Option<DVec3>) -> Option<Self> {
        let (lo, hi) = (min?, max?);
        if !(lo.is_finite() && hi.is_finite()) {
            return None;
        }
        let centre = (lo + hi) * 0.5;
        if centre.abs().max_element() > MAX_CENTRE {
            return None;
        }
        let axis = |i: usize| {
            let h = (hi[i] - lo[i]) * 0.5;
            if h >= PI + 1e-6 {
                Axis::Always
            } else if (MIN_HALF_WIDTH..=PI - MIN_HALF_WIDTH).contains(&h) {
                let (sin_c, cos_c) = centre[i].sin_cos();
                Axis::Arc {
                    cos_c,
                    sin_c,
                    cos_limit: (h - MARGIN).cos(),
                }
            } else {
                Axis::ZeroOnly
            }
        };
        // three wraps ±0 to the same value (−0 − c = +0 − c for c ≠ 0, and both give π − π for
        // c = 0), so one clamp of +0 decides both signs.
        let (zero, _) = clamp_euler_three(DVec3::ZERO, Some(lo), Some(hi));
        let zero_inside = std::array::from_fn(|i| zero[i] == wrap_near(0.0, centre[i]));
        Some(Self {
            centre,
            axes: [axis(0), axis(1), axis(2)],
            zero_inside,
        })
    }

    /// The limits' mid-range, around which three wraps the angles it keeps.
    pub fn centre(&self) -> DVec3 {
        self.centre
    }

    /// True only when [`clamp_euler_three`] of `euler_xyz_from_quat(q)` with this test's limits
    /// would clamp no component (so the rotation is kept as it is). `false` decides nothing:
    /// near a limit, at gimbal lock (`|m13| ≥ 0.9999999`, where three switches formulas),
    /// for undefined angles (`atan2(0, 0)`) and for non-finite `q`. `q` need not be unit:
    /// the test reads the same matrix entries as three's decomposition.
    #[inline(always)]
    pub fn inside(&self, q: DQuat) -> bool {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        // A rotation about ±X or ±Z (a hinge on those axes): two components are exactly ±0,
        // so are their Euler angles, and the third entry pair reduces to two products (the
        // same values as the general formulas below, zero signs aside, which the test ignores).
        if y == 0.0 && z == 0.0 {
            let x2 = x + x;
            return self.zero_inside[1]
                && self.zero_inside[2]
                && self.component(0, 1.0 - x * x2, w * x2, false);
        }
        if x == 0.0 && y == 0.0 {
            let z2 = z + z;
            return self.zero_inside[0]
                && self.zero_inside[1]
                && self.component(2, 1.0 - z * z2, w * z2, false);
        }
        // The entries euler_xyz_from_quat decomposes.
        let EulerEntries {
            m11,
            m12,
            m13,
            m23,
            m33,
            ..
        } = EulerEntries::of(q);
        // Not gimbal-locked: x = atan2(−m23, m33), y = asin(m13), z = atan2(−m12, m11).
        if m13.is_nan() || m13.abs() >= 0.9999999 {
            return false;
        }
        // y: sin y = m13, cos y = √(1 − m13²) > 0 (the root only when y is not exactly ±0).
        let y_inside = if m13 == 0.0 {
            self.zero_inside[1]
        } else {
            self.component(1, (1.0 - m13 * m13).sqrt(), m13, true)
        };
        y_inside && self.component(0, m33, -m23, false) && self.component(2, m11, -m12, false)
    }

    /// Whether component `i`, the angle of the vector `(c, s)` (its `atan2(s, c)`; for the
    /// asin component `unit` says `(c, s)` is unit), is clearly inside its range.
    #[inline(always)]
    fn component(&self, i: usize, c: f64, s: f64, unit: bool) -> bool {
        if s == 0.0 && c > 0.0 {
            // atan2(±0, c > 0) and asin(±0) are exactly ±0.
            return self.zero_inside[i];
        }
        match self.axes[i] {
            Axis::Always => true,
            Axis::ZeroOnly => false,
            Axis::Arc {
                cos_c,
                sin_c,
                cos_limit,
            } => {
                // cos(v − c)·r with r = |(c, s)|; inside when it exceeds cos_limit·r.
                let p = c * cos_c + s * sin_c;
                let r_sq = if unit { 1.0 } else { c * c + s * s };
                if r_sq.is_nan() || r_sq <= 0.0 {
                    return false; // atan2(0, 0): three's angle depends on signs of zeros
                }
                if cos_limit >= 0.0 {
                    p > 0.0 && p * p > cos_limit * cos_limit * r_sq
                } else {
                    p >= 0.0 || p * p < cos_limit * cos_limit * r_sq
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::limits::euler_xyz_from_quat;
    use proptest::prelude::*;

    /// The exact path: does three's clamp move any component of `q`'s Euler angles?
    fn clamps(q: DQuat, lo: DVec3, hi: DVec3) -> bool {
        clamp_euler_three(euler_xyz_from_quat(q), Some(lo), Some(hi)).1
    }

    #[test]
    fn a_hinge_about_x_inside_its_bend_range_needs_no_decomposition() {
        // The CCD arm's default forearm: hinge about +X, x in 2°..150°, y = z = 0.
        let (lo, hi) = (
            DVec3::new(2f64.to_radians(), 0.0, 0.0),
            DVec3::new(150f64.to_radians(), 0.0, 0.0),
        );
        let test = EulerInsideTest::new(Some(lo), Some(hi)).unwrap();
        for deg in [3.0, 45.0, 90.0, 149.0] {
            let (s, c) = (f64::to_radians(deg) / 2.0).sin_cos();
            for q in [
                DQuat::from_xyzw(s, 0.0, 0.0, c),
                DQuat::from_xyzw(s, -0.0, -0.0, c),
            ] {
                assert!(test.inside(q), "{deg}°");
                assert!(!clamps(q, lo, hi));
            }
        }
        for deg in [1.0, 151.0, -20.0, 200.0] {
            let (s, c) = (f64::to_radians(deg) / 2.0).sin_cos();
            let q = DQuat::from_xyzw(s, 0.0, 0.0, c);
            assert!(!test.inside(q), "{deg}°");
        }
        // A hinge about another axis has non-zero y or z: the narrow [0, 0] ranges say no.
        assert!(!test.inside(DQuat::from_rotation_y(0.5)));
        // One limit missing or not finite: no test.
        assert!(EulerInsideTest::new(Some(lo), None).is_none());
        assert!(EulerInsideTest::new(Some(lo * f64::NAN), Some(hi)).is_none());
    }

    #[test]
    fn no_answer_at_gimbal_lock_or_for_nan() {
        let test = EulerInsideTest::new(Some(DVec3::splat(-3.0)), Some(DVec3::splat(3.0)));
        let test = test.unwrap();
        assert!(!test.inside(DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2)));
        assert!(!test.inside(DQuat::from_xyzw(f64::NAN, 0.0, 0.0, 1.0)));
        assert!(test.inside(DQuat::from_rotation_y(0.3)));
    }

    /// Ranges in degrees around a random centre, some wider than a turn, some narrow, some
    /// crossing ±180°.
    fn range() -> impl Strategy<Value = (f64, f64)> {
        (
            -400.0f64..400.0,
            prop_oneof![0.0f64..0.01, 0.0..360.0, 355.0..370.0],
        )
            .prop_map(|(c, w)| ((c - w / 2.0).to_radians(), (c + w / 2.0).to_radians()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// Whenever the test says inside, three's exact clamp moves nothing; and it says inside
        /// for most rotations clearly inside a sizeable range.
        #[test]
        fn inside_implies_three_keeps_the_rotation(
            r in [range(), range(), range()],
            v in [-4.0f64..4.0, -1.6f64..1.6, -4.0f64..4.0],
            scale in prop_oneof![Just(1.0f64), 0.5f64..2.0],
            hinge in 0usize..4,
        ) {
            let lo = DVec3::new(r[0].0, r[1].0, r[2].0);
            let hi = DVec3::new(r[0].1, r[1].1, r[2].1);
            let q = match hinge {
                0 => DQuat::from_rotation_x(v[0]),
                1 => DQuat::from_rotation_z(v[2]),
                _ => crate::ik::limits::quat_from_euler_xyz(DVec3::from(v)),
            } * scale;
            if let Some(test) = EulerInsideTest::new(Some(lo), Some(hi))
                && test.inside(q)
            {
                prop_assert!(!clamps(q, lo, hi), "q {q:?} lo {lo} hi {hi}");
            }
        }
    }

    #[test]
    fn the_test_answers_for_most_rotations_well_inside() {
        let (lo, hi) = (DVec3::new(-1.0, -1.2, -2.5), DVec3::new(1.5, 1.2, 2.0));
        let test = EulerInsideTest::new(Some(lo), Some(hi)).unwrap();
        let (mut inside, mut decided) = (0, 0);
        for i in 0..1000 {
            let f = i as f64 / 1000.0;
            let v = lo + (hi - lo) * DVec3::new(f, (f * 7.3).fract(), (f * 13.1).fract());
            let q = crate::ik::limits::quat_from_euler_xyz(v);
            let margin = (v - lo).min_element().min((hi - v).min_element());
            if margin > 1e-6 {
                inside += 1;
                decided += usize::from(test.inside(q));
            }
        }
        assert!(inside > 900 && decided == inside, "{decided} of {inside}");
    }
}
