//! The reel's knob in the retrieve (issue 33): the crank is drawn where the rear hand cranks
//! it and turns with the session, and the knob is pinched between the thumb's pad and the
//! index's side, measured on the posed export (CPU-skinned as glTF defines it, see
//! `support/grip_measure.rs`) against the knob as the export draws it
//! (`support/knob_measure.rs`): thumb and index within [−2, +3] mm of its surface (a mitten's
//! palm, where a hand has no fingers), and no skin of the hand deeper than 2 mm inside it.

mod support;

use anglerpose::fishing::{GripKind, Handedness, Phase, SessionState, reel_handle_in_hold};
use anglerpose::gltf_io;
use anglerpose::rig::{Finger, Side};
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use glam::DVec3;
use support::gltf_edit::shared_models;
use support::grip_measure::{Part, posed_skin};
use support::grip_stage::{calibrate_stage, stage_on};
use support::knob_measure::{DrawnKnob, exported_knob};
use support::prop_solid::{Solid, rod_solid};

const TOUCH: (f64, f64) = (-0.002, 0.003);
const DEEPEST: f64 = -0.002;

fn stage_of(file: &std::path::Path, contact: bool) -> Stage {
    let props = Props::load(&bundled_assets_dir()).unwrap();
    let mut stage = Stage::new(gltf_io::load(file).unwrap(), props).unwrap();
    stage.inputs.settings.finger_contact = contact;
    stage.update().unwrap();
    stage
}

/// Retrieve instants while the rear hand is on the knob (t in 0.15..0.85), a third of a turn
/// apart and more, so the knob is measured all round its circle.
fn cranking() -> Vec<f64> {
    (0..13).map(|k| 0.16 + 0.0565 * f64::from(k)).collect()
}

fn at(stage: &mut Stage, t: f64) {
    stage.inputs.state = SessionState::new(Phase::Retrieve, t, stage.inputs.state.params);
    stage.update().unwrap();
}

/// The side whose hand holds the knob now, if one does (on the grip, fully closed).
fn knob_hand(stage: &Stage) -> Option<Side> {
    let eval = stage.evaluation().unwrap();
    [Side::Left, Side::Right].into_iter().find(|s| {
        let g = eval.frames.grips.get(*s);
        g.hold.main() == GripKind::ReelHandle
            && (g.hold.blend == 0.0 || g.hold.blend == 1.0)
            && g.opening == 1.0
            && eval.arms.get(*s).ik.reached
    })
}

#[test]
fn the_drawn_knob_is_where_the_hand_cranks_and_turns_with_the_crank() {
    let mut stage = stage_of(&bundled_assets_dir().join("angler.glb"), true);
    for handedness in [Handedness::Right, Handedness::Left] {
        stage.inputs.state.params.handedness = handedness;
        let mut middles = Vec::new();
        for t in cranking() {
            at(&mut stage, t);
            let knob = exported_knob(&stage).expect("the bundled rod's crank node");
            let side = knob_hand(&stage).expect("a hand on the knob");
            let grip = stage.grip_in_world(side).unwrap();
            let (world_from_hold, in_hold) = session_knob(&stage, handedness);
            let gear_knob = world_from_hold.transform_point3(in_hold);
            let off = knob.middle().distance(gear_knob);
            assert!(
                off < 1e-5,
                "{handedness:?} t={t}: drawn knob {:.2} mm from the crank's",
                off * 1e3
            );
            // The hand's grip is on it too.
            assert!(grip.translation.distance(gear_knob) < 1e-9, "t={t}");
            middles.push(knob.middle());
        }
        // It turns: the knob visits its whole circle (4 turns over the retrieve).
        let spread = widest(&middles);
        assert!(
            spread > 0.08,
            "the knob moved at most {:.1} mm",
            spread * 1e3
        );
    }
}

/// The signed distance of a point from a knob's surface (negative: inside).
type KnobGap = Box<dyn Fn(DVec3) -> f64>;

