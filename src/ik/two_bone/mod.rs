//! Two-bone IK, following seed 001 step by step, plus weight, softening, twist and an elbow
//! hinge limit.
//!
//! Shoulder `A` (origin of `root`), elbow `B` (origin of `mid`), wrist `C` (origin of `tip`),
//! target `T`, pole `P`; `a = |B−A|`, `b = |C−B|` are preserved.
//!
//! 1. Everything happens in world space.
//! 2. Reach: `d = clamp(|T−A|, |a−b| + m, a+b − m)`, `m = min(a,b)·1e-4`; the direction `u`
//!    falls back to the current shoulder→wrist, then the current upper-arm direction when
//!    `T ≈ A`. The clamped target `A + u·d` is used by both segments.
//! 3. Bend plane: `v = normalize(w − u(w·u))`, `w = P − A`, falling back to the current elbow's
//!    projection, then to the world axis least parallel to `u`.
//! 4. Elbow: `x = (a² + d² − b²)/(2d)`, `h = sqrt(max(0, a² − x²))`, `B* = A + x·u + h·v`.
//! 5. The upper arm turns by the world-space correction `Δ` from `B−A` to `B*−A`, written
//!    back as `local = parent_world_rot⁻¹ · (Δ · world_rot)`; the forearm is then turned from
//!    `C−B*` to `C*−B*` the same way, with `C` where `Δ` moved it. (The seed refreshes the world
//!    matrices and reads `C` back; `Δ` turns the chain rigidly about `A`, so `A + Δ(C−A)` and the
//!    turned world rotations are the same to rounding. At full weight the turns put the joints
//!    on `A`, `B*`, `C*`, so the chain's world origins and rotations are written from them once,
//!    at the end; only the scaled world matrices are composed.)
//! 6. Near-180° corrections use `axis = cross/|cross|`, `angle = atan2(|cross|, dot)` while the
//!    cross product still defines an axis (see [`rotation_between`]).
//!
//! The solve runs in stages like ozz-animation's `IKTwoBoneJob`: `reach` (step 2 with
//! softening, the reach clamp and the elbow limit), `bend_plane` (step 3), the cosine law
//! (step 4) and `turn_arm` (step 5).
//!
//! Bones may use any local axis: directions come from child positions, never from "+Y".
//! Parents may be rotated and translated and carry positive uniform scale.

use crate::rig::{Pose, Skeleton};
pub use crate::rig::{apply_world_rotation, rotation_between};
use glam::DVec3;
use thiserror::Error;

mod stages;

/// Which end of the reachable range clamped the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReachClamp {
    /// The target distance was within the reachable range.
    None,
    /// `|T−A| > a + b − m`: the arm straightens toward the target.
    TooFar,
    /// `|T−A| < |a − b| + m`: the arm folds as far as its lengths allow.
    TooNear,
}

/// Which degenerate-direction fallback the solve took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// Target and pole both defined their directions.
    None,
    /// The target coincides with the shoulder; the reach direction came from the current pose.
    TargetOnShoulder,
    /// The pole lies on the shoulder→target line (or on the shoulder); the bend plane came from
    /// the current elbow or from a world axis.
    PoleOnAxis,
}

/// Elbow hinge limit on the bend angle (0 = straight arm, π = fully folded), radians.
///
/// The reach clamp's margin takes priority: the arm never bends less than it does at
/// `d = a+b−m` nor more than at `d = |a−b|+m`, even when the limit would allow it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ElbowLimit {
    /// Smallest allowed bend, radians in `[0, π]`.
    pub min_bend: f64,
    /// Largest allowed bend, radians in `[min_bend, π]`.
    pub max_bend: f64,
    /// A disabled limit is ignored by the solver but kept for the UI.
    pub enabled: bool,
}

impl ElbowLimit {
    /// An enabled limit from bends in degrees.
    pub fn from_degrees(min: f64, max: f64) -> Self {
        Self {
            min_bend: min.to_radians(),
            max_bend: max.to_radians(),
            enabled: true,
        }
    }
}

