//! Signed distance primitives and a part-structured field.
//!
//! A [`Field`] is a list of [`Part`]s; each part is a smooth union of [`Shape`]s. Parts are
//! joined by plain `min()` except for the explicitly listed neighbour pairs, which get a smooth
//! union. So an arm can blend into its shoulder without ever melting into a thigh it happens to
//! touch. All maths is `f64`; distances are in metres (negative inside).

use glam::{DMat3, DVec3};

/// Polynomial smooth minimum with blend radius `k` (`k <= 0` is a plain `min`).
pub fn smin(a: f64, b: f64, k: f64) -> f64 {
    if k <= 0.0 {
        return a.min(b);
    }
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k * 0.25
}

/// One solid. Exact distances except [`Shape::Ellipsoid`] (a good bound near its surface).
#[derive(Clone, Debug)]
pub enum Shape {
    /// Round cone ("tapered capsule") from `a` (radius `ra`) to `b` (radius `rb`).
    RoundCone {
        a: DVec3,
        b: DVec3,
        ra: f64,
        rb: f64,
    },
    /// Ellipsoid with centre, orthonormal axes (columns of `axes`) and radii along them.
    Ellipsoid {
        centre: DVec3,
        axes: DMat3,
        radii: DVec3,
    },
    /// Rounded box: centre, orthonormal axes, half extents (inner box) and rounding radius.
    RoundBox {
        centre: DVec3,
        axes: DMat3,
        half: DVec3,
        round: f64,
    },
    /// `inner` cut away by the half space `dot(p - point, normal) > 0`.
    Cut {
        inner: Box<Shape>,
        point: DVec3,
        normal: DVec3,
    },
}

impl Shape {
    pub fn round_cone(a: DVec3, b: DVec3, ra: f64, rb: f64) -> Self {
        Shape::RoundCone { a, b, ra, rb }
    }

    pub fn capsule(a: DVec3, b: DVec3, r: f64) -> Self {
        Shape::RoundCone { a, b, ra: r, rb: r }
    }

    pub fn sphere(centre: DVec3, r: f64) -> Self {
        Shape::RoundCone {
            a: centre,
            b: centre,
            ra: r,
            rb: r,
        }
    }

    /// Axis-aligned ellipsoid.
    pub fn ellipsoid(centre: DVec3, radii: DVec3) -> Self {
        Shape::Ellipsoid {
            centre,
            axes: DMat3::IDENTITY,
            radii,
        }
    }

    /// Keeps only the part of `self` on the side of the plane opposite to `normal`.
    pub fn cut(self, point: DVec3, normal: DVec3) -> Self {
        Shape::Cut {
            inner: Box::new(self),
            point,
            normal: normal.normalize_or(DVec3::Y),
        }
    }

    /// Signed distance from `p`.
    pub fn distance(&self, p: DVec3) -> f64 {
        match self {
            Shape::RoundCone { a, b, ra, rb } => round_cone(p, *a, *b, *ra, *rb),
            Shape::Ellipsoid {
                centre,
                axes,
                radii,
            } => ellipsoid(axes.transpose() * (p - *centre), *radii),
            Shape::RoundBox {
                centre,
                axes,
                half,
                round,
            } => {
                let q = (axes.transpose() * (p - *centre)).abs() - *half;
                q.max(DVec3::ZERO).length() + q.max_element().min(0.0) - round
            }
            Shape::Cut {
                inner,
                point,
                normal,
            } => inner.distance(p).max((p - *point).dot(*normal)),
        }
    }

    /// Axis-aligned bounds `(min, max)` (conservative).
    pub fn bounds(&self) -> (DVec3, DVec3) {
        match self {
            Shape::RoundCone { a, b, ra, rb } => {
                let r = DVec3::splat(ra.max(*rb));
                (a.min(*b) - r, a.max(*b) + r)
            }
            Shape::Ellipsoid { centre, radii, .. } => {
                let r = DVec3::splat(radii.max_element());
                (*centre - r, *centre + r)
            }
            Shape::RoundBox {
                centre,
                half,
                round,
                ..
            } => {
                let r = DVec3::splat(half.length() + round);
                (*centre - r, *centre + r)
            }
            Shape::Cut { inner, .. } => inner.bounds(),
        }
    }
}

