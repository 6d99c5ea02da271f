//! CCD-helper style overlays for both arms, whichever solver poses them: target 0xff8888,
//! effector 0x88ff88, links 0x8888ff (elbow and shoulder: the forearm and upper-arm links), the
//! red polyline target → effector → links, bone lines, the bend plane, and limit arcs — the
//! two-bone elbow hinge, or each limited CCD link's hinge / Euler ranges. The pole marker is
//! amber for a two-bone arm and grey (unused) for a CCD arm. Everything is drawn over the
//! model.

use super::Stage;
use super::ccd_overlays::overlay_arc;
use super::colors;
use crate::draw::{OverlayLine, OverlaySphere, OverlayTriangle, Overlays};
use crate::fishing::{ArmSolverKind, PoseEvaluation, SIDES};
use crate::ik::limits::LimitArc;
use crate::ik::two_bone::ElbowLimit;
use crate::rig::Pose;
use glam::{DQuat, DVec3};

/// Which overlay groups to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayOptions {
    /// Target / effector / link spheres and the red polyline.
    pub spheres: bool,
    pub bone_lines: bool,
    pub limit_arcs: bool,
    /// Pole marker, elbow→pole line and the bend plane.
    pub pole_and_plane: bool,
    /// A marker on each finger's tip coloured by its contact with the handle (touching, a
    /// gap, inside), for contact grips.
    pub contacts: bool,
    /// Each arm's stability slice round its target (issue 36; off by default: it solves
    /// the arm at every cell each frame).
    pub stability: bool,
    /// The plane the stability slice lies in.
    pub slice_facing: super::SliceFacing,
}

impl Default for OverlayOptions {
    fn default() -> Self {
        Self {
            spheres: true,
            bone_lines: false,
            limit_arcs: true,
            pole_and_plane: true,
            contacts: true,
            stability: false,
            slice_facing: super::SliceFacing::BendPlane,
        }
    }
}

impl OverlayOptions {
    pub const NONE: Self = Self {
        spheres: false,
        bone_lines: false,
        limit_arcs: false,
        pole_and_plane: false,
        contacts: false,
        stability: false,
        slice_facing: super::SliceFacing::BendPlane,
    };

    pub fn any(&self) -> bool {
        self.spheres
            || self.bone_lines
            || self.limit_arcs
            || self.pole_and_plane
            || self.contacts
            || self.stability
    }
}

fn f32s(v: DVec3) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}

/// The elbow's hinge-limit arc from the solved arm: centred on the elbow, about the bend axis,
/// starting at the minimum bend. `bend` is the current bend (0 = straight).
///
/// Singular case: a perfectly straight arm has no bend axis; `fallback_axis` (the report's
/// bend-plane normal) is used, negated so that positive angles fold the forearm toward the
/// pole side.
pub fn elbow_limit_arc(
    shoulder: DVec3,
    elbow: DVec3,
    wrist: DVec3,
    limit: &ElbowLimit,
    on_limit: bool,
    fallback_axis: DVec3,
    radius: f64,
) -> LimitArc {
    let upper_dir = (elbow - shoulder).normalize_or(DVec3::Y);
    let fore_dir = (wrist - elbow).normalize_or(upper_dir);
    let axis = upper_dir
        .cross(fore_dir)
        .try_normalize()
        .unwrap_or_else(|| (-fallback_axis).normalize_or(upper_dir.any_orthonormal_vector()));
    let bend = upper_dir.angle_between(fore_dir);
    let dir = |a: f64| DQuat::from_axis_angle(axis, a) * upper_dir;
    LimitArc {
        centre_in_world: elbow,
        axis_in_world: axis,
        start_dir_in_world: dir(limit.min_bend),
        sweep: limit.max_bend - limit.min_bend,
        current_angle: bend - limit.min_bend,
        current_dir_in_world: fore_dir,
        on_limit,
        radius,
    }
}

/// The contact markers of one hand: a small sphere at the end of each finger's last capsule,
/// coloured by the finger's contact ([`colors::CONTACT_TOUCHING`], `_GAP`, `_INSIDE`).
fn contact_markers(
    stage: &Stage,
    side: crate::rig::Side,
    contact: &crate::fishing::HandContact,
    radius: f32,
    out: &mut Overlays,
) {
    use crate::ik::grip_contact::ContactState;
    let arm = stage.actor.arm(side);
    for ((finger, chain), capsules) in arm.fingers.iter().zip(&arm.shape.fingers) {
        let i = crate::fishing::hand_contact::finger_index(*finger);
        let (Some(c), Some(&tip), Some(last)) =
            (contact.fingers[i], chain.joints.last(), capsules.last())
        else {
            continue;
        };
        let end = last[crate::ik::grip_contact::SEGMENT_PIECES - 1].end;
        let at = stage.pose.world_from_bone(tip).transform_point3(end);
        let hex = match c.state {
            ContactState::Touching => colors::CONTACT_TOUCHING,
            ContactState::Gap => colors::CONTACT_GAP,
            ContactState::Inside => colors::CONTACT_INSIDE,
        };
        out.spheres.push(OverlaySphere {
            centre: f32s(at),
            radius: radius * 0.35,
            rgba: colors::linear(hex, 1.0),
        });
    }
}