/// Input of one two-bone solve. Plain data; see the module docs for the algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoBoneJob {
    /// Upper arm bone; its origin is the shoulder `A`.
    pub root: usize,
    /// Forearm bone; its origin is the elbow `B`. Must be a descendant of `root`.
    pub mid: usize,
    /// Hand bone; its origin is the wrist `C`. Must be a descendant of `mid`.
    pub tip: usize,
    /// Where the wrist should go, world space.
    pub target_in_world: DVec3,
    /// Point the elbow bends toward, world space (its direction off the shoulder→target line).
    pub pole_in_world: DVec3,
    /// Blend with the input pose, 0..=1 (1 = fully solved).
    pub weight: f64,
    /// ozz-style softening ratio, 0..=1: the fraction of full reach from which the wrist starts
    /// to lag behind the target. 1 disables softening.
    pub soften: f64,
    /// Extra rotation of the bend plane about the shoulder→target axis, radians.
    pub twist: f64,
    /// Optional hinge limit on the elbow bend.
    pub elbow_limit: Option<ElbowLimit>,
}

impl TwoBoneJob {
    /// A job with weight 1, no softening, no twist and no limit.
    pub fn new(root: usize, mid: usize, tip: usize, target: DVec3, pole: DVec3) -> Self {
        Self {
            root,
            mid,
            tip,
            target_in_world: target,
            pole_in_world: pole,
            weight: 1.0,
            soften: 1.0,
            twist: 0.0,
            elbow_limit: None,
        }
    }
}

/// Why [`TwoBoneJob::validate`] rejected a job.
#[derive(Debug, Error, PartialEq)]
pub enum TwoBoneError {
    /// `root`, `mid` or `tip` is not a bone of the skeleton and pose.
    #[error("bone index {index} is out of range ({count} bones)")]
    IndexOutOfRange {
        /// The bad index.
        index: usize,
        /// Number of bones in the skeleton.
        count: usize,
    },
    /// Two of `root`, `mid`, `tip` are the same bone (payload: the three indices).
    #[error("root, mid and tip must be three different bones (got {0}, {1}, {2})")]
    NotDistinct(usize, usize, usize),
    /// `mid` does not descend from `root`, or `tip` from `mid`.
    #[error("bone {child} is not a descendant of bone {ancestor}")]
    NotAChain {
        /// The expected ancestor.
        ancestor: usize,
        /// The bone that is not below it.
        child: usize,
    },
    /// An input or a chain world position is NaN or infinite.
    #[error("{what} is not finite")]
    NonFinite {
        /// Which value.
        what: &'static str,
    },
    /// A parameter lies outside its allowed range.
    #[error("{what} = {value} is outside {range}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The allowed range, as text.
        range: &'static str,
    },
    /// A segment is (relatively) zero length in the current pose.
    #[error("{segment} has zero length ({length:e}); two-bone IK needs two real segments")]
    ZeroLength {
        /// Which segment.
        segment: &'static str,
        /// Its world-space length.
        length: f64,
    },
    /// A local scale on `tip` or its ancestors, or the actor's, is not uniform.
    #[error("bone {bone} has non-uniform scale {scale:?}; two-bone IK needs uniform scale")]
    NonUniformScale {
        /// The bone, or `usize::MAX` for the actor placement.
        bone: usize,
        /// Its scale, `[x, y, z]`.
        scale: [f64; 3],
    },
}

/// Result of one solve. Every number is finite for any input that passed `validate()`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct TwoBoneReport {
    /// The wrist ends within `1e-5·(a+b)` of the requested target.
    pub reached: bool,
    /// Distance from the final wrist to the requested target.
    pub residual: f64,
    /// Whether and how the reach was clamped.
    pub clamp: ReachClamp,
    /// Softening pulled the wrist short of the target.
    pub softened: bool,
    /// The elbow limit clamped the bend.
    pub elbow_limited: bool,
    /// Cosine of the final elbow bend (see [`TwoBoneReport::elbow_bend`]); the angle itself
    /// costs an `acos` that a solve in a tight loop rarely needs. Serialised as the angle,
    /// `elbow_bend`.
    #[serde(rename = "elbow_bend", serialize_with = "serialize_acos")]
    pub cos_elbow_bend: f64,
    /// Unit normal of the bend plane, `u × v` (shoulder→target × pole direction).
    pub bend_normal: DVec3,
    /// The first degenerate-direction fallback taken, if any.
    pub fallback: Fallback,
    /// The solved elbow `B*` (before weighting), world space.
    pub elbow_in_world: DVec3,
    /// The clamped wrist target `C*` (before weighting), world space.
    pub wrist_goal_in_world: DVec3,
}

