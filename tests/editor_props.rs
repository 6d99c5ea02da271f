//! The editor with an artist's rod, net and seat (issue 20): using them, dragging the grip
//! markers along the blank (undoable), saving a preset that names them and opening it again,
//! and what a dropped file is taken for.

mod support;

use anglerpose::editor::command::PropKind;
use anglerpose::editor::files;
use anglerpose::editor::{DocumentCommand, DragCommand, FileCommand};
use anglerpose::editor::{EditorState, Handle};
use anglerpose::stage::rod_markers::{RodMarker, blank_in_world, marker_in_world};
use support::editor::bundled_editor;
use support::fs::asset;

fn with_surf_rod() -> EditorState {
    let mut ed = bundled_editor();
    ed.apply(FileCommand::UseProp {
        prop: PropKind::Rod,
        path: Some(asset("rod_surf.glb")),
    })
    .unwrap();
    ed
}

#[test]
fn using_an_artists_rod_replaces_the_bundled_one() {
    let mut ed = bundled_editor();
    let generation = ed.doc().generation;
    let before = ed.doc().stage.evaluation().unwrap().frames.actor_from_rod;
    assert!(marker_in_world(&ed.doc().stage, RodMarker::ReelSeat).is_none());
    ed.apply(FileCommand::UseProp {
        prop: PropKind::Rod,
        path: Some(asset("rod_surf.glb")),
    })
    .unwrap();
    assert!(ed.doc().dirty);
    assert_eq!(ed.doc().generation, generation + 1, "meshes re-upload");
    let gear = ed.doc().stage.actor.gear.rod;
    assert!((gear.length - 3.9).abs() < 0.01 && (gear.reel_seat - 0.68).abs() < 0.02);
    assert_eq!(ed.doc().stage.inputs.state.params.rod_length, gear.length);
    // The reel seat stays at the hand, so the longer rod's butt slides back along the blank.
    let after = ed.doc().stage.evaluation().unwrap().frames.actor_from_rod;
    assert!((after.translation - before.translation).length() > 0.2);
    assert!(marker_in_world(&ed.doc().stage, RodMarker::ReelSeat).is_some());
    assert!(ed.message().unwrap().contains("rod_surf.glb"));
    // And back to the bundled rod.
    ed.apply(FileCommand::UseProp {
        prop: PropKind::Rod,
        path: None,
    })
    .unwrap();
    let back = ed.doc().stage.evaluation().unwrap().frames.actor_from_rod;
    assert!((back.translation - before.translation).length() < 1e-12);
}

#[test]
fn a_file_that_is_no_rod_is_refused_and_nothing_changes() {
    let mut ed = bundled_editor();
    let snapshot = ed.doc().snapshot();
    let e = ed
        .apply(FileCommand::UseProp {
            prop: PropKind::Rod,
            path: Some(asset("stool.glb")),
        })
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("stool.glb") && e.contains("not long and thin"),
        "{e}"
    );
    assert_eq!(ed.doc().snapshot(), snapshot);
    assert!(!ed.doc().dirty);
    assert!(ed.doc().stage.props.sources.rod.is_none());
}

