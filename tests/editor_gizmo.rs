//! The editor's gizmo as handles (issue 19 item 1), headless through `EditorState::apply`: W / E
//! switch move and rotate, Q world and local axes; arrows, plane squares and rings are picked
//! under the mouse (and highlighted), dragging them moves along the arrow, in the plane or
//! turns about the ring's axis; a number typed during the drag sets the exact value.

mod support;

use anglerpose::editor::camera::{world_per_pixel, world_to_pixel};
use anglerpose::editor::gizmo::{AXIS_PX, RING_PX, editor_frame, gizmo_axes};
use anglerpose::editor::handles::{Axis, GizmoMode, GizmoPart, GizmoSpace, handle_position};
use anglerpose::editor::pick::pick_gizmo;
use anglerpose::editor::{DocumentCommand, DragCommand, ViewCommand};
use anglerpose::editor::{EditorState, Handle};
use anglerpose::rig::Side;
use glam::{DQuat, DVec3};
use support::editor::{arms, bundled_editor};

fn select(ed: &mut EditorState, handle: Handle) {
    ed.apply(ViewCommand::Select {
        handle: Some(handle),
    })
    .unwrap();
}

/// The pixel of a point `fraction` of the way along the gizmo arrow (or ring radius) in the
/// world direction `dir` from the selection.
fn gizmo_pixel(ed: &EditorState, dir: DVec3, length_px: f64, fraction: f64) -> [f64; 2] {
    let camera = ed.render_camera();
    let p = handle_position(&ed.doc().stage, ed.view().selection().unwrap()).unwrap();
    let px = world_per_pixel(&camera, p);
    world_to_pixel(&camera, p + dir * (fraction * length_px * px)).unwrap()
}

/// The right hand's grip frame in actor space.
fn right_grip(ed: &EditorState) -> anglerpose::rig::Transform {
    ed.doc()
        .stage
        .evaluation()
        .unwrap()
        .frames
        .grips
        .right
        .actor_from_grip
}

fn target(ed: &EditorState, side: Side) -> DVec3 {
    arms(ed).get(side).wrist_target_in_world
}

/// The world axis of `axes` whose arrow is longest on screen (a well-conditioned one).
fn visible_axis(ed: &EditorState, axes: &[(Axis, DVec3); 3], length: f64) -> (Axis, DVec3) {
    let camera = ed.render_camera();
    let p = handle_position(&ed.doc().stage, ed.view().selection().unwrap()).unwrap();
    let c = world_to_pixel(&camera, p).unwrap();
    *axes
        .iter()
        .max_by(|a, b| {
            let len = |d: DVec3| {
                let e = gizmo_pixel(ed, d, length, 1.0);
                (e[0] - c[0]).hypot(e[1] - c[1])
            };
            len(a.1).total_cmp(&len(b.1))
        })
        .unwrap()
}

/// The bundled editor with the right wrist target selected, the axis and world direction of
/// its gizmo's best-visible arrow, and a pixel 80% along that arrow.
fn right_target_arrow() -> (EditorState, Axis, DVec3, [f64; 2]) {
    let mut ed = bundled_editor();
    select(&mut ed, Handle::Target(Side::Right));
    let axes = gizmo_axes(&ed.doc().stage, ed.view(), Handle::Target(Side::Right));
    let (axis, dir) = visible_axis(&ed, &axes, AXIS_PX);
    let at = gizmo_pixel(&ed, dir, AXIS_PX, 0.8);
    (ed, axis, dir, at)
}

#[test]
fn an_arrow_is_picked_highlighted_and_drags_along_its_axis() {
    let (mut ed, axis, dir, at) = right_target_arrow();
    let camera = ed.render_camera();
    assert_eq!(
        pick_gizmo(&ed.doc().stage, ed.view(), &camera, at),
        Some(GizmoPart::Arrow(axis))
    );
    // Hovered: that arrow is drawn in the highlight colour.
    ed.apply(ViewCommand::SetHover {
        part: Some(GizmoPart::Arrow(axis)),
    })
    .unwrap();
    let lit = editor_frame(&ed, camera, true)
        .overlays
        .lines
        .iter()
        .filter(|l| l.rgba == [1.0, 0.9, 0.2, 1.0])
        .count();
    assert_eq!(lit, 1, "one highlighted arrow");
    let before = target(&ed, Side::Right);
    ed.apply(DragCommand::BeginDrag {
        handle: Handle::Target(Side::Right),
        x: at[0],
        y: at[1],
    })
    .unwrap();
    ed.apply(DragCommand::SetDragAxis { axis: Some(axis) })
        .unwrap();
    let to = gizmo_pixel(&ed, dir, AXIS_PX, 1.6);
    ed.apply(DragCommand::DragTo { x: to[0], y: to[1] })
        .unwrap();
    let moved = target(&ed, Side::Right) - before;
    assert!(moved.length() > 0.01, "{moved}");
    assert!(
        (moved - dir * moved.dot(dir)).length() < 1e-9,
        "off the axis: {moved}"
    );
    ed.apply(DragCommand::EndDrag).unwrap();
}

