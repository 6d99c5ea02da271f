//! The knob hand keeps clear of the reel's crank (issue 33): the free fingers of the hand that
//! cranks stay on the hand's side of the crank's arm and out of the ring a bar's second knob
//! sweeps as the crank turns; the knob's supporting finger stays off the arm's face. The hand
//! turns with the knob, not with the arm, so all of it is fixed in the knob's grip frame and
//! one cached grip holds at every crank angle (see [`CrankArm`]). Hand space, hand units; no
//! mesh is searched.

use super::gear::CrankArm;
use super::hand_shape::ContactFinger;
use crate::ik::grip_contact::{Cylinder, FingerContactJob};
use glam::DVec3;

/// A bar's second knob as it sweeps round the held knob's axis, hand space, hand units: the
/// solid of revolution of the knob's section, `radius` from the axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnobRing {
    /// The held knob's middle.
    pub centre: DVec3,
    /// The held knob's axis (unit length).
    pub axis: DVec3,
    /// The second knob's axis's distance from the held knob's.
    pub radius: f64,
    /// The second knob's radius and half length (its middle as far along the axis as the
    /// held knob's).
    pub knob: (f64, f64),
}

/// A crank's arm in hand space, hand units (see [`CrankArm`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmInHand {
    /// A point of the arm's face and the face's normal (unit length), toward the arm.
    pub face: (DVec3, DVec3),
    /// A second knob's ring, on a bar.
    pub ring: Option<KnobRing>,
}

impl ArmInHand {
    /// `arm` (metres, the knob's grip frame) about a knob whose middle is `knob` and whose
    /// axis, toward its base, is `axis` (unit length), both hand space; `scale` metres per
    /// hand unit (positive).
    pub fn new(arm: &CrankArm, knob: DVec3, axis: DVec3, scale: f64) -> Self {
        Self {
            face: (knob + axis * (arm.face / scale), axis),
            ring: arm.opposite.map(|(at, radius, half)| KnobRing {
                centre: knob,
                axis,
                radius: at / scale,
                knob: (radius / scale, half / scale),
            }),
        }
    }

    /// How deep a ball at `p` of radius `r` is in the arm: past the face's plane or inside
    /// the ring, the deeper (≤ 0: clear, by as much).
    pub fn depth(&self, p: DVec3, r: f64) -> f64 {
        let (point, normal) = self.face;
        let past = (p - point).dot(normal) + r;
        let ring = self.ring.map_or(f64::NEG_INFINITY, |g| {
            let q = p - g.centre;
            let z = q.dot(g.axis);
            let rho = (q - g.axis * z).length();
            let (dx, dz) = ((rho - g.radius).abs() - g.knob.0, z.abs() - g.knob.1);
            let outside = dx.max(0.0).hypot(dz.max(0.0)) + dx.max(dz).min(0.0);
            r - outside
        });
        past.max(ring)
    }
}

/// Balls along `finger`'s capsules (each capsule's ends and middle, with its radius), bent by
/// `angles` after its `spread`, hand space.
fn balls<'a>(
    finger: &'a ContactFinger,
    angles: &[f64],
    spread: f64,
) -> impl Iterator<Item = (DVec3, f64)> + 'a {
    let job = FingerContactJob {
        also: &[],
        joints: &finger.joints,
        cylinder: Cylinder {
            point: DVec3::ZERO,
            axis: DVec3::Z,
            radius: 0.0,
            half_length: 0.0,
            flat_ends: false,
        },
        spread,
        spread_axis: finger.spread_axis,
        gap_scale: finger.radius,
    };
    job.frames(angles)
        .into_iter()
        .zip(&finger.joints)
        .flat_map(|(frame, joint)| {
            let scale = frame.matrix3.x_axis.length();
            joint
                .capsules
                .iter()
                .filter(|c| c.radius >= 0.0)
                .flat_map(move |c| {
                    let (a, b) = (
                        frame.transform_point3(c.start),
                        frame.transform_point3(c.end),
                    );
                    [a, 0.5 * (a + b), b].map(|p| (p, c.radius * scale))
                })
        })
}

