//! The rod's guides (issue 34, "the line leaves the rod tip through the guides where the rod
//! model has them"): found in the rod's mesh where the generator put them, the same for the
//! rod turned and in other units, not found where there are none; the tackle carries them
//! with the bend and the line runs through them to the tip.

mod support;

use anglerpose::assetgen::props::ROD_GUIDES;
use anglerpose::assetgen::rods::{baitcaster, surf};
use anglerpose::fishing::rod_guides::{RodGuide, find_guides, find_reel_exit};
use anglerpose::fishing::{Phase, SessionState};
use anglerpose::stage::{PropSources, Props, RodSource, Stage, bundled_assets_dir};
use glam::DVec3;
use support::fs::{bin, fresh_scratch, stdout_ok};
use support::gltf_edit::{Doc, quat};

fn props_with(rod: Option<std::path::PathBuf>, length: Option<f64>) -> Props {
    let sources = PropSources {
        rod: rod.map(|path| RodSource {
            path,
            length,
            ..Default::default()
        }),
        ..Default::default()
    };
    Props::load_with(&bundled_assets_dir(), &sources).expect("props")
}

/// Each guide where the generator put it: along the blank within 2 mm, on the reel's side
/// (−Z), its ring's radius within its tube's thickness, standing clear of the blank.
fn check(name: &str, found: &[RodGuide], want: &[(f64, f64)]) {
    assert_eq!(found.len(), want.len(), "{name}: {found:?}");
    for (g, &(along, ring)) in found.iter().zip(want) {
        let c = g.centre_in_rod;
        assert!(
            (c.y - along).abs() < 0.002,
            "{name}: guide at {} not {along}",
            c.y
        );
        assert!(
            c.x.abs() < 1e-3 && c.z < 0.0,
            "{name}: guide at {c} not below"
        );
        assert!(
            g.ring_radius >= ring && g.ring_radius < ring + 0.002,
            "{name}: ring {} not {ring}",
            g.ring_radius
        );
        assert!(
            -c.z - g.ring_radius > 0.003,
            "{name}: ring {c} touches the blank"
        );
    }
}

#[test]
fn guides_are_found_where_the_generator_put_them() {
    let dir = bundled_assets_dir();
    let bundled = props_with(None, None);
    check("rod.glb", &bundled.rod_guides, &ROD_GUIDES);
    // The line leaves the front of the spinning reel's spool, which hangs below the seat
    // and ahead of it (`assetgen::props::spinning_reel`: the spool's cap ends 80 mm ahead of
    // the seat, its axis 82 mm below the blank).
    let exit = bundled.rod_reel_exit.expect("the bundled reel's spool");
    let seat = bundled.gear.rod.reel_seat;
    assert!(exit.x.abs() < 0.005, "{exit}");
    assert!((0.03..0.09).contains(&(exit.y - seat)), "{exit}");
    assert!((0.05..0.11).contains(&-exit.z), "{exit}");
    check(
        "rod_surf.glb",
        &props_with(Some(dir.join("rod_surf.glb")), None).rod_guides,
        &surf().guides,
    );
    check(
        "rod_baitcaster.glb",
        &props_with(Some(dir.join("rod_baitcaster.glb")), None).rod_guides,
        &baitcaster().guides,
    );
}

/// The surf rod turned another way and in centimetres: the same guides in rod space.
#[test]
fn guides_are_the_same_in_any_frame_and_units() {
    let dir = bundled_assets_dir();
    let straight = props_with(Some(dir.join("rod_surf.glb")), None).rod_guides;
    let mut doc = Doc::read(&dir.join("rod_surf.glb"));
    doc.wrap("export_root", quat([0.48, 0.6, 0.64], 61.0), 100.0);
    let path = fresh_scratch("guides").join("turned_surf.glb");
    std::fs::write(&path, doc.bytes()).unwrap();
    let turned = props_with(Some(path), None).rod_guides;
    assert_eq!(turned.len(), straight.len());
    for (a, b) in turned.iter().zip(&straight) {
        let d = a.centre_in_rod.distance(b.centre_in_rod);
        assert!(d < 1e-3, "{a:?} vs {b:?}");
    }
}

