//! Session clips (`export --animation`): the Khronos validator accepts them, three.js's
//! AnimationMixer and Blender's importer play them back to the solver's pose, and the key
//! reduction keeps its stated bound — for the bundled angler, a CCD-armed preset and a
//! character of another rig (mannequiny, calibrated here; skipped without ../shared).

mod support;

use anglerpose::assetgen::glb::AnimPath;
use anglerpose::fishing::rod_bend::BEND_JOINTS;
use anglerpose::fishing::{Phase, SessionState};
use anglerpose::preset::{self, ClipOptions, io as preset_io};
use anglerpose::rig::Transform;
use anglerpose::stage::{Stage, bundled_assets_dir};
use glam::{DQuat, DVec3};
use std::path::{Path, PathBuf};
use std::process::Command;
use support::clients::{blender_clip, blender_python, threejs_clip};
use support::fs::{bin, scratch};
use support::gltf_edit::{Doc, shared_models};
use support::khronos::{have_node, run_validator};

const FPS: u32 = 30;
/// The clients must show every joint within this of the solver (metres).
const CLIENT_TOLERANCE: f64 = 1e-3;

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run anglerpose");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{cmd:?} failed: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned() + &stderr
}

fn stage_of(preset: &Path) -> Stage {
    let p = preset_io::load_preset(preset).unwrap_or_else(|e| panic!("{e}"));
    let (mut stage, _) = preset_io::load_stage(preset, &p).unwrap_or_else(|e| panic!("{e}"));
    stage.update().unwrap();
    stage
}

/// A preset to export: the bundled ones, the angler on the baitcaster, and mannequiny
/// calibrated by the CLI.
fn presets() -> Vec<(String, PathBuf)> {
    let bundled = bundled_assets_dir().join("presets");
    let mut out = vec![
        ("angler".to_string(), bundled.join("seated_hold.json")),
        ("ccd".to_string(), bundled.join("ccd_arms.json")),
    ];
    // The angler calibrated on the baitcaster (modelled along −X in centimetres, its reel on
    // top) with a net: the artist's props are played in their canonical frames.
    let dir = scratch("clip-baitcaster");
    let preset = dir.join("baitcaster.json");
    run_ok(
        bin()
            .arg("calibrate")
            .arg(bundled_assets_dir().join("angler.glb"))
            .arg("--rod")
            .arg(bundled_assets_dir().join("rod_baitcaster.glb"))
            .arg("--out")
            .arg(&preset),
    );
    out.push(("baitcaster".to_string(), preset));
    if let Some(models) = shared_models("clip export of mannequiny") {
        let dir = scratch("clip-mannequiny");
        let preset = dir.join("mannequiny.json");
        run_ok(
            bin()
                .arg("calibrate")
                .arg(models.join("mannequiny-0.3.0.glb"))
                .arg("--out")
                .arg(&preset),
        );
        out.push(("mannequiny".to_string(), preset));
    }
    out
}

/// Exports the session clips of `preset` at [`FPS`]; returns the file and the CLI's report.
fn export_clip(name: &str, preset: &Path, extra: &[&str]) -> (PathBuf, String) {
    let glb = scratch(&format!("clip-{name}")).join(format!("{name}-clip.glb"));
    let report = run_ok(
        bin()
            .args([
                "export",
                "--animation",
                "--fps",
                &FPS.to_string(),
                "--preset",
            ])
            .arg(preset)
            .arg("--out")
            .arg(&glb)
            .args(extra),
    );
    (glb, report)
}

