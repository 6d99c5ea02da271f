//! A spinning reel's body (issue 33): the gearbox under the stem, with the rotor and spool
//! in front of it along the blank. A hand whose fingers straddle the stem never meets it (the
//! stem keeps it a finger's length below the handle); a hand that cannot straddle the stem (a
//! mitten) rests behind the stem and the body instead (see
//! `hand_contact::GripStyle::for_hand`), against the gearbox's back, which bulges behind the
//! stem. Found from the rod's points in rod space (butt at the origin, blank along +Y, reel
//! toward −Z, metres), below a stem already found. Pure: points in, a capsule out.

use super::gear::ReelBody;
use super::reel_stem::ReelStem;
use glam::DVec3;

/// The body of the spinning reel hanging on `stem` among `points_in_rod`, as a capsule along
/// the blank round all of it (hold space, which for a reel below the blank is rod space).
///
/// Its points are those deeper than where the stem meets the body, no deeper than
/// `reel_depth` (from the blank's axis), within `reel_depth` of the stem along the blank and
/// within `reel_width` of the stem's middle across it (the middle 80% of the reel's width:
/// its side plates stand out a little farther; a crank's knob farther still, which is not the
/// body: the rear hand holds it. A crank modelled as its own node is best left out of the
/// points). The capsule's axis runs along the blank through the middle of their depths, at
/// the stem's place across it; its radius is the farthest any of them lies from that line, and
/// its ends are as near each other as holds them all in its round ends. It holds every point
/// it was fitted to, so a hand clear of it is clear of the body (a little more than needed
/// round a square body's corners: the bundled gearbox's back rim stands 5 mm inside it).
///
/// `None` with fewer than 8 such points, or sizes that are not finite and positive.
pub fn find_spinning_body(
    points_in_rod: &[DVec3],
    stem: &ReelStem,
    reel_depth: f64,
    reel_width: f64,
) -> Option<ReelBody> {
    if !(reel_depth.is_finite() && reel_width.is_finite() && reel_depth > 0.0 && reel_width > 0.0) {
        return None;
    }
    let top = -stem.bottom_in_rod.z;
    let (x0, y0) = (stem.bottom_in_rod.x, stem.bottom_in_rod.y);
    let points: Vec<DVec3> = points_in_rod
        .iter()
        .copied()
        .filter(|p| {
            let depth = -p.z;
            depth >= top
                && depth <= reel_depth * (1.0 + 1e-9)
                && (p.y - y0).abs() <= reel_depth
                && (p.x - x0).abs() <= reel_width
        })
        .collect();
    if points.len() < MIN_POINTS {
        return None;
    }
    let (shallow, deep) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.min(-p.z), a.1.max(-p.z))
        });
    let z = -0.5 * (shallow + deep);
    let radius = points
        .iter()
        .map(|p| (p.x - x0).hypot(p.z - z))
        .fold(0.0, f64::max);
    if !(radius.is_finite() && radius > 0.0) {
        return None;
    }
    // The tightest ends for that radius: each point is inside while the axis reaches to
    // within √(r² − ρ²) of it along the blank (ρ: its distance from the axis's line).
    let reach = |p: &DVec3| {
        let rho = (p.x - x0).hypot(p.z - z);
        (radius * radius - rho * rho).max(0.0).sqrt()
    };
    let (start, end) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.min(p.y + reach(p)), a.1.max(p.y - reach(p)))
        });
    // A body shorter than that is a sphere round its middle, holding every point.
    let (start, end, radius) = if start <= end {
        (start, end, radius)
    } else {
        let mid = DVec3::new(x0, 0.5 * (start + end), z);
        let r = points
            .iter()
            .map(|p| (*p - mid).length())
            .fold(0.0, f64::max);
        (mid.y, mid.y, r)
    };
    Some(ReelBody {
        start_in_hold: DVec3::new(x0, start, z),
        end_in_hold: DVec3::new(x0, end, z),
        radius,
    })
}

