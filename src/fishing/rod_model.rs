//! The canonical frame of an artist's rod model, found from its geometry alone: whatever the
//! file's up axis, the axis the blank runs along, its units and the side the reel sits on, the
//! rod becomes butt at the origin, blank along +Y, reel toward −Z, metres (issue 20).
//!
//! From the vertices (in the file's model space):
//! 1. the blank axis: the principal axis of all vertices, refined through the centres of the
//!    cross-sections that hold only blank (no reel, no guide feet);
//! 2. the butt: the end whose cross-sections are thicker (handle versus tip);
//! 3. the units: a length of 0.8–6 units is metres; anything else (centimetres, game units)
//!    is scaled to the stated real length (default 2.4 m);
//! 4. the reel: the vertices that stick out furthest from the blank in the butt half give its
//!    span along the blank, whose middle is the reel seat; the geometric median of the reel's
//!    offsets from the blank is the reel side (the bundled reel's crank on one side turns it
//!    4.7° about the blank);
//! 5. the rear grip: a fifth of the way from the butt to the reel seat.
//!
//! Pure: points in, a frame out.

use glam::{DAffine3, DMat3, DVec3};
use thiserror::Error;

/// A plausible rod length in metres; outside it the file is in other units.
const METRES: std::ops::RangeInclusive<f64> = 0.8..=6.0;
/// The length a rod in unknown units is scaled to unless the caller states another.
pub const DEFAULT_ROD_LENGTH: f64 = 2.4;
const BINS: usize = 48;

/// Why no rod frame was found in the points.
#[derive(Debug, Error, PartialEq)]
pub enum RodModelError {
    /// Fewer than 8 points.
    #[error("has no mesh vertices to find a rod in")]
    NoGeometry,
    /// The points are less than 6× longer than wide.
    #[error(
        "is not long and thin like a rod (its spread along its main axis is only {ratio:.1}× the spread across it)"
    )]
    NotElongated {
        /// Spread along the main axis over the spread across it (standard deviations).
        ratio: f64,
    },
    /// A point has a non-finite coordinate.
    #[error("has non-finite vertex positions")]
    NonFinite,
}

/// What was found, and the frame it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct RodModel {
    /// Canonical rod space (butt at the origin, blank +Y, reel −Z, metres) → the file's
    /// model space.
    pub file_from_rod: DAffine3,
    /// Butt to tip, metres.
    pub length: f64,
    /// Metres per file unit (1 for a file in metres).
    pub metres_per_unit: f64,
    /// Rear grip and reel seat, metres from the butt along the blank.
    pub rear_grip: f64,
    /// Reel seat, metres from the butt along the blank.
    pub reel_seat: f64,
    /// False when nothing sticks out of the blank (the seat is then placed at a sixth of the
    /// length and the reel side is a guess).
    pub reel_found: bool,
    /// Blank radius at the butt and near the tip, metres.
    pub butt_radius: f64,
    /// Blank radius near the tip, metres.
    pub tip_radius: f64,
    /// Human-readable findings (a guessed butt, rescaled units, no reel).
    pub notes: Vec<String>,
}

impl RodModel {
    /// The rod-space transform of file model space (the inverse of `file_from_rod`).
    pub fn rod_from_file(&self) -> DAffine3 {
        self.file_from_rod.inverse()
    }
}

/// The eigenvector of the largest eigenvalue of a symmetric 3×3 matrix, and the ratio of the
/// largest to the middle eigenvalue (power iteration, then deflation).
fn principal_axis(c: DMat3) -> (DVec3, f64) {
    let power = |m: DMat3, start: DVec3| {
        let mut v = start;
        for _ in 0..200 {
            let w = m * v;
            match w.try_normalize() {
                Some(n) => v = n,
                None => break,
            }
        }
        (v, v.dot(m * v))
    };
    let start = [DVec3::X, DVec3::Y, DVec3::Z]
        .into_iter()
        .max_by(|a, b| (c * *a).length().total_cmp(&(c * *b).length()))
        .unwrap_or(DVec3::Y);
    let (a, l1) = power(c, (start + DVec3::new(1e-3, 2e-3, 3e-3)).normalize());
    let deflated = c - DMat3::from_cols(a * a.x, a * a.y, a * a.z) * l1;
    let (_, l2) = power(deflated, a.any_orthonormal_vector());
    (a, l1 / l2.abs().max(1e-300))
}

