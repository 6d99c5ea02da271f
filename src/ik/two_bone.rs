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
//!    back as `local = parent_world_rot⁻¹ · (Δ · world_rot)`; world matrices are refreshed and
//!    the forearm is then turned from `C−B*` to `C*−B*` the same way.
//! 6. Near-180° corrections use `axis = cross/|cross|`, `angle = atan2(|cross|, dot)` while the
//!    cross product still defines an axis (see [`rotation_between`]).
//!
//! Bones may use any local axis: directions come from child positions, never from "+Y".
//! Parents may be rotated and translated and carry positive uniform scale.

use crate::rig::{Pose, Skeleton};
use glam::{DQuat, DVec3};
use thiserror::Error;

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
    /// Final elbow bend: the angle between upper arm and forearm directions (0 = straight).
    pub elbow_bend: f64,
    /// Unit normal of the bend plane, `u × v` (shoulder→target × pole direction).
    pub bend_normal: DVec3,
    /// The first degenerate-direction fallback taken, if any.
    pub fallback: Fallback,
    /// The solved elbow `B*` (before weighting), world space.
    pub elbow_in_world: DVec3,
    /// The clamped wrist target `C*` (before weighting), world space.
    pub wrist_goal_in_world: DVec3,
}

/// Rotation taking direction `from` to direction `to` (neither need be unit).
///
/// Regular case: the shortest arc. When the directions are nearly opposite
/// (`1 + dot < 1e-6`) but `|cross|` still defines an axis, the rotation is built from
/// `axis = cross/|cross|`, `angle = atan2(|cross|, dot)`, which keeps the tiny remaining
/// sine measurable (seed 001, §6). Exactly opposite directions (cross ≈ 0) turn by π about
/// `preferred_axis` made perpendicular to `from`, or about any perpendicular when that fails.
/// Zero-length inputs give the identity.
pub fn rotation_between(from: DVec3, to: DVec3, preferred_axis: DVec3) -> DQuat {
    // Fast path: the half-way quaternion `normalize(f × t, |f||t| + f·t)` is the shortest arc
    // without normalising either input first (one square root instead of three).
    let norms_sq = from.length_squared() * to.length_squared();
    if norms_sq >= f64::MIN_POSITIVE && norms_sq.is_finite() {
        let norms = norms_sq.sqrt();
        let dot = from.dot(to);
        let w = norms + dot;
        if w >= 1e-6 * norms {
            // 1 + cos ≥ 1e-6: the regular case of the seed.
            let cross = from.cross(to);
            let inv = 1.0 / (cross.length_squared() + w * w).sqrt();
            return DQuat::from_xyzw(cross.x * inv, cross.y * inv, cross.z * inv, w * inv);
        }
    }
    rotation_between_slow(from, to, preferred_axis)
}

/// [`rotation_between`] for nearly opposite, tiny or huge inputs.
#[cold]
fn rotation_between_slow(from: DVec3, to: DVec3, preferred_axis: DVec3) -> DQuat {
    let (Some(f), Some(t)) = (from.try_normalize(), to.try_normalize()) else {
        return DQuat::IDENTITY;
    };
    let dot = f.dot(t).clamp(-1.0, 1.0);
    if 1.0 + dot >= 1e-6 {
        return DQuat::from_rotation_arc(f, t);
    }
    let cross = f.cross(t);
    let sine = cross.length();
    if sine > 1e-300 {
        return DQuat::from_axis_angle(cross / sine, sine.atan2(dot));
    }
    let axis = (preferred_axis - f * preferred_axis.dot(f))
        .try_normalize()
        .unwrap_or_else(|| f.any_orthonormal_vector());
    DQuat::from_axis_angle(axis, std::f64::consts::PI)
}

