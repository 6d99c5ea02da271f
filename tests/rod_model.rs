//! A rod file in any frame and units becomes the canonical rod frame (butt at the origin,
//! blank +Y, reel −Z, metres): the bundled rod re-exported rotated, Z-up, in centimetres, in
//! game units and with the reel on the other side is found with the same butt, axis, grip and
//! seat within 1 cm and 2°; things that are not rods are refused by name (issue 20).

mod support;

use anglerpose::fishing::rod_model::{DEFAULT_ROD_LENGTH, RodModel};
use anglerpose::gltf_io;
use anglerpose::stage::rod_file::{RodFileError, rod_model};
use glam::{DAffine3, DQuat, DVec3};
use std::path::Path;
use support::checks::angle_deg;
use support::fs::asset;
use support::gltf_edit::{Doc, quat};

fn detect(path: &Path) -> Result<RodModel, RodFileError> {
    rod_model(&gltf_io::load(path).unwrap(), Some(DEFAULT_ROD_LENGTH))
}

#[test]
fn the_bundled_rod_is_its_own_canonical_frame() {
    let m = detect(&asset("rod.glb")).unwrap();
    assert!((m.length - 2.4).abs() < 1e-3, "{}", m.length);
    assert_eq!(m.metres_per_unit, 1.0);
    assert!(m.reel_found);
    let f = m.file_from_rod;
    assert!(f.translation.length() < 0.01, "butt at {:?}", f.translation);
    assert!(angle_deg(f.matrix3.y_axis, DVec3::Y) < 0.5);
    // The reel side: the bundled reel's crank sits on +X, turning it a few degrees.
    let reel = -f.matrix3.z_axis;
    assert!(angle_deg(reel, -DVec3::Z) < 6.0, "reel side {reel:?}");
    // The generator's reel seat is 0.40 m and its rear grip 0.08 m from the butt.
    assert!((m.reel_seat - 0.40).abs() < 0.03, "seat {}", m.reel_seat);
    assert!(
        (m.rear_grip - 0.08).abs() < 0.01,
        "rear grip {}",
        m.rear_grip
    );
    assert!(m.butt_radius > m.tip_radius);
}

