//! VRM characters (issue 35, item 2): a glTF that declares its humanoid (VRM 1.0 `VRMC_vrm`,
//! VRM 0.x `VRM`, `humanBones`) is mapped by the declaration, names and topology filling only
//! what it leaves out; `.vrm` files open like `.glb`, seat and calibrate exactly like the glTF
//! they were made from; `inspect` says where each role came from; a malformed declaration is
//! a warning and the file still loads. Built from a shared
//! model whose nodes are renamed so that name guessing fails (skipped when absent).

mod support;

use anglerpose::gltf_io::{self, Character};
use anglerpose::rig::{ArmPart, BodyRole, Finger, HumanoidMap, MapMethod, Role, Side};
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::fs::{bin, fresh_scratch, stdout_ok};
use support::gltf_edit::{Doc, shared_models};

/// The VRM human bone name of an arm role (`vrm0`: VRM 0.x thumb joint names).
fn arm_name(role: Role, vrm0: bool) -> Option<String> {
    let part = match role.part {
        ArmPart::Clavicle => "Shoulder".to_string(),
        ArmPart::UpperArm => "UpperArm".to_string(),
        ArmPart::Forearm => "LowerArm".to_string(),
        ArmPart::Hand => "Hand".to_string(),
        ArmPart::Finger(f, j) => {
            let joint = match (f, j, vrm0) {
                (Finger::Thumb, 1, false) => "Metacarpal",
                (Finger::Thumb, 2, false) => "Proximal",
                (Finger::Thumb, 3, false) => "Distal",
                (_, 1, _) => "Proximal",
                (_, 2, _) => "Intermediate",
                (_, 3, _) => "Distal",
                _ => return None,
            };
            let mut finger = f.name().to_string();
            finger[..1].make_ascii_uppercase();
            format!("{finger}{joint}")
        }
    };
    Some(format!("{}{part}", role.side.name()))
}

/// Every role of `map` as VRM human bones (name, node): arms, fingers, hips, the first
/// three spine bones as spine, chest and upper chest, neck, head and legs.
fn human_bones(map: &HumanoidMap, vrm0: bool) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = map
        .roles()
        .into_iter()
        .filter_map(|(role, bone)| Some((arm_name(role, vrm0)?, bone)))
        .collect();
    let body = map.body.as_ref().expect("a body");
    for (role, bone) in body.roles() {
        let name = match role {
            BodyRole::Hips => "hips".to_string(),
            BodyRole::Spine(1) => "spine".to_string(),
            BodyRole::Spine(2) => "chest".to_string(),
            BodyRole::Spine(3) => "upperChest".to_string(),
            BodyRole::Spine(_) => continue,
            BodyRole::Neck => "neck".to_string(),
            BodyRole::Head => "head".to_string(),
            BodyRole::Thigh(s) => format!("{}UpperLeg", s.name()),
            BodyRole::Shin(s) => format!("{}LowerLeg", s.name()),
            BodyRole::Foot(s) => format!("{}Foot", s.name()),
            BodyRole::Toe(s) => format!("{}Toes", s.name()),
        };
        out.push((name, bone));
    }
    out
}

/// `doc` with the humanoid `bones` declared as VRM 1.0 or (`vrm0`) 0.x.
fn declare(doc: &mut Doc, bones: &[(String, usize)], vrm0: bool) {
    let (key, ext) = if vrm0 {
        let list: Vec<Value> = bones
            .iter()
            .map(|(name, node)| json!({"bone": name, "node": node, "useDefaultValues": true}))
            .collect();
        (
            "VRM",
            json!({"specVersion": "0.0", "humanoid": {"humanBones": list}}),
        )
    } else {
        let map: serde_json::Map<String, Value> = bones
            .iter()
            .map(|(name, node)| (name.clone(), json!({"node": node})))
            .collect();
        (
            "VRMC_vrm",
            json!({"specVersion": "1.0", "humanoid": {"humanBones": map}}),
        )
    };
    doc.json["extensions"] = json!({ key: ext });
    doc.json["extensionsUsed"] = json!([key]);
}

/// Every node renamed to `node_NNN`: no bone name says what it is.
fn anonymous(doc: &mut Doc) {
    for (k, node) in doc.json["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        node["name"] = json!(format!("node_{k:03}"));
    }
}

/// `file` with every node renamed (see [`anonymous`]) and `want`'s roles declared as VRM 1.0
/// or (`vrm0`) 0.x, written to `dir` as `name`.
fn anonymous_vrm(file: &Path, want: &HumanoidMap, vrm0: bool, dir: &Path, name: &str) -> PathBuf {
    let mut doc = Doc::read(file);
    anonymous(&mut doc);
    declare(&mut doc, &human_bones(want, vrm0), vrm0);
    write(dir, name, &doc)
}

fn write(dir: &Path, name: &str, doc: &Doc) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, doc.bytes()).unwrap();
    path
}

fn model() -> Option<PathBuf> {
    Some(shared_models("vrm")?.join("mannequiny-0.3.0.glb"))
}

