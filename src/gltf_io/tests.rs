//! Unit tests on in-memory files: component types, strides, sparse data, weights, normals,
//! matrix decomposition.

use super::*;
use crate::rig::Pose;
use glam::{DQuat, DVec3};
use serde_json::{Value, json};

fn glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    crate::assetgen::glb::glb_container(&serde_json::to_vec(doc).unwrap(), Some(bin))
}

/// Three vertices, interleaved POSITION+NORMAL (stride 24), u8 joints, normalised u8 weights
/// (vertex 2 sums to 200/255 → renormalised), normalised u16 COLOR_0 vec3, a sparse
/// override of position 1, triangle strip without indices, two skins over one joint pair.
fn quantised_file() -> Vec<u8> {
    let mut bin = Vec::new();
    let pos = [
        [0.0f32, 0.0, 0.0],
        [9.0, 9.0, 9.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    for p in pos {
        bin.extend(p.iter().flat_map(|v| v.to_le_bytes()));
        bin.extend([0.0f32, 0.0, 1.0].iter().flat_map(|v| v.to_le_bytes()));
    }
    let joints_at = bin.len(); // 96
    for j in [[0u8, 1, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]] {
        bin.extend(j);
    }
    let weights_at = bin.len(); // 112
    for w in [
        [255u8, 0, 0, 0],
        [128, 127, 0, 0],
        [100, 100, 0, 0],
        [0, 255, 0, 0],
    ] {
        bin.extend(w);
    }
    let colors_at = bin.len(); // 128
    for c in [
        [65535u16, 0, 0],
        [0, 65535, 0],
        [0, 0, 65535],
        [32768, 32768, 32768],
    ] {
        bin.extend(c.iter().flat_map(|v| v.to_le_bytes()));
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let sparse_idx_at = bin.len();
    bin.extend(1u16.to_le_bytes());
    bin.extend([0, 0]);
    let sparse_val_at = bin.len();
    bin.extend([1.0f32, 0.0, 0.0].iter().flat_map(|v| v.to_le_bytes()));
    let len = bin.len();
    let doc = json!({
        "asset": {"version": "2.0"},
        "nodes": [
            {"name": "m", "mesh": 0, "skin": 0},
            {"name": "a", "children": [2], "rotation": [0.0, 0.0, 0.0, 1.0]},
            {"name": "b", "translation": [0.0, 1.0, 0.0]},
            {"name": "m2", "mesh": 0, "skin": 1}
        ],
        "skins": [{"joints": [1, 2]}, {"joints": [2, 1]}],
        "meshes": [{"primitives": [{"mode": 5, "attributes": {
            "POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3, "COLOR_0": 4}}]}],
        "buffers": [{"byteLength": len}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96, "byteStride": 24},
            {"buffer": 0, "byteOffset": joints_at, "byteLength": 16},
            {"buffer": 0, "byteOffset": weights_at, "byteLength": 16},
            {"buffer": 0, "byteOffset": colors_at, "byteLength": 24},
            {"buffer": 0, "byteOffset": sparse_idx_at, "byteLength": 2},
            {"buffer": 0, "byteOffset": sparse_val_at, "byteLength": 12}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "min": [0, 0, 0], "max": [9, 9, 9],
             "sparse": {"count": 1, "indices": {"bufferView": 4, "componentType": 5123},
                        "values": {"bufferView": 5}}},
            {"bufferView": 0, "byteOffset": 12, "componentType": 5126, "count": 4, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5121, "count": 4, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5123, "normalized": true, "count": 4, "type": "VEC3"}
        ]
    });
    glb(&doc, &bin)
}

#[test]
fn quantised_interleaved_sparse_strip() {
    let c = load_from_bytes(Path::new("mem.glb"), &quantised_file()).unwrap();
    assert_eq!(
        c.meshes.len(),
        2,
        "one mesh drawn by two nodes with different skins"
    );
    let p = &c.meshes[0].primitives[0];
    assert_eq!(
        p.positions[1],
        [1.0, 0.0, 0.0],
        "sparse value replaces element 1"
    );
    assert_eq!(p.positions[3], [1.0, 1.0, 0.0]);
    assert!(
        p.normals.iter().all(|n| *n == [0.0, 0.0, 1.0]),
        "stride-24 normals"
    );
    assert_eq!(p.joints.as_ref().unwrap()[0], [0, 1, 0, 0]);
    let w = p.weights.as_ref().unwrap();
    assert_eq!(w[0], [1.0, 0.0, 0.0, 0.0]);
    assert!((w[1][0] - 128.0 / 255.0).abs() < 1e-6 && (w[1][1] - 127.0 / 255.0).abs() < 1e-6);
    assert_eq!(w[2], [0.5, 0.5, 0.0, 0.0], "renormalised");
    let colors = p.colors.as_ref().unwrap();
    assert_eq!(colors[0], [1.0, 0.0, 0.0, 1.0]);
    assert!((colors[3][0] - 32768.0 / 65535.0).abs() < 1e-6);
    assert_eq!(
        p.indices,
        vec![0, 1, 2, 2, 1, 3],
        "strip → list, winding kept"
    );
    assert!(
        c.warnings
            .iter()
            .any(|m| m.contains("1 of 4 vertices had skin weights not summing")),
        "{:?}",
        c.warnings
    );
    // The second node's skin lists the joints in the other order: the same joint index in
    // JOINTS_0 names another bone, so posing joint "b" moves different vertices.
    let mut pose = Pose::rest(&c.skeleton);
    let b = c.skeleton.find("b").unwrap();
    pose.set_local_rotation(b, DQuat::from_rotation_z(1.0));
    pose.refresh_all(&c.skeleton);
    let first = skin_positions(&c, &pose, 0, 0);
    let second = skin_positions(&c, &pose, 1, 0);
    assert_eq!(
        first[0], p.positions[0],
        "vertex 0 is on joint 0 = a in skin 0"
    );
    assert_ne!(
        second[0], p.positions[0],
        "vertex 0 is on joint 0 = b in skin 1"
    );
    assert!(skin_positions(&c, &pose, 5, 0).is_empty());
}

#[test]
fn every_prefix_of_an_in_memory_glb_is_handled() {
    let bytes = quantised_file();
    for n in 0..bytes.len() {
        let _ = load_from_bytes(Path::new("mem.glb"), &bytes[..n]);
    }
}

#[test]
fn normals_are_area_weighted() {
    // Vertex 0 is shared by a 2×2 triangle facing +Z and a 1×1 triangle facing +X.
    let positions = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.0, 2.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let n = compute_normals(&positions, &[0, 1, 2, 0, 3, 4]);
    let want = DVec3::new(0.5, 0.0, 2.0).normalize();
    let got = DVec3::from_array(n[0].map(f64::from));
    assert!((got - want).length() < 1e-6, "{got}");
    assert_eq!(n[1], [0.0, 0.0, 1.0]);
    // Degenerate triangles and unused vertices get a unit fallback, never NaN.
    let n = compute_normals(&[[0.0; 3]; 4], &[0, 1, 2]);
    assert!(n.iter().all(|v| v.iter().all(|c| c.is_finite())));
}

#[test]
fn matrix_nodes_decompose_or_are_rejected() {
    let t = crate::rig::Transform::new(
        DVec3::new(1.0, -2.0, 3.0),
        DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.2, 2.0),
        DVec3::new(0.5, 2.0, 1.5),
    );
    let back = decompose_matrix(&t.to_mat4()).unwrap();
    assert!(
        (back.to_mat4() - t.to_mat4())
            .abs()
            .to_cols_array()
            .iter()
            .all(|v| *v < 1e-12)
    );
    let mut shear = DMat4::IDENTITY;
    shear.y_axis.x = 0.5;
    assert!(decompose_matrix(&shear).unwrap_err().contains("shear"));
    let mirror = DMat4::from_scale(DVec3::new(-1.0, 1.0, 1.0));
    assert!(decompose_matrix(&mirror).unwrap_err().contains("negative"));
    let mut nan = DMat4::IDENTITY;
    nan.w_axis.x = f64::NAN;
    assert!(decompose_matrix(&nan).unwrap_err().contains("NaN"));
}
