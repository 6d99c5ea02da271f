//! Your own rod and net (issue 20): the generated surf rod and baitcaster are found in their
//! odd file frames; the bundled angler and mannequiny calibrated on each reach ≥ 95% of 600
//! samples per arm with no flips and wrists on the rod in the seated hold; the rod the solver
//! reports is the canonical frame; presets name the files and honour them; bad files are
//! refused by name; a thicker handle curls the fingers less; nets and seats are placed.

mod support;

use anglerpose::fishing::net_model::detect_net;
use anglerpose::fishing::rod_model::detect_rod;
use anglerpose::fishing::{
    Gear, GripKind, Phase, SessionFrames, SessionState, calibrate, default_threads,
};
use anglerpose::gltf_io;
use anglerpose::preset::{Preset, io};
use anglerpose::rig::Side;
use anglerpose::stage::rod_file::model_points;
use anglerpose::stage::{NetSource, PropSources, Props, RodSource, Stage, bundled_assets_dir};
use glam::{DAffine3, DQuat, DVec3};
use std::path::{Path, PathBuf};
use std::process::Command;
use support::checks::angle_deg;
use support::fs::asset;
use support::gltf_edit::{Doc, quat};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anglerpose-own-rod-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn rod_source(path: &Path) -> PropSources {
    PropSources {
        rod: Some(RodSource {
            path: path.to_path_buf(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn the_generated_rods_are_found_in_their_file_frames() {
    // (file, length, seat, reel on top, the file's blank axis, the file's reel side)
    let cases = [
        ("rod_surf.glb", 3.9, 0.68, false, DVec3::Z, DVec3::Y),
        ("rod_baitcaster.glb", 1.9, 0.25, true, -DVec3::X, DVec3::Y),
    ];
    for (file, length, seat, above, axis, reel) in cases {
        let c = gltf_io::load(asset(file)).unwrap();
        let m = detect_rod(&model_points(&c), None).unwrap();
        assert!((m.length - length).abs() < 0.01, "{file}: {}", m.length);
        assert!(
            (m.reel_seat - seat).abs() < 0.02,
            "{file}: seat {}",
            m.reel_seat
        );
        assert!(m.rear_grip < m.reel_seat && m.rear_grip > 0.02, "{file}");
        assert_eq!(m.reel_above, above, "{file}");
        let f = m.file_from_rod;
        assert!(angle_deg(f.matrix3.y_axis, axis) < 0.5, "{file}: axis");
        assert!(
            angle_deg(-f.matrix3.z_axis, reel) < 2.0,
            "{file}: reel side"
        );
        assert!(
            f.translation.length() * m.metres_per_unit < 0.01,
            "{file}: butt"
        );
        // The handle is thicker than the blank beyond it, and the tip thinnest.
        let g = m.gear(m.rear_grip, m.reel_seat, m.reel_above);
        assert!(
            g.rear_grip_radius > 0.01 && g.rear_grip_radius < 0.02,
            "{file}: {g:?}"
        );
        assert!(m.radius_at(0.5 * length) < g.rear_grip_radius, "{file}");
        assert!(m.tip_radius < 0.003, "{file}: tip {}", m.tip_radius);
        // The same rod turned another way and in other units is found the same.
        let mut doc = Doc::read(&asset(file));
        let rotation = quat([0.48, 0.6, 0.64], 61.0);
        doc.wrap("export_root", rotation, 0.01);
        let path = temp(&format!("turned_{file}"));
        std::fs::write(&path, doc.bytes()).unwrap();
        // In unknown units now: the artist states the real length.
        let turned =
            detect_rod(&model_points(&gltf_io::load(&path).unwrap()), Some(length)).unwrap();
        let wrap = DAffine3::from_scale_rotation_translation(
            DVec3::splat(0.01),
            DQuat::from_array(rotation),
            DVec3::ZERO,
        );
        let back = wrap.inverse() * turned.file_from_rod;
        for q in [DVec3::ZERO, DVec3::Y * m.reel_seat, DVec3::Y * m.length] {
            let d = (back.transform_point3(q) - f.transform_point3(q)).length();
            assert!(
                d * m.metres_per_unit < 0.01,
                "{file}: {q} is {d} units apart"
            );
        }
        assert!(
            angle_deg(back.matrix3.z_axis, f.matrix3.z_axis) < 2.0,
            "{file}"
        );
        assert!((turned.length - m.length).abs() < 0.01, "{file}");
        // The baitcaster's reel body (a 22 mm radius cylinder across the blank, centred
        // 0.245 m from the butt and 33 mm off it) and trigger (under the seat, opposite the
        // reel, 0.226-0.238 m from the butt), in any frame and units; the surf rod has neither
        // a trigger nor a round reel body.
        for found in [&m, &turned] {
            if above {
                let c = found.reel_circle.expect("the baitcaster's reel body");
                assert!((c.along - 0.245).abs() < 0.002, "{file}: {c:?}");
                assert!((c.height - 0.033).abs() < 0.002, "{file}: {c:?}");
                assert!((c.radius - 0.022).abs() < 0.002, "{file}: {c:?}");
                let t = found.trigger.expect("the baitcaster's trigger");
                assert!((0.224..=0.24).contains(&t), "{file}: trigger {t}");
            } else {
                assert_eq!(found.trigger, None, "{file}");
                assert_eq!(found.reel_circle, None, "{file}");
            }
        }
    }
}

/// Wrist distance to the rod's axis in the current pose, over the arm's length.
/// How far each hand's grip point (its palm frame's, where the contact solve placed the palm)
/// is from the rod's axis, in arm lengths: the hand holds the rod when it is on it. (A wrist
/// bound stood here until the spinning grip put the handle in the fingers, session 32: the
/// wrist is then a palm's length from the blank, 0.16-0.18 arm lengths.)
fn grip_off_axis(stage: &Stage) -> [f64; 2] {
    let eval = stage.evaluation().unwrap();
    let rod = eval.frames.actor_from_hold;
    let (o, dir) = (rod.translation, rod.rotation * DVec3::Y);
    [Side::Left, Side::Right].map(|side| {
        let arm = stage.actor.arm(side);
        let shift = eval.arms.get(side).contact.palm_shift_in_hand;
        let grip = stage
            .pose
            .world_from_bone(arm.hand)
            .transform_point3(arm.hand_frame.hand_from_grip.translation + shift)
            - o;
        let len = (stage.pose.world_position(arm.fore) - stage.pose.world_position(arm.upper))
            .length()
            + (stage.pose.world_position(arm.hand) - stage.pose.world_position(arm.fore)).length();
        (grip - dir * grip.dot(dir)).length() / len
    })
}

fn calibrated_on(character: &Path, rod: &str) {
    calibrated_on_file(character, &asset(rod));
}

fn calibrated_on_file(character: &Path, rod_file: &Path) {
    let rod = rod_file.display();
    let props = Props::load_with(&bundled_assets_dir(), &rod_source(rod_file)).unwrap();
    let mut stage = Stage::new(gltf_io::load(character).unwrap(), props).unwrap();
    let (calibration, report) = calibrate(
        &stage.actor,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        600,
        default_threads(),
    )
    .unwrap();
    let who = format!("{} on {rod}", character.display());
    assert_eq!(report.samples, 600);
    for (side, f) in [
        ("left", report.reached_fraction.left),
        ("right", report.reached_fraction.right),
    ] {
        assert!(f >= 0.95, "{who}: {side} arm reaches {:.1}%", 100.0 * f);
    }
    assert_eq!(report.flips, 0, "{who}: flips");
    stage.inputs.calibration = calibration;
    stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
    stage.reset_flip_tracking();
    stage.update().unwrap();
    for (side, d) in ["left", "right"].into_iter().zip(grip_off_axis(&stage)) {
        assert!(
            d <= 2e-3,
            "{who}: {side} grip point {d:.4} arm lengths off the rod"
        );
    }
    // The hands hold this rod's own grips: the front grip is its reel seat.
    let eval = stage.evaluation().unwrap();
    let seat = stage.actor.gear.rod.reel_seat;
    let front = eval
        .frames
        .grips
        .get(eval.frames.front_side)
        .actor_from_grip;
    let along = eval
        .frames
        .actor_from_hold
        .to_affine()
        .inverse()
        .transform_point3(front.translation);
    let offset = stage
        .inputs
        .calibration
        .grip(GripKind::RodFront)
        .offset_in_object;
    assert!(
        (along - offset - DVec3::Y * seat).length() < 1e-9,
        "{who}: front grip"
    );
}

#[test]
fn the_angler_calibrates_on_the_surf_rod_and_the_baitcaster() {
    for rod in ["rod_surf.glb", "rod_baitcaster.glb"] {
        calibrated_on(&asset("angler.glb"), rod);
    }
}

#[test]
fn mannequiny_calibrates_on_the_surf_rod_and_the_baitcaster() {
    let Some(models) = support::gltf_edit::shared_models("mannequiny on other rods") else {
        return;
    };
    for rod in ["rod_surf.glb", "rod_baitcaster.glb"] {
        calibrated_on(&models.join("mannequiny-0.3.0.glb"), rod);
    }
}

#[test]
fn the_stage_draws_the_rod_in_its_canonical_frame() {
    for rod in ["rod_surf.glb", "rod_baitcaster.glb"] {
        let props = Props::load_with(&bundled_assets_dir(), &rod_source(&asset(rod))).unwrap();
        // The loaded model is in rod space: detecting it again finds the identity.
        let m = detect_rod(&model_points(&props.rod), None).unwrap();
        assert_eq!(m.metres_per_unit, 1.0, "{rod}");
        assert!(m.file_from_rod.translation.length() < 0.005, "{rod}");
        assert!(
            angle_deg(m.file_from_rod.matrix3.y_axis, DVec3::Y) < 0.5,
            "{rod}"
        );
        assert!(
            angle_deg(m.file_from_rod.matrix3.z_axis, DVec3::Z) < 2.0,
            "{rod}"
        );
        // A baitcaster's model is its hold frame turned half a turn: its reel is on top.
        let stage = Stage::new(gltf_io::load(asset("angler.glb")).unwrap(), props).unwrap();
        let f = stage.evaluation().unwrap().frames;
        let reel_in_actor = f.actor_from_rod.rotation * -DVec3::Z;
        let up = reel_in_actor.dot(DVec3::Y);
        if rod == "rod_baitcaster.glb" {
            assert!(up > 0.3, "{rod}: reel {reel_in_actor}");
        } else {
            assert!(up < -0.3, "{rod}: reel {reel_in_actor}");
            assert_eq!(f.actor_from_rod, f.actor_from_hold);
        }
    }
}

#[test]
fn a_thicker_handle_curls_the_fingers_less() {
    let state = SessionState::default();
    let calib = Stage::bundled().unwrap().inputs.calibration;
    let fit = anglerpose::fishing::BodyFit::IDENTITY;
    let bundled = SessionFrames::evaluate_geared(&state, &calib, &fit, &Gear::BUNDLED);
    assert_eq!(bundled, SessionFrames::evaluate(&state, &calib));
    let mut thick = Gear::BUNDLED;
    thick.rod.rear_grip_radius *= 2.0;
    thick.rod.reel_seat_radius *= 1.5;
    let f = SessionFrames::evaluate_geared(&state, &calib, &fit, &thick);
    for g in [f.grips.left, f.grips.right] {
        let b = bundled.grips.get(if g == f.grips.left {
            anglerpose::rig::Side::Left
        } else {
            anglerpose::rig::Side::Right
        });
        assert!(g.curl_scale < b.curl_scale, "{g:?} vs {b:?}");
    }
    // And the posed fingers close less.
    let mut stage = Stage::bundled().unwrap();
    let finger = stage.actor.arms.left.fingers[1].1.joints[1];
    let closed = stage
        .pose
        .local(finger)
        .rotation
        .angle_between(stage.actor.base.local(finger).rotation);
    stage.actor.gear = thick;
    stage.update().unwrap();
    let looser = stage
        .pose
        .local(finger)
        .rotation
        .angle_between(stage.actor.base.local(finger).rotation);
    assert!(looser < closed - 0.05, "{looser} vs {closed}");
}

#[test]
fn a_preset_names_its_rod_net_and_seat_and_is_honoured() {
    // An artist's copies in their own folder, one of them rescaled to centimetres.
    let dir = temp("kit");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(asset("rod_baitcaster.glb"), dir.join("bait.glb")).unwrap();
    let mut net = Doc::read(&asset("net.glb"));
    net.wrap("export_root", quat([1.0, 0.0, 0.0], -90.0), 100.0);
    std::fs::write(dir.join("net_cm.glb"), net.bytes()).unwrap();
    let mut seat = Doc::read(&asset("stool.glb"));
    seat.wrap("export_root", quat([0.0, 1.0, 0.0], 0.0), 2.0);
    std::fs::write(dir.join("box.glb"), seat.bytes()).unwrap();
    let out = dir.join("presets").join("mine.json");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("calibrate")
        .arg(asset("angler.glb"))
        .arg("--rod")
        .arg(dir.join("bait.glb"))
        .arg("--net")
        .arg(dir.join("net_cm.glb"))
        .arg("--seat")
        .arg(dir.join("box.glb"))
        .args(["--reel-seat", "0.26", "--samples", "60", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let preset: Preset = serde_json::from_str(&text).unwrap();
    let rod = preset.rod.clone().unwrap();
    assert_eq!(rod.path, "../bait.glb");
    assert_eq!(rod.reel_seat, Some(0.26));
    assert!(rod.sha256.is_some());
    assert_eq!(preset.net.as_ref().unwrap().path, "../net_cm.glb");
    assert_eq!(preset.seat.as_ref().unwrap().path, "../box.glb");
    // Loading honours every reference.
    let (stage, warnings) = io::load_stage(&out, &io::load_preset(&out).unwrap()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(stage.actor.gear.rod.reel_seat, 0.26);
    assert!(stage.actor.gear.rod.reel_above);
    assert!((stage.props.gear.net.length - 1.707).abs() < 0.01);
    let points = model_points(&stage.props.stool);
    let top = points.iter().map(|p| p.y).fold(f64::MIN, f64::max);
    let bottom = points.iter().map(|p| p.y).fold(f64::MAX, f64::min);
    assert!(
        (top - 0.45).abs() < 1e-6 && bottom.abs() < 1e-6,
        "{bottom}..{top}"
    );
    // The net's model is in net space: handle end at the origin, hoop along +Y, bag −Z.
    let n = detect_net(&model_points(&stage.props.net), None).unwrap();
    assert!(n.file_from_net.translation.length() < 0.005);
    assert!(angle_deg(n.file_from_net.matrix3.y_axis, DVec3::Y) < 0.5);
    assert!(angle_deg(n.file_from_net.matrix3.z_axis, DVec3::Z) < 2.0);
    // solve reports the canonical rod frame the stage poses with.
    let solve = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["solve", "--preset"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        solve.status.success(),
        "{}",
        String::from_utf8_lossy(&solve.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&solve.stdout).unwrap();
    let t: Vec<f64> = serde_json::from_value(v["rod"]["translation"].clone()).unwrap();
    let expected = stage
        .evaluation()
        .unwrap()
        .frames
        .actor_from_rod
        .translation;
    assert!(
        (DVec3::from_slice(&t) - expected).length() < 1e-9,
        "{t:?} vs {expected}"
    );
    // A changed rod file is a warning naming it; a missing one an error at rod.path.
    std::fs::copy(asset("rod_surf.glb"), dir.join("bait.glb")).unwrap();
    let (_, warnings) = io::load_stage(&out, &io::load_preset(&out).unwrap()).unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.path == "rod.sha256" && w.message.contains("bait.glb")),
        "{warnings:?}"
    );
    std::fs::remove_file(dir.join("bait.glb")).unwrap();
    let problems = io::validate_file(&out);
    assert!(
        problems
            .iter()
            .any(|p| p.path == "rod.path" && p.message.contains("bait.glb")),
        "{problems:?}"
    );
}

#[test]
fn bad_rod_and_net_files_are_refused_by_name() {
    let mut props = Props::load(&bundled_assets_dir()).unwrap();
    let cases = [
        (asset("angler.glb"), "skinned character"),
        (asset("stool.glb"), "not long and thin"),
    ];
    for (path, what) in cases {
        let e = props
            .set_rod(&RodSource {
                path: path.clone(),
                ..Default::default()
            })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&path.display().to_string()) && e.contains(what),
            "{e}"
        );
    }
    let e = props
        .set_net(&NetSource {
            path: asset("angler.glb"),
            length: None,
        })
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("angler.glb") && e.contains("skinned character"),
        "{e}"
    );
    // Grip corrections off the rod are refused with the rule that broke.
    let e = props
        .set_rod(&RodSource {
            path: asset("rod_surf.glb"),
            grips: anglerpose::stage::RodGrips {
                rear_grip: Some(0.9),
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rod.rear_grip") && e.contains("rod_surf.glb"),
        "{e}"
    );
    // Degenerate geometry: a rod 2.4e-30 units long is no rod in any units.
    let mut flat = Doc::read(&asset("rod.glb"));
    flat.wrap("export_root", quat([1.0, 0.0, 0.0], 0.0), 1e-30);
    let path = temp("collapsed.glb");
    std::fs::write(&path, flat.bytes()).unwrap();
    let e = props
        .set_rod(&RodSource {
            path: path.clone(),
            ..Default::default()
        })
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("collapsed.glb") && e.contains("units long"),
        "{e}"
    );
    // The CLI exits 1 with the file named; nothing is written.
    let out = temp("never.json");
    let run = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("calibrate")
        .arg(asset("angler.glb"))
        .arg("--rod")
        .arg(asset("angler.glb"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("skinned character"));
    assert!(!out.exists());
}

#[test]
fn the_posed_export_places_the_fitted_seat_where_the_stage_draws_it() {
    // A character other than the angler gets the stool scaled to its seat height; an artist's
    // seat the same way. The export puts it where the stage draws it.
    let Some(models) = support::gltf_edit::shared_models("fitted seat export") else {
        return;
    };
    let sources = PropSources {
        seat: Some(asset("stool.glb")),
        ..rod_source(&asset("rod_surf.glb"))
    };
    let props = Props::load_with(&bundled_assets_dir(), &sources).unwrap();
    let stage = Stage::new(
        gltf_io::load(models.join("mannequiny-0.3.0.glb")).unwrap(),
        props,
    )
    .unwrap();
    let fit = stage.actor.fit.actor_from_stool;
    assert!(
        (fit.scale.x - 1.0).abs() > 0.01,
        "the stool is fitted: {fit:?}"
    );
    let bytes = anglerpose::preset::posed_glb(&stage).unwrap();
    let exported = gltf_io::load_from_bytes(Path::new("posed.glb"), &bytes).unwrap();
    let top_of = |points: &[DVec3]| points.iter().map(|p| p.y).fold(f64::MIN, f64::max);
    let drawn: Vec<DVec3> = model_points(&stage.props.stool)
        .iter()
        .map(|p| fit.to_affine().transform_point3(*p))
        .collect();
    let rest = anglerpose::rig::Pose::rest(&exported.skeleton);
    let stool_mesh = exported
        .meshes
        .iter()
        .find(|m| m.name.contains("stool"))
        .expect("the stool mesh is exported");
    let world = rest.world_from_bone(stool_mesh.node);
    let written: Vec<DVec3> = stool_mesh.primitives[0]
        .positions
        .iter()
        .map(|p| world.transform_point3(glam::Vec3::from(*p).as_dvec3()))
        .collect();
    assert!(
        (top_of(&written) - top_of(&drawn)).abs() < 1e-4,
        "seat top {} exported, {} drawn",
        top_of(&written),
        top_of(&drawn)
    );
}

#[test]
fn the_artist_corrects_the_butt_by_swapping_the_ends_or_an_offset() {
    use anglerpose::fishing::rod_model::{RodHints, detect_rod_with};
    let points = model_points(&gltf_io::load(asset("rod_surf.glb")).unwrap());
    let m = detect_rod(&points, None).unwrap();
    let shifted = detect_rod_with(
        &points,
        &RodHints {
            butt_offset: 0.05,
            ..RodHints::default()
        },
    )
    .unwrap();
    assert!((shifted.length - (m.length - 0.05)).abs() < 1e-9);
    assert!((shifted.reel_seat - (m.reel_seat - 0.05)).abs() < 0.005);
    let moved = shifted.file_from_rod.translation - m.file_from_rod.translation;
    assert!((moved - m.file_from_rod.matrix3.y_axis * 0.05).length() < 1e-9);
    let flipped = detect_rod_with(
        &points,
        &RodHints {
            flip_ends: true,
            ..RodHints::default()
        },
    )
    .unwrap();
    let tip = m.file_from_rod.transform_point3(DVec3::Y * m.length);
    assert!((flipped.file_from_rod.translation - tip).length() < 1e-6);
    assert!(
        angle_deg(
            flipped.file_from_rod.matrix3.y_axis,
            -m.file_from_rod.matrix3.y_axis
        ) < 1e-6
    );
    assert!(flipped.notes.iter().any(|n| n.contains("swapped")));
    for bad in [-0.1, 2.0, f64::NAN] {
        let e = m.clone().shifted(bad).unwrap_err().to_string();
        assert!(e.contains("butt offset"), "{bad}: {e}");
    }
    // Through a preset: `butt_offset` and `flip_ends` are read and honoured.
    let dir = temp("ends");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("p.json");
    let run = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("calibrate")
        .arg(asset("angler.glb"))
        .arg("--rod")
        .arg(asset("rod_surf.glb"))
        .args(["--butt-offset", "0.05", "--samples", "30", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let preset = io::load_preset(&out).unwrap();
    assert_eq!(preset.rod.as_ref().unwrap().butt_offset, Some(0.05));
    let (stage, _) = io::load_stage(&out, &preset).unwrap();
    assert!((stage.actor.gear.rod.length - shifted.length).abs() < 1e-9);
}

#[test]
fn a_low_poly_game_rod_in_one_mesh_is_found_and_calibrated() {
    // A game-style rod: one mesh, six-sided tubes, a box for a reel, no guides, 3 units long
    // along +X with the reel toward +Z.
    use anglerpose::assetgen::mesher::TriMesh;
    use anglerpose::assetgen::shapes::{cuboid, tube};
    let mut m = TriMesh::default();
    let c = [0.5f32; 3];
    let x = |t: f64| DVec3::new(t, 0.0, 0.0);
    tube(&mut m, x(0.0), x(0.45), 0.016, 0.014, 6, c, true);
    tube(&mut m, x(0.45), x(3.0), 0.007, 0.002, 6, c, true);
    cuboid(
        &mut m,
        DVec3::new(0.52, 0.0, 0.07),
        glam::DMat3::IDENTITY,
        DVec3::new(0.03, 0.025, 0.04),
        c,
    );
    tube(
        &mut m,
        DVec3::new(0.52, 0.0, 0.012),
        DVec3::new(0.52, 0.0, 0.03),
        0.004,
        0.004,
        6,
        c,
        true,
    );
    let path = temp("game_rod.glb");
    std::fs::write(&path, anglerpose::assetgen::props::mesh_glb("game_rod", &m)).unwrap();
    let model = detect_rod(&model_points(&gltf_io::load(&path).unwrap()), None).unwrap();
    assert!((model.length - 3.0).abs() < 0.01, "{}", model.length);
    assert!(model.reel_found);
    assert!(
        (model.reel_seat - 0.52).abs() < 0.02,
        "seat {}",
        model.reel_seat
    );
    let f = model.file_from_rod;
    assert!(angle_deg(f.matrix3.y_axis, DVec3::X) < 0.5);
    assert!(angle_deg(-f.matrix3.z_axis, DVec3::Z) < 2.0, "reel side");
    assert!(f.translation.length() < 0.005, "butt {}", f.translation);
    calibrated_on_file(&asset("angler.glb"), &path);
}
