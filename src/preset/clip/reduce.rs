//! Key reduction with a stated, verified bound: after reduction no checked point (every
//! character joint, every rod and net node and mesh-box corner) is further than the tolerance
//! from where the resampled solver pose puts it, at any sampled time — whether the client
//! interpolates rotations by slerp (glTF, three.js) or lerps the components and normalises
//! (Blender's f-curves).
//!
//! Each channel is reduced by Ramer–Douglas–Peucker against a per-channel bound in metres: a
//! rotation's angular error times the largest distance from the node to any point its subtree
//! carries (leaf nodes count at least their own bone length, so the mesh they carry keeps its
//! motion), a translation's error times its parent's scale. The channel bound starts at half
//! the tolerance; the reduced clip is then evaluated at every sampled time and the bound is
//! halved until the measured error is within the tolerance (with every key kept the error is
//! f32 rounding only).

use super::sample::{ClipRig, NodeKind, Samples};
use crate::assetgen::glb::AnimPath;
use glam::{DAffine3, DQuat, DVec3};

/// One reduced channel in the clip's node numbering.
#[derive(Clone, Debug, PartialEq)]
pub struct BakedChannel {
    /// A character bone's index; the bone count for the rod holder, one more for the net's.
    pub node: usize,
    /// Translation (metres in the parent's frame; roots and holders in world space) or
    /// rotation (unit quaternions `[x, y, z, w]`).
    pub path: AnimPath,
    /// Key times in seconds, strictly increasing; always the clip's first and last time.
    pub times: Vec<f32>,
    /// [`AnimPath::width`] floats per key.
    pub values: Vec<f32>,
}

/// The result of reducing one clip.
pub(crate) struct Reduced {
    pub channels: Vec<BakedChannel>,
    /// The largest distance measured between a checked point of the reduced clip and the
    /// solver's, over every sampled time and both interpolations (metres).
    pub max_error: f64,
    /// The per-channel bound the reduction settled on (metres).
    pub channel_bound: f64,
}

/// A channel before reduction: all samples, f64 values (quaternions on one hemisphere) and
/// the weight that turns its error into metres.
struct Full {
    node: usize,
    path: AnimPath,
    rotations: Vec<DQuat>,
    translations: Vec<DVec3>,
    /// Metres per radian (rotation) or per unit (translation).
    weight: f64,
}

const STATIC_EPS: f64 = 1e-9;

/// Rotation angle between two unit quaternions (either sign), accurate for tiny angles.
fn angle_between(a: DQuat, b: DQuat) -> f64 {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let chord =
        (DVec3::new(a.x - b.x, a.y - b.y, a.z - b.z).length_squared() + (a.w - b.w).powi(2)).sqrt();
    4.0 * (chord / 2.0).min(1.0).asin()
}

fn nlerp(a: DQuat, b: DQuat, u: f64) -> DQuat {
    (a * (1.0 - u) + b * u).normalize()
}

fn round_quat(q: DQuat) -> DQuat {
    let q = q.as_quat();
    DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64)
}

fn round_vec(v: DVec3) -> DVec3 {
    v.as_vec3().as_dvec3()
}

/// Per node: metres of point motion per radian of its rotation, and its parent's scale.
fn weights(rig: &ClipRig, samples: &Samples, reference: &[Vec<DAffine3>]) -> (Vec<f64>, Vec<f64>) {
    let n = rig.len();
    let mut reach = vec![0.0f64; n];
    let mut parent_scale = vec![1.0f64; n];
    for (k, world) in reference.iter().enumerate() {
        for &(node, p) in &rig.points {
            let pw = world[node].transform_point3(p);
            let mut b = Some(node);
            while let Some(i) = b {
                reach[i] = reach[i].max((pw - world[i].translation).length());
                b = rig.parent[i];
            }
        }
        for i in 0..n {
            if let Some(p) = rig.parent[i] {
                let m = world[p].matrix3;
                let cols = [m.x_axis.length(), m.y_axis.length(), m.z_axis.length()];
                let hi = cols.iter().cloned().fold(0.0, f64::max);
                let lo = cols
                    .iter()
                    .cloned()
                    .fold(f64::INFINITY, f64::min)
                    .max(1e-12);
                parent_scale[i] = parent_scale[i].max(hi * hi / lo);
            }
            // A leaf still carries the mesh around it: count at least its bone length.
            let own = samples.locals[k][i].translation.length();
            let s = rig.parent[i].map_or(1.0, |p| world[p].matrix3.x_axis.length());
            reach[i] = reach[i].max(own * s).max(0.01);
        }
    }
    let rot = (0..n).map(|i| reach[i] * parent_scale[i]).collect();
    (rot, parent_scale)
}