impl TwoBoneReport {
    /// Final elbow bend: the angle between upper arm and forearm directions (0 = straight),
    /// radians in `[0, π]`.
    pub fn elbow_bend(&self) -> f64 {
        self.cos_elbow_bend.acos()
    }
}

fn serialize_acos<S: serde::Serializer>(cos: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(cos.acos())
}

fn is_uniform(s: DVec3) -> bool {
    let tol = 1e-6 * s.x.abs().max(1e-300);
    (s.x - s.y).abs() <= tol && (s.x - s.z).abs() <= tol
}

/// A parameter's allowed closed range `lo..=hi`, with the text errors name it by. The
/// ranges of the arm's parameters are stated here once: the job checks them and the solver
/// settings' rules (`fishing::SolverSettings::problems`) read them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamRange {
    /// The smallest allowed value.
    pub lo: f64,
    /// The largest allowed value.
    pub hi: f64,
    /// The range as errors print it.
    pub text: &'static str,
}

/// The weight of the solve: 0 leaves the arm, 1 reaches.
pub const WEIGHT_RANGE: ParamRange = ParamRange {
    lo: 0.0,
    hi: 1.0,
    text: "[0, 1]",
};
/// The soften factor near full reach.
pub const SOFTEN_RANGE: ParamRange = ParamRange {
    lo: 0.0,
    hi: 1.0,
    text: "[0, 1]",
};
/// The elbow limit's bends, radians.
pub const BEND_RANGE: ParamRange = ParamRange {
    lo: 0.0,
    hi: std::f64::consts::PI,
    text: "[0, π]",
};
/// The twist of the bend plane about the root → target line, radians (a turn either way
/// covers every plane).
pub const TWIST_RANGE: ParamRange = ParamRange {
    lo: -std::f64::consts::PI,
    hi: std::f64::consts::PI,
    text: "[−π, π]",
};

/// `value` within `range`; NaN and infinities are [`TwoBoneError::NonFinite`], other values
/// outside are [`TwoBoneError::OutOfRange`] with the range's text.
#[inline(always)]
fn check_range(what: &'static str, value: f64, range: ParamRange) -> Result<(), TwoBoneError> {
    if value >= range.lo && value <= range.hi {
        Ok(())
    } else if value.is_finite() {
        Err(TwoBoneError::OutOfRange {
            what,
            value,
            range: range.text,
        })
    } else {
        Err(TwoBoneError::NonFinite { what })
    }
}

impl TwoBoneJob {
    /// Checks indices, chain structure, finite inputs, parameter ranges, segment lengths in the
    /// current pose (zero-length segments are errors, not solved) and uniform scale on the chain
    /// and its ancestors. Precondition: `pose` world transforms are current.
    ///
    /// # Errors
    ///
    /// The first failed check, as the matching [`TwoBoneError`] variant.
    pub fn validate(&self, skeleton: &Skeleton, pose: &Pose) -> Result<(), TwoBoneError> {
        self.checked_lengths(skeleton, pose).map(|_| ())
    }

