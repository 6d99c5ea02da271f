//! Hands that really grip (issue 33), measured on the posed export: CPU-skinned as glTF
//! defines linear blend skinning and held against the handle's surface (see
//! `support/grip_measure.rs`). Every finger that wraps a handle touches it (its skin within
//! [−2, +3] mm of the surface), the palm is within 3 mm, and no skin of the hand is deeper
//! than 2 mm inside; mitten hands: the palm touches and nothing is deeper than 2 mm. At the
//! seated hold and at every instant sampled across the session where a hand holds the rod or
//! the net. The skin is its surface: the vertices and the triangles between them, sampled
//! every 2 mm (a box hand meets a handle with a face). Asserted for every character and rod
//! (the lists on the tests below). With the contact solve switched off the same measure fails.
//!
//! The handle's radius profile is not all of the rod: `support/prop_solid.rs` holds the skin
//! against the rod's mesh as drawn (reel, stem, trigger, seat). The bundled angler on the
//! bundled and surf rods is asserted against it here, and mannequiny, CesiumMan and
//! RiggedFigure on the same rods once calibrated; the front hand on the spinning rods in
//! `reel_stem.rs`. The diagnostic `print_skin_inside_the_rod` lists what still sinks in, by
//! default or calibrated (`ANGLERPOSE_CALIBRATED=1`), with each arm's shortfall and slide
//! (open in issue 33, calibrated: KayKit's mitten in the bundled spinning reel's body,
//! 6-12 mm, where its arm brings it back toward the reel to reach, and its palms on the
//! baitcaster's reel, 2-5 mm). A mitten on a spinning rod rests behind the reel:
//! `a_mitten_rests_behind_a_spinning_reel`; both hands on a baitcaster (the front hand
//! behind its trigger, the knob hand clear of its crank):
//! `a_baitcasters_hands_rest_behind_its_trigger_and_clear_its_crank`.

mod support;

use anglerpose::fishing::{FingerRole, GripKind, GripStyle, Handedness, Phase, SessionState};
use anglerpose::rig::{Finger, Side};
use anglerpose::stage::{Stage, bundled_assets_dir};
use support::gltf_edit::shared_models;
use support::grip_measure::{handle, measure, posed_skin};
use support::grip_stage::{MANNEQUINY, calibrate_stage, characters, session_instants, stage_on};
use support::prop_solid::rod_solid;

const TOUCH: (f64, f64) = (-0.002, 0.003);
const PALM: f64 = 0.003;
const DEEPEST: f64 = -0.002;

/// The shared characters measured beside the bundled angler.
const SHARED: [(&str, &str); 4] = [
    MANNEQUINY,
    ("CesiumMan", "CesiumMan.glb"),
    ("RiggedFigure", "RiggedFigure.glb"),
    ("KayKit", "KayKit_Mannequin/manny_med_mod.gltf"),
];

/// Everything wrong with the stage's grips at its current pose, and how many hands and
/// fingers were measured.
///
fn problems(name: &str, stage: &Stage, out: &mut Vec<String>) -> (usize, usize) {
    let eval = *stage.evaluation().unwrap();
    let skin = posed_skin(stage);
    let (mut hands, mut fingers) = (0, 0);
    for side in [Side::Left, Side::Right] {
        let grip = eval.frames.grips.get(side);
        let w = grip.hold.blend;
        let kind = grip.hold.main();
        let holding = (w == 0.0 || w == 1.0) && grip.opening == 1.0;
        if !holding || kind == GripKind::ReelHandle {
            continue;
        }
        let report = eval.arms.get(side);
        if !report.ik.reached {
            continue;
        }
        hands += 1;
        let h = handle(stage, kind);
        let m = measure(&skin, side, &h);
        let s = &stage.inputs.state;
        let at = format!("{name} {:?} t={:.2} {side:?} on {kind:?}", s.phase, s.t);
        let style = GripStyle::for_grip(
            kind,
            &stage.actor.gear,
            stage.inputs.calibration.hands.get(side),
        );
        let mut deepest = m.palm;
        for (finger, gap) in &m.fingers {
            deepest = deepest.min(*gap);
            if !matches!(style.role(*finger), FingerRole::Wrap | FingerRole::Along) {
                continue;
            }
            fingers += 1;
            if !(TOUCH.0..=TOUCH.1).contains(gap) {
                out.push(format!(
                    "{at}: {finger:?} {:.1} mm off the surface",
                    gap * 1e3
                ));
            }
        }
        if m.palm > PALM {
            out.push(format!("{at}: palm {:.1} mm off the surface", m.palm * 1e3));
        }
        if deepest < DEEPEST {
            out.push(format!("{at}: skin {:.1} mm inside", -deepest * 1e3));
        }
    }
    (hands, fingers)
}

