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
//!    turned world rotations are the same to rounding, and the chain is refreshed once, at the
//!    end.)
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
        let arm = Arm {
            shoulder: pose.world_position(root),
            elbow: pose.world_position(mid),
            wrist: pose.world_position(tip),
        };
        let (a, b) = (
            (arm.elbow - arm.shoulder).length(),
            (arm.wrist - arm.elbow).length(),
        );
        let saved = (pose.local(root).rotation, pose.local(mid).rotation);
        let reach = self.reach(&arm, a, b);
        let (v, bend_normal, fallback) = self.bend_plane(&arm, reach.u, a + b, reach.fallback);
        // Step 4: cosine law.
        let d = reach.distance;
        let x = (a * a + d * d - b * b) / (2.0 * d);
        let h = (a * a - x * x).max(0.0).sqrt();
        let elbow_goal = arm.shoulder + reach.u * x + v * h;
        let wrist_goal = arm.shoulder + reach.u * d;
        let turned = self.turn_arm(
            skeleton,
            pose,
            &arm,
            (a, b),
            elbow_goal,
            wrist_goal,
            bend_normal,
            saved,
        );
        // At full weight the joints are where the turns moved them (the refresh computes the
        // same to rounding); a blend has to be read back.
        let (a_fin, b_fin, c_fin) = match turned {
            Some((elbow, wrist)) => (arm.shoulder, elbow, wrist),
            None => (
                pose.world_position(root),
                pose.world_position(mid),
                pose.world_position(tip),
            ),
        };
        let residual = (c_fin - self.target_in_world).length();
        // Both segments keep their lengths, so the bend's cosine needs no square root.
        let cos_bend = ((b_fin - a_fin).dot(c_fin - b_fin) / (a * b)).clamp(-1.0, 1.0);
        TwoBoneReport {
            reached: residual <= 1e-5 * (a + b),
            residual,
            clamp: reach.clamp,
            softened: reach.softened,
            elbow_limited: reach.elbow_limited,
            elbow_bend: cos_bend.acos(),
            bend_normal,
            fallback,
            elbow_in_world: elbow_goal,
            wrist_goal_in_world: wrist_goal,
        }
    }

    /// Step 2 with softening and the elbow limit: the reach direction `u` (with its fallbacks)
    /// and the distance `d` the wrist goes along it.
    fn reach(&self, arm: &Arm, a: f64, b: f64) -> Reach {
        let chain = a + b;
        let to_target = self.target_in_world - arm.shoulder;
        let dist = to_target.length();
        let mut fallback = Fallback::None;
        let u = if dist > 1e-9 * chain {
            to_target * (1.0 / dist)
        } else {
            fallback = Fallback::TargetOnShoulder;
            (arm.wrist - arm.shoulder)
                .try_normalize()
                .or_else(|| (arm.elbow - arm.shoulder).try_normalize())
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
        let (mut distance, clamp) = if goal_dist > far {
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
            let cos_interior =
                ((a * a + b * b - distance * distance) / (2.0 * a * b)).clamp(-1.0, 1.0);
            let bend = std::f64::consts::PI - cos_interior.acos();
            let clamped = bend.clamp(limit.min_bend, limit.max_bend);
            if clamped != bend {
                elbow_limited = true;
                let d_limited = (a * a + b * b + 2.0 * a * b * clamped.cos())
                    .max(0.0)
                    .sqrt();
                distance = d_limited.clamp(near, far);
            }
        }
        Reach {
            u,
            distance,
            clamp,
            softened,
            elbow_limited,
            fallback,
        }
    }

    /// Step 3: the unit bend direction `v ⟂ u` from the pole (with its fallbacks and the
    /// twist), the bend normal `u × v`, and the first fallback taken.
    fn bend_plane(
        &self,
        arm: &Arm,
        u: DVec3,
        chain: f64,
        fallback: Fallback,
    ) -> (DVec3, DVec3, Fallback) {
        // `w`'s part off the `u` line, when it is longer than 1e-9·max(|w|, a+b) (compared
        // squared).
        let project = |w: DVec3| {
            let p = w - u * w.dot(u);
            let len_sq = p.length_squared();
            (len_sq > 1e-18 * w.length_squared().max(chain * chain))
                .then(|| p * (1.0 / len_sq.sqrt()))
        };
        let mut fallback = fallback;
        let mut v = match project(self.pole_in_world - arm.shoulder) {
            Some(v) => v,
            None => {
                if fallback == Fallback::None {
                    fallback = Fallback::PoleOnAxis;
                }
                project(arm.elbow - arm.shoulder).unwrap_or_else(|| {
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
        // `u` and `v` are orthonormal, so their cross product is unit to rounding.
        (v, u.cross(v), fallback)
    }

    /// Step 5: turns the upper arm by the shortest arc from `B−A` to `B*−A`, then the forearm
    /// from `C−B` to `C*−B` with `B`, `C` where the first turn moved them, and writes both as
    /// local rotations (blended with `saved` by the weight). Turning the upper arm about the
    /// shoulder moves the elbow and wrist rigidly, so their new positions and world rotations
    /// are computed, not refreshed and read back (the forearm's parent may be a twist bone below
    /// the upper arm: it turns with it). Refreshes the path `root → tip` once. Returns the
    /// moved elbow and wrist at full weight, `None` when blended.
    #[allow(clippy::too_many_arguments)]
    fn turn_arm(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        arm: &Arm,
        (a, b): (f64, f64),
        elbow_goal: DVec3,
        wrist_goal: DVec3,
        bend_normal: DVec3,
        saved: (DQuat, DQuat),
    ) -> Option<(DVec3, DVec3)> {
        let (root, mid) = (self.root, self.mid);
        // |B−A| = |B*−A| = a and |C−B| = |C*−B*| = b by construction.
        let turn_upper = arc_with_norms(
            arm.elbow - arm.shoulder,
            elbow_goal - arm.shoulder,
            a * a,
            bend_normal,
        );
        let b_now = arm.shoulder + turn_upper * (arm.elbow - arm.shoulder);
        let c_now = arm.shoulder + turn_upper * (arm.wrist - arm.shoulder);
        let turn_fore = arc_with_norms(c_now - b_now, wrist_goal - b_now, b * b, bend_normal);
        let root_parent = pose.parent_world_rotation(skeleton, root);
        let upper_world = turn_upper * pose.world_rotation(root);
        let fore_parent = turn_upper * pose.parent_world_rotation(skeleton, mid);
        let fore_world = turn_fore * (turn_upper * pose.world_rotation(mid));
        let mut upper_local = unit(root_parent.inverse() * upper_world);
        let mut fore_local = unit(fore_parent.inverse() * fore_world);
        let blended = self.weight < 1.0;
        if blended {
            upper_local = saved.0.slerp(upper_local, self.weight).normalize();
            fore_local = saved.1.slerp(fore_local, self.weight).normalize();
        }
        pose.set_local_rotation(root, upper_local);
        pose.set_local_rotation(mid, fore_local);
        refresh_path(skeleton, pose, root, self.tip);
        (!blended).then(|| (b_now, b_now + turn_fore * (c_now - b_now)))
    }
}

/// The chain's joints in world space before the solve.
struct Arm {
    shoulder: DVec3,
    elbow: DVec3,
    wrist: DVec3,
}

/// What step 2 found.
struct Reach {
    u: DVec3,
    distance: f64,
    clamp: ReachClamp,
    softened: bool,
    elbow_limited: bool,
    fallback: Fallback,
}

/// [`rotation_between`] when `|from|·|to|` is known to rounding (`norms`), saving a square
/// root; falls back to it near the opposite direction and for unusable `norms`.
#[inline]
fn arc_with_norms(from: DVec3, to: DVec3, norms: f64, preferred_axis: DVec3) -> DQuat {
    let dot = from.dot(to);
    let w = norms + dot;
    if norms >= f64::MIN_POSITIVE && norms.is_finite() && w >= 1e-6 * norms {
        let cross = from.cross(to);
        let inv = 1.0 / (cross.length_squared() + w * w).sqrt();
        DQuat::from_xyzw(cross.x * inv, cross.y * inv, cross.z * inv, w * inv)
    } else {
        rotation_between(from, to, preferred_axis)
    }
}

/// `q` normalised. A product of unit quaternions is unit to rounding, where one Newton step
/// (`q · (3 − |q|²)/2`) restores it without a square root; anything farther off is normalised
/// exactly.
#[inline]
fn unit(q: DQuat) -> DQuat {
    let n = q.length_squared();
    if (n - 1.0).abs() < 1e-8 {
        q * (1.5 - 0.5 * n)
    } else {
        q.normalize()
    }
}
