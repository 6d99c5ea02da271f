//! CCD (cyclic coordinate descent) IK with three.js r187 `CCDIKSolver.update()` semantics.
//!
//! The step list is `shared/oracles/threejs-ccd/README.md`; this port follows it in f64 and
//! matches three.js to ~1e-11. Deliberate differences, all in cases where three builds a
//! non-unit or NaN quaternion: when `cross(e, t) = 0` with the target exactly behind the
//! effector, the step turns about a fixed perpendicular of `e` (`any_orthonormal_vector`);
//! when the effector or target sits on the link (a zero direction) the step is skipped like a
//! sub-1e-5 one; and the limitation's `c = w` is also clamped below at -1.
//!
//! Speed: `update_into` allocates nothing once its report has grown to size; a pass costs
//! O(links) with uniform scales (see `solve.rs` for the two bookkeeping variants), and the moved
//! subtree is refreshed in the pose once at the end of each chain — identical to three's
//! per-step subtree refresh, because nothing else is read inside a chain. The step itself uses
//! the half-way quaternion `normalize(e × t, |e||t| + e·t)` instead of acos/sin/cos unless a
//! min/max angle needs the angle; an Euler limit that neither wraps nor clamps keeps the step's
//! quaternion instead of rebuilding it from its own angles; and `%` in three's wrap runs as
//! [`crate::ik::limits::rem_exact`] (bit-identical, without the software `fmod` loop). These
//! change results only at rounding level (~1e-15).

mod planar;
mod solve;
mod turn;

use crate::ik::euler_inside::EulerInsideTest;
use crate::ik::limits::{euler_xyz_from_quat, wrap_euler_near};
use crate::rig::{Pose, Skeleton, Transform};
use glam::{DAffine3, DQuat, DVec3};
use thiserror::Error;

/// One link of a chain (three.js `BoneLink`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdLink {
    /// The link's bone index.
    pub index: usize,
    /// Hinge axis (link-local, should be unit): the link's local rotation is forced to a
    /// rotation about this axis, keeping its angle and the sign of its component along it.
    pub limitation: Option<DVec3>,
    /// Euler XYZ lower limits of the link's local rotation (radians).
    pub rotation_min: Option<DVec3>,
    /// Euler XYZ upper limits of the link's local rotation (radians).
    pub rotation_max: Option<DVec3>,
    /// `false` stops the link loop here: this link and all links nearer the root are skipped.
    pub enabled: bool,
    /// Editor switch: `false` ignores `limitation` and `rotation_min/max` of this link.
    pub limits_enabled: bool,
}

impl CcdLink {
    /// A free, enabled link.
    pub fn new(index: usize) -> Self {
        Self {
            index,
            limitation: None,
            rotation_min: None,
            rotation_max: None,
            enabled: true,
            limits_enabled: true,
        }
    }
}

/// What a chain reaches for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CcdTarget {
    /// A bone's world position, read once at the chain's start (three.js's only kind).
    Bone(usize),
    /// A point in world space (not in three.js): a caller with a goal position needs no target
    /// bone, so no scratch skeleton.
    Point(DVec3),
}

