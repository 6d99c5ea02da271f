//! Two fingers either side of a spinning reel's stem (issue 33): a finger that straddles the
//! stem spreads away from it, about its knuckle's spread axis, until its capsules clear the
//! stem's, then closes on the handle as any finger does ([`FingerContactJob`]). The smallest
//! such spread wins (a scan outward from the calibrated spread, then a bisection), within
//! [`MAX_STRADDLE_SPREAD`]. Hand space, hand units; pure.

use super::hand_shape::ContactFinger;
use crate::ik::grip_contact::{
    Capsule, Cylinder, FingerContactJob, FingerContactReport, segment_distance,
};
use glam::DVec3;

/// How far past its calibrated spread a finger may turn away from the stem, radians (about
/// the reach of a finger's sideways turn at its knuckle).
pub const MAX_STRADDLE_SPREAD: f64 = 0.6;
/// The clearance a straddling finger keeps from the stem, as a share of the finger's radius:
/// a finger's skin is not its capsules (the web between two fingers, the corners of a boxy
/// finger stand out of them).
pub const STEM_MARGIN: f64 = 0.2;
/// Steps of the outward scan before the bisection.
const SCAN_STEPS: usize = 12;
/// Bisection steps: 0.05 rad / 2⁶ < 1e-3 rad.
const BISECT_STEPS: usize = 6;

/// One finger beside the stem.
///
/// Preconditions: what [`FingerContactJob::validate`] asks of the finger and the handle;
/// `away` of unit length (the direction along the handle, hand space, the finger moves to
/// clear the stem: from the stem toward the finger's own side); the stem's capsule finite
/// with a radius ≥ 0.
#[derive(Clone, Copy, Debug)]
pub struct StraddleJob<'a> {
    /// The finger.
    pub finger: &'a ContactFinger,
    /// The handle the finger closes on.
    pub cylinder: Cylinder,
    /// The finger's calibrated spread, where the search starts, radians.
    pub spread: f64,
    /// The stem, hand space.
    pub stem: Capsule,
    /// The finger's side of the stem along the handle (unit, hand space).
    pub away: DVec3,
}

/// A straddling finger's solve.
#[derive(Clone, Debug)]
pub struct Straddle {
    /// The spread it closes with, radians.
    pub spread: f64,
    /// Its closing on the handle at that spread.
    pub report: FingerContactReport,
    /// Its capsules' least clearance from the stem (hand units; negative: into it).
    pub clearance: f64,
}

impl StraddleJob<'_> {
    fn job(&self, spread: f64) -> FingerContactJob<'_> {
        FingerContactJob {
            also: &[],
            joints: &self.finger.joints,
            cylinder: self.cylinder,
            spread,
            spread_axis: self.finger.spread_axis,
            gap_scale: self.finger.radius,
        }
    }

    /// Checks the stem and the direction (the finger's own inputs are checked by the
    /// contact solve).
    ///
    /// # Errors
    /// A message naming the first bad input.
    pub fn validate(&self) -> Result<(), String> {
        let s = &self.stem;
        if !(s.start.is_finite() && s.end.is_finite() && s.radius.is_finite() && s.radius >= 0.0) {
            return Err("the reel's stem is not a finite capsule".into());
        }
        if !self.spread.is_finite() || (self.away.length() - 1.0).abs() > 1e-6 {
            return Err("straddle needs a finite spread and a unit direction".into());
        }
        self.job(self.spread).validate()
    }

    /// The finger closed at `spread`, and its clearance from the stem.
    fn at(&self, spread: f64) -> Result<Straddle, String> {
        let job = self.job(spread);
        let report = job.solve()?;
        let clearance = self.clearance(&job, &report.angles);
        Ok(Straddle {
            spread,
            report,
            clearance,
        })
    }

    /// The least distance between the finger's capsules at `angles` and the stem's surface,
    /// less the margin a straddling finger keeps ([`STEM_MARGIN`]).
    fn clearance(&self, job: &FingerContactJob<'_>, angles: &[f64]) -> f64 {
        let mut least = f64::INFINITY;
        for (joint, frame) in self.finger.joints.iter().zip(job.frames(angles)) {
            let scale = frame.matrix3.x_axis.length();
            for c in joint.capsules.iter().filter(|c| c.radius >= 0.0) {
                let d = segment_distance(
                    frame.transform_point3(c.start),
                    frame.transform_point3(c.end),
                    self.stem.start,
                    self.stem.end,
                );
                least = least.min(d - c.radius * scale - self.stem.radius);
            }
        }
        least - STEM_MARGIN * self.finger.radius
    }

    /// The sense of spread that moves the finger along `away`: the finger's last joint
    /// (straight) turned a little either way.
    fn outward(&self) -> f64 {
        let tip = |spread: f64| {
            self.job(spread)
                .frames(&vec![0.0; self.finger.joints.len()])
                .last()
                .map(|f| f.translation)
                .unwrap_or(DVec3::ZERO)
        };
        let moved = tip(self.spread + 0.05) - tip(self.spread - 0.05);
        if moved.dot(self.away) >= 0.0 {
            1.0
        } else {
            -1.0
        }
    }

    /// The finger at its calibrated spread when that clears the stem; else spread away from
    /// it by the least turn that clears it; else, where nothing within
    /// [`MAX_STRADDLE_SPREAD`] does, the turn that comes closest. Deterministic.
    ///
    /// # Errors
    /// What [`StraddleJob::validate`] returns.
    pub fn solve(&self) -> Result<Straddle, String> {
        self.validate()?;
        let first = self.at(self.spread)?;
        if first.clearance >= 0.0 {
            return Ok(first);
        }
        let sense = self.outward();
        let step = MAX_STRADDLE_SPREAD / SCAN_STEPS as f64;
        let mut best = first;
        let mut inside = 0.0;
        for i in 1..=SCAN_STEPS {
            let turn = step * i as f64;
            let s = self.at(self.spread + sense * turn)?;
            if s.clearance >= 0.0 {
                // Bisect between the last turn into the stem and this one.
                let (mut lo, mut hi, mut out) = (inside, turn, s);
                for _ in 0..BISECT_STEPS {
                    let mid = 0.5 * (lo + hi);
                    let m = self.at(self.spread + sense * mid)?;
                    if m.clearance >= 0.0 {
                        hi = mid;
                        out = m;
                    } else {
                        lo = mid;
                    }
                }
                return Ok(out);
            }
            inside = turn;
            if s.clearance > best.clearance {
                best = s;
            }
        }
        Ok(best)
    }
}

