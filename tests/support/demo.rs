//! A small synthetic scene (a bent, skinned three-bone "figure" tube, a textured stool, a rod,
//! a landing net, CCD-helper overlays and a limit arc) for tests, benches and smoke checks of
//! the renderer without the bundled angler.
#![allow(dead_code)]

use anglerpose::render::{
    Camera, FrameData, MeshData, MeshHandle, OverlayArc, OverlayLine, OverlaySphere,
    OverlayTriangle, Overlays, RigidDraw, SkinnedDraw, TextureData,
};
use anglerpose::stage::colors;
use glam::{Mat4, Quat, Vec3};
use std::f32::consts::TAU;

/// Heights of the tube's three joints in bind pose (bone `j` starts at `TUBE_JOINTS_Y[j]`).
pub const TUBE_JOINTS_Y: [f32; 3] = [0.0, 0.55, 1.1];
/// Total tube length along +Y.
pub const TUBE_LENGTH: f32 = 1.6;

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A capped tube along +Y skinned to three bones at [`TUBE_JOINTS_Y`], with vertex colours
/// (blue "shirt" above, dark "trousers" below) and smooth weights across each joint.
pub fn tube_mesh(around: u32, rings: u32) -> MeshData {
    let (around, rings) = (around.max(3), rings.max(2));
    let mut m = MeshData::new("demo tube");
    let [_, y1, y2] = TUBE_JOINTS_Y;
    let skin = |y: f32| {
        let a = smoothstep(y1 - 0.12, y1 + 0.12, y);
        let b = smoothstep(y2 - 0.12, y2 + 0.12, y);
        ([0u16, 1, 2, 0], [1.0 - a, a * (1.0 - b), a * b, 0.0])
    };
    let colour = |y: f32| {
        let t = smoothstep(0.45, 0.6, y);
        let low = [0.10, 0.12, 0.16, 1.0];
        let high = [0.16, 0.36, 0.62, 1.0];
        std::array::from_fn(|i| low[i] + (high[i] - low[i]) * t)
    };
    for r in 0..=rings {
        let y = TUBE_LENGTH * r as f32 / rings as f32;
        let radius = 0.11 + 0.025 * (y * 5.0).sin() - 0.03 * y / TUBE_LENGTH;
        for k in 0..around {
            let phi = TAU * k as f32 / around as f32;
            let (s, c) = phi.sin_cos();
            m.positions.push([radius * c, y, radius * s]);
            m.normals.push([c, 0.0, s]);
            m.uvs.push([k as f32 / around as f32, y / TUBE_LENGTH]);
            m.colors.push(colour(y));
            let (j, w) = skin(y);
            m.joints.push(j);
            m.weights.push(w);
        }
    }
    for r in 0..rings {
        for k in 0..around {
            let a = r * around + k;
            let b = r * around + (k + 1) % around;
            let (c, d) = (a + around, b + around);
            m.indices.extend_from_slice(&[a, c, b, b, c, d]);
        }
    }
    for (y, ring, normal_y) in [(0.0, 0, -1.0f32), (TUBE_LENGTH, rings, 1.0)] {
        let centre = m.positions.len() as u32;
        m.positions.push([0.0, y, 0.0]);
        m.normals.push([0.0, normal_y, 0.0]);
        m.uvs.push([0.5, 0.5]);
        m.colors.push(colour(y));
        let (j, w) = skin(y);
        m.joints.push(j);
        m.weights.push(w);
        for k in 0..around {
            let a = ring * around + k;
            let b = ring * around + (k + 1) % around;
            // Counter-clockwise seen from outside: the bottom cap faces −Y, the top +Y.
            if normal_y < 0.0 {
                m.indices.extend_from_slice(&[centre, a, b]);
            } else {
                m.indices.extend_from_slice(&[centre, b, a]);
            }
        }
    }
    m
}

/// Joint world matrices of the tube posed by `bend` (radians): bone 0 about Z, bone 1 about
/// Z, bone 2 about X, each at its joint.
pub fn tube_world_from_joint(bend: [f32; 3]) -> [Mat4; 3] {
    let [y0, y1, y2] = TUBE_JOINTS_Y;
    let l0 =
        Mat4::from_rotation_translation(Quat::from_rotation_z(bend[0]), Vec3::new(0.0, y0, 0.0));
    let l1 = Mat4::from_rotation_translation(
        Quat::from_rotation_z(bend[1]),
        Vec3::new(0.0, y1 - y0, 0.0),
    );
    let l2 = Mat4::from_rotation_translation(
        Quat::from_rotation_x(bend[2]),
        Vec3::new(0.0, y2 - y1, 0.0),
    );
    let w0 = l0;
    let w1 = w0 * l1;
    [w0, w1, w1 * l2]
}

