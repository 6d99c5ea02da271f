//! Running a scene's CCD solver like the oracle does, and its result in the oracle's JSON shape
//! (`shared/oracles/threejs-ccd/oracle.mjs`): `bones`, `chains`, `helper`, `conditioning`.

use super::{Scene, quat_xyzw};
use crate::ik::ccd::{CcdReport, CcdWorkspace};
use crate::ik::limits::euler_xyz_from_quat;
use crate::rig::Pose;
use glam::{DAffine3, DQuat, DVec3, DVec4};
use serde_json::{Value, json};

/// The target–effector state of one chain at some moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainState {
    pub target_world: DVec3,
    pub effector_world: DVec3,
    pub distance: f64,
}

/// Outcome of [`run_ccd`].
#[derive(Clone, Debug, PartialEq)]
pub struct CcdRun {
    /// Solved pose, world transforms refreshed.
    pub pose: Pose,
    /// three.js's stored `bone.rotation` (Euler XYZ) per bone (see [`crate::ik::ccd::EulerState`]).
    pub euler: Vec<DVec3>,
    /// Per chain, before the first update.
    pub initial: Vec<ChainState>,
    /// Per update, per chain: distance after that update.
    pub history: Vec<Vec<f64>>,
    /// Report of the last update (empty when `updates` is 0).
    pub last_report: CcdReport,
}

fn chain_states(scene: &Scene, pose: &Pose) -> Vec<ChainState> {
    scene
        .solver
        .chains
        .iter()
        .map(|c| {
            let t = c.target_in_world(pose);
            let e = pose.world_position(c.effector);
            ChainState {
                target_world: t,
                effector_world: e,
                distance: t.distance(e),
            }
        })
        .collect()
}

/// Runs the scene like the oracle: (optionally) nudges every chain's target bone by
/// `target_nudge` on x, y and z, then `updates` times refreshes all world transforms and calls
/// `update(globalBlendFactor)`.
pub fn run_ccd(scene: &Scene, target_nudge: f64) -> CcdRun {
    let skel = &scene.skeleton;
    let mut pose = scene.pose.clone();
    if target_nudge != 0.0 {
        for bone in scene.solver.chains.iter().filter_map(|c| c.target_bone()) {
            let mut t = *pose.local(bone);
            t.translation += DVec3::splat(target_nudge);
            pose.set_local(bone, t);
        }
        pose.refresh_all(skel);
    }
    let mut euler: Vec<DVec3> = (0..pose.len())
        .map(|i| euler_xyz_from_quat(pose.local(i).rotation))
        .collect();
    let initial = chain_states(scene, &pose);
    let blend = scene.global_blend_factor.unwrap_or(1.0);
    let mut history = Vec::with_capacity(scene.updates as usize);
    let mut report = CcdReport::default();
    let mut work = CcdWorkspace::default();
    for _ in 0..scene.updates {
        pose.refresh_all(skel);
        scene
            .solver
            .update_into(skel, &mut pose, blend, &mut report, &mut work);
        for chain in &report.chains {
            for link in &chain.links {
                if let Some(v) = link.euler.vector(pose.local(link.bone).rotation) {
                    euler[link.bone] = v;
                }
            }
        }
        history.push(
            chain_states(scene, &pose)
                .iter()
                .map(|c| c.distance)
                .collect(),
        );
    }
    pose.refresh_all(skel);
    CcdRun {
        pose,
        euler,
        initial,
        history,
        last_report: report,
    }
}

/// three.js `Matrix4.decompose` rotation: columns divided by their lengths (x negated for a
/// negative determinant), then `Quaternion.setFromRotationMatrix`. A singular matrix gives
/// identity, as in three.
pub fn three_world_quaternion(m: &DAffine3) -> DQuat {
    let a = m.matrix3;
    let det = a.determinant();
    if det == 0.0 {
        return DQuat::IDENTITY;
    }
    let mut sx = a.x_axis.length();
    if det < 0.0 {
        sx = -sx;
    }
    let (c0, c1, c2) = (
        a.x_axis / sx,
        a.y_axis / a.y_axis.length(),
        a.z_axis / a.z_axis.length(),
    );
    let (m11, m12, m13) = (c0.x, c1.x, c2.x);
    let (m21, m22, m23) = (c0.y, c1.y, c2.y);
    let (m31, m32, m33) = (c0.z, c1.z, c2.z);
    let trace = m11 + m22 + m33;
    if trace > 0.0 {
        let s = 0.5 / (trace + 1.0).sqrt();
        DQuat::from_xyzw((m32 - m23) * s, (m13 - m31) * s, (m21 - m12) * s, 0.25 / s)
    } else if m11 > m22 && m11 > m33 {
        let s = 2.0 * (1.0 + m11 - m22 - m33).sqrt();
        DQuat::from_xyzw(0.25 * s, (m12 + m21) / s, (m13 + m31) / s, (m32 - m23) / s)
    } else if m22 > m33 {
        let s = 2.0 * (1.0 + m22 - m11 - m33).sqrt();
        DQuat::from_xyzw((m12 + m21) / s, 0.25 * s, (m23 + m32) / s, (m13 - m31) / s)
    } else {
        let s = 2.0 * (1.0 + m33 - m11 - m22).sqrt();
        DQuat::from_xyzw((m13 + m31) / s, (m23 + m32) / s, 0.25 * s, (m21 - m12) / s)
    }
}

