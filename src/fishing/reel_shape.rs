//! What the front hand meets on a rod's reel seat besides the handle (issue 33): a
//! baitcaster's reel body, as the circle of its side profile, and a casting rod's trigger
//! under the seat. Found from the rod's points in the terms of its canonical frame (along the
//! blank from the butt, toward the reel's side, across), in any consistent unit. Pure.

/// A point of the rod relative to its blank's axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisOffset {
    /// Along the blank from the butt.
    pub along: f64,
    /// Toward the side the reel is on (negative: the other side).
    pub toward: f64,
    /// Across the blank, perpendicular to both.
    pub across: f64,
}

/// A reel body's side profile (the plane through the blank and the reel) as a circle: what a
/// low-profile baitcasting reel is seen from its side, its spool the cylinder across the
/// blank that this circle is the section of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReelCircle {
    /// Centre, along the blank from the butt.
    pub along: f64,
    /// Centre, from the blank's axis toward the reel.
    pub height: f64,
    /// Radius.
    pub radius: f64,
}

impl ReelCircle {
    /// The same circle with lengths multiplied by `k` and `along` less `shift` (after the
    /// scaling).
    pub fn scaled(self, k: f64, shift: f64) -> Self {
        Self {
            along: self.along * k - shift,
            height: self.height * k,
            radius: self.radius * k,
        }
    }
}

/// Fits the reel's side profile to `reel` (the rod's points within the reel's span along the
/// blank): the points in the middle half of the reel's width (so a crank, knobs or side
/// plates beside the body do not count) and further toward the reel than 1.5 × the handle's
/// `seat_radius` (so the seat and the reel's foot do not), fitted by least squares (Kåsa's
/// algebraic fit; exact for points on a circle, and for an arc of one).
///
/// `None` with fewer than 12 such points, or when they are not round: their distance to the
/// fitted circle's rim scatters by more than 15% of its radius (root mean square), or its
/// centre is not on the reel's side of the axis.
pub fn fit_reel_circle(reel: &[AxisOffset], seat_radius: f64) -> Option<ReelCircle> {
    let mut across: Vec<f64> = reel.iter().map(|p| p.across).collect();
    if across.is_empty() {
        return None;
    }
    across.sort_by(f64::total_cmp);
    let q = |f: f64| across[((across.len() - 1) as f64 * f).round() as usize];
    let (mid, width) = (q(0.5), q(0.9) - q(0.1));
    let body: Vec<(f64, f64)> = reel
        .iter()
        .filter(|p| (p.across - mid).abs() <= 0.25 * width && p.toward > 1.5 * seat_radius)
        .map(|p| (p.along, p.toward))
        .collect();
    if body.len() < 12 {
        return None;
    }
    // Centred for conditioning.
    let n = body.len() as f64;
    let (cu, cv) = body
        .iter()
        .fold((0.0, 0.0), |(a, b), (u, v)| (a + u / n, b + v / n));
    let mut m = [[0.0f64; 3]; 3];
    let mut rhs = [0.0f64; 3];
    for &(u, v) in &body {
        let (u, v) = (u - cu, v - cv);
        let row = [u, v, 1.0];
        let w = u * u + v * v;
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += row[i] * row[j];
            }
            rhs[i] -= row[i] * w;
        }
    }
    let [d, e, f] = solve3(m, rhs)?;
    let (u0, v0) = (-0.5 * d, -0.5 * e);
    let r2 = u0 * u0 + v0 * v0 - f;
    if r2.is_nan() || r2 <= 0.0 {
        return None;
    }
    let radius = r2.sqrt();
    let rms = (body
        .iter()
        .map(|&(u, v)| {
            let d = ((u - cu - u0).powi(2) + (v - cv - v0).powi(2)).sqrt() - radius;
            d * d
        })
        .sum::<f64>()
        / n)
        .sqrt();
    let circle = ReelCircle {
        along: cu + u0,
        height: cv + v0,
        radius,
    };
    (rms <= 0.15 * radius && circle.height > 0.0 && circle.radius.is_finite()).then_some(circle)
}