/// Skin matrices (joint world × inverse bind) for [`tube_world_from_joint`].
pub fn tube_skin_matrices(bend: [f32; 3]) -> Vec<[[f32; 4]; 4]> {
    tube_world_from_joint(bend)
        .iter()
        .zip(TUBE_JOINTS_Y)
        .map(|(w, y)| (*w * Mat4::from_translation(Vec3::new(0.0, -y, 0.0))).to_cols_array_2d())
        .collect()
}

/// An axis-aligned box of half extents `half`, base at y = 0, with a checker texture.
pub fn stool_mesh(half: [f32; 3]) -> MeshData {
    let mut m = MeshData::new("demo stool");
    let faces: [(Vec3, Vec3, Vec3); 6] = [
        (Vec3::X, Vec3::Y, Vec3::Z),
        (Vec3::NEG_X, Vec3::Y, Vec3::NEG_Z),
        (Vec3::Y, Vec3::Z, Vec3::X),
        (Vec3::NEG_Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::Y, Vec3::NEG_X),
        (Vec3::NEG_Z, Vec3::Y, Vec3::X),
    ];
    let h = Vec3::from(half);
    for (n, u, v) in faces {
        let base = m.positions.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = (n + u * su + v * sv) * h + Vec3::new(0.0, h.y, 0.0);
            m.positions.push(p.to_array());
            m.normals.push(n.to_array());
            m.uvs.push([(su + 1.0) * 0.5, (sv + 1.0) * 0.5]);
        }
        // Wind counter-clockwise seen from outside.
        if u.cross(v).dot(n) > 0.0 {
            m.indices
                .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        } else {
            m.indices
                .extend_from_slice(&[base, base + 2, base + 1, base, base + 3, base + 2]);
        }
    }
    let size = 8u32;
    let mut rgba8 = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let c = if (x + y) % 2 == 0 {
                [150, 105, 70, 255]
            } else {
                [120, 80, 50, 255]
            };
            rgba8.extend_from_slice(&c);
        }
    }
    m.texture = Some(TextureData {
        width: size,
        height: size,
        rgba8,
    });
    m
}

/// A solid of revolution around +Y through `profile` points `(radius, y)`.
pub fn lathe_mesh(name: &str, profile: &[(f32, f32)], around: u32, colour: [f32; 4]) -> MeshData {
    let around = around.max(3);
    let mut m = MeshData::new(name);
    m.base_color = colour;
    for &(r, y) in profile {
        for k in 0..around {
            let (s, c) = (TAU * k as f32 / around as f32).sin_cos();
            m.positions.push([r * c, y, r * s]);
        }
    }
    for i in 0..profile.len().saturating_sub(1) as u32 {
        for k in 0..around {
            let a = i * around + k;
            let b = i * around + (k + 1) % around;
            m.indices
                .extend_from_slice(&[a, a + around, b, b, a + around, b + around]);
        }
    }
    m
}

/// A torus in the XZ plane (net hoop): `major` radius, tube `minor` radius.
pub fn torus_mesh(name: &str, major: f32, minor: f32, colour: [f32; 4]) -> MeshData {
    let (n, k) = (48u32, 10u32);
    let mut m = MeshData::new(name);
    m.base_color = colour;
    for i in 0..n {
        let (s, c) = (TAU * i as f32 / n as f32).sin_cos();
        for j in 0..k {
            let (sb, cb) = (TAU * j as f32 / k as f32).sin_cos();
            let r = major + minor * cb;
            m.positions.push([r * c, minor * sb, r * s]);
            m.normals.push([cb * c, sb, cb * s]);
        }
    }
    for i in 0..n {
        for j in 0..k {
            let a = i * k + j;
            let b = ((i + 1) % n) * k + j;
            let c = i * k + (j + 1) % k;
            let d = ((i + 1) % n) * k + (j + 1) % k;
            m.indices.extend_from_slice(&[a, c, b, c, d, b]);
        }
    }
    m
}

/// The demo's meshes in upload order: tube, stool, rod, net hoop, net handle.
pub fn meshes() -> Vec<MeshData> {
    let rod_profile = [
        (0.016, 0.0),
        (0.016, 0.35),
        (0.011, 0.4),
        (0.004, 2.1),
        (0.0, 2.1),
    ];
    vec![
        tube_mesh(24, 48),
        stool_mesh([0.17, 0.2, 0.17]),
        lathe_mesh("demo rod", &rod_profile, 12, [0.85, 0.55, 0.12, 1.0]),
        torus_mesh("demo net hoop", 0.2, 0.012, [0.25, 0.25, 0.28, 1.0]),
        lathe_mesh(
            "demo net handle",
            &[(0.012, 0.0), (0.012, 0.9)],
            10,
            [0.6, 0.62, 0.65, 1.0],
        ),
    ]
}

/// Named demo cameras.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoView {
    Front,
    ThreeQuarter,
}