/// Exact round-cone distance (Inigo Quilez). Degenerate `a == b` becomes a sphere of the
/// larger radius; a cone whose one sphere swallows the other becomes that sphere.
fn round_cone(p: DVec3, a: DVec3, b: DVec3, r1: f64, r2: f64) -> f64 {
    let ba = b - a;
    let l2 = ba.length_squared();
    if l2 < 1e-18 {
        return (p - a).length() - r1.max(r2);
    }
    let rr = r1 - r2;
    let a2 = l2 - rr * rr;
    if a2 <= 1e-18 {
        // One sphere contains the other.
        return if r1 > r2 {
            (p - a).length() - r1
        } else {
            (p - b).length() - r2
        };
    }
    let il2 = 1.0 / l2;
    let pa = p - a;
    let y = pa.dot(ba);
    let z = y - l2;
    let x2 = (pa * l2 - ba * y).length_squared();
    let y2 = y * y * l2;
    let z2 = z * z * l2;
    let k = rr.signum() * rr * rr * x2;
    if z.signum() * a2 * z2 > k {
        return (x2 + z2).sqrt() * il2 - r2;
    }
    if y.signum() * a2 * y2 < k {
        return (x2 + y2).sqrt() * il2 - r1;
    }
    ((x2 * a2 * il2).sqrt() + y * rr) * il2 - r1
}

/// Ellipsoid distance bound (Quilez' "improved" approximation); exact on the surface.
fn ellipsoid(p: DVec3, r: DVec3) -> f64 {
    let k0 = (p / r).length();
    let k1 = (p / (r * r)).length();
    if k1 < 1e-12 {
        return -r.min_element();
    }
    k0 * (k0 - 1.0) / k1
}

/// A smooth union of shapes with one colour (linear RGB, 0..1).
#[derive(Clone, Debug)]
pub struct Part {
    pub name: &'static str,
    pub shapes: Vec<(Shape, [f32; 3])>,
    /// Blend radius between this part's own shapes.
    pub blend: f64,
    min: DVec3,
    max: DVec3,
}

impl Part {
    pub fn new(name: &'static str, blend: f64) -> Self {
        Self {
            name,
            shapes: Vec::new(),
            blend,
            min: DVec3::INFINITY,
            max: DVec3::NEG_INFINITY,
        }
    }

    /// Adds a shape with its colour.
    pub fn with(mut self, shape: Shape, colour: [f32; 3]) -> Self {
        self.push(shape, colour);
        self
    }

    pub fn push(&mut self, shape: Shape, colour: [f32; 3]) {
        let (lo, hi) = shape.bounds();
        self.min = self.min.min(lo);
        self.max = self.max.max(hi);
        self.shapes.push((shape, colour));
    }

    /// Distance from the part's bounding box (0 inside).
    fn box_distance(&self, p: DVec3) -> f64 {
        (self.min - p).max(p - self.max).max(DVec3::ZERO).length()
    }

    fn distance(&self, p: DVec3) -> f64 {
        let mut d = f64::INFINITY;
        for (shape, _) in &self.shapes {
            d = smin(d, shape.distance(p), self.blend);
        }
        d
    }
}

/// Parts plus the neighbour pairs that blend smoothly. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct Field {
    pub parts: Vec<Part>,
    /// `(part a, part b, blend radius)`, indices into `parts`.
    pub joins: Vec<(usize, usize, f64)>,
    /// Distance beyond which a part's bounding box alone stands in for its distance.
    pub cull: f64,
    /// Colour-only shapes (eyes, hair): surface points inside one take its colour.
    pub paints: Vec<(Shape, [f32; 3])>,
}

impl Field {
    pub fn new(cull: f64) -> Self {
        Self {
            parts: Vec::new(),
            joins: Vec::new(),
            cull,
            paints: Vec::new(),
        }
    }

    /// Adds a part and returns its index.
    pub fn add(&mut self, part: Part) -> usize {
        self.parts.push(part);
        self.parts.len() - 1
    }

    /// Smoothly joins parts `a` and `b` with blend radius `k`.
    pub fn join(&mut self, a: usize, b: usize, k: f64) {
        self.joins.push((a, b, k));
    }

