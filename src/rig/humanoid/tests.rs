//! Synthetic skeletons: exact bundled-angler names, other naming styles, unnamed (topology),
//! a quadruped, overrides. Bones get arbitrary local rotations so nothing can rely on
//! "+Y along the bone".

use super::*;
use crate::rig::{Bone, Transform};
use glam::DQuat;

/// (name, parent, world position). Local frames are rotated arbitrarily per bone.
fn build(spec: &[(String, Option<usize>, DVec3)]) -> (Skeleton, Pose) {
    let world_rot = |i: usize| {
        DQuat::from_axis_angle(
            DVec3::new(1.0, 2.0 + i as f64, -0.5 * i as f64).normalize(),
            0.3 + 0.7 * i as f64,
        )
    };
    let bones = spec
        .iter()
        .enumerate()
        .map(|(i, (name, parent, p))| {
            let (t, r) = match parent {
                None => (*p, world_rot(i)),
                Some(q) => {
                    let pr = world_rot(*q);
                    (
                        pr.inverse() * (*p - spec[*q].2),
                        pr.inverse() * world_rot(i),
                    )
                }
            };
            Bone {
                name: name.clone(),
                parent: *parent,
                rest: Transform::new(t, r, DVec3::ONE),
            }
        })
        .collect();
    let skel = Skeleton::new(bones).unwrap();
    let pose = Pose::rest(&skel);
    (skel, pose)
}

/// A T-posed angler-like figure facing +Z (left at +X), with the bundled angler's bone names
/// passed through `rename(base, side_suffix)`.
fn figure(rename: &dyn Fn(&str, &str) -> String) -> Vec<(String, Option<usize>, DVec3)> {
    let mut s: Vec<(String, Option<usize>, DVec3)> = Vec::new();
    let add = |s: &mut Vec<(String, Option<usize>, DVec3)>, n: String, p: Option<usize>, v| {
        s.push((n, p, v));
        s.len() - 1
    };
    let root = add(&mut s, rename("root", ""), None, DVec3::ZERO);
    let pelvis = add(
        &mut s,
        rename("pelvis", ""),
        Some(root),
        DVec3::new(0.0, 0.93, 0.0),
    );
    let sp1 = add(
        &mut s,
        rename("spine_01", ""),
        Some(pelvis),
        DVec3::new(0.0, 1.05, 0.0),
    );
    let sp2 = add(
        &mut s,
        rename("spine_02", ""),
        Some(sp1),
        DVec3::new(0.0, 1.2, 0.0),
    );
    let sp3 = add(
        &mut s,
        rename("spine_03", ""),
        Some(sp2),
        DVec3::new(0.0, 1.35, 0.0),
    );
    let neck = add(
        &mut s,
        rename("neck", ""),
        Some(sp3),
        DVec3::new(0.0, 1.5, 0.0),
    );
    add(
        &mut s,
        rename("head", ""),
        Some(neck),
        DVec3::new(0.0, 1.6, 0.0),
    );
    for (sfx, sx) in [("L", 1.0), ("R", -1.0)] {
        let x = |v: f64| v * sx;
        let clav = add(
            &mut s,
            rename("clavicle", sfx),
            Some(sp3),
            DVec3::new(x(0.03), 1.43, 0.0),
        );
        let up = add(
            &mut s,
            rename("upperarm", sfx),
            Some(clav),
            DVec3::new(x(0.2), 1.43, 0.0),
        );
        let fore = add(
            &mut s,
            rename("forearm", sfx),
            Some(up),
            DVec3::new(x(0.525), 1.43, 0.0),
        );
        let hand = add(
            &mut s,
            rename("hand", sfx),
            Some(fore),
            DVec3::new(x(0.78), 1.43, 0.0),
        );
        for (k, f) in ["thumb", "index", "middle", "ring", "pinky"]
            .iter()
            .enumerate()
        {
            let z = 0.04 - 0.02 * k as f64;
            let mut parent = hand;
            for j in 1..=3 {
                let p = DVec3::new(x(0.8 + 0.03 * j as f64 + 0.03), 1.43, z);
                parent = add(&mut s, rename(&format!("{f}_0{j}"), sfx), Some(parent), p);
            }
        }
        let thigh = add(
            &mut s,
            rename("thigh", sfx),
            Some(pelvis),
            DVec3::new(x(0.1), 0.9, 0.0),
        );
        let shin = add(
            &mut s,
            rename("shin", sfx),
            Some(thigh),
            DVec3::new(x(0.1), 0.5, 0.0),
        );
        let foot = add(
            &mut s,
            rename("foot", sfx),
            Some(shin),
            DVec3::new(x(0.1), 0.08, 0.0),
        );
        add(
            &mut s,
            rename("toe", sfx),
            Some(foot),
            DVec3::new(x(0.1), 0.02, 0.12),
        );
    }
    s
}

