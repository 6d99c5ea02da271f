//! Skin weights by bone heat (Baran & Popović, "Automatic Rigging and Animation of 3D
//! Characters", SIGGRAPH 2007), with the heat's reach capped per region.
//!
//! Each vertex is first tied to its nearest *visible* candidate bone: the nearest bone
//! (segment head → tail) whose closest point the vertex can reach without leaving the body,
//! judged by the region's own signed-distance field. So a torso vertex under the arm never
//! ties to the arm it hangs beside, and a finger never to its neighbour across the gap. Then
//! for every bone `i` the weights solve the heat equilibrium `(L + M H) wᵢ = M H pᵢ` on the
//! mesh surface, where `L` is the cotangent Laplacian, `M` the vertex areas, `pᵢ` is 1 where
//! the vertex is tied to bone `i` and `H = 1/d²`, with `d` the distance to the tied bone. A
//! bone's weight so spreads along the surface (never through the air) about as far as the
//! limb is thick, and the weights sum to one.
//!
//! `d` is clamped to the region's blend length λ (and floored at one voxel). Without the cap
//! the wide torso, 14 cm from its spine, is far weaker than the arm beside it, so the arm's
//! weight floods down the torso's side and a raised arm drags the jacket with it.
//!
//! The best four weights are kept. The fifth is subtracted from them first, so a bone fades
//! out as it drops from fourth to fifth place instead of jumping (a jump tears an edge). The
//! four are then normalised so that their `f32` sum is 1 within rounding (ties go to the
//! lower joint index).

use super::heat::Laplacian;
use super::mesher::TriMesh;
use super::sdf::Field;
use super::skeleton::Joint;
use glam::DVec3;

/// Weights below this are dropped before normalising.
const NEGLIGIBLE: f64 = 1e-3;

/// Closest point to `p` on the segment `a`–`b` (`a` when `a == b`).
pub fn segment_closest(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// Whether the straight path from the surface point `from` to `to` stays inside `field` (to a
/// quarter voxel), sampled every half `voxel` after the first `voxel` (the surface itself is
/// only known to a voxel).
fn inside_all_the_way(
    field: &Field,
    from: DVec3,
    to: DVec3,
    voxel: f64,
    scratch: &mut Vec<f64>,
) -> bool {
    let length = (to - from).length();
    let steps = (length / (0.5 * voxel)).ceil().max(1.0) as usize;
    (1..=steps).all(|k| {
        let s = k as f64 / steps as f64;
        s * length < voxel || field.distance_with(from.lerp(to, s), scratch) <= 0.25 * voxel
    })
}

/// The candidate (index into `candidates`, which must not be empty) each vertex is tied to,
/// and its distance from it: the nearest visible candidate, else the nearest.
fn tie_vertices(
    joints: &[Joint],
    candidates: &[usize],
    mesh: &TriMesh,
    field: &Field,
    voxel: f64,
) -> Vec<(usize, f64)> {
    let mut scratch = Vec::new();
    mesh.positions
        .iter()
        .map(|&p| {
            let mut near: Vec<(f64, usize, DVec3)> = candidates
                .iter()
                .enumerate()
                .map(|(k, &c)| {
                    let q = segment_closest(p, joints[c].head, joints[c].tail);
                    ((p - q).length(), k, q)
                })
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let tied = near
                .iter()
                .find(|(_, _, q)| inside_all_the_way(field, p, *q, voxel, &mut scratch))
                .unwrap_or(&near[0]);
            (tied.1, tied.0)
        })
        .collect()
}

/// Joint indices and weights (four each, sum 1) for every vertex of `mesh`, a surface of
/// `field` meshed at `voxel`. `candidates` are the joints allowed to carry weight; `blend`
/// (metres, > 0) caps how far along the surface a bone's weight reaches past the vertices
/// tied to it (see the module doc).
///
/// An empty candidate list gives all weight to joint 0.
pub fn skin_weights(
    joints: &[Joint],
    candidates: &[usize],
    mesh: &TriMesh,
    field: &Field,
    voxel: f64,
    blend: f64,
) -> (Vec<[u16; 4]>, Vec<[f32; 4]>) {
    let n = mesh.positions.len();
    if candidates.is_empty() {
        return (vec![[0; 4]; n], vec![[1.0, 0.0, 0.0, 0.0]; n]);
    }
    let ties = tie_vertices(joints, candidates, mesh, field, voxel);
    let laplacian = Laplacian::new(&mesh.positions, &mesh.indices);
    let heat: Vec<f64> = (0..n)
        .map(|i| {
            let d = ties[i].1.clamp(voxel.min(blend), blend);
            laplacian.area[i] / (d * d)
        })
        .collect();
    let ties: Vec<usize> = ties.iter().map(|t| t.0).collect();
    // Per vertex, (candidate, weight) for every bone that reaches it.
    let mut reached: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (k, &joint) in candidates.iter().enumerate() {
        if !ties.contains(&k) {
            continue;
        }
        let b: Vec<f64> = (0..n)
            .map(|i| if ties[i] == k { heat[i] } else { 0.0 })
            .collect();
        let mut w: Vec<f64> = (0..n).map(|i| f64::from(ties[i] == k)).collect();
        laplacian.solve(&heat, &b, &mut w, 1e-9);
        for (i, &wi) in w.iter().enumerate() {
            if wi > NEGLIGIBLE {
                reached[i].push((joint, wi));
            }
        }
    }
    let mut out_j = Vec::with_capacity(n);
    let mut out_w = Vec::with_capacity(n);
    for (i, mut w) in reached.into_iter().enumerate() {
        if w.is_empty() {
            w.push((candidates[ties[i]], 1.0));
        }
        w.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        // The fifth weight comes off the four kept (see the module doc).
        if let Some(&(_, fifth)) = w.get(4) {
            w.truncate(4);
            for x in &mut w {
                x.1 -= fifth;
            }
            w.retain(|x| x.1 > 0.0);
        }
        let total: f64 = w.iter().map(|x| x.1).sum();
        let mut js = [0u16; 4];
        let mut ws = [0f32; 4];
        for (k, (c, wt)) in w.iter().enumerate() {
            js[k] = *c as u16;
            ws[k] = (wt / total) as f32;
        }
        // Make the f32 sum exact: the largest weight absorbs the rounding.
        let rest: f32 = ws[1] + ws[2] + ws[3];
        ws[0] = 1.0 - rest;
        out_j.push(js);
        out_w.push(ws);
    }
    (out_j, out_w)
}
