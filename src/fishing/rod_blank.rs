//! The blank of an artist's rod model as measured in the file (file units), and where its
//! reel sits on it: the measurements `rod_model` builds the rod's frame from.

use super::prop_geometry::{BINS, geometric_median, median};
use super::reel_shape::{AxisOffset, ReelCircle, find_trigger, fit_reel_circle};
use glam::DVec3;

/// The blank as measured in the file (file units): its butt, its direction toward the tip
/// (before any snap to a file axis) and the wrap radius of each cross-section.
pub(super) struct Blank {
    /// The butt end on the blank's axis.
    pub(super) butt: DVec3,
    /// Butt → tip, unit length.
    pub(super) dir: DVec3,
    /// The wrap radius of each of the [`BINS`] sections, counted from the `lo` end.
    pub(super) radius: Vec<Option<f64>>,
    /// The butt is at the `lo` end of the sections (else at the `hi` end).
    pub(super) butt_at_lo: bool,
    /// Butt to tip.
    pub(super) total_units: f64,
    /// The blank's radius at the butt.
    pub(super) butt_r: f64,
}

/// Where the reel sits on the blank (file units).
pub(super) struct ReelPlacement {
    /// The reel's span along the blank, from the butt.
    pub(super) span: (f64, f64),
    /// The reel seat, from the butt.
    pub(super) seat: f64,
    /// The side the reel hangs on, unit length.
    pub(super) side: DVec3,
    /// How far the reel reaches from the blank.
    pub(super) reach: f64,
}

impl Blank {
    /// How far along the blank `p` lies, from the butt.
    pub(super) fn along(&self, p: DVec3) -> f64 {
        (p - self.butt).dot(self.dir)
    }

    /// `p`'s offset from the blank's axis, across the blank.
    pub(super) fn off(&self, p: DVec3) -> DVec3 {
        let d = p - self.butt;
        d - self.dir * d.dot(self.dir)
    }

