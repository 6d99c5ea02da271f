//! The drag state machine's geometry: from the snapshot taken when the drag began and the
//! mouse position now, the calibration the handle's drag asks for. Every move recomputes from
//! the start (never incrementally), so Esc restores exactly and moves do not drift.
//!
//! Mirrored (left-handed) sessions: the session mirrors rod, net and grips with x → −x after
//! composing them, i.e. `mir(q) = M q M` on rotations. `mir` is an involutive homomorphism, so
//! for a frame `F = mir(A·r)` the edit `r' = r · mir(F⁻¹ Q F)` gives `F' = Q F`, and a world
//! translation `d` of `mir(O · x)` is `x += O⁻¹ M d` in object space.

use super::camera::{Ray, pixel_ray, world_to_pixel};
use super::document::Snapshot;
use super::handles::{Axis, GizmoSpace, Handle, held_grip};
use crate::fishing::{GripKind, Handedness};
use crate::render::Camera;
use crate::stage::Stage;
use crate::stage::rod_markers::{RodMarker, blank_in_world, marker_along};
use glam::{DMat3, DQuat, DVec3};

/// Translation snap step (metres) and rotation snap step (radians) while Shift is held.
pub const SNAP_METRES: f64 = 0.01;
pub const SNAP_RADIANS: f64 = 5.0 * std::f64::consts::PI / 180.0;

/// A drag in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Drag {
    pub handle: Handle,
    /// The document before the drag (restored by Esc, pushed to undo at the end).
    pub before: Snapshot,
    pub start_pixel: [f64; 2],
    pub pixel: [f64; 2],
    /// Move along this axis, or rotate about it.
    pub axis: Option<Axis>,
    /// Move in the plane normal to this axis (the move gizmo's plane handles).
    pub plane: Option<Axis>,
    /// Axes are the handle's own frame's (Q: local), not the world's.
    pub local: bool,
    /// The drag rotates (the rotate gizmo, or a grip or the rod by default).
    pub rotate: bool,
    /// A number typed during the drag (Blender-style): metres along the axis, or degrees
    /// about it; it replaces the mouse's motion.
    pub typed: Option<f64>,
    pub snap: bool,
    /// The handle's world position at the start (the pivot for rotations).
    pub start_point: DVec3,
    /// For translations: world delta → delta in the edited value's space.
    value_from_world: DMat3,
    /// For rotations: the rotated frame's actor-space rotation at the start.
    frame_in_actor: DQuat,
    /// The handle's own frame in world space at the start (local axes; see
    /// [`super::handles::handle_axes_in_world`]).
    frame_in_world: DQuat,
    /// The grip kind edited (target and grip drags).
    pub kind: Option<GripKind>,
    mirrored: bool,
    /// Pole drags edit the current phase's key instead of the constant pole.
    pub per_phase_pole: bool,
    /// For rod-marker drags: the marker's metres from the butt at the start (the butt
    /// marker: the butt offset), and the rear grip then.
    marker_start: f64,
    start_rear_grip: f64,
}

fn mirror_rotation(q: DQuat) -> DQuat {
    DQuat::from_xyzw(q.x, -q.y, -q.z, q.w)
}

impl Drag {
    /// Starts a drag of `handle` at `pixel` that rotates (`rotate`, for handles that can) or
    /// moves it. `None` when the stage has no evaluation.
    pub fn begin(
        stage: &Stage,
        before: Snapshot,
        handle: Handle,
        pixel: [f64; 2],
        rotate: bool,
    ) -> Option<Self> {
        let rotate = rotate && handle.can_rotate() || !handle.can_move();
        let eval = stage.evaluation()?;
        let start_point = super::handles::handle_position(stage, handle)?;
        let mirrored = stage.inputs.state.params.handedness == Handedness::Left;
        let actor_rot = stage.world_from_actor.rotation.normalize();
        let actor_scale = stage.world_from_actor.scale.x.abs().max(1e-9);
        let actor_from_world = DMat3::from_quat(actor_rot.inverse()) * (1.0 / actor_scale);
        let m = if mirrored {
            DMat3::from_diagonal(DVec3::new(-1.0, 1.0, 1.0))
        } else {
            DMat3::IDENTITY
        };
        let unmirror = |q: DQuat| if mirrored { mirror_rotation(q) } else { q };
        // The object a grip lives on, unmirrored (grip offsets are in its space).
        let object_of = |kind: GripKind| {
            unmirror(if kind == GripKind::NetHandle {
                eval.frames.actor_from_net.rotation
            } else {
                eval.frames.actor_from_hold.rotation
            })
        };
        let rod_pre_adjust = unmirror(eval.frames.actor_from_hold.rotation)
            * before.inputs.calibration.rod_adjust.rotation.inverse();
        let translate_in =
            |object_u: DQuat| DMat3::from_quat(object_u.inverse()) * m * actor_from_world;
        let (value_from_world, frame_in_actor, kind) = match handle {
            Handle::Target(side) => {
                let kind = eval.arms.get(side).grip.hold.main();
                (translate_in(object_of(kind)), DQuat::IDENTITY, Some(kind))
            }
            Handle::Pole(_) => (actor_from_world, DQuat::IDENTITY, None),
            Handle::Grip(side) => {
                let kind = held_grip(stage, side)?.0;
                let g = eval.frames.grips.get(side).actor_from_grip.rotation;
                (translate_in(object_of(kind)), g, Some(kind))
            }
            Handle::Rod => (
                translate_in(rod_pre_adjust),
                eval.frames.actor_from_rod.rotation,
                None,
            ),
            Handle::RodMarker(_) => (DMat3::IDENTITY, DQuat::IDENTITY, None),
        };
        let frame_in_world =
            super::handles::handle_axes_in_world(stage, handle, GizmoSpace::Local)?;
        Some(Self {
            handle,
            before,
            start_pixel: pixel,
            pixel,
            axis: None,
            plane: None,
            local: false,
            rotate,
            typed: None,
            snap: false,
            start_point,
            value_from_world,
            frame_in_actor,
            frame_in_world,
            kind,
            mirrored,
            per_phase_pole: false,
            marker_start: match handle {
                Handle::RodMarker(RodMarker::Butt) => {
                    stage.props.rod_grips().butt_offset.unwrap_or(0.0)
                }
                Handle::RodMarker(m) => marker_along(stage, m),
                _ => 0.0,
            },
            start_rear_grip: stage.actor.gear.rod.rear_grip,
        })
    }

