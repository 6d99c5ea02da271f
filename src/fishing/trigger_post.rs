//! A baitcaster's trigger as a post the front hand straddles (issue 33): anglers hold a
//! casting rod with the trigger between the index finger (in front of it) and the middle
//! finger, the reel on top. The trigger is found as a point along the blank by
//! `reel_shape::find_trigger`; here its points give it a middle line and a thickness, as a
//! spinning reel's stem has, so the same straddle solve (`stem_straddle`) passes the fingers
//! either side of it. Pure: points in, a capsule out.

use super::prop_geometry::{covariance, principal_axis};
use super::reel_stem::ReelStem;
use glam::{DMat3, DVec3};

/// How far along the blank from the trigger's tip its points may lie, metres (a trigger is
/// a hook about a finger wide, raked along the blank; the seat's hoods are farther).
pub const REACH: f64 = 0.025;

/// Points farther out than this many times the handle's radius (or whatever goes round the
/// blank there) belong to the trigger.
pub const ABOVE_HANDLE: f64 = 1.05;

/// Points this close along the blank are on one ring round it, metres.
const RING_TOL: f64 = 0.0015;

/// The trigger near `trigger` (metres from the butt) among `points_in_model` (the rod model's
/// frame: butt at the origin, blank along +Y, the reel toward −Z and so the trigger toward
/// +Z, metres), where the handle's radius is `seat_radius`, as a capsule in **hold** space
/// (the model turned half a turn about the blank: the reel on top, the trigger toward −Z).
///
/// Its points are those within [`REACH`] of `trigger` along the blank, on the trigger's side
/// within the handle's radius across, and farther out ([`ABOVE_HANDLE`]) than the handle or
/// anything else that goes round the blank as far along (a seat's hood: its points beside
/// the blank reach as far as those under it; a trigger has none beside it). Its middle line
/// runs through their mean along the way they run (their long axis: triggers rake back), its
/// radius is the farthest any of them lies from that line, and it runs from the handle's
/// surface to the farthest of them along the line, so all of the trigger that stands out of
/// the handle is inside. `None` with fewer than 4 points, a line that leans more than about
/// 2:1 along the blank, or a trigger as thick as the handle.
pub fn find_trigger_post(
    points_in_model: &[DVec3],
    trigger: f64,
    seat_radius: f64,
) -> Option<ReelStem> {
    if !(trigger.is_finite() && seat_radius.is_finite() && seat_radius > 0.0) {
        return None;
    }
    let near: Vec<DVec3> = points_in_model
        .iter()
        .copied()
        .filter(|p| (p.y - trigger).abs() <= REACH)
        .collect();
    // How far round the blank reaches beside a point on the trigger's side (the seat's
    // hoods, a winding check): the farthest of the points as far along within `RING_TOL`
    // that lie more beside the blank than out toward the trigger.
    let round_at = |y: f64| {
        near.iter()
            .filter(|q| (q.y - y).abs() <= RING_TOL && q.z >= 0.0 && q.x.abs() >= q.z)
            .map(|q| q.x.hypot(q.z))
            .fold(seat_radius, f64::max)
    };
    let points: Vec<DVec3> = near
        .iter()
        .copied()
        .filter(|p| p.x.abs() < seat_radius && p.z > ABOVE_HANDLE * round_at(p.y))
        .collect();
    if points.len() < 4 {
        return None;
    }
    let (mean, c) = covariance(&points);
    let dir = post_axis(c)?;
    let dir = if dir.z < 0.0 { -dir } else { dir };
    if dir.z < LEAST_UPRIGHT {
        return None;
    }
    // The farthest of its points from the middle line, and along it: the whole trigger that
    // stands out of the handle is inside the capsule.
    let radius = points
        .iter()
        .map(|p| {
            let q = *p - mean;
            (q - dir * q.dot(dir)).length()
        })
        .fold(0.0, f64::max);
    let far = points
        .iter()
        .map(|p| (*p - mean).dot(dir))
        .fold(f64::NEG_INFINITY, f64::max);
    let root = mean + dir * ((seat_radius - mean.z) / dir.z);
    let tip = mean + dir * far;
    if !(radius > 0.0 && radius < seat_radius && tip.z > seat_radius) {
        return None;
    }
    // Hold space is the model turned half a turn about the blank: x → −x, z → −z.
    let hold = |p: DVec3| DVec3::new(-p.x, p.y, -p.z);
    Some(ReelStem {
        top_in_rod: hold(root),
        bottom_in_rod: hold(tip),
        radius,
    })
}

