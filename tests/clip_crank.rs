//! An artist's crank turns in the session clip whatever node it hangs under (issue 33): a
//! baitcaster whose `reel_crank` node is nested under a turned, moved `reel_housing` (as DCC
//! tools nest a reel's parts) is exported with its session clip, and three.js r187 plays a
//! point on the crank (an empty `knob_probe` off its axis) where the solver has it at every
//! sampled time. Before, the crank got no channel unless its parent sat at the rod's origin,
//! and the knob stayed where the export began.

mod support;

use anglerpose::fishing::SessionState;
use anglerpose::gltf_io;
use anglerpose::preset::{ClipOptions, animated_glb};
use anglerpose::stage::{PropSources, Props, RodSource, Stage, bundled_assets_dir};
use glam::DVec3;
use support::clients::threejs_clip;
use support::fs::fresh_scratch;
use support::gltf_edit::{Doc, quat};
use support::khronos::have_node;

/// The clients must show every joint within this of the solver (metres), as in
/// `clip_export.rs`.
const CLIENT_TOLERANCE: f64 = 1e-3;
const PROBE: &str = "knob_probe";

/// The bundled angler on the baitcaster with its crank under a turned, moved parent and a
/// probe off its axis.
fn nested_crank_stage(dir: &std::path::Path) -> Stage {
    let assets = bundled_assets_dir();
    let mut doc = Doc::read(&assets.join("rod_baitcaster.glb"));
    doc.insert_parent("reel_crank", "reel_housing", quat([0.3, 1.0, 0.2], 40.0));
    // A point that turns with the crank: off its axis whichever way the file's axes run (the
    // file is in centimetres: 6 cm from the pivot, at least 3.5 cm from the axis).
    doc.add_child("reel_crank", PROBE, [3.5, 3.5, 3.5]);
    let rod = dir.join("rod_nested_crank.glb");
    std::fs::write(&rod, doc.bytes()).unwrap();
    let sources = PropSources {
        rod: Some(RodSource {
            path: rod,
            ..Default::default()
        }),
        ..Default::default()
    };
    let props = Props::load_with(&assets, &sources).unwrap();
    let character = gltf_io::load(assets.join("angler.glb")).unwrap();
    let mut stage = Stage::new(character, props).unwrap();
    stage.update().unwrap();
    stage
}

/// The probe's world position as the solver has it at session time `time`, and in the rod's
/// frame.
fn solved_probe(stage: &mut Stage, probe: usize, time: f64) -> (DVec3, DVec3) {
    let params = stage.inputs.state.params;
    stage.inputs.state = SessionState::at_time(time, params);
    let frames = stage.update().unwrap().frames;
    let world_from_rod = stage.world_from_actor.to_affine() * frames.actor_from_rod.to_affine();
    let in_rod = stage.props.rod_pose(&frames).world_position(probe);
    (world_from_rod.transform_point3(in_rod), in_rod)
}

#[test]
fn an_artists_crank_under_a_turned_parent_turns_in_the_session_clip() {
    if !have_node() {
        anglerpose::skip_notice!(
            "\n*** SKIP: node not found, the nested crank's clip not played ***\n"
        );
        return;
    }
    let dir = fresh_scratch("clip-crank");
    let mut stage = nested_crank_stage(&dir);
    assert!(
        stage.props.rod_crank.is_some(),
        "the nested crank is not found"
    );
    let probe = stage.props.rod.skeleton.find(PROBE).expect("the probe");
    let (bytes, _) = animated_glb(&mut stage, &ClipOptions::default()).unwrap();
    let glb = dir.join("nested_crank_clip.glb");
    std::fs::write(&glb, bytes).unwrap();
    let node = Doc::read(&glb)
        .node_names()
        .iter()
        .position(|n| n == PROBE)
        .expect("the probe in the export");
    // 40 times over the session, both ends included.
    let total = stage.inputs.state.params.total_duration();
    let times: Vec<f64> = (0..40).map(|k| total * f64::from(k) / 39.0).collect();
    let played = &threejs_clip(&glb, "session", &times)[&node];
    let mut wanted = Vec::new();
    let mut worst: f64 = 0.0;
    for (k, &time) in times.iter().enumerate() {
        let (want, in_rod) = solved_probe(&mut stage, probe, time);
        let got = DVec3::from_array(played[k]);
        let d = want.distance(got);
        assert!(
            d <= CLIENT_TOLERANCE,
            "the knob at {time:.3} s is {:.2} mm from the solver's (want {want}, got {got})",
            d * 1e3
        );
        worst = worst.max(d);
        wanted.push(in_rod);
    }
    eprintln!(
        "nested crank: three.js within {:.4} mm at 40 times",
        worst * 1e3
    );
    // It turned: the knob went round in the rod's frame (the retrieve turns the crank several
    // times), so the clip above carries the turn, not only the rod's motion.
    let (lo, hi) = wanted
        .iter()
        .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    assert!(
        (hi - lo).length() > 0.05,
        "the knob barely moved: {lo} .. {hi}"
    );
}