/// One chain (three.js `IK` object). `links[0]` is the effector's parent, each next link the
/// previous one's parent.
#[derive(Clone, Debug, PartialEq)]
pub struct CcdChain {
    /// The goal (a bone's world position, read once at the chain's start, or a world point).
    pub target: CcdTarget,
    /// Bone that should reach the target.
    pub effector: usize,
    /// The links to rotate, effector's parent first, towards the root.
    pub links: Vec<CcdLink>,
    /// Passes per update (three's default 1).
    pub iteration: u32,
    /// Raises every step angle below it to it (radians).
    pub min_angle: Option<f64>,
    /// Caps every step angle (radians).
    pub max_angle: Option<f64>,
    /// Per-chain blend; overrides the global blend of [`CcdSolver::update`].
    pub blend_factor: Option<f64>,
    /// Not in three.js: stop after a pass that leaves the effector within this world
    /// distance of the target, or that leaves every rotation as it was, bit for bit (a link
    /// clamped back onto its limit each pass: later passes would repeat it). `None`, three's
    /// behaviour: only a pass that rotates nothing stops early. Used where the chain only
    /// has to reach (the CCD arm), never by the oracle scenes. Applies when every scale on
    /// the chain is uniform (the local variant of the loop); otherwise three's passes run.
    pub converged_within: Option<f64>,
    /// Not in three.js: a two-link chain jumps to the limit of three's passes once they have
    /// become planar (every later step turns both links about one axis), instead of closing
    /// a shrinking fraction of the gap per pass (near full reach, thousands of passes). Only
    /// where the passes provably head there: no `min_angle`, a hinge on link 0 square to
    /// both links, and no limit acting on the way; otherwise three's passes go on. `false`
    /// (three's behaviour) by default; the CCD arm sets it, the oracle scenes never do.
    /// Applies in the local (uniform-scale) variant. See `ik/ccd/planar.rs`.
    pub planar_finish: bool,
}

impl CcdChain {
    /// A chain toward the bone `target` (three.js) with one pass, no angle bounds and the
    /// global blend.
    pub fn new(target: usize, effector: usize, links: Vec<CcdLink>) -> Self {
        Self::toward(CcdTarget::Bone(target), effector, links)
    }

    /// Like [`CcdChain::new`] toward any [`CcdTarget`].
    pub fn toward(target: CcdTarget, effector: usize, links: Vec<CcdLink>) -> Self {
        Self {
            target,
            effector,
            links,
            iteration: 1,
            min_angle: None,
            max_angle: None,
            blend_factor: None,
            converged_within: None,
            planar_finish: false,
        }
    }

    /// The target bone, if the target is one.
    pub fn target_bone(&self) -> Option<usize> {
        match self.target {
            CcdTarget::Bone(b) => Some(b),
            CcdTarget::Point(_) => None,
        }
    }

    /// The goal in world space under `pose` (a bone target's world position).
    ///
    /// # Panics
    /// When a bone target is out of range for `pose` (call [`CcdSolver::validate`] first).
    pub fn target_in_world(&self, pose: &Pose) -> DVec3 {
        match self.target {
            CcdTarget::Bone(b) => pose.world_position(b),
            CcdTarget::Point(p) => p,
        }
    }
}

/// Which field of a chain an error is about; `path()` renders it like the scene JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcdField {
    /// [`CcdChain::target`].
    Target,
    /// [`CcdChain::effector`].
    Effector,
    /// `links[j].index`.
    LinkIndex(usize),
    /// `links[j].limitation`.
    Limitation(usize),
    /// `links[j].rotation_min`.
    RotationMin(usize),
    /// `links[j].rotation_max`.
    RotationMax(usize),
    /// [`CcdChain::min_angle`].
    MinAngle,
    /// [`CcdChain::max_angle`].
    MaxAngle,
    /// [`CcdChain::blend_factor`].
    BlendFactor,
}

impl std::fmt::Display for CcdField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Target => write!(f, "target"),
            Self::Effector => write!(f, "effector"),
            Self::LinkIndex(j) => write!(f, "links[{j}].index"),
            Self::Limitation(j) => write!(f, "links[{j}].limitation"),
            Self::RotationMin(j) => write!(f, "links[{j}].rotationMin"),
            Self::RotationMax(j) => write!(f, "links[{j}].rotationMax"),
            Self::MinAngle => write!(f, "minAngle"),
            Self::MaxAngle => write!(f, "maxAngle"),
            Self::BlendFactor => write!(f, "blendFactor"),
        }
    }
}

