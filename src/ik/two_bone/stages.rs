//! The stages of one two-bone solve (see the module docs of [`super`] for the steps):
//! `reach`, `bend_plane`, the cosine law and `turn_arm`, and the chain refreshes they need.

use super::{Fallback, ReachClamp, TwoBoneJob, TwoBoneReport};
use crate::rig::rotation::{half_way_arc_scaled, rotate_scaled};
use crate::rig::{Pose, Skeleton, rotation_between};
use glam::{DQuat, DVec3};

impl TwoBoneJob {
    /// The bones of `root`'s subtree off the chain's path (the rest of [`TwoBoneJob::solve`]).
    fn refresh_rest(&self, skeleton: &Skeleton, pose: &mut Pose) {
        let (root, mid, tip) = (self.root, self.mid, self.tip);
        for &child in skeleton.children(tip) {
            pose.refresh_subtree(skeleton, child);
        }
        // The usual arm has no twist bones and nothing but the hand's subtree below the upper
        // arm: no side branches, and no walk up the path to find that out.
        let bare = skeleton.parent(tip) == Some(mid)
            && skeleton.parent(mid) == Some(root)
            && skeleton.subtree_len(root) == skeleton.subtree_len(tip) + 2;
        if !bare {
            refresh_side_branches(skeleton, pose, root, tip);
        }
    }

    /// The solve of [`TwoBoneJob::solve_chain`] once validated, and with `rest` the refresh of
    /// the rest of `root`'s subtree that [`TwoBoneJob::solve`] adds (done here so the report
    /// is built in place). Precondition: `validate()` passed for this skeleton and pose, `pose`
    /// world transforms are current, and `(a, b)` are the segment lengths it measured.
    pub(super) fn solve_valid_chain(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        (a, b): (f64, f64),
        rest: bool,
    ) -> TwoBoneReport {
        let (root, mid, tip) = (self.root, self.mid, self.tip);
        let arm = Arm {
            shoulder: pose.world_position(root),
            elbow: pose.world_position(mid),
            wrist: pose.world_position(tip),
        };
        let saved = (pose.local(root).rotation, pose.local(mid).rotation);
        let reach = self.reach(&arm, a, b);
        let (v, bend_normal, fallback) = self.bend_plane(&arm, &reach, a + b);
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
        if rest {
            self.refresh_rest(skeleton, pose);
        }
        TwoBoneReport {
            reached: residual <= 1e-5 * (a + b),
            residual,
            clamp: reach.clamp,
            softened: reach.softened,
            elbow_limited: reach.elbow_limited,
            cos_elbow_bend: cos_bend,
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
        let dist_sq = to_target.length_squared();
        let dist = dist_sq.sqrt();
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
            to_target: (fallback == Fallback::None).then_some((to_target, dist_sq)),
            distance,
            clamp,
            softened,
            elbow_limited,
            fallback,
        }
    }

