#![allow(dead_code)]
//! The rod as a solid (issue 33): its mesh's triangles in world space, the way the posed
//! stage places it, and for any point whether it is inside the rod's surface (reel, trigger
//! and seat included, not only the handle's radius profile) and how deep. Inside is the
//! generalized winding number (the solid angle the triangles subtend, over 4π) of at least
//! a half, so closed parts that overlap (a reel's body on its foot) count once and a part
//! modelled without caps still counts where it is closed around the point. Nothing here uses
//! the project's geometry code beyond where the stage puts the rod.

use anglerpose::stage::Stage;
use glam::{DVec3, Vec3};

/// The rod's triangles, world space.
pub struct Solid {
    pub triangles: Vec<[DVec3; 3]>,
    /// World space to the rod's canonical frame (butt at the origin, blank +Y, metres).
    pub rod_from_world: glam::DAffine3,
}

/// The rod of `stage` at its current pose.
pub fn rod_solid(stage: &Stage) -> Solid {
    let frames = &stage.evaluation().expect("posed").frames;
    let world_from_rod = stage.world_from_actor.to_affine() * frames.actor_from_rod.to_affine();
    let rod = &stage.props.rod;
    // Its crank turned as the session has it (drawn and exported so).
    let rest = stage.props.rod_pose(frames);
    let mut triangles = Vec::new();
    for mesh in &rod.meshes {
        let m = world_from_rod * rest.world_from_bone(mesh.node);
        for prim in &mesh.primitives {
            let at = |i: u32| {
                prim.positions
                    .get(i as usize)
                    .map(|p| m.transform_point3(Vec3::from(*p).as_dvec3()))
            };
            for t in prim.indices.chunks_exact(3) {
                if let (Some(a), Some(b), Some(c)) = (at(t[0]), at(t[1]), at(t[2])) {
                    triangles.push([a, b, c]);
                }
            }
        }
    }
    Solid {
        triangles,
        rod_from_world: world_from_rod.inverse(),
    }
}

impl Solid {
    /// Only the triangles within `margin` of the box around `points`.
    pub fn near(&self, points: &[DVec3], margin: f64) -> Solid {
        let lo = points.iter().copied().fold(DVec3::INFINITY, DVec3::min) - DVec3::splat(margin);
        let hi =
            points.iter().copied().fold(DVec3::NEG_INFINITY, DVec3::max) + DVec3::splat(margin);
        Solid {
            triangles: self
                .triangles
                .iter()
                .filter(|t| {
                    let tlo = t[0].min(t[1]).min(t[2]);
                    let thi = t[0].max(t[1]).max(t[2]);
                    tlo.cmple(hi).all() && thi.cmpge(lo).all()
                })
                .copied()
                .collect(),
            rod_from_world: self.rod_from_world,
        }
    }

    /// The generalized winding number of the surface about `p` (±1 inside a closed part, 0
    /// outside; its sign follows the triangles' winding).
    pub fn winding(&self, p: DVec3) -> f64 {
        let mut sum = 0.0;
        for t in &self.triangles {
            let (a, b, c) = (t[0] - p, t[1] - p, t[2] - p);
            let (la, lb, lc) = (a.length(), b.length(), c.length());
            let num = a.dot(b.cross(c));
            let den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
            sum += 2.0 * num.atan2(den);
        }
        sum / (4.0 * std::f64::consts::PI)
    }

    /// How deep `p` is inside (its distance to the surface), or `None` outside.
    pub fn depth(&self, p: DVec3) -> Option<f64> {
        if self.winding(p).abs() < 0.5 {
            return None;
        }
        Some(
            self.triangles
                .iter()
                .map(|t| (closest_on_triangle(p, t[0], t[1], t[2]) - p).length())
                .fold(f64::INFINITY, f64::min),
        )
    }
}

impl Solid {
    /// Only the triangles `keep` keeps.
    pub fn only(&self, keep: impl Fn(&[DVec3; 3]) -> bool) -> Solid {
        Solid {
            triangles: self.triangles.iter().filter(|t| keep(t)).copied().collect(),
            rod_from_world: self.rod_from_world,
        }
    }

    /// Distance of `p` from the nearest triangle.
    pub fn distance(&self, p: DVec3) -> f64 {
        self.triangles
            .iter()
            .map(|t| (closest_on_triangle(p, t[0], t[1], t[2]) - p).length())
            .fold(f64::INFINITY, f64::min)
    }

    /// Signed distance of `p` from the surface: positive outside, negative inside (see
    /// [`Solid::depth`]).
    pub fn signed_distance(&self, p: DVec3) -> f64 {
        let d = self.distance(p);
        if self.winding(p).abs() >= 0.5 { -d } else { d }
    }
}

/// The point of triangle (`a`, `b`, `c`) nearest `p` (Ericson, Real-Time Collision
/// Detection, 5.1.5).
fn closest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    a + ab * v + ac * w
}
