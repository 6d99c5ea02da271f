//! Thinning a meshed part: surface nets put a vertex in every surface voxel, flat or curved,
//! so a part carries several times the triangles its shape needs (and the editor pays per
//! triangle on CPU rasterisers). [`simplify_part`] collapses edges with meshoptimizer while
//! the surface moves less than a bound, with colour, normal and skin-weight changes counted
//! as error, so painted features (eyes, brows, cap), creases and the bands where the skin
//! bends keep their edges, then drops the vertices no triangle uses. Survivors keep their
//! own attributes and skin weights.

use super::mesher::TriMesh;
use glam::DVec3;

/// How far the thinned surface may stray from the meshed one, metres: an eighth of the
/// finest voxel ([`super::body`]'s hands, 4.2 mm), under a pixel even in the editor's hands
/// view. The bundled angler goes from 46k to 18k triangles.
pub const MAX_SURFACE_ERROR: f64 = 0.0005;

/// The most any vertex of the meshed surface lies from the thinned one, metres.
/// [`MAX_SURFACE_ERROR`] bounds meshoptimizer's quadric error (the distance of each
/// collapsed vertex to the planes it merged), not this distance, which can run up to three
/// times over it on fingers; [`simplify_part`] measures it and locks what strays.
pub const MAX_SURFACE_DEVIATION: f64 = 0.001;

/// Weight of a unit colour difference, as metres of surface error: painted edges stay put.
const COLOUR_WEIGHT: f32 = 0.02;
/// A vertex whose colour differs from a neighbour's by more than this (in any channel) lies on
/// a painted edge and is not moved.
const EDGE_COLOUR_STEP: f32 = 0.03;
/// Weight of a unit skin-weight difference, as metres of surface error.
const SKIN_WEIGHT: f32 = 0.01;
/// Rounds of thinning and locking what strayed before a part is left whole.
const MAX_ROUNDS: usize = 12;
/// meshoptimizer's limit on attributes a vertex.
const MAX_ATTRIBUTES: usize = 32;
/// Weight of a unit normal difference, as metres of surface error.
const NORMAL_WEIGHT: f32 = 0.06;

/// `mesh` with its per-vertex skin `joints` and `weights` (one per vertex), thinned until
/// the next collapse would cost more than `max_error` metres by meshoptimizer's quadric
/// measure, colour, normal and skin-weight changes included (see the module docs), and
/// with every vertex of `mesh` within [`MAX_SURFACE_DEVIATION`] of the result. Vertices on
/// painted edges and the extreme vertices along each axis (so the bounds stay exactly) stay;
/// survivors keep their order. Deterministic.
pub fn simplify_part(
    mesh: &TriMesh,
    joints: &[[u16; 4]],
    weights: &[[f32; 4]],
    max_error: f64,
) -> (TriMesh, Vec<[u16; 4]>, Vec<[f32; 4]>) {
    let positions: Vec<[f32; 3]> = mesh
        .positions
        .iter()
        .map(|p| p.as_vec3().to_array())
        .collect();
    let (attributes, attribute_weights, stride) = simplify_attributes(mesh, joints, weights);
    let adapter = meshopt::VertexDataAdapter::new(
        bytemuck::cast_slice(&positions),
        std::mem::size_of::<[f32; 3]>(),
        0,
    )
    .expect("tightly packed f32 positions");
    let mut locks = locked_vertices(mesh);
    // Thin, then lock what strayed past MAX_SURFACE_DEVIATION (each such vertex and its
    // neighbours) and thin again, until none does; a part that will not settle stays whole.
    let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); positions.len()];
    for (a, b) in half_edges(&mesh.indices) {
        neighbours[a as usize].push(b);
    }
    let mut indices = mesh.indices.clone();
    for _ in 0..MAX_ROUNDS {
        let thinned = meshopt::simplify_with_attributes_and_locks(
            &mesh.indices,
            &adapter,
            &attributes,
            &attribute_weights,
            stride * std::mem::size_of::<f32>(),
            &locks,
            0,
            max_error as f32,
            meshopt::SimplifyOptions::ErrorAbsolute,
            None,
        );
        let strayed = strayed_vertices(&mesh.positions, &thinned, MAX_SURFACE_DEVIATION);
        if strayed.is_empty() {
            indices = thinned;
            break;
        }
        for v in strayed {
            locks[v] = true;
            for &n in &neighbours[v] {
                locks[n as usize] = true;
            }
        }
    }
    kept_vertices(mesh, joints, weights, &indices)
}