fn check_session(name: &str, stage: &mut Stage, out: &mut Vec<String>) -> (usize, usize) {
    let (mut hands, mut fingers) = (0, 0);
    for (phase, t) in session_instants() {
        stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
        stage.update().unwrap();
        let (h, f) = problems(name, stage, out);
        hands += h;
        fingers += f;
    }
    (hands, fingers)
}

fn strict(characters: &[(String, std::path::PathBuf)], rods: &[Option<&str>]) {
    let mut out = Vec::new();
    for (name, file) in characters {
        for rod in rods {
            let mut stage = stage_on(file, *rod, Handedness::Right);
            let with_fingers = stage.actor.arm(Side::Right).fingers.len() >= 5;
            let label = format!("{name} on {}", rod.unwrap_or("rod.glb"));
            let (hands, fingers) = check_session(&label, &mut stage, &mut out);
            eprintln!("{label}: {hands} hands, {fingers} fingers measured");
            if hands < 30 {
                out.push(format!("{label}: only {hands} hands held a handle"));
            }
            if with_fingers && fingers < 5 * hands {
                out.push(format!("{label}: {fingers} fingers of {hands} hands"));
            }
        }
    }
    assert!(
        out.is_empty(),
        "{} problems:\n{}",
        out.len(),
        out.join("\n")
    );
}

const ROD_FILES: [Option<&str>; 3] = [None, Some("rod_surf.glb"), Some("rod_baitcaster.glb")];

/// The whole measure on every shared character and rod: mannequiny (fingers, thumbs
/// included) and the mittens CesiumMan, KayKit and RiggedFigure on all three rods. With the
/// bundled angler's test below, every character the suite has.
#[test]
fn shared_characters_touch_every_handle_they_hold_and_nothing_passes_through() {
    let Some(dir) = shared_models("grip_contact: shared characters") else {
        return;
    };
    let cases: [(&str, &str, &[Option<&str>]); 4] = [
        ("mannequiny", "mannequiny-0.3.0.glb", &ROD_FILES),
        ("CesiumMan", "CesiumMan.glb", &ROD_FILES),
        ("KayKit", "KayKit_Mannequin/manny_med_mod.gltf", &ROD_FILES),
        ("RiggedFigure", "RiggedFigure.glb", &ROD_FILES),
    ];
    for (name, file, rods) in cases {
        strict(&[(name.to_string(), dir.join(file))], rods);
    }
}

/// The bundled angler on all three rods: the palm and all five fingers touch at every
/// instant, and nothing of its hands is deeper than 2 mm.
#[test]
fn bundled_angler_palm_and_fingers_touch_every_handle() {
    let angler = (
        "angler".to_string(),
        bundled_assets_dir().join("angler.glb"),
    );
    strict(&[angler], &ROD_FILES);
}

