//! The rod's guides (issue 34): the rings the line runs through from the reel to the tip,
//! found in any rod's mesh (canonical rod space: butt at the origin, blank +Y, metres), and
//! where the bend carries them.
//!
//! A guide is a ring standing off the blank on a stand: past the reel, the points that stand
//! well clear of the blank's surface near them, grouped where they lie along the blank. A
//! ring's centre is its far edge less its half-width across (the ring lies square to the
//! blank), so its stand and foot do not move it; a ring that is not clear of the blank (a
//! step in the blank's radius, a winding check) is not a guide.

use super::rod_bend::{BEND_JOINTS, RodBend};
use glam::DVec3;

/// One guide: where the line passes through it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RodGuide {
    /// The ring's centre, rod space (straight rod).
    pub centre_in_rod: DVec3,
    /// The ring's radius to its outer edge, metres.
    pub ring_radius: f64,
}

/// Guides start this far past the reel seat, metres (the reel and its crank reach less).
const PAST_SEAT: f64 = 0.15;

/// Bins along the blank where the blank's own radius is read, metres.
const BIN: f64 = 0.01;

/// A point is part of a guide when it stands this much further out than the blank's surface
/// near it (the least distance from the axis within two bins), and twice as far: metres.
const CLEAR: f64 = 0.0025;

/// Points of one guide lie within this of each other along the blank, metres; a guide has at
/// least [`MIN_POINTS`] points.
const GAP: f64 = 0.015;
const MIN_POINTS: usize = 8;

/// The smallest ring a line runs through, metres (a guide's foot or a binding is smaller).
const MIN_RING: f64 = 0.0015;

/// The guides of a rod whose mesh has `points_in_rod` (rod space), `length` metres long with
/// its reel seat `reel_seat` metres from the butt, butt first. Nothing is found on a rod
/// without guides (or one whose guides are part of the blank's surface). The tip-top ring is
/// the tip itself and is not listed.
pub fn find_guides(points_in_rod: &[DVec3], length: f64, reel_seat: f64) -> Vec<RodGuide> {
    if !(length.is_finite() && length > 0.0 && reel_seat.is_finite()) {
        return Vec::new();
    }
    let bins = (length / BIN).ceil() as usize + 1;
    let bin_of = |y: f64| ((y / BIN).floor().max(0.0) as usize).min(bins - 1);
    let radial = |p: &DVec3| p.x.hypot(p.z);
    let mut surface = vec![f64::INFINITY; bins];
    for p in points_in_rod.iter().filter(|p| p.is_finite()) {
        let b = bin_of(p.y);
        surface[b] = surface[b].min(radial(p));
    }
    let near_surface = |y: f64| {
        let b = bin_of(y);
        surface[b.saturating_sub(2)..=(b + 2).min(bins - 1)]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    };
    let from = reel_seat + PAST_SEAT;
    let to = length * 0.995;
    let mut standing: Vec<DVec3> = points_in_rod
        .iter()
        .filter(|p| p.is_finite() && p.y > from && p.y < to)
        .filter(|p| {
            let r = near_surface(p.y);
            radial(p) > (r + CLEAR).max(2.0 * r)
        })
        .copied()
        .collect();
    standing.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut guides = Vec::new();
    let mut start = 0;
    for k in 1..=standing.len() {
        if k == standing.len() || standing[k].y - standing[k - 1].y > GAP {
            // A ring stands clear of the blank (a step in the blank's or handle's radius
            // is round the axis, not beside it).
            if k - start >= MIN_POINTS
                && let Some(g) = ring(&standing[start..k])
                && g.ring_radius >= MIN_RING
                && g.centre_in_rod.x.hypot(g.centre_in_rod.z) - g.ring_radius
                    > near_surface(g.centre_in_rod.y)
            {
                guides.push(g);
            }
            start = k;
        }
    }
    guides
}

