//! A reel's crank as modelled (issue 33): an artist's rod whose crank is its own node (named
//! like `reel_crank`, its origin on the crank's axis) turns with the session, and the knob the
//! rear hand pinches is the knob drawn, not one guessed from the reel's size. This module is
//! the geometry: the knob's circle fitted to the crank's vertices, and the rigid motion that
//! turns the crank (or its mirror image, for a left-handed session) to a crank angle. Hold
//! space throughout (see [`super::gear`]): the crank turns about the hold frame's X axis, the
//! knob at angle `a` lies at `centre + r (0, cos a, sin a)`.

use super::gear::ReelCrank;
use glam::{DAffine3, DQuat, DVec3};
use std::f64::consts::PI;

/// The knob's outer part, beyond its axis by this share of its radius: where its length is
/// read (an arm, thinner than the knob, joins its inner side).
const OUTER_HALF: f64 = 0.5;

/// The arm's vertices are those nearer the axis than the knob's inner side by this share of
/// the knob's radius (the knob's own vertices there are not the arm's).
const ARM_MARGIN: f64 = 0.25;

/// A crank fitted to its mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrankFit {
    /// The knob's circle: its centre on the crank's axis at the knob's middle, and the
    /// distance from the axis to the knob's axis.
    pub crank: ReelCrank,
    /// The knob's angle about the axis as modelled, radians (`atan2(z, y)` of the knob's
    /// direction from the axis, hold space): the crank node is turned by the session's crank
    /// angle less this, so the knob drawn is where the hand holds it.
    pub rest_angle: f64,
}

/// Vertices farther from the axis than this share of the farthest are the knob's candidates.
const KNOB_REACH: f64 = 0.5;
/// Candidates within this angle (radians) of the farthest vertex's direction belong to its
/// knob (a baitcaster's bar carries two knobs half a turn apart).
const KNOB_SECTOR: f64 = PI / 3.0;