/// How far along the handle (`axis`, unit, hand space) the stem moves so that the two
/// straddling fingers turn away from it by equal amounts (each from its own spread, see
/// [`StraddleJob`]): a secant search over the stem's place, within the stem's radius either
/// way, from where it is. Each finger's side of the stem is its base's side of the other's.
/// `None` when a finger does not close.
pub fn stem_balance(
    fingers: [(&ContactFinger, f64); 2],
    cylinder: Cylinder,
    stem: Capsule,
    axis: DVec3,
) -> Option<f64> {
    // Each finger's side of the stem: that of its base from the other's.
    let first = (fingers[0].0.base_in_hand - fingers[1].0.base_in_hand).dot(axis) >= 0.0;
    let away = if first { [axis, -axis] } else { [-axis, axis] };
    let imbalance = |offset: f64| -> Option<f64> {
        let moved = Capsule {
            start: stem.start + axis * offset,
            end: stem.end + axis * offset,
            radius: stem.radius,
        };
        let mut turn = [0.0; 2];
        for k in 0..2 {
            let (finger, spread) = fingers[k];
            let s = StraddleJob {
                finger,
                cylinder,
                spread,
                stem: moved,
                away: away[k],
            }
            .solve()
            .ok()?;
            turn[k] = (s.spread - spread).abs();
        }
        Some(turn[0] - turn[1])
    };
    let limit = stem.radius;
    let (mut x0, mut f0) = (0.0, imbalance(0.0)?);
    if f0 == 0.0 {
        return Some(0.0);
    }
    // Moving the stem toward the finger that turns less (along its `away`, reversed) evens
    // them out.
    let toward_second = -away[1].dot(axis);
    let mut x1 = (if f0 > 0.0 {
        toward_second
    } else {
        -toward_second
    }) * 0.25
        * limit;
    let mut f1 = imbalance(x1)?;
    for _ in 0..BALANCE_STEPS {
        if f1 == 0.0 || (f1 - f0).abs() < 1e-9 {
            break;
        }
        let x2 = (x1 - f1 * (x1 - x0) / (f1 - f0)).clamp(-limit, limit);
        (x0, f0) = (x1, f1);
        x1 = x2;
        f1 = imbalance(x1)?;
    }
    Some(if f1.abs() <= f0.abs() { x1 } else { x0 })
}