fn full_channels(rig: &ClipRig, samples: &Samples, reference: &[Vec<DAffine3>]) -> Vec<Full> {
    let (rot_weight, trans_weight) = weights(rig, samples, reference);
    let mut out = Vec::new();
    for i in 0..rig.len() {
        let kind = rig.kind[i];
        if kind == NodeKind::SkinnedMesh {
            continue;
        }
        let default = rig.default[i];
        let moves_t = samples
            .locals
            .iter()
            .any(|l| (l[i].translation - default.translation).length() > STATIC_EPS);
        let moves_r = samples
            .locals
            .iter()
            .any(|l| angle_between(l[i].rotation.normalize(), default.rotation) > STATIC_EPS);
        let wants_r = matches!(kind, NodeKind::Joint | NodeKind::Holder) || moves_r;
        let wants_t = kind == NodeKind::Holder || moves_t;
        if wants_t {
            out.push(Full {
                node: i,
                path: AnimPath::Translation,
                rotations: Vec::new(),
                translations: samples.locals.iter().map(|l| l[i].translation).collect(),
                weight: trans_weight[i],
            });
        }
        if wants_r {
            let mut rotations: Vec<DQuat> = Vec::with_capacity(samples.times.len());
            for l in &samples.locals {
                let mut q = l[i].rotation.normalize();
                if let Some(prev) = rotations.last()
                    && prev.dot(q) < 0.0
                {
                    q = -q;
                }
                rotations.push(q);
            }
            out.push(Full {
                node: i,
                path: AnimPath::Rotation,
                rotations,
                translations: Vec::new(),
                weight: rot_weight[i],
            });
        }
    }
    out
}

impl Full {
    /// The error in metres at sample `k` of interpolating keys `i` and `j` (f32 values at
    /// f32 times); infinite when a rotation segment would cross hemispheres.
    fn error(&self, times: &[f32], i: usize, j: usize, k: usize) -> f64 {
        let (ti, tj, tk) = (times[i] as f64, times[j] as f64, times[k] as f64);
        let u = (tk - ti) / (tj - ti);
        match self.path {
            AnimPath::Translation => {
                let a = round_vec(self.translations[i]);
                let b = round_vec(self.translations[j]);
                (a.lerp(b, u) - self.translations[k]).length() * self.weight
            }
            AnimPath::Rotation => {
                let a = round_quat(self.rotations[i]);
                let b = round_quat(self.rotations[j]);
                if a.dot(b) < 0.0 {
                    return f64::INFINITY;
                }
                let q = self.rotations[k];
                let e = angle_between(a.slerp(b, u), q).max(angle_between(nlerp(a, b, u), q));
                e * self.weight
            }
        }
    }

    /// The kept sample indices (Ramer–Douglas–Peucker with `bound` metres).
    fn reduce(&self, times: &[f32], bound: f64) -> Vec<usize> {
        let last = times.len() - 1;
        let mut keep = vec![false; times.len()];
        keep[0] = true;
        keep[last] = true;
        let mut stack = vec![(0, last)];
        while let Some((i, j)) = stack.pop() {
            if j <= i + 1 {
                continue;
            }
            let (mut worst, mut at) = (-1.0, i + 1);
            for k in i + 1..j {
                let e = self.error(times, i, j, k);
                if e > worst {
                    (worst, at) = (e, k);
                }
            }
            if worst > bound {
                keep[at] = true;
                stack.push((i, at));
                stack.push((at, j));
            }
        }
        (0..times.len()).filter(|&k| keep[k]).collect()
    }

    fn baked(&self, times: &[f32], keys: &[usize]) -> BakedChannel {
        let mut values = Vec::with_capacity(keys.len() * self.path.width());
        for &k in keys {
            match self.path {
                AnimPath::Translation => {
                    values.extend(self.translations[k].as_vec3().to_array());
                }
                AnimPath::Rotation => values.extend(self.rotations[k].as_quat().to_array()),
            }
        }
        BakedChannel {
            node: self.node,
            path: self.path,
            times: keys.iter().map(|&k| times[k]).collect(),
            values,
        }
    }
}