/// The knob's circle, radius and length of a crank whose vertices are `points_in_hold` (hold space, the crank at
/// its rest), turning about the hold X axis through `pivot_in_hold`.
///
/// The knob is the part of the crank farthest from the axis: the vertices in the sector of the
/// farthest one (within 60°, beyond half its distance). Its direction is the mean of their
/// directions across the axis; its radius half their width across that direction (an arm is
/// thinner than the knob it carries); the circle's radius the farthest reach less the knob's
/// radius; its middle along the axis halfway between the ends of the knob's outer half (where
/// the arm, thinner, does not reach), its length their distance. Of two knobs equally far, the one toward the tip (+Y).
///
/// The arm is what of the crank lies in the knob's sector in the band short of the knob
/// (from half the farthest reach to a quarter of the knob's radius short of its inner side):
/// the vertices there and the points where the `triangles`' edges (indices into
/// `points_in_hold`) cross the band's two bounds, so that an arm modelled as one long tube,
/// whose vertices are all at its ends inside the knobs, is found. The knob stands out of the
/// arm toward the hand; how far the arm's face on that side stands out of the knob's base is
/// `arm_proud` (0 when nothing lies in the band; at most the knob's length). A vertex as far
/// out as the knob's axis within 60° of the opposite direction is a second knob
/// (`opposite_knob`: a baitcaster's bar).
///
/// `None` without a vertex off the axis (closer than 1 mm), or for non-finite input. Edges
/// with an index out of range are skipped.
pub fn fit_crank(
    points_in_hold: &[DVec3],
    triangles: &[[u32; 3]],
    pivot_in_hold: DVec3,
) -> Option<CrankFit> {
    if !pivot_in_hold.is_finite() || points_in_hold.iter().any(|p| !p.is_finite()) {
        return None;
    }
    let across = |p: &DVec3| {
        let d = *p - pivot_in_hold;
        (d.y, d.z)
    };
    let reach = |p: &DVec3| {
        let (y, z) = across(p);
        y.hypot(z)
    };
    // The farthest vertex; of equals (to a micrometre) the one toward the tip.
    let far = points_in_hold.iter().max_by(|a, b| {
        let (ra, rb) = ((reach(a) * 1e6).round(), (reach(b) * 1e6).round());
        ra.total_cmp(&rb).then(a.y.total_cmp(&b.y))
    })?;
    let max_reach = reach(far);
    if max_reach < 1e-3 {
        return None;
    }
    let far_angle = {
        let (y, z) = across(far);
        z.atan2(y)
    };
    let knob: Vec<&DVec3> =
        in_knob_sector(points_in_hold, pivot_in_hold, far_angle, max_reach).collect();
    let (sy, sz) = knob.iter().fold((0.0, 0.0), |(sy, sz), p| {
        let (y, z) = across(p);
        let r = y.hypot(z).max(1e-12);
        (sy + y / r, sz + z / r)
    });
    let rest_angle = sz.atan2(sy);
    let (radial, tangent) = (
        DVec3::new(0.0, rest_angle.cos(), rest_angle.sin()),
        DVec3::new(0.0, -rest_angle.sin(), rest_angle.cos()),
    );
    let (lo, hi) = knob
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let t = (**p - pivot_in_hold).dot(tangent);
            (lo.min(t), hi.max(t))
        });
    let knob_radius = 0.5 * (hi - lo);
    let outer = knob
        .iter()
        .map(|p| (**p - pivot_in_hold).dot(radial))
        .fold(f64::NEG_INFINITY, f64::max);
    let radius = outer - knob_radius;
    let (x0, x1) = knob
        .iter()
        .filter(|p| (***p - pivot_in_hold).dot(radial) >= radius + OUTER_HALF * knob_radius)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    if !(radius > 0.0 && x0.is_finite()) {
        return None;
    }
    // The arm: what lies in the sector's band short of the knob. The knob stands out of it
    // toward the hand (away from the arm's middle); the arm's face on that side may stand out
    // of the knob's base.
    let band = (
        KNOB_REACH * max_reach,
        radius - (1.0 + ARM_MARGIN) * knob_radius,
    );
    let in_band = |p: &DVec3| {
        let (turn, r) = turn_and_reach(*p, pivot_in_hold, far_angle);
        turn.abs() <= KNOB_SECTOR && r >= band.0 - 1e-9 && r <= band.1 + 1e-9
    };
    let crossings = triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .filter_map(|(i, j)| {
            Some((
                points_in_hold.get(i as usize)?,
                points_in_hold.get(j as usize)?,
            ))
        })
        .flat_map(|(a, b)| {
            [band.0, band.1]
                .into_iter()
                .flat_map(move |r| edge_crossings(*a, *b, pivot_in_hold, r))
        });
    let arm: Vec<f64> = points_in_hold
        .iter()
        .copied()
        .chain(crossings)
        .filter(in_band)
        .map(|p| p.x)
        .collect();
    let arm_proud = if arm.is_empty() {
        0.0
    } else {
        let middle = arm.iter().sum::<f64>() / arm.len() as f64;
        let proud = if 0.5 * (x0 + x1) >= middle {
            arm.iter().copied().fold(f64::NEG_INFINITY, f64::max) - x0
        } else {
            x1 - arm.iter().copied().fold(f64::INFINITY, f64::min)
        };
        proud.clamp(0.0, x1 - x0)
    };
    // A second knob half a turn round: vertices opposite as far out as this knob's axis.
    let opposite_knob = points_in_hold.iter().any(|p| {
        let (turn, r) = turn_and_reach(*p, pivot_in_hold, far_angle + PI);
        r >= radius && turn.abs() <= KNOB_SECTOR
    });
    Some(CrankFit {
        crank: ReelCrank {
            centre_in_hold: DVec3::new(0.5 * (x0 + x1), pivot_in_hold.y, pivot_in_hold.z),
            radius,
            knob_radius,
            knob_length: x1 - x0,
            arm_proud,
            opposite_knob,
        },
        rest_angle,
    })
}

