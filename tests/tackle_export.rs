//! The posed export carries the tackle (issue 34): skinned as glTF defines linear blend
//! skinning (read back with the `gltf` crate, CPU-skinned here), every rod mesh on the bend
//! chain lands where the stage draws it bent, the handle stays, and the line's three nodes are
//! the Bézier control points of the drawn line. With no pull the chain is at rest and the rod is straight.

mod support;

use anglerpose::fishing::rod_bend::BEND_JOINTS;
use anglerpose::fishing::tackle::LINE_POINTS;
use anglerpose::fishing::{Phase, SessionState};
use anglerpose::preset::posed_glb;
use anglerpose::rig::Pose;
use anglerpose::stage::Stage;
use glam::{DMat4, DVec3};
use support::grip_measure::node_worlds;

fn staged(pull: f64) -> Stage {
    let mut stage = Stage::bundled().expect("bundled stage");
    let mut params = stage.inputs.state.params;
    params.line.fish_pull = pull;
    stage.inputs.state = SessionState::new(Phase::Strike, 1.0, params);
    stage.update().expect("poses");
    stage
}

/// Per exported mesh skinned on the bend chain: its name and its CPU-skinned positions.
type Skinned = Vec<(String, Vec<DVec3>)>;

/// The line's point nodes: name and world position.
type Points = Vec<(String, DVec3)>;

/// The exported meshes on the bend chain, skinned, and the line's points.
fn bent_meshes(bytes: &[u8]) -> (Skinned, Points) {
    let (doc, buffers, _) = gltf::import_slice(bytes).expect("the export reads back");
    let (world, _) = node_worlds(&doc);
    let mut meshes = Vec::new();
    for node in doc.nodes() {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else {
            continue;
        };
        if !skin.name().unwrap_or("").ends_with("_bend") {
            continue;
        }
        assert_eq!(skin.joints().count(), BEND_JOINTS);
        let reader = skin.reader(|b| Some(&buffers[b.index()]));
        let ibms: Vec<DMat4> = reader
            .read_inverse_bind_matrices()
            .expect("inverse binds")
            .map(|m| DMat4::from_cols_array_2d(&m.map(|c| c.map(f64::from))))
            .collect();
        let joints: Vec<DMat4> = skin
            .joints()
            .zip(&ibms)
            .map(|(j, ibm)| world[j.index()] * *ibm)
            .collect();
        let mut out = Vec::new();
        for prim in mesh.primitives() {
            let r = prim.reader(|b| Some(&buffers[b.index()]));
            let positions: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
            let js: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
            let ws: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
            for ((p, j), w) in positions.iter().zip(&js).zip(&ws) {
                let v = DVec3::from(p.map(f64::from));
                let m: DMat4 = (0..4)
                    .map(|i| joints[j[i] as usize] * f64::from(w[i]))
                    .fold(DMat4::ZERO, |a, b| a + b);
                out.push(m.transform_point3(v));
            }
        }
        let name = mesh.name().unwrap_or("").to_string();
        meshes.push((name, out));
    }
    let line = doc
        .nodes()
        .filter(|n| n.name().is_some_and(|s| s.starts_with("line_")))
        .map(|n| {
            let w = world[n.index()];
            (n.name().unwrap().to_string(), w.w_axis.truncate())
        })
        .collect();
    (meshes, line)
}

/// Where the stage draws each vertex of the rod's mesh `name`, in world space.
fn drawn(stage: &Stage, name: &str) -> Vec<DVec3> {
    let tackle = stage.tackle().expect("tackle");
    let eval = stage.evaluation().unwrap();
    let world_from_rod =
        stage.world_from_actor.to_affine() * eval.frames.actor_from_rod.to_affine();
    let rod = &stage.props.rod;
    let rest = Pose::rest(&rod.skeleton);
    let mesh = rod
        .meshes
        .iter()
        .find(|m| m.name == name)
        .expect("rod mesh");
    let rod_from_mesh = *rest.world_from_bone(mesh.node);
    mesh.primitives
        .iter()
        .flat_map(|p| p.positions.iter())
        .map(|p| {
            let in_rod = rod_from_mesh.transform_point3(DVec3::from(p.map(f64::from)));
            world_from_rod.transform_point3(tackle.bend.bend_point(in_rod))
        })
        .collect()
}

