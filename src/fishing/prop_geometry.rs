//! Geometry shared by the rod and net detectors: principal axes, cross-sections along an
//! axis, the rings a blank or handle makes in them, and the units of a prop file. Pure.

use glam::{DMat3, DVec3};
use thiserror::Error;

/// Cross-sections along the axis.
pub(super) const BINS: usize = 48;

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
    /// An artist's correction does not fit the rod.
    #[error("cannot be corrected so: {what}")]
    Correction {
        /// What is wrong.
        what: &'static str,
    },
    /// The model's length is outside 1e-4..=1e6 file units: no units make it a rod or net.
    #[error("is {length:e} units long: too small or too large to be a prop in any units")]
    Degenerate {
        /// Its length in file units.
        length: f64,
    },
}

/// The eigenvector of the largest eigenvalue of a symmetric 3×3 matrix, and the ratio of the
/// largest to the middle eigenvalue (power iteration, then deflation).
pub(super) fn principal_axis(c: DMat3) -> (DVec3, f64) {
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

/// The mean of `points` and their covariance (divided by the count). `points` is not empty.
pub(super) fn covariance(points: &[DVec3]) -> (DVec3, DMat3) {
    let n = points.len().max(1) as f64;
    let mean = points.iter().copied().sum::<DVec3>() / n;
    let mut cov = DMat3::ZERO;
    for p in points {
        let d = *p - mean;
        cov += DMat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    (mean, cov * (1.0 / n))
}

pub(super) fn extent(points: &[DVec3], centre: DVec3, axis: DVec3) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let t = (*p - centre).dot(axis);
            (lo.min(t), hi.max(t))
        })
}

/// The distances from the axis of the points in each of [`BINS`] cross-sections along it.
pub(super) fn sections(points: &[DVec3], centre: DVec3, axis: DVec3) -> Vec<Vec<f64>> {
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

/// Per cross-section along `axis` (see [`BINS`]): the ring of the outermost surface that
/// wraps round the blank, as (its centre, its radius), or `None` where none does. The ring's
/// centre is the middle of the section's inner points (those within 1.5× the 40th percentile
/// of the distances from `axis`), so it does not depend on `axis` passing exactly through it;
/// the ring is the largest shell of distances from that centre (12% wide) whose points fall
/// in at least 6 of 8 sectors of angle round it, and whose centre is within [`OFF_AXIS`] of
/// its radius from `axis` (a reel's outline about its own middle is not a ring).
/// How far a ring's centre may be from the axis, as a share of its radius.
const OFF_AXIS: f64 = 0.3;

pub(super) fn wrap_rings(
    points: &[DVec3],
    centre: DVec3,
    axis: DVec3,
) -> Vec<Option<(DVec3, f64)>> {
    let (lo, hi) = extent(points, centre, axis);
    let width = (hi - lo).max(1e-300);
    let (e1, e2) = axis.any_orthonormal_pair();
    let mut bins: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); BINS];
    for p in points {
        let d = *p - centre;
        let t = d.dot(axis);
        let i = (((t - lo) / width * BINS as f64) as usize).min(BINS - 1);
        bins[i].push((d.dot(e1), d.dot(e2), t));
    }
    bins.into_iter()
        .map(|b| {
            if b.len() < 6 {
                return None;
            }
            let mut r: Vec<f64> = b.iter().map(|p| p.0.hypot(p.1)).collect();
            r.sort_by(f64::total_cmp);
            let keep = 1.5 * r[r.len() * 2 / 5];
            let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in b.iter().filter(|p| p.0.hypot(p.1) <= keep) {
                min = [min[0].min(p.0), min[1].min(p.1)];
                max = [max[0].max(p.0), max[1].max(p.1)];
            }
            let c = [0.5 * (min[0] + max[0]), 0.5 * (min[1] + max[1])];
            let mut polar: Vec<(f64, u8)> = b
                .iter()
                .map(|p| {
                    let (x, y) = (p.0 - c[0], p.1 - c[1]);
                    let a = y.atan2(x) + std::f64::consts::PI;
                    (x.hypot(y), ((a / std::f64::consts::TAU * 8.0) as u8).min(7))
                })
                .collect();
            polar.sort_by(|x, y| x.0.total_cmp(&y.0));
            let floor = polar.last().map_or(0.0, |l| l.0 * 1e-6);
            let mut best = None;
            for (k, &(d, _)) in polar.iter().enumerate() {
                if d <= floor {
                    continue;
                }
                let shell = &polar[k..];
                let n = shell.iter().take_while(|x| x.0 <= d * 1.12).count();
                let covered = shell[..n]
                    .iter()
                    .fold(0u8, |m, x| m | (1 << x.1))
                    .count_ones();
                if covered >= 6 {
                    best = Some(shell[n / 2].0);
                }
            }
            let t = b.iter().map(|p| p.2).sum::<f64>() / b.len() as f64;
            // A ring far off the axis is what a reel makes round itself (its body's outline
            // about its own middle), not a handle round the blank.
            best.filter(|r| c[0].hypot(c[1]) <= OFF_AXIS * r)
                .map(|radius| (centre + axis * t + e1 * c[0] + e2 * c[1], radius))
        })
        .collect()
}

/// Refuses a prop whose length in file units no unit makes sensible (1e-4..=1e6 units).
pub(super) fn check_length(length: f64) -> Result<(), RodModelError> {
    if (1e-4..=1e6).contains(&length) {
        Ok(())
    } else {
        Err(RodModelError::Degenerate { length })
    }
}

/// Units of a prop `length` file units long: metres when that is in `metres`; else the
/// stated `real_length`; else centimetres or millimetres when that is in `metres`; else
/// `default` metres. A note says what was chosen when it is not metres.
pub(super) fn units(
    length: f64,
    real_length: Option<f64>,
    metres: std::ops::RangeInclusive<f64>,
    default: f64,
    notes: &mut Vec<String>,
) -> f64 {
    if metres.contains(&length) {
        return 1.0;
    }
    if let Some(l) = real_length {
        notes.push(format!(
            "{length:.4} units long: not metres, scaled to {l} m"
        ));
        return l / length;
    }
    for (k, name) in [(0.01, "centimetres"), (0.001, "millimetres")] {
        if metres.contains(&(length * k)) {
            notes.push(format!("{length:.4} units long: read as {name}"));
            return k;
        }
    }
    notes.push(format!(
        "{length:.4} units long: not metres, scaled to {default} m (state the real length to change it)"
    ));
    default / length
}

/// `v` (any length) as a unit vector, replaced by the nearest signed coordinate axis when it is
/// within `degrees` of it.
pub(super) fn snap(v: DVec3, degrees: f64) -> DVec3 {
    let v = v.normalize();
    let (_, axis) = crate::rig::nearest_axis(v);
    if v.dot(axis) >= degrees.to_radians().cos() {
        axis
    } else {
        v
    }
}

pub(super) fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Weiszfeld's iteration for the point with the least summed distance to `points`.
pub(super) fn geometric_median(points: &[DVec3]) -> DVec3 {
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
