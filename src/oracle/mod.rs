//! Reader for the three.js CCD oracle scene format (`shared/oracles/threejs-ccd/README.md`)
//! plus an optional `twoBone` block, and the oracle-shaped result of a CCD run.
//!
//! Parsing works on a `&str` with a source name for messages; the file is read by the caller.
//! Every error names the source and the JSON path, e.g.
//! `scene.json: iks[0].links[2].index: 9 is out of range (6 bones)`.

mod reader;
pub use reader::ROOT_PATH;
#[cfg(test)]
pub(crate) use reader::path_at;
pub(crate) use reader::syntax_path;
mod result;

pub use result::{CcdRun, ccd_result, result_json, run_ccd};

use crate::ik::ccd::{CcdChain, CcdError, CcdLink, CcdSolver};
use crate::rig::{Bone, Pose, Skeleton, SkeletonError, Transform};
use glam::{DQuat, DVec3};
use reader::{Reader, join};
use serde_json::{Map, Value};
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum SceneError {
    #[error("{file}: invalid JSON at line {line}, column {column} (in {path}): {message}")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        path: String,
        message: String,
    },
    #[error("{file}: {path}: {message}")]
    Invalid {
        file: String,
        path: String,
        message: String,
    },
    /// A solve overflowed: the scene parsed, but an intermediate result was not finite.
    #[error("{at}: the solve produced a non-finite value (inputs too large?)")]
    NonFiniteResult { at: String },
}

/// The optional `twoBone` block: world-space target and pole for a root → mid → tip chain.
/// Indices are in range and distinct, numbers finite; nothing else is checked here.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoBoneSpec {
    pub root: usize,
    pub mid: usize,
    pub tip: usize,
    pub target: DVec3,
    pub pole: DVec3,
    pub weight: Option<f64>,
    pub soften: Option<f64>,
    pub twist: Option<f64>,
    /// `[min, max]` elbow bend in degrees.
    pub elbow_limit_deg: Option<[f64; 2]>,
}

/// A parsed scene: rig, initial pose (targets already moved by `targetPosition`, the mesh
/// transform as the actor placement, world transforms refreshed) and the CCD solver.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub name: Option<String>,
    pub description: Option<String>,
    pub skeleton: Skeleton,
    pub pose: Pose,
    /// The SkinnedMesh transform (world-from-actor).
    pub mesh: Transform,
    /// Validated against `skeleton`.
    pub solver: CcdSolver,
    /// Number of `update()` calls (default 1).
    pub updates: u32,
    /// `update()` argument; `None` means three's default 1.0.
    pub global_blend_factor: Option<f64>,
    pub two_bone: Option<TwoBoneSpec>,
}

const MAX_COUNT: i64 = 1_000_000;

/// Parses and validates a scene. `source` names the text in messages (usually the path).
pub fn parse_scene(text: &str, source: &str) -> Result<Scene, SceneError> {
    let root: Value =
        serde_json::from_str(text).map_err(|e| reader::syntax_error(source, text, &e))?;
    let r = Reader { source };
    let top = r.object(&root, "")?;
    let opt_string = |key: &str| -> Result<Option<String>, SceneError> {
        Reader::optional(top, key)
            .map(|v| r.string(v, key).map(str::to_string))
            .transpose()
    };
    let name = opt_string("name")?;
    let description = opt_string("description")?;

    let bones_v = r.array(r.required(top, "bones", "")?, "bones")?;
    if bones_v.is_empty() {
        return Err(r.err("bones", "must hold at least one bone"));
    }
    let count = bones_v.len();
    let mut bones = Vec::with_capacity(count);
    for (i, b) in bones_v.iter().enumerate() {
        bones.push(parse_bone(&r, b, i, count)?);
    }

    let mesh = parse_mesh(&r, top)?;

    let chains = match Reader::optional(top, "iks") {
        None => Vec::new(),
        Some(v) => {
            let a = r.array(v, "iks")?;
            let mut chains = Vec::with_capacity(a.len());
            for (k, ik) in a.iter().enumerate() {
                let (chain, target_position) = parse_chain(&r, ik, k, count)?;
                if let (Some(p), Some(bone)) = (target_position, chain.target_bone()) {
                    bones[bone].rest.translation = p;
                }
                chains.push(chain);
            }
            chains
        }
    };

    let skeleton = Skeleton::new(bones).map_err(|e| skeleton_error(&r, e))?;
    let solver = CcdSolver::new(chains);
    solver.validate(&skeleton).map_err(|e| ccd_error(&r, &e))?;

    let updates = match Reader::optional(top, "updates") {
        Some(v) => r.integer(v, "updates", 0, MAX_COUNT)? as u32,
        None => 1,
    };
    let global_blend_factor = Reader::optional(top, "globalBlendFactor")
        .map(|v| r.number(v, "globalBlendFactor"))
        .transpose()?;
    let two_bone = Reader::optional(top, "twoBone")
        .map(|v| parse_two_bone(&r, v, count))
        .transpose()?;

    let mut pose = Pose::rest(&skeleton);
    pose.set_world_from_actor(mesh);
    pose.refresh_all(&skeleton);
    // Each number is bounded, but a deep chain of large scales can still overflow.
    if let Some(b) = (0..pose.len()).find(|&b| !pose.world_from_bone(b).is_finite()) {
        return Err(r.err(
            &format!("bones[{b}]"),
            "its world transform overflows (the chain's scales and offsets multiply past f64)",
        ));
    }
    Ok(Scene {
        name,
        description,
        skeleton,
        pose,
        mesh,
        solver,
        updates,
        global_blend_factor,
        two_bone,
    })
}

