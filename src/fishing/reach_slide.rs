//! A rear hand that cannot reach the rear grip holds the handle where it can (issue 33): on a
//! long butt (a surf rod's rear grip is half a metre behind its reel seat) a seated angler's
//! rear arm falls short, the wrist stops before the grip and the palm sinks into the handle.
//! Anglers hold such a handle wherever along it their arm reaches, so the grip slides along
//! the handle's axis by the least distance that brings the wrist within the arm's reach.
//! Pure: positions in, a distance out.

use super::calibration::GripKind;
use super::gear::RodGear;
use super::session_frames::GripTarget;
use glam::DVec3;

/// The share of the arm's reach the slid target stays inside (so the arm reaches it, not
/// only touches the limit of its reach).
pub const REACH_MARGIN: f64 = 1e-3;

/// The farthest a grip slides either way along a handle whose extent is not known
/// ([`RodGear::rear_handle`]), metres (about a palm's width: farther, the hand may have left
/// the handle).
pub const MAX_SLIDE: f64 = 0.1;

/// How near the butt and the reel seat the slid hand's middle may come, metres: half a
/// hand's width from the butt; a hand and a half from the seat (the front hand is there).
const FROM_BUTT: f64 = 0.045;
const FROM_SEAT: f64 = 0.15;

/// How far, metres along `axis` (a unit vector: the handle's axis, world space), the wrist
/// target `wrist_target` moves for its distance from `shoulder` to come within the reach the
/// arm showed when it fell short (its wrist stopped at `reached`), less [`REACH_MARGIN`]
/// (more, for a target nearer the shoulder than the arm folds: the elbow at its limit):
/// the root of |target + s·axis − shoulder| = reach nearest zero, or, when no point of the
/// line is within reach, the point nearest the shoulder. Then clamped to `bounds` (the
/// slides the handle allows). Non-finite inputs give 0.
pub fn reach_slide(
    shoulder: DVec3,
    reached: DVec3,
    wrist_target: DVec3,
    axis: DVec3,
    bounds: (f64, f64),
) -> f64 {
    let d = wrist_target - shoulder;
    // Inside the reach: shorter than it for a target too far, longer for one too near.
    let shown = (reached - shoulder).length();
    let reach = if d.length() >= shown {
        shown * (1.0 - REACH_MARGIN)
    } else {
        shown * (1.0 + REACH_MARGIN)
    };
    let b = d.dot(axis);
    let disc = b * b - d.length_squared() + reach * reach;
    let s = if disc < 0.0 {
        -b
    } else {
        let r = disc.sqrt();
        if (-b + r).abs() <= (-b - r).abs() {
            -b + r
        } else {
            -b - r
        }
    };
    if s.is_finite() && bounds.0 <= bounds.1 {
        s.clamp(bounds.0, bounds.1)
    } else {
        0.0
    }
}

/// The slides `grip` allows along its handle on `rod` (the middle of the hand half a hand
/// inside the rear handle's ends, [`RodGear::rear_handle`], else within [`MAX_SLIDE`] and
/// half a hand from the butt; a hand and a half from the reel seat either way), and the
/// share of the grip that slides: only the rear grip does (a long butt, held anywhere along it), by its share of
/// the hold (so a hand arriving at or leaving the rear grip slides in as it arrives and out
/// as it leaves). `None` when no share of the hold is the rear grip.
pub fn slide_bounds(grip: &GripTarget, rod: &RodGear) -> Option<((f64, f64), f64)> {
    let hold = grip.hold;
    let share = match (hold.from == GripKind::RodRear, hold.to == GripKind::RodRear) {
        (true, true) => 1.0,
        (true, false) => 1.0 - hold.blend,
        (false, true) => hold.blend,
        (false, false) => 0.0,
    };
    if share <= 0.0 {
        return None;
    }
    let seat = rod.reel_seat - FROM_SEAT;
    let (lo, hi) = match rod.rear_handle {
        // Half a hand inside the handle's ends.
        Some((start, end)) => (
            (start + FROM_BUTT).max(FROM_BUTT) - rod.rear_grip,
            (end - FROM_BUTT).min(seat) - rod.rear_grip,
        ),
        None => (
            (FROM_BUTT - rod.rear_grip).max(-MAX_SLIDE),
            (seat - rod.rear_grip).min(MAX_SLIDE),
        ),
    };
    Some(((lo.min(0.0), hi.max(0.0)), share))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_beyond_reach_slides_along_the_axis_onto_the_reach() {
        let shoulder = DVec3::ZERO;
        // Reach 0.6; the target 0.62 out along X, the handle along Y.
        let reached = DVec3::new(0.6, 0.0, 0.0);
        let target = DVec3::new(0.58, 0.22, 0.0);
        let s = reach_slide(shoulder, reached, target, DVec3::Y, (-0.1, 0.1));
        let slid = target + DVec3::Y * s;
        assert!(s < 0.0, "{s}");
        assert!(
            (slid.length() - 0.6 * (1.0 - REACH_MARGIN)).abs() < 1e-12,
            "{slid}"
        );
        // The least slide: the other root is farther.
        let other = -2.0 * target.dot(DVec3::Y) - s;
        assert!(s.abs() < other.abs());
    }

    #[test]
    fn a_target_too_near_slides_out_onto_the_folded_reach() {
        // The arm folded to its elbow's limit holds the wrist 0.3 from the shoulder; the
        // target is 0.2 out along X, the handle along Y.
        let reached = DVec3::new(0.0, 0.0, 0.3);
        let target = DVec3::new(0.2, 0.0, 0.0);
        let s = reach_slide(DVec3::ZERO, reached, target, DVec3::Y, (0.0, 0.5));
        let slid = target + DVec3::Y * s;
        assert!(s > 0.0, "{s}");
        assert!(
            (slid.length() - 0.3 * (1.0 + REACH_MARGIN)).abs() < 1e-12,
            "{slid}"
        );
        // Within bounds that stop short, as far as they allow.
        let s = reach_slide(DVec3::ZERO, reached, target, DVec3::Y, (0.0, 0.1));
        assert_eq!(s, 0.1);
    }

    #[test]
    fn a_line_out_of_reach_slides_to_its_nearest_point_within_bounds() {
        let reached = DVec3::new(0.5, 0.0, 0.0);
        let target = DVec3::new(0.8, 0.05, 0.0);
        let s = reach_slide(DVec3::ZERO, reached, target, DVec3::Y, (-0.1, 0.1));
        assert!((s + 0.05).abs() < 1e-12, "{s}");
        let s = reach_slide(DVec3::ZERO, reached, target, DVec3::Y, (-0.01, 0.1));
        assert_eq!(s, -0.01);
        let nan = DVec3::splat(f64::NAN);
        assert_eq!(
            reach_slide(DVec3::ZERO, nan, target, DVec3::Y, (-0.1, 0.1)),
            0.0
        );
    }
}
