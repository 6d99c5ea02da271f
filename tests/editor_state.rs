//! UI-logic tests of the headless editor: every action goes through `EditorState::apply`,
//! exactly like the window's input handling.

mod support;

use anglerpose::editor::files;
use anglerpose::editor::{Axis, EditorState, Handle, Snapshot};
use anglerpose::editor::{DocumentCommand, DragCommand, FileCommand, PlaybackCommand, PoseEdit};
use anglerpose::rig::Side;
use glam::DVec3;
use support::editor::{arms, bundled_editor};

fn wrist(ed: &EditorState, side: Side) -> DVec3 {
    let stage = &ed.doc().stage;
    stage.pose.world_position(stage.actor.arm(side).hand)
}

fn elbow(ed: &EditorState, side: Side) -> DVec3 {
    let stage = &ed.doc().stage;
    stage.pose.world_position(stage.actor.arm(side).fore)
}

fn pixel(ed: &EditorState, handle: Handle) -> [f64; 2] {
    anglerpose::editor::pick::handle_pixel(&ed.doc().stage, &ed.render_camera(), handle)
        .expect("handle on screen")
}

fn drag(ed: &mut EditorState, handle: Handle, by: [f64; 2]) -> [f64; 2] {
    let [x, y] = pixel(ed, handle);
    ed.apply(DragCommand::PointerDown { x, y }).unwrap();
    assert_eq!(
        ed.view().selection(),
        Some(handle),
        "picking at the handle's pixel selects it"
    );
    assert!(ed.drag().is_some());
    // Several moves, like a real mouse drag.
    for k in 1..=4 {
        let f = k as f64 / 4.0;
        ed.apply(DragCommand::DragTo {
            x: x + by[0] * f,
            y: y + by[1] * f,
        })
        .unwrap();
    }
    [x + by[0], y + by[1]]
}

fn state_of(ed: &EditorState) -> (Snapshot, Vec<DVec3>) {
    let stage = &ed.doc().stage;
    let positions = (0..stage.actor.skeleton.len())
        .map(|b| stage.pose.world_position(b))
        .collect();
    (ed.doc().snapshot(), positions)
}

#[test]
fn toggling_limits_changes_the_solve() {
    let mut ed = bundled_editor();
    // A tight elbow limit that the seated pose needs to exceed.
    let bend = arms(&ed).right.ik.elbow_bend.to_degrees();
    assert!(bend > 40.0, "seated elbow bend {bend}°");
    ed.apply(PoseEdit::SetElbowLimit {
        side: None,
        min_deg: 0.0,
        max_deg: 30.0,
        enabled: true,
    })
    .unwrap();
    let limited = arms(&ed).right;
    assert!(limited.ik.elbow_limited);
    assert!(
        (limited.ik.elbow_bend.to_degrees() - 30.0).abs() < 1e-6,
        "{}",
        limited.ik.elbow_bend
    );
    let elbow_limited = elbow(&ed, Side::Right);
    ed.apply(PoseEdit::SetLimitsEnabled { on: false }).unwrap();
    let free = arms(&ed).right;
    assert!(!free.ik.elbow_limited);
    assert!((free.ik.elbow_bend.to_degrees() - bend).abs() < 1e-6);
    assert!((elbow(&ed, Side::Right) - elbow_limited).length() > 0.01);
    assert!(ed.doc().dirty);
    // Each toggle is one undo step.
    ed.apply(DocumentCommand::Undo).unwrap();
    assert!(arms(&ed).right.ik.elbow_limited);
}