/// Secant steps of [`stem_balance`].
const BALANCE_STEPS: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::grip_contact::ContactState;

    fn finger(base: DVec3) -> ContactFinger {
        crate::fishing::hand_shape::straight_test_finger(base)
    }

    /// A handle along Y under the finger's first segment, its far side where the finger
    /// wraps round it.
    fn handle() -> Cylinder {
        Cylinder {
            point: DVec3::new(0.03, 0.0, -0.022),
            axis: DVec3::Y,
            radius: 0.012,
            half_length: f64::INFINITY,
            flat_ends: false,
        }
    }

    /// A stem leaving the handle's far side along +X at `y`, 8 mm thick.
    fn stem(y: f64) -> Capsule {
        let c = handle().point + DVec3::Y * y;
        Capsule {
            start: c + DVec3::X * 0.012,
            end: c + DVec3::X * 0.05,
            radius: 0.004,
        }
    }

    fn job(f: &ContactFinger, stem: Capsule, away: DVec3) -> StraddleJob<'_> {
        StraddleJob {
            finger: f,
            cylinder: handle(),
            spread: 0.0,
            stem,
            away,
        }
    }

    #[test]
    fn a_finger_across_the_stem_turns_away_just_enough_and_still_touches() {
        let f = finger(DVec3::ZERO);
        let j = job(&f, stem(0.002), DVec3::NEG_Y);
        assert!(j.at(0.0).unwrap().clearance < 0.0, "the stem crosses it");
        let s = j.solve().unwrap();
        assert!(s.clearance >= 0.0, "{s:?}");
        assert!(
            s.spread.abs() > 0.05 && s.spread.abs() < MAX_STRADDLE_SPREAD,
            "{s:?}"
        );
        // Toward −Y: the straight finger's tip moves that way.
        let tip = |spread: f64| j.job(spread).frames(&[0.0; 3])[2].translation;
        assert!((tip(s.spread) - tip(0.0)).y < 0.0);
        // The least turn: a thousandth of a radian less is into the stem.
        let less = s.spread - s.spread.signum() * 2e-3;
        assert!(j.at(less).unwrap().clearance < 0.0);
        assert_eq!(s.report.state, ContactState::Touching, "{:?}", s.report);
    }

    #[test]
    fn a_finger_clear_of_the_stem_keeps_its_spread() {
        let f = finger(DVec3::ZERO);
        let s = job(&f, stem(0.04), DVec3::NEG_Y).solve().unwrap();
        assert_eq!(s.spread, 0.0);
        assert!(s.clearance > 0.0);
    }

    #[test]
    fn a_stem_too_thick_to_clear_gives_the_nearest_turn() {
        let f = finger(DVec3::ZERO);
        let thick = Capsule {
            radius: 0.05,
            ..stem(0.0)
        };
        let s = job(&f, thick, DVec3::NEG_Y).solve().unwrap();
        assert!(s.clearance < 0.0);
        assert!(s.spread.abs() <= MAX_STRADDLE_SPREAD + 1e-12);
    }

    #[test]
    fn bad_stems_are_refused() {
        let f = finger(DVec3::ZERO);
        let nan = Capsule {
            radius: f64::NAN,
            ..stem(0.0)
        };
        assert!(job(&f, nan, DVec3::NEG_Y).solve().is_err());
        assert!(
            job(&f, stem(0.0), DVec3::new(0.0, -2.0, 0.0))
                .solve()
                .is_err()
        );
    }

    #[test]
    fn the_balance_evens_the_two_fingers_turns() {
        // Two fingers 18 mm apart, the stem 3 mm nearer the first.
        let (a, b) = (finger(DVec3::Y * 0.009), finger(DVec3::Y * -0.009));
        let off = stem(0.003);
        let turn = |f: &ContactFinger, away: DVec3, s: Capsule| {
            job(f, s, away).solve().unwrap().spread.abs()
        };
        let (ta, tb) = (turn(&a, DVec3::Y, off), turn(&b, DVec3::NEG_Y, off));
        assert!(ta > tb + 0.05, "{ta} {tb}");
        let d = stem_balance([(&a, 0.0), (&b, 0.0)], handle(), off, DVec3::Y).unwrap();
        assert!(d < 0.0 && d.abs() <= off.radius, "{d}");
        let moved = Capsule {
            start: off.start + DVec3::Y * d,
            end: off.end + DVec3::Y * d,
            radius: off.radius,
        };
        let (ta2, tb2) = (turn(&a, DVec3::Y, moved), turn(&b, DVec3::NEG_Y, moved));
        assert!(
            (ta2 - tb2).abs() < 0.25 * (ta - tb),
            "{ta2} {tb2} (was {ta} {tb})"
        );
    }
}