#[test]
fn without_the_contact_solve_the_grip_fails_the_same_measure() {
    let files = characters("grip_contact: mannequiny", &[MANNEQUINY]);
    for (name, file) in files {
        let mut stage = stage_on(&file, None, Handedness::Right);
        stage.inputs.settings.finger_contact = false;
        let mut out = Vec::new();
        let (hands, _) = check_session(&format!("{name} (parametric curl)"), &mut stage, &mut out);
        assert!(hands >= 30, "{name}: {hands} hands");
        // Most held hands fail it.
        assert!(
            out.len() >= hands,
            "{name}: the parametric curl nearly passes the contact measure: {out:?}"
        );
    }
}

#[test]
fn the_solver_reports_what_the_export_measures() {
    let Some(dir) = shared_models("grip_contact: mannequiny") else {
        return;
    };
    let file = dir.join(MANNEQUINY.1);
    let mut stage = stage_on(&file, None, Handedness::Right);
    stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
    stage.update().unwrap();
    let eval = *stage.evaluation().unwrap();
    let skin = posed_skin(&stage);
    let mut compared = 0;
    for side in [Side::Left, Side::Right] {
        if !eval.arms.get(side).ik.reached {
            continue;
        }
        compared += 1;
        let kind = eval.frames.grips.get(side).hold.main();
        let m = measure(&skin, side, &handle(&stage, kind));
        let report = &eval.arms.get(side).contact;
        assert!(report.solved);
        for (finger, gap) in &m.fingers {
            let i = Finger::ALL.iter().position(|f| f == finger).unwrap();
            let r = report.fingers[i].expect("a contact per finger");
            assert!(r.touches, "{side:?} {finger:?}: {r:?}");
            // The capsule's gap and the skin's differ by the capsule's fit.
            assert!(
                (r.gap - gap).abs() < 0.003,
                "{side:?} {finger:?}: solver {:.1} mm, skin {:.1} mm",
                r.gap * 1e3,
                gap * 1e3
            );
        }
    }
    assert!(compared >= 1, "no hand reached its grip");
}

#[test]
#[ignore = "diagnostic: prints each hand's contact, palm and fingers at the seated hold"]
fn print_seated_grips() {
    let files = characters("grip_contact: shared characters", &SHARED);
    for (name, file) in files {
        let stage = stage_on(&file, None, Handedness::Right);
        let eval = *stage.evaluation().unwrap();
        let skin = posed_skin(&stage);
        for side in [Side::Left, Side::Right] {
            let kind = eval.frames.grips.get(side).hold.main();
            let m = measure(&skin, side, &handle(&stage, kind));
            let c = &eval.arms.get(side).contact;
            let solver: Vec<String> = c
                .fingers
                .iter()
                .map(|f| f.map_or("-".into(), |f| format!("{:.1}", f.gap * 1e3)))
                .collect();
            let skin: Vec<String> = m
                .fingers
                .iter()
                .map(|(f, g)| format!("{f:?} {:.1}", g * 1e3))
                .collect();
            eprintln!(
                "{name} {side:?} {kind:?} reached {}: palm {:.1} deepest {:.1} | skin {} | solver {}",
                eval.arms.get(side).ik.reached,
                m.palm * 1e3,
                m.deepest * 1e3,
                skin.join(", "),
                solver.join(" ")
            );
        }
    }
}