fn angler_name(base: &str, sfx: &str) -> String {
    if sfx.is_empty() {
        base.to_string()
    } else {
        format!("{base}.{sfx}")
    }
}

/// The figure's torso and legs under `names`: hips = pelvis, spine_01..03, neck, head,
/// thigh → shin → foot → toe.
fn assert_body(map: &HumanoidMap, skel: &Skeleton, names: &dyn Fn(&str, &str) -> String) {
    let body = map
        .body
        .as_ref()
        .unwrap_or_else(|| panic!("no body: {:?}", map.body_missing));
    let name = |b: usize| skel.bone(b).name.clone();
    assert_eq!(name(body.hips), names("pelvis", ""));
    let spine: Vec<String> = body.spine.iter().map(|&b| name(b)).collect();
    assert_eq!(
        spine,
        ["spine_01", "spine_02", "spine_03"].map(|b| names(b, ""))
    );
    assert_eq!(name(body.neck.unwrap()), names("neck", ""));
    assert_eq!(name(body.head), names("head", ""));
    for (side, sfx) in [(Side::Left, "L"), (Side::Right, "R")] {
        let l = body.leg(side);
        assert_eq!(name(l.thigh), names("thigh", sfx));
        assert_eq!(name(l.shin), names("shin", sfx));
        assert_eq!(name(l.foot), names("foot", sfx));
        assert_eq!(name(l.toe.unwrap()), names("toe", sfx));
        assert!((l.thigh_length - 0.4).abs() < 1e-9 && (l.shin_length - 0.42).abs() < 1e-9);
    }
    assert!(map.body_missing.is_empty(), "{:?}", map.body_missing);
}