    /// `axis` in world space: the world's, or the handle's own frame's when `local`.
    pub fn axis_dir(&self, axis: Axis) -> DVec3 {
        if self.local {
            (self.frame_in_world * axis.dir()).normalize()
        } else {
            axis.dir()
        }
    }

    /// The world-space translation asked for now: a typed distance along the axis (X when
    /// none), else the mouse's motion in the view plane, along `axis`, or in `plane`.
    pub fn world_delta(&self, camera: &Camera) -> DVec3 {
        if let Some(v) = self.typed {
            return self.axis_dir(self.axis.unwrap_or(Axis::X)) * v;
        }
        let ray_at = |p: [f64; 2]| pixel_ray(camera, [p[0] as f32, p[1] as f32]);
        let (Some(r0), Some(r1)) = (ray_at(self.start_pixel), ray_at(self.pixel)) else {
            return DVec3::ZERO;
        };
        let hit = |ray: &Ray| -> Option<DVec3> {
            if let (None, Some(n)) = (self.axis, self.plane) {
                let normal = self.axis_dir(n);
                let denom = ray.dir.dot(normal);
                if denom.abs() < 1e-9 {
                    return None;
                }
                let s = (self.start_point - ray.origin).dot(normal) / denom;
                return Some(ray.at(s));
            }
            match self.axis {
                Some(axis) => {
                    // Closest point on the axis line through the start point to the ray.
                    let u = self.axis_dir(axis);
                    let w0 = self.start_point - ray.origin;
                    let b = u.dot(ray.dir);
                    let denom = 1.0 - b * b;
                    if denom < 1e-6 {
                        return None;
                    }
                    let s = (b * ray.dir.dot(w0) - u.dot(w0)) / denom;
                    Some(self.start_point + u * s)
                }
                None => {
                    let normal = camera_forward(camera);
                    let denom = ray.dir.dot(normal);
                    if denom.abs() < 1e-9 {
                        return None;
                    }
                    let s = (self.start_point - ray.origin).dot(normal) / denom;
                    Some(ray.at(s))
                }
            }
        };
        let (Some(a), Some(b)) = (hit(&r0), hit(&r1)) else {
            return DVec3::ZERO;
        };
        let mut d = b - a;
        if !d.is_finite() {
            return DVec3::ZERO;
        }
        if self.snap {
            d = (d / SNAP_METRES).round() * SNAP_METRES;
        }
        d
    }

