//! Skin weights from the distance of each vertex to the bone segments.
//!
//! For a vertex, the nearest candidate bone (segment head → tail) is found first; only that
//! bone, its parent and its children may then carry weight, so a finger never pulls on its
//! neighbour and an arm never on the ribs it hangs beside. Each allowed bone gets
//! `1 - smoothstep((d - d_nearest) / band)`, where `band` grows with the bone's length, which
//! blends elbows, knees and knuckles smoothly across the joint. The best four are kept (ties go
//! to the lower joint index) and normalised so that their `f32` sum is 1.

use super::skeleton::Joint;
use glam::DVec3;

/// Distance from `p` to the segment `a`–`b` (a point when `a == b`).
pub fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let t = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).length()
}

/// Blend width of a bone: a quarter of its length, within 6 mm – 6 cm.
fn band(j: &Joint) -> f64 {
    ((j.tail - j.head).length() * 0.25).clamp(0.006, 0.06)
}

/// Joint indices and weights (four each, sum 1) for every position. `candidates` are the
/// joints allowed to carry weight; it must be non-empty (an empty list gives all weight to
/// joint 0).
pub fn skin_weights(
    joints: &[Joint],
    candidates: &[usize],
    positions: &[DVec3],
) -> (Vec<[u16; 4]>, Vec<[f32; 4]>) {
    let mut out_j = Vec::with_capacity(positions.len());
    let mut out_w = Vec::with_capacity(positions.len());
    for &p in positions {
        let dist: Vec<(usize, f64)> = candidates
            .iter()
            .map(|&c| (c, segment_distance(p, joints[c].head, joints[c].tail)))
            .collect();
        let Some(&(nearest, d_min)) = dist
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        else {
            out_j.push([0; 4]);
            out_w.push([1.0, 0.0, 0.0, 0.0]);
            continue;
        };
        let allowed = |c: usize| {
            c == nearest || joints[nearest].parent == Some(c) || joints[c].parent == Some(nearest)
        };
        let mut w: Vec<(usize, f64)> = dist
            .iter()
            .filter(|(c, _)| allowed(*c))
            .map(|&(c, d)| {
                let x = ((d - d_min) / band(&joints[c])).clamp(0.0, 1.0);
                (c, 1.0 - x * x * (3.0 - 2.0 * x))
            })
            .filter(|&(_, w)| w > 1e-4)
            .collect();
        w.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        w.truncate(4);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assetgen::skeleton::{angler_joints, find};

    #[test]
    fn elbows_blend_and_fingers_stay_apart() {
        let joints = angler_joints();
        let id = |n: &str| find(&joints, n).unwrap();
        let all: Vec<usize> = (1..joints.len()).collect();
        let (upper, fore) = (id("upperarm.L"), id("forearm.L"));
        let elbow = joints[fore].head;
        let mid_fore = (joints[fore].head + joints[fore].tail) * 0.5;
        let side = joints[fore].rotation * DVec3::Z * 0.04;
        let (j, w) = skin_weights(&joints, &all, &[elbow + side, mid_fore + side]);
        let weight = |k: usize, joint: usize| {
            (0..4)
                .filter(|&s| j[k][s] as usize == joint && w[k][s] > 0.0)
                .map(|s| w[k][s])
                .sum::<f32>()
        };
        // Across the elbow both bones share the vertex; mid-forearm belongs to the forearm.
        assert!(
            weight(0, upper) > 0.2 && weight(0, fore) > 0.2,
            "{:?} {:?}",
            j[0],
            w[0]
        );
        assert_eq!(weight(1, fore), 1.0);
        // A point between the index and middle knuckle rows on the index side: no middle weight.
        let (index, middle) = (id("index_02.L"), id("middle_02.L"));
        let p = joints[index].head * 0.75 + joints[middle].head * 0.25;
        let (j, w) = skin_weights(&joints, &all, &[p]);
        let on_middle: f32 = (0..4)
            .filter(|&s| j[0][s] as usize == middle)
            .map(|s| w[0][s])
            .sum();
        assert_eq!(on_middle, 0.0, "{:?} {:?}", j[0], w[0]);
        for ws in w {
            assert_eq!(ws.iter().sum::<f32>(), 1.0);
        }
    }
}