fn assert_complete(map: &HumanoidMap, skel: &Skeleton, names: &dyn Fn(&str, &str) -> String) {
    assert!(map.has_both_arms(), "{map:?}");
    assert!(map.missing.is_empty(), "missing {:?}", map.missing);
    for (side, sfx) in [(Side::Left, "L"), (Side::Right, "R")] {
        let arm = map.arm(side).unwrap();
        let name = |b: usize| skel.bone(b).name.clone();
        assert_eq!(name(arm.clavicle.unwrap()), names("clavicle", sfx));
        assert_eq!(name(arm.upper_arm), names("upperarm", sfx));
        assert_eq!(name(arm.forearm), names("forearm", sfx));
        assert_eq!(name(arm.hand), names("hand", sfx));
        for (f, base) in Finger::ALL
            .iter()
            .zip(["thumb", "index", "middle", "ring", "pinky"])
        {
            let got: Vec<String> = arm.finger(*f).iter().map(|&b| name(b)).collect();
            let want: Vec<String> = (1..=3)
                .map(|j| names(&format!("{base}_0{j}"), sfx))
                .collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn bundled_angler_names_map_completely() {
    let (skel, pose) = build(&figure(&angler_name));
    let map = HumanoidMap::detect(&skel, &pose);
    assert_complete(&map, &skel, &angler_name);
    assert_body(&map, &skel, &angler_name);
    assert_eq!(map.method, MapMethod::Names);
    assert!((map.confidence - 1.0).abs() < 1e-12);
    let l = map.left.as_ref().unwrap();
    assert!((l.upper_arm_length - 0.325).abs() < 1e-9);
    assert!((l.forearm_length - 0.255).abs() < 1e-9);
    assert!((l.palm_length.unwrap() - 0.08).abs() < 1e-9);
    assert_eq!(l.finger_lengths[Finger::Middle.index()].len(), 2);
    assert!((map.forward - DVec3::Z).length() < 1e-9);
    // T-pose, straight arm: flexion about upper × forward. Left arm along +X: axis −Y.
    assert!((l.elbow_axis_in_world - DVec3::NEG_Y).length() < 1e-9);
    let r = map.right.as_ref().unwrap();
    assert!((r.elbow_axis_in_world - DVec3::Y).length() < 1e-9);
    // The local-frame axis maps back to the world axis through the upper arm's rotation.
    let back = pose.world_rotation(l.upper_arm) * l.elbow_axis_in_upper_arm;
    assert!((back - l.elbow_axis_in_world).length() < 1e-9);
}

#[test]
fn other_naming_styles_map_completely() {
    let mixamo = |b: &str, s: &str| {
        let side = match s {
            "L" => "Left",
            "R" => "Right",
            _ => "",
        };
        let base = match b {
            "clavicle" => "Shoulder".to_string(),
            "upperarm" => "Arm".to_string(),
            "forearm" => "ForeArm".to_string(),
            "hand" => "Hand".to_string(),
            "pelvis" => "Hips".to_string(),
            "spine_01" => "Spine".to_string(),
            "spine_02" => "Spine1".to_string(),
            "spine_03" => "Spine2".to_string(),
            "neck" => "Neck".to_string(),
            "head" => "Head".to_string(),
            "thigh" => "UpLeg".to_string(),
            "shin" => "Leg".to_string(),
            "foot" => "Foot".to_string(),
            "toe" => "ToeBase".to_string(),
            f if f.contains("_0") => {
                let (n, j) = f.split_once("_0").unwrap();
                let mut c = n.chars();
                let cap: String = c.next().unwrap().to_uppercase().chain(c).collect();
                format!("Hand{cap}{j}")
            }
            other => other.to_string(),
        };
        format!("mixamorig:{side}{base}")
    };
    let unreal = |b: &str, s: &str| {
        let b = match b {
            "forearm" => "lowerarm",
            "shin" => "calf",
            "toe" => "ball",
            other => other,
        };
        if s.is_empty() {
            b.to_string()
        } else {
            format!("{b}_{}", s.to_lowercase())
        }
    };
    for style in [&mixamo as &dyn Fn(&str, &str) -> String, &unreal] {
        let (skel, pose) = build(&figure(style));
        let map = HumanoidMap::detect(&skel, &pose);
        assert_complete(&map, &skel, style);
        assert_body(&map, &skel, style);
    }
}

#[test]
fn unnamed_humanoid_found_by_topology_with_lower_confidence() {
    let spec: Vec<_> = figure(&angler_name)
        .into_iter()
        .enumerate()
        .map(|(i, (_, p, v))| (format!("Bone.{i:03}"), p, v))
        .collect();
    let (skel, pose) = build(&spec);
    let map = HumanoidMap::detect(&skel, &pose);
    assert_eq!(map.method, MapMethod::Topology);
    assert!(
        map.confidence > 0.0 && map.confidence <= 0.5,
        "{}",
        map.confidence
    );
    let (named, _) = build(&figure(&angler_name));
    let name_of = |b: usize| named.bone(b).name.clone();
    let l = map.left.as_ref().unwrap();
    assert_eq!(name_of(l.clavicle.unwrap()), "clavicle.L");
    assert_eq!(name_of(l.upper_arm), "upperarm.L");
    assert_eq!(name_of(l.forearm), "forearm.L");
    assert_eq!(name_of(l.hand), "hand.L");
    assert_eq!(name_of(map.right.as_ref().unwrap().hand), "hand.R");
    // The body from shape too: the legs that reach the ground, the head above the chest.
    let body = map.body.as_ref().expect("body from topology");
    assert_eq!(body.method, MapMethod::Topology);
    assert_eq!(name_of(body.hips), "pelvis");
    assert_eq!(name_of(body.head), "head");
    assert_eq!(name_of(body.left_leg.thigh), "thigh.L");
    assert_eq!(name_of(body.right_leg.foot), "foot.R");
}

#[test]
fn quadruped_front_legs_are_not_arms() {
    // Horizontal spine along +Z, legs hanging to the ground, names like Fox's.
    let mut s: Vec<(String, Option<usize>, DVec3)> = vec![
        ("b_Root_00".into(), None, DVec3::ZERO),
        ("b_Hip_01".into(), Some(0), DVec3::new(0.0, 0.45, -0.3)),
        ("b_Spine01_02".into(), Some(1), DVec3::new(0.0, 0.5, 0.0)),
        ("b_Neck_04".into(), Some(2), DVec3::new(0.0, 0.55, 0.25)),
        ("b_Head_05".into(), Some(3), DVec3::new(0.0, 0.6, 0.35)),
    ];
    for (side, x) in [("Left", 0.07), ("Right", -0.07)] {
        let n = s.len();
        s.push((
            format!("b_{side}UpperArm"),
            Some(2),
            DVec3::new(x, 0.48, 0.18),
        ));
        s.push((
            format!("b_{side}ForeArm"),
            Some(n),
            DVec3::new(x, 0.26, 0.17),
        ));
        s.push((
            format!("b_{side}Hand"),
            Some(n + 1),
            DVec3::new(x, 0.06, 0.18),
        ));
        s.push((format!("b_{side}Leg01"), Some(1), DVec3::new(x, 0.45, -0.3)));
        s.push((
            format!("b_{side}Leg02"),
            Some(n + 3),
            DVec3::new(x, 0.25, -0.28),
        ));
        s.push((
            format!("b_{side}Foot01"),
            Some(n + 4),
            DVec3::new(x, 0.02, -0.3),
        ));
    }
    let (skel, pose) = build(&s);
    let map = HumanoidMap::detect(&skel, &pose);
    assert!(map.left.is_none() && map.right.is_none());
    assert_eq!(map.method, MapMethod::NotFound);
    assert_eq!(map.confidence, 0.0);
    assert!(
        map.notes
            .iter()
            .any(|n| n.contains("no humanoid arms found")),
        "{:?}",
        map.notes
    );
    // Unnamed, the same shape is not picked up by topology either.
    let unnamed: Vec<_> = s
        .iter()
        .enumerate()
        .map(|(i, (_, p, v))| (format!("n{i}"), *p, *v))
        .collect();
    let (skel, pose) = build(&unnamed);
    assert!(!HumanoidMap::detect(&skel, &pose).has_both_arms());
}

#[test]
fn override_sets_roles_and_rejects_unknown_names() {
    let (skel, pose) = build(&figure(&angler_name));
    let mut o = HumanoidOverride::default();
    o.set("left.hand".parse().unwrap(), "index_01.L");
    o.set("right.thumb.1".parse().unwrap(), "thumb_02.R");
    let map = HumanoidMap::detect_with_override(&skel, &pose, &o).unwrap();
    assert_eq!(map.method, MapMethod::Override);
    assert_eq!(
        map.left.as_ref().unwrap().hand,
        skel.find("index_01.L").unwrap()
    );
    let thumb = map.right.as_ref().unwrap().finger(Finger::Thumb).to_vec();
    assert_eq!(thumb, vec![skel.find("thumb_02.R").unwrap()]);

    let mut bad = HumanoidOverride::default();
    bad.set("left.forearm".parse().unwrap(), "no_such_bone");
    let err = HumanoidMap::detect_with_override(&skel, &pose, &bad).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("no_such_bone") && text.contains("left.forearm"),
        "{text}"
    );
}

#[test]
fn bent_rest_elbow_gives_axis_of_the_bend() {
    let mut spec = figure(&angler_name);
    // Bend the left forearm forward (+Z) in the rest pose: hand and fingers move.
    let fore = spec.iter().position(|b| b.0 == "forearm.L").unwrap();
    let elbow = spec[fore].2;
    for b in spec.iter_mut().skip(fore + 1) {
        if b.0.ends_with(".L")
            && !b.0.starts_with("thigh")
            && !b.0.starts_with("shin")
            && !b.0.starts_with("foot")
            && !b.0.starts_with("toe")
        {
            let d = b.2 - elbow;
            b.2 = elbow + DQuat::from_rotation_y(-0.8) * d;
        }
    }
    let (skel, pose) = build(&spec);
    let map = HumanoidMap::detect(&skel, &pose);
    let l = map.left.as_ref().unwrap();
    // Rotating +X toward +Z is a rotation about −Y.
    assert!(
        (l.elbow_axis_in_world - DVec3::NEG_Y).length() < 1e-9,
        "{:?}",
        l.elbow_axis_in_world
    );
    let u = pose.world_position(l.upper_arm);
    let f = pose.world_position(l.forearm);
    let h = pose.world_position(l.hand);
    let flexed = DQuat::from_axis_angle(l.elbow_axis_in_world, 0.3) * (h - f);
    // Flexing further brings the hand closer to the shoulder.
    assert!((f + flexed - u).length() < (h - u).length());
}
