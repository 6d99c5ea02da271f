//! The bundled assets: regeneration is byte-identical to the committed files, the angler's
//! skeleton, skin and seated rest pose are what the docs promise, the props' grip nodes sit where
//! documented, and every file passes the Khronos validator (when node is installed).

mod support;

use glam::{DAffine3, DMat4, DQuat, DVec3};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use support::khronos;

const FILES: [&str; 6] = [
    "angler.glb",
    "rod.glb",
    "net.glb",
    "stool.glb",
    "rod_surf.glb",
    "rod_baitcaster.glb",
];
const REGENERATE: &str = "regenerate them with `cargo run -- assets generate` and commit assets/";

/// Runs `anglerpose assets generate --out <temp>` once for all tests and returns the folder.
fn generated() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("anglerpose-assets-{}", std::process::id()));
        let out = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
            .args(["assets", "generate", "--out"])
            .arg(&dir)
            .output()
            .expect("run anglerpose");
        assert!(
            out.status.success(),
            "assets generate failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn regenerating_gives_the_committed_bytes() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    for name in FILES {
        let fresh = read(&generated().join(name));
        let path = committed.join(name);
        let Ok(old) = std::fs::read(&path) else {
            panic!("{} is missing; {REGENERATE}", path.display());
        };
        assert!(
            old == fresh,
            "{} differs from a fresh generation ({} vs {} bytes); {REGENERATE}",
            path.display(),
            old.len(),
            fresh.len()
        );
    }
    // Generating twice in-process gives the same bytes too (no hidden state).
    let again = anglerpose::assetgen::props::rod_glb();
    assert_eq!(again, read(&generated().join("rod.glb")));
}

struct Doc {
    doc: gltf::Document,
    buffers: Vec<gltf::buffer::Data>,
}

fn load(name: &str) -> Doc {
    let bytes = read(&generated().join(name));
    let (doc, buffers, _) =
        gltf::import_slice(&bytes).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
    Doc { doc, buffers }
}

/// World matrices of every node, by name (parents composed).
fn world_by_name(doc: &gltf::Document) -> BTreeMap<String, DMat4> {
    fn walk(node: gltf::Node, parent: DMat4, out: &mut BTreeMap<String, DMat4>) {
        let (t, r, s) = node.transform().decomposed();
        let local = DMat4::from_scale_rotation_translation(
            DVec3::from(s.map(f64::from)),
            DQuat::from_array(r.map(f64::from)),
            DVec3::from(t.map(f64::from)),
        );
        let world = parent * local;
        out.insert(node.name().unwrap_or("").to_string(), world);
        for c in node.children() {
            walk(c, world, out);
        }
    }
    let mut out = BTreeMap::new();
    for root in doc.default_scene().expect("a default scene").nodes() {
        walk(root, DMat4::IDENTITY, &mut out);
    }
    out
}

fn pos(world: &BTreeMap<String, DMat4>, name: &str) -> DVec3 {
    world
        .get(name)
        .unwrap_or_else(|| panic!("no node {name}"))
        .w_axis
        .truncate()
}

fn expected_joints() -> Vec<String> {
    let mut names: Vec<String> = [
        "root", "pelvis", "spine_01", "spine_02", "spine_03", "neck", "head",
    ]
    .map(String::from)
    .into();
    for side in ["L", "R"] {
        for n in ["clavicle", "upperarm", "forearm", "hand"] {
            names.push(format!("{n}.{side}"));
        }
        for f in ["thumb", "index", "middle", "ring", "pinky"] {
            for k in 1..=3 {
                names.push(format!("{f}_0{k}.{side}"));
            }
        }
        for n in ["thigh", "shin", "foot", "toe"] {
            names.push(format!("{n}.{side}"));
        }
    }
    names
}