/// Radius of the overlay spheres for `stage`, metres: 1.1% of the actor's height (what the
/// editor also picks them by).
pub fn sphere_radius(stage: &Stage) -> f64 {
    0.011 * stage.actor.height
}

/// Overlays for both arms of `stage` as evaluated in `eval`, seen through `camera`.
pub fn arm_overlays(
    stage: &Stage,
    eval: &PoseEvaluation,
    options: &OverlayOptions,
    camera: &crate::draw::Camera,
) -> Overlays {
    let pose: &Pose = &stage.pose;
    let radius = sphere_radius(stage) as f32;
    let mut out = Overlays::default();
    if options.stability {
        let slice = (options.slice_facing, camera);
        super::stability_overlay::stability_slices(stage, eval, slice, &mut out);
    }
    if options.bone_lines {
        let skel = &stage.actor.skeleton;
        for b in 0..skel.len() {
            if let Some(p) = skel.parent(b) {
                if !stage.character.is_joint(b) || !stage.character.is_joint(p) {
                    continue;
                }
                out.lines.push(OverlayLine {
                    points: vec![f32s(pose.world_position(p)), f32s(pose.world_position(b))],
                    rgba: colors::linear(colors::BONE, 0.8),
                    width_px: 1.5,
                });
            }
        }
    }
    for side in SIDES {
        let arm = stage.actor.arm(side);
        let report = eval.arms.get(side);
        let shoulder = pose.world_position(arm.upper);
        let elbow = pose.world_position(arm.fore);
        let wrist = pose.world_position(arm.hand);
        let target = report.wrist_target_in_world;
        let ccd = report.solver_kind() == ArmSolverKind::Ccd;
        if options.pole_and_plane {
            out.triangles.push(OverlayTriangle {
                points: [f32s(shoulder), f32s(elbow), f32s(wrist)],
                rgba: colors::linear(colors::BEND_PLANE, 0.25),
            });
            // A CCD arm ignores its pole: a faint grey marker, no line to the elbow.
            if !ccd {
                out.lines.push(OverlayLine {
                    points: vec![f32s(elbow), f32s(report.pole_in_world)],
                    rgba: colors::linear(colors::POLE, 0.6),
                    width_px: 1.5,
                });
            }
            out.spheres.push(OverlaySphere {
                centre: f32s(report.pole_in_world),
                radius: radius * 0.9,
                rgba: if ccd {
                    colors::linear(colors::UNUSED, 0.5)
                } else {
                    colors::linear(colors::POLE, 1.0)
                },
            });
        }
        if options.limit_arcs && ccd {
            super::ccd_overlays::ccd_link_arcs(stage, side, &mut out.arcs);
        } else if options.limit_arcs {
            let limit = stage.inputs.settings.effective_elbow_limit(side);
            let arc = elbow_limit_arc(
                shoulder,
                elbow,
                wrist,
                &limit,
                report.ik.elbow_limited,
                report.ik.bend_normal,
                0.25 * (elbow - shoulder).length(),
            );
            out.arcs.push(overlay_arc(&arc, limit.enabled));
        }
        if options.contacts {
            contact_markers(stage, side, &report.contact, radius, &mut out);
        }
        if options.spheres {
            out.lines.push(OverlayLine {
                points: vec![f32s(target), f32s(wrist), f32s(elbow), f32s(shoulder)],
                rgba: colors::linear(colors::POLYLINE, 1.0),
                width_px: 2.0,
            });
            out.spheres.push(OverlaySphere {
                centre: f32s(target),
                radius,
                rgba: colors::linear(colors::TARGET, 1.0),
            });
            out.spheres.push(OverlaySphere {
                centre: f32s(wrist),
                radius,
                rgba: colors::linear(colors::EFFECTOR, 1.0),
            });
            for link in [elbow, shoulder] {
                out.spheres.push(OverlaySphere {
                    centre: f32s(link),
                    radius,
                    rgba: colors::linear(colors::LINK, 1.0),
                });
            }
        }
    }
    out
}