/// Detects the rod frame of `points` (every mesh vertex in the file's model space).
/// `real_length` (metres) is used when the file's length is not plausible as metres.
///
/// # Errors
/// Fewer than 8 points, non-finite points, or a shape whose spread along its main axis is
/// less than 6× the spread across it.
pub fn detect_rod(points: &[DVec3], real_length: f64) -> Result<RodModel, RodModelError> {
    if points.len() < 8 {
        return Err(RodModelError::NoGeometry);
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(RodModelError::NonFinite);
    }
    let n = points.len() as f64;
    let mean = points.iter().copied().sum::<DVec3>() / n;
    let mut cov = DMat3::ZERO;
    for p in points {
        let d = *p - mean;
        cov += DMat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let (mut axis, ratio) = principal_axis(cov * (1.0 / n));
    let elongation = ratio.sqrt();
    if elongation.is_nan() || elongation < 6.0 {
        return Err(RodModelError::NotElongated { ratio: elongation });
    }
    // Refine: the principal axis of the points near the axis only (the blank and the
    // handle), leaving out what sticks out (reel, guides), which would tilt it.
    let mut centre = mean;
    for _ in 0..4 {
        let dist = |p: &DVec3| {
            let d = *p - centre;
            (d - axis * d.dot(axis)).length()
        };
        let mut ds: Vec<f64> = points.iter().map(dist).collect();
        ds.sort_by(f64::total_cmp);
        let keep = 2.0 * ds[ds.len() * 2 / 5];
        let core: Vec<DVec3> = points.iter().copied().filter(|p| dist(p) <= keep).collect();
        if core.len() < 8 {
            break;
        }
        let m = core.iter().copied().sum::<DVec3>() / core.len() as f64;
        let mut c = DMat3::ZERO;
        for p in &core {
            let d = *p - m;
            c += DMat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let (a, _) = principal_axis(c);
        axis = if a.dot(axis) < 0.0 { -a } else { a };
        centre = m;
    }
    let (lo, hi) = extent(points, centre, axis);
    let bins = sections(points, centre, axis);
    // The blank radius per section: the smallest distances (the blank surface), robust to a
    // reel or guide in the same section.
    let radius: Vec<Option<f64>> = bins.iter().map(|b| radius_of(b)).collect();
    let end_radius = |range: std::ops::Range<usize>| {
        median(range.filter_map(|i| radius[i]).collect::<Vec<f64>>())
    };
    let tenth = BINS / 10;
    let (r_lo, r_hi) = (end_radius(0..tenth), end_radius(BINS - tenth..BINS));
    let mut notes = Vec::new();
    // Butt at `lo` when that end is thicker; flip the axis otherwise.
    let (butt_t, dir, butt_r, tip_r) = if r_lo >= r_hi {
        (lo, axis, r_lo, r_hi)
    } else {
        (hi, -axis, r_hi, r_lo)
    };
    if (r_lo - r_hi).abs() < 0.1 * r_lo.max(r_hi) {
        notes.push("both ends are about as thick: the butt is a guess".to_string());
    }
    let length_units = hi - lo;
    let metres_per_unit = if METRES.contains(&length_units) {
        1.0
    } else {
        notes.push(format!(
            "{length_units:.4} units long: not metres, scaled to {real_length} m"
        ));
        real_length / length_units
    };
    let butt = centre + axis * butt_t;
    // The reel: what sticks out furthest from the blank in the butt half.
    let along = |p: DVec3| (p - butt).dot(dir);
    let off = |p: DVec3| {
        let d = p - butt;
        d - dir * d.dot(dir)
    };
    let half = length_units / 2.0;
    let far = points
        .iter()
        .filter(|p| along(**p) <= half)
        .map(|p| off(*p).length())
        .fold(0.0, f64::max);
    let reel: Vec<DVec3> = points
        .iter()
        .copied()
        .filter(|p| along(*p) <= half && off(*p).length() >= 0.5 * far)
        .collect();
    let reel_found = far > 3.0 * butt_r.max(1e-12) && !reel.is_empty();
    let (seat_t, reel_dir) = if reel_found {
        // The seat: the middle of the reel's span along the blank (its mean would lean toward
        // a crank that sticks out sideways).
        let (a, b) = reel
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(along(*p)), b.max(along(*p)))
            });
        let seat = (a + b) / 2.0;
        // The geometric median of the offsets: the reel body's direction, not leaning toward
        // a crank on one side (and the same in any frame, unlike a per-axis median).
        // The side the reel hangs on: the geometric median of all of the reel within its span
        // (so a crank on one side pulls it only a little, and it is the same in any frame).
        let offsets: Vec<DVec3> = points
            .iter()
            .filter(|p| (a..=b).contains(&along(**p)) && off(**p).length() > 1.6 * butt_r)
            .map(|p| off(*p))
            .collect();
        let d = geometric_median(&offsets);
        (
            seat,
            d.try_normalize().unwrap_or(dir.any_orthonormal_vector()),
        )
    } else {
        notes.push("nothing sticks out of the blank: no reel found".to_string());
        (length_units / 6.0, dir.any_orthonormal_vector())
    };
    // Files are modelled along their axes: within half a degree of one, take it exactly. (The
    // reel side is not snapped: a reel is not symmetric, and a snap would differ by frame.)
    let dir = snap(dir, 0.5);
    let reel_dir = reel_dir - dir * reel_dir.dot(dir);
    // Canonical basis in file space: y along the blank, z away from the reel.
    let y = dir;
    let z = -(reel_dir - y * reel_dir.dot(y)).normalize();
    let x = y.cross(z);
    let k = 1.0 / metres_per_unit;
    let file_from_rod = DAffine3::from_mat3_translation(DMat3::from_cols(x, y, z) * k, butt);
    Ok(RodModel {
        file_from_rod,
        length: length_units * metres_per_unit,
        metres_per_unit,
        rear_grip: 0.2 * seat_t * metres_per_unit,
        reel_seat: seat_t * metres_per_unit,
        reel_found,
        butt_radius: butt_r * metres_per_unit,
        tip_radius: tip_r * metres_per_unit,
        notes,
    })
}