/// Why [`CcdSolver::validate`] rejected a solver. `chain` indexes [`CcdSolver::chains`].
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CcdError {
    /// A bone index is not below the skeleton's bone count.
    #[error("iks[{chain}].{field}: {index} is out of range ({count} bones)")]
    OutOfRange {
        /// Index of the chain.
        chain: usize,
        /// The offending field.
        field: CcdField,
        /// The bad bone index.
        index: usize,
        /// Number of bones in the skeleton.
        count: usize,
    },
    /// A link's bone is not the parent of the previous link (or of the effector, for link 0).
    #[error(
        "iks[{chain}].{field}: bone {bone} is not the parent of bone {child} \
         (links must run from the effector's parent towards the root; expected {expected})"
    )]
    NotAChain {
        /// Index of the chain.
        chain: usize,
        /// The offending field.
        field: CcdField,
        /// The link's bone.
        bone: usize,
        /// The bone it should be the parent of.
        child: usize,
        /// The parent the link should have been (`none` for a root child).
        expected: String,
    },
    /// A number is not finite, or a limitation axis has zero length.
    #[error("iks[{chain}].{field}: {problem}")]
    BadValue {
        /// Index of the chain.
        chain: usize,
        /// The offending field.
        field: CcdField,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The pose and the skeleton have different bone counts (not returned by `validate`).
    #[error("the pose has {pose} bones but the skeleton {skeleton}")]
    PoseMismatch {
        /// Bones in the pose.
        pose: usize,
        /// Bones in the skeleton.
        skeleton: usize,
    },
}

impl CcdError {
    /// JSON-style path of the offending field, e.g. `iks[0].links[2].index`; empty for
    /// [`CcdError::PoseMismatch`].
    pub fn path(&self) -> String {
        match self {
            Self::OutOfRange { chain, field, .. }
            | Self::NotAChain { chain, field, .. }
            | Self::BadValue { chain, field, .. } => format!("iks[{chain}].{field}"),
            Self::PoseMismatch { .. } => String::new(),
        }
    }
}

/// How three.js's stored `bone.rotation` (Euler) relates to a link after an update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EulerState {
    /// The update did not write this link.
    Untouched,
    /// Last written as a quaternion: three's Euler is derived from the quaternion.
    FromQuaternion,
    /// Last written by an Euler clamp: three keeps this exact vector (it may lie outside
    /// (-π, π] after the wrap).
    Stored(DVec3),
    /// Last written by an Euler clamp (with both limits) that moved no angle: three keeps the
    /// angles of the final rotation wrapped into `centre ± π` (`centre` = the mid-range,
    /// `(rotation_min + rotation_max) / 2`). Left to [`EulerState::vector`], so an update whose
    /// angles nobody reads does not decompose the rotation.
    Wrapped(DVec3),
}

impl EulerState {
    /// The Euler XYZ vector three.js stores for a link whose final local rotation is
    /// `rotation`; `None` when the update did not write the link.
    pub fn vector(&self, rotation: DQuat) -> Option<DVec3> {
        match *self {
            Self::Untouched => None,
            Self::FromQuaternion => Some(euler_xyz_from_quat(rotation)),
            Self::Stored(v) => Some(v),
            Self::Wrapped(c) => Some(wrap_euler_near(euler_xyz_from_quat(rotation), c)),
        }
    }
}

/// Per-link outcome of one update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkReport {
    /// The link's bone index.
    pub bone: usize,
    /// Steps that rotated this link (summed over passes).
    pub rotations: u32,
    /// An Euler limit moved the rotation in the last step that touched this link.
    pub on_limit: bool,
    /// How three.js's stored Euler angles of this bone relate to it after the update.
    pub euler: EulerState,
}

/// Per-chain outcome of one update.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChainReport {
    /// Target–effector distance when the chain started.
    pub initial_distance: f64,
    /// Target–effector distance after the chain (and its blend).
    pub final_distance: f64,
    /// Passes started (≤ `iteration`).
    pub iterations: u32,
    /// A pass rotated nothing, so later passes were not run.
    pub exited_early: bool,
    /// The blend used (`blend_factor` or the global one).
    pub blend: f64,
    /// One report per link, in [`CcdChain::links`] order (empty when skipped).
    pub links: Vec<LinkReport>,
    /// The chain was skipped because an index is out of range (call `validate`).
    pub skipped: bool,
    /// The planar finish ([`CcdChain::planar_finish`]) was taken, after this many passes.
    pub planar_finish: Option<u32>,
}