/// The attributes meshoptimizer weighs per vertex: colour, normal, then one skin weight per
/// joint the part uses (at most `MAX_ATTRIBUTES − 6`), with their weights and the stride.
fn simplify_attributes(
    mesh: &TriMesh,
    joints: &[[u16; 4]],
    weights: &[[f32; 4]],
) -> (Vec<f32>, Vec<f32>, usize) {
    // Attributes: colour, normal, then one skin weight per joint the part uses, so a
    // collapse that the linear blend across its triangles would not reproduce (where the
    // skin bends) costs error too.
    let mut slots: Vec<u16> = Vec::new();
    for (j, w) in joints.iter().zip(weights) {
        for k in 0..4 {
            if w[k] > 0.0 && !slots.contains(&j[k]) {
                slots.push(j[k]);
            }
        }
    }
    slots.sort_unstable();
    let slots = &slots[..slots.len().min(MAX_ATTRIBUTES - 6)];
    let stride = 6 + slots.len();
    let mut attributes = vec![0.0f32; stride * mesh.positions.len()];
    for (i, row) in attributes.chunks_exact_mut(stride).enumerate() {
        let n = mesh.normals[i].as_vec3();
        row[..6].copy_from_slice(&[
            mesh.colours[i][0],
            mesh.colours[i][1],
            mesh.colours[i][2],
            n.x,
            n.y,
            n.z,
        ]);
        for k in 0..4 {
            if let Ok(slot) = slots.binary_search(&joints[i][k]) {
                row[6 + slot] += weights[i][k];
            }
        }
    }
    let mut attribute_weights = vec![COLOUR_WEIGHT; 3];
    attribute_weights.extend([NORMAL_WEIGHT; 3]);
    attribute_weights.resize(stride, SKIN_WEIGHT);
    (attributes, attribute_weights, stride)
}

/// The vertices simplification must keep: the part's extreme vertices along each axis and
/// both ends of every painted edge.
fn locked_vertices(mesh: &TriMesh) -> Vec<bool> {
    let mut locks = vec![false; mesh.positions.len()];
    // The part's extreme vertices along each axis stay, so its bounds do not move: the stage
    // seats a character by its lowest and highest points.
    for axis in 0..3 {
        let key = |i: &usize| mesh.positions[*i][axis];
        let all = 0..mesh.positions.len();
        for v in [
            all.clone().min_by(|a, b| key(a).total_cmp(&key(b))),
            all.max_by(|a, b| key(a).total_cmp(&key(b))),
        ]
        .into_iter()
        .flatten()
        {
            locks[v] = true;
        }
    }
    for (a, b) in half_edges(&mesh.indices) {
        if painted_edge(mesh, a, b) {
            locks[a as usize] = true;
            locks[b as usize] = true;
        }
    }
    locks
}

/// The vertices some triangle of `indices` uses, in their order, with their skin, and the
/// triangles renumbered to them.
fn kept_vertices(
    mesh: &TriMesh,
    joints: &[[u16; 4]],
    weights: &[[f32; 4]],
    indices: &[u32],
) -> (TriMesh, Vec<[u16; 4]>, Vec<[f32; 4]>) {
    let mut used = vec![false; mesh.positions.len()];
    for &i in indices {
        used[i as usize] = true;
    }
    let mut remap = vec![u32::MAX; mesh.positions.len()];
    let mut out = TriMesh::default();
    let (mut out_joints, mut out_weights) = (Vec::new(), Vec::new());
    for (i, _) in used.iter().enumerate().filter(|(_, u)| **u) {
        remap[i] = out.positions.len() as u32;
        out.positions.push(mesh.positions[i]);
        out.normals.push(mesh.normals[i]);
        out.colours.push(mesh.colours[i]);
        out_joints.push(joints[i]);
        out_weights.push(weights[i]);
    }
    out.indices = indices.iter().map(|&i| remap[i as usize]).collect();
    (out, out_joints, out_weights)
}

