//! The stability slice in the editor (issue 36): a view toggle that draws each arm's slice
//! round its target (cells coloured by class), follows a pole drag as it happens, reads out
//! each arm's margin and changes nothing in the document.

use anglerpose::editor::files;
use anglerpose::editor::{EditorCommand as C, EditorState, PoseEdit};
use anglerpose::fishing::{SampleClass, StabilityGrid, StabilityJob};
use anglerpose::rig::Side;
use anglerpose::stage::{SLICE_CELLS, class_hex, colors};

fn editor() -> EditorState {
    EditorState::new(files::open_default().expect("bundled angler"))
}

fn toggle(ed: &mut EditorState, on: bool) {
    let cmd: C = serde_json::from_str(&format!(
        r#"{{"cmd": "toggle", "what": "stability", "on": {on}}}"#
    ))
    .unwrap();
    ed.apply(cmd).unwrap();
}

/// The overlay triangles of the current frame in a class's colour.
fn cells_of(ed: &EditorState, class: SampleClass) -> usize {
    let camera = ed.render_camera();
    let rgba = colors::linear(class_hex(class), 0.35);
    let frame = ed.doc.stage.frame(camera, &ed.view);
    frame
        .overlays
        .triangles
        .iter()
        .filter(|t| t.rgba == rgba)
        .count()
        / 2
}

#[test]
fn the_slice_is_a_view_toggle_with_a_cell_per_sample_and_class_colours() {
    let mut ed = editor();
    assert!(!ed.view.overlays.stability, "off by default");
    let camera = ed.render_camera();
    let before = ed
        .doc
        .stage
        .frame(camera, &ed.view)
        .overlays
        .triangles
        .len();
    let snapshot = ed.doc.snapshot();
    toggle(&mut ed, true);
    let after = ed
        .doc
        .stage
        .frame(camera, &ed.view)
        .overlays
        .triangles
        .len();
    // Two arms, SLICE_CELLS² cells, two triangles each.
    assert_eq!(after - before, 2 * 2 * SLICE_CELLS * SLICE_CELLS);
    let classes: usize = [
        SampleClass::Stable,
        SampleClass::Sensitive,
        SampleClass::Flipped,
        SampleClass::OutOfReach,
    ]
    .iter()
    .map(|c| cells_of(&ed, *c))
    .sum();
    assert_eq!(classes, 2 * SLICE_CELLS * SLICE_CELLS);
    // At the seated hold both targets sit among stable cells.
    assert!(cells_of(&ed, SampleClass::Stable) > SLICE_CELLS * SLICE_CELLS);
    assert!(!ed.doc.dirty);
    assert_eq!(ed.history.undo_len(), 0);
    assert_eq!(ed.doc.snapshot(), snapshot);
    toggle(&mut ed, false);
    assert_eq!(
        ed.doc
            .stage
            .frame(camera, &ed.view)
            .overlays
            .triangles
            .len(),
        before
    );
}

#[test]
fn a_pole_dragged_onto_the_shoulder_target_line_turns_cells_red_and_the_margin_to_zero() {
    let mut ed = editor();
    toggle(&mut ed, true);
    let flipped_before = cells_of(&ed, SampleClass::Flipped);
    let readout = ed.doc.stage.stability_readout(Side::Right).unwrap();
    assert!(readout.margin.margin > 0.02, "{readout:?}");
    // The pole beyond the right target on the shoulder → target line (actor space).
    let stage = &ed.doc.stage;
    let eval = stage.evaluation().unwrap();
    let to_actor = stage.world_from_actor.to_affine().inverse();
    let shoulder = to_actor.transform_point3(
        stage
            .pose
            .world_position(stage.actor.arm(Side::Right).upper),
    );
    let target = to_actor.transform_point3(eval.arms.right.wrist_target_in_world);
    let pole = shoulder + (target - shoulder) * 2.0;
    ed.apply(C::Edit(PoseEdit::SetPole {
        side: Side::Right,
        pole: pole.to_array(),
    }))
    .unwrap();
    let flipped_after = cells_of(&ed, SampleClass::Flipped);
    assert!(
        flipped_after > flipped_before + SLICE_CELLS,
        "flipped cells {flipped_before} → {flipped_after}"
    );
    let readout = ed.doc.stage.stability_readout(Side::Right).unwrap();
    assert_eq!(readout.margin.nearest, Some(SampleClass::Flipped));
    assert!(readout.margin.margin < 0.005, "{readout:?}");
    // The slice drawn is the one the core computes for this pose.
    let stage = &ed.doc.stage;
    let eval = stage.evaluation().unwrap();
    let report = eval.arms.get(Side::Right);
    let shoulder = stage
        .pose
        .world_position(stage.actor.arm(Side::Right).upper);
    let grid = StabilityGrid::bend_plane(
        shoulder,
        report.wrist_target_in_world,
        report.pole_in_world,
        anglerpose::stage::SLICE_HALF_EXTENT * stage.size_factor(),
        SLICE_CELLS,
    );
    let core = StabilityJob::for_arm(
        &stage.actor,
        &stage.inputs.settings,
        &stage.pose,
        (Side::Right, report),
        grid,
    )
    .solve()
    .unwrap();
    assert!(core.count(SampleClass::Flipped) > SLICE_CELLS);
}