#[test]
#[ignore = "diagnostic: where on a character's hands (the bundled angler's, or ANGLERPOSE_NEAREST_MODEL's) the skin is nearest the handle"]
fn print_palm_nearest() {
    let file = std::env::var_os("ANGLERPOSE_NEAREST_MODEL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| bundled_assets_dir().join("angler.glb"));
    let stage = stage_on(&file, None, Handedness::Right);
    let eval = *stage.evaluation().unwrap();
    let skin = posed_skin(&stage);
    for side in [Side::Left, Side::Right] {
        let kind = eval.frames.grips.get(side).hold.main();
        let h = handle(&stage, kind);
        let mut rows: Vec<(f64, String, glam::DVec3)> = Vec::new();
        for (part, posed) in &skin.parts {
            let bind = &skin.in_hand_at_bind[part];
            for (p, b) in posed.iter().zip(bind) {
                rows.push((h.gap(*p), format!("{part:?}"), *b));
            }
        }
        rows.retain(|r| r.1.contains(&format!("{side:?}")));
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        eprintln!("--- {side:?}");
        for r in rows.iter().take(25) {
            eprintln!(
                "{:6.1} mm {:28} at bind in hand {:.3?}",
                r.0 * 1e3,
                r.1,
                r.2
            );
        }
        let mut palm: Vec<_> = rows.iter().filter(|r| r.1.starts_with("Palm")).collect();
        palm.truncate(15);
        for r in palm {
            eprintln!("palm {:6.1} mm at bind in hand {:.3?}", r.0 * 1e3, r.2);
        }
    }
}

#[test]
#[ignore = "diagnostic: each character's palm length and palm point count"]
fn print_palm_sizes() {
    for (name, file) in characters("grip_contact: shared characters", &SHARED) {
        let stage = stage_on(&file, None, Handedness::Right);
        for side in [Side::Left, Side::Right] {
            let arm = stage.actor.arm(side);
            eprintln!(
                "{name} {side:?}: palm length {:.4} m, {} palm points",
                arm.hand_frame.palm_length,
                arm.shape.palm.len()
            );
        }
    }
}

/// Each hand part deeper than 2 mm inside the rod's mesh (reel, trigger and seat included)
/// at the measured instants, as (where, how deep), over every hand whatever it holds.
fn inside_the_rod(name: &str, stage: &mut Stage) -> Vec<(String, f64)> {
    inside_the_rod_of(name, stage, None)
}

/// [`inside_the_rod`] for `only` one hand's parts (`None`: both).
fn inside_the_rod_of(name: &str, stage: &mut Stage, only: Option<Side>) -> Vec<(String, f64)> {
    inside_the_rod_where(name, stage, only, &|_| true)
}

/// [`inside_the_rod_of`] at the instants where `keep` holds of the stage as posed there.
fn inside_the_rod_where(
    name: &str,
    stage: &mut Stage,
    only: Option<Side>,
    keep: &dyn Fn(&Stage) -> bool,
) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (phase, t) in session_instants() {
        stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
        stage.update().unwrap();
        if !keep(stage) {
            continue;
        }
        let skin = posed_skin(stage);
        let solid = rod_solid(stage);
        let mut parts: Vec<_> = skin.parts.iter().collect();
        parts.sort_by_key(|(p, _)| format!("{p:?}"));
        for (part, points) in parts {
            if only.is_some_and(|side| part.side() != side) {
                continue;
            }
            let near = solid.near(points, 0.01);
            if near.triangles.is_empty() {
                continue;
            }
            let (deepest, at) = points
                .iter()
                .filter_map(|p| near.depth(*p).map(|d| (d, *p)))
                .fold(
                    (0.0, glam::DVec3::ZERO),
                    |a, b| if b.0 > a.0 { b } else { a },
                );
            if deepest > -DEEPEST {
                let q = solid.rod_from_world.transform_point3(at);
                let arm = stage.evaluation().unwrap().arms.get(part.side());
                out.push((
                    format!(
                        "{name} {phase:?} t={t:.2} {part:?} (at {:.0} mm along the rod, {:.1} mm off its axis; arm short {:.0} mm, slid {:.0} mm)",
                        q.y * 1e3,
                        q.x.hypot(q.z) * 1e3,
                        arm.short_of_grip.max(arm.ik.residual) * 1e3,
                        arm.grip_slide * 1e3,
                    ),
                    deepest,
                ));
            }
        }
    }
    out
}

