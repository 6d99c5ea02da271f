//! The per-chain CCD loop (three.js r187 `updateOne`), in two bookkeeping variants that give
//! the same steps up to rounding:
//!
//! - **local** (every scale from the effector to the root, and the actor's, is uniform): the
//!   effector and the target are carried in each link's own frame. Rotating link `j` by the step
//!   `q` (post-multiplied) leaves the effector fixed in link `j`'s frame, and a link's frame only
//!   depends on links above it, so one pass costs O(links): the target is taken down the chain
//!   once per pass (inverse local transforms) and the effector up the chain once per link.
//! - **world** (otherwise): scratch world matrices of the path link → effector, recomputed with
//!   the same glam operations as `Pose` after every step, and the link rotation taken from the
//!   world matrix with its columns normalised (three's `decompose`).
//!
//! Either way the pose's local rotations are written as three would, and the moved subtree is
//! refreshed in the pose once at the end of the chain.

use super::planar::Finish;
use super::turn::turn;
use super::{
    CcdChain, CcdLink, CcdRefresh, CcdSolver, CcdWorkspace, ChainReport, EulerState, LinkReport,
    three_slerp,
};
use crate::ik::euler_inside::EulerInsideTest;
use crate::ik::limits::{clamp_euler_three, euler_xyz_from_quat, quat_from_euler_xyz};
use crate::rig::{Pose, Skeleton};
use glam::{DQuat, DVec3};
use std::ops::Range;

impl CcdSolver {
    /// One chain of `update` (preconditions: indices in range, world transforms current).
    /// `tests` are the chain's slots in the workspace's Euler tests.
    pub(super) fn update_chain(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        (chain, tests): (&CcdChain, Range<usize>),
        global_blend: f64,
        out: &mut ChainReport,
        work: &mut CcdWorkspace,
    ) {
        let blend = chain.blend_factor.unwrap_or(global_blend);
        let first_test = tests.start;
        self.prepare_euler_tests(chain, tests, work);
        let target = chain.target_in_world(pose);
        let links = &chain.links;
        out.blend = blend;
        out.initial_distance = target.distance(pose.world_position(chain.effector));
        out.links.extend(links.iter().map(|l| LinkReport {
            bone: l.index,
            rotations: 0,
            on_limit: false,
            euler: EulerState::Untouched,
        }));
        if blend < 1.0 {
            work.saved.clear();
            work.saved
                .extend(links.iter().map(|l| pose.local(l.index).rotation));
        }
        out.iterations = 0;
        out.exited_early = false;
        out.planar_finish = None;
        let top = if links.is_empty() {
            // three runs one pass over no links, which rotates nothing.
            out.iterations = chain.iteration.min(1);
            out.exited_early = chain.iteration > 1;
            None
        } else if uniform_scale_to_root(skeleton, pose, chain.effector) {
            self.passes_local(skeleton, pose, (chain, first_test), target, out, work)
        } else {
            self.passes_world(skeleton, pose, (chain, first_test), target, out, work)
        };
        let mut top = top;
        if blend < 1.0 {
            for (j, link) in links.iter().enumerate() {
                let blended = three_slerp(work.saved[j], pose.local(link.index).rotation, blend);
                pose.set_local_rotation(link.index, blended);
                out.links[j].euler = EulerState::FromQuaternion;
            }
            if !links.is_empty() {
                top = Some(links.len() - 1);
            }
        }
        if let Some(top) = top {
            match self.refresh {
                CcdRefresh::Subtree => pose.refresh_subtree(skeleton, links[top].index),
                CcdRefresh::Path => {
                    for link in links[..=top].iter().rev() {
                        pose.refresh_bone(skeleton, link.index);
                    }
                    pose.refresh_bone(skeleton, chain.effector);
                }
            }
        }
        out.final_distance = target.distance(pose.world_position(chain.effector));
    }

    /// Makes `work`'s Euler tests at `slots` match `chain`'s links (rebuilding only those
    /// whose limits changed).
    fn prepare_euler_tests(&self, chain: &CcdChain, slots: Range<usize>, work: &mut CcdWorkspace) {
        if work.euler_tests.len() < slots.end {
            work.euler_tests.resize(slots.end, (None, None, None));
        }
        for (link, slot) in chain.links.iter().zip(&mut work.euler_tests[slots]) {
            let key = (link.rotation_min, link.rotation_max);
            let used = self.limits_enabled && link.limits_enabled;
            if used && (slot.0, slot.1) != key {
                *slot = (key.0, key.1, EulerInsideTest::new(key.0, key.1));
            }
        }
    }