/// Where a trigger sticks out under the reel seat: among `points`, those within `reach` of the
/// `seat` along the blank, on the side away from the reel and nearly opposite it (across
/// within the handle's radius there) and further out than 1.5 × the handle's radius there
/// (`radius_at(along)`; `None`: no handle measured there). Their median along the blank, when
/// there are at least 4.
pub fn find_trigger(
    points: &[AxisOffset],
    seat: f64,
    reach: f64,
    radius_at: impl Fn(f64) -> Option<f64>,
) -> Option<f64> {
    let mut found: Vec<f64> = points
        .iter()
        .filter(|p| {
            (p.along - seat).abs() <= reach
                && radius_at(p.along).is_some_and(|r| -p.toward > 1.5 * r && p.across.abs() < r)
        })
        .map(|p| p.along)
        .collect();
    if found.len() < 4 {
        return None;
    }
    found.sort_by(f64::total_cmp);
    Some(found[found.len() / 2])
}

/// Gaussian elimination with partial pivoting; `None` when singular.
fn solve3(mut m: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for c in 0..3 {
        let p = (c..3).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        b.swap(c, p);
        for r in c + 1..3 {
            let k = m[r][c] / m[c][c];
            let pivot = m[c];
            for (v, p) in m[r].iter_mut().zip(pivot).skip(c) {
                *v -= k * p;
            }
            b[r] -= k * b[c];
        }
    }
    let mut x = [0.0; 3];
    for c in (0..3).rev() {
        let s: f64 = (c + 1..3).map(|j| m[c][j] * x[j]).sum();
        x[c] = (b[c] - s) / m[c][c];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(along: f64, height: f64, radius: f64, across: f64, n: usize) -> Vec<AxisOffset> {
        (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                AxisOffset {
                    along: along + radius * a.cos(),
                    toward: height + radius * a.sin(),
                    across,
                }
            })
            .collect()
    }

    #[test]
    fn a_round_body_is_fitted_exactly_and_its_crank_and_foot_do_not_count() {
        let mut reel = Vec::new();
        for x in [-0.03, -0.01, 0.0, 0.01, 0.03] {
            reel.extend(ring(0.245, 0.033, 0.022, x, 24));
        }
        // A crank bar and knobs beside the body, a foot on the seat.
        reel.extend(ring(0.25, 0.03, 0.035, 0.045, 12));
        reel.extend((0..10).map(|i| AxisOffset {
            along: 0.22 + 0.006 * f64::from(i),
            toward: 0.011,
            across: 0.0,
        }));
        let c = fit_reel_circle(&reel, 0.009).unwrap();
        assert!((c.along - 0.245).abs() < 1e-9, "{c:?}");
        assert!((c.height - 0.033).abs() < 1e-9, "{c:?}");
        assert!((c.radius - 0.022).abs() < 1e-9, "{c:?}");
        // Only its upper arc (what reaches far from the blank) fits the same.
        let arc: Vec<AxisOffset> = reel.iter().copied().filter(|p| p.toward > 0.03).collect();
        let c = fit_reel_circle(&arc, 0.009).unwrap();
        assert!((c.radius - 0.022).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn a_body_that_is_not_round_or_is_missing_gives_none() {
        assert_eq!(fit_reel_circle(&[], 0.01), None);
        // Points on a line toward the reel.
        let line: Vec<AxisOffset> = (0..20)
            .map(|i| AxisOffset {
                along: 0.25,
                toward: 0.02 + 0.002 * f64::from(i),
                across: 0.0,
            })
            .collect();
        assert_eq!(fit_reel_circle(&line, 0.009), None);
    }

    #[test]
    fn a_trigger_opposite_the_reel_is_found_and_a_hood_round_the_seat_is_not() {
        let r = |_: f64| Some(0.009);
        let trigger: Vec<AxisOffset> = (0..8)
            .map(|i| AxisOffset {
                along: 0.24 - 0.002 * f64::from(i),
                toward: -0.012 - 0.003 * f64::from(i),
                across: 0.001,
            })
            .collect();
        let t = find_trigger(&trigger, 0.25, 0.05, r).unwrap();
        assert!((t - 0.232).abs() < 0.0021, "{t}");
        // Rings round the seat at the handle's radius, and the reel on its own side.
        let mut other: Vec<AxisOffset> = (0..16)
            .map(|i| {
                let a = std::f64::consts::TAU * f64::from(i) / 16.0;
                AxisOffset {
                    along: 0.25,
                    toward: 0.0105 * a.cos(),
                    across: 0.0105 * a.sin(),
                }
            })
            .collect();
        other.extend(ring(0.245, 0.033, 0.022, 0.0, 16));
        assert_eq!(find_trigger(&other, 0.25, 0.05, r), None);
        // Too far from the seat.
        assert_eq!(find_trigger(&trigger, 0.5, 0.05, r), None);
    }
}