#[test]
fn dragging_the_reel_seat_marker_slides_it_along_the_blank_and_undoes() {
    let mut ed = with_surf_rod();
    let seat0 = ed.doc().stage.actor.gear.rod.reel_seat;
    let handle = Handle::RodMarker(RodMarker::ReelSeat);
    let camera = ed.render_camera();
    let [x, y] = anglerpose::editor::pick::handle_pixel(&ed.doc().stage, &camera, handle).unwrap();
    // 10 cm toward the tip, on screen.
    let (_, dir, k) = blank_in_world(&ed.doc().stage).unwrap();
    let p = marker_in_world(&ed.doc().stage, RodMarker::ReelSeat).unwrap();
    let to = anglerpose::editor::camera::world_to_pixel(&camera, p + dir * (0.1 * k)).unwrap();
    ed.apply(DragCommand::PointerDown { x, y }).unwrap();
    assert_eq!(
        ed.view().selection(),
        Some(handle),
        "the marker is picked at its pixel"
    );
    for f in [0.25, 0.5, 0.75, 1.0] {
        ed.apply(DragCommand::DragTo {
            x: x + (to[0] - x) * f,
            y: y + (to[1] - y) * f,
        })
        .unwrap();
    }
    ed.apply(DragCommand::EndDrag).unwrap();
    let seat = ed.doc().stage.actor.gear.rod.reel_seat;
    assert!((seat - (seat0 + 0.1)).abs() < 0.005, "{seat0} → {seat}");
    assert_eq!(
        ed.doc()
            .stage
            .props
            .sources
            .rod
            .as_ref()
            .unwrap()
            .grips
            .reel_seat,
        Some(seat)
    );
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(ed.doc().stage.actor.gear.rod.reel_seat, seat0);
    ed.apply(DocumentCommand::Redo).unwrap();
    assert_eq!(ed.doc().stage.actor.gear.rod.reel_seat, seat);
    // A marker cannot pass the other one.
    ed.apply(DocumentCommand::SetRodGrips {
        rear_grip: Some(seat + 0.1),
        reel_seat: Some(seat),
        reel_above: None,
        butt_offset: None,
    })
    .unwrap_err();
    assert_eq!(ed.doc().stage.actor.gear.rod.reel_seat, seat);
}