    /// The step of one link: `e`, `t` are the effector and target directions in the link's
    /// frame (any positive length). Returns the new local rotation, or `None` when three would
    /// skip the link (angle below 1e-5) or the axis is undefined (a zero direction).
    ///
    /// `test` is the fast test of the link's Euler limits, when they have one (see
    /// [`EulerInsideTest`]); a rotation it keeps reports [`EulerState::Wrapped`].
    #[inline(always)]
    fn step(
        &self,
        chain: &CcdChain,
        (link, test): (&CcdLink, Option<&EulerInsideTest>),
        local: DQuat,
        e: DVec3,
        t: DVec3,
        report: &mut LinkReport,
    ) -> Option<DQuat> {
        let q = turn((chain.min_angle, chain.max_angle), local, e, t)?;
        Some(self.limit((link, test), q, report))
    }

    /// three's limits on a link's new local rotation `q`: the hinge (`limitation`), then the
    /// Euler range. Records the step in `report` (its Euler state, whether a range clamped).
    #[inline(always)]
    pub(super) fn limit(
        &self,
        (link, test): (&CcdLink, Option<&EulerInsideTest>),
        mut q: DQuat,
        report: &mut LinkReport,
    ) -> DQuat {
        let limits = self.limits_enabled && link.limits_enabled;
        report.euler = EulerState::FromQuaternion;
        report.on_limit = false;
        if limits && let Some(a) = link.limitation {
            let c = q.w.clamp(-1.0, 1.0);
            let dot = q.x * a.x + q.y * a.y + q.z * a.z;
            let sign = if dot < 0.0 { -1.0 } else { 1.0 };
            let c2 = sign * (1.0 - c * c).sqrt();
            q = DQuat::from_xyzw(a.x * c2, a.y * c2, a.z * c2, c);
        }
        if limits && let Some(test) = test.filter(|t| t.inside(q)) {
            // three's clamp would keep every angle: the rotation stands as it is, and three
            // stores its angles wrapped near the range centre (computed when read).
            report.euler = EulerState::Wrapped(test.centre());
        } else if limits && (link.rotation_min.is_some() || link.rotation_max.is_some()) {
            let v = euler_xyz_from_quat(q);
            let (clamped, hit) = clamp_euler_three(v, link.rotation_min, link.rotation_max);
            if hit {
                q = quat_from_euler_xyz(clamped);
            }
            // else three rebuilds the quaternion from the angles it came from, at most wrapped
            // by 2π (and the wrap's own rounding, which alone changes them on most steps): the
            // same rotation up to ~1e-16, so the three sin/cos pairs are skipped.
            report.euler = EulerState::Stored(clamped);
            report.on_limit = hit;
        }
        report.rotations += 1;
        q
    }

    /// Passes with effector and target carried in link frames (uniform scale). Returns the
    /// highest rotated link.
    fn passes_local(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        (chain, first_test): (&CcdChain, usize),
        target: DVec3,
        out: &mut ChainReport,
        work: &mut CcdWorkspace,
    ) -> Option<usize> {
        let links = &chain.links;
        let n = links.len();
        let top_parent = match skeleton.parent(links[n - 1].index) {
            Some(p) => *pose.world_from_bone(p),
            None => pose.world_from_actor().to_affine(),
        };
        let target_in_top_parent = top_parent.inverse().transform_point3(target);
        // The converged distance in the top parent's units (its scale is uniform here).
        let converged = chain
            .converged_within
            .map(|d| d / top_parent.matrix3.x_axis.length().max(1e-300));
        let effector_in_link0 = pose.local(chain.effector).translation;
        work.target_in_link.clear();
        work.target_in_link.resize(n, DVec3::ZERO);
        // The links' locals, rotated here and written to the pose once, after the passes.
        work.locals.clear();
        work.locals
            .extend(links.iter().map(|l| *pose.local(l.index)));
        let mut top = None;
        let mut planar = chain.planar_finish && n == 2 && chain.min_angle.is_none();
        // `target_in_link[j]` (the target in link j's frame) depends only on the locals of links
        // j..n; a pass rotates links from the effector up, so after a pass whose highest
        // rotated link was `stale - 1`, only `target_in_link[..stale]` must be recomputed.
        let mut stale = n;
        for _ in 0..chain.iteration {
            out.iterations += 1;
            // Target in each link's frame: down from the top parent through inverse locals.
            let mut t = if stale == n {
                target_in_top_parent
            } else {
                work.target_in_link[stale]
            };
            for j in (0..stale).rev() {
                let l = &work.locals[j];
                t = (l.rotation.conjugate() * (t - l.translation)) / l.scale.x;
                work.target_in_link[j] = t;
            }
            stale = 0;
            let mut e = effector_in_link0;
            let mut rotated = false;
            let mut changed = false;
            let mut whole = true;
            // One zip instead of six indexed slices: no bounds checks in the loop.
            let per_link = links
                .iter()
                .zip(work.locals.iter_mut())
                .zip(&work.target_in_link)
                .zip(out.links.iter_mut())
                .zip(&work.euler_tests[first_test..]);
            for (j, ((((link, local), &t), report), test)) in per_link.enumerate() {
                if !link.enabled {
                    whole = false;
                    break;
                }
                if let Some(q) =
                    self.step(chain, (link, test.2.as_ref()), local.rotation, e, t, report)
                {
                    changed |= q != local.rotation;
                    local.rotation = q;
                    top = Some(top.map_or(j, |t: usize| t.max(j)));
                    rotated = true;
                    stale = j + 1;
                }
                // The effector, fixed in this link's frame, in the parent link's frame.
                e = local.translation + local.rotation * (e * local.scale.x);
            }
            if planar && whole {
                let tests = &work.euler_tests[first_test..first_test + 2];
                let links = [
                    (&links[0], tests[0].2.as_ref()),
                    (&links[1], tests[1].2.as_ref()),
                ];
                match self.planar_finish(
                    links,
                    &mut work.locals,
                    effector_in_link0,
                    target_in_top_parent,
                    &mut out.links,
                ) {
                    Finish::NotYet => {}
                    Finish::Refused => planar = false,
                    Finish::Done(moved) => {
                        planar = false;
                        out.planar_finish = Some(out.iterations);
                        e = moved;
                        top = Some(1);
                        rotated = true;
                        changed = true;
                        stale = n;
                    }
                }
            }
            // After a whole pass `e` is the effector in the top parent's frame.
            let close = whole
                && converged.is_some_and(|d| !changed || (e - target_in_top_parent).length() <= d);
            if !rotated || close {
                out.exited_early = out.iterations < chain.iteration;
                break;
            }
        }
        if let Some(top) = top {
            for (link, local) in links[..=top].iter().zip(&work.locals) {
                pose.set_local_rotation(link.index, local.rotation);
            }
        }
        top
    }