/// The solver's world positions at session time `time`: every character node, then the rod
/// and net holders, then the reel's knob (the bundled rod's `reel_knob`, which the crank
/// turns), then the rod's bend chain joints and the line's Bézier control points (issue 34).
fn solved(stage: &mut Stage, state: SessionState) -> Vec<DVec3> {
    stage.inputs.state = state;
    let frames = stage.update().unwrap().frames;
    let mut out: Vec<DVec3> = (0..stage.pose.len())
        .map(|b| stage.pose.world_position(b))
        .collect();
    let world = stage.world_from_actor.to_affine();
    for f in [frames.actor_from_rod, frames.actor_from_net] {
        out.push((world * f.to_affine()).translation);
    }
    if let Some(knob) = knob_bone(stage) {
        let rod_pose = stage.props.rod_pose(&frames);
        let world_from_rod = world * frames.actor_from_rod.to_affine();
        out.push(world_from_rod.transform_point3(rod_pose.world_position(knob)));
    }
    let tackle = stage.tackle().expect("tackle");
    let world_from_rod = world * frames.actor_from_rod.to_affine();
    let bend = &tackle.bend;
    for k in 0..BEND_JOINTS {
        let rest = DVec3::Y * bend.chain.rest_along(k);
        out.push(world_from_rod.transform_point3(bend.bent_from_rest[k].transform_point3(rest)));
    }
    out.extend(
        tackle
            .line_bezier()
            .iter()
            .map(|p| world.transform_point3(*p)),
    );
    out
}

/// The names of [`tackle_nodes`], in [`solved`]'s order.
fn tackle_names() -> Vec<String> {
    (0..BEND_JOINTS)
        .map(|k| format!("rod_bend_{k:02}"))
        .chain(["line_tip", "line_control", "line_lure"].map(String::from))
        .collect()
}

/// The bundled rod's knob empty (an artist's rod has none).
fn knob_bone(stage: &Stage) -> Option<usize> {
    stage
        .props
        .rod
        .skeleton
        .find(anglerpose::assetgen::props::REEL_KNOB_NODE)
}

/// Export node index of each entry of [`solved`], found by name in the exported file (the
/// character's nodes come first, in its own order; the holders are the first `rod` and `net`
/// after them).
fn export_nodes(stage: &Stage, glb: &Path) -> Vec<usize> {
    let names = Doc::read(glb).node_names();
    let n = stage.character.skeleton.len();
    let find = |name: &str| {
        (n..names.len())
            .find(|&i| names[i] == name)
            .unwrap_or_else(|| panic!("no node {name} in the export"))
    };
    let mut nodes: Vec<usize> = (0..n).collect();
    nodes.push(find("rod"));
    nodes.push(find("net"));
    if knob_bone(stage).is_some() {
        nodes.push(find(anglerpose::assetgen::props::REEL_KNOB_NODE));
    }
    nodes.extend(tackle_names().iter().map(|t| find(t)));
    nodes
}

fn dist(a: DVec3, b: [f64; 3]) -> f64 {
    (a - DVec3::from_array(b)).length()
}

fn session_frames(stage: &Stage) -> usize {
    (stage.inputs.state.params.total_duration() * FPS as f64 - 0.01).ceil() as usize + 1
}

fn frame_time(stage: &Stage, k: usize) -> f64 {
    (k as f64 / FPS as f64).min(stage.inputs.state.params.total_duration())
}

#[test]
fn session_clips_pass_the_validator_and_play_in_threejs_as_solved() {
    if !have_node() {
        anglerpose::skip_notice!(
            "\n*** SKIP: node not found, clip validator and three.js checks not run ***\n"
        );
        return;
    }
    for (name, preset) in presets() {
        let (glb, report) = export_clip(&name, &preset, &[]);
        eprintln!("{name}:\n{report}");
        let v = run_validator(&glb);
        let text =
            String::from_utf8_lossy(&v.stdout).into_owned() + &String::from_utf8_lossy(&v.stderr);
        assert!(
            v.status.success() && text.contains("No errors found."),
            "{name}: validator errors:\n{text}"
        );
        assert!(
            !text.contains("ANIMATION"),
            "{name}: validator reports animation problems:\n{text}"
        );

        let mut stage = stage_of(&preset);
        let nodes = export_nodes(&stage, &glb);
        let params = stage.inputs.state.params;
        // 40 sampled frame times over the whole session, both ends included.
        let last = session_frames(&stage) - 1;
        let frames: Vec<usize> = (0..40).map(|i| i * last / 39).collect();
        let times: Vec<f64> = frames.iter().map(|&k| frame_time(&stage, k)).collect();
        let played = threejs_clip(&glb, "session", &times);
        let mut worst: f64 = 0.0;
        for (s, &time) in times.iter().enumerate() {
            let want = solved(&mut stage, SessionState::at_time(time, params));
            for (i, &node) in nodes.iter().enumerate() {
                let got = played
                    .get(&node)
                    .unwrap_or_else(|| panic!("node {node} not played"));
                let d = dist(want[i], got[s]);
                assert!(
                    d <= CLIENT_TOLERANCE,
                    "{name}: node {node} at {time:.4} s is {:.3} mm from the solver (want {:?}, got {:?})",
                    d * 1e3,
                    want[i],
                    got[s]
                );
                worst = worst.max(d);
            }
        }
        eprintln!(
            "{name}: three.js session clip within {:.4} mm at 40 times",
            worst * 1e3
        );

        // A phase clip starts at 0 and ends at the phase's duration.
        let phase = Phase::CastForward;
        let d = params.phase_duration(phase);
        let times = [0.0, d / 3.0, d];
        let played = threejs_clip(&glb, phase.name(), &times);
        for (s, &time) in times.iter().enumerate() {
            let want = solved(&mut stage, SessionState::new(phase, time / d, params));
            for (i, &node) in nodes.iter().enumerate() {
                // d / 3 is not a frame time: interpolation between frames is allowed a little
                // more than the sampled bound.
                let tol = if s == 1 { 5e-3 } else { CLIENT_TOLERANCE };
                let e = dist(want[i], played[&node][s]);
                assert!(
                    e <= tol,
                    "{name}: {} clip node {node} at {time} s: {e}",
                    phase.name()
                );
            }
        }
    }
}

