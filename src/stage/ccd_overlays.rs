//! Limit arcs of a CCD arm's links: for each link with limits configured, the hinge
//! (`limitation`) as one arc about its axis, over the link's Euler range on that axis when it
//! has one (a full turn otherwise); Euler ranges without a hinge as three arcs (X, Y, Z).
//! Links whose own limit switch is off draw nothing (a free joint); while the global switch is
//! off the arcs are drawn faint, like the two-bone elbow's.

use super::Stage;
use super::colors;
use crate::draw::OverlayArc;
use crate::fishing::CcdLinkRole;
use crate::ik::limits::{EulerLimit, HingeLimit, LimitArc};
use crate::rig::Side;
use glam::{DQuat, DVec3};
use std::f64::consts::PI;

/// Appends the arcs of `side`'s CCD links (forearm at the elbow, upper arm at the shoulder).
pub(super) fn ccd_link_arcs(stage: &Stage, side: Side, out: &mut Vec<OverlayArc>) {
    let arm = stage.actor.arm(side);
    let settings = &stage.inputs.settings.arm(side).ccd;
    let report = stage
        .evaluation()
        .and_then(|e| e.arms.get(side).ccd().map(|c| c.links));
    let skel = &stage.actor.skeleton;
    let pose = &stage.pose;
    for role in CcdLinkRole::ALL {
        let limits = settings.link(role);
        if !limits.enabled {
            continue;
        }
        let (bone, child) = match role {
            CcdLinkRole::Forearm => (arm.fore, arm.hand),
            CcdLinkRole::UpperArm => (arm.upper, arm.fore),
        };
        let enabled = stage.inputs.settings.limits_enabled;
        let hit = report.is_some_and(|l| l[role.index()].on_limit);
        let length = pose
            .world_position(bone)
            .distance(pose.world_position(child));
        let mut push = |arc: LimitArc| {
            let arc = LimitArc {
                on_limit: arc.on_limit || hit,
                ..arc
            };
            out.push(overlay_arc(&arc, enabled));
        };
        let lo = limits.rotation_min;
        let hi = limits.rotation_max;
        if let Some(axis) = limits.limitation {
            let axis = axis.normalize_or(DVec3::X);
            // The hinge's angle range: the Euler range of the coordinate axis it runs along.
            let along = (0..3).find(|&i| axis[i].abs() > 0.999);
            let (min, max) = match (along, lo, hi) {
                (Some(i), Some(lo), Some(hi)) if axis[i] > 0.0 => (lo[i], hi[i]),
                (Some(i), Some(lo), Some(hi)) => (-hi[i], -lo[i]),
                _ => (-PI, PI),
            };
            let hinge = HingeLimit {
                axis,
                zero: DQuat::IDENTITY,
                reference: pose.local(child).translation,
                min,
                max,
                enabled,
            };
            push(hinge.arc(skel, pose, bone, 0.25 * length));
        } else if lo.is_some() || hi.is_some() {
            let euler = EulerLimit {
                min: lo.unwrap_or(DVec3::splat(-PI)),
                max: hi.unwrap_or(DVec3::splat(PI)),
                enabled,
            };
            for (k, arc) in euler
                .arcs(skel, pose, bone, 0.2 * length)
                .into_iter()
                .enumerate()
            {
                // Rings of growing radius so the three ranges do not overlap.
                push(LimitArc {
                    radius: arc.radius * (1.0 + 0.25 * k as f64),
                    ..arc
                });
            }
        }
    }
}

/// Draw data of a limit arc: a translucent wedge (fainter when the limit is off) with an
/// outline, orange where the joint sits on the limit.
pub(super) fn overlay_arc(arc: &LimitArc, enabled: bool) -> OverlayArc {
    let fill_alpha = if enabled { 0.3 } else { 0.1 };
    OverlayArc {
        centre: arc.centre_in_world.as_vec3().to_array(),
        axis: arc.axis_in_world.as_vec3().to_array(),
        start_dir: arc.start_dir_in_world.as_vec3().to_array(),
        sweep_rad: arc.sweep as f32,
        radius: arc.radius as f32,
        current_angle: arc.current_angle as f32,
        fill_rgba: colors::linear(colors::ARC, fill_alpha),
        line_rgba: colors::linear(colors::ARC, if enabled { 0.9 } else { 0.45 }),
        limit_rgba: colors::linear(colors::ARC_ON_LIMIT, 1.0),
        on_limit: arc.on_limit && enabled,
    }
}
