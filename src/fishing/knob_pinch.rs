//! The reel knob's pinch (issue 33): the knob is held between the thumb's pad and the side
//! of the index finger, the way anglers crank a spinning reel. The supporting finger keeps
//! its calibrated curl; the knob's axis is placed against the side of that finger's middle
//! segment, on the pinching finger's side, and the pinching finger then closes on it (the
//! contact solve, [`crate::ik::grip_contact`]). Hand space, hand units; no mesh is searched.

use super::crank_clear::past_plane;
use super::hand_shape::ContactFinger;
use crate::ik::grip_contact::{Capsule, Cylinder, FingerContactJob};
use glam::DVec3;

/// Where a segment piece of a finger is: joint `joint`, capsule `piece` of its middle row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceAt {
    /// The joint whose segment it is (0: the finger's first).
    pub joint: usize,
    /// Which third of the segment, base → tip.
    pub piece: usize,
}

impl PieceAt {
    /// The middle third of the middle segment: where a knob rests in a lateral pinch.
    pub const MIDDLE: Self = Self { joint: 1, piece: 1 };
}

/// Where the knob's middle is (hand space) so that a knob of `(radius, half_length)` with
/// its axis along `axis` (unit length) rests against the side of `support`'s segment piece
/// `at` (bent by `angles` after its `spread`) on the side toward `pincher_base`, and no
/// segment of `support` is inside it.
///
/// The knob's axis crosses the piece's common perpendicular one knob and finger radius from
/// the piece's axis. A piece along `axis` (no common perpendicular) takes the direction to
/// `pincher_base` across `axis` instead. A finger with fewer joints uses its last; a piece the
/// fit left out, the segment's first. `None` when `support` has no joints, or when
/// `pincher_base` lies on the piece's line through `axis` (no side to choose).
pub fn knob_against_support(
    support: &ContactFinger,
    angles: &[f64],
    spread: f64,
    at: PieceAt,
    pincher_base: DVec3,
    axis: DVec3,
    (radius, half_length): (f64, f64),
) -> Option<DVec3> {
    let n = support.joints.len();
    let k = n.checked_sub(1)?.min(at.joint);
    let job = |point: DVec3| FingerContactJob {
        also: &[],
        joints: &support.joints,
        cylinder: Cylinder::knob(point, axis, radius, half_length),
        spread,
        spread_axis: support.spread_axis,
        gap_scale: support.radius,
    };
    let frame = job(DVec3::ZERO).frames(angles)[k];
    let pieces = &support.joints[k].capsules;
    let c: &Capsule = pieces
        .get(at.piece.min(2))
        .filter(|c| c.radius >= 0.0)
        .or_else(|| pieces[..3].iter().find(|c| c.radius >= 0.0))?;
    let (a, b) = (
        frame.transform_point3(c.start),
        frame.transform_point3(c.end),
    );
    let finger_radius = c.radius * frame.matrix3.x_axis.length();
    let middle = 0.5 * (a + b);
    let toward = pincher_base - middle;
    let across = |v: DVec3| v - axis * v.dot(axis);
    let mut side = axis.cross(b - a);
    if side.length_squared() <= 1e-12 * (b - a).length_squared().max(1e-30) {
        side = across(toward);
    }
    let side = side.try_normalize()?;
    let side = if side.dot(toward) < 0.0 { -side } else { side };
    let mut point = middle + side * (finger_radius + radius);
    // Another segment of the finger (the tip curled round) may reach farther toward the
    // pinch: move the knob out until the whole finger is outside it.
    for _ in 0..4 {
        let (gap, _) = job(point).gap_at(angles);
        if gap >= 0.0 {
            break;
        }
        point += side * (-gap);
    }
    Some(point)
}

/// A knob's pinch: where the knob's middle is (hand space) and the supporting finger's bends.
#[derive(Clone, Debug, PartialEq)]
pub struct Pinch {
    /// The knob's middle, hand space.
    pub knob: DVec3,
    /// The supporting finger's bends, base → tip.
    pub support_angles: Vec<f64>,
}