    /// The reel's span, seat and side from `reel` (its points, reaching `far` from the blank).
    pub(super) fn reel_placement(
        &self,
        points: &[DVec3],
        reel: &[DVec3],
        far: f64,
    ) -> ReelPlacement {
        let along = |p: DVec3| self.along(p);
        let off = |p: DVec3| self.off(p);
        // The seat: the middle of the reel's span along the blank (its mean would lean toward
        // a crank that sticks out sideways).
        let (a, b) = reel
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(along(*p)), b.max(along(*p)))
            });
        // The geometric median of the offsets: the reel body's direction, not leaning toward
        // a crank on one side (and the same in any frame, unlike a per-axis median).
        // The side the reel hangs on: the geometric median of all of the reel within its span
        // (so a crank on one side pulls it only a little, and it is the same in any frame).
        let offsets: Vec<DVec3> = points
            .iter()
            .filter(|p| (a..=b).contains(&along(**p)) && off(**p).length() > 1.6 * self.butt_r)
            .map(|p| off(*p))
            .collect();
        // Guides stand on the reel's side (below a spinning reel, on top with a baitcaster)
        // and are symmetric about it: where the rod has them, they give the side exactly.
        let guides = self.guide_offsets(points);
        let d = if guides.len() >= 24 {
            geometric_median(&guides)
        } else {
            geometric_median(&offsets)
        };
        // The hand holds the reel's stem or foot: the reel's points near the blank, on the
        // reel's side (a trigger opposite it is not the foot). Their median along it is the
        // seat; the middle of the span when there are too few.
        let foot = reel_points_near(points, &along, &off, (a, b), self.butt_r, far, d);
        let seat = if foot.len() >= 8 {
            median(foot)
        } else {
            (a + b) / 2.0
        };
        ReelPlacement {
            span: (a, b),
            seat,
            side: d
                .try_normalize()
                .unwrap_or(self.dir.any_orthonormal_vector()),
            reach: far,
        }
    }

    /// The offsets from the blank of the guides: points in the tip half (short of its last
    /// 3 %) that stand further out than 2.5× their section's wrap radius.
    fn guide_offsets(&self, points: &[DVec3]) -> Vec<DVec3> {
        let half = self.total_units / 2.0;
        points
            .iter()
            .filter(|p| {
                let t = self.along(**p);
                t > half && t < 0.97 * self.total_units && {
                    let i = ((t / self.total_units * BINS as f64) as usize).min(BINS - 1);
                    let i = if self.butt_at_lo { i } else { BINS - 1 - i };
                    self.radius[i].is_some_and(|r| self.off(**p).length() > 2.5 * r)
                }
            })
            .map(|p| self.off(*p))
            .collect()
    }

    /// The handle radius `t` units from the butt: the median of the three nearest measured
    /// sections (as `radius_at` reads the profile; a reel's own section may have none).
    fn section_radius(&self, t: f64) -> Option<f64> {
        let total_units = self.total_units;
        let mut near: Vec<(f64, f64)> = self
            .radius
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let from_lo = (i as f64 + 0.5) * total_units / BINS as f64;
                let at = if self.butt_at_lo {
                    from_lo
                } else {
                    total_units - from_lo
                };
                r.map(|r| ((at - t).abs(), r))
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let three: Vec<f64> = near.iter().take(3).map(|n| n.1).collect();
        (!three.is_empty()).then(|| median(three))
    }

    /// The reel body's side profile and the trigger (both in metres), from `points`' offsets
    /// `across` the blank and `toward` the reel, around the reel `placed` there.
    pub(super) fn reel_circle_and_trigger(
        &self,
        points: &[DVec3],
        placed: &ReelPlacement,
        across: DVec3,
        toward: DVec3,
        metres_per_unit: f64,
    ) -> (Option<ReelCircle>, Option<f64>) {
        let span = placed.span;
        let at = |p: &DVec3| AxisOffset {
            along: self.along(*p),
            toward: self.off(*p).dot(toward),
            across: self.off(*p).dot(across),
        };
        let offsets: Vec<AxisOffset> = points.iter().map(at).collect();
        let in_span: Vec<AxisOffset> = offsets
            .iter()
            .copied()
            .filter(|p| (span.0..=span.1).contains(&p.along))
            .collect();
        let seat_r = self.section_radius(placed.seat).unwrap_or(self.butt_r);
        (
            fit_reel_circle(&in_span, seat_r).map(|c| c.scaled(metres_per_unit, 0.0)),
            find_trigger(
                &offsets,
                placed.seat,
                0.5 * (span.1 - span.0).max(placed.reach),
                |t| self.section_radius(t),
            )
            .map(|t| t * metres_per_unit),
        )
    }

    /// The blank and handle radius along the rod in metres: (from the butt, radius), one per
    /// section that has one, butt first.
    pub(super) fn radius_profile(&self, metres_per_unit: f64) -> Vec<(f64, f64)> {
        let total_units = self.total_units;
        let bin_width = total_units / BINS as f64;
        let mut radius_profile: Vec<(f64, f64)> = self
            .radius
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let from_lo = (i as f64 + 0.5) * bin_width;
                let along = if self.butt_at_lo {
                    from_lo
                } else {
                    total_units - from_lo
                };
                r.map(|r| (along * metres_per_unit, r * metres_per_unit))
            })
            .collect();
        radius_profile.sort_by(|a, b| a.0.total_cmp(&b.0));
        radius_profile
    }
}

/// How far along the blank the points of the reel's stem or foot are: within the reel's span
/// `(a, b)`, further from the axis than the blank (1.6× `blank_r`) but within a third of the
/// reel's reach `far`, on the reel's `side`.
fn reel_points_near(
    points: &[DVec3],
    along: &impl Fn(DVec3) -> f64,
    off: &impl Fn(DVec3) -> DVec3,
    (a, b): (f64, f64),
    blank_r: f64,
    far: f64,
    side: DVec3,
) -> Vec<f64> {
    points
        .iter()
        .filter(|p| {
            let o = off(**p);
            let d = o.length();
            (a..=b).contains(&along(**p)) && d > 1.6 * blank_r && d < far / 3.0 && o.dot(side) > 0.0
        })
        .map(|p| along(*p))
        .collect()
}
