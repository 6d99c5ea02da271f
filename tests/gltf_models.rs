//! Real rigged models from ../shared/models (test data only, never copied into the repo):
//! they load, their arms map (or, for Fox, do not), and skinning the rest pose reproduces the
//! bind-pose mesh. Skips loudly when the folder is absent.

use anglerpose::gltf_io::{self, Character};
use anglerpose::rig::{Finger, HumanoidMap, MapMethod, Pose, Side, Transform};
use glam::{DMat4, DVec3};
use std::path::PathBuf;

fn models_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models");
    if dir.is_dir() {
        Some(dir)
    } else {
        anglerpose::skip_notice!(
            "SKIP: {} is absent; real-model tests not run",
            dir.display()
        );
        None
    }
}

const ALL: &[&str] = &[
    "mannequiny-0.3.0.glb",
    "KayKit_Mannequin/manny_med_mod.gltf",
    "RiggedFigure.glb",
    "CesiumMan.glb",
    "Fox.glb",
    "RiggedSimple.glb",
    "SimpleSkin.gltf",
];

fn load(name: &str) -> Option<(Character, Pose, HumanoidMap)> {
    let dir = models_dir()?;
    let c = gltf_io::load(dir.join(name)).unwrap_or_else(|e| panic!("{e}"));
    let pose = Pose::rest(&c.skeleton);
    let map = HumanoidMap::detect(&c.skeleton, &pose);
    Some((c, pose, map))
}

fn name(c: &Character, b: usize) -> &str {
    &c.skeleton.bone(b).name
}

/// Both arms map upper arm → forearm → hand, to exactly these bones.
fn assert_arms(name_of: &str, want: [[&str; 3]; 2]) -> Option<(Character, HumanoidMap)> {
    let (c, _, map) = load(name_of)?;
    assert!(map.has_both_arms(), "{name_of}: {map:?}");
    for (side, w) in [Side::Left, Side::Right].into_iter().zip(want) {
        let a = map.arm(side).unwrap();
        let got = [name(&c, a.upper_arm), name(&c, a.forearm), name(&c, a.hand)];
        assert_eq!(got, w, "{name_of} {side:?}");
        assert!(c.skeleton.is_ancestor(a.upper_arm, a.forearm));
        assert!(c.skeleton.is_ancestor(a.forearm, a.hand));
        assert!(a.upper_arm_length > 0.0 && a.forearm_length > 0.0);
        assert!((a.elbow_axis_in_world.length() - 1.0).abs() < 1e-9);
    }
    assert!(
        map.confidence >= 0.8,
        "{name_of}: confidence {}",
        map.confidence
    );
    Some((c, map))
}

#[test]
fn every_model_loads() {
    let Some(dir) = models_dir() else { return };
    for m in ALL {
        let c = gltf_io::load(dir.join(m)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.skins.is_empty(), "{m}: no skin");
        assert!(c.vertex_count() > 0 && c.triangle_count() > 0, "{m}");
        for mesh in &c.meshes {
            for p in &mesh.primitives {
                assert_eq!(p.normals.len(), p.positions.len());
                let w = p.weights.as_ref().expect("skinned primitive has weights");
                for ws in w {
                    assert!((ws.iter().sum::<f32>() - 1.0).abs() < 1e-5);
                }
            }
        }
    }
}

#[test]
fn model_facts_from_the_readme() {
    let Some((c, ..)) = load("mannequiny-0.3.0.glb") else {
        return;
    };
    assert_eq!(c.skins[0].joints.len(), 45);
    assert_eq!(c.vertex_count(), 10_366);
    assert!(c.meshes[0].primitives.iter().all(|p| p.colors.is_some()));
    assert!(
        c.meshes[0]
            .primitives
            .iter()
            .all(|p| p.material.double_sided),
        "mannequiny's materials are doubleSided (drawn without back-face culling)"
    );
    let Some((c, ..)) = load("KayKit_Mannequin/manny_med_mod.gltf") else {
        return;
    };
    assert_eq!(c.meshes.len(), 8, "one skin shared by 8 meshes");
    assert!(c.meshes.iter().all(|m| m.skin == Some(0)));
    assert_eq!(
        (c.images[0].width, c.images[0].height),
        (512, 512),
        "external png"
    );
    let tex = c.meshes[0].primitives[0].material.base_color_texture;
    assert_eq!(tex, Some(0));
    let Some((c, ..)) = load("CesiumMan.glb") else {
        return;
    };
    assert_eq!(c.skins[0].joints.len(), 19);
    assert_eq!(
        (c.images[0].width, c.images[0].height),
        (1024, 1024),
        "embedded jpeg"
    );
    assert!(c.meshes[0].primitives[0].uvs.is_some());
    assert!(!c.meshes[0].primitives[0].material.double_sided);
    let Some((c, ..)) = load("SimpleSkin.gltf") else {
        return;
    };
    assert_eq!(c.skins[0].joints.len(), 2, "data-URI buffers");
    // SimpleSkin has no NORMAL: computed ones are unit length.
    for n in &c.meshes[0].primitives[0].normals {
        assert!((DVec3::from_array(n.map(f64::from)).length() - 1.0).abs() < 1e-6);
    }
}