/// The "nothing passes through" taken to the rod as drawn: the bundled angler's hands
/// on the bundled rod and on the surf rod never sink deeper than 2 mm into its mesh (the
/// reel's stem and foot, the seat's hoods, the surf rod's long butt, which the rear hand
/// holds where it reaches: `reach_slide.rs`), whatever they hold, at every measured instant.
#[test]
fn nothing_of_the_anglers_hands_is_inside_the_bundled_or_surf_rods_mesh() {
    let mut found = Vec::new();
    for rod in [None, Some("rod_surf.glb")] {
        let mut stage = stage_on(
            &bundled_assets_dir().join("angler.glb"),
            rod,
            Handedness::Right,
        );
        let label = format!("angler on {}", rod.unwrap_or("rod.glb"));
        found.extend(inside_the_rod(&label, &mut stage));
    }
    assert_nothing_inside(&found);
}

/// The same for the shared characters with fingers or small mittens, as an artist gets them
/// after `calibrate` (every arm reaches), on the two spinning rods: mannequiny's fingers round
/// the stem, CesiumMan's and RiggedFigure's mittens behind it. (KayKit's mitten, a ball as
/// wide as the reel is deep, rests behind the reel where its arm reaches so far back:
/// `a_mitten_rests_behind_a_spinning_reel`. The baitcaster's hands are checked below.)
#[test]
fn nothing_of_calibrated_shared_hands_is_inside_the_spinning_rods_mesh() {
    let Some(dir) = shared_models("grip_contact: calibrated shared characters") else {
        return;
    };
    let mut found = Vec::new();
    // The shared characters whose hands reach at every instant (KayKit's mitten: above).
    for &(name, file) in &SHARED[..3] {
        for rod in [None, Some("rod_surf.glb")] {
            let mut stage = stage_on(&dir.join(file), rod, Handedness::Right);
            calibrate_stage(&mut stage, 120);
            let label = format!("{name} on {} calibrated", rod.unwrap_or("rod.glb"));
            found.extend(inside_the_rod(&label, &mut stage));
        }
    }
    assert_nothing_inside(&found);
}

/// A mitten cannot pass a spinning reel's stem between fingers it does not have: it rests
/// behind the stem and the reel's body (`GripStyle::for_hand`), against the body's back, where
/// its arm reaches so far back. Every shared mitten's front hand (KayKit's, a ball as wide as
/// the reel is deep, too), calibrated, on the two spinning rods: at every instant where it
/// rests all the way behind, nothing of it is inside the rod as drawn (before: KayKit's
/// 9.1-9.3 mm into the reel's body at every instant), and it rests all the way behind at two
/// thirds of the instants or more (where its arm cannot reach so far back it comes back toward
/// the reel, `HandContact::post_back`: KayKit on the bundled rod at the cast, strike and
/// landing). KayKit's did move back along the handle.
#[test]
fn a_mitten_rests_behind_a_spinning_reel() {
    let Some(dir) = shared_models("grip_contact: shared mittens") else {
        return;
    };
    let mut found = Vec::new();
    for &(name, file) in &SHARED[1..] {
        for rod in [None, Some("rod_surf.glb")] {
            let mut stage = stage_on(&dir.join(file), rod, Handedness::Right);
            assert!(
                stage.actor.arm(Side::Right).contact.is_empty(),
                "{name} has fingers"
            );
            calibrate_stage(&mut stage, 120);
            let label = format!("{name} on {} calibrated", rod.unwrap_or("rod.glb"));
            let back = std::cell::Cell::new(0);
            let all_behind = |stage: &Stage| {
                let c = stage.evaluation().unwrap().arms.right.contact;
                back.set(back.get() + usize::from(c.post_back > 0.0));
                c.post_back == 0.0
            };
            found.extend(inside_the_rod_where(
                &label,
                &mut stage,
                Some(Side::Right),
                &all_behind,
            ));
            let n = session_instants().len();
            assert!(
                3 * back.get() <= n,
                "{label}: came back toward the reel at {} of {n} instants",
                back.get()
            );
            stage.inputs.state =
                SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
            stage.update().unwrap();
            let eval = stage.evaluation().unwrap();
            let shift = eval.arms.right.contact.post_shift;
            // KayKit's ball was in the reel's body; the small mittens beside the stem may
            // already be clear of it.
            let least = if name == "KayKit" { 0.01 } else { 0.0 };
            assert!(
                shift >= least && shift < 0.25,
                "{label}: the mitten moved {shift} m behind the reel"
            );
        }
    }
    assert_nothing_inside(&found);
}