/// Turns `bone` in world space by `delta` and writes the result as a local rotation through
/// the parent's world rotation: `local = parent_world_rot⁻¹ · (delta · world_rot)`.
/// Does not refresh world transforms.
///
/// # Panics
///
/// If `bone` is not a bone index of `pose`.
pub fn apply_world_rotation(skeleton: &Skeleton, pose: &mut Pose, bone: usize, delta: DQuat) {
    let world_new = delta * pose.world_rotation(bone);
    let parent = pose.parent_world_rotation(skeleton, bone);
    pose.set_local_rotation(bone, (parent.inverse() * world_new).normalize());
}

/// Refreshes the bones on the path from `from` (inclusive) down to its descendant `to`.
fn refresh_path(skeleton: &Skeleton, pose: &mut Pose, from: usize, to: usize) {
    // Paths in arm rigs are short (≤ a few twist bones); walk up from `to` into a small array.
    let mut path = [0usize; 16];
    let mut len = 0;
    let mut cur = to;
    loop {
        if len == path.len() {
            // Unusually long path: refresh the whole subtree instead.
            pose.refresh_subtree(skeleton, from);
            return;
        }
        path[len] = cur;
        len += 1;
        if cur == from {
            break;
        }
        match skeleton.parent(cur) {
            Some(p) => cur = p,
            None => break,
        }
    }
    for &b in path[..len].iter().rev() {
        pose.refresh_bone(skeleton, b);
    }
}

/// Refreshes every descendant of `from` that is not on the (already refreshed) path
/// `from → to`: the subtrees hanging off the path, and everything below `to`.
/// Precondition: `to` is a descendant of `from`.
fn refresh_off_path(skeleton: &Skeleton, pose: &mut Pose, from: usize, to: usize) {
    for &child in skeleton.children(to) {
        pose.refresh_subtree(skeleton, child);
    }
    let mut on_path = to;
    while on_path != from {
        let Some(b) = skeleton.parent(on_path) else {
            break;
        };
        for &child in skeleton.children(b) {
            if child != on_path {
                pose.refresh_subtree(skeleton, child);
            }
        }
        on_path = b;
    }
}