fn extent(points: &[DVec3], centre: DVec3, axis: DVec3) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let t = (*p - centre).dot(axis);
            (lo.min(t), hi.max(t))
        })
}

/// The distances from the axis of the points in each of [`BINS`] cross-sections along it.
fn sections(points: &[DVec3], centre: DVec3, axis: DVec3) -> Vec<Vec<f64>> {
    let (lo, hi) = extent(points, centre, axis);
    let mut bins = vec![Vec::new(); BINS];
    let width = (hi - lo).max(1e-300);
    for p in points {
        let d = *p - centre;
        let t = d.dot(axis);
        let i = (((t - lo) / width * BINS as f64) as usize).min(BINS - 1);
        bins[i].push((d - axis * t).length());
    }
    bins
}

/// The blank's radius in a section: the median of the inner half of the distances.
fn radius_of(radii: &[f64]) -> Option<f64> {
    if radii.len() < 3 {
        return None;
    }
    let mut r = radii.to_vec();
    r.sort_by(f64::total_cmp);
    Some(median(r[..r.len().div_ceil(2)].to_vec()))
}

/// Weiszfeld's iteration for the point with the least summed distance to `points`.
fn geometric_median(points: &[DVec3]) -> DVec3 {
    let mut m = points.iter().copied().sum::<DVec3>() / points.len().max(1) as f64;
    for _ in 0..100 {
        let (mut num, mut den) = (DVec3::ZERO, 0.0);
        for p in points {
            let w = 1.0 / (*p - m).length().max(1e-12);
            num += *p * w;
            den += w;
        }
        let next = num / den;
        if (next - m).length() < 1e-12 {
            return next;
        }
        m = next;
    }
    m
}

/// `v` (any length) as a unit vector, replaced by the nearest signed coordinate axis when it is
/// within `degrees` of it.
fn snap(v: DVec3, degrees: f64) -> DVec3 {
    let v = v.normalize();
    let (_, axis) = crate::rig::nearest_axis(v);
    if v.dot(axis) >= degrees.to_radians().cos() {
        axis
    } else {
        v
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