    /// Per-part distances at `p` (far parts report their bounding-box distance).
    fn part_distances(&self, p: DVec3, out: &mut Vec<f64>) {
        out.clear();
        for part in &self.parts {
            let bd = part.box_distance(p);
            out.push(if bd > self.cull { bd } else { part.distance(p) });
        }
    }

    /// Signed distance of the whole field at `p`. `scratch` avoids an allocation per call.
    pub fn distance_with(&self, p: DVec3, scratch: &mut Vec<f64>) -> f64 {
        self.part_distances(p, scratch);
        let mut d = scratch.iter().copied().fold(f64::INFINITY, f64::min);
        for &(a, b, k) in &self.joins {
            d = d.min(smin(scratch[a], scratch[b], k));
        }
        d
    }

    pub fn distance(&self, p: DVec3) -> f64 {
        self.distance_with(p, &mut Vec::new())
    }

    /// Unit gradient at `p` by central differences (step `h`); `+Y` if degenerate.
    pub fn normal(&self, p: DVec3, h: f64) -> DVec3 {
        let mut s = Vec::new();
        let mut g = DVec3::ZERO;
        for axis in 0..3 {
            let mut e = DVec3::ZERO;
            e[axis] = h;
            g[axis] = self.distance_with(p + e, &mut s) - self.distance_with(p - e, &mut s);
        }
        g.normalize_or(DVec3::Y)
    }

    /// Colour at a surface point: the shapes' colours weighted by closeness, with softness
    /// `sigma` (metres). Shapes farther than a few `sigma` from the nearest one do not count.
    pub fn colour(&self, p: DVec3, sigma: f64) -> [f32; 3] {
        let mut best = f64::INFINITY;
        let mut dists = Vec::new();
        for part in &self.parts {
            if part.box_distance(p) > self.cull {
                continue;
            }
            for (shape, colour) in &part.shapes {
                let d = shape.distance(p);
                best = best.min(d);
                dists.push((d, *colour));
            }
        }
        let mut sum = [0.0f64; 3];
        let mut wsum = 0.0;
        for (d, c) in dists {
            let w = (-(d - best) / sigma.max(1e-9)).exp();
            for i in 0..3 {
                sum[i] += w * c[i] as f64;
            }
            wsum += w;
        }
        let mut c = if wsum > 0.0 {
            sum.map(|s| s / wsum)
        } else {
            [0.5; 3]
        };
        for (shape, paint) in &self.paints {
            let a = (0.5 - shape.distance(p) / sigma.max(1e-9)).clamp(0.0, 1.0);
            for i in 0..3 {
                c[i] += a * (paint[i] as f64 - c[i]);
            }
        }
        c.map(|v| v as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_cone_matches_capsule_and_sphere() {
        let c = Shape::capsule(DVec3::ZERO, DVec3::Y, 0.5);
        assert!((c.distance(DVec3::new(2.0, 0.5, 0.0)) - 1.5).abs() < 1e-12);
        assert!((c.distance(DVec3::new(0.0, 3.0, 0.0)) - 1.5).abs() < 1e-12);
        let s = Shape::sphere(DVec3::ONE, 0.25);
        assert!((s.distance(DVec3::new(1.0, 2.0, 1.0)) - 0.75).abs() < 1e-12);
        let t = Shape::round_cone(DVec3::ZERO, DVec3::Y, 0.2, 0.1);
        // On the side, halfway, roughly the mean radius away from the axis.
        assert!(t.distance(DVec3::new(0.15, 0.5, 0.0)).abs() < 0.01);
    }

    #[test]
    fn joins_only_blend_neighbours() {
        let mut f = Field::new(0.1);
        let a = f.add(Part::new("a", 0.0).with(Shape::sphere(DVec3::ZERO, 1.0), [1.0; 3]));
        let b = f.add(Part::new("b", 0.0).with(Shape::sphere(DVec3::X * 2.2, 1.0), [1.0; 3]));
        let p = DVec3::new(1.1, 0.0, 0.0);
        assert!(f.distance(p) > 0.0, "separate parts must not melt together");
        f.join(a, b, 0.5);
        assert!(f.distance(p) < 0.0, "joined parts blend");
    }
}
