//! The canonical frame of an artist's landing-net model, found from its geometry alone (issue
//! 20): handle end at the origin, handle along +Y toward the hoop, the hoop in the XY plane
//! with its bag toward −Z, metres.
//!
//! From the vertices (in the file's model space):
//! 1. the handle axis: the principal axis of all vertices, refined through the centres of the
//!    cross-sections of the handle half (a hanging bag tilts the first estimate);
//! 2. the hoop end: the end whose cross-sections spread widest;
//! 3. the units: 0.5–4 units long is metres; anything else is scaled to the stated length,
//!    or read as centimetres or millimetres where that fits, else scaled to 1.7 m;
//! 4. the hoop plane: the bag hangs to one side of it, so the mean offset of the far third
//!    from the handle's axis points into the bag (−Z); without a bag the hoop's widest
//!    direction across the handle is X;
//! 5. the grip: 0.10 m from the handle end (a fifteenth of the length on a short net), with
//!    the handle's radius there.
//!
//! Pure: points in, a frame out.

use super::gear::NetGear;
use super::prop_geometry::{
    check_length, covariance, extent, median, principal_axis, sections, snap, units, wrap_rings,
};
use super::rod_model::RodModelError;
use glam::{DAffine3, DMat3, DVec3};

/// A plausible net length in metres; outside it the file is in other units.
const METRES: std::ops::RangeInclusive<f64> = 0.5..=4.0;
/// The length a net in unknown units is scaled to unless the caller states another.
pub const DEFAULT_NET_LENGTH: f64 = 1.7;

/// What was found, and the frame it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct NetModel {
    /// Canonical net space → the file's model space.
    pub file_from_net: DAffine3,
    /// Metres per file unit (1 for a file in metres).
    pub metres_per_unit: f64,
    /// Where the hand holds it.
    pub gear: NetGear,
    /// The hoop's width across the handle, metres.
    pub hoop_width: f64,
    /// Human-readable findings (rescaled units, no bag).
    pub notes: Vec<String>,
}

/// Detects the net frame of `points` (every mesh vertex in the file's model space);
/// `real_length` (metres) is used when the file's length is not plausible as metres.
///
/// # Errors
/// Fewer than 8 points, non-finite points, or a shape whose spread along its main axis is
/// less than 1.5× the spread across it (a net is a long handle with a hoop on one end).
pub fn detect_net(points: &[DVec3], real_length: Option<f64>) -> Result<NetModel, RodModelError> {
    if points.len() < 8 {
        return Err(RodModelError::NoGeometry);
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(RodModelError::NonFinite);
    }
    let (mean, cov) = covariance(points);
    let (mut axis, ratio) = principal_axis(cov);
    let elongation = ratio.sqrt();
    if elongation.is_nan() || elongation < 1.5 {
        return Err(RodModelError::NotElongated { ratio: elongation });
    }
    // Which end is the hoop: the sections there spread furthest from the axis.
    let (a, b) = end_spreads(points, axis, mean);
    if a > b {
        axis = -axis;
    }
    let (centre, axis) = axis_through_handle(points, mean, axis);
    let axis = snap(axis, 0.5);
    let (lo, hi) = extent(points, centre, axis);
    let length_units = hi - lo;
    let handle_end = centre + axis * lo;
    check_length(length_units)?;
    let mut notes = Vec::new();
    let metres_per_unit = units(
        length_units,
        real_length,
        METRES,
        DEFAULT_NET_LENGTH,
        &mut notes,
    );
    let off = |p: DVec3| {
        let d = p - handle_end;
        d - axis * d.dot(axis)
    };
    // The hoop and bag: the far third. A bag hangs to one side of the hoop's plane, so the
    // mean offset from the handle's axis points into it (−Z); without a bag, the hoop's
    // thinnest direction across the handle is its plane's normal.
    let hoop: Vec<DVec3> = points
        .iter()
        .copied()
        .filter(|p| (p - handle_end).dot(axis) >= length_units * 2.0 / 3.0)
        .map(off)
        .collect();
    let mean_off = hoop.iter().copied().sum::<DVec3>() / hoop.len().max(1) as f64;
    let (_, c) = covariance(&hoop);
    let (wide, _) = principal_axis(c);
    let wide = (wide - axis * wide.dot(axis))
        .try_normalize()
        .unwrap_or(axis.any_orthonormal_vector());
    let spread = hoop
        .iter()
        .map(|p| p.dot(wide))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), t| {
            (a.min(t), b.max(t))
        });
    let hoop_width = (spread.1 - spread.0).max(0.0) * metres_per_unit;
    let z = if mean_off.length() > 0.05 * (spread.1 - spread.0) {
        -mean_off.normalize()
    } else {
        notes.push("no bag hangs off the hoop: its side is a guess".to_string());
        wide.cross(axis)
    };
    let x = axis.cross(z);
    let k = 1.0 / metres_per_unit;
    let file_from_net =
        DAffine3::from_mat3_translation(DMat3::from_cols(x, axis, z) * k, handle_end);
    let length = length_units * metres_per_unit;
    let grip = super::gear::NET_GRIP.min(length / 15.0);
    let grip_radius = grip_section_radius(points, centre, axis) * metres_per_unit;
    Ok(NetModel {
        file_from_net,
        metres_per_unit,
        gear: NetGear {
            length,
            grip,
            grip_radius: if grip_radius > 0.0 {
                grip_radius
            } else {
                NetGear::BUNDLED.grip_radius
            },
        },
        hoop_width,
        notes,
    })
}

/// How far the sections of each end spread from `axis` through `centre`: the sums of the
/// sections' furthest reach over the first and the last third (file units).
fn end_spreads(points: &[DVec3], axis: DVec3, centre: DVec3) -> (f64, f64) {
    let bins = sections(points, centre, axis);
    let far: Vec<f64> = bins
        .iter()
        .map(|b| b.iter().copied().fold(0.0, f64::max))
        .collect();
    let n = far.len();
    let (a, b) = (
        far[..n / 3].iter().sum::<f64>(),
        far[n - n / 3..].iter().sum(),
    );
    (a, b)
}

/// The handle's centre and axis: `axis` (handle end → hoop, through `mean`) refined to the
/// principal axis of the points of the handle half, pointing the same way; `(mean, axis)`
/// when the handle half has fewer than 8 points.
fn axis_through_handle(points: &[DVec3], mean: DVec3, axis: DVec3) -> (DVec3, DVec3) {
    // Refine through the handle: the centres of the cross-sections of its first half.
    let (lo, hi) = extent(points, mean, axis);
    let length_units = hi - lo;
    let handle_end = mean + axis * lo;
    let along = |p: DVec3| (p - handle_end).dot(axis);
    let handle: Vec<DVec3> = points
        .iter()
        .copied()
        .filter(|p| along(*p) <= 0.5 * length_units)
        .collect();
    if handle.len() >= 8 {
        let (m, c) = covariance(&handle);
        let (h, _) = principal_axis(c);
        (m, if h.dot(axis) < 0.0 { -h } else { h })
    } else {
        (mean, axis)
    }
}

/// The handle radius around the grip (file units): the median wrap radius of the first
/// tenth's sections along `axis` through `centre`.
fn grip_section_radius(points: &[DVec3], centre: DVec3, axis: DVec3) -> f64 {
    let rings = wrap_rings(points, centre, axis);
    median(
        rings[..rings.len() / 10]
            .iter()
            .flatten()
            .map(|r| r.1)
            .collect(),
    )
}