fn body_roles(map: &HumanoidMap) -> Vec<(BodyRole, usize)> {
    map.body.as_ref().map(|b| b.roles()).unwrap_or_default()
}

/// With names that say nothing, the declaration alone gives exactly the map names gave the
/// original file, in both VRM versions; without it the renamed file maps differently.
#[test]
fn a_vrm_maps_exactly_by_its_declaration() {
    let Some(file) = model() else { return };
    let original = gltf_io::load(&file).unwrap();
    let want = original.detect_humanoid();
    assert_eq!(want.method, MapMethod::Names);
    assert!(want.roles().len() >= 30, "{:?}", want.roles());
    let dir = fresh_scratch("vrm_declared");
    let mut doc = Doc::read(&file);
    anonymous(&mut doc);
    let guessed = gltf_io::load(write(&dir, "anonymous.glb", &doc)).unwrap();
    let guessed = guessed.detect_humanoid();
    assert!(
        guessed.roles() != want.roles() || body_roles(&guessed) != body_roles(&want),
        "names that say nothing still gave the same map: the test proves nothing"
    );
    for vrm0 in [false, true] {
        let name = if vrm0 { "v0.vrm" } else { "v1.vrm" };
        let path = anonymous_vrm(&file, &want, vrm0, &dir, name);
        let c = gltf_io::load(&path).unwrap();
        let got = c.detect_humanoid();
        let version = if vrm0 { "VRM 0.x" } else { "VRM 1.0" };
        assert_eq!(got.declared_by.as_deref(), Some(version));
        assert_eq!(got.method, MapMethod::Declared, "{:?}", got.notes);
        assert_eq!(got.roles(), want.roles(), "{version}");
        assert_eq!(body_roles(&got), body_roles(&want), "{version}");
        assert_eq!(got.body.as_ref().unwrap().method, MapMethod::Declared);
        // Every role but the spine's fourth and higher bones was declared.
        for (role, _) in got.roles() {
            assert!(
                got.declared.contains(&role.to_string()),
                "{version}: {role}"
            );
        }
        for (role, _) in body_roles(&got) {
            let declared = got.declared.contains(&role.to_string());
            assert!(
                declared || matches!(role, BodyRole::Spine(k) if k > 3),
                "{version}: {role}"
            );
        }
    }
}

/// Names and topology fill what a declaration leaves out: arms and body declared, fingers
/// not, the fingers come from the bones' names.
#[test]
fn names_fill_what_the_declaration_leaves_out() {
    let Some(file) = model() else { return };
    let want = gltf_io::load(&file).unwrap().detect_humanoid();
    let bones: Vec<(String, usize)> = human_bones(&want, false)
        .into_iter()
        .filter(|(name, _)| {
            !["Thumb", "Index", "Middle", "Ring", "Little"]
                .iter()
                .any(|f| name.contains(f))
        })
        .collect();
    let mut doc = Doc::read(&file);
    declare(&mut doc, &bones, false);
    let dir = fresh_scratch("vrm_partial");
    let got = gltf_io::load(write(&dir, "partial.vrm", &doc))
        .unwrap()
        .detect_humanoid();
    assert_eq!(got.roles(), want.roles());
    let left = got.arm(Side::Left).unwrap();
    assert!(!left.finger(Finger::Index).is_empty());
    assert!(got.declared.contains(&"left.hand".to_string()));
    assert!(
        !got.declared.iter().any(|r| r.contains("index")),
        "{:?}",
        got.declared
    );
}

/// A `.vrm` seats and holds the rod exactly like the glTF it was made from (every joint where
/// the glTF's is, the same arm solves); `inspect` names
/// the declaration and each role's source.
#[test]
fn a_vrm_seats_like_its_gltf_and_inspect_names_the_sources() {
    let Some(file) = model() else { return };
    let original = gltf_io::load(&file).unwrap();
    let want = original.detect_humanoid();
    let dir = fresh_scratch("vrm_stage");
    let path = anonymous_vrm(&file, &want, false, &dir, "mannequiny.vrm");
    let props = || Props::load(&bundled_assets_dir()).unwrap();
    let mut a = Stage::new(original, props()).unwrap();
    let mut b = Stage::new(gltf_io::load(&path).unwrap(), props()).unwrap();
    a.update().unwrap();
    b.update().unwrap();
    for bone in 0..a.pose.len() {
        let d = a
            .pose
            .world_position(bone)
            .distance(b.pose.world_position(bone));
        assert!(d < 1e-9, "bone {bone} {d} m apart");
    }
    for side in [Side::Left, Side::Right] {
        let (ea, eb) = (a.evaluation().unwrap(), b.evaluation().unwrap());
        let hand = a.actor.arm(side).hand;
        let d = a
            .pose
            .world_position(hand)
            .distance(b.pose.world_position(hand));
        assert!(d < 1e-9, "{side:?} hand {d} m apart");
        assert_eq!(ea.arms.get(side).ik, eb.arms.get(side).ik);
    }
    let out = stdout_ok(bin().args(["inspect", "--json"]).arg(&path));
    let j: Value = serde_json::from_str(&out).unwrap();
    let h = &j["humanoid"];
    assert_eq!(h["method"], "declared");
    assert_eq!(h["declared_by"], "VRM 1.0");
    assert_eq!(h["sources"]["left.hand"], "declared");
    assert_eq!(h["sources"]["right.index.1"], "declared");
    assert_eq!(h["sources"]["hips"], "declared");
    let text = stdout_ok(bin().arg("inspect").arg(&path));
    assert!(text.contains("declared by the file (VRM 1.0)"), "{text}");
}