/// The fingers of a pinch and the knob (hand space, hand units).
#[derive(Clone, Copy, Debug)]
pub struct PinchJob<'a> {
    /// The finger that closes on the knob (the thumb) and its spread.
    pub pincher: (&'a ContactFinger, f64),
    /// The finger the knob rests against (the index) and its spread.
    pub support: (&'a ContactFinger, f64),
    /// The supporting finger's bends at its full curl (a share `s` bends it `s` times as
    /// far), and the curl offset added to each joint.
    pub support_curl: (&'a [f64], f64),
    /// The calibrated curl share of the supporting finger: tried first.
    pub calibrated: f64,
    /// The knob's axis (unit length).
    pub axis: DVec3,
    /// The knob's `(radius, half_length)`.
    pub knob: (f64, f64),
    /// Where the crank's arm's face is along `axis` from the knob's middle (toward its
    /// base; see [`super::gear::CrankArm::face`], hand units): the supporting finger keeps
    /// off it. `None`: no arm.
    pub arm_face: Option<f64>,
}

/// The supporting finger's curl shares tried after the calibrated one: a lateral pinch
/// rests the knob on a finger hooked from half to fully closed.
const SUPPORT_SHARES: [f64; 5] = [0.5, 0.625, 0.75, 0.875, 1.0];
/// Where along the supporting finger the knob may rest, in the order preferred: the middle
/// segment's middle, its ends, then the end segment's base and middle.
const PIECES: [PieceAt; 5] = [
    PieceAt::MIDDLE,
    PieceAt { joint: 1, piece: 2 },
    PieceAt { joint: 1, piece: 0 },
    PieceAt { joint: 2, piece: 0 },
    PieceAt { joint: 2, piece: 1 },
];
/// Places whose pinching finger's gaps differ by less than this (as a share of its radius)
/// are equal: the one earlier in the preferred order wins.
const PINCH_RESOLUTION: f64 = 0.05;

impl PinchJob<'_> {
    /// The pinch whose pinching finger, closing from straight, ends nearest the knob's
    /// surface without entering it: over the supporting finger's curl (the calibrated share
    /// first, then `SUPPORT_SHARES`) and the place along it (`PIECES`). Deterministic.
    /// `None` when no place could be found (see [`knob_against_support`]).
    ///
    /// With an arm (`arm_face`), a supporting finger that reaches past the arm's face slides
    /// along the knob toward its outer end until it is clear, at most until the knob's end is
    /// level with the supporting piece's middle; places where it is still past the face come
    /// after every place clear of it.
    pub fn solve(&self) -> Option<Pinch> {
        let (pincher, pincher_spread) = self.pincher;
        let (support, support_spread) = self.support;
        let step = PINCH_RESOLUTION * pincher.radius.max(1e-12);
        let mut best: Option<((i64, i64), Pinch)> = None;
        let shares = std::iter::once(self.calibrated).chain(SUPPORT_SHARES);
        for share in shares {
            let (full, offset) = self.support_curl;
            let angles: Vec<f64> = full.iter().map(|a| a * share + offset).collect();
            for at in PIECES {
                let Some(at_support) = knob_against_support(
                    support,
                    &angles,
                    support_spread,
                    at,
                    pincher.base_in_hand,
                    self.axis,
                    self.knob,
                ) else {
                    continue;
                };
                // Off the arm: the knob (and its arm) slides away from the finger along its
                // axis, by no more than half its length (the knob's middle was level with the
                // piece's).
                let (slide, past_face) = match self.arm_face {
                    Some(face) => {
                        let plane = (at_support + self.axis * face, self.axis);
                        let past = past_plane(support, &angles, support_spread, plane);
                        let slide = past.clamp(0.0, self.knob.1);
                        (slide, (past - slide).max(0.0))
                    }
                    None => (0.0, 0.0),
                };
                let knob = at_support + self.axis * slide;
                let job = FingerContactJob {
                    also: &[],
                    joints: &pincher.joints,
                    cylinder: Cylinder::knob(knob, self.axis, self.knob.0, self.knob.1),
                    spread: pincher_spread,
                    spread_axis: pincher.spread_axis,
                    gap_scale: pincher.radius,
                };
                let Ok(report) = job.solve() else { continue };
                // A gap counts as it is; inside counts double (it is the worse fault).
                let fault = if report.gap < 0.0 {
                    -2.0 * report.gap
                } else {
                    report.gap
                };
                let steps = |d: f64| (d / step).round() as i64;
                let cost = (steps(past_face), steps(fault));
                if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                    best = Some((
                        cost,
                        Pinch {
                            knob,
                            support_angles: angles.clone(),
                        },
                    ));
                }
                if cost == (0, 0) {
                    return best.map(|b| b.1);
                }
            }
        }
        best.map(|b| b.1)
    }
}