/// Each triangle's edges in its winding order, `(from, to)`.
fn half_edges(indices: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    indices
        .chunks_exact(3)
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
}

/// Whether the edge `a`–`b` of `mesh` crosses a painted edge: a colour step over
/// [`EDGE_COLOUR_STEP`] in some channel.
fn painted_edge(mesh: &TriMesh, a: u32, b: u32) -> bool {
    let (ca, cb) = (mesh.colours[a as usize], mesh.colours[b as usize]);
    (0..3).any(|k| (ca[k] - cb[k]).abs() > EDGE_COLOUR_STEP)
}

/// The vertices of `positions` farther than `bound` from every triangle of `indices` (into
/// the same positions), in order. Triangles are bucketed in a grid of `bound`-grown boxes, so
/// each vertex tests only those of its own cell.
fn strayed_vertices(positions: &[DVec3], indices: &[u32], bound: f64) -> Vec<usize> {
    const CELL: f64 = 0.01;
    let cell = |p: DVec3| (p / CELL).floor().as_ivec3();
    let mut grid: std::collections::HashMap<glam::IVec3, Vec<[DVec3; 3]>> = Default::default();
    for t in indices.chunks_exact(3) {
        let tri = [0, 1, 2].map(|k| positions[t[k] as usize]);
        let lo = cell(tri[0].min(tri[1]).min(tri[2]) - DVec3::splat(bound));
        let hi = cell(tri[0].max(tri[1]).max(tri[2]) + DVec3::splat(bound));
        for x in lo.x..=hi.x {
            for y in lo.y..=hi.y {
                for z in lo.z..=hi.z {
                    grid.entry(glam::IVec3::new(x, y, z)).or_default().push(tri);
                }
            }
        }
    }
    (0..positions.len())
        .filter(|&v| {
            let p = positions[v];
            !grid
                .get(&cell(p))
                .is_some_and(|tris| tris.iter().any(|&t| to_triangle(p, t) <= bound))
        })
        .collect()
}