/// The ring of one guide's points: the side it stands on (their mean offset), its far edge
/// and half-width across; its place along the blank where it is widest across.
fn ring(points: &[DVec3]) -> Option<RodGuide> {
    let mean = points
        .iter()
        .map(|p| DVec3::new(p.x, 0.0, p.z))
        .sum::<DVec3>()
        / points.len() as f64;
    let out = mean.try_normalize()?;
    let across = DVec3::Y.cross(out);
    let far = points
        .iter()
        .map(|p| p.dot(out))
        .fold(f64::NEG_INFINITY, f64::max);
    let half = points
        .iter()
        .map(|p| p.dot(across).abs())
        .fold(0.0, f64::max);
    let mut wide: Vec<f64> = points
        .iter()
        .filter(|p| p.dot(across).abs() > 0.5 * half)
        .map(|p| p.y)
        .collect();
    if wide.is_empty() || half <= 0.0 {
        return None;
    }
    wide.sort_by(f64::total_cmp);
    let along = wide[wide.len() / 2];
    Some(RodGuide {
        centre_in_rod: out * (far - half) + DVec3::Y * along,
        ring_radius: half,
    })
}

impl RodGuide {
    /// The bend joint the guide's foot is bound to: the nearest along the blank (before the
    /// bend's start: the first, which does not move).
    pub fn joint(&self, bend: &RodBend) -> usize {
        let chain = &bend.chain;
        let k = ((self.centre_in_rod.y - chain.bend_start) / chain.piece()).round();
        if k.is_finite() {
            k.clamp(0.0, (BEND_JOINTS - 1) as f64) as usize
        } else {
            0
        }
    }

    /// Where `bend` carries the ring's centre, rod space: rigidly with its joint.
    pub fn bent_in_rod(&self, bend: &RodBend) -> DVec3 {
        bend.bent_from_rest[self.joint(bend)].transform_point3(self.centre_in_rod)
    }
}

/// The line's run along a rod (rod space, see [`find_guides`] and [`find_reel_exit`]): its
/// guides, butt first, and where the line leaves the reel.
pub fn find_line_run(
    points_in_rod: &[DVec3],
    length: f64,
    reel_seat: f64,
) -> (Vec<RodGuide>, Option<DVec3>) {
    let guides = find_guides(points_in_rod, length, reel_seat);
    let reel_exit = find_reel_exit(points_in_rod, reel_seat, &guides);
    (guides, reel_exit)
}

/// How far around the reel seat the reel is looked for, metres: behind it and ahead of it.
const REEL_BEHIND: f64 = 0.12;
const REEL_AHEAD: f64 = 0.15;

/// Reel points stand this much further out than the blank's surface near them, metres (its
/// foot and stem rise from the seat less far than its body).
const REEL_CLEAR: f64 = 0.015;

/// Where the line leaves the reel, rod space: the middle of the reel's front face (its points
/// within a centimetre of its foremost, on the guides' side of the blank) — a spinning reel's
/// spool lip, a baitcaster's level-wind. `None` without guides (the line then starts at the
/// tip) or without a reel on their side.
pub fn find_reel_exit(
    points_in_rod: &[DVec3],
    reel_seat: f64,
    guides: &[RodGuide],
) -> Option<DVec3> {
    let first = guides.first()?;
    let side = DVec3::new(first.centre_in_rod.x, 0.0, first.centre_in_rod.z).try_normalize()?;
    // The blank's surface near the seat: the least distance from the axis there.
    let seat_surface = points_in_rod
        .iter()
        .filter(|p| p.is_finite() && (p.y - reel_seat).abs() < 0.02)
        .map(|p| p.x.hypot(p.z))
        .fold(f64::INFINITY, f64::min);
    if !seat_surface.is_finite() {
        return None;
    }
    let reel: Vec<DVec3> = points_in_rod
        .iter()
        .filter(|p| {
            p.is_finite()
                && p.y > reel_seat - REEL_BEHIND
                && p.y < reel_seat + REEL_AHEAD
                && DVec3::new(p.x, 0.0, p.z).dot(side) > seat_surface + REEL_CLEAR
        })
        .copied()
        .collect();
    let front = reel.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
    let face: Vec<DVec3> = reel
        .iter()
        .filter(|p| p.y > front - 0.01)
        .copied()
        .collect();
    (!face.is_empty()).then(|| face.iter().sum::<DVec3>() / face.len() as f64)
}