/// The least share of the trigger's direction that points out from the blank (a trigger
/// that leans more than about 2:1 along the blank is not one a finger hooks).
const LEAST_UPRIGHT: f64 = 0.45;

/// The direction a trigger's points run (covariance `c`): the long axis of a part that is
/// long (its largest spread twice the next), the normal of one that is flat (the tip's ring
/// of a tube cut short by the handle: its least spread under a fifth of the largest), else
/// straight out from the blank.
fn post_axis(c: DMat3) -> Option<DVec3> {
    let (long, ratio) = principal_axis(c);
    if ratio >= 2.0 {
        return Some(long);
    }
    let trace = c.x_axis.x + c.y_axis.y + c.z_axis.z;
    let (thin, _) = principal_axis(DMat3::from_diagonal(DVec3::splat(trace)) - c);
    if thin.dot(c * thin) < 0.2 * long.dot(c * long) {
        return Some(thin);
    }
    Some(DVec3::Z)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A raked tube's rings: from `top` to `bottom` (model space), radius `r`.
    fn tube(top: DVec3, bottom: DVec3, r: f64) -> Vec<DVec3> {
        let d = (bottom - top).normalize();
        let u = DVec3::X;
        let v = d.cross(u);
        let mut out = Vec::new();
        for i in 0..=6 {
            let c = top.lerp(bottom, f64::from(i) / 6.0);
            for k in 0..10 {
                let a = std::f64::consts::TAU * f64::from(k) / 10.0;
                out.push(c + r * (a.cos() * u + a.sin() * v));
            }
        }
        out
    }

    #[test]
    fn a_raked_trigger_is_a_capsule_in_hold_space_below_the_blank() {
        let seat_r = 0.012;
        let top = DVec3::new(0.0, 0.238, seat_r);
        let bottom = DVec3::new(0.0, 0.226, seat_r + 0.016);
        let mut points = tube(top, bottom, 0.004);
        // The handle and the reel on the other side are not the trigger.
        points.extend((0..40).map(|i| DVec3::new(0.0, 0.2 + 0.002 * f64::from(i), seat_r)));
        points.extend((0..40).map(|i| DVec3::new(0.01, 0.2 + 0.002 * f64::from(i), -0.04)));
        let post = find_trigger_post(&points, 0.23, seat_r).unwrap();
        // Hold space: below the blank, on the handle's surface, out to the tip less its
        // radius.
        let hold = |p: DVec3| DVec3::new(-p.x, p.y, -p.z);
        assert!((post.top_in_rod.z + seat_r).abs() < 1e-9, "{post:?}");
        assert!(post.bottom_in_rod.z < -seat_r - 0.01, "{post:?}");
        // Its root near the tube's axis (2 mm: the handle cuts the tube's first ring, so the
        // points seen are not symmetric about its axis), its end
        // within the tube's radius of the tube's end, no thicker than 1.6 of the tube, and
        // all of the trigger that stands out of the handle inside it.
        let (a, b) = (hold(top), hold(bottom));
        let d = (b - a).normalize();
        let q = post.top_in_rod - a;
        let root_off_axis = (q - d * q.dot(d)).length();
        assert!(root_off_axis < 2e-3, "{root_off_axis} {post:?}");
        assert!(post.bottom_in_rod.distance(b) < 0.004, "{post:?}");
        assert!(post.radius < 1.6 * 0.004, "{post:?}");
        for p in tube(top, bottom, 0.004) {
            if p.z > 1.05 * seat_r {
                let (q, a, b) = (hold(p), post.top_in_rod, post.bottom_in_rod);
                let d = crate::ik::grip_contact::segment_distance(q, q, a, b) - post.radius;
                assert!(d <= 1e-9, "{p} {d} outside {post:?}");
            }
        }
    }

    #[test]
    fn nothing_out_past_the_handle_is_no_trigger() {
        let handle: Vec<DVec3> = (0..40)
            .map(|i| DVec3::new(0.0, 0.2 + 0.002 * f64::from(i), 0.012))
            .collect();
        assert_eq!(find_trigger_post(&handle, 0.23, 0.012), None);
        assert_eq!(find_trigger_post(&handle, f64::NAN, 0.012), None);
        assert_eq!(find_trigger_post(&handle, 0.23, 0.0), None);
    }
}