#[test]
fn a_plane_square_moves_in_its_plane() {
    let mut ed = bundled_editor();
    let handle = Handle::Pole(Side::Right);
    select(&mut ed, handle);
    let axes = gizmo_axes(&ed.doc().stage, ed.view(), handle);
    // The square of the plane normal to Y (between Z and X) is at 35% along both.
    let (u, v) = (axes[2].1, axes[0].1);
    let camera = ed.render_camera();
    let p = handle_position(&ed.doc().stage, handle).unwrap();
    let px = world_per_pixel(&camera, p);
    let at = world_to_pixel(&camera, p + (u + v) * (0.35 * AXIS_PX * px)).unwrap();
    assert_eq!(
        pick_gizmo(&ed.doc().stage, ed.view(), &camera, at),
        Some(GizmoPart::Plane(Axis::Y))
    );
    let pole = |ed: &EditorState| ed.doc().stage.inputs.calibration.poles.right.pole_in_actor;
    let before = pole(&ed);
    ed.apply(DragCommand::BeginDrag {
        handle,
        x: at[0],
        y: at[1],
    })
    .unwrap();
    ed.apply(DragCommand::SetDragPlane {
        normal: Some(Axis::Y),
    })
    .unwrap();
    ed.apply(DragCommand::DragTo {
        x: at[0] + 40.0,
        y: at[1] - 25.0,
    })
    .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let moved = pole(&ed) - before;
    assert!(moved.length() > 0.01, "{moved}");
    assert!(moved.y.abs() < 1e-9, "left the plane: {moved}");
}

#[test]
fn e_shows_rings_and_a_ring_turns_about_its_axis_w_moves_the_grip() {
    let mut ed = bundled_editor();
    let handle = Handle::Grip(Side::Right);
    select(&mut ed, handle);
    ed.apply(ViewCommand::SetGizmoMode {
        mode: Some(GizmoMode::Rotate),
    })
    .unwrap();
    let axes = gizmo_axes(&ed.doc().stage, ed.view(), handle);
    // A point on the X ring: along the Y axis (in the ring's plane) at the ring's radius.
    let at = gizmo_pixel(&ed, axes[1].1, RING_PX, 1.0);
    let camera = ed.render_camera();
    let part = pick_gizmo(&ed.doc().stage, ed.view(), &camera, at);
    assert!(
        matches!(part, Some(GizmoPart::Ring(_))),
        "a ring at {at:?}: {part:?}"
    );
    let Some(GizmoPart::Ring(axis)) = part else {
        unreachable!()
    };
    let kind = arms(&ed).right.grip.hold.main();
    let grip_rotation = |ed: &EditorState| right_grip(ed).rotation;
    let before = grip_rotation(&ed);
    ed.apply(DragCommand::BeginDrag {
        handle,
        x: at[0],
        y: at[1],
    })
    .unwrap();
    ed.apply(DragCommand::SetDragAxis { axis: Some(axis) })
        .unwrap();
    // Typed: exactly 30° about the ring's axis.
    ed.apply(DragCommand::SetDragNumber { value: Some(30.0) })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let turn = (grip_rotation(&ed) * before.inverse()).normalize();
    let want = DQuat::from_axis_angle(axis.dir(), 30f64.to_radians());
    assert!(
        turn.angle_between(want) < 1e-9,
        "turned {:?} about {:?}",
        turn.to_axis_angle(),
        axis
    );
    // W: the same grip moves instead (its offset), by a typed 2 cm along X.
    ed.apply(ViewCommand::SetGizmoMode {
        mode: Some(GizmoMode::Move),
    })
    .unwrap();
    assert!(matches!(
        pick_gizmo(
            &ed.doc().stage,
            ed.view(),
            &camera,
            gizmo_pixel(&ed, axes[0].1, AXIS_PX, 0.8)
        ),
        Some(GizmoPart::Arrow(_)) | None
    ));
    let offset = |ed: &EditorState| {
        ed.doc()
            .stage
            .inputs
            .calibration
            .grip(kind)
            .offset_in_object
    };
    let grip_at = |ed: &EditorState| right_grip(ed).translation;
    let (o0, g0) = (offset(&ed), grip_at(&ed));
    let [x, y] = gizmo_pixel(&ed, axes[0].1, AXIS_PX, 0.8);
    ed.apply(DragCommand::BeginDrag { handle, x, y }).unwrap();
    ed.apply(DragCommand::SetDragAxis {
        axis: Some(Axis::X),
    })
    .unwrap();
    ed.apply(DragCommand::SetDragNumber { value: Some(0.02) })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    assert_ne!(offset(&ed), o0);
    let moved = grip_at(&ed) - g0;
    assert!(
        (moved - DVec3::X * 0.02).length() < 1e-9,
        "the grip moved {moved}"
    );
    assert!(ed.doc().dirty);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(offset(&ed), o0);
}