#[test]
fn blender_imports_and_plays_the_session_clip_as_solved() {
    let Some(python) = blender_python("blender_imports_and_plays_the_session_clip_as_solved")
    else {
        return;
    };
    for (name, preset) in presets() {
        let (glb, _) = export_clip(&name, &preset, &[]);
        let mut stage = stage_of(&preset);
        let params = stage.inputs.state.params;
        let last = session_frames(&stage) as u32 - 1;
        let frames: Vec<u32> = (0..8).map(|i| i * last / 7).collect();
        let played = blender_clip(&python, &glb, "session", FPS, &frames);
        assert!(
            played.version.starts_with("4.5"),
            "Blender {}",
            played.version
        );
        let skel = stage.character.skeleton.clone();
        let joints: Vec<usize> = stage
            .character
            .skins
            .iter()
            .flat_map(|s| s.joints.clone())
            .collect();
        let mut worst: f64 = 0.0;
        let mut checked = 0;
        for (f, &frame) in frames.iter().enumerate() {
            let time = frame_time(&stage, frame as usize);
            let want = solved(&mut stage, SessionState::at_time(time, params));
            for &j in &joints {
                let bone = &skel.bones()[j].name;
                if skel.bones().iter().filter(|b| &b.name == bone).count() > 1 {
                    continue;
                }
                let got = played
                    .bones
                    .get(bone)
                    .unwrap_or_else(|| panic!("{name}: Blender has no bone {bone}"));
                let d = dist(want[j], got[f]);
                assert!(
                    d <= CLIENT_TOLERANCE,
                    "{name}: Blender bone {bone} at frame {frame} is {:.3} mm off",
                    d * 1e3
                );
                worst = worst.max(d);
                checked += 1;
            }
            let n = skel.len();
            let knob = knob_bone(&stage).map(|_| ("reel_knob", n + 2));
            for (object, i) in [("rod", n), ("net", n + 1)].into_iter().chain(knob) {
                let got = played
                    .objects
                    .get(object)
                    .unwrap_or_else(|| panic!("no {object}"));
                let d = dist(want[i], got[f]);
                assert!(
                    d <= CLIENT_TOLERANCE,
                    "{name}: Blender {object} at {frame}: {d}"
                );
            }
            // The rod's bend chain (bones of the armature Blender makes of the rod holder)
            // and the line's points (empties).
            let first = n + 2 + usize::from(knob.is_some());
            for (k, tackle) in tackle_names().iter().enumerate() {
                let got = played
                    .bones
                    .get(tackle)
                    .or_else(|| played.objects.get(tackle))
                    .unwrap_or_else(|| panic!("{name}: Blender has no {tackle}"));
                let d = dist(want[first + k], got[f]);
                assert!(
                    d <= CLIENT_TOLERANCE,
                    "{name}: Blender {tackle} at {frame} is {:.3} mm off",
                    d * 1e3
                );
            }
        }
        assert!(
            checked >= 8 * 15,
            "{name}: only {checked} bone positions compared"
        );
        eprintln!(
            "{name}: Blender {} plays the session clip within {:.4} mm ({checked} bone heads)",
            played.version,
            worst * 1e3
        );
    }
}