/// A baitcaster's front hand rests behind its trigger and reel (`GripStyle::behind_post`),
/// and the hand on its knob keeps clear of its crank (`fishing::crank_clear`): the angler's
/// (right- and left-handed) and mannequiny's, by default and calibrated, keep every part of
/// both hands out of the rod's mesh at every instant (before: the front index and middle
/// 8-16 mm into the reel's body at every instant; the knob hand's index 2.5-2.7 mm into the
/// crank's bar, which stands 3 mm out of the knob's base, and a free finger 3.5-3.6 mm into
/// the bar's other knob, at the retrieve), and the front hand did move back along the handle
/// to do so.
#[test]
fn a_baitcasters_hands_rest_behind_its_trigger_and_clear_its_crank() {
    let files = characters("grip_contact: mannequiny", &[MANNEQUINY]);
    let mut found = Vec::new();
    let mut cases = 0;
    for (name, file) in files {
        for (handedness, calibrated) in [
            (Handedness::Right, false),
            (Handedness::Right, true),
            (Handedness::Left, false),
        ] {
            let mut stage = stage_on(&file, Some("rod_baitcaster.glb"), handedness);
            if calibrated {
                calibrate_stage(&mut stage, 120);
            }
            let front = match handedness {
                Handedness::Right => Side::Right,
                Handedness::Left => Side::Left,
            };
            let label = format!("{name} {handedness:?}-handed calibrated {calibrated}");
            found.extend(inside_the_rod_of(&label, &mut stage, None));
            stage.inputs.state =
                SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
            stage.update().unwrap();
            let shift = stage
                .evaluation()
                .unwrap()
                .arms
                .get(front)
                .contact
                .post_shift;
            assert!(
                (0.03..0.2).contains(&shift),
                "{label}: the front hand moved {shift} m behind the trigger"
            );
            cases += 1;
        }
    }
    assert!(cases >= 3, "{cases} cases");
    assert_nothing_inside(&found);
}

/// Fails listing every part of `found` ([`inside_the_rod`]'s) with its depth.
fn assert_nothing_inside(found: &[(String, f64)]) {
    assert!(
        found.is_empty(),
        "{} parts inside:\n{}",
        found.len(),
        found
            .iter()
            .map(|(at, d)| format!("{at}: {:.1} mm", d * 1e3))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "diagnostic: every hand part deeper than 2 mm inside the rod's mesh, per character and rod (ANGLERPOSE_CALIBRATED=1: calibrated first; open in issue 33)"]
fn print_skin_inside_the_rod() {
    let mut files = characters("grip_contact: shared characters", &SHARED);
    if let Ok(f) = std::env::var("ANGLERPOSE_NEAREST_MODEL") {
        files = vec![("model".to_string(), std::path::PathBuf::from(f))];
    }
    for (name, file) in files {
        for rod in ROD_FILES {
            let mut stage = stage_on(&file, rod, Handedness::Right);
            let mut label = format!("{name} on {}", rod.unwrap_or("rod.glb"));
            if std::env::var("ANGLERPOSE_CALIBRATED").is_ok_and(|v| v == "1") {
                calibrate_stage(&mut stage, 120);
                label += " calibrated";
            }
            for (at, d) in inside_the_rod(&label, &mut stage) {
                eprintln!("{at}: {:.1} mm", d * 1e3);
            }
        }
    }
}