#[test]
fn dragging_a_target_moves_the_wrist_and_undo_redo_are_exact() {
    let mut ed = bundled_editor();
    let before = state_of(&ed);
    let wrist_before = wrist(&ed, Side::Right);
    let end = drag(&mut ed, Handle::Target(Side::Right), [40.0, -30.0]);
    ed.apply(DragCommand::EndDrag).unwrap();
    let after = state_of(&ed);
    let moved = wrist(&ed, Side::Right) - wrist_before;
    assert!(moved.length() > 0.02, "wrist moved {moved}");
    // The target sphere ends under the mouse (view-plane drag).
    let now = pixel(&ed, Handle::Target(Side::Right));
    assert!(
        (now[0] - end[0]).abs() < 1.0 && (now[1] - end[1]).abs() < 1.0,
        "{now:?} vs {end:?}"
    );
    // Right (screen) and up (screen) from the camera: the wrist moved that way.
    let (right, up) = ed.view().camera().axes();
    assert!(moved.dot(right) > 0.0 && moved.dot(up) > 0.0, "{moved}");
    assert_ne!(before.0, after.0);
    assert_eq!(ed.history().undo_len(), 1, "one drag is one undo step");
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(state_of(&ed), before);
    ed.apply(DocumentCommand::Redo).unwrap();
    assert_eq!(state_of(&ed), after);
}

#[test]
fn escape_during_a_drag_restores_exactly() {
    let mut ed = bundled_editor();
    let before = state_of(&ed);
    drag(&mut ed, Handle::Target(Side::Left), [-35.0, 25.0]);
    assert_ne!(state_of(&ed), before, "the drag re-solves live");
    ed.apply(DragCommand::SetDragAxis {
        axis: Some(Axis::Y),
    })
    .unwrap();
    ed.apply(DragCommand::CancelDrag).unwrap();
    assert_eq!(state_of(&ed), before);
    assert!(ed.drag().is_none());
    assert_eq!(ed.history().undo_len(), 0);
    assert!(!ed.doc().dirty);
}

#[test]
fn axis_constrained_drag_moves_along_the_axis_only() {
    let mut ed = bundled_editor();
    let target_before = arms(&ed).right.wrist_target_in_world;
    let [x, y] = pixel(&ed, Handle::Target(Side::Right));
    ed.apply(DragCommand::PointerDown { x, y }).unwrap();
    ed.apply(DragCommand::SetDragAxis {
        axis: Some(Axis::Y),
    })
    .unwrap();
    ed.apply(DragCommand::SetSnap { on: true }).unwrap();
    ed.apply(DragCommand::DragTo {
        x: x + 25.0,
        y: y - 40.0,
    })
    .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let d = arms(&ed).right.wrist_target_in_world - target_before;
    assert!(d.x.abs() < 1e-9 && d.z.abs() < 1e-9, "{d}");
    assert!(d.y > 0.02, "{d}");
    let steps = d.y / 0.01;
    assert!((steps - steps.round()).abs() < 1e-6, "snapped to 1 cm: {d}");
}

#[test]
fn dragging_a_pole_changes_the_elbow() {
    let mut ed = bundled_editor();
    let elbow_before = elbow(&ed, Side::Right);
    let wrist_before = wrist(&ed, Side::Right);
    let pole_before = ed.doc().stage.inputs.calibration.poles.right.pole_in_actor;
    let left_before = ed.doc().stage.inputs.calibration.poles.left.clone();
    drag(&mut ed, Handle::Pole(Side::Right), [-150.0, -120.0]);
    ed.apply(DragCommand::EndDrag).unwrap();
    let moved = elbow(&ed, Side::Right) - elbow_before;
    assert!(moved.length() > 0.01, "elbow moved {moved}");
    // The wrist stays on its target: only the bend plane turns.
    assert!((wrist(&ed, Side::Right) - wrist_before).length() < 1e-6);
    // The constant pole changed (per-phase editing is off); the left arm is untouched.
    let pole = ed.doc().stage.inputs.calibration.poles.right.pole_in_actor;
    assert!(
        (pole - pole_before).length() > 0.05,
        "{pole} vs {pole_before}"
    );
    assert_eq!(ed.doc().stage.inputs.calibration.poles.left, left_before);
}