fn is_uniform(s: DVec3) -> bool {
    let tol = 1e-6 * s.x.abs().max(1e-300);
    (s.x - s.y).abs() <= tol && (s.x - s.z).abs() <= tol
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
        let count = skeleton.len();
        for index in [self.root, self.mid, self.tip] {
            if index >= count || index >= pose.len() {
                return Err(TwoBoneError::IndexOutOfRange { index, count });
            }
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
        let checks = [
            ("weight", self.weight, 0.0, 1.0, "[0, 1]"),
            ("soften", self.soften, 0.0, 1.0, "[0, 1]"),
            ("twist", self.twist, -1e6, 1e6, "finite radians"),
        ];
        for (what, value, lo, hi, range) in checks {
            if !value.is_finite() {
                return Err(TwoBoneError::NonFinite { what });
            }
            if value < lo || value > hi {
                return Err(TwoBoneError::OutOfRange { what, value, range });
            }
        }
        if let Some(limit) = self.elbow_limit {
            let pi = std::f64::consts::PI;
            for (what, value) in [("min bend", limit.min_bend), ("max bend", limit.max_bend)] {
                if !value.is_finite() {
                    return Err(TwoBoneError::NonFinite { what });
                }
                if !(0.0..=pi).contains(&value) {
                    return Err(TwoBoneError::OutOfRange {
                        what,
                        value,
                        range: "[0, π]",
                    });
                }
            }
            if limit.min_bend > limit.max_bend {
                return Err(TwoBoneError::OutOfRange {
                    what: "min bend",
                    value: limit.min_bend,
                    range: "≤ max bend",
                });
            }
        }
        let mut cur = Some(self.tip);
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
        if !is_uniform(pose.world_from_actor().scale) {
            return Err(TwoBoneError::NonUniformScale {
                bone: usize::MAX,
                scale: pose.world_from_actor().scale.to_array(),
            });
        }
        let a_pos = pose.world_position(self.root);
        let b_pos = pose.world_position(self.mid);
        let c_pos = pose.world_position(self.tip);
        if !(a_pos.is_finite() && b_pos.is_finite() && c_pos.is_finite()) {
            return Err(TwoBoneError::NonFinite {
                what: "chain world position",
            });
        }
        let a = (b_pos - a_pos).length();
        let b = (c_pos - b_pos).length();
        let scale = a.max(b).max(a_pos.abs().max_element()).max(1e-300);
        for (segment, length) in [
            ("upper segment (root→mid)", a),
            ("lower segment (mid→tip)", b),
        ] {
            if length <= 1e-9 * scale {
                return Err(TwoBoneError::ZeroLength { segment, length });
            }
        }
        Ok(())
    }

    /// Validates, then solves. On error the pose is untouched.
    ///
    /// # Errors
    ///
    /// Whatever [`TwoBoneJob::validate`] returns.
    pub fn solve(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
    ) -> Result<TwoBoneReport, TwoBoneError> {
        self.validate(skeleton, pose)?;
        Ok(self.solve_unchecked(skeleton, pose))
    }

    /// Solves without validating. Precondition: `validate()` passed for this skeleton and a
    /// pose with the same segment lengths, and `pose` world transforms are current. Refreshes
    /// the world transforms of `root`'s subtree before returning.
    ///
    /// # Panics
    ///
    /// If `root`, `mid` or `tip` is not a bone index of `skeleton` and `pose`.
    pub fn solve_unchecked(&self, skeleton: &Skeleton, pose: &mut Pose) -> TwoBoneReport {
        let report = self.solve_chain_unchecked(skeleton, pose);
        refresh_off_path(skeleton, pose, self.root, self.tip);
        report
    }

    /// Like [`TwoBoneJob::solve_unchecked`], but refreshes only the bones on the path
    /// `root → tip`: descendants of `tip` and side branches stay stale until the caller
    /// refreshes `root`'s subtree (the pose pipeline does so once, after palm and fingers).
    ///
    /// # Panics
    ///
    /// If `root`, `mid` or `tip` is not a bone index of `skeleton` and `pose`.
    pub fn solve_chain_unchecked(&self, skeleton: &Skeleton, pose: &mut Pose) -> TwoBoneReport {
        let (root, mid, tip) = (self.root, self.mid, self.tip);
        let a_pos = pose.world_position(root);
        let b_pos = pose.world_position(mid);
        let c_pos = pose.world_position(tip);
        let a = (b_pos - a_pos).length();
        let b = (c_pos - b_pos).length();
        let chain = a + b;
        let target = self.target_in_world;
        let saved = (pose.local(root).rotation, pose.local(mid).rotation);

        // Step 2: reach direction with fallbacks.
        let to_target = target - a_pos;
        let dist = to_target.length();
        let mut fallback = Fallback::None;
        let u = if dist > 1e-9 * chain {
            to_target / dist
        } else {
            fallback = Fallback::TargetOnShoulder;
            (c_pos - a_pos)
                .try_normalize()
                .or_else(|| (b_pos - a_pos).try_normalize())
                .unwrap_or(DVec3::Y)
        };

        // Softening (ozz-animation): lag behind targets beyond `soften · (a+b)`, approaching
        // full reach asymptotically.
        let mut goal_dist = dist;
        let mut softened = false;
        let da = chain * self.soften;
        let ds = chain - da;
        if ds > 0.0 && dist > da {
            // ozz approximates 1 − e^(−α) with a polynomial; the exact exponential keeps
            // the slope 1 at the start (no kink) and never passes the target.
            let alpha = (dist - da) / ds;
            goal_dist = da + ds * (1.0 - (-alpha).exp());
            softened = true;
        }

        // Reach clamp with margin.
        let m = a.min(b) * 1e-4;
        let near = (a - b).abs() + m;
        let far = chain - m;
        let (mut d, clamp) = if goal_dist > far {
            (far, ReachClamp::TooFar)
        } else if goal_dist < near {
            (near, ReachClamp::TooNear)
        } else {
            (goal_dist, ReachClamp::None)
        };

        // Elbow hinge limit: the bend angle follows from d; a clamped bend fixes d, and the
        // wrist then lies on the shoulder→target line as close to the target as it can.
        let mut elbow_limited = false;
        if let Some(limit) = self.elbow_limit.filter(|l| l.enabled) {
            let cos_interior = ((a * a + b * b - d * d) / (2.0 * a * b)).clamp(-1.0, 1.0);
            let bend = std::f64::consts::PI - cos_interior.acos();
            let clamped = bend.clamp(limit.min_bend, limit.max_bend);
            if clamped != bend {
                elbow_limited = true;
                let d_limited = (a * a + b * b + 2.0 * a * b * clamped.cos())
                    .max(0.0)
                    .sqrt();
                d = d_limited.clamp(near, far);
            }
        }

        // Step 3: bend plane from the pole, with fallbacks.
        let project = |w: DVec3| {
            let p = w - u * w.dot(u);
            let tol = 1e-9 * w.length().max(chain);
            (p.length() > tol).then(|| p.normalize())
        };
        let mut v = match project(self.pole_in_world - a_pos) {
            Some(v) => v,
            None => {
                if fallback == Fallback::None {
                    fallback = Fallback::PoleOnAxis;
                }
                project(b_pos - a_pos).unwrap_or_else(|| {
                    let axis = [DVec3::X, DVec3::Y, DVec3::Z]
                        .into_iter()
                        .min_by(|p, q| p.dot(u).abs().total_cmp(&q.dot(u).abs()))
                        .unwrap_or(DVec3::X);
                    (axis - u * axis.dot(u)).normalize()
                })
            }
        };
        if self.twist != 0.0 {
            v = DQuat::from_axis_angle(u, self.twist) * v;
        }
        let bend_normal = u.cross(v).normalize();

        // Step 4: cosine law.
        let x = (a * a + d * d - b * b) / (2.0 * d);
        let h = (a * a - x * x).max(0.0).sqrt();
        let elbow_goal = a_pos + u * x + v * h;
        let wrist_goal = a_pos + u * d;

        // Step 5: upper arm, refresh, forearm, refresh.
        let delta = rotation_between(b_pos - a_pos, elbow_goal - a_pos, bend_normal);
        apply_world_rotation(skeleton, pose, root, delta);
        refresh_path(skeleton, pose, root, tip);
        let b_now = pose.world_position(mid);
        let c_now = pose.world_position(tip);
        let delta = rotation_between(c_now - b_now, wrist_goal - b_now, bend_normal);
        apply_world_rotation(skeleton, pose, mid, delta);

        if self.weight < 1.0 {
            let solved = (pose.local(root).rotation, pose.local(mid).rotation);
            pose.set_local_rotation(root, saved.0.slerp(solved.0, self.weight).normalize());
            pose.set_local_rotation(mid, saved.1.slerp(solved.1, self.weight).normalize());
            refresh_path(skeleton, pose, root, tip);
        } else {
            // Only the forearm changed since the last refresh.
            refresh_path(skeleton, pose, mid, tip);
        }

        let a_fin = pose.world_position(root);
        let b_fin = pose.world_position(mid);
        let c_fin = pose.world_position(tip);
        let residual = (c_fin - target).length();
        let elbow_bend = (b_fin - a_fin).angle_between(c_fin - b_fin);
        TwoBoneReport {
            reached: residual <= 1e-5 * chain,
            residual,
            clamp,
            softened,
            elbow_limited,
            elbow_bend: if elbow_bend.is_finite() {
                elbow_bend
            } else {
                0.0
            },
            bend_normal,
            fallback,
            elbow_in_world: elbow_goal,
            wrist_goal_in_world: wrist_goal,
        }
    }
}