/// How far along the knob's axis (grip frame: the axis along +Z through the origin, from the
/// palm) a knob of `radius` and `half_length` must sit so that its end rests on the palm
/// (`palm_in_grip`, grip frame) and no palm point is inside it: the palm points over the
/// knob's end face decide. `None` when none lies over it.
pub fn knob_end_on_palm(palm_in_grip: &[DVec3], radius: f64, half_length: f64) -> Option<f64> {
    let r2 = radius * radius;
    palm_in_grip
        .iter()
        .filter(|p| p.x * p.x + p.y * p.y < r2)
        .map(|p| p.z + half_length)
        .reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::grip_contact::SEGMENT_PIECES;
    use glam::DAffine3;

    /// The test finger of `hand_shape` at the hand's origin.
    fn finger() -> ContactFinger {
        crate::fishing::hand_shape::straight_test_finger(DVec3::ZERO)
    }

    #[test]
    fn the_knob_touches_the_middle_segment_on_the_pinchers_side() {
        let f = finger();
        // Straight finger, knob axis along Z (across the finger), thumb on the −Y side.
        let p = knob_against_support(
            &f,
            &[0.0; 3],
            0.0,
            PieceAt::MIDDLE,
            DVec3::new(0.0, -0.05, 0.0),
            DVec3::Z,
            (0.0065, 0.009),
        )
        .unwrap();
        // Beside the middle segment's middle third (x 48.3..56.7 mm), one radius each away.
        assert!((p.x - 0.0525).abs() < 1e-9, "{p}");
        assert!((p.y + 0.0145).abs() < 1e-9, "{p}");
        assert!(p.z.abs() < 1e-9, "{p}");
        assert!(knob_on(&f, p).gap_at(&[0.0; 3]).0.abs() < 1e-9);
        // The pincher on the other side moves the knob there.
        let q = knob_against_support(
            &f,
            &[0.0; 3],
            0.0,
            PieceAt::MIDDLE,
            DVec3::new(0.0, 0.05, 0.0),
            DVec3::Z,
            (0.0065, 0.009),
        )
        .unwrap();
        assert!((q.y - 0.0145).abs() < 1e-9, "{q}");
    }

    #[test]
    fn a_curled_finger_never_ends_inside_the_knob() {
        let f = finger();
        for curl in [0.3, 0.8, 1.2, 1.6] {
            let angles = [curl, curl, curl];
            let p = knob_against_support(
                &f,
                &angles,
                0.0,
                PieceAt::MIDDLE,
                DVec3::new(0.02, -0.06, 0.0),
                DVec3::Z,
                (0.0065, 0.009),
            )
            .unwrap();
            let (gap, _) = knob_on(&f, p).gap_at(&angles);
            assert!((-1e-9..1e-3).contains(&gap), "curl {curl}: gap {gap}");
        }
    }

    /// A thumb beside `finger()`'s, its base at `base`, along +X, closing toward +Y (about +Z),
    /// its segments `length` times the finger's.
    fn thumb(base: DVec3, length: f64) -> ContactFinger {
        let mut t = finger();
        for (k, j) in t.joints.iter_mut().enumerate() {
            j.axis = DVec3::Z;
            if k == 0 {
                j.prev_from_joint = DAffine3::from_translation(base);
            }
            for c in j.capsules.iter_mut().take(SEGMENT_PIECES) {
                c.start *= length;
                c.end *= length;
            }
        }
        for k in 1..t.joints.len() {
            let d = t.joints[k].prev_from_joint.translation;
            t.joints[k].prev_from_joint = DAffine3::from_translation(d * length);
        }
        t.base_in_hand = base;
        t
    }

    /// `finger` closing on the test knob (radius 6.5 mm, 18 mm long, along Z) at `knob`.
    fn knob_on(finger: &ContactFinger, knob: DVec3) -> FingerContactJob<'_> {
        FingerContactJob {
            also: &[],
            joints: &finger.joints,
            cylinder: Cylinder::knob(knob, DVec3::Z, 0.0065, 0.009),
            spread: 0.0,
            spread_axis: finger.spread_axis,
            gap_scale: finger.radius,
        }
    }

    fn touches(thumb: &ContactFinger, knob: DVec3) -> bool {
        knob_on(thumb, knob).solve().unwrap().state
            == crate::ik::grip_contact::ContactState::Touching
    }

    /// `pincher` closing on the test knob (along Z) resting on `support`, which closes by
    /// `full` at its full curl (calibrated straight); `arm_face` as [`PinchJob::arm_face`].
    fn pinch_job<'a>(
        pincher: &'a ContactFinger,
        support: &'a ContactFinger,
        full: &'a [f64],
        arm_face: Option<f64>,
    ) -> PinchJob<'a> {
        PinchJob {
            pincher: (pincher, 0.0),
            support: (support, 0.0),
            support_curl: (full, 0.0),
            calibrated: 0.0,
            axis: DVec3::Z,
            knob: (0.0065, 0.009),
            arm_face,
        }
    }

    #[test]
    fn the_thumb_closes_on_the_knob_resting_on_the_index() {
        let index = finger();
        let long = thumb(DVec3::new(0.02, -0.04, 0.0), 1.0);
        let full = [1.0, 1.0, 1.0];
        let job = pinch_job(&long, &index, &full, None);
        let pinch = job.solve().unwrap();
        // The thumb reaches it at the calibrated (straight) index's middle: that place is kept.
        assert_eq!(pinch.support_angles, vec![0.0; 3]);
        let expected = knob_against_support(
            &index,
            &[0.0; 3],
            0.0,
            PieceAt::MIDDLE,
            long.base_in_hand,
            DVec3::Z,
            (0.0065, 0.009),
        )
        .unwrap();
        assert!(pinch.knob.distance(expected) < 1e-12);
        assert!(touches(&long, pinch.knob));
        // A short thumb whose base is beside the index's end segment cannot reach back to the
        // middle one: the knob goes where it can close on it.
        let mut short = thumb(DVec3::new(0.07, -0.04, 0.0), 0.45);
        for j in &mut short.joints {
            j.close_limit = 0.6;
        }
        assert!(!touches(&short, expected));
        let pinch = PinchJob {
            pincher: (&short, 0.0),
            ..job
        }
        .solve()
        .unwrap();
        assert!(pinch.knob.x > 0.065, "{pinch:?}");
        assert!(touches(&short, pinch.knob), "{pinch:?}");
    }

    #[test]
    fn the_supporting_finger_keeps_off_the_cranks_arm() {
        let index = finger();
        let long = thumb(DVec3::new(0.02, -0.04, 0.0), 1.0);
        let full = [1.0, 1.0, 1.0];
        let job = |arm_face| pinch_job(&long, &index, &full, arm_face);
        let free = job(None).solve().unwrap();
        // The arm's face 2 mm from the knob's middle toward its base (+Z): the index, as
        // thick as 2 mm and more, lay across it; the knob slides toward +Z until it is off.
        let face = 0.002;
        let past = |p: &Pinch| {
            past_plane(
                &index,
                &p.support_angles,
                0.0,
                (p.knob + DVec3::Z * face, DVec3::Z),
            )
        };
        assert!(past(&free) > 0.001, "{}", past(&free));
        let pinch = job(Some(face)).solve().unwrap();
        assert!(past(&pinch).abs() < 1e-9, "{}", past(&pinch));
        assert!(pinch.knob.z > free.knob.z + 0.001, "{pinch:?}");
        assert!(pinch.knob.z <= 0.009 + 1e-12, "{pinch:?}");
        // Moved along its own axis, the knob still rests on the index and the thumb on it.
        assert!((pinch.knob.truncate() - free.knob.truncate()).length() < 1e-12);
        assert!(touches(&long, pinch.knob));
        // A face beyond the finger: nothing moves.
        assert_eq!(job(Some(0.03)).solve().unwrap(), free);
    }

    #[test]
    fn a_knobs_end_rests_on_the_palm_over_it() {
        let palm = [
            DVec3::new(0.0, 0.0, -0.02),
            DVec3::new(0.003, 0.002, -0.015),
            // Beside the knob: never inside it, whatever its place along the axis.
            DVec3::new(0.02, 0.0, 0.01),
        ];
        let l = knob_end_on_palm(&palm, 0.0065, 0.009).unwrap();
        assert!((l - (-0.015 + 0.009)).abs() < 1e-12, "{l}");
        assert_eq!(knob_end_on_palm(&palm[2..], 0.0065, 0.009), None);
    }

    #[test]
    fn a_finger_without_joints_gives_no_place() {
        let mut f = finger();
        f.joints.clear();
        assert!(
            knob_against_support(
                &f,
                &[],
                0.0,
                PieceAt::MIDDLE,
                DVec3::Y,
                DVec3::Z,
                (0.0065, 0.009)
            )
            .is_none()
        );
    }
}