#[test]
fn rotating_the_rod_edits_rod_adjust() {
    let mut ed = bundled_editor();
    let tip_before = anglerpose::editor::handles::rod_segment(&ed.doc().stage)
        .unwrap()
        .1;
    let [x, y] = pixel(&ed, Handle::Rod);
    ed.apply(DragCommand::BeginDrag {
        handle: Handle::Rod,
        x,
        y,
    })
    .unwrap();
    ed.apply(DragCommand::DragTo {
        x: x + 30.0,
        y: y + 60.0,
    })
    .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let adj = ed.doc().stage.inputs.calibration.rod_adjust;
    assert!(
        adj.rotation.angle_between(glam::DQuat::IDENTITY) > 0.05,
        "{adj:?}"
    );
    let tip = anglerpose::editor::handles::rod_segment(&ed.doc().stage)
        .unwrap()
        .1;
    assert!((tip - tip_before).length() > 0.05);
}

#[test]
fn save_then_reopen_gives_the_identical_pose() {
    let dir = std::env::temp_dir().join(format!("anglerpose-editor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // SAFETY: tests in this file do not read the variable concurrently except through save.
    unsafe { std::env::set_var("ANGLERPOSE_STATE_DIR", dir.join("state")) };
    let mut ed = bundled_editor();
    drag(&mut ed, Handle::Target(Side::Right), [30.0, 20.0]);
    ed.apply(DragCommand::EndDrag).unwrap();
    ed.apply(PoseEdit::SetFingerCurl {
        side: Side::Left,
        value: 0.4,
    })
    .unwrap();
    ed.apply(PlaybackCommand::SetTime { seconds: 1.3 }).unwrap();
    let path = dir.join("edited.json");
    ed.apply(FileCommand::Save {
        path: Some(path.clone()),
    })
    .unwrap();
    assert!(!ed.doc().dirty);
    let saved = state_of(&ed);
    let mut other = bundled_editor();
    other
        .apply(FileCommand::Open { path: path.clone() })
        .unwrap();
    assert_eq!(state_of(&other), saved);
    assert_eq!(other.doc().path.as_deref(), Some(path.as_path()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_scrubbing_is_not_an_undo_step_and_playback_advances() {
    let mut ed = bundled_editor();
    ed.apply(PlaybackCommand::SetTime { seconds: 5.0 }).unwrap();
    assert!((ed.doc().stage.inputs.state.time() - 5.0).abs() < 1e-9);
    assert_eq!(ed.history().undo_len(), 0);
    assert!(!ed.doc().dirty);
    ed.apply(PlaybackCommand::Play { on: true }).unwrap();
    ed.apply(PlaybackCommand::SetSpeed { value: 2.0 }).unwrap();
    ed.apply(PlaybackCommand::Tick { dt: 0.25 }).unwrap();
    assert!((ed.doc().stage.inputs.state.time() - 5.5).abs() < 1e-9);
}

#[test]
fn bad_edits_are_refused_and_leave_the_document() {
    let mut ed = bundled_editor();
    let before = state_of(&ed);
    assert!(ed.apply(PoseEdit::SetRodLength { metres: 9.0 }).is_err());
    assert!(
        ed.apply(PoseEdit::SetFingerCurl {
            side: Side::Left,
            value: f64::NAN
        })
        .is_err()
    );
    assert!(
        ed.apply(PoseEdit::SetElbowLimit {
            side: None,
            min_deg: 90.0,
            max_deg: 10.0,
            enabled: true
        })
        .is_err()
    );
    assert_eq!(state_of(&ed), before);
    assert_eq!(ed.history().undo_len(), 0);
}

#[test]
fn slider_groups_undo_as_one_step() {
    let mut ed = bundled_editor();
    let before = state_of(&ed);
    ed.apply(DocumentCommand::BeginGroup).unwrap();
    for v in [0.7, 0.6, 0.5, 0.4] {
        ed.apply(PoseEdit::SetFingerCurl {
            side: Side::Right,
            value: v,
        })
        .unwrap();
    }
    ed.apply(DocumentCommand::EndGroup).unwrap();
    assert_eq!(ed.history().undo_len(), 1);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(state_of(&ed), before);
}

#[test]
fn pole_search_proposal_is_one_undoable_step() {
    let mut ed = bundled_editor();
    let before = state_of(&ed);
    ed.apply(DocumentCommand::ApplyPoleProposal).unwrap();
    let p = ed.edits().last_proposal().expect("proposal");
    for side in [Side::Left, Side::Right] {
        let pr = p.get(side);
        assert!(pr.flips_after <= pr.flips_before);
    }
    if ed.history().undo_len() == 1 {
        ed.apply(DocumentCommand::Undo).unwrap();
        assert_eq!(state_of(&ed), before);
    } else {
        assert_eq!(state_of(&ed), before, "no better pole: nothing changed");
    }
}

#[test]
fn fit_to_character_calibrates_a_shared_character_in_one_undo_step() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/models/mannequiny-0.3.0.glb");
    if !path.exists() {
        anglerpose::skip_notice!("SKIP: {} is absent", path.display());
        return;
    }
    let (doc, _) = files::open(&path).expect("mannequiny opens");
    let mut ed = EditorState::new(doc);
    let before = ed.doc().stage.inputs.calibration.clone();
    ed.apply(DocumentCommand::FitToCharacter).unwrap();
    let fitted = ed.doc().stage.inputs.calibration.clone();
    assert_ne!(fitted, before, "the fit changed the calibration");
    assert!(
        ed.message().unwrap_or("").contains("0 flip(s)"),
        "{:?}",
        ed.message()
    );
    let s = &ed.doc().stage;
    let a = anglerpose::fishing::analyse_timeline(
        &s.actor,
        &fitted,
        &s.inputs.settings,
        &s.inputs.state.params,
        600,
    )
    .unwrap();
    for side in [Side::Left, Side::Right] {
        let ok = a
            .samples
            .get(side)
            .iter()
            .filter(|x| x.reached && x.residual <= 1e-3)
            .count();
        assert!(ok >= 570, "{side:?}: {ok}/600");
    }
    assert!(ed.doc().dirty);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(ed.doc().stage.inputs.calibration, before);
    ed.apply(DocumentCommand::Redo).unwrap();
    assert_eq!(ed.doc().stage.inputs.calibration, fitted);
}

#[test]
fn applying_the_anglers_preset_to_another_character_is_one_undo_step() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/models/CesiumMan.glb");
    if !path.exists() {
        anglerpose::skip_notice!("SKIP: {} is absent", path.display());
        return;
    }
    let (doc, _) = files::open(&path).expect("CesiumMan opens");
    let mut ed = EditorState::new(doc);
    let before = (
        ed.doc().stage.inputs.calibration.clone(),
        ed.doc().stage.inputs.settings,
    );
    let preset = anglerpose::preset::io::bundled_preset_path();
    ed.apply(DocumentCommand::ApplyPresetToCharacter { path: preset })
        .unwrap();
    let msg = ed.message().map(str::to_owned).unwrap_or_default();
    assert!(
        msg.contains("0 flip(s)") && msg.contains("no finger bones"),
        "{msg}"
    );
    assert_ne!(ed.doc().stage.inputs.calibration, before.0);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(
        (
            ed.doc().stage.inputs.calibration.clone(),
            ed.doc().stage.inputs.settings
        ),
        before
    );
}

#[test]
fn reloading_the_character_keeps_calibration_time_camera_and_undo() {
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/models/CesiumMan.glb");
    if !src.exists() {
        anglerpose::skip_notice!("SKIP: {} is absent", src.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("anglerpose-reload-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cesium.glb");
    std::fs::copy(&src, &file).unwrap();
    let (doc, _) = files::open(&file).unwrap();
    let mut ed = EditorState::new(doc);
    ed.apply(PoseEdit::SetFingerCurl {
        side: Side::Left,
        value: 0.3,
    })
    .unwrap();
    ed.apply(PlaybackCommand::SetTime { seconds: 2.5 }).unwrap();
    assert!(ed.analysis().is_some(), "the flip debugger's analysis");
    let (calib, state, camera, undo) = (
        ed.doc().stage.inputs.calibration.clone(),
        ed.doc().stage.inputs.state,
        *ed.view().camera(),
        ed.history().undo_len(),
    );
    ed.apply(FileCommand::ReloadCharacter).unwrap();
    assert_eq!(ed.doc().generation, 1);
    assert_eq!(ed.doc().stage.inputs.calibration, calib);
    assert_eq!(ed.doc().stage.inputs.state, state);
    assert_eq!(*ed.view().camera(), camera);
    assert_eq!(ed.history().undo_len(), undo);
    assert!(ed.message().unwrap_or("").starts_with("reloaded"));
    assert!(
        ed.edits().cached_analysis().is_none(),
        "the flip debugger kept the analysis of the character before the reload"
    );
    // A broken file: an error naming it, and the character as it was.
    std::fs::write(&file, b"glTF broken").unwrap();
    let err = ed
        .apply(FileCommand::ReloadCharacter)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cesium.glb") && err.contains("last good character"),
        "{err}"
    );
    assert_eq!(ed.doc().generation, 1);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_ne!(
        ed.doc().stage.inputs.state,
        state,
        "undo still works after a reload"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_animation_writes_the_clips_without_touching_the_document() {
    let mut ed = bundled_editor();
    ed.apply(PlaybackCommand::SetTime { seconds: 4.2 }).unwrap();
    let (before, positions) = state_of(&ed);
    let undo = ed.history().undo_len();
    let dir = std::env::temp_dir().join(format!("anglerpose-ed-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.glb");
    ed.apply(FileCommand::ExportAnimation {
        path: path.clone(),
        fps: 24.0,
        first: anglerpose::fishing::Phase::CastWindUp,
        last: anglerpose::fishing::Phase::Release,
    })
    .unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let names: Vec<String> = gltf
        .animations()
        .map(|a| a.name().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        names,
        ["session", "cast_wind_up", "cast_forward", "release"]
    );
    let session = gltf.animations().next().unwrap();
    let input = session.samplers().next().unwrap().input();
    let end = input.max().unwrap()[0].as_f64().unwrap();
    let p = ed.doc().stage.inputs.state.params;
    let length = p.phase_duration(anglerpose::fishing::Phase::CastWindUp)
        + p.phase_duration(anglerpose::fishing::Phase::CastForward)
        + p.phase_duration(anglerpose::fishing::Phase::Release);
    assert!((end - length).abs() < 1e-5, "session clip ends at {end}");
    assert!(ed.message().unwrap().contains("exported 4 clips"));
    assert!(!ed.doc().dirty, "exporting does not change the document");
    assert_eq!(ed.history().undo_len(), undo);
    assert_eq!(state_of(&ed), (before, positions), "the pose is put back");

    let bad = ed.apply(FileCommand::ExportAnimation {
        path: dir.join("bad.glb"),
        fps: 0.0,
        first: anglerpose::fishing::Phase::SeatedHold,
        last: anglerpose::fishing::Phase::Landing,
    });
    let e = bad.unwrap_err().to_string();
    assert!(e.contains("bad.glb") && e.contains("fps 0"), "{e}");
    assert!(!dir.join("bad.glb").exists());
}

#[test]
fn twist_is_an_undoable_setting_saved_in_the_preset() {
    let mut ed = bundled_editor();
    let elbow0 = elbow(&ed, Side::Right);
    ed.apply(PoseEdit::SetTwist {
        side: Side::Right,
        degrees: 25.0,
    })
    .unwrap();
    let t = ed.doc().stage.inputs.settings.arm(Side::Right).twist;
    assert!((t - 25f64.to_radians()).abs() < 1e-12);
    assert!(
        (elbow(&ed, Side::Right) - elbow0).length() > 0.01,
        "the elbow moved"
    );
    assert!(ed.doc().dirty);
    let dir = std::env::temp_dir().join(format!("anglerpose-twist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("twisted.json");
    ed.apply(FileCommand::Save {
        path: Some(path.clone()),
    })
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"twist\": 0.436"), "saved: {text}");
    let (doc, _) = files::open(&path).unwrap();
    assert_eq!(doc.stage.inputs.settings.arm(Side::Right).twist, t);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(ed.doc().stage.inputs.settings.arm(Side::Right).twist, 0.0);
    assert!((elbow(&ed, Side::Right) - elbow0).length() < 1e-12);
    let e = ed
        .apply(PoseEdit::SetTwist {
            side: Side::Left,
            degrees: 500.0,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("arms.left.twist"), "{e}");
}