#[test]
fn angler_skeleton_and_skin() {
    let Doc { doc, buffers } = load("angler.glb");
    let skin = doc.skins().next().expect("a skin");
    let joint_names: Vec<String> = skin
        .joints()
        .map(|j| j.name().unwrap_or("").to_string())
        .collect();
    for name in expected_joints() {
        assert!(
            joint_names.contains(&name),
            "joint {name} missing from the skin"
        );
    }
    let root = joint_names
        .iter()
        .position(|n| n == "root")
        .expect("root joint");

    // Inverse bind matrices undo the rest-pose world matrices.
    let world = world_by_name(&doc);
    let ibms: Vec<[[f32; 4]; 4]> = skin
        .reader(|b| Some(&buffers[b.index()]))
        .read_inverse_bind_matrices()
        .unwrap()
        .collect();
    assert_eq!(ibms.len(), joint_names.len());
    for (name, ibm) in joint_names.iter().zip(&ibms) {
        let ibm = DMat4::from_cols_array_2d(&ibm.map(|c| c.map(f64::from)));
        let product = world[name] * ibm;
        assert!(
            product.abs_diff_eq(DMat4::IDENTITY, 1e-5),
            "{name}: world × inverse bind = {product}"
        );
    }

    // The skinned mesh node sits at the scene root.
    let scene_roots: Vec<String> = doc
        .default_scene()
        .unwrap()
        .nodes()
        .filter(|n| n.skin().is_some())
        .map(|n| n.name().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        scene_roots,
        ["angler"],
        "one skinned mesh node at the scene root"
    );

    let mut vertices = 0;
    let mut used = vec![0usize; joint_names.len()];
    for mesh in doc.meshes() {
        for prim in mesh.primitives() {
            let r = prim.reader(|b| Some(&buffers[b.index()]));
            let joints: Vec<[u16; 4]> = r.read_joints(0).expect("JOINTS_0").into_u16().collect();
            let weights: Vec<[f32; 4]> = r.read_weights(0).expect("WEIGHTS_0").into_f32().collect();
            let normals: Vec<[f32; 3]> = r.read_normals().expect("NORMAL").collect();
            let n = r.read_positions().expect("POSITION").count();
            assert!(r.read_colors(0).is_some(), "COLOR_0 present");
            assert_eq!((joints.len(), weights.len(), normals.len()), (n, n, n));
            vertices += n;
            for (j, w) in joints.iter().zip(&weights) {
                let sum: f32 = w.iter().sum();
                assert!((sum - 1.0).abs() <= 1e-6, "weights {w:?} sum to {sum}");
                for k in 0..4 {
                    assert!(w[k] >= 0.0);
                    if w[k] > 0.0 {
                        assert!((j[k] as usize) < joint_names.len());
                        assert_ne!(j[k] as usize, root, "weight on root: {j:?} {w:?}");
                        used[j[k] as usize] += 1;
                    }
                }
            }
            for nrm in normals {
                let len = DVec3::from(nrm.map(f64::from)).length();
                assert!((len - 1.0).abs() < 1e-4, "normal length {len}");
            }
        }
    }
    assert!(vertices >= 5000, "only {vertices} vertices");
    for (i, name) in joint_names.iter().enumerate() {
        if i != root {
            assert!(used[i] > 0, "joint {name} carries no weight at all");
        }
    }
}

#[test]
fn angler_rest_pose_is_seated() {
    let Doc { doc, .. } = load("angler.glb");
    let w = world_by_name(&doc);
    let p = |n: &str| pos(&w, n);
    let pelvis = p("pelvis");
    assert!(
        (0.45..=0.55).contains(&pelvis.y),
        "pelvis height {}",
        pelvis.y
    );
    assert!(
        p("head").y > 1.0 && p("head").y < 1.3,
        "seated head height {}",
        p("head").y
    );
    for s in ["L", "R"] {
        let (hip, knee, ankle) = (
            p(&format!("thigh.{s}")),
            p(&format!("shin.{s}")),
            p(&format!("foot.{s}")),
        );
        assert!(
            (knee.y - pelvis.y).abs() < 0.08,
            "knee {s} at {knee}, pelvis {pelvis}"
        );
        assert!(knee.z > pelvis.z + 0.3, "knee {s} in front: {knee}");
        let thigh = (knee - hip).normalize();
        assert!(thigh.y.abs() < 0.2, "thigh {s} near horizontal: {thigh}");
        assert!(
            ankle.y < 0.15 && (ankle.z - knee.z).abs() < 0.12,
            "foot {s} under knee: {ankle}"
        );
        // .L is the figure's left: +X when facing +Z.
        let sign = if s == "L" { 1.0 } else { -1.0 };
        assert!(hip.x * sign > 0.0 && p(&format!("hand.{s}")).x * sign > 0.0);
        // Elbows bent 30–50°, hands in front of the body.
        let (sh, el, wr) = (
            p(&format!("upperarm.{s}")),
            p(&format!("forearm.{s}")),
            p(&format!("hand.{s}")),
        );
        let bend = (el - sh).angle_between(wr - el).to_degrees();
        assert!((30.0..=50.0).contains(&bend), "elbow {s} bend {bend}°");
        assert!(wr.z > sh.z + 0.2, "hand {s} forward of the shoulder");
        // Bone lengths follow the documented proportions (H = 1.75 m).
        assert!(((el - sh).length() - 0.186 * 1.75).abs() < 1e-4);
        assert!(((knee - hip).length() - 0.245 * 1.75).abs() < 1e-4);
    }
    // Local +Y runs along each bone: every single child sits on its parent's +Y axis.
    for node in doc.nodes() {
        let children: Vec<_> = node.children().collect();
        if children.len() == 1 && node.name() != Some("root") && node.mesh().is_none() {
            let t = DVec3::from(children[0].transform().decomposed().0.map(f64::from));
            assert!(
                t.y > 0.0 && t.x.abs() < 1e-5 && t.z.abs() < 1e-5,
                "{:?} → {:?}: child offset {t} not along +Y",
                node.name(),
                children[0].name()
            );
        }
    }
}