#[test]
fn humanoids_map_both_arms() {
    let Some((c, map)) = assert_arms(
        "mannequiny-0.3.0.glb",
        [
            ["upperarm.l", "lowerarm.l", "hand.l"],
            ["upperarm.r", "lowerarm.r", "hand.r"],
        ],
    ) else {
        return;
    };
    for side in [Side::Left, Side::Right] {
        let a = map.arm(side).unwrap();
        assert!(a.clavicle.is_some());
        let s = if side == Side::Left { "l" } else { "r" };
        for (f, base) in [
            (Finger::Thumb, "thumb"),
            (Finger::Index, "index"),
            (Finger::Middle, "middle"),
            (Finger::Ring, "ring"),
        ] {
            let got: Vec<&str> = a.finger(f).iter().map(|&b| name(&c, b)).collect();
            let want: Vec<String> = (1..=3).map(|j| format!("{base}_0{j}.{s}")).collect();
            assert_eq!(got, want);
        }
        assert!(
            a.finger(Finger::Little).is_empty(),
            "mannequiny has no pinky"
        );
    }
    assert_eq!(map.missing.len(), 2, "{:?}", map.missing);
    assert_arms(
        "KayKit_Mannequin/manny_med_mod.gltf",
        [
            ["upperarm.l", "lowerarm.l", "wrist.l"],
            ["upperarm.r", "lowerarm.r", "wrist.r"],
        ],
    );
    assert_arms(
        "RiggedFigure.glb",
        [
            ["arm_joint_L_1", "arm_joint_L_2", "arm_joint_L_3"],
            ["arm_joint_R_1", "arm_joint_R_2", "arm_joint_R_3"],
        ],
    );
    assert_arms(
        "CesiumMan.glb",
        [
            [
                "Skeleton_arm_joint_L__4_",
                "Skeleton_arm_joint_L__3_",
                "Skeleton_arm_joint_L__2_",
            ],
            [
                "Skeleton_arm_joint_R",
                "Skeleton_arm_joint_R__2_",
                "Skeleton_arm_joint_R__3_",
            ],
        ],
    );
}

#[test]
fn fox_has_no_humanoid_arms() {
    let Some((_, _, map)) = load("Fox.glb") else {
        return;
    };
    assert!(map.left.is_none() && map.right.is_none(), "{map:?}");
    assert_eq!(map.method, MapMethod::NotFound);
    assert!(
        map.notes
            .iter()
            .any(|n| n.contains("no humanoid arms found"))
    );
}

fn max_entry(m: DMat4) -> f64 {
    m.to_cols_array().iter().fold(0.0, |a, v| a.max(v.abs()))
}

/// In the rest pose every skin matrix equals the skin's bind-time mesh transform, and CPU
/// skinning puts each vertex at `bind_world_from_mesh × position` (within 1e-4).
#[test]
fn skinning_the_rest_pose_reproduces_the_bind_mesh() {
    for m in ALL {
        let Some((c, pose, _)) = load(m) else { return };
        assert_rest_skinning_is_bind_mesh(m, &c, &pose);
    }
}