/// A declaration that names a node the file lacks, or one node twice, is a warning naming the
/// problem; the file loads and maps by names as if it declared nothing.
#[test]
fn a_broken_declaration_is_a_warning_and_names_take_over() {
    let Some(file) = model() else { return };
    let want = gltf_io::load(&file).unwrap().detect_humanoid();
    let nodes = Doc::read(&file).json["nodes"].as_array().unwrap().len();
    let dir = fresh_scratch("vrm_broken");
    for (label, bones, problem) in [
        (
            "past",
            vec![("hips".to_string(), nodes + 5)],
            format!("hips is node {}", nodes + 5),
        ),
        (
            "twice",
            vec![("hips".to_string(), 1), ("spine".to_string(), 1)],
            "node 1 is declared as both hips and spine".to_string(),
        ),
    ] {
        let mut doc = Doc::read(&file);
        declare(&mut doc, &bones, false);
        let c: Character = gltf_io::load(write(&dir, &format!("{label}.vrm"), &doc)).unwrap();
        assert!(
            c.warnings.iter().any(|w| w.contains("VRM humanoid declaration is not used")
                && w.contains(&problem)),
            "{label}: {:?}",
            c.warnings
        );
        let got = c.detect_humanoid();
        assert_eq!(got.declared_by, None);
        assert_eq!(got.roles(), want.roles());
    }
}

/// Calibrated, the `.vrm` and the glTF it was made from give the same preset: the same grip
/// offsets, poles and report (reach, flips), exactly.
#[test]
fn a_vrm_calibrates_exactly_like_its_gltf() {
    let Some(file) = model() else { return };
    let original = gltf_io::load(&file).unwrap();
    let want = original.detect_humanoid();
    let dir = fresh_scratch("vrm_calibrate");
    let path = anonymous_vrm(&file, &want, true, &dir, "mannequiny.vrm");
    let (calib_a, report_a) = support::checks::calibrated(original, 120);
    let (calib_b, report_b) = support::checks::calibrated(gltf_io::load(&path).unwrap(), 120);
    assert_eq!(calib_a, calib_b);
    assert_eq!(report_a.reached_fraction, report_b.reached_fraction);
    assert_eq!(report_a.flips, report_b.flips);
    assert_eq!(report_a.per_arm, report_b.per_arm);
}

/// A declared arm that is not a chain (its hand above its shoulder) or a finger that does not
/// run down from its hand is left to names, with a note saying so.
#[test]
fn a_declaration_that_does_not_hang_together_is_left_to_names() {
    let Some(file) = model() else { return };
    let original = gltf_io::load(&file).unwrap();
    let want = original.detect_humanoid();
    // A bone no role has and above every arm: the skeleton's root.
    let root = (0..original.skeleton.len())
        .find(|&b| original.skeleton.parent(b).is_none())
        .unwrap();
    assert!(!want.roles().iter().any(|&(_, b)| b == root));
    let right_index = want.arm(Side::Right).unwrap().finger(Finger::Index)[0];
    let bones: Vec<(String, usize)> = human_bones(&want, false)
        .into_iter()
        .map(|(name, bone)| match name.as_str() {
            "leftHand" => (name, root),
            "rightMiddleProximal" => (name, right_index),
            _ => (name, bone),
        })
        .filter(|(name, _)| name != "rightIndexProximal")
        .collect();
    let mut doc = Doc::read(&file);
    declare(&mut doc, &bones, false);
    let dir = fresh_scratch("vrm_not_a_chain");
    let got = gltf_io::load(write(&dir, "crossed.vrm", &doc))
        .unwrap()
        .detect_humanoid();
    // The left arm and the right middle finger as names give them (the right index keeps
    // its two declared joints: a finger with declared joints takes them).
    let (g, w) = (got.arm(Side::Left).unwrap(), want.arm(Side::Left).unwrap());
    assert_eq!(
        (g.upper_arm, g.forearm, g.hand),
        (w.upper_arm, w.forearm, w.hand)
    );
    let middle = |m: &HumanoidMap| m.arm(Side::Right).unwrap().finger(Finger::Middle).to_vec();
    assert_eq!(middle(&got), middle(&want));
    let said = |what: &str| got.notes.iter().any(|n| n.contains(what));
    assert!(
        said("the declared left arm is not a chain"),
        "{:?}",
        got.notes
    );
    assert!(
        said("the declared right middle finger does not run down from the hand"),
        "{:?}",
        got.notes
    );
    assert!(!got.declared.contains(&"left.hand".to_string()));
    assert!(got.declared.contains(&"right.hand".to_string()));
}
