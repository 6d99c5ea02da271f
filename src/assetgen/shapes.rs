//! Explicit triangle primitives for the rigid props: tubes (tapered, optionally capped), tori
//! and boxes. All append to a [`TriMesh`] with counter-clockwise, outward-facing triangles.

use super::mesher::TriMesh;
use glam::{DMat3, DVec3};
use std::f64::consts::TAU;

/// Two unit vectors `(e1, e2)` perpendicular to `axis` with `e1 × e2 = axis`.
fn basis(axis: DVec3) -> (DVec3, DVec3) {
    let e1 = axis.any_orthonormal_vector();
    (e1, axis.cross(e1))
}

fn push(mesh: &mut TriMesh, p: DVec3, n: DVec3, c: [f32; 3]) -> u32 {
    mesh.positions.push(p);
    mesh.normals.push(n.normalize_or(DVec3::Y));
    mesh.colours.push(c);
    mesh.positions.len() as u32 - 1
}

/// A tapered tube from `a` (radius `ra`) to `b` (radius `rb`) with `sides` facets, closed with
/// flat caps when `caps`. Degenerate `a == b` adds nothing.
#[allow(clippy::too_many_arguments)]
pub fn tube(
    mesh: &mut TriMesh,
    a: DVec3,
    b: DVec3,
    ra: f64,
    rb: f64,
    sides: u32,
    colour: [f32; 3],
    caps: bool,
) {
    let len = (b - a).length();
    if len < 1e-9 || sides < 3 {
        return;
    }
    let axis = (b - a) / len;
    let (e1, e2) = basis(axis);
    let slope = (ra - rb) / len;
    let base = mesh.positions.len() as u32;
    for i in 0..sides {
        let t = TAU * i as f64 / sides as f64;
        let radial = e1 * t.cos() + e2 * t.sin();
        let n = radial + axis * slope;
        push(mesh, a + radial * ra, n, colour);
        push(mesh, b + radial * rb, n, colour);
    }
    for i in 0..sides {
        let j = (i + 1) % sides;
        let (a0, b0, a1, b1) = (
            base + 2 * i,
            base + 2 * i + 1,
            base + 2 * j,
            base + 2 * j + 1,
        );
        mesh.indices.extend_from_slice(&[a0, a1, b1, a0, b1, b0]);
    }
    if caps {
        for (centre, r, n) in [(a, ra, -axis), (b, rb, axis)] {
            let c = push(mesh, centre, n, colour);
            for i in 0..sides {
                let t = TAU * i as f64 / sides as f64;
                push(mesh, centre + (e1 * t.cos() + e2 * t.sin()) * r, n, colour);
            }
            for i in 0..sides {
                let (p, q) = (c + 1 + i, c + 1 + (i + 1) % sides);
                if n.dot(axis) > 0.0 {
                    mesh.indices.extend_from_slice(&[c, p, q]);
                } else {
                    mesh.indices.extend_from_slice(&[c, q, p]);
                }
            }
        }
    }
}

/// A lathed profile along `axis` from `origin`: `(distance along axis, radius)` pairs, capped
/// at both ends.
pub fn lathe(
    mesh: &mut TriMesh,
    origin: DVec3,
    axis: DVec3,
    profile: &[(f64, f64)],
    sides: u32,
    colour: [f32; 3],
) {
    let last = profile.len().saturating_sub(2);
    for (k, w) in profile.windows(2).enumerate() {
        let (a, b) = (origin + axis * w[0].0, origin + axis * w[1].0);
        let ends = k == 0 || k == last;
        tube(mesh, a, b, w[0].1, w[1].1, sides, colour, ends);
    }
}

/// A torus around `axis` through `centre`, major radius `big`, tube radius `small`.
#[allow(clippy::too_many_arguments)]
pub fn torus(
    mesh: &mut TriMesh,
    centre: DVec3,
    axis: DVec3,
    big: f64,
    small: f64,
    segments: u32,
    sides: u32,
    colour: [f32; 3],
) {
    let axis = axis.normalize_or(DVec3::Y);
    let (e1, e2) = basis(axis);
    let base = mesh.positions.len() as u32;
    for i in 0..segments {
        let u = TAU * i as f64 / segments as f64;
        let radial = e1 * u.cos() + e2 * u.sin();
        for k in 0..sides {
            let w = TAU * k as f64 / sides as f64;
            let n = radial * w.cos() + axis * w.sin();
            push(mesh, centre + radial * big + n * small, n, colour);
        }
    }
    for i in 0..segments {
        let i1 = (i + 1) % segments;
        for k in 0..sides {
            let k1 = (k + 1) % sides;
            let at = |s: u32, t: u32| base + s * sides + t;
            let (p00, p10, p11, p01) = (at(i, k), at(i1, k), at(i1, k1), at(i, k1));
            mesh.indices
                .extend_from_slice(&[p00, p10, p11, p00, p11, p01]);
        }
    }
}

/// A box with `half` extents along the columns of `axes` (orthonormal, right-handed).
pub fn cuboid(mesh: &mut TriMesh, centre: DVec3, axes: DMat3, half: DVec3, colour: [f32; 3]) {
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let n = axes.col(axis) * sign;
            let u = axes.col((axis + 1) % 3) * half[(axis + 1) % 3];
            let v = axes.col((axis + 2) % 3) * half[(axis + 2) % 3];
            let c = centre + n * half[axis];
            let base = mesh.positions.len() as u32;
            for (s, t) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                push(mesh, c + u * s + v * t, n, colour);
            }
            // u × v = n for the + face; flip for the − face.
            if sign > 0.0 {
                mesh.indices.extend_from_slice(&[
                    base,
                    base + 1,
                    base + 2,
                    base,
                    base + 2,
                    base + 3,
                ]);
            } else {
                mesh.indices.extend_from_slice(&[
                    base,
                    base + 2,
                    base + 1,
                    base,
                    base + 3,
                    base + 2,
                ]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sum over triangles of (face normal · vertex normal) must be positive for each shape.
    fn outward(mesh: &TriMesh) -> bool {
        mesh.indices.chunks_exact(3).all(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.positions[i as usize]);
            let face = (b - a).cross(c - a);
            face.dot(mesh.normals[t[0] as usize]) > 0.0
        })
    }

    #[test]
    fn primitives_face_outward() {
        let mut m = TriMesh::default();
        tube(
            &mut m,
            DVec3::ZERO,
            DVec3::new(0.1, 1.0, 0.2),
            0.1,
            0.05,
            12,
            [1.0; 3],
            true,
        );
        assert!(outward(&m));
        let mut m = TriMesh::default();
        torus(&mut m, DVec3::ONE, DVec3::Z, 0.3, 0.02, 24, 8, [1.0; 3]);
        assert!(outward(&m));
        let mut m = TriMesh::default();
        cuboid(
            &mut m,
            DVec3::ZERO,
            DMat3::IDENTITY,
            DVec3::new(1.0, 2.0, 3.0),
            [1.0; 3],
        );
        assert!(outward(&m));
    }
}
