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
    let frame = ed.doc().stage.frame(camera, ed.view().options());
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
    assert!(!ed.view().options().overlays.stability, "off by default");
    let camera = ed.render_camera();
    let before = ed
        .doc()
        .stage
        .frame(camera, ed.view().options())
        .overlays
        .triangles
        .len();
    let snapshot = ed.doc().snapshot();
    toggle(&mut ed, true);
    let after = ed
        .doc()
        .stage
        .frame(camera, ed.view().options())
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
    assert!(!ed.doc().dirty);
    assert_eq!(ed.history().undo_len(), 0);
    assert_eq!(ed.doc().snapshot(), snapshot);
    toggle(&mut ed, false);
    assert_eq!(
        ed.doc()
            .stage
            .frame(camera, ed.view().options())
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
    let readout = ed.doc().stage.stability_readout(Side::Right).unwrap();
    assert!(readout.margin.margin > 0.02, "{readout:?}");
    // The pole beyond the right target on the shoulder → target line (actor space).
    let stage = &ed.doc().stage;
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
    let readout = ed.doc().stage.stability_readout(Side::Right).unwrap();
    assert_eq!(readout.margin.nearest, Some(SampleClass::Flipped));
    assert!(readout.margin.margin < 0.005, "{readout:?}");
    // The slice drawn is the one the core computes for this pose.
    let stage = &ed.doc().stage;
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

/// The margin lane under the flip plot reads the session's margins at the plot's samples;
/// "jump to the weakest instant" scrubs to the smallest of them, and thin runs are exactly
/// the samples below the threshold. Neither dirties the document; an edit recomputes them.
#[test]
fn the_margin_lane_reads_the_sessions_margins_and_jumps_to_the_weakest_instant() {
    use anglerpose::editor::{ANALYSIS_SAMPLES, MARGIN_THRESHOLD};
    use anglerpose::fishing::timeline_margins;
    let mut ed = editor();
    let s = &ed.doc().stage;
    let expected = timeline_margins(
        &s.actor,
        &s.inputs.calibration,
        &s.inputs.settings,
        &s.inputs.state.params,
        ANALYSIS_SAMPLES,
        1,
    )
    .unwrap();
    assert_eq!(ed.margins(), Some(&expected));
    let (side, time, margin) = ed.weakest_instant().unwrap();
    let least = expected
        .left
        .iter()
        .chain(&expected.right)
        .fold(f64::INFINITY, |a, m| a.min(*m));
    assert_eq!(margin, least);
    assert!(expected.get(side).contains(&margin));
    // Thin runs cover exactly the samples below the threshold, worst = the run's least.
    let analysis = ed.analysis().unwrap().clone();
    for threshold in [MARGIN_THRESHOLD, margin, margin + 1e-3, 0.06] {
        let runs = analysis.thin_margins(&expected, threshold);
        for side in [Side::Left, Side::Right] {
            let m = expected.get(side);
            let mut covered = vec![false; m.len()];
            for r in runs.iter().filter(|r| r.side == side) {
                let run = &m[r.first_sample..=r.last_sample];
                assert!(run.iter().all(|x| *x < threshold), "{r:?}");
                assert_eq!(r.worst, run.iter().fold(f64::INFINITY, |a, x| a.min(*x)));
                covered[r.first_sample..=r.last_sample].fill(true);
            }
            for (k, x) in m.iter().enumerate() {
                assert_eq!(covered[k], *x < threshold, "{side:?} sample {k}: {x}");
            }
        }
    }
    // Jump, from an instant well away from the weakest (the weakest may be the start: the
    // seated hold's margin is the same all through it).
    let total = ed.doc().stage.inputs.state.params.total_duration();
    let away = if time < 0.5 * total { 0.75 } else { 0.25 } * total;
    let cmd: C =
        serde_json::from_str(&format!(r#"{{"cmd": "set_time", "seconds": {away}}}"#)).unwrap();
    ed.apply(cmd).unwrap();
    assert!((ed.doc().stage.inputs.state.time() - away).abs() < 1e-9);
    let snapshot = ed.doc().snapshot();
    let cmd: C = serde_json::from_str(r#"{"cmd": "jump_to_weakest"}"#).unwrap();
    ed.apply(cmd).unwrap();
    assert!(
        (ed.doc().stage.inputs.state.time() - time).abs() < 1e-9,
        "jumped to {} s, not the weakest instant's {time} s",
        ed.doc().stage.inputs.state.time()
    );
    assert!(!ed.doc().dirty);
    assert_eq!(ed.history().undo_len(), 0);
    assert_eq!(
        ed.doc().snapshot().inputs.calibration,
        snapshot.inputs.calibration
    );
    // The threshold is a view setting, kept in range.
    let cmd: C = serde_json::from_str(r#"{"cmd": "set_margin_threshold", "metres": 5}"#).unwrap();
    ed.apply(cmd).unwrap();
    assert_eq!(
        ed.view().margin_threshold(),
        anglerpose::fishing::MARGIN_REACH
    );
    // An edit (the right pole onto the shoulder → target line) recomputes the lane.
    let stage = &ed.doc().stage;
    let eval = stage.evaluation().unwrap();
    let to_actor = stage.world_from_actor.to_affine().inverse();
    let arm = stage.actor.arm(Side::Right);
    let shoulder = to_actor.transform_point3(stage.pose.world_position(arm.upper));
    let target = to_actor.transform_point3(eval.arms.right.wrist_target_in_world);
    ed.apply(C::Edit(PoseEdit::SetPole {
        side: Side::Right,
        pole: (shoulder + (target - shoulder) * 2.0).to_array(),
    }))
    .unwrap();
    let after = ed.margins().unwrap().clone();
    assert_eq!(after.left, expected.left);
    assert_ne!(after.right, expected.right);
}

/// The unit normals of the stability slice's triangles in the current frame.
fn slice_normals(ed: &EditorState) -> Vec<glam::DVec3> {
    let camera = ed.render_camera();
    let colours: Vec<[f32; 4]> = [
        SampleClass::Stable,
        SampleClass::Sensitive,
        SampleClass::Flipped,
        SampleClass::OutOfReach,
    ]
    .iter()
    .map(|c| colors::linear(class_hex(*c), 0.35))
    .collect();
    ed.doc()
        .stage
        .frame(camera, ed.view().options())
        .overlays
        .triangles
        .iter()
        .filter(|t| colours.contains(&t.rgba))
        .map(|t| {
            let p = t.points.map(|p| glam::DVec3::from(p.map(f64::from)));
            (p[1] - p[0]).cross(p[2] - p[0]).normalize()
        })
        .collect()
}

/// The slice lies in the bend plane, faces the camera (and turns with it) or is fixed to
/// the rod (the plane of its blank and reel), as chosen; same cells either way.
#[test]
fn the_slice_faces_the_camera_or_is_fixed_to_the_rod_as_chosen() {
    use anglerpose::stage::SliceFacing;
    let mut ed = editor();
    toggle(&mut ed, true);
    let set = |ed: &mut EditorState, facing: &str| {
        let cmd: C = serde_json::from_str(&format!(
            r#"{{"cmd": "set_slice_facing", "facing": "{facing}"}}"#
        ))
        .unwrap();
        ed.apply(cmd).unwrap();
    };
    assert_eq!(
        ed.view().options().overlays.slice_facing,
        SliceFacing::BendPlane
    );
    let cells = 2 * 2 * SLICE_CELLS * SLICE_CELLS;
    assert_eq!(slice_normals(&ed).len(), cells);
    set(&mut ed, "camera");
    for orbit in [0.0, 140.0] {
        ed.apply(
            serde_json::from_str::<C>(&format!(r#"{{"cmd": "orbit", "dx": {orbit}, "dy": 30}}"#))
                .unwrap(),
        )
        .unwrap();
        let back = ed.view().camera().back();
        let normals = slice_normals(&ed);
        assert_eq!(normals.len(), cells);
        for n in normals {
            assert!(
                n.dot(back).abs() > 1.0 - 1e-5,
                "{n} against the view {back}"
            );
        }
    }
    set(&mut ed, "rod");
    let stage = &ed.doc().stage;
    let frames = &stage.evaluation().unwrap().frames;
    let hold = stage.world_from_actor.rotation * frames.actor_from_hold.rotation;
    let (blank, reel) = (hold * glam::DVec3::Y, hold * glam::DVec3::NEG_Z);
    let normals = slice_normals(&ed);
    assert_eq!(normals.len(), cells);
    for n in normals {
        assert!(n.dot(blank).abs() < 1e-5 && n.dot(reel).abs() < 1e-5, "{n}");
    }
    assert!(!ed.doc().dirty);
    assert_eq!(ed.history().undo_len(), 0);
}

/// Hovering a cell reads it out: at the right wrist target, the right arm's centre cell
/// (0 mm from the target, its class and sensitivity as the core solves them); nothing off
/// the slices or with the slice hidden.
#[test]
fn hovering_the_slice_reads_out_the_cell_under_the_mouse() {
    use anglerpose::editor::camera::world_to_pixel;
    let mut ed = editor();
    let stage = &ed.doc().stage;
    let target = stage.evaluation().unwrap().arms.right.wrist_target_in_world;
    let pixel = world_to_pixel(&ed.render_camera(), target).unwrap();
    assert_eq!(ed.stability_hover(pixel), None, "hidden slice, no read-out");
    toggle(&mut ed, true);
    let text = ed
        .stability_hover(pixel)
        .expect("a read-out over the target");
    assert!(text.starts_with("right arm: "), "{text}");
    assert!(text.contains(", 0 mm from the target"), "{text}");
    assert!(text.contains("margin"), "{text}");
    // The probe is the core's slice sample under the ray.
    let camera = ed.render_camera();
    let stage = &ed.doc().stage;
    let ray = anglerpose::editor::camera::pixel_ray(&camera, pixel.map(|v| v as f32)).unwrap();
    let facing = ed.view().options().overlays.slice_facing;
    let probe = stage
        .probe_slices((facing, &camera), ray.origin, ray.dir)
        .unwrap();
    let grid = stage.slice_grid(Side::Right, facing, &camera).unwrap();
    let centre = [SLICE_CELLS / 2, SLICE_CELLS / 2, 0];
    let core = stage
        .stability_job(Side::Right, grid)
        .unwrap()
        .solve()
        .unwrap();
    assert_eq!(probe.sample, *core.at(centre));
    assert!(
        text.contains(&format!("{:.1}×", core.at(centre).sensitivity)),
        "{text}"
    );
    // A pixel a cell away along the slice's first axis reads the neighbouring cell.
    let next = target + grid.axes[0] * grid.spacing();
    let p = world_to_pixel(&camera, next).unwrap();
    let ray = anglerpose::editor::camera::pixel_ray(&camera, p.map(|v| v as f32)).unwrap();
    let probe = stage
        .probe_slices((facing, &camera), ray.origin, ray.dir)
        .unwrap();
    assert_eq!(probe.sample.cell, [SLICE_CELLS / 2 + 1, SLICE_CELLS / 2, 0]);
    // Off the slices: nothing.
    assert_eq!(ed.stability_hover([1.0, 1.0]), None);
}