    /// Passes with scratch world matrices of the path link → effector (any scale).
    fn passes_world(
        &self,
        skeleton: &Skeleton,
        pose: &mut Pose,
        (chain, first_test): (&CcdChain, usize),
        target: DVec3,
        out: &mut ChainReport,
        work: &mut CcdWorkspace,
    ) -> Option<usize> {
        let links = &chain.links;
        let n = links.len();
        // k = 0 the effector, k = j + 1 link j.
        let path_bone = |k: usize| {
            if k == 0 {
                chain.effector
            } else {
                links[k - 1].index
            }
        };
        work.local_aff.clear();
        work.world.clear();
        for k in 0..=n {
            work.local_aff.push(pose.local(path_bone(k)).to_affine());
            work.world.push(*pose.world_from_bone(path_bone(k)));
        }
        let top_parent = match skeleton.parent(links[n - 1].index) {
            Some(p) => *pose.world_from_bone(p),
            None => pose.world_from_actor().to_affine(),
        };
        let mut effector_pos = work.world[0].translation;
        let mut top = None;
        for _ in 0..chain.iteration {
            out.iterations += 1;
            let mut rotated = false;
            for (j, link) in links.iter().enumerate() {
                if !link.enabled {
                    break;
                }
                let k = j + 1;
                let w = work.world[k];
                let m = w.matrix3;
                let inv_len =
                    DVec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length()).recip();
                let to_link = |v: DVec3| {
                    DVec3::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v)) * inv_len
                };
                let e = to_link(effector_pos - w.translation);
                let t = to_link(target - w.translation);
                let local = pose.local(link.index).rotation;
                let test = work.euler_tests[first_test + j].2.as_ref();
                let Some(q) = self.step(chain, (link, test), local, e, t, &mut out.links[j]) else {
                    continue;
                };
                pose.set_local_rotation(link.index, q);
                work.local_aff[k] = pose.local(link.index).to_affine();
                let parent = if k == n {
                    top_parent
                } else {
                    work.world[k + 1]
                };
                work.world[k] = parent * work.local_aff[k];
                for kk in (0..k).rev() {
                    work.world[kk] = work.world[kk + 1] * work.local_aff[kk];
                }
                effector_pos = work.world[0].translation;
                top = Some(top.map_or(j, |t: usize| t.max(j)));
                rotated = true;
            }
            if !rotated {
                out.exited_early = out.iterations < chain.iteration;
                break;
            }
        }
        top
    }
}

/// True when every bone from `bone` up to its root, and the actor placement, has a uniform
/// scale (x = y = z): then every world matrix on the way is `s·R`.
fn uniform_scale_to_root(skeleton: &Skeleton, pose: &Pose, bone: usize) -> bool {
    let mut cur = (!pose.all_local_scales_uniform()).then_some(bone);
    while let Some(b) = cur {
        if !pose.local(b).has_uniform_scale() {
            return false;
        }
        cur = skeleton.parent(b);
    }
    pose.world_from_actor().has_uniform_scale()
}