impl BakedChannel {
    /// The channel at `time` (clamped to its ends); rotations by slerp, or by component lerp
    /// and normalisation when `nlerp_rotations`. A translation reads `[x, y, z, 0]`.
    ///
    /// # Panics
    /// If `times` is empty or `values` holds fewer than [`AnimPath::width`] floats per key.
    pub fn sample(&self, time: f32, nlerp_rotations: bool) -> [f64; 4] {
        let w = self.path.width();
        let value = |k: usize| -> [f64; 4] {
            let v = &self.values[k * w..k * w + w];
            [
                v[0] as f64,
                v[1] as f64,
                v[2] as f64,
                *v.get(3).unwrap_or(&0.0) as f64,
            ]
        };
        let j = self.times.partition_point(|&t| t <= time);
        if j == 0 {
            return value(0);
        }
        if j == self.times.len() {
            return value(j - 1);
        }
        let (t0, t1) = (self.times[j - 1] as f64, self.times[j] as f64);
        let u = (time as f64 - t0) / (t1 - t0);
        let (a, b) = (value(j - 1), value(j));
        match self.path {
            AnimPath::Translation => {
                let v = DVec3::from_slice(&a[..3]).lerp(DVec3::from_slice(&b[..3]), u);
                [v.x, v.y, v.z, 0.0]
            }
            AnimPath::Rotation => {
                let (qa, qb) = (DQuat::from_array(a), DQuat::from_array(b));
                let q = if nlerp_rotations {
                    nlerp(qa, qb, u)
                } else {
                    qa.slerp(qb, u)
                };
                q.to_array()
            }
        }
    }
}

/// World matrices of the solver's samples.
pub(crate) fn reference_worlds(rig: &ClipRig, samples: &Samples) -> Vec<Vec<DAffine3>> {
    samples
        .locals
        .iter()
        .map(|l| {
            let mut w = Vec::new();
            rig.world(|i| (l[i].translation, l[i].rotation), &mut w);
            w
        })
        .collect()
}

/// The largest point error of `channels` against `reference` at every sampled time.
pub(crate) fn measure(
    rig: &ClipRig,
    times: &[f32],
    channels: &[BakedChannel],
    reference: &[Vec<DAffine3>],
) -> f64 {
    measure_each(rig, times, channels, reference)
        .into_iter()
        .fold(0.0, f64::max)
}

/// The largest point error of `channels` against `reference` at each of `times`.
pub(crate) fn measure_each(
    rig: &ClipRig,
    times: &[f32],
    channels: &[BakedChannel],
    reference: &[Vec<DAffine3>],
) -> Vec<f64> {
    let mut each = Vec::with_capacity(times.len());
    let mut by_node: Vec<[Option<&BakedChannel>; 2]> = vec![[None, None]; rig.len()];
    for c in channels {
        by_node[c.node][usize::from(c.path == AnimPath::Rotation)] = Some(c);
    }
    let mut world = Vec::with_capacity(rig.len());
    for (k, &time) in times.iter().enumerate() {
        let mut worst = 0.0f64;
        for nlerp_rotations in [false, true] {
            rig.world(
                |i| {
                    let d = rig.default[i];
                    let t = by_node[i][0].map_or(d.translation, |c| {
                        DVec3::from_slice(&c.sample(time, false)[..3])
                    });
                    let r = by_node[i][1].map_or(d.rotation, |c| {
                        DQuat::from_array(c.sample(time, nlerp_rotations))
                    });
                    (t, r)
                },
                &mut world,
            );
            for &(node, p) in &rig.points {
                let e = (world[node].transform_point3(p) - reference[k][node].transform_point3(p))
                    .length();
                worst = worst.max(e);
            }
        }
        each.push(worst);
    }
    each
}

/// Reduces the channels of `samples` so that no checked point strays more than `tolerance`
/// metres (see the module docs).
pub(crate) fn reduce(rig: &ClipRig, samples: &Samples, tolerance: f64) -> Reduced {
    let reference = reference_worlds(rig, samples);
    let full = full_channels(rig, samples, &reference);
    let times: Vec<f32> = samples.times.iter().map(|&t| t as f32).collect();
    let mut bound = tolerance / 2.0;
    // A zero tolerance keeps every key: no reduction passes to try.
    let tries = if tolerance > 0.0 { 16 } else { 0 };
    for _ in 0..tries {
        let channels: Vec<BakedChannel> = full
            .iter()
            .map(|c| c.baked(&times, &c.reduce(&times, bound)))
            .collect();
        let max_error = measure(rig, &times, &channels, &reference);
        if max_error <= tolerance {
            return Reduced {
                channels,
                max_error,
                channel_bound: bound,
            };
        }
        bound /= 2.0;
    }
    let all: Vec<usize> = (0..times.len()).collect();
    let channels: Vec<BakedChannel> = full.iter().map(|c| c.baked(&times, &all)).collect();
    let max_error = measure(rig, &times, &channels, &reference);
    Reduced {
        channels,
        max_error,
        channel_bound: 0.0,
    }
}