#[test]
fn q_uses_the_selections_own_axes() {
    let mut ed = bundled_editor();
    let handle = Handle::Target(Side::Right);
    select(&mut ed, handle);
    ed.apply(ViewCommand::SetGizmoSpace {
        space: GizmoSpace::Local,
    })
    .unwrap();
    let axes = gizmo_axes(&ed.doc().stage, ed.view(), handle);
    let grip = right_grip(&ed).rotation;
    for (a, dir) in axes {
        assert!((dir - grip * a.dir()).length() < 1e-9, "{a:?}");
    }
    // A typed 3 cm along local Z moves the target along the grip's own Z.
    let before = target(&ed, Side::Right);
    let [x, y] = gizmo_pixel(&ed, axes[2].1, AXIS_PX, 0.8);
    ed.apply(DragCommand::BeginDrag { handle, x, y }).unwrap();
    ed.apply(DragCommand::SetDragAxis {
        axis: Some(Axis::Z),
    })
    .unwrap();
    ed.apply(DragCommand::SetDragNumber { value: Some(0.03) })
        .unwrap();
    // A number that does not parse goes back to the mouse, and a new one applies again.
    ed.apply(DragCommand::SetDragNumber { value: None })
        .unwrap();
    ed.apply(DragCommand::SetDragNumber { value: Some(0.03) })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let moved = target(&ed, Side::Right) - before;
    assert!(
        (moved - grip * DVec3::Z * 0.03).length() < 1e-9,
        "moved {moved}"
    );
    // Esc restores exactly, even after a typed value.
    let snapshot = ed.doc().snapshot();
    ed.apply(DragCommand::BeginDrag { handle, x, y }).unwrap();
    ed.apply(DragCommand::SetDragNumber { value: Some(0.5) })
        .unwrap();
    ed.apply(DragCommand::CancelDrag).unwrap();
    assert_eq!(ed.doc().snapshot(), snapshot);
}

#[test]
fn the_rod_moves_with_w_by_its_rod_adjustment() {
    let mut ed = bundled_editor();
    select(&mut ed, Handle::Rod);
    ed.apply(ViewCommand::SetGizmoMode {
        mode: Some(GizmoMode::Move),
    })
    .unwrap();
    let rod = |ed: &EditorState| ed.doc().stage.evaluation().unwrap().frames.actor_from_rod;
    let before = rod(&ed);
    let camera = ed.render_camera();
    let p = handle_position(&ed.doc().stage, Handle::Rod).unwrap();
    let [x, y] = world_to_pixel(&camera, p).unwrap();
    ed.apply(DragCommand::BeginDrag {
        handle: Handle::Rod,
        x,
        y,
    })
    .unwrap();
    ed.apply(DragCommand::SetDragAxis {
        axis: Some(Axis::Y),
    })
    .unwrap();
    ed.apply(DragCommand::SetDragNumber { value: Some(0.05) })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let after = rod(&ed);
    assert!(
        (after.translation - before.translation - DVec3::Y * 0.05).length() < 1e-9,
        "{} → {}",
        before.translation,
        after.translation
    );
    assert!(after.rotation.angle_between(before.rotation) < 1e-12);
}

#[test]
fn a_press_grabs_the_gizmo_before_the_handles_as_the_window_does() {
    use anglerpose::editor::pick::{Hit, pick_at};
    let (mut ed, axis, dir, at) = right_target_arrow();
    let camera = ed.render_camera();
    assert_eq!(
        pick_at(&ed.doc().stage, ed.view(), &camera, at),
        Some(Hit::Gizmo(
            Handle::Target(Side::Right),
            GizmoPart::Arrow(axis)
        ))
    );
    // `PointerDown` (what the window sends) drags the selection along the arrow's axis.
    let before = target(&ed, Side::Right);
    ed.apply(DragCommand::PointerDown { x: at[0], y: at[1] })
        .unwrap();
    let drag = ed.drag().expect("a drag");
    assert_eq!(drag.axis, Some(axis));
    let to = gizmo_pixel(&ed, dir, AXIS_PX, 1.6);
    ed.apply(DragCommand::DragTo { x: to[0], y: to[1] })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let moved = target(&ed, Side::Right) - before;
    assert!(moved.length() > 1e-3, "the target moved {moved}");
    assert!(
        moved.normalize().cross(dir).length() < 1e-6,
        "along {dir} only: {moved}"
    );
    // Away from the gizmo, the press picks the handle under it; over nothing, it deselects.
    let left = handle_position(&ed.doc().stage, Handle::Target(Side::Left)).unwrap();
    let left_px = world_to_pixel(&camera, left).unwrap();
    assert_eq!(
        pick_at(&ed.doc().stage, ed.view(), &camera, left_px),
        Some(Hit::Handle(Handle::Target(Side::Left)))
    );
    ed.apply(DragCommand::PointerDown { x: 2.0, y: 2.0 })
        .unwrap();
    assert_eq!(ed.view().selection(), None);
    assert!(ed.drag().is_none());
}