/// The largest distance from a vertex of `original` to the surface of `thinned`, metres
/// (brute force over all pairs: for checks and tests on single parts).
pub fn max_deviation(original: &TriMesh, thinned: &TriMesh) -> f64 {
    let triangles: Vec<[DVec3; 3]> = thinned
        .indices
        .chunks_exact(3)
        .map(|t| [0, 1, 2].map(|k| thinned.positions[t[k] as usize]))
        .collect();
    original
        .positions
        .iter()
        .map(|&p| {
            triangles
                .iter()
                .map(|&t| to_triangle(p, t))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

/// Distance from `p` to triangle `abc`.
fn to_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> f64 {
    let n = (b - a).cross(c - a);
    if n.length_squared() > 0.0 {
        let n = n.normalize();
        let q = p - n * n.dot(p - a);
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0);
        if inside {
            return (p - q).length();
        }
    }
    [(a, b), (b, c), (c, a)]
        .iter()
        .map(|&(u, v)| {
            let t = ((p - u).dot(v - u) / (v - u).length_squared().max(1e-30)).clamp(0.0, 1.0);
            (p - (u + (v - u) * t)).length()
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assetgen::mesher::{Region, mesh_field};
    use crate::assetgen::sdf::{Field, Part, Shape};

    const RED: [f32; 3] = [0.8, 0.1, 0.1];
    const BLUE: [f32; 3] = [0.1, 0.2, 0.8];

    /// Two joined spheres, red and blue, meshed at the hands' voxel (4.2 mm): a smooth
    /// closed surface with a painted edge where they meet. Skin data: joint = vertex index,
    /// weight = its x, so each vertex's own data is recognisable.
    fn part() -> (TriMesh, Vec<[u16; 4]>, Vec<[f32; 4]>) {
        let mut f = Field::new(0.1);
        let a =
            f.add(Part::new("a", 0.0).with(Shape::sphere(DVec3::new(-0.02, 0.0, 0.0), 0.03), RED));
        let b =
            f.add(Part::new("b", 0.0).with(Shape::sphere(DVec3::new(0.02, 0.0, 0.0), 0.03), BLUE));
        f.join(a, b, 0.01);
        let r = Region::aabb(
            DVec3::new(-0.06, -0.04, -0.04),
            DVec3::new(0.06, 0.04, 0.04),
            0.0042,
        );
        let mesh = mesh_field(&f, &r, 0.002);
        let joints = (0..mesh.positions.len())
            .map(|i| [i as u16, 0, 0, 0])
            .collect();
        let weights = mesh
            .positions
            .iter()
            .map(|p| [p.x as f32, 0.0, 0.0, 0.0])
            .collect();
        (mesh, joints, weights)
    }

    #[test]
    fn thinning_keeps_the_surface_within_the_bound_and_far_fewer_triangles() {
        let (mesh, joints, weights) = part();
        let (thin, _, _) = simplify_part(&mesh, &joints, &weights, MAX_SURFACE_ERROR);
        let (before, after) = (mesh.indices.len() / 3, thin.indices.len() / 3);
        assert!(after * 2 < before, "{before} -> {after} triangles");
        let worst = max_deviation(&mesh, &thin);
        assert!(
            worst <= MAX_SURFACE_DEVIATION,
            "a vertex {worst} m off the thinned surface"
        );
    }

    #[test]
    fn thinning_keeps_painted_edges_closed_surfaces_and_each_vertexs_own_data() {
        let (mesh, joints, weights) = part();
        let (thin, thin_joints, thin_weights) =
            simplify_part(&mesh, &joints, &weights, MAX_SURFACE_ERROR);
        // Every survivor is an original vertex with its own attributes and skin data.
        for (k, p) in thin.positions.iter().enumerate() {
            let i = thin_joints[k][0] as usize;
            assert_eq!(*p, mesh.positions[i]);
            assert_eq!(thin.normals[k], mesh.normals[i]);
            assert_eq!(thin.colours[k], mesh.colours[i]);
            assert_eq!(thin_weights[k], weights[i]);
        }
        // The same bounds, to the bit.
        let bounds = |m: &TriMesh| {
            m.positions
                .iter()
                .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(*p), hi.max(*p))
                })
        };
        assert_eq!(bounds(&thin), bounds(&mesh));
        // In their order, and each used.
        assert!(thin_joints.windows(2).all(|w| w[0][0] < w[1][0]));
        let mut used = vec![false; thin.positions.len()];
        thin.indices.iter().for_each(|&i| used[i as usize] = true);
        assert!(used.iter().all(|&u| u));
        // Every vertex on the painted edge (a neighbour of another colour) is kept.
        let kept: std::collections::HashSet<u16> = thin_joints.iter().map(|j| j[0]).collect();
        let mut edge = 0;
        for (a, b) in half_edges(&mesh.indices) {
            if painted_edge(&mesh, a, b) {
                edge += 1;
                assert!(kept.contains(&(a as u16)) && kept.contains(&(b as u16)));
            }
        }
        assert!(edge > 20, "the part has a painted edge ({edge} edges)");
        // Still closed: every edge in exactly two triangles, once each way.
        let mut edges = std::collections::HashMap::new();
        for (a, b) in half_edges(&thin.indices) {
            *edges.entry((a, b)).or_insert(0) += 1;
        }
        for (&(a, b), &n) in &edges {
            assert_eq!((n, edges.get(&(b, a))), (1, Some(&1)), "edge {a}-{b}");
        }
    }
}