/// A blank alone has no guides, and a step in its radius (a winding check) is not one; a ring
/// on a stand beside it is.
#[test]
fn only_rings_beside_the_blank_are_guides() {
    let mut blank = Vec::new();
    for i in 0..=400 {
        let y = f64::from(i) * 0.005;
        let r = if y < 1.2 { 0.006 } else { 0.004 };
        for k in 0..16 {
            let a = f64::from(k) * std::f64::consts::TAU / 16.0;
            blank.push(DVec3::new(r * a.cos(), y, r * a.sin()));
        }
    }
    assert!(find_guides(&blank, 2.0, 0.3).is_empty());
    assert_eq!(find_reel_exit(&blank, 0.3, &[]), None);
    // A winding check: a short thicker collar round the blank.
    let mut collar = blank.clone();
    for k in 0..32 {
        let a = f64::from(k) * std::f64::consts::TAU / 32.0;
        for y in [0.995, 1.0, 1.005] {
            collar.push(DVec3::new(0.012 * a.cos(), y, 0.012 * a.sin()));
        }
    }
    assert!(find_guides(&collar, 2.0, 0.3).is_empty());
    // A ring of radius 8 mm (tube 1 mm) centred 30 mm below the axis at 1.5 m.
    let mut guided = blank;
    let centre = DVec3::new(0.0, 1.5, -0.03);
    for k in 0..24 {
        let a = f64::from(k) * std::f64::consts::TAU / 24.0;
        for j in 0..6 {
            let b = f64::from(j) * std::f64::consts::TAU / 6.0;
            let rim = DVec3::new(a.cos(), 0.0, a.sin());
            guided.push(centre + rim * (0.008 + 0.001 * b.cos()) + DVec3::Y * 0.001 * b.sin());
        }
    }
    let found = find_guides(&guided, 2.0, 0.3);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].centre_in_rod.distance(centre) < 5e-4, "{found:?}");
    assert!((found[0].ring_radius - 0.009).abs() < 5e-4, "{found:?}");
}

/// The line runs through the guides to the tip: straight, the guides are where the rod puts
/// them; bent under a fish, each keeps its place on its joint and they bend with the blank
/// toward the pull, between the handle and the bent tip.
#[test]
fn the_tackle_carries_the_guides_with_the_bend() {
    let mut stage = Stage::bundled().expect("bundled");
    for (phase, pulled) in [(Phase::SeatedHold, false), (Phase::Strike, true)] {
        stage.inputs.state = SessionState::new(phase, 1.0, stage.inputs.state.params);
        stage.update().unwrap();
        let tackle = stage.tackle().unwrap().clone();
        let frames = stage.evaluation().unwrap().frames;
        let rod = frames.actor_from_rod.to_affine();
        assert_eq!(tackle.guides_in_actor.len(), ROD_GUIDES.len());
        assert_eq!(tackle.bend.is_straight(), !pulled);
        let mut moved = 0.0f64;
        for (g, at) in stage.props.rod_guides.iter().zip(&tackle.guides_in_actor) {
            let straight = rod.transform_point3(g.centre_in_rod);
            let carried = rod.transform_point3(
                tackle.bend.bent_from_rest[g.joint(&tackle.bend)].transform_point3(g.centre_in_rod),
            );
            assert!(at.distance(carried) < 1e-12);
            moved = moved.max(at.distance(straight));
        }
        if pulled {
            assert!(moved > 0.05, "the guides moved at most {moved} m");
            // Ordered from the handle to the tip along the bent rod.
            let mut last = frames.actor_from_rod.translation;
            for at in tackle.guides_in_actor.iter().chain([&tackle.tip_in_actor]) {
                let from_butt = at.distance(frames.actor_from_rod.translation);
                assert!(from_butt > last.distance(frames.actor_from_rod.translation));
                last = *at;
            }
        } else {
            assert!(moved < 1e-12, "straight, a guide moved {moved} m");
        }
    }
}

/// `inspect --as rod` lists the guides it finds and where the line leaves the reel (text and
/// JSON), as the stage finds them.
#[test]
fn inspect_lists_the_guides() {
    let surf = bundled_assets_dir().join("rod_surf.glb");
    let run = |json: bool| {
        let mut cmd = bin();
        cmd.args(["inspect", "--as", "rod"]).arg(&surf);
        if json {
            cmd.arg("--json");
        }
        stdout_ok(&mut cmd)
    };
    let text = run(false);
    assert!(
        text.contains("guides: 6 at 1.550, 2.050, 2.500, 2.900, 3.300, 3.620 m from the butt"),
        "{text}"
    );
    assert!(text.contains("the line leaves the reel"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let along: Vec<f64> = json["guides_m"]
        .as_array()
        .expect("guides_m")
        .iter()
        .map(|g| g["along"].as_f64().unwrap())
        .collect();
    let stage = props_with(Some(surf.clone()), None).rod_guides;
    assert_eq!(along.len(), stage.len());
    for (a, g) in along.iter().zip(&stage) {
        assert!((a - g.centre_in_rod.y).abs() < 1e-9, "{a} vs {g:?}");
    }
    assert!(json["reel_exit_in_rod_m"].is_array(), "{json}");
}