/// Mesh bounds of every primitive in a rigid prop, in world space (each mesh placed by its
/// node's world transform).
fn bounds(d: &Doc) -> (DVec3, DVec3, usize) {
    let mut lo = DVec3::INFINITY;
    let mut hi = DVec3::NEG_INFINITY;
    let mut n = 0;
    let world = world_by_name(&d.doc);
    for node in d.doc.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        let m = world[node.name().unwrap_or("")];
        for prim in mesh.primitives() {
            let r = prim.reader(|b| Some(&d.buffers[b.index()]));
            for p in r.read_positions().unwrap() {
                let p = m.transform_point3(DVec3::from(p.map(f64::from)));
                lo = lo.min(p);
                hi = hi.max(p);
                n += 1;
            }
        }
    }
    (lo, hi, n)
}

#[test]
fn props_have_documented_frames_and_grips() {
    let rod = load("rod.glb");
    let w = world_by_name(&rod.doc);
    assert!(pos(&w, "grip_rear").abs_diff_eq(DVec3::new(0.0, 0.08, 0.0), 1e-6));
    assert!(pos(&w, "grip_front").abs_diff_eq(DVec3::new(0.0, 0.40, 0.0), 1e-6));
    assert!(pos(&w, "tip").abs_diff_eq(DVec3::new(0.0, 2.4, 0.0), 1e-6));
    let (lo, hi, n) = bounds(&rod);
    assert!(
        lo.y.abs() < 1e-4 && (hi.y - 2.4).abs() < 1e-3,
        "rod spans {lo} – {hi}"
    );
    assert!(
        lo.z < -0.08 && hi.z < 0.02,
        "reel and guides hang on −Z: {lo} – {hi}"
    );
    assert!((300..20_000).contains(&n), "rod vertices {n}");
    // The reel's crank: its own node, on the crank axis the session turns it about (the
    // bundled gear's), the knob one crank radius toward +Y at angle 0.
    let crank = anglerpose::fishing::Gear::BUNDLED.rod.crank;
    let at = pos(&w, anglerpose::assetgen::props::REEL_CRANK_NODE);
    assert!(
        at.abs_diff_eq(crank.centre_in_hold, 1e-6),
        "crank node at {at}"
    );
    assert_eq!(anglerpose::assetgen::props::REEL_CRANK_RADIUS, crank.radius);
    assert_eq!(
        anglerpose::assetgen::props::REEL_KNOB_RADIUS,
        anglerpose::fishing::gear::KNOB_RADIUS
    );
    assert_eq!(
        anglerpose::assetgen::props::REEL_KNOB_LENGTH,
        anglerpose::fishing::gear::KNOB_LENGTH
    );

    let net = load("net.glb");
    let w = world_by_name(&net.doc);
    assert!(pos(&w, "grip").abs_diff_eq(DVec3::new(0.0, 0.1, 0.0), 1e-6));
    let (lo, hi, n) = bounds(&net);
    assert!(
        lo.y.abs() < 1e-4 && (hi.y - 1.7).abs() < 0.02,
        "net spans {lo} – {hi}"
    );
    assert!(
        ((hi.x - lo.x) - 0.5).abs() < 0.03,
        "hoop about 0.5 m across"
    );
    assert!((300..20_000).contains(&n), "net vertices {n}");

    let stool = load("stool.glb");
    let (lo, hi, n) = bounds(&stool);
    assert!(
        lo.y.abs() < 1e-6 && (hi.y - 0.45).abs() < 1e-6,
        "stool spans {lo} – {hi}"
    );
    assert!(
        (lo.x + hi.x).abs() < 1e-3 && (lo.z + hi.z).abs() < 1e-3,
        "centred on the origin"
    );
    assert!((200..20_000).contains(&n), "stool vertices {n}");
}

