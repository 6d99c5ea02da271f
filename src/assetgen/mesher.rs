//! Meshing a [`Field`] with surface nets, and the triangle mesh type shared by all assets.

use super::sdf::Field;
use fast_surface_nets::ndshape::{RuntimeShape, Shape as _};
use fast_surface_nets::{SurfaceNetsBuffer, surface_nets};
use glam::{DMat3, DVec3};

/// An indexed triangle mesh with per-vertex normals and colours (counter-clockwise front faces).
#[derive(Clone, Debug, Default)]
pub struct TriMesh {
    pub positions: Vec<DVec3>,
    pub normals: Vec<DVec3>,
    pub colours: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
}

impl TriMesh {
    /// Appends `other`, offsetting its indices.
    pub fn append(&mut self, other: &TriMesh) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.colours.extend_from_slice(&other.colours);
        self.indices.extend(other.indices.iter().map(|i| i + base));
    }
}

/// A box to mesh: `origin` is its minimum corner, `axes` its orthonormal directions (columns),
/// `size` its extents along them, `voxel` the grid spacing. All in world metres.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    pub origin: DVec3,
    pub axes: DMat3,
    pub size: DVec3,
    pub voxel: f64,
}

impl Region {
    /// An axis-aligned region between `min` and `max`.
    pub fn aabb(min: DVec3, max: DVec3, voxel: f64) -> Self {
        Self {
            origin: min,
            axes: DMat3::IDENTITY,
            size: max - min,
            voxel,
        }
    }
}

/// Samples `field` on the region's grid inside a one-voxel border that stays outside (so every
/// surface is closed; shapes reaching past the region are clipped shut) and extracts the
/// surface. Normals come from the field's gradient, colours from [`Field::colour`] with
/// softness `colour_sigma`. Deterministic: plain loops, no hashing.
pub fn mesh_field(field: &Field, region: &Region, colour_sigma: f64) -> TriMesh {
    let v = region.voxel;
    let n = [
        (region.size.x / v).ceil() as u32 + 3,
        (region.size.y / v).ceil() as u32 + 3,
        (region.size.z / v).ceil() as u32 + 3,
    ];
    let shape = RuntimeShape::<u32, 3>::new(n);
    let mut sdf = vec![1.0f32; shape.usize()];
    let mut scratch = Vec::new();
    let grid_to_world = |x: f64, y: f64, z: f64| -> DVec3 {
        region.origin + region.axes * (DVec3::new(x - 1.0, y - 1.0, z - 1.0) * v)
    };
    for z in 1..n[2] - 1 {
        for y in 1..n[1] - 1 {
            for x in 1..n[0] - 1 {
                let p = grid_to_world(x as f64, y as f64, z as f64);
                let d = field.distance_with(p, &mut scratch);
                sdf[shape.linearize([x, y, z]) as usize] = (d / v) as f32;
            }
        }
    }
    let mut buffer = SurfaceNetsBuffer::default();
    surface_nets(
        &sdf,
        &shape,
        [0; 3],
        [n[0] - 1, n[1] - 1, n[2] - 1],
        &mut buffer,
    );

    let mut mesh = TriMesh::default();
    for p in &buffer.positions {
        let world = grid_to_world(p[0] as f64, p[1] as f64, p[2] as f64);
        mesh.positions.push(world);
        mesh.normals.push(field.normal(world, v * 0.25));
        mesh.colours.push(field.colour(world, colour_sigma));
    }
    mesh.indices = buffer.indices.clone();
    orient_outward(&mut mesh);
    mesh
}

/// Flips every triangle when most face normals oppose the vertex normals (the grid's winding
/// depends on the handedness of the region's axes).
fn orient_outward(mesh: &mut TriMesh) {
    let mut agreement = 0.0;
    for t in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.positions[i as usize]);
        let face = (b - a).cross(c - a);
        agreement += face.dot(mesh.normals[t[0] as usize]);
    }
    if agreement < 0.0 {
        for t in mesh.indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assetgen::sdf::{Part, Shape};

    #[test]
    fn sphere_meshes_closed_and_outward() {
        let mut f = Field::new(0.1);
        f.add(Part::new("s", 0.0).with(Shape::sphere(DVec3::ZERO, 0.1), [1.0, 0.0, 0.0]));
        let r = Region::aabb(DVec3::splat(-0.12), DVec3::splat(0.12), 0.01);
        let m = mesh_field(&f, &r, 0.01);
        assert!(m.positions.len() > 300);
        for (p, n) in m.positions.iter().zip(&m.normals) {
            assert!(
                (p.length() - 0.1).abs() < 0.003,
                "vertex off the sphere: {p}"
            );
            assert!(n.dot(p.normalize()) > 0.95);
        }
        // Signed volume is positive for outward winding.
        let vol: f64 = m
            .indices
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum();
        let exact = 4.0 / 3.0 * std::f64::consts::PI * 0.001;
        assert!(
            (vol - exact).abs() < 0.05 * exact,
            "volume {vol} vs {exact}"
        );
    }
}