/// The clip's own evaluation, put onto a pose of the character and refreshed there: every
/// node's world position at clip time `time` (slerp or component lerp).
fn played_in_rust(stage: &Stage, clip: &preset::BakedClip, time: f32, nlerp: bool) -> Vec<DVec3> {
    let skel = &stage.character.skeleton;
    let mut pose = stage.pose.clone();
    pose.set_world_from_actor(Transform::IDENTITY);
    let world_from_actor = stage.world_from_actor.to_affine();
    for b in 0..skel.len() {
        if skel.parent(b).is_none() {
            let folded =
                Transform::from_affine(&(world_from_actor * stage.pose.local(b).to_affine()));
            pose.set_local(b, folded);
        }
    }
    let mut holders = [DVec3::ZERO; 2];
    for c in &clip.channels {
        let v = c.sample(time, nlerp);
        if c.node >= skel.len() {
            // The holders' translations (the crank's turn is checked through the clients).
            if c.path == AnimPath::Translation
                && let Some(h) = holders.get_mut(c.node - skel.len())
            {
                *h = DVec3::new(v[0], v[1], v[2]);
            }
            continue;
        }
        let mut local = *pose.local(c.node);
        match c.path {
            AnimPath::Translation => {
                local.translation = DVec3::new(v[0], v[1], v[2]);
            }
            AnimPath::Rotation => local.rotation = DQuat::from_array(v),
        }
        pose.set_local(c.node, local);
    }
    pose.refresh_all(skel);
    let mut out: Vec<DVec3> = (0..skel.len()).map(|b| pose.world_position(b)).collect();
    out.extend(holders);
    out
}

