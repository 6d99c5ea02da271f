//! Segments for the contact solve: the distance between two segments and where it is, and
//! the least value of a convex function along a segment.

use glam::DVec3;

/// The least value over `s` in [0, 1] of `f`, a convex function: golden-section search,
/// its bracket shrunk to under 1e-9 (44 steps), both ends of [0, 1] also tried.
pub(super) fn least_on_segment(f: impl Fn(f64) -> f64) -> f64 {
    const INV_PHI: f64 = 0.618_033_988_749_894_8;
    let (mut lo, mut hi) = (0.0, 1.0);
    let mut x1 = hi - INV_PHI * (hi - lo);
    let mut x2 = lo + INV_PHI * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..44 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - INV_PHI * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + INV_PHI * (hi - lo);
            f2 = f(x2);
        }
    }
    f1.min(f2).min(f(0.0)).min(f(1.0))
}

/// The distance between segments `p1`–`q1` and `p2`–`q2` (Ericson, Real-Time Collision
/// Detection, 5.1.9); a segment of zero length is its point.
pub fn segment_distance(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    segment_closest(p1, q1, p2, q2).0
}

/// [`segment_distance`] with where the closest points are: `(distance, s, t)`, the points
/// `p1 + (q1 − p1)·s` and `p2 + (q2 − p2)·t`.
pub(super) fn segment_closest(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (f64, f64, f64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let tiny = 1e-24;
    let (s, t) = if a <= tiny && e <= tiny {
        (0.0, 0.0)
    } else if a <= tiny {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= tiny {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > tiny * a * e {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    ((p1 + d1 * s).distance(p2 + d2 * t), s, t)
}