/// Buffers an update works in, kept between updates by [`CcdSolver::update_into`] so that a
/// solve allocates nothing once they have grown. Holds no result.
#[derive(Clone, Debug, Default)]
pub struct CcdWorkspace {
    saved: Vec<DQuat>,
    local_aff: Vec<DAffine3>,
    world: Vec<DAffine3>,
    target_in_link: Vec<DVec3>,
    locals: Vec<Transform>,
    /// Per link of every chain (chains' links laid end to end): the Euler limits a test was
    /// built for, and the test. Rebuilt when the limits change, so this holds no result.
    euler_tests: Vec<(Option<DVec3>, Option<DVec3>, Option<EulerInsideTest>)>,
}

/// Outcome of one [`CcdSolver::update`]; reuse it (and a [`CcdWorkspace`]) with
/// [`CcdSolver::update_into`] to avoid allocating.
#[derive(Clone, Debug, Default, PartialEq)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct CcdReport {
    /// One report per chain, in [`CcdSolver::chains`] order.
    pub chains: Vec<ChainReport>,
}

/// A set of chains solved in array order (three.js `CCDIKSolver`).
#[derive(Clone, Debug, PartialEq)]
pub struct CcdSolver {
    /// The chains, solved in this order.
    pub chains: Vec<CcdChain>,
    /// Global editor switch: `false` ignores every link's limits.
    pub limits_enabled: bool,
    /// Which world transforms an update refreshes after each chain.
    pub refresh: CcdRefresh,
}

/// Which world transforms [`CcdSolver::update`] refreshes after a chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CcdRefresh {
    /// The whole subtree of the highest rotated link (three.js's `updateMatrixWorld(true)`):
    /// every world transform of the pose is current afterwards.
    #[default]
    Subtree,
    /// Only the path from the highest rotated link down to the effector. Bones hanging off
    /// that path (the effector's children, siblings of links) keep stale world transforms
    /// until the caller refreshes them, and a later chain must not read them. For a caller
    /// that edits below the effector and refreshes the subtree itself once (the CCD arm:
    /// palm and fingers follow).
    Path,
}

/// Step angles below this are skipped (three's vibration guard).
pub const MIN_STEP_ANGLE: f64 = 1e-5;

impl CcdSolver {
    /// A solver over `chains` with limits enabled.
    pub fn new(chains: Vec<CcdChain>) -> Self {
        Self {
            chains,
            limits_enabled: true,
            refresh: CcdRefresh::Subtree,
        }
    }

    /// Checks every chain against `skeleton`: indices in range, links forming the parent chain
    /// from the effector (three only warns; this is an error), finite numbers, non-zero
    /// limitation axes. `update` assumes this passed.
    ///
    /// # Errors
    ///
    /// The first problem found, chain by chain, as a [`CcdError`] (never `PoseMismatch`).
    pub fn validate(&self, skeleton: &Skeleton) -> Result<(), CcdError> {
        let count = skeleton.len();
        for (k, chain) in self.chains.iter().enumerate() {
            let range = |field, index: usize| {
                if index >= count {
                    Err(CcdError::OutOfRange {
                        chain: k,
                        field,
                        index,
                        count,
                    })
                } else {
                    Ok(())
                }
            };
            let bad = |field, problem| CcdError::BadValue {
                chain: k,
                field,
                problem,
            };
            match chain.target {
                CcdTarget::Bone(b) => range(CcdField::Target, b)?,
                CcdTarget::Point(p) if !p.is_finite() => {
                    return Err(bad(CcdField::Target, "must be finite"));
                }
                CcdTarget::Point(_) => {}
            }
            range(CcdField::Effector, chain.effector)?;
            for (field, v) in [
                (CcdField::MinAngle, chain.min_angle),
                (CcdField::MaxAngle, chain.max_angle),
                (CcdField::BlendFactor, chain.blend_factor),
            ] {
                if v.is_some_and(|v| !v.is_finite()) {
                    return Err(bad(field, "must be a finite number"));
                }
            }
            let mut child = chain.effector;
            for (j, link) in chain.links.iter().enumerate() {
                range(CcdField::LinkIndex(j), link.index)?;
                if skeleton.parent(child) != Some(link.index) {
                    return Err(CcdError::NotAChain {
                        chain: k,
                        field: CcdField::LinkIndex(j),
                        bone: link.index,
                        child,
                        expected: skeleton
                            .parent(child)
                            .map_or("none: it is a root".into(), |p| format!("bone {p}")),
                    });
                }
                if let Some(a) = link.limitation {
                    if !a.is_finite() {
                        return Err(bad(CcdField::Limitation(j), "must be finite"));
                    }
                    if a.length_squared() == 0.0 {
                        return Err(bad(CcdField::Limitation(j), "axis has zero length"));
                    }
                }
                if link.rotation_min.is_some_and(|v| !v.is_finite()) {
                    return Err(bad(CcdField::RotationMin(j), "must be finite"));
                }
                if link.rotation_max.is_some_and(|v| !v.is_finite()) {
                    return Err(bad(CcdField::RotationMax(j), "must be finite"));
                }
                child = link.index;
            }
        }
        Ok(())
    }