/// How far `finger`, bent by `angles` after its `spread`, reaches past the plane through
/// `plane_point` whose normal is `normal` (unit length; hand space, hand units): the largest
/// signed distance of its capsules' surfaces from the plane (≤ 0: wholly on the near side).
/// `f64::NEG_INFINITY` for a finger without capsules.
pub fn past_plane(
    finger: &ContactFinger,
    angles: &[f64],
    spread: f64,
    (plane_point, normal): (DVec3, DVec3),
) -> f64 {
    balls(finger, angles, spread)
        .map(|(p, r)| (p - plane_point).dot(normal) + r)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// How deep `finger`, bent by `angles` after its `spread`, reaches into `arm` (see
/// [`ArmInHand::depth`]; the deepest of its capsules, sampled at their ends and middles;
/// ≤ 0: clear). `f64::NEG_INFINITY` for a finger without capsules.
pub fn past_arm(finger: &ContactFinger, angles: &[f64], spread: f64, arm: &ArmInHand) -> f64 {
    balls(finger, angles, spread)
        .map(|(p, r)| arm.depth(p, r))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Steps between a free finger's calibrated curl and its limits (either way) that
/// [`clear_of_arm`] tries.
const CLEAR_STEPS: u32 = 16;

/// The bends of a finger that touches nothing (calibrated: `calibrated`) kept clear of a
/// crank's arm (see [`past_arm`]): the knob hand's free fingers. The calibrated curl when it
/// is clear; else the first clear curl going from it toward the finger's limits, closing and
/// opening in turn, in `CLEAR_STEPS` steps each way (closing first: a fist stays compact);
/// else the one that reaches least deep. Deterministic.
pub fn clear_of_arm(
    finger: &ContactFinger,
    calibrated: &[f64],
    spread: f64,
    arm: &ArmInHand,
) -> Vec<f64> {
    let past = |a: &[f64]| past_arm(finger, a, spread, arm);
    let first = past(calibrated);
    if first <= 0.0 {
        return calibrated.to_vec();
    }
    let mut best = (first, calibrated.to_vec());
    for step in 1..=CLEAR_STEPS {
        let t = f64::from(step) / f64::from(CLEAR_STEPS);
        for closing in [true, false] {
            let angles: Vec<f64> = calibrated
                .iter()
                .zip(&finger.joints)
                .map(|(a, j)| {
                    let limit = if closing {
                        j.close_limit
                    } else {
                        j.open_limit.max(0.0)
                    };
                    a + (limit - a) * t
                })
                .collect();
            let d = past(&angles);
            if d <= 0.0 {
                return angles;
            }
            if d < best.0 {
                best = (d, angles);
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test finger of `hand_shape` at the hand's origin.
    fn finger() -> ContactFinger {
        crate::fishing::hand_shape::straight_test_finger(DVec3::ZERO)
    }

    /// Only a face: the plane through `x` across X, the arm beyond it.
    fn plane(x: f64) -> ArmInHand {
        ArmInHand {
            face: (DVec3::new(x, 0.0, 0.0), DVec3::X),
            ring: None,
        }
    }

    #[test]
    fn a_free_finger_closes_or_opens_until_it_is_clear_of_the_plane() {
        let f = finger();
        // Straight along +X: the tip's end is past a plane short of it, not past one beyond.
        let straight = [0.0; 3];
        let reach = past_arm(&f, &straight, 0.0, &plane(0.0));
        assert!(reach > 0.05, "{reach}");
        assert_eq!(reach, past_plane(&f, &straight, 0.0, plane(0.0).face));
        assert_eq!(
            clear_of_arm(&f, &straight, 0.0, &plane(reach + 1e-6)),
            straight
        );
        // Short of the tip: the finger curls until it is clear, and no further than needed.
        let near = plane(0.6 * reach);
        let curled = clear_of_arm(&f, &straight, 0.0, &near);
        assert!(past_arm(&f, &curled, 0.0, &near) <= 0.0, "{curled:?}");
        assert!(curled.iter().all(|a| *a > 0.0), "{curled:?}");
        let step = 1.0 / f64::from(CLEAR_STEPS);
        let less: Vec<f64> = (curled.iter().zip(&f.joints))
            .map(|(a, j)| a - j.close_limit * step)
            .collect();
        assert!(past_arm(&f, &less, 0.0, &near) > 0.0, "{less:?}");
        // A plane through the knuckle: nothing clears; the least reach is taken.
        let at_base = plane(0.0);
        let least = clear_of_arm(&f, &straight, 0.0, &at_base);
        assert!(past_arm(&f, &least, 0.0, &at_base) < reach);
    }

    #[test]
    fn a_ball_is_in_a_second_knobs_ring_wherever_the_crank_turns_it() {
        // The held knob along Z at the origin, its base toward +Z; the bar's face 5 mm along;
        // the second knob 70 mm round, 7.5 mm thick, 16 mm long.
        let arm = CrankArm {
            face: 0.005,
            opposite: Some((0.07, 0.0075, 0.008)),
        };
        let a = ArmInHand::new(&arm, DVec3::ZERO, DVec3::Z, 1.0);
        assert_eq!(a.face, (DVec3::new(0.0, 0.0, 0.005), DVec3::Z));
        for turn in [0.0, 1.0, 2.5, 4.0] {
            let out = DVec3::new(f64::cos(turn), f64::sin(turn), 0.0);
            // A ball of 5 mm at the ring's middle: 12.5 mm deep; 3 mm beyond its outside:
            // 2 mm; 1 mm short of its end: 6 mm (the face is farther).
            let d = a.depth(out * 0.07, 0.005);
            assert!((d - 0.0125).abs() < 1e-12, "{turn}: {d}");
            let d = a.depth(out * (0.0775 + 0.003), 0.005);
            assert!((d - 0.002).abs() < 1e-12, "{turn}: {d}");
            let d = a.depth(out * 0.07 - DVec3::Z * 0.009, 0.005);
            assert!((d - 0.004).abs() < 1e-12, "{turn}: {d}");
            // Clear of the ring, a ball toward the hand from the face is clear by its gap.
            let d = a.depth(out * 0.03 - DVec3::Z * 0.01, 0.004);
            assert!((d + 0.011).abs() < 1e-12, "{turn}: {d}");
        }
        // Without the second knob only the face counts.
        let one = ArmInHand::new(
            &CrankArm {
                opposite: None,
                ..arm
            },
            DVec3::ZERO,
            DVec3::Z,
            1.0,
        );
        assert!((one.depth(DVec3::X * 0.07, 0.005) - 0.0).abs() < 1e-12);
        // In hand units: a hand twice a metre's scale halves every length.
        let half = ArmInHand::new(&arm, DVec3::ZERO, DVec3::Z, 2.0);
        assert!((half.depth(DVec3::X * 0.035, 0.0025) - 0.00625).abs() < 1e-12);
    }

    #[test]
    fn a_free_finger_curls_out_of_a_second_knobs_ring() {
        let f = finger();
        let straight = [0.0; 3];
        let reach = past_arm(&f, &straight, 0.0, &plane(0.0));
        // The ring round an axis along Y through the origin: the straight finger (along +X)
        // lies through it near its tip; the face far away.
        let arm = ArmInHand {
            face: (DVec3::Y, DVec3::Y),
            ring: Some(KnobRing {
                centre: DVec3::ZERO,
                axis: DVec3::Y,
                radius: 0.8 * reach,
                knob: (0.006, 0.008),
            }),
        };
        assert!(past_arm(&f, &straight, 0.0, &arm) > 0.0);
        let curled = clear_of_arm(&f, &straight, 0.0, &arm);
        assert!(past_arm(&f, &curled, 0.0, &arm) <= 0.0, "{curled:?}");
    }
}
