//! A spinning reel's stem (issue 33): the narrow leg between the reel's foot on the seat and
//! its body. Anglers hold a spinning rod with the stem between two fingers, so the front
//! hand's fingers must pass either side of it, not through it (the finger solve does not
//! use it yet: see CHANGELOG, session 29). Found from the rod's points
//! in rod space (butt at the origin, blank along +Y, reel toward −Z, metres), for any rod
//! whose reel hangs below the blank. Pure: points in, a stem out.

use super::prop_geometry::median;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A reel's stem as a capsule in rod (hold) space, metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReelStem {
    /// The middle of the stem where it leaves the seat's surface.
    pub top_in_rod: DVec3,
    /// The middle of the stem where it meets the reel's body.
    pub bottom_in_rod: DVec3,
    /// Half its thickness along the blank (what two fingers either side of it straddle).
    pub radius: f64,
}

impl ReelStem {
    /// The bundled `rod.glb`'s stem (see `assetgen::props`; `tests/reel_stem.rs` finds it
    /// there within a millimetre).
    pub const BUNDLED: Self = Self {
        top_in_rod: DVec3::new(0.0, 0.3971, -0.0118),
        bottom_in_rod: DVec3::new(0.0, 0.3937, -0.0491),
        radius: 0.0065,
    };
}

/// Depth bins between the seat's surface and the reel's far side.
const BINS: usize = 48;

/// The stem of the reel below the blank near `reel_seat` (metres from the butt), from
/// `points_in_rod`: the handle's radius there is `seat_radius` and the reel reaches
/// `reel_depth` from the blank's axis. Below the seat's surface the reel's cross-sections
/// along the blank are first its foot and the seat's hoods (long), then the stem (short),
/// then its body (long again): the stem is the run of depths, round the stem's length (the
/// median of the lengths under half the reel's median), whose length along the blank stays
/// within half again of it (plus 3 mm), allowing
/// depths without points inside the run (a coarse stem has rings only at its ends and a few
/// between; a depth's length counts the points within two bins of it). The stem's middle line
/// (it may lean along the blank) and its radius come from the points at the run's depths.
/// `None` when there are too few points below the seat, or the narrowest part is not a stem
/// (shorter than a tenth of the reel's depth, or thicker than half of it).
pub fn find_reel_stem(
    points_in_rod: &[DVec3],
    reel_seat: f64,
    seat_radius: f64,
    reel_depth: f64,
) -> Option<ReelStem> {
    if !(reel_seat.is_finite()
        && seat_radius.is_finite()
        && reel_depth.is_finite()
        && seat_radius > 0.0
        && reel_depth > 1.5 * seat_radius)
    {
        return None;
    }
    let near = reel_depth.max(0.05);
    let top = seat_radius * 1.05;
    let step = (reel_depth - top) / BINS as f64;
    let mut bins: Vec<Vec<DVec3>> = vec![Vec::new(); BINS];
    for p in points_in_rod {
        let depth = -p.z;
        if (p.y - reel_seat).abs() > near || depth < top || depth >= reel_depth {
            continue;
        }
        let k = ((depth - top) / step).floor() as usize;
        if let Some(bin) = bins.get_mut(k) {
            bin.push(*p);
        }
    }
    // Each depth's length along the blank, from the points within two bins of it (a ring
    // of a coarse mesh's tube spreads over neighbouring depths; a few points are only part of a
    // ring, and say nothing).
    let extents: Vec<Option<f64>> = (0..BINS)
        .map(|k| {
            let pool = bins[k.saturating_sub(POOL)..(k + POOL + 1).min(BINS)]
                .iter()
                .flatten();
            let (lo, hi, n) = pool.fold((f64::INFINITY, f64::NEG_INFINITY, 0), |(lo, hi, n), p| {
                (lo.min(p.y), hi.max(p.y), n + 1)
            });
            (n >= MIN_POINTS).then_some(hi - lo)
        })
        .collect();
    // The stem's length: the median of the depths under half the reel's median length
    // (a part of a ring near the stem's ends reads shorter than the stem).
    let known: Vec<f64> = extents.iter().flatten().copied().collect();
    let typical = median(known.clone());
    let short: Vec<f64> = known.into_iter().filter(|e| *e <= 0.5 * typical).collect();
    if short.is_empty() {
        return None;
    }
    let shortest = median(short);
    let narrowest = (0..BINS)
        .filter(|&k| extents[k].is_some())
        .min_by(|&a, &b| {
            let d = |k: usize| (extents[k].unwrap_or(f64::INFINITY) - shortest).abs();
            d(a).total_cmp(&d(b))
        })?;
    let limit = (1.5 * shortest).max(shortest + 0.003);
    let in_stem = |k: usize| extents[k].is_none_or(|e| e <= limit);
    let mut first = narrowest;
    while first > 0 && in_stem(first - 1) {
        first -= 1;
    }
    let mut last = narrowest;
    while last + 1 < BINS && in_stem(last + 1) {
        last += 1;
    }
    // Depths without points near them at either end of the run are not the stem.
    while first < narrowest && extents[first].is_none() {
        first += 1;
    }
    while last > narrowest && extents[last].is_none() {
        last -= 1;
    }
    // The stem's points: those in the run's own depths. Its middle line is their least
    // squares line (along the blank against depth: a stem may lean), its radius the farthest
    // any of them lies from that line along the blank.
    let points: Vec<DVec3> = bins[first..=last].iter().flatten().copied().collect();
    let length = (last + 1 - first) as f64 * step;
    if points.len() < 4 || length < 0.1 * reel_depth {
        return None;
    }
    let n = points.len() as f64;
    let (md, my) = points
        .iter()
        .fold((0.0, 0.0), |(d, y), p| (d - p.z / n, y + p.y / n));
    let (sdd, sdy) = points.iter().fold((0.0, 0.0), |(dd, dy), p| {
        let d = -p.z - md;
        (dd + d * d, dy + d * (p.y - my))
    });
    let lean = if sdd > 1e-12 { sdy / sdd } else { 0.0 };
    let y_at = |depth: f64| my + lean * (depth - md);
    let radius = points
        .iter()
        .map(|p| (p.y - y_at(-p.z)).abs())
        .fold(0.0, f64::max);
    if !(radius > 0.0 && 2.0 * radius <= 0.5 * reel_depth && lean.abs() < 1.0) {
        return None;
    }
    let x = median(points.iter().map(|p| p.x).collect());
    // Carried to the run's ends: the seat's surface above, the body's top below.
    let bottom = top + (last + 1) as f64 * step;
    Some(ReelStem {
        top_in_rod: DVec3::new(x, y_at(seat_radius), -seat_radius),
        bottom_in_rod: DVec3::new(x, y_at(bottom), -bottom),
        radius,
    })
}

/// Bins either side whose points count toward a depth's length along the blank.
const POOL: usize = 2;
/// Fewer points than this near a depth say nothing about its length (a part of a ring).
const MIN_POINTS: usize = 6;