/// Fewer points than this below the stem are not a body.
const MIN_POINTS: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// Rings of a tube along `axis` from `a` to `b`, radius `r`.
    fn tube(a: DVec3, b: DVec3, r: f64) -> Vec<DVec3> {
        let d = (b - a).normalize();
        let u = d.any_orthonormal_vector();
        let v = d.cross(u);
        let mut out = Vec::new();
        for i in 0..=4 {
            let c = a.lerp(b, f64::from(i) / 4.0);
            for k in 0..16 {
                let t = std::f64::consts::TAU * f64::from(k) / 16.0;
                out.push(c + r * (t.cos() * u + t.sin() * v));
            }
        }
        out
    }

    fn stem() -> ReelStem {
        ReelStem {
            top_in_rod: DVec3::new(0.0, 0.397, -0.012),
            bottom_in_rod: DVec3::new(0.0, 0.394, -0.055),
            radius: 0.0065,
        }
    }

    fn holds(b: &ReelBody, p: DVec3) -> bool {
        let (a, e) = (b.start_in_hold, b.end_in_hold);
        let t = ((p - a).dot(e - a) / (e - a).length_squared().max(1e-300)).clamp(0.0, 1.0);
        (p - a.lerp(e, t)).length() <= b.radius + 1e-9
    }

    #[test]
    fn the_capsule_holds_the_body_and_spool_but_not_the_crank_or_stem() {
        // A round gearbox across the blank, a spool along it toward the tip, a crank's arm
        // and knob out to one side, and the stem above.
        let body = DVec3::new(0.0, 0.392, -0.082);
        let gearbox = tube(body - DVec3::X * 0.018, body + DVec3::X * 0.018, 0.027);
        let spool = tube(body + DVec3::Y * 0.014, body + DVec3::Y * 0.088, 0.022);
        let mut points = gearbox.clone();
        points.extend(&spool);
        points.extend(tube(
            DVec3::new(-0.03, 0.4, -0.08),
            DVec3::new(-0.06, 0.4, -0.03),
            0.003,
        ));
        points.extend(tube(stem().top_in_rod, stem().bottom_in_rod, 0.006));
        let b = find_spinning_body(&points, &stem(), 0.109, 0.03).unwrap();
        assert!(gearbox.iter().chain(&spool).all(|p| holds(&b, *p)), "{b:?}");
        // Along the blank, at the stem's place across it.
        assert!(b.start_in_hold.x.abs() < 1e-12 && b.end_in_hold.x.abs() < 1e-12);
        assert!((b.start_in_hold.z - b.end_in_hold.z).abs() < 1e-12);
        // The tightest round end of this radius round the gearbox's back rim is centred on
        // the gearbox's middle, and reaches behind the rim.
        assert!((b.start_in_hold.y - 0.392).abs() < 1e-3, "{b:?}");
        assert!(b.start_in_hold.y - b.radius <= 0.392 - 0.027, "{b:?}");
        // Snug: about as thick as the gearbox's corners (hypot(18, 27) mm).
        assert!(b.radius < 0.036, "{b:?}");
        // The crank's knob out to the side is not the body.
        assert!(!holds(&b, DVec3::new(-0.06, 0.4, -0.03)));
    }

    #[test]
    fn too_few_points_or_bad_sizes_find_nothing() {
        let disk = tube(
            DVec3::new(-0.01, 0.39, -0.08),
            DVec3::new(0.01, 0.39, -0.08),
            0.02,
        );
        assert!(find_spinning_body(&disk[..4], &stem(), 0.109, 0.03).is_none());
        assert!(find_spinning_body(&disk, &stem(), f64::NAN, 0.03).is_none());
        assert!(find_spinning_body(&disk, &stem(), 0.109, 0.0).is_none());
        // A short body (a disk across the blank): a sphere round all of it.
        let b = find_spinning_body(&disk, &stem(), 0.109, 0.03).unwrap();
        assert!((b.start_in_hold - b.end_in_hold).length() < 1e-9, "{b:?}");
        assert!(disk.iter().all(|p| holds(&b, *p)), "{b:?}");
    }
}