#[test]
fn the_rod_in_other_frames_and_units_is_found_the_same() {
    let original = detect(&asset("rod.glb")).unwrap();
    let dir = std::env::temp_dir().join(format!("anglerpose-rods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, [f64; 4], f64); 6] = [
        ("blank_along_z", quat([1.0, 0.0, 0.0], 90.0), 1.0),
        ("z_up_centimetres", quat([1.0, 0.0, 0.0], -90.0), 100.0),
        ("reel_on_the_other_side", quat([0.0, 1.0, 0.0], 180.0), 1.0),
        ("along_minus_x_game_units", quat([0.0, 0.0, 1.0], 90.0), 3.7),
        ("upside_down", quat([0.0, 0.0, 1.0], 180.0), 1.0),
        ("oblique", quat([0.6, 0.0, 0.8], 37.0), 1.0),
    ];
    for (name, rotation, scale) in cases {
        let mut doc = Doc::read(&asset("rod.glb"));
        doc.wrap("export_root", rotation, scale);
        let path = dir.join(format!("{name}.glb"));
        std::fs::write(&path, doc.bytes()).unwrap();
        let m = detect(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The variant's canonical frame, brought back into the original file's space.
        let wrap = DAffine3::from_scale_rotation_translation(
            DVec3::splat(scale),
            DQuat::from_array(rotation),
            DVec3::ZERO,
        );
        let back = wrap.inverse() * m.file_from_rod;
        let orig = original.file_from_rod;
        for (what, q) in [
            ("butt", DVec3::ZERO),
            ("rear grip", DVec3::Y * original.rear_grip),
            ("reel seat", DVec3::Y * original.reel_seat),
            ("tip", DVec3::Y * original.length),
            ("reel side", -DVec3::Z * 0.1),
        ] {
            let d = (back.transform_point3(q) - orig.transform_point3(q)).length();
            assert!(d < 0.01, "{name}: {what} {:.1} mm apart", d * 1e3);
        }
        assert!(
            angle_deg(back.matrix3.y_axis, orig.matrix3.y_axis) < 2.0,
            "{name}: axis"
        );
        assert!(
            angle_deg(back.matrix3.z_axis, orig.matrix3.z_axis) < 2.0,
            "{name}: reel"
        );
        assert!(
            (m.length - original.length).abs() < 0.01,
            "{name}: {}",
            m.length
        );
        assert!(
            (m.reel_seat - original.reel_seat).abs() < 0.01,
            "{name}: seat"
        );
        assert!(
            (m.rear_grip - original.rear_grip).abs() < 0.01,
            "{name}: grip"
        );
        if scale == 1.0 {
            assert_eq!(m.metres_per_unit, 1.0, "{name}");
        } else {
            assert!(
                (m.metres_per_unit * scale - 1.0).abs() < 1e-3,
                "{name}: units"
            );
            assert!(m.notes.iter().any(|n| n.contains("not metres")), "{name}");
        }
    }
}

#[test]
fn what_is_not_a_rod_is_refused_by_name() {
    for (file, what) in [
        ("net.glb", "not long and thin"),
        ("stool.glb", "not long and thin"),
        ("angler.glb", "skinned character"),
    ] {
        let e = detect(&asset(file)).unwrap_err().to_string();
        assert!(e.contains(file) && e.contains(what), "{file}: {e}");
    }
    let nodes = support::figures::nodes_gltf(&[("lonely".to_string(), None, [0.0, 0.0, 0.0])]);
    let path = std::env::temp_dir().join("anglerpose-no-mesh-rod.gltf");
    std::fs::write(&path, nodes).unwrap();
    let e = detect(&path).unwrap_err().to_string();
    assert!(e.contains("no mesh vertices"), "{e}");
    // The CLI says the same and exits 1.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["inspect", "--as", "rod"])
        .arg(asset("stool.glb"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stool.glb"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["inspect", "--as", "rod", "--json"])
        .arg(asset("rod.glb"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((v["length_m"].as_f64().unwrap() - 2.4).abs() < 1e-3);
    assert_eq!(v["reel_found"], true);
}

/// The handle round the reel seat (where a thumb along the handle lies) is measured on the
/// bundled rod's mesh as `RodGear::BUNDLED` holds it: the rear cork's end toward the butt, the
/// seat, and the fore grip toward the tip, each within 2 cm along the blank and 0.2 mm in
/// radius; the seat's stretch holds the seat and the fore grip is thinner than the seat.
#[test]
fn the_bundled_rods_front_handle_is_measured_on_its_mesh() {
    use anglerpose::fishing::RodGear;
    let m = detect(&asset("rod.glb")).unwrap();
    let found = m
        .gear(m.rear_grip, m.reel_seat, false)
        .front_handle
        .expect("the bundled rod's front handle");
    let bundled = RodGear::BUNDLED.front_handle.unwrap();
    for (name, (f, b)) in ["butt side", "seat", "tip side"]
        .iter()
        .zip(found.iter().zip(&bundled))
    {
        assert!(
            (f.start - b.start).abs() < 0.02 && (f.end - b.end).abs() < 0.02,
            "{name}: {f:?} against {b:?}"
        );
        assert!(
            (f.radius - b.radius).abs() < 2e-4,
            "{name}: {f:?} against {b:?}"
        );
    }
    let [butt, seat, tip] = found;
    assert!(
        seat.start < m.reel_seat && m.reel_seat < seat.end,
        "{seat:?}"
    );
    assert!(butt.end <= seat.start && seat.end <= tip.start);
    assert!(tip.radius < seat.radius - 1e-3, "{tip:?} {seat:?}");
}
