//! Hostile inputs (issue 8, item 2): files that claim gigabytes, a million joints, a hierarchy
//! 100,000 deep, cycles, NaN/infinity, singular matrices, degenerate bones, 100 MB scenes and
//! presets. Each must end in a clear error (or, where documented, a correct load) within
//! bounded time and memory, never a panic or a stack overflow.
//!
//! Time bounds are generous runaway guards (30 s), not performance assertions.
//!
//! Decisions these tests pin:
//! - a skin may have at most `gltf_io::MAX_SKIN_JOINTS` (65,536) joints; larger skins are
//!   refused before the skeleton is built;
//! - node hierarchies of any depth load (the loader is iterative);
//! - scene files over `MAX_SCENE_BYTES` (16 MiB) are refused by the CLI before being read.

#[path = "hostile/support.rs"]
mod support;

use anglerpose::gltf_io::{self, Character, LoadError};
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};
use support::{Quad, deep_chain, glb, gltf_text};

const RUNAWAY: Duration = Duration::from_secs(30);

fn load(name: &str, bytes: &[u8]) -> Result<Character, LoadError> {
    let start = Instant::now();
    let result = gltf_io::load_from_bytes(&Path::new("hostile").join(name), bytes);
    assert!(
        start.elapsed() < RUNAWAY,
        "{name}: took {:?}",
        start.elapsed()
    );
    result
}

/// Loads `bytes` as `name`, expects an error whose message names the file and contains every
/// needle, and returns the message.
fn expect_err(name: &str, bytes: &[u8], needles: &[&str]) -> String {
    let msg = match load(name, bytes) {
        Ok(_) => panic!("{name}: loaded, expected an error containing {needles:?}"),
        Err(e) => e.to_string(),
    };
    assert!(
        msg.contains(name),
        "{name}: error does not name the file: {msg}"
    );
    for needle in needles {
        assert!(msg.contains(needle), "{name}: missing {needle:?} in: {msg}");
    }
    msg
}

fn quad_glb(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let q = Quad::good();
    let (mut doc, bin) = q.document();
    edit(&mut doc);
    glb(&doc, &bin)
}

#[test]
fn positive_control_the_quad_loads() {
    let c = load("quad.glb", &quad_glb(|_| {})).expect("the unedited quad must load");
    assert_eq!(c.vertex_count(), 4);
    assert_eq!(c.skins[0].joints.len(), 2);
}

#[test]
fn glb_header_claiming_4_gib() {
    let mut b = quad_glb(|_| {});
    b[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    expect_err(
        "total_4gib.glb",
        &b,
        &["truncated", "declares 4294967295 bytes"],
    );
}

#[test]
fn glb_chunk_claiming_4_gib() {
    let mut b = quad_glb(|_| {});
    b[12..16].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    expect_err("chunk_4gib.glb", &b, &["chunk 0 declares 4294967280 bytes"]);
}

#[test]
fn accessor_count_2_pow_31() {
    let b = quad_glb(|d| d["accessors"][0]["count"] = json!(1u64 << 31));
    expect_err(
        "count_2_31.glb",
        &b,
        &["accessors[0]", "POSITION", "out of range"],
    );
}

#[test]
fn accessor_without_view_count_2_pow_31() {
    // An accessor with no bufferView is all zeros: it would allocate count × 16 f64s.
    let b = quad_glb(|d| {
        // (glTF allows a missing bufferView only with sparse data.)
        d["accessors"][4] = json!({"componentType": 5126, "count": 1u64 << 31, "type": "MAT4",
            "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123},
                       "values": {"bufferView": 4}}});
    });
    expect_err(
        "zero_accessor_2_31.glb",
        &b,
        &["accessors[4]", "implausibly large"],
    );
}

#[test]
fn sparse_count_2_pow_31() {
    let b = quad_glb(|d| {
        d["accessors"][0]["sparse"] = json!({
            "count": 1u64 << 31,
            "indices": {"bufferView": 1, "componentType": 5123},
            "values": {"bufferView": 0}
        });
    });
    expect_err(
        "sparse_2_31.glb",
        &b,
        &["accessors[0]", "sparse indices", "out of range"],
    );
}

#[test]
fn buffer_view_byte_length_2_pow_40() {
    let b = quad_glb(|d| d["bufferViews"][0]["byteLength"] = json!(1u64 << 40));
    expect_err(
        "view_2_40.glb",
        &b,
        &["bufferViews[0]", "length 1099511627776", "past the end"],
    );
}

#[test]
fn buffer_byte_length_2_pow_40() {
    let b = quad_glb(|d| d["buffers"][0]["byteLength"] = json!(1u64 << 40));
    expect_err(
        "buffer_2_40.glb",
        &b,
        &["buffers[0]", "byteLength is 1099511627776"],
    );
}