#[test]
fn the_exported_rod_bends_as_drawn_and_the_line_is_its_points() {
    let stage = staged(30.0);
    let tackle = stage.tackle().expect("tackle");
    assert!(tackle.bend.tip_deflection > 0.1);
    let (meshes, line) = bent_meshes(&posed_glb(&stage).expect("export"));
    assert!(!meshes.is_empty(), "no rod mesh on the bend chain");
    let mut worst = 0.0f64;
    let mut moved = 0.0f64;
    for (name, skinned) in &meshes {
        let want = drawn(&stage, name);
        assert_eq!(skinned.len(), want.len(), "{name}");
        for (a, b) in skinned.iter().zip(&want) {
            worst = worst.max(a.distance(*b));
        }
        // How far the bend moved the mesh from the straight rod's.
        let straight = {
            let mut s = staged(0.0);
            s.update().unwrap();
            drawn(&s, name)
        };
        for (a, b) in skinned.iter().zip(&straight) {
            moved = moved.max(a.distance(*b));
        }
    }
    assert!(
        worst < 2e-5,
        "the exported rod is {worst} m from the drawn one"
    );
    assert!(moved > 0.1, "the exported rod moved at most {moved} m");
    // The rod's guides are nodes at their rings' centres as the bend carries them, butt
    // first.
    let world = stage.world_from_actor.to_affine();
    let guides: Vec<&(String, DVec3)> = line
        .iter()
        .filter(|(n, _)| n.starts_with("line_guide_"))
        .collect();
    assert_eq!(guides.len(), 7, "the bundled rod's seven guides");
    assert_eq!(tackle.guides_in_actor.len(), 7);
    for (i, want) in tackle.guides_in_actor.iter().enumerate() {
        let name = format!("line_guide_{i:02}");
        let got = guides
            .iter()
            .find(|(n, _)| *n == name)
            .expect("guide node")
            .1;
        let want = world.transform_point3(*want);
        assert!(
            got.distance(want) < 1e-5,
            "{name} is {} m off",
            got.distance(want)
        );
    }
    // Where the line leaves the reel.
    let reel = line
        .iter()
        .find(|(n, _)| n == "line_reel")
        .expect("line_reel")
        .1;
    let want = world.transform_point3(tackle.reel_exit_in_actor.expect("a reel"));
    assert!(
        reel.distance(want) < 1e-5,
        "line_reel is {} m off",
        reel.distance(want)
    );
    // The line's nodes are its Bézier control points, and the curve through them is the
    // line's polyline.
    let line: Vec<(String, DVec3)> = line
        .into_iter()
        .filter(|(n, _)| !n.starts_with("line_guide_") && n != "line_reel")
        .collect();
    assert_eq!(line.len(), 3);
    let at = |name: &str| line.iter().find(|(n, _)| n == name).unwrap().1;
    let [p0, p1, p2] = ["line_tip", "line_control", "line_lure"].map(at);
    for (i, p) in tackle.line_in_actor.iter().enumerate() {
        let u = i as f64 / (LINE_POINTS - 1) as f64;
        let b = p0 * (1.0 - u) * (1.0 - u) + p1 * 2.0 * u * (1.0 - u) + p2 * u * u;
        let want = world.transform_point3(*p);
        assert!(
            b.distance(want) < 1e-5,
            "line point {i} is {} m off",
            b.distance(want)
        );
    }
}

#[test]
fn without_a_pull_the_exported_chain_is_at_rest() {
    let stage = staged(0.0);
    assert!(stage.tackle().unwrap().bend.is_straight());
    let (meshes, _) = bent_meshes(&posed_glb(&stage).expect("export"));
    assert!(!meshes.is_empty());
    for (name, skinned) in &meshes {
        let want = drawn(&stage, name);
        let worst = skinned
            .iter()
            .zip(&want)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f64::max);
        assert!(worst < 2e-5, "{name}: {worst}");
    }
}