fn material(color: &str) -> Value {
    json!({"color": color, "depthTest": false, "depthWrite": false, "transparent": true})
}

/// `CCDIKHelper` data per chain: mesh-local sphere positions (target 0xff8888, effector
/// 0x88ff88, links 0x8888ff) and the 0xff0000 polyline target → effector → links in f32.
pub fn helper_json(scene: &Scene, pose: &Pose) -> Value {
    let mesh_inv = scene.mesh.to_affine().inverse();
    let local = |b: usize| mesh_inv.transform_point3(pose.world_position(b));
    let f32s = |v: DVec3| [v.x as f32 as f64, v.y as f32 as f64, v.z as f32 as f64];
    let chains: Vec<Value> = scene
        .solver
        .chains
        .iter()
        .map(|c| {
            let target = mesh_inv.transform_point3(c.target_in_world(pose));
            let mut points = vec![f32s(target), f32s(local(c.effector))];
            points.extend(c.links.iter().map(|l| f32s(local(l.index))));
            json!({
                "target": {"position": target.to_array(), "material": material("0xff8888")},
                "effector": {"position": local(c.effector).to_array(), "material": material("0x88ff88")},
                "links": c.links.iter().map(|l| json!({
                    "position": local(l.index).to_array(), "material": material("0x8888ff")
                })).collect::<Vec<_>>(),
                "line": {"points": points, "material": material("0xff0000")},
                "sphere": {"radius": 0.25, "widthSegments": 16, "heightSegments": 8},
            })
        })
        .collect();
    Value::Array(chains)
}

/// The oracle-shaped result of `run` (solved without nudge); `conditioning` is the run with
/// every target nudged by 1e-6, as the oracle reports it, when given.
pub fn result_json(scene: &Scene, run: &CcdRun, conditioning: Option<&CcdRun>) -> Value {
    let pose = &run.pose;
    let bones: Vec<Value> = (0..pose.len())
        .map(|i| {
            let l = pose.local(i);
            let w = pose.world_from_bone(i);
            json!({
                "index": i,
                "name": scene.skeleton.bone(i).name,
                "quaternion": quat_xyzw(l.rotation),
                "eulerXYZ": run.euler[i].to_array(),
                "position": l.translation.to_array(),
                "scale": l.scale.to_array(),
                "worldPosition": w.translation.to_array(),
                "worldQuaternion": quat_xyzw(three_world_quaternion(w)),
            })
        })
        .collect();
    let finals = chain_states(scene, pose);
    let chains: Vec<Value> = scene
        .solver
        .chains
        .iter()
        .enumerate()
        .map(|(k, c)| {
            json!({
                "ik": k,
                "target": c.target_bone(),
                "effector": c.effector,
                "initialDistance": run.initial[k].distance,
                "initialEffectorWorld": run.initial[k].effector_world.to_array(),
                "targetWorld": finals[k].target_world.to_array(),
                "effectorWorld": finals[k].effector_world.to_array(),
                "distance": finals[k].distance,
                "distanceHistory": run.history.iter().map(|h| h[k]).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut out = json!({
        "format": "threejs-ccd-oracle/1",
        "three": {"revision": "187"},
        "scene": scene.name,
        "updates": scene.updates,
        "globalBlendFactor": scene.global_blend_factor,
        "warnings": [],
        "bones": bones,
        "chains": chains,
        "helper": helper_json(scene, pose),
    });
    if let Some(p) = conditioning {
        let (mut max_quat, mut max_pos) = (0.0f64, 0.0f64);
        for i in 0..pose.len() {
            let (q1, q2) = (pose.local(i).rotation, p.pose.local(i).rotation);
            let q2 = if q1.dot(q2) < 0.0 { -q2 } else { q2 };
            max_quat = max_quat.max((DVec4::from(q1) - DVec4::from(q2)).abs().max_element());
            max_pos = max_pos.max(pose.world_position(i).distance(p.pose.world_position(i)));
        }
        out["conditioning"] = json!({
            "targetNudge": CONDITIONING_NUDGE,
            "maxQuatComponentDelta": max_quat,
            "maxWorldPositionDelta": max_pos,
        });
    }
    out
}

/// Target nudge of the oracle's conditioning estimate.
pub const CONDITIONING_NUDGE: f64 = 1e-6;

/// Solves `scene` (and the nudged copy) and returns the full oracle-shaped result.
///
/// # Errors
/// When any value of the result is not finite (an intermediate result overflowed), named by
/// its JSON path: no NaN, infinity or `null` ever reaches the output.
pub fn ccd_result(scene: &Scene) -> Result<Value, super::SceneError> {
    let run = run_ccd(scene, 0.0);
    let nudged = run_ccd(scene, CONDITIONING_NUDGE);
    let value = result_json(scene, &run, Some(&nudged));
    match first_null(&value, "") {
        // `globalBlendFactor` (three's default) and `scene` (an unnamed scene) are null by
        // design; any other null is a NaN or an infinity that serde_json wrote as null.
        Some(path) => Err(super::SceneError::NonFiniteResult { at: path }),
        None => Ok(value),
    }
}

/// The JSON path of the first `null` in `v` other than the top-level `globalBlendFactor` and
/// `scene`.
fn first_null(v: &Value, path: &str) -> Option<String> {
    match v {
        Value::Null if !matches!(path, "globalBlendFactor" | "scene") => Some(path.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| first_null(x, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, x)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            first_null(x, &p)
        }),
        _ => None,
    }
}