    /// The world rotation asked for by the mouse now: the angle swept around the pivot on
    /// screen, about the view axis or the constraint axis.
    pub fn world_rotation(&self, camera: &Camera) -> DQuat {
        if let Some(degrees) = self.typed {
            let axis = self
                .axis
                .map_or(-camera_forward(camera), |a| self.axis_dir(a));
            return DQuat::from_axis_angle(axis, degrees.to_radians());
        }
        let Some(pivot) = world_to_pixel(camera, self.start_point) else {
            return DQuat::IDENTITY;
        };
        let angle_of = |p: [f64; 2]| (-(p[1] - pivot[1])).atan2(p[0] - pivot[0]);
        let (v0, v1) = (self.start_pixel, self.pixel);
        let too_close = |p: [f64; 2]| (p[0] - pivot[0]).hypot(p[1] - pivot[1]) < 2.0;
        if too_close(v0) || too_close(v1) {
            return DQuat::IDENTITY;
        }
        let mut angle = angle_of(v1) - angle_of(v0);
        angle =
            (angle + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        let toward_viewer = -camera_forward(camera);
        let axis = match self.axis {
            Some(a) => {
                let d = self.axis_dir(a);
                if d.dot(toward_viewer) < 0.0 {
                    angle = -angle;
                }
                d
            }
            None => toward_viewer,
        };
        if self.snap {
            angle = (angle / SNAP_RADIANS).round() * SNAP_RADIANS;
        }
        DQuat::from_axis_angle(axis, angle)
    }

    /// Metres from the butt the mouse asks for `marker`: the marker's start plus how far
    /// the mouse ray's closest point on the blank's line (fixed at the start) has moved
    /// along it; kept on the rod, the rear grip at least 2 cm behind the reel seat.
    fn marker_along(&self, stage: &Stage, camera: &Camera, marker: RodMarker) -> Option<f64> {
        let (_, dir, k) = blank_in_world(stage)?;
        let ray_at = |p: [f64; 2]| pixel_ray(camera, [p[0] as f32, p[1] as f32]);
        let on_line = |ray: &Ray| -> Option<f64> {
            let w0 = self.start_point - ray.origin;
            let b = dir.dot(ray.dir);
            let denom = 1.0 - b * b;
            (denom > 1e-6).then(|| (b * ray.dir.dot(w0) - dir.dot(w0)) / denom)
        };
        let d = on_line(&ray_at(self.pixel)?)? - on_line(&ray_at(self.start_pixel)?)?;
        let mut d = d / k;
        if self.snap {
            d = (d / SNAP_METRES).round() * SNAP_METRES;
        }
        let rod = &stage.actor.gear.rod;
        let start = self.marker_start;
        let (lo, hi) = match marker {
            // The butt offset, measured from the rod's end: up to 2 cm before the rear grip
            // as it was at the start.
            RodMarker::Butt => (0.0, start + self.start_rear_grip - 0.02),
            RodMarker::RearGrip => (0.0, rod.reel_seat - 0.02),
            RodMarker::ReelSeat => (rod.rear_grip + 0.02, rod.length),
        };
        Some((start + d).clamp(lo, hi.max(lo)))
    }

    /// The snapshot this drag asks for with the mouse at `self.pixel`.
    pub fn apply(&self, stage: &Stage, camera: &Camera) -> Snapshot {
        let mut s = self.before.clone();
        let calib = &mut s.inputs.calibration;
        match self.handle {
            Handle::RodMarker(marker) => {
                if let Some(along) = self.marker_along(stage, camera, marker) {
                    let g = &mut s.rod_grips;
                    match marker {
                        RodMarker::Butt => g.butt_offset = Some(along),
                        RodMarker::RearGrip => g.rear_grip = Some(along),
                        RodMarker::ReelSeat => g.reel_seat = Some(along),
                    }
                }
            }
            Handle::Pole(_) => {
                let d = self.value_from_world * self.world_delta(camera);
                let phase = self.before.inputs.state.phase;
                let poles = calib.poles.get_mut(pole_side(self.handle));
                if self.per_phase_pole || poles.per_phase.contains_key(&phase) {
                    let key = poles.key(phase);
                    poles.per_phase.insert(phase, key + d);
                } else {
                    poles.pole_in_actor += d;
                }
            }
            Handle::Target(_) | Handle::Grip(_) | Handle::Rod if !self.rotate => {
                let d = self.value_from_world * self.world_delta(camera);
                if self.handle == Handle::Rod {
                    calib.rod_adjust.offset_in_object += d;
                } else if let Some(kind) = self.kind {
                    calib.grips.entry(kind).or_default().offset_in_object += d;
                }
            }
            Handle::Target(_) | Handle::Grip(_) | Handle::Rod => {
                let q_world = self.world_rotation(camera);
                let a = stage.world_from_actor.rotation.normalize();
                let q_actor = (a.inverse() * q_world * a).normalize();
                let f = self.frame_in_actor;
                let mut local = (f.inverse() * q_actor * f).normalize();
                if self.mirrored {
                    local = mirror_rotation(local);
                }
                let target = if self.handle == Handle::Rod {
                    &mut calib.rod_adjust
                } else {
                    match self.kind {
                        Some(kind) => calib.grips.entry(kind).or_default(),
                        None => return s,
                    }
                };
                target.rotation = (target.rotation * local).normalize();
            }
        }
        s
    }
}

fn pole_side(handle: Handle) -> crate::rig::Side {
    match handle {
        Handle::Pole(s) | Handle::Target(s) | Handle::Grip(s) => s,
        Handle::Rod | Handle::RodMarker(_) => crate::rig::Side::Right,
    }
}

/// Unit view direction of `camera` (from the eye into the scene).
pub fn camera_forward(camera: &Camera) -> DVec3 {
    let v = glam::Mat4::from_cols_array_2d(&camera.view_from_world);
    // Row 2 of the view rotation is the camera's +Z (backwards) in world space.
    let back = DVec3::new(
        f64::from(v.x_axis.z),
        f64::from(v.y_axis.z),
        f64::from(v.z_axis.z),
    );
    (-back).normalize_or(DVec3::NEG_Z)
}