/// Where the segment from `a` to `b` is `r` from the X axis through `pivot` (0, 1 or 2
/// points; none for a segment along the axis).
fn edge_crossings(a: DVec3, b: DVec3, pivot: DVec3, r: f64) -> impl Iterator<Item = DVec3> {
    let (d, e) = (a - pivot, b - a);
    let qa = e.y * e.y + e.z * e.z;
    let qb = d.y * e.y + d.z * e.z;
    let qc = d.y * d.y + d.z * d.z - r * r;
    let disc = qb * qb - qa * qc;
    let roots = if qa > 1e-18 && disc >= 0.0 {
        let s = disc.sqrt();
        [Some((-qb - s) / qa), Some((-qb + s) / qa)]
    } else {
        [None, None]
    };
    roots
        .into_iter()
        .flatten()
        .filter(|t| (0.0..=1.0).contains(t))
        .map(move |t| a + e * t)
}

/// The vertices of `points` within [`KNOB_SECTOR`] of the direction `angle` (hold space,
/// across the X axis through `pivot`) and beyond [`KNOB_REACH`] of `max_reach` from it.
fn in_knob_sector(
    points: &[DVec3],
    pivot: DVec3,
    angle: f64,
    max_reach: f64,
) -> impl Iterator<Item = &DVec3> {
    points.iter().filter(move |p| {
        let (turn, r) = turn_and_reach(**p, pivot, angle);
        r >= KNOB_REACH * max_reach && turn.abs() <= KNOB_SECTOR
    })
}

/// Where `p` lies across the X axis through `pivot` (hold space): its turn from the
/// direction `angle` about the axis (radians, in −π..π) and its distance from the axis.
fn turn_and_reach(p: DVec3, pivot: DVec3, angle: f64) -> (f64, f64) {
    let d = p - pivot;
    let turn = (d.z.atan2(d.y) - angle + PI).rem_euclid(2.0 * PI) - PI;
    (turn, d.y.hypot(d.z))
}