#[test]
fn clips_keep_the_stated_bound_layout_and_hemispheres() {
    let bundled = bundled_assets_dir().join("presets");
    for name in ["seated_hold.json", "ccd_arms.json", "landing.json"] {
        let mut stage = stage_of(&bundled.join(name));
        let own = (stage.inputs.state, stage.pose.clone());
        let clips = preset::bake_clips(&mut stage, &ClipOptions::default()).unwrap();
        assert_eq!(
            stage.inputs.state, own.0,
            "{name}: the stage's state is put back"
        );
        assert_eq!(stage.pose, own.1, "{name}: the stage's pose is put back");
        let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
        let mut want = vec!["session"];
        want.extend(Phase::ALL.iter().map(|p| p.name()));
        assert_eq!(names, want);
        let params = stage.inputs.state.params;
        let skinned: Vec<usize> = stage
            .character
            .meshes
            .iter()
            .filter(|m| m.skin.is_some())
            .map(|m| m.node)
            .collect();
        let joints: Vec<usize> = stage
            .character
            .skins
            .iter()
            .flat_map(|s| s.joints.clone())
            .collect();
        for clip in &clips {
            let phase = Phase::from_name(&clip.name);
            let duration = phase.map_or(params.total_duration(), |p| params.phase_duration(p));
            assert!((clip.duration - duration).abs() < 1e-12, "{}", clip.name);
            // The body and the holders reduce to under half the keys sampled (the frames,
            // and the middles where the motion between frames needed them, issue 34 item 7).
            // The tackle's channels (bend-chain joints, the line's points) move on every frame
            // of a strike and are counted apart; each chain joint has both channels.
            let n = stage.character.skeleton.len();
            let body: Vec<_> = clip.channels.iter().filter(|c| c.node < n + 2).collect();
            let body_after: usize = body.iter().map(|c| c.times.len()).sum();
            assert!(clip.samples >= clip.frames);
            // Between samples the bound holds wherever the solver's own pose is continuous:
            // the CCD preset's arm jumps in the landing (about 9 mm at 0.49 s into it, a
            // discontinuity in the solver no sampling can follow); the report states it.
            if name != "ccd_arms.json" {
                assert!(
                    clip.between_error <= ClipOptions::default().tolerance,
                    "{name} {}: {:.3} mm between samples",
                    clip.name,
                    clip.between_error * 1e3
                );
            }
            assert!(
                body_after < body.len() * clip.samples / 2,
                "{}: reduction",
                clip.name
            );
            assert!(clip.bytes_after() < clip.bytes_before());
            let tackle = clip.channels.len() - body.len();
            assert!(
                tackle >= 2 * BEND_JOINTS,
                "{}: {tackle} tackle channels",
                clip.name
            );
            for j in &joints {
                assert!(
                    clip.channels
                        .iter()
                        .any(|c| c.node == *j && c.path == AnimPath::Rotation),
                    "{}: joint {j} has no rotation channel",
                    clip.name
                );
            }
            for c in &clip.channels {
                assert!(
                    !skinned.contains(&c.node),
                    "{}: skinned mesh node animated",
                    clip.name
                );
                assert_eq!(c.times[0], 0.0);
                assert_eq!(*c.times.last().unwrap(), duration as f32, "{}", clip.name);
                assert!(c.times.windows(2).all(|w| w[0] < w[1]), "times increase");
                if c.path == AnimPath::Rotation {
                    for w in c.values.chunks(4).collect::<Vec<_>>().windows(2) {
                        let dot: f32 = (0..4).map(|i| w[0][i] * w[1][i]).sum();
                        assert!(
                            dot >= 0.0,
                            "{}: node {} keys cross hemispheres",
                            clip.name,
                            c.node
                        );
                    }
                }
            }
            // Every sampled frame, evaluated from the reduced keys on a pose of the character,
            // is within the bound of a fresh solve at that time.
            let mut worst: f64 = 0.0;
            for k in 0..clip.frames {
                let time = (k as f64 / 30.0).min(duration);
                let state = match phase {
                    Some(p) => SessionState::new(p, time / duration, params),
                    None => SessionState::at_time(time, params),
                };
                let want = solved(&mut stage, state);
                for nlerp in [false, true] {
                    let got = played_in_rust(&stage, clip, time as f32, nlerp);
                    for (i, g) in got.iter().enumerate() {
                        worst = worst.max((*g - want[i]).length());
                    }
                }
            }
            assert!(
                worst <= ClipOptions::default().tolerance,
                "{name} {}: {:.4} mm from the solver",
                clip.name,
                worst * 1e3
            );
            assert!(
                worst <= clip.max_error + 1e-9,
                "{name} {}: reported {} < {worst}",
                clip.name,
                clip.max_error
            );
        }
        stage.update().unwrap();
    }
}

#[test]
fn a_zero_tolerance_keeps_every_key_and_a_phase_range_bakes_only_those_phases() {
    let mut stage = Stage::bundled().unwrap();
    stage.update().unwrap();
    let all = ClipOptions {
        tolerance: 0.0,
        ..Default::default()
    };
    for clip in preset::bake_clips(&mut stage, &all).unwrap() {
        assert_eq!(clip.keys_after(), clip.keys_before(), "{}", clip.name);
        assert!(clip.max_error < 1e-5, "{}: f32 rounding only", clip.name);
    }
    let range = ClipOptions {
        first: Phase::CastWindUp,
        last: Phase::Release,
        fps: 24.0,
        ..Default::default()
    };
    let clips = preset::bake_clips(&mut stage, &range).unwrap();
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["session", "cast_wind_up", "cast_forward", "release"]
    );
    let p = stage.inputs.state.params;
    let length = p.phase_duration(Phase::CastWindUp)
        + p.phase_duration(Phase::CastForward)
        + p.phase_duration(Phase::Release);
    assert!((clips[0].duration - length).abs() < 1e-12);
    assert_eq!(clips[0].frames, (length * 24.0 - 0.01).ceil() as usize + 1);
    // The range's session clip starts at the wind-up's first pose.
    let start = played_in_rust(&stage, &clips[0], 0.0, false);
    let want = solved(&mut stage, SessionState::new(Phase::CastWindUp, 0.0, p));
    for (g, w) in start.iter().zip(&want) {
        assert!((*g - *w).length() < 1e-5);
    }

    for (bad, what) in [
        (
            ClipOptions {
                fps: 0.0,
                ..Default::default()
            },
            "fps 0",
        ),
        (
            ClipOptions {
                fps: f64::NAN,
                ..Default::default()
            },
            "fps NaN",
        ),
        (
            ClipOptions {
                first: Phase::Landing,
                last: Phase::SeatedHold,
                ..Default::default()
            },
            "backwards",
        ),
        (
            ClipOptions {
                tolerance: -1.0,
                ..Default::default()
            },
            "tolerance -1",
        ),
    ] {
        let e = preset::bake_clips(&mut stage, &bad).unwrap_err();
        assert!(matches!(e, preset::ClipError::Options(_)), "{what}: {e}");
    }
}