/// `bones[i]`: name (default `bone{i}`), parent (`-1` or absent for none) and rest transform.
fn parse_bone(r: &Reader, b: &Value, i: usize, count: usize) -> Result<Bone, SceneError> {
    let path = format!("bones[{i}]");
    let o = r.object(b, &path)?;
    let name = match Reader::optional(o, "name") {
        Some(v) => r.string(v, &join(&path, "name"))?.to_string(),
        None => format!("bone{i}"),
    };
    let parent = match Reader::optional(o, "parent") {
        None => None,
        Some(v) => {
            let p = join(&path, "parent");
            if v.as_f64() == Some(-1.0) {
                None
            } else {
                let idx = r.index(v, &p, count)?;
                if idx == i {
                    return Err(r.err(&p, format!("bone {i} cannot be its own parent")));
                }
                Some(idx)
            }
        }
    };
    let mut rest = Transform::IDENTITY;
    if let Some(v) = Reader::optional(o, "position") {
        rest.translation = r.vec3(v, &join(&path, "position"))?;
    }
    if let Some(v) = Reader::optional(o, "quaternion") {
        rest.rotation = r.quat(v, &join(&path, "quaternion"))?;
    }
    if let Some(v) = Reader::optional(o, "scale") {
        rest.scale = r.vec3(v, &join(&path, "scale"))?;
    }
    Ok(Bone { name, parent, rest })
}

/// The optional `mesh` block: the SkinnedMesh transform (identity when absent).
fn parse_mesh(r: &Reader, top: &Map<String, Value>) -> Result<Transform, SceneError> {
    let mut mesh = Transform::IDENTITY;
    if let Some(m) = Reader::optional(top, "mesh") {
        let o = r.object(m, "mesh")?;
        if let Some(v) = Reader::optional(o, "position") {
            mesh.translation = r.vec3(v, "mesh.position")?;
        }
        if let Some(v) = Reader::optional(o, "quaternion") {
            mesh.rotation = r.quat(v, "mesh.quaternion")?;
        }
        if let Some(v) = Reader::optional(o, "scale") {
            mesh.scale = r.vec3(v, "mesh.scale")?;
            if mesh.scale.min_element() <= 0.0 {
                return Err(r.err("mesh.scale", "scale must be positive"));
            }
        }
    }
    Ok(mesh)
}

fn skeleton_error(r: &Reader, e: SkeletonError) -> SceneError {
    match &e {
        SkeletonError::ParentOutOfRange { bone, .. } | SkeletonError::Cycle { bone, .. } => {
            r.err(&format!("bones[{bone}].parent"), e.to_string())
        }
        SkeletonError::NonFinite { bone, .. } => r.err(&format!("bones[{bone}]"), e.to_string()),
        SkeletonError::BadScale { bone, .. } => {
            r.err(&format!("bones[{bone}].scale"), e.to_string())
        }
    }
}