#[test]
fn a_million_joints_in_one_skin_fail_fast() {
    // One million distinct joint nodes (a ~14 MB JSON): refused before the skeleton is built.
    const N: usize = 1_000_000;
    let mut nodes = vec![json!({"name": "skinned", "skin": 0})];
    nodes.extend((0..N).map(|_| json!({})));
    let doc = json!({
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "skins": [{"name": "huge", "joints": (1..=N).collect::<Vec<_>>()}]
    });
    let text = serde_json::to_vec(&doc).unwrap();
    drop(doc);
    expect_err(
        "million_joints.gltf",
        &text,
        &[
            "skins[0]",
            "1000000 joints",
            &format!("at most {}", gltf_io::MAX_SKIN_JOINTS),
        ],
    );
}

#[test]
fn a_skin_at_the_joint_limit_loads() {
    // Positive control for the limit: exactly MAX_SKIN_JOINTS joints (a flat list of roots).
    let n = gltf_io::MAX_SKIN_JOINTS;
    let nodes: Vec<Value> = (0..n)
        .map(|i| json!({"translation": [i as f32, 0, 0]}))
        .collect();
    let doc = json!({
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "skins": [{"joints": (0..n).collect::<Vec<_>>()}]
    });
    let c = load("limit_joints.gltf", &serde_json::to_vec(&doc).unwrap()).expect("loads");
    assert_eq!(c.skins[0].joints.len(), n);
}

/// Runs `f` on a thread with a 256 KiB stack: a recursive walk over 100,000 levels would
/// overflow it (and abort the test binary).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the small-stack thread panicked")
}

#[test]
fn hierarchy_100_000_deep_loads_on_a_small_stack() {
    const DEPTH: usize = 100_000;
    let (doc, bin) = deep_chain(DEPTH, None);
    let bytes = glb(&doc, &bin);
    let leaf_y = on_small_stack(move || {
        let c = load("deep.glb", &bytes).expect("a deep chain is valid glTF");
        assert_eq!(c.skeleton.len(), DEPTH);
        let pose = c.posed_scene();
        // deep_chain lists children before parents: node 0 is the leaf, DEPTH-1 the root.
        let leaf = c.node_to_bone[0];
        let y = pose.world_position(leaf).y;
        drop(c);
        y
    });
    assert_eq!(
        leaf_y,
        (DEPTH - 1) as f64,
        "each level is 1 unit above its parent"
    );
}