/// The demo camera for `view` at `size` pixels.
pub fn camera(view: DemoView, size: [u32; 2]) -> Camera {
    let eye = match view {
        DemoView::Front => [0.0, 1.0, 3.4],
        DemoView::ThreeQuarter => [2.4, 1.7, 2.6],
    };
    Camera::look_at(
        eye,
        [0.0, 0.75, 0.0],
        [0.0, 1.0, 0.0],
        40f32.to_radians(),
        size,
        0.05,
        50.0,
    )
}

/// The demo pose used by the golden images.
pub const DEMO_BEND: [f32; 3] = [0.15, 0.7, 0.5];

/// The frame for `handles` (from uploading [`meshes`] in order), posed by `bend`.
pub fn frame(
    handles: &[MeshHandle],
    camera: Camera,
    bend: [f32; 3],
    with_overlays: bool,
) -> FrameData {
    let mut f = FrameData::new(camera);
    let h = |i: usize| handles.get(i).copied();
    if let Some(mesh) = h(0) {
        f.skinned.push(SkinnedDraw {
            mesh,
            skin_matrices: tube_skin_matrices(bend),
        });
    }
    let mut rigid = |i: usize, m: Mat4| {
        if let Some(mesh) = h(i) {
            f.rigid.push(RigidDraw {
                mesh,
                world_from_mesh: m.to_cols_array_2d(),
                tint: [1.0; 4],
            });
        }
    };
    rigid(1, Mat4::from_translation(Vec3::new(0.55, 0.0, 0.1)));
    let rod = Mat4::from_rotation_translation(
        Quat::from_rotation_y(-0.4) * Quat::from_rotation_z(-0.95),
        Vec3::new(0.15, 0.55, 0.2),
    );
    rigid(2, rod);
    rigid(3, Mat4::from_translation(Vec3::new(-0.75, 0.05, 0.35)));
    rigid(
        4,
        Mat4::from_rotation_translation(Quat::from_rotation_z(1.2), Vec3::new(-0.55, 0.05, 0.35)),
    );
    if with_overlays {
        f.overlays = overlays(bend);
    }
    f
}

/// CCD-helper overlays for the tube in pose `bend`: links at joints 0 and 1, effector at the
/// tip, a target off to the side, the polyline, bone lines, the elbow bend plane, a pole
/// marker and a limit arc at joint 1.
pub fn overlays(bend: [f32; 3]) -> Overlays {
    let worlds = tube_world_from_joint(bend);
    let joint = |i: usize| worlds[i].transform_point3(Vec3::ZERO);
    let tip = worlds[2].transform_point3(Vec3::new(0.0, TUBE_LENGTH - TUBE_JOINTS_Y[2], 0.0));
    let (j0, j1, j2) = (joint(0), joint(1), joint(2));
    let target = tip + Vec3::new(0.25, 0.12, 0.1);
    let pole = j1 + Vec3::new(0.1, 0.0, 0.45);
    let r = 0.035;
    let sphere = |p: Vec3, hex: u32| OverlaySphere {
        centre: p.to_array(),
        radius: r,
        rgba: colors::linear(hex, 1.0),
    };
    let limit_min = -0.3f32;
    let limit_max = 1.2f32;
    let axis = worlds[0].transform_vector3(Vec3::Z);
    let zero_dir = worlds[0].transform_vector3(Vec3::Y);
    let start_dir = Quat::from_axis_angle(axis, limit_min) * zero_dir;
    Overlays {
        spheres: vec![
            sphere(target, colors::TARGET),
            sphere(tip, colors::EFFECTOR),
            sphere(j2, colors::LINK),
            sphere(j1, colors::LINK),
            sphere(pole, colors::POLE),
        ],
        lines: vec![
            OverlayLine {
                points: [j0, j1, j2, tip].map(|p| p.to_array()).to_vec(),
                rgba: colors::linear(colors::BONE, 0.9),
                width_px: 2.0,
            },
            OverlayLine {
                points: [target, tip, j2, j1].map(|p| p.to_array()).to_vec(),
                rgba: colors::linear(colors::POLYLINE, 1.0),
                width_px: 2.0,
            },
        ],
        arcs: vec![OverlayArc {
            centre: j1.to_array(),
            axis: axis.to_array(),
            start_dir: start_dir.to_array(),
            sweep_rad: limit_max - limit_min,
            radius: 0.22,
            current_angle: bend[1] - limit_min,
            fill_rgba: colors::linear(colors::ARC, 0.28),
            line_rgba: colors::linear(colors::ARC, 1.0),
            limit_rgba: colors::linear(colors::ARC_ON_LIMIT, 1.0),
            on_limit: false,
        }],
        triangles: vec![OverlayTriangle {
            points: [j0.to_array(), j1.to_array(), tip.to_array()],
            rgba: colors::linear(colors::BEND_PLANE, 0.22),
        }],
    }
}