    /// Step 3: the unit bend direction `v ⟂ u` from the pole (with its fallbacks and the
    /// twist), the bend normal `u × v`, and the first fallback taken.
    fn bend_plane(&self, arm: &Arm, reach: &Reach, chain: f64) -> (DVec3, DVec3, Fallback) {
        let u = reach.u;
        // `p`, `w`'s part off the `u` line, normalised when it is longer than
        // 1e-9·max(|w|, a+b) (compared squared).
        let unit_off_line = |p: DVec3, w: DVec3| {
            let len_sq = p.length_squared();
            (len_sq > 1e-18 * w.length_squared().max(chain * chain)).then(|| p * recip_sqrt(len_sq))
        };
        let project = |w: DVec3| unit_off_line(w - u * w.dot(u), w);
        let pole = self.pole_in_world - arm.shoulder;
        // Along `T−A` itself the projection needs `|T−A|²`, not the square root and division
        // that made `u`: the bend plane's chain of dependent square roots is one shorter.
        let pole_off_line = match reach.to_target {
            Some((t, dist_sq)) => unit_off_line(pole - t * (pole.dot(t) / dist_sq), pole),
            None => project(pole),
        };
        let mut fallback = reach.fallback;
        let mut v = match pole_off_line {
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
    /// from `C−B` to `C*−B*` with `C−B` where the first turn moved it, and writes both as
    /// local rotations (blended with `saved` by the weight). Turning the upper arm about the
    /// shoulder moves the elbow and wrist rigidly, so their new world rotations are computed,
    /// not refreshed and read back (the forearm's parent may be a twist bone below the upper
    /// arm: it turns with it). At full weight the turns put the elbow on `B*` and the wrist on
    /// `C*` (both segments keep their lengths), so the chain's world origins are written, not
    /// recomputed; a blend refreshes the path `root → tip`. Returns the moved elbow and wrist
    /// at full weight, `None` when blended.
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
        let (upper_scaled, k_sq) = scaled_arc(
            arm.elbow - arm.shoulder,
            elbow_goal - arm.shoulder,
            a * a,
            bend_normal,
        );
        let turn_upper = upper_scaled * recip_sqrt(k_sq);
        // The unnormalised turn moves C−B to k²·(its turned direction): the forearm's arc from
        // there (with norms k²·b²) need not wait for the normalisation's square root. (Past
        // ~1e70 units k² overflows; the unit turn is used then.)
        let fore_now_scaled = rotate_scaled(upper_scaled, arm.wrist - arm.elbow);
        let (fore_now, fore_norms) = if fore_now_scaled.is_finite() {
            (fore_now_scaled, k_sq * (b * b))
        } else {
            (turn_upper * (arm.wrist - arm.elbow), b * b)
        };
        let turn_fore = arc_with_norms(fore_now, wrist_goal - elbow_goal, fore_norms, bend_normal);
        let upper_world = turn_upper * pose.world_rotation(root);
        let fore_parent = if skeleton.parent(mid) == Some(root) {
            upper_world
        } else {
            turn_upper * pose.parent_world_rotation(skeleton, mid)
        };
        let fore_world = turn_fore * (turn_upper * pose.world_rotation(mid));
        let mut upper_local =
            unit(pose.parent_world_rotation(skeleton, root).inverse() * upper_world);
        let mut fore_local = unit(fore_parent.inverse() * fore_world);
        let blended = self.weight < 1.0;
        if blended {
            upper_local = saved.0.slerp(upper_local, self.weight).normalize();
            fore_local = saved.1.slerp(fore_local, self.weight).normalize();
        }
        let turned =
            |world_rotation, world_position| (!blended).then_some((world_rotation, world_position));
        place(
            skeleton,
            pose,
            root,
            upper_local,
            turned(upper_world, arm.shoulder),
        );
        refresh_between(skeleton, pose, root, mid);
        place(
            skeleton,
            pose,
            mid,
            fore_local,
            turned(fore_world, elbow_goal),
        );
        refresh_between(skeleton, pose, mid, self.tip);
        if blended {
            pose.refresh_bone(skeleton, self.tip);
        } else {
            // The wrist's origin is C*: the turns put it there, whatever twist bones lie between.
            pose.refresh_bone_at(skeleton, self.tip, wrist_goal);
        }
        (!blended).then_some((elbow_goal, wrist_goal))
    }
}

/// Writes `bone`'s new local rotation and refreshes the bone: from its known world rotation
/// and origin when `turned` has them, else from the parent.
#[inline(always)]
fn place(
    skeleton: &Skeleton,
    pose: &mut Pose,
    bone: usize,
    local: DQuat,
    turned: Option<(DQuat, DVec3)>,
) {
    match turned {
        Some((world_rotation, world_position)) => {
            pose.set_local_rotation_turned(bone, local, world_rotation, world_position)
        }
        None => {
            pose.set_local_rotation(bone, local);
            pose.refresh_bone(skeleton, bone);
        }
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
    /// `(T−A, |T−A|²)` when `u` is their direction (no fallback).
    to_target: Option<(DVec3, f64)>,
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
    let (q, k_sq) = scaled_arc(from, to, norms, preferred_axis);
    q * recip_sqrt(k_sq)
}

/// [`arc_with_norms`] as `(k·q, k²)` with `k > 0`: the half-way quaternion before its
/// normalisation, or the fallback's unit quaternion with `k = 1`.
#[inline]
fn scaled_arc(from: DVec3, to: DVec3, norms: f64, preferred_axis: DVec3) -> (DQuat, f64) {
    let usable = norms >= f64::MIN_POSITIVE && norms.is_finite();
    match usable
        .then(|| half_way_arc_scaled(from, to, norms))
        .flatten()
    {
        Some(q) => (q, q.length_squared()),
        None => (rotation_between(from, to, preferred_axis), 1.0),
    }
}

/// `1/√k` for `k > 0`, as `√k · (1/k)`: the square root and the division do not wait for
/// each other (a normalisation on the solve's critical path costs the slower of the two, not
/// their sum). Where `1/k` overflows or underflows (`k` beyond ~1e±300), `1/√k` directly.
#[inline(always)]
fn recip_sqrt(k: f64) -> f64 {
    let r = k.sqrt() * (1.0 / k);
    if r.is_normal() { r } else { 1.0 / k.sqrt() }
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

/// Refreshes the bones strictly between `ancestor` and its descendant `bone` (twist bones in
/// an arm; usually none), parents first. Precondition: `ancestor`'s world transform and
/// local are current. A path longer than 16 bones (no arm rig has one) refreshes
/// `ancestor`'s whole subtree instead.
#[inline(always)]
fn refresh_between(skeleton: &Skeleton, pose: &mut Pose, ancestor: usize, bone: usize) {
    let mut path = [0usize; 16];
    let mut len = 0;
    let mut cur = skeleton.parent(bone);
    while let Some(b) = cur.filter(|&b| b != ancestor) {
        if len == path.len() {
            pose.refresh_subtree(skeleton, ancestor);
            return;
        }
        path[len] = b;
        len += 1;
        cur = skeleton.parent(b);
    }
    for &b in path[..len].iter().rev() {
        pose.refresh_bone(skeleton, b);
    }
}

/// Refreshes the subtrees hanging off the (already refreshed) path `from → to`, below
/// `from` and above `to` (not `to`'s own subtree). A bone whose subtree is one bone larger
/// than its child's on the path has nothing off the path. Precondition: `to` is a descendant
/// of `from`.
fn refresh_side_branches(skeleton: &Skeleton, pose: &mut Pose, from: usize, to: usize) {
    let mut on_path = to;
    while on_path != from {
        let Some(b) = skeleton.parent(on_path) else {
            break;
        };
        if skeleton.subtree_len(b) > skeleton.subtree_len(on_path) + 1 {
            for &child in skeleton.children(b) {
                if child != on_path {
                    pose.refresh_subtree(skeleton, child);
                }
            }
        }
        on_path = b;
    }
}

#[cfg(test)]
mod tests {
    use super::recip_sqrt;

    /// Within two ulps of `1/√k` from subnormal to the largest `k`, where `1/k` alone
    /// overflows or underflows.
    #[test]
    fn recip_sqrt_matches_one_over_sqrt_across_the_range() {
        for k in [
            5e-324,
            1e-310,
            1e-300,
            1e-10,
            0.3,
            1.0,
            2.0,
            7.5e12,
            1e300,
            1e308,
            f64::MAX,
        ] {
            let (got, want) = (recip_sqrt(k), 1.0 / k.sqrt());
            assert!(
                (got - want).abs() <= 2.0 * f64::EPSILON * want,
                "k = {k:e}: {got:e} vs {want:e}"
            );
        }
    }
}