fn ccd_error(r: &Reader, e: &CcdError) -> SceneError {
    let text = e.to_string();
    let path = e.path();
    // The solver's message starts with the path; keep only the problem after it.
    let message = text
        .strip_prefix(&format!("{path}: "))
        .unwrap_or(&text)
        .to_string();
    r.err(&path, message)
}

fn parse_chain(
    r: &Reader,
    ik: &Value,
    k: usize,
    count: usize,
) -> Result<(CcdChain, Option<DVec3>), SceneError> {
    let path = format!("iks[{k}]");
    let o = r.object(ik, &path)?;
    let target = r.index(
        r.required(o, "target", &path)?,
        &join(&path, "target"),
        count,
    )?;
    let effector = r.index(
        r.required(o, "effector", &path)?,
        &join(&path, "effector"),
        count,
    )?;
    let mut links = Vec::new();
    if let Some(v) = Reader::optional(o, "links") {
        let lp = join(&path, "links");
        for (j, l) in r.array(v, &lp)?.iter().enumerate() {
            let p = format!("{lp}[{j}]");
            let lo = r.object(l, &p)?;
            let index = r.index(r.required(lo, "index", &p)?, &join(&p, "index"), count)?;
            let mut link = CcdLink::new(index);
            if let Some(v) = Reader::optional(lo, "limitation") {
                let a = r.vec3(v, &join(&p, "limitation"))?;
                if a.length_squared() == 0.0 {
                    return Err(r.err(&join(&p, "limitation"), "axis has zero length"));
                }
                link.limitation = Some(a);
            }
            if let Some(v) = Reader::optional(lo, "rotationMin") {
                link.rotation_min = Some(r.vec3(v, &join(&p, "rotationMin"))?);
            }
            if let Some(v) = Reader::optional(lo, "rotationMax") {
                link.rotation_max = Some(r.vec3(v, &join(&p, "rotationMax"))?);
            }
            if let Some(v) = Reader::optional(lo, "enabled") {
                link.enabled = r.boolean(v, &join(&p, "enabled"))?;
            }
            links.push(link);
        }
    }
    let mut chain = CcdChain::new(target, effector, links);
    if let Some(v) = Reader::optional(o, "iteration") {
        chain.iteration = r.integer(v, &join(&path, "iteration"), 0, MAX_COUNT)? as u32;
    }
    let num = |key: &str| {
        Reader::optional(o, key)
            .map(|v| r.number(v, &join(&path, key)))
            .transpose()
    };
    chain.min_angle = num("minAngle")?;
    chain.max_angle = num("maxAngle")?;
    chain.blend_factor = num("blendFactor")?;
    let target_position = Reader::optional(o, "targetPosition")
        .map(|v| r.vec3(v, &join(&path, "targetPosition")))
        .transpose()?;
    Ok((chain, target_position))
}

fn parse_two_bone(r: &Reader, v: &Value, count: usize) -> Result<TwoBoneSpec, SceneError> {
    let path = "twoBone";
    let o = r.object(v, path)?;
    let idx = |key: &str| r.index(r.required(o, key, path)?, &join(path, key), count);
    let (root, mid, tip) = (idx("root")?, idx("mid")?, idx("tip")?);
    if root == mid || mid == tip || root == tip {
        return Err(r.err(
            path,
            format!("root, mid and tip must be three different bones (got {root}, {mid}, {tip})"),
        ));
    }
    let v3 = |key: &str| r.vec3(r.required(o, key, path)?, &join(path, key));
    let num = |key: &str| {
        Reader::optional(o, key)
            .map(|v| r.number(v, &join(path, key)))
            .transpose()
    };
    Ok(TwoBoneSpec {
        root,
        mid,
        tip,
        target: v3("target")?,
        pole: v3("pole")?,
        weight: num("weight")?,
        soften: num("soften")?,
        twist: num("twist")?,
        elbow_limit_deg: Reader::optional(o, "elbowLimitDeg")
            .map(|v| r.vec2(v, "twoBone.elbowLimitDeg"))
            .transpose()?,
    })
}

/// A quaternion as three.js prints it: `[x, y, z, w]`.
pub fn quat_xyzw(q: DQuat) -> [f64; 4] {
    [q.x, q.y, q.z, q.w]
}