/// Rest-pose check that the mesh and bones agree: every skinned vertex skinned with the file's
/// own joint world matrices and inverse binds stays where it is (bind pose = rest pose).
#[test]
fn rest_pose_skinning_is_identity() {
    let Doc { doc, buffers } = load("angler.glb");
    let skin = doc.skins().next().unwrap();
    let world = world_by_name(&doc);
    let ibms: Vec<DMat4> = skin
        .reader(|b| Some(&buffers[b.index()]))
        .read_inverse_bind_matrices()
        .unwrap()
        .map(|m| DMat4::from_cols_array_2d(&m.map(|c| c.map(f64::from))))
        .collect();
    let joint_mats: Vec<DAffine3> = skin
        .joints()
        .zip(&ibms)
        .map(|(j, ibm)| DAffine3::from_mat4(world[j.name().unwrap()] * *ibm))
        .collect();
    for prim in doc
        .meshes()
        .flat_map(|m| m.primitives().collect::<Vec<_>>())
    {
        let r = prim.reader(|b| Some(&buffers[b.index()]));
        let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let js: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
        let ws: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
        for ((p, j), w) in pos.iter().zip(&js).zip(&ws) {
            let p = DVec3::from(p.map(f64::from));
            let q: DVec3 = (0..4)
                .map(|k| joint_mats[j[k] as usize].transform_point3(p) * w[k] as f64)
                .sum();
            assert!((q - p).length() < 1e-4, "vertex {p} skins to {q}");
        }
    }
}

#[test]
fn khronos_validator_reports_no_errors() {
    if !khronos::have_node() {
        anglerpose::skip_notice!("\n*** SKIP: node not found, Khronos validation not run ***\n");
        return;
    }
    let dir = generated();
    let handles: Vec<_> = FILES
        .iter()
        .map(|name| {
            let path = dir.join(name);
            std::thread::spawn(move || {
                let out = khronos::run_validator(&path);
                (path, out)
            })
        })
        .collect();
    for h in handles {
        let (path, out) = h.join().expect("validator thread");
        khronos::assert_no_errors(&path, &out);
    }
}

/// The bundled angler is thinned from its surface-nets meshes (`assetgen::simplify`): far
/// fewer triangles (the editor pays per triangle on CPU rasterisers), every meshed vertex of
/// the finely meshed hands within `MAX_SURFACE_DEVIATION` of the thinned surface.
#[test]
fn the_angler_is_thinned_within_its_bound() {
    use anglerpose::assetgen::angler::angler_parts;
    use anglerpose::assetgen::body::hand;
    use anglerpose::assetgen::mesher::mesh_field;
    use anglerpose::assetgen::simplify::{MAX_SURFACE_DEVIATION, max_deviation};
    let (joints, parts) = angler_parts();
    let triangles: usize = parts.iter().map(|p| p.mesh.indices.len() / 3).sum();
    assert!(triangles < 20_000, "{triangles} triangles");
    for side in ["L", "R"] {
        let region = hand(&joints, side);
        let meshed = mesh_field(&region.field, &region.region, region.colour_sigma);
        let name = format!("hand.{side}");
        let thinned = &parts.iter().find(|p| p.name == name).expect("a hand").mesh;
        assert!(
            thinned.indices.len() * 3 < meshed.indices.len(),
            "{name}: {} of {} triangles",
            thinned.indices.len() / 3,
            meshed.indices.len() / 3
        );
        let worst = max_deviation(&meshed, thinned);
        assert!(
            worst <= MAX_SURFACE_DEVIATION,
            "{name}: a vertex {worst} m off"
        );
    }
}