/// The rigid motion (hold space) that carries a crank modelled with its knob at `rest_angle`,
/// turning about the hold X axis through `pivot_in_hold`, to the session's `crank` angle: a
/// turn about that axis by `crank − rest_angle`.
///
/// `mirrored`: a left-handed session cranks on the reel's other side, so the crank is drawn as
/// its mirror image across the blank (x → −x). A mirror is not a rigid motion; a crank is
/// symmetric across the plane of its arm (the axis and the knob's direction), so its mirror
/// image across x = 0 is the turned crank turned half a turn about the line where the two
/// planes meet (through `(0, pivot.y, pivot.z)`, along the knob's direction), which is.
pub fn crank_motion(pivot_in_hold: DVec3, rest_angle: f64, crank: f64, mirrored: bool) -> DAffine3 {
    let about = |point: DVec3, rotation: DQuat| {
        DAffine3::from_translation(point)
            * DAffine3::from_quat(rotation)
            * DAffine3::from_translation(-point)
    };
    let turned = about(pivot_in_hold, DQuat::from_rotation_x(crank - rest_angle));
    if !mirrored {
        return turned;
    }
    let knob_direction = DVec3::new(0.0, crank.cos(), crank.sin());
    let on_blank = DVec3::new(0.0, pivot_in_hold.y, pivot_in_hold.z);
    about(on_blank, DQuat::from_axis_angle(knob_direction, PI)) * turned
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crank as the bundled reel's is modelled: a stub along the axis, an arm out to the
    /// knob, and a knob (a tube along X) at `angle`, `r` from the axis, its middle at `x`.
    fn crank_points(pivot: DVec3, r: f64, angle: f64, x: f64, knob: f64, arm: f64) -> Vec<DVec3> {
        let dir = DVec3::new(0.0, angle.cos(), angle.sin());
        let side = DVec3::new(0.0, -angle.sin(), angle.cos());
        let ring = |centre: DVec3, u: DVec3, v: DVec3, radius: f64| {
            (0..12).map(move |k| {
                let t = f64::from(k) * PI / 6.0;
                centre + (u * t.cos() + v * t.sin()) * radius
            })
        };
        let mut points = Vec::new();
        // The stub along the axis, 8 mm beyond the knob's inner end.
        for s in [0.0, 0.008] {
            points.extend(ring(pivot + DVec3::X * (x + 0.009 + s), dir, side, 0.004));
        }
        // The arm from the axis to the knob's inner end.
        for s in 0..=4 {
            let c = pivot + DVec3::X * (x + 0.009) + dir * (r * f64::from(s) / 4.0);
            points.extend(ring(c, DVec3::X, side, arm));
        }
        // The knob: rings along X.
        for s in 0..=3 {
            let c = pivot + DVec3::X * (x - 0.009 + 0.006 * f64::from(s)) + dir * r;
            points.extend(ring(c, dir, side, knob));
        }
        points
    }

    #[test]
    fn the_knob_circle_of_a_modelled_crank_is_found() {
        let pivot = DVec3::new(-0.06, 0.41, -0.075);
        for angle in [0.0, 1.0, -PI / 2.0, 2.5] {
            let points = crank_points(pivot, 0.045, angle, -0.002, 0.0065, 0.003);
            let fit = fit_crank(&points, &[], pivot).unwrap();
            let turn = (fit.rest_angle - angle + PI).rem_euclid(2.0 * PI) - PI;
            assert!(turn.abs() < 1e-9, "angle {angle}: {fit:?}");
            assert!((fit.crank.radius - 0.045).abs() < 1e-9, "{fit:?}");
            assert!((fit.crank.knob_radius - 0.0065).abs() < 1e-9, "{fit:?}");
            assert!((fit.crank.knob_length - 0.018).abs() < 1e-9, "{fit:?}");
            let centre = pivot + DVec3::X * -0.002;
            assert!(fit.crank.centre_in_hold.distance(centre) < 1e-9, "{fit:?}");
            // The arm (3 mm thick about the knob's base) stands 3 mm out of it.
            assert!((fit.crank.arm_proud - 0.003).abs() < 1e-9, "{fit:?}");
            assert!(!fit.crank.opposite_knob, "{fit:?}");
        }
    }

    #[test]
    fn how_far_the_arm_stands_out_of_the_knobs_base_toward_the_hand() {
        let pivot = DVec3::new(0.05, 0.25, 0.04);
        // The knob toward −X (the hand) from the arm, or toward +X (the crank mirrored).
        for (mirror, arm, proud) in [
            (1.0, 0.003, 0.003),
            (1.0, 0.001, 0.001),
            (-1.0, 0.004, 0.004),
        ] {
            let points: Vec<DVec3> = crank_points(pivot, 0.045, 0.7, 0.0, 0.0075, arm)
                .into_iter()
                .map(|p| pivot + (p - pivot) * DVec3::new(mirror, 1.0, 1.0))
                .collect();
            let fit = fit_crank(&points, &[], pivot).unwrap();
            assert!(
                (fit.crank.arm_proud - proud).abs() < 1e-9,
                "{mirror} {arm}: {fit:?}"
            );
            let arm = fit.crank.arm();
            assert!((arm.face - (0.009 - proud)).abs() < 1e-9, "{arm:?}");
            assert_eq!(arm.opposite, None);
        }
    }

    /// A closed tube's side from `a` to `b` (radius `r`, 8 sides) into `points` and
    /// `triangles`: vertices at its two ends only.
    fn tube(points: &mut Vec<DVec3>, triangles: &mut Vec<[u32; 3]>, a: DVec3, b: DVec3, r: f64) {
        let axis = (b - a).normalize();
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let first = points.len() as u32;
        for end in [a, b] {
            for k in 0..8 {
                let t = f64::from(k) * PI / 4.0;
                points.push(end + (u * t.cos() + v * t.sin()) * r);
            }
        }
        for k in 0..8 {
            let (i, j) = (first + k, first + (k + 1) % 8);
            triangles.push([i, j, j + 8]);
            triangles.push([i, j + 8, i + 8]);
        }
    }

    #[test]
    fn a_bar_modelled_as_one_tube_is_found_by_its_edges() {
        // A baitcaster's bar (3 mm thick, through the axis) with a knob at each end, standing
        // 16 mm out of it toward +X: the bar's vertices are all inside the knobs.
        let pivot = DVec3::new(0.05, 0.25, 0.04);
        let (mut points, mut triangles) = (Vec::new(), Vec::new());
        let bar = pivot + DVec3::X * 0.008;
        tube(
            &mut points,
            &mut triangles,
            bar - DVec3::Y * 0.035,
            bar + DVec3::Y * 0.035,
            0.003,
        );
        for s in [-1.0, 1.0] {
            let knob = bar + DVec3::Y * 0.035 * s;
            tube(
                &mut points,
                &mut triangles,
                knob,
                knob + DVec3::X * 0.016,
                0.0075,
            );
        }
        let fit = fit_crank(&points, &triangles, pivot).unwrap();
        assert!((fit.crank.knob_length - 0.016).abs() < 1e-9, "{fit:?}");
        assert!((fit.crank.arm_proud - 0.003).abs() < 1e-9, "{fit:?}");
        assert!(fit.crank.opposite_knob, "{fit:?}");
        // Without the edges nothing lies short of the knob: the base, as before.
        let fit = fit_crank(&points, &[], pivot).unwrap();
        assert_eq!(fit.crank.arm_proud, 0.0, "{fit:?}");
    }

    #[test]
    fn of_a_bars_two_knobs_the_one_toward_the_tip_is_taken() {
        let pivot = DVec3::new(0.05, 0.25, 0.04);
        let mut points = crank_points(pivot, 0.035, 0.0, 0.0, 0.0075, 0.003);
        points.extend(crank_points(pivot, 0.035, PI, 0.0, 0.0075, 0.003));
        let fit = fit_crank(&points, &[], pivot).unwrap();
        assert!(fit.rest_angle.abs() < 1e-9, "{fit:?}");
        assert!((fit.crank.radius - 0.035).abs() < 1e-9, "{fit:?}");
        assert!(fit.crank.opposite_knob, "{fit:?}");
        let (at, radius, half) = fit.crank.arm().opposite.unwrap();
        assert!(
            (at - 0.07).abs() < 1e-9 && (radius - 0.0075).abs() < 1e-9,
            "{at} {radius}"
        );
        assert!((half - 0.009).abs() < 1e-9, "{half}");
    }

    #[test]
    fn nothing_off_the_axis_or_not_finite_is_no_crank() {
        let pivot = DVec3::ZERO;
        assert_eq!(
            fit_crank(&[DVec3::X, DVec3::new(0.1, 1e-4, 0.0)], &[], pivot),
            None
        );
        assert_eq!(fit_crank(&[], &[], pivot), None);
        assert_eq!(
            fit_crank(&[DVec3::new(0.0, f64::NAN, 0.1)], &[], pivot),
            None
        );
    }

    #[test]
    fn the_knob_goes_to_the_crank_angle_and_its_mirror_image_across_the_blank() {
        let pivot = DVec3::new(-0.06, 0.41, -0.075);
        let (r, rest, x) = (0.045, -1.2, -0.002);
        let knob_at = |a: f64| pivot + DVec3::new(x, r * a.cos(), r * a.sin());
        // A point on the knob's outer side and one on its front end.
        let outer = |a: f64| knob_at(a) + DVec3::new(0.0, a.cos(), a.sin()) * 0.0065;
        let end = |a: f64| knob_at(a) + DVec3::X * -0.009;
        for crank in [0.0, 0.7, 2.0, 4.0 * PI + 0.3] {
            let m = crank_motion(pivot, rest, crank, false);
            for (p, q) in [(knob_at(rest), knob_at(crank)), (outer(rest), outer(crank))] {
                assert!(m.transform_point3(p).distance(q) < 1e-12, "crank {crank}");
            }
            assert!(m.transform_point3(end(rest)).distance(end(crank)) < 1e-12);
            let mirror = |p: DVec3| DVec3::new(-p.x, p.y, p.z);
            let m = crank_motion(pivot, rest, crank, true);
            // Points in the plane of the arm go to their mirror images; the motion is proper.
            for (p, q) in [(knob_at(rest), knob_at(crank)), (end(rest), end(crank))] {
                assert!(
                    m.transform_point3(p).distance(mirror(q)) < 1e-12,
                    "crank {crank}"
                );
            }
            assert!((m.matrix3.determinant() - 1.0).abs() < 1e-12);
        }
    }
}