#[test]
fn a_saved_preset_names_the_props_and_opens_with_them() {
    let dir = std::env::temp_dir().join(format!("anglerpose-editor-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ed = with_surf_rod();
    ed.apply(FileCommand::UseProp {
        prop: PropKind::Net,
        path: Some(asset("net.glb")),
    })
    .unwrap();
    ed.apply(DocumentCommand::SetRodGrips {
        rear_grip: Some(0.2),
        reel_seat: None,
        reel_above: None,
        butt_offset: None,
    })
    .unwrap();
    let path = dir.join("surf.json");
    ed.apply(FileCommand::Save {
        path: Some(path.clone()),
    })
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        v["rod"]["path"]
            .as_str()
            .unwrap()
            .ends_with("assets/rod_surf.glb")
    );
    assert_eq!(v["rod"]["rear_grip"], 0.2);
    assert!(
        v["rod"].get("reel_seat").is_none(),
        "detected values are not stored"
    );
    assert!(
        v["net"]["path"]
            .as_str()
            .unwrap()
            .ends_with("assets/net.glb")
    );
    assert!(v.get("seat").is_none());
    let gear = ed.doc().stage.actor.gear;
    let rod = ed.doc().stage.evaluation().unwrap().frames.actor_from_rod;
    let mut again = bundled_editor();
    again.apply(FileCommand::Open { path }).unwrap();
    assert_eq!(again.doc().stage.actor.gear, gear);
    let rod_again = again
        .doc()
        .stage
        .evaluation()
        .unwrap()
        .frames
        .actor_from_rod;
    assert!((rod_again.translation - rod.translation).length() < 1e-12);
}

#[test]
fn a_dropped_model_is_described_by_what_it_looks_like() {
    let rod = files::describe_model(&asset("rod_baitcaster.glb"));
    assert!(
        rod.contains("looks like a rod") && rod.contains("on top"),
        "{rod}"
    );
    let net = files::describe_model(&asset("net.glb"));
    assert!(net.contains("landing net"), "{net}");
    let man = files::describe_model(&asset("angler.glb"));
    assert!(man.contains("character"), "{man}");
    let seat = files::describe_model(&asset("stool.glb"));
    assert!(seat.contains("seat"), "{seat}");
    let missing = files::describe_model(&asset("nothing.glb"));
    assert!(
        missing.contains("cannot be read") && missing.contains("nothing.glb"),
        "{missing}"
    );
    // The marker overlays are drawn only for an artist's rod.
    let ed = with_surf_rod();
    let frame = ed
        .doc()
        .stage
        .frame(ed.render_camera(), ed.view().options());
    let blue = anglerpose::stage::colors::linear(anglerpose::stage::colors::ROD_MARKER, 1.0);
    assert_eq!(
        frame
            .overlays
            .spheres
            .iter()
            .filter(|s| s.rgba == blue)
            .count(),
        3,
        "butt, rear grip and reel seat"
    );
    let bundled = bundled_editor();
    let frame = bundled
        .doc()
        .stage
        .frame(bundled.render_camera(), bundled.view().options());
    assert!(frame.overlays.spheres.iter().all(|s| s.rgba != blue));
}

#[test]
fn the_butt_marker_drags_the_butt_up_the_blank_and_the_frame_is_re_detected() {
    let mut ed = with_surf_rod();
    let rod = ed.doc().stage.actor.gear.rod;
    // The rod's mesh in actor space: a butt offset moves the frame's origin along the blank
    // and the rod slides to keep its seat at the hand, so the mesh itself stays put.
    let mesh_in_actor = |ed: &EditorState| -> Vec<glam::DVec3> {
        let rod = ed
            .doc()
            .stage
            .evaluation()
            .unwrap()
            .frames
            .actor_from_rod
            .to_affine();
        anglerpose::stage::rod_file::model_points(&ed.doc().stage.props.rod)
            .into_iter()
            .map(|p| rod.transform_point3(p))
            .collect()
    };
    let mesh_before = mesh_in_actor(&ed);
    let handle = Handle::RodMarker(RodMarker::Butt);
    let camera = ed.render_camera();
    let butt = marker_in_world(&ed.doc().stage, RodMarker::Butt).unwrap();
    let (_, dir, k) = blank_in_world(&ed.doc().stage).unwrap();
    let [x, y] = anglerpose::editor::pick::handle_pixel(&ed.doc().stage, &camera, handle).unwrap();
    let to = anglerpose::editor::camera::world_to_pixel(&camera, butt + dir * (0.06 * k)).unwrap();
    ed.apply(DragCommand::BeginDrag { handle, x, y }).unwrap();
    ed.apply(DragCommand::DragTo { x: to[0], y: to[1] })
        .unwrap();
    ed.apply(DragCommand::EndDrag).unwrap();
    let offset = ed.doc().stage.props.rod_grips().butt_offset.unwrap();
    assert!((offset - 0.06).abs() < 0.004, "butt offset {offset}");
    let now = ed.doc().stage.actor.gear.rod;
    assert!((now.length - (rod.length - offset)).abs() < 1e-9);
    // The grips stay where they were on the blank; only the butt moved under them.
    assert!((now.reel_seat - (rod.reel_seat - offset)).abs() < 1e-9);
    let moved = marker_in_world(&ed.doc().stage, RodMarker::Butt).unwrap();
    assert!((moved - (butt + dir * (offset * k))).length() < 1e-6);
    let mesh_after = mesh_in_actor(&ed);
    let worst = mesh_before
        .iter()
        .zip(&mesh_after)
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0, f64::max);
    assert!(worst < 1e-6, "the rod's mesh moved {worst} m");
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(ed.doc().stage.actor.gear.rod, rod);
    // Swapping the ends re-detects the rod from the other end (not an undo step).
    let generation = ed.doc().generation;
    ed.apply(FileCommand::SetRodFrame {
        flip_ends: true,
        length: None,
    })
    .unwrap();
    assert_eq!(ed.doc().generation, generation + 1);
    assert!(ed.doc().stage.props.sources.rod.as_ref().unwrap().flip_ends);
    let m = ed.doc().stage.props.rod_model.as_ref().unwrap();
    assert!(
        m.notes.iter().any(|n| n.contains("swapped")),
        "{:?}",
        m.notes
    );
    // The bundled rod has nothing to correct.
    bundled_editor()
        .apply(FileCommand::SetRodFrame {
            flip_ends: true,
            length: None,
        })
        .unwrap_err();
    let e = ed
        .apply(DocumentCommand::SetRodGrips {
            rear_grip: None,
            reel_seat: None,
            reel_above: None,
            butt_offset: Some(3.0),
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("butt offset"), "{e}");
}