    /// One three.js `update(global_blend)`: every chain in order. World transforms in `pose`
    /// must be current (refresh before the call, as a render loop does).
    pub fn update(&self, skeleton: &Skeleton, pose: &mut Pose, global_blend: f64) -> CcdReport {
        let mut report = CcdReport::default();
        let mut work = CcdWorkspace::default();
        self.update_into(skeleton, pose, global_blend, &mut report, &mut work);
        report
    }

    /// [`CcdSolver::update`] writing into a reused report and workspace (no allocation once
    /// they have grown).
    /// Precondition: `validate(skeleton)` returned `Ok`; a chain with an out-of-range index is
    /// skipped (`skipped = true`), and links that are not a parent chain give undefined (but
    /// finite) poses.
    pub fn update_into(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        global_blend: f64,
        report: &mut CcdReport,
        work: &mut CcdWorkspace,
    ) {
        report
            .chains
            .resize_with(self.chains.len(), ChainReport::default);
        let n = skeleton.len().min(pose.len());
        let mut first_link = 0;
        for (chain, out) in self.chains.iter().zip(report.chains.iter_mut()) {
            let tests = first_link..first_link + chain.links.len();
            first_link = tests.end;
            let fits = chain.target_bone().is_none_or(|b| b < n)
                && chain.effector < n
                && chain.links.iter().all(|l| l.index < n);
            out.links.clear();
            out.skipped = !fits;
            if !fits {
                out.iterations = 0;
                out.exited_early = false;
                continue;
            }
            self.update_chain(skeleton, pose, (chain, tests), global_blend, out, work);
        }
    }
}

/// three.js r187 `Quaternion.slerp(qb, t)` of `qa` toward `qb`: flips `qb` to the shorter arc,
/// and for `dot >= 0.9995` lerps and normalises. Finite for finite input (a zero result of the
/// lerp branch is returned as identity, as three's `normalize` does).
pub fn three_slerp(qa: DQuat, qb: DQuat, t: f64) -> DQuat {
    let mut b = qb;
    let mut dot = qa.dot(qb);
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    let s = 1.0 - t;
    if dot < 0.9995 {
        let theta = dot.acos();
        let sin = theta.sin();
        let s = (s * theta).sin() / sin;
        let t = (t * theta).sin() / sin;
        DQuat::from_xyzw(
            qa.x * s + b.x * t,
            qa.y * s + b.y * t,
            qa.z * s + b.z * t,
            qa.w * s + b.w * t,
        )
    } else {
        let q = DQuat::from_xyzw(
            qa.x * s + b.x * t,
            qa.y * s + b.y * t,
            qa.z * s + b.z * t,
            qa.w * s + b.w * t,
        );
        let l = q.length();
        if l == 0.0 {
            DQuat::IDENTITY
        } else {
            let inv = 1.0 / l;
            DQuat::from_xyzw(q.x * inv, q.y * inv, q.z * inv, q.w * inv)
        }
    }
}