fn assert_rest_skinning_is_bind_mesh(m: &str, c: &Character, pose: &Pose) {
    {
        for skin in &c.skins {
            for k in gltf_io::skin_matrices_f64(skin, pose) {
                assert!(max_entry(k - skin.bind_world_from_mesh) < 1e-4, "{m}");
            }
        }
        for (mi, mesh) in c.meshes.iter().enumerate() {
            let bind = c.skins[mesh.skin.unwrap()].bind_world_from_mesh;
            for (pi, p) in mesh.primitives.iter().enumerate() {
                let skinned = gltf_io::skin_positions(c, pose, mi, pi);
                assert_eq!(skinned.len(), p.positions.len());
                for (s, v) in skinned.iter().zip(&p.positions) {
                    let want = bind.transform_point3(DVec3::from_array(v.map(f64::from)));
                    let got = DVec3::from_array(s.map(f64::from));
                    assert!(
                        (got - want).length() < 1e-4,
                        "{m} {}: {got} vs {want}",
                        mesh.name
                    );
                }
            }
        }
        // The f32 upload form matches the f64 matrices.
        let f32s = gltf_io::skin_matrices(c, pose);
        let f64s = gltf_io::skin_matrices_f64(&c.skins[0], pose);
        let back = DMat4::from_cols_array_2d(&f32s[0][0].map(|col| col.map(f64::from)));
        assert!(max_entry(back - f64s[0]) < 1e-4 * max_entry(f64s[0]).max(1.0));
    }
}

/// What the files themselves satisfy: except mannequiny (whose nodes are posed), the node
/// transforms *are* the bind pose, so the check above is not a consequence of rebuilding the
/// rest pose from the inverse bind matrices. The mesh's bind transform is its node's world
/// transform for CesiumMan, RiggedFigure, Fox and SimpleSkin, and identity for KayKit.
#[test]
fn which_files_are_bound_in_their_scene_pose() {
    for m in ALL {
        let Some((c, pose, _)) = load(m) else { return };
        let posed = c.warnings.iter().any(|w| w.contains("posed scene"));
        assert_eq!(posed, *m == "mannequiny-0.3.0.glb", "{m}: {:?}", c.warnings);
        let same = c
            .skeleton
            .bones()
            .iter()
            .zip(&c.scene_pose)
            .all(|(b, s): (_, &Transform)| max_entry(b.rest.to_mat4() - s.to_mat4()) < 1e-4);
        assert_eq!(same, !posed, "{m}");
        let scene = c.posed_scene();
        let moved = (0..c.skeleton.len())
            .map(|b| (scene.world_position(b) - pose.world_position(b)).length())
            .fold(0.0, f64::max);
        assert_eq!(
            moved > 1e-3,
            posed,
            "{m}: scene pose moved joints by {moved}"
        );
        let bind = c.skins[0].bind_world_from_mesh;
        let node = DMat4::from(*pose.world_from_bone(c.meshes[0].node));
        match *m {
            "CesiumMan.glb" | "RiggedFigure.glb" | "Fox.glb" | "SimpleSkin.gltf" => {
                assert!(max_entry(bind - node) < 1e-4, "{m}")
            }
            "KayKit_Mannequin/manny_med_mod.gltf" => {
                assert!(max_entry(bind - DMat4::IDENTITY) < 1e-4, "{m}");
                assert!(
                    max_entry(node - DMat4::IDENTITY) > 0.1,
                    "{m}: rotated rig parent"
                );
            }
            _ => {}
        }
    }
}

#[test]
fn bundled_angler_maps_completely() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb");
    if !path.exists() {
        anglerpose::skip_notice!("SKIP: {} does not exist yet", path.display());
        return;
    }
    let c = gltf_io::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let pose = Pose::rest(&c.skeleton);
    let map = HumanoidMap::detect(&c.skeleton, &pose);
    assert!(map.has_both_arms(), "{map:?}");
    assert!(map.missing.is_empty(), "missing {:?}", map.missing);
    assert!(map.confidence > 0.99);
    for side in [Side::Left, Side::Right] {
        let a = map.arm(side).unwrap();
        assert!(Finger::ALL.iter().all(|&f| a.finger(f).len() == 3));
    }
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_rest_skinning_is_bind_mesh("assets/angler.glb", &c, &pose);
    for prop in ["rod.glb", "net.glb", "stool.glb"] {
        let p = path.with_file_name(prop);
        if p.exists() {
            let c = gltf_io::load(&p).unwrap_or_else(|e| panic!("{e}"));
            assert!(c.vertex_count() > 0, "{prop}");
        }
    }
}