#[test]
fn long_joint_list_under_a_long_non_joint_chain_loads_in_linear_time() {
    // Root joint, then 20,000 non-joint nodes, then 20,000 joint leaves listed before the root
    // joint. Finding the root-most joint by walking up from each leaf (with a linear
    // "is a joint" search per step) was ~10^13 steps; it is now one pass.
    let (doc, bin) = deep_chain(20_000, Some(20_000));
    let bytes = glb(&doc, &bin);
    let c = on_small_stack(move || load("wide_skin.glb", &bytes).expect("valid"));
    let skin = &c.skins[0];
    assert_eq!(skin.joints.len(), 20_001);
    // Inverse binds match the scene, so the rest pose is the scene pose (no "posed" warning).
    assert!(
        !c.warnings.iter().any(|w| w.contains("posed scene")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn cyclic_node_graphs() {
    for (name, nodes) in [
        (
            "cycle3.gltf",
            json!([{"children": [1]}, {"children": [2]}, {"children": [0]}]),
        ),
        (
            "cycle_off_scene.gltf",
            json!([{}, {"children": [2]}, {"children": [3]}, {"children": [1]}]),
        ),
    ] {
        let doc = json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": nodes});
        expect_err(name, &gltf_text(&doc), &["cycle"]);
    }
    // A 100,000-node ring: still found without recursion.
    let n = 100_000;
    let nodes: Vec<Value> = (0..n).map(|i| json!({"children": [(i + 1) % n]})).collect();
    let doc = json!({"asset": {"version": "2.0"}, "nodes": nodes});
    let text = gltf_text(&doc);
    on_small_stack(move || expect_err("ring.gltf", &text, &["cycle"]));
}

#[test]
fn infinity_in_node_fields() {
    // JSON has no NaN; 1e39 is the nearest thing: beyond f32, so glTF's f32 fields cannot hold
    // it. The JSON reader refuses it with the position, before any transform is built.
    let cases: [(&str, Value); 5] = [
        ("translation", json!({"translation": [0, 1e39, 0]})),
        ("rotation", json!({"rotation": [0, 0, 1e39, 1]})),
        ("scale", json!({"scale": [1, 1e39, 1]})),
        (
            "matrix",
            json!({"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1e39,0,0,1]}),
        ),
        ("weights", json!({"weights": [-1e300]})),
    ];
    for (field, node) in cases {
        let b = quad_glb(|d| d["nodes"][2] = node);
        let name = format!("inf_{field}.glb");
        expect_err(
            &name,
            &b,
            &["JSON cannot be parsed", "out of range", "column"],
        );
    }
}

#[test]
fn nan_and_infinity_in_binary_data() {
    type Edit = fn(&mut Quad);
    let cases: [(&str, Edit, &[&str]); 6] = [
        (
            "nan_position",
            |q| q.positions[1][2] = f32::NAN,
            &["POSITION", "NaN or infinity"],
        ),
        (
            "inf_position",
            |q| q.positions[0][0] = f32::INFINITY,
            &["POSITION", "NaN"],
        ),
        (
            "nan_weight",
            |q| q.weights[2][1] = f32::NAN,
            &["WEIGHTS_0", "NaN or infinity"],
        ),
        (
            "nan_ibm",
            |q| q.ibms[1][5] = f32::NAN,
            &["inverseBindMatrices[1]", "NaN"],
        ),
        (
            "inf_ibm",
            |q| q.ibms[0][12] = f32::NEG_INFINITY,
            &["inverseBindMatrices[0]", "NaN"],
        ),
        (
            "nan_normal",
            |q| q.normals = Some(vec![[f32::NAN; 3]; 4]),
            &["NORMAL", "NaN"],
        ),
    ];
    for (name, edit, needles) in cases {
        let mut q = Quad::good();
        edit(&mut q);
        let (doc, bin) = q.document();
        expect_err(&format!("{name}.glb"), &glb(&doc, &bin), needles);
    }
}

#[test]
fn inverse_bind_matrices_that_are_not_invertible() {
    type Edit = fn(&mut [f32; 16]);
    let cases: [(&str, Edit); 3] = [
        ("ibm_zero", |m| *m = [0.0; 16]),
        ("ibm_rank2", |m| m[10] = 0.0),
        // Columns 0 and 1 equal: rank 3 of 4 with large entries (relative test, not absolute).
        ("ibm_parallel", |m| {
            *m = [
                1e6, 2e6, 0.0, 0.0, 1e6, 2e6, 0.0, 0.0, 0.0, 0.0, 1e6, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]
        }),
    ];
    for (name, edit) in cases {
        let mut q = Quad::good();
        edit(&mut q.ibms[1]);
        let (doc, bin) = q.document();
        expect_err(
            &format!("{name}.glb"),
            &glb(&doc, &bin),
            &["skins[0]", "not invertible"],
        );
    }
}

#[test]
fn finite_values_whose_products_overflow_give_no_nan() {
    // Each scale is a finite f32, but twelve of them multiply past f64's range (and their
    // inverses below it). Either an error, or a skeleton whose every world transform is finite.
    for (name, s) in [
        ("huge_scales.gltf", 3e38f32),
        ("tiny_scales.gltf", 1e-38f32),
    ] {
        let nodes: Vec<Value> = (0..12)
            .map(|i| {
                let mut n = json!({"scale": [s, s, s], "translation": [0, 1, 0]});
                if i < 11 {
                    n["children"] = json!([i + 1]);
                }
                n
            })
            .collect();
        let doc = json!({"asset": {"version": "2.0"}, "nodes": nodes});
        match load(name, &gltf_text(&doc)) {
            Err(e) => assert!(e.to_string().contains(name), "{e}"),
            Ok(c) => {
                let pose = c.posed_scene();
                assert!(
                    pose.is_finite(),
                    "{name}: loaded with non-finite world transforms"
                );
            }
        }
    }
}

#[test]
fn deeply_nested_json_is_no_stack_overflow() {
    let nest = |n: usize| "[".repeat(n) + &"]".repeat(n);
    // glTF extras are kept as opaque raw JSON, skipped without recursion: even on a 256 KiB
    // stack, 100,000 levels load.
    let gltf = format!(
        r#"{{"asset": {{"version": "2.0"}}, "extras": {}}}"#,
        nest(100_000)
    );
    on_small_stack(move || {
        load("nested.gltf", gltf.as_bytes())
            .map(|_| ())
            .expect("loads")
    });
    // Scenes and presets are read as JSON values: serde_json's depth limit (128) refuses them.
    let scene = format!(r#"{{"bones": {}}}"#, nest(100_000));
    let err = anglerpose::oracle::parse_scene(&scene, "nested_scene.json").unwrap_err();
    assert!(err.to_string().contains("nested_scene.json"), "{err}");
    assert!(err.to_string().contains("recursion limit"), "{err}");
    let preset = format!(r#"{{"format": {}}}"#, nest(100_000));
    let problems = anglerpose::preset::parse_preset(&preset).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("recursion limit")),
        "{problems:?}"
    );
}

#[path = "hostile/files.rs"]
mod files;