/// Every problem of the knob hand's pinch over the cranking instants, and how many hands
/// were measured. The knob is measured by `knob_gap` (the signed distance of a point from the
/// knob's surface, for the stage as posed and its rod's solid).
fn pinch_problems(
    name: &str,
    stage: &mut Stage,
    knob_gap: &dyn Fn(&Stage, &Solid) -> KnobGap,
) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut hands = 0;
    for t in cranking() {
        at(stage, t);
        let Some(side) = knob_hand(stage) else {
            continue;
        };
        hands += 1;
        let rod = rod_solid(stage);
        let gap = knob_gap(stage, &rod);
        let skin = posed_skin(stage);
        let min_gap = |part: Part| {
            skin.parts
                .get(&part)
                .map(|v| v.iter().map(|p| gap(*p)).fold(f64::INFINITY, f64::min))
        };
        let here = format!("{name} retrieve t={t:.3} {side:?}");
        let has_fingers = stage.actor.arm(side).fingers.len() >= 2;
        if has_fingers {
            for finger in [Finger::Thumb, Finger::Index] {
                match min_gap(Part::Finger(side, finger)) {
                    Some(g) if (TOUCH.0..=TOUCH.1).contains(&g) => {}
                    Some(g) => {
                        out.push(format!("{here}: {finger:?} {:.1} mm off the knob", g * 1e3))
                    }
                    None => out.push(format!("{here}: no {finger:?} skin")),
                }
            }
        } else {
            // A mitten: the knob's end rests on the palm.
            let g = min_gap(Part::Palm(side)).unwrap_or(f64::INFINITY);
            if !(TOUCH.0..=TOUCH.1).contains(&g) {
                out.push(format!("{here}: palm {:.1} mm off the knob", g * 1e3));
            }
        }
        let mut parts = vec![Part::Palm(side)];
        parts.extend(Finger::ALL.iter().map(|f| Part::Finger(side, *f)));
        for part in parts {
            if let Some(g) = min_gap(part)
                && g < DEEPEST
            {
                out.push(format!(
                    "{here}: {part:?} {:.1} mm inside the knob",
                    -g * 1e3
                ));
            }
            // Nor anywhere else in the rod (the crank's arm, the reel).
            let Some(points) = skin.parts.get(&part) else {
                continue;
            };
            let near = rod.near(points, 0.01);
            let deepest = points
                .iter()
                .filter_map(|p| near.depth(*p))
                .fold(0.0, f64::max);
            if deepest > -DEEPEST {
                out.push(format!(
                    "{here}: {part:?} {:.1} mm inside the rod",
                    deepest * 1e3
                ));
            }
        }
    }
    (out, hands)
}

/// The bundled rod's knob as the posed export draws it (`support/knob_measure.rs`).
fn exported_knob_gap(stage: &Stage, _: &Solid) -> KnobGap {
    let knob = exported_knob(stage).expect("the bundled rod's crank node");
    Box::new(move |p| knob.gap(p))
}