#[test]
fn the_cli_reports_the_reduction_and_its_session_time_is_solve_time() {
    let preset = bundled_assets_dir().join("presets/seated_hold.json");
    let (glb, report) = export_clip("cli", &preset, &["--phases", "seated_hold..cast_forward"]);
    for clip in ["session", "seated_hold", "cast_wind_up", "cast_forward"] {
        assert!(report.contains(&format!("clip {clip}: ")), "{report}");
    }
    assert!(!report.contains("clip release"), "{report}");
    assert!(report.contains("keys ") && report.contains(" -> ") && report.contains("KiB"));
    let back = anglerpose::gltf_io::load(&glb).unwrap_or_else(|e| panic!("{e}"));
    assert!(!back.skeleton.is_empty());

    // `solve` reports the session time of a state as `time`; the session clip's time is the
    // same number (the timeline starts at the first phase).
    let stage = stage_of(&preset);
    for k in [0usize, 45, 100] {
        let time = k as f64 / FPS as f64;
        let state = SessionState::at_time(time, stage.inputs.state.params);
        let out = run_ok(bin().args([
            "solve",
            "--preset",
            preset.to_str().unwrap(),
            "--phase",
            state.phase.name(),
            "--t",
            &format!("{}", state.t),
        ]));
        let json: serde_json::Value =
            serde_json::from_str(&out[..out.rfind('}').unwrap() + 1]).unwrap();
        assert!(
            (json["time"].as_f64().unwrap() - time).abs() < 1e-9,
            "{k}: {}",
            json["time"]
        );
    }

    let bad = bin()
        .args(["export", "--animation", "--fps", "0", "--out"])
        .arg(scratch("clip-cli").join("bad.glb"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("fps 0 is outside 1..=240"));
    let bad = bin()
        .args([
            "export",
            "--animation",
            "--phases",
            "landing..cast",
            "--out",
        ])
        .arg(scratch("clip-cli").join("bad.glb"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown phase \"cast\""));
}

/// Issue 34 item 7: the clip holds between frames. At 300 times that are neither frames nor
/// the middles the baker checks, every character joint and both holders of the session clip
/// of the landing preset (the retrieve's crank is where frames alone missed by 4.7 mm) are
/// within the tolerance and a tenth of a millimetre of the solver, for slerp and for
/// component-lerp clients.
#[test]
fn the_session_clip_holds_between_frames() {
    let preset = bundled_assets_dir().join("presets").join("landing.json");
    let mut stage = stage_of(&preset);
    let options = ClipOptions::default();
    let clips = preset::bake_clips(&mut stage, &options).unwrap();
    let session = &clips[0];
    assert!(
        session.between_error <= options.tolerance,
        "{}",
        session.between_error
    );
    let params = stage.inputs.state.params;
    let n = stage.character.skeleton.len() + 2;
    let mut worst = 0.0f64;
    for i in 0..300 {
        // Offset by √2 − 1 of a step: never a frame time, rarely near one.
        let time = (i as f64 + 0.414_213_562) / 300.0 * session.duration;
        let want = solved(&mut stage, SessionState::at_time(time, params));
        for nlerp in [false, true] {
            let got = played_in_rust(&stage, session, time as f32, nlerp);
            for (g, w) in got.iter().zip(&want[..n]) {
                worst = worst.max((*g - *w).length());
            }
        }
    }
    eprintln!(
        "session clip between frames: within {:.4} mm at 300 times",
        worst * 1e3
    );
    assert!(
        worst <= options.tolerance + 1e-4,
        "the session clip is {:.3} mm from the solver between frames",
        worst * 1e3
    );
}