    /// [`TwoBoneJob::validate`], returning the segment lengths `(|B−A|, |C−B|)` it measured
    /// (the solve needs them too).
    fn checked_lengths(
        &self,
        skeleton: &Skeleton,
        pose: &Pose,
    ) -> Result<(f64, f64), TwoBoneError> {
        let count = skeleton.len();
        let usable = count.min(pose.len());
        if self.root.max(self.mid).max(self.tip) >= usable {
            let index = [self.root, self.mid, self.tip]
                .into_iter()
                .find(|&i| i >= usable)
                .unwrap_or(usable);
            return Err(TwoBoneError::IndexOutOfRange { index, count });
        }
        if self.root == self.mid || self.mid == self.tip || self.root == self.tip {
            return Err(TwoBoneError::NotDistinct(self.root, self.mid, self.tip));
        }
        for (ancestor, child) in [(self.root, self.mid), (self.mid, self.tip)] {
            if !skeleton.is_ancestor(ancestor, child) {
                return Err(TwoBoneError::NotAChain { ancestor, child });
            }
        }
        if !self.target_in_world.is_finite() {
            return Err(TwoBoneError::NonFinite { what: "target" });
        }
        if !self.pole_in_world.is_finite() {
            return Err(TwoBoneError::NonFinite { what: "pole" });
        }
        check_range("weight", self.weight, WEIGHT_RANGE)?;
        check_range("soften", self.soften, SOFTEN_RANGE)?;
        check_range("twist", self.twist, TWIST_RANGE)?;
        if let Some(limit) = self.elbow_limit {
            check_range("min bend", limit.min_bend, BEND_RANGE)?;
            check_range("max bend", limit.max_bend, BEND_RANGE)?;
            if limit.min_bend > limit.max_bend {
                return Err(TwoBoneError::OutOfRange {
                    what: "min bend",
                    value: limit.min_bend,
                    range: "≤ max bend",
                });
            }
        }
        // Uniform to the tolerance below is implied by exactly uniform everywhere.
        let mut cur = (!pose.all_local_scales_uniform()).then_some(self.tip);
        while let Some(b) = cur {
            let s = pose.local(b).scale;
            if !is_uniform(s) {
                return Err(TwoBoneError::NonUniformScale {
                    bone: b,
                    scale: s.to_array(),
                });
            }
            cur = skeleton.parent(b);
        }
        let actor = pose.world_from_actor();
        if !actor.has_uniform_scale() && !is_uniform(actor.scale) {
            return Err(TwoBoneError::NonUniformScale {
                bone: usize::MAX,
                scale: actor.scale.to_array(),
            });
        }
        let a_pos = pose.world_position(self.root);
        let b_pos = pose.world_position(self.mid);
        let c_pos = pose.world_position(self.tip);
        let a = (b_pos - a_pos).length();
        let b = (c_pos - b_pos).length();
        // A non-finite elbow or wrist makes a segment length non-finite.
        if !(a_pos.is_finite() && (a + b).is_finite()) {
            return Err(TwoBoneError::NonFinite {
                what: "chain world position",
            });
        }
        let scale = a.max(b).max(a_pos.abs().max_element()).max(1e-300);
        // Written out, not as a table: the segment names only materialise on the error path.
        if a <= 1e-9 * scale {
            return Err(TwoBoneError::ZeroLength {
                segment: "upper segment (root→mid)",
                length: a,
            });
        }
        if b <= 1e-9 * scale {
            return Err(TwoBoneError::ZeroLength {
                segment: "lower segment (mid→tip)",
                length: b,
            });
        }
        Ok((a, b))
    }

    /// Validates, then solves, and refreshes the world transforms of `root`'s subtree.
    /// Precondition: `pose` world transforms are current. On error the pose is untouched.
    ///
    /// # Errors
    ///
    /// Whatever [`TwoBoneJob::validate`] returns.
    pub fn solve(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
    ) -> Result<TwoBoneReport, TwoBoneError> {
        let lengths = self.checked_lengths(skeleton, pose)?;
        Ok(self.solve_valid_chain(skeleton, pose, lengths, true))
    }

    /// Like [`TwoBoneJob::solve`], but refreshes only the bones on the path `root → tip`:
    /// descendants of `tip` and side branches stay stale until the caller refreshes `root`'s
    /// subtree (the pose pipeline does so once, after palm and fingers).
    ///
    /// # Errors
    ///
    /// Whatever [`TwoBoneJob::validate`] returns; the pose is then untouched.
    pub fn solve_chain(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
    ) -> Result<TwoBoneReport, TwoBoneError> {
        let lengths = self.checked_lengths(skeleton, pose)?;
        Ok(self.solve_valid_chain(skeleton, pose, lengths, false))
    }
}