fn assert_pinches(name: &str, file: &std::path::Path) {
    let mut stage = stage_of(file, true);
    let (problems, hands) = pinch_problems(name, &mut stage, &exported_knob_gap);
    eprintln!("{name}: {hands} hands on the knob measured");
    // More than half the instants: with the default calibration KayKit's short arms miss the
    // knob at the far side of its circle (5 of 13), which `calibrate` is for.
    assert!(hands >= 7, "{name}: only {hands} hands on the knob");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_anglers_thumb_and_index_pinch_the_knob_all_round_its_turn() {
    assert_pinches("angler", &bundled_assets_dir().join("angler.glb"));
}

#[test]
fn shared_characters_pinch_the_knob() {
    let Some(dir) = shared_models("knob_pinch: shared characters") else {
        return;
    };
    for (name, file) in [
        ("mannequiny", "mannequiny-0.3.0.glb"),
        ("CesiumMan", "CesiumMan.glb"),
        ("RiggedFigure", "RiggedFigure.glb"),
        ("KayKit", "KayKit_Mannequin/manny_med_mod.gltf"),
    ] {
        assert_pinches(name, &dir.join(file));
    }
}

#[test]
fn without_the_contact_solve_the_knob_is_not_pinched() {
    let mut stage = stage_of(&bundled_assets_dir().join("angler.glb"), false);
    let (problems, hands) =
        pinch_problems("angler (parametric curl)", &mut stage, &exported_knob_gap);
    assert!(hands >= 10, "{hands} hands");
    assert!(
        problems.len() >= hands,
        "the calibrated curl nearly pinches the knob: {problems:?}"
    );
}

#[test]
fn the_solver_reports_the_pinch() {
    let mut stage = stage_of(&bundled_assets_dir().join("angler.glb"), true);
    at(&mut stage, 0.5);
    let side = knob_hand(&stage).expect("a hand on the knob");
    let report = stage.evaluation().unwrap().arms.get(side).contact;
    assert!(report.solved);
    for (i, f) in report.fingers.iter().enumerate() {
        match i {
            // Thumb and index touch the knob; the others curl freely (no contact).
            0 | 1 => assert!(f.is_some_and(|c| c.touches), "finger {i}: {f:?}"),
            _ => assert!(f.is_none(), "finger {i}: {f:?}"),
        }
    }
}

/// An artist's rod whose crank is its own node (the extra rods: a spinning reel's crank
/// modelled on the front hand's side, its knob down; a baitcaster's bar with two knobs) turns
/// it with the session: the rod's mesh as drawn (`support/prop_solid.rs`, winding numbers)
/// has its knob round the knob the hand cranks, at every instant, for either hand. The knob's
/// middle and 5 mm along its axis either way are inside the drawn mesh; 10 mm across its axis
/// (either modelled knob is under 8 mm thick) is outside. The crank's arm is found as
/// generated (how far it stands out of the knob's base, a second knob).
#[test]
fn an_artists_crank_node_turns_to_where_the_hand_cranks() {
    let angler = bundled_assets_dir().join("angler.glb");
    for rod in ["rod_surf.glb", "rod_baitcaster.glb"] {
        for handedness in [Handedness::Right, Handedness::Left] {
            let mut stage = stage_on(&angler, Some(rod), handedness);
            assert!(stage.props.rod_crank.is_some(), "{rod}: no turning crank");
            // The arm as generated: the baitcaster's bar (3 mm thick about the knobs' bases,
            // a knob at either end); the spinning reel's arm ends in the knob's base.
            let crank = stage.props.gear.rod.crank;
            let (proud, opposite) = if rod == "rod_baitcaster.glb" {
                (0.003, true)
            } else {
                (0.0, false)
            };
            assert!(
                (crank.arm_proud - proud).abs() < 5e-4 && crank.opposite_knob == opposite,
                "{rod}: {crank:?}"
            );
            let mut middles = Vec::new();
            for t in cranking() {
                at(&mut stage, t);
                let (world_from_hold, middle) = session_knob(&stage, handedness);
                let at_hold = |p: DVec3| world_from_hold.transform_point3(p);
                let solid = rod_solid(&stage).near(&[at_hold(middle)], 0.05);
                let here = format!("{rod} {handedness:?} t={t:.3}");
                for along in [0.0, 0.005, -0.005] {
                    let p = at_hold(middle + DVec3::X * along);
                    assert!(
                        solid.winding(p).abs() > 0.5,
                        "{here}: not in the knob {along}"
                    );
                }
                for a in 0..8 {
                    let a = f64::from(a) * std::f64::consts::FRAC_PI_4;
                    let p = at_hold(middle + DVec3::new(0.0, a.cos(), a.sin()) * 0.010);
                    assert!(
                        solid.winding(p).abs() < 0.5,
                        "{here}: the knob is off round {a:.2}"
                    );
                }
                middles.push(at_hold(middle));
            }
            let spread = widest(&middles);
            assert!(
                spread > 0.04,
                "{rod}: the knob moved {:.1} mm",
                spread * 1e3
            );
        }
    }
}

/// An artist's rod's knob as drawn (`support/knob_measure.rs`), where the session cranks it.
fn drawn_knob_gap(stage: &Stage, rod: &Solid) -> KnobGap {
    let handedness = stage.inputs.state.params.handedness;
    let (world_from_hold, middle) = session_knob(stage, handedness);
    let crank = stage.props.gear.rod.crank;
    let knob = DrawnKnob::new(
        rod,
        world_from_hold * glam::DAffine3::from_translation(middle),
        (crank.knob_radius, crank.knob_length),
    );
    Box::new(move |p| knob.gap(p))
}

/// The extra rods' knobs (the surf rod's spinning reel, its knob 18.9 mm thick and 26 mm
/// long; the baitcaster's bar, its knobs 15 mm thick and 16 mm long, its arm 3 mm out of the
/// knob's base) are pinched as the bundled one, measured against the knob as the rod's mesh
/// draws it: thumb and index within [−2, +3] mm of it (a mitten's palm, where a hand has no
/// fingers), nothing of the hand deeper than 2 mm in it or anywhere else in the rod, at 7 or
/// more of the cranking instants. Before the knob's ends were flat in the contact solve (a
/// capsule's round ends reached a knob radius past them), the angler's thumb stopped 3.1-3.9
/// mm off both knobs and mannequiny's 1.9-2.1 mm off the surf rod's.
///
/// The angler either hand on both rods; mannequiny on the surf rod; RiggedFigure on both and
/// CesiumMan on the baitcaster (mittens); CesiumMan and KayKit on the surf rod calibrated
/// (by default calibration their arms reach its larger crank circle at 6 of the 13 instants;
/// `calibrate` is for that: 9 and 11). Left out, open in issue 33: mannequiny on the
/// baitcaster (its thumb 3.2-3.4 mm off: the end of the thumb's fattest capsule piece
/// touches the knob's rim where the thumb's skin already tapers) and KayKit on the
/// baitcaster (its mitten's palm 2.0 mm into the knob and 3.9 mm into the rod), calibrated
/// or not.
#[test]
fn the_extra_rods_knobs_are_pinched() {
    let angler = bundled_assets_dir().join("angler.glb");
    let mut runs = vec![
        (
            "angler",
            angler.clone(),
            Handedness::Right,
            &ROD_FILES[..],
            false,
        ),
        ("angler", angler, Handedness::Left, &ROD_FILES[..], false),
    ];
    if let Some(dir) = shared_models("knob_pinch: shared characters on the extra rods") {
        for (name, file, rods, calibrated) in [
            ("mannequiny", "mannequiny-0.3.0.glb", &ROD_FILES[..1], false),
            ("RiggedFigure", "RiggedFigure.glb", &ROD_FILES[..], false),
            ("CesiumMan", "CesiumMan.glb", &ROD_FILES[1..], false),
            ("CesiumMan", "CesiumMan.glb", &ROD_FILES[..1], true),
            (
                "KayKit",
                "KayKit_Mannequin/manny_med_mod.gltf",
                &ROD_FILES[..1],
                true,
            ),
        ] {
            runs.push((name, dir.join(file), Handedness::Right, rods, calibrated));
        }
    }
    let mut problems = Vec::new();
    for (name, file, handedness, rods, calibrated) in &runs {
        for rod in *rods {
            let mut stage = stage_on(file, Some(rod), *handedness);
            if *calibrated {
                calibrate_stage(&mut stage, 120);
            }
            let name = format!("{name} {handedness:?} on {rod} calibrated {calibrated}");
            let (mut found, hands) = pinch_problems(&name, &mut stage, &drawn_knob_gap);
            eprintln!("{name}: {hands} hands on the knob measured");
            if hands < 7 {
                problems.push(format!("{name}: only {hands} hands on the knob"));
            }
            problems.append(&mut found);
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The extra rods, as files in the bundled assets.
const ROD_FILES: [&str; 2] = ["rod_surf.glb", "rod_baitcaster.glb"];

/// The largest distance between two of `points`.
fn widest(points: &[DVec3]) -> f64 {
    points
        .iter()
        .flat_map(|a| points.iter().map(move |b| a.distance(*b)))
        .fold(0.0, f64::max)
}

/// Where the session's crank puts the knob's middle: the hold frame's, mirrored across the
/// blank for a left-handed angler (as the grips are); with the hold frame in world space.
fn session_knob(stage: &Stage, handedness: Handedness) -> (glam::DAffine3, DVec3) {
    let eval = stage.evaluation().unwrap();
    let mut in_hold = reel_handle_in_hold(&stage.props.gear.rod, eval.frames.crank).translation;
    if handedness == Handedness::Left {
        in_hold.x = -in_hold.x;
    }
    let world_from_hold = stage
        .world_from_actor
        .compose_rigid(&eval.frames.actor_from_hold)
        .to_affine();
    (world_from_hold, in_hold)
}
