//! The rigid props: spinning rod, landing net and camping stool (see [`super`] for their
//! frames and named nodes).

use super::body::srgb;
use super::glb::GlbBuilder;
use super::mesher::TriMesh;
use super::shapes::{cuboid, lathe, torus, tube};
use glam::{DMat3, DVec3};
use std::f64::consts::{FRAC_PI_2, TAU};

/// Rod length, metres (butt at the origin, tip at `+Y * ROD_LENGTH`).
pub const ROD_LENGTH: f64 = 2.4;
/// Rear-hand grip point on the rod axis, metres from the butt.
pub const ROD_GRIP_REAR: f64 = 0.08;
/// Front-hand grip point (middle of the reel seat), metres from the butt.
pub const ROD_GRIP_FRONT: f64 = 0.40;
/// The reel's crank axis (along X) passes through this point, rod space, metres: the
/// `reel_crank` node's origin. The crank is on the reel's −X side, where the rear hand of a
/// right-handed angler cranks (`fishing::Gear::BUNDLED` holds the same numbers; a test
/// compares them).
pub const REEL_CRANK_CENTRE: [f64; 3] = [-0.06, ROD_GRIP_FRONT + 0.01, -0.075];
/// The knob's distance from the crank axis, metres.
pub const REEL_CRANK_RADIUS: f64 = 0.045;
/// The knob's radius and length along the crank axis, metres (centred on the crank centre's X).
pub const REEL_KNOB_RADIUS: f64 = 0.0065;
pub const REEL_KNOB_LENGTH: f64 = 0.018;
/// Landing-net handle length and grip point, metres from the handle end.
pub const NET_HANDLE: f64 = 1.2;
pub const NET_GRIP: f64 = 0.10;
/// Height of the stool's seat top above the ground, metres.
pub const STOOL_HEIGHT: f64 = 0.45;

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// Radius of the blank at `y` metres from the butt.
fn blank_radius(y: f64) -> f64 {
    let t = (y / ROD_LENGTH).clamp(0.0, 1.0);
    0.0068 + (0.0013 - 0.0068) * t.powf(0.8)
}

/// The reel's crank at angle 0, in the `reel_crank` node's frame (origin on the crank axis
/// at the knob's middle, axis +X toward the reel): a stub out of the reel body's side, an arm,
/// and the knob at [`REEL_CRANK_RADIUS`] toward +Y. The session turns the node about its X
/// axis (the knob at `(0, r cos a, r sin a)`).
fn crank_mesh() -> TriMesh {
    let mut m = TriMesh::default();
    let (silver, rubber) = (srgb(168, 170, 176), srgb(38, 38, 40));
    // The reel body's side is at x = −0.018 in rod space.
    let side = -0.018 - REEL_CRANK_CENTRE[0];
    let r = REEL_CRANK_RADIUS;
    let half = 0.5 * REEL_KNOB_LENGTH;
    tube(
        &mut m,
        v(side, 0.0, 0.0),
        v(side - 0.014, 0.0, 0.0),
        0.004,
        0.004,
        8,
        silver,
        true,
    );
    tube(
        &mut m,
        v(side - 0.014, 0.0, 0.0),
        v(half, r, 0.0),
        0.003,
        0.003,
        8,
        silver,
        true,
    );
    tube(
        &mut m,
        v(half, r, 0.0),
        v(-half, r, 0.0),
        REEL_KNOB_RADIUS,
        REEL_KNOB_RADIUS,
        12,
        rubber,
        true,
    );
    m
}

fn rod_mesh() -> TriMesh {
    let mut m = TriMesh::default();
    blank_and_grips(&mut m);
    spinning_reel(&mut m);
    // The crank turns: it is its own node (`reel_crank`, see `crank_mesh`).
    guides_and_tip(&mut m);
    m
}

/// The blank in tapered sections, the butt cap, the cork grips and the reel seat.
fn blank_and_grips(m: &mut TriMesh) {
    let (cork, rubber, blank) = (srgb(196, 160, 112), srgb(38, 38, 40), srgb(46, 52, 64));
    let (metal, silver) = (srgb(58, 60, 66), srgb(168, 170, 176));
    // Blank in tapered sections (inside the grips where it is hidden).
    let stations = [0.28, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1, ROD_LENGTH];
    for w in stations.windows(2) {
        let (a, b) = (w[0], w[1]);
        let cap = b >= ROD_LENGTH;
        tube(
            m,
            v(0.0, a, 0.0),
            v(0.0, b, 0.0),
            blank_radius(a),
            blank_radius(b),
            10,
            blank,
            cap,
        );
    }
    tube(
        m,
        v(0.0, 0.0, 0.0),
        v(0.0, 0.014, 0.0),
        0.0135,
        0.0135,
        20,
        rubber,
        true,
    );
    let rear = [
        (0.014, 0.0125),
        (0.06, 0.0135),
        (0.15, 0.0141),
        (0.25, 0.0128),
        (0.30, 0.0112),
    ];
    lathe(m, DVec3::ZERO, DVec3::Y, &rear, 20, cork);
    tube(
        m,
        v(0.0, 0.30, 0.0),
        v(0.0, 0.312, 0.0),
        0.0095,
        0.0085,
        16,
        silver,
        true,
    );
    lathe(
        m,
        v(0.0, 0.34, 0.0),
        DVec3::Y,
        &[(0.0, 0.0105), (0.12, 0.0105)],
        16,
        metal,
    );
    for y in [0.34, 0.445] {
        tube(
            m,
            v(0.0, y, 0.0),
            v(0.0, y + 0.015, 0.0),
            0.0118,
            0.0118,
            16,
            silver,
            true,
        );
    }
    lathe(
        m,
        v(0.0, 0.46, 0.0),
        DVec3::Y,
        &[(0.0, 0.0112), (0.04, 0.0108), (0.075, 0.0092)],
        16,
        cork,
    );
}

/// The spinning reel below the rod (−Z), its foot on the reel seat.
fn spinning_reel(m: &mut TriMesh) {
    let (metal, silver, reel) = (srgb(58, 60, 66), srgb(168, 170, 176), srgb(44, 46, 52));
    // Spinning reel below the rod (−Z), foot on the reel seat.
    let body = v(0.0, 0.392, -0.082);
    tube(
        m,
        v(0.0, 0.365, -0.011),
        v(0.0, 0.425, -0.011),
        0.003,
        0.003,
        8,
        reel,
        true,
    );
    tube(
        m,
        v(0.0, 0.398, -0.012),
        body + v(0.0, 0.0, 0.024),
        0.0055,
        0.0065,
        10,
        reel,
        true,
    );
    tube(
        m,
        body - DVec3::X * 0.018,
        body + DVec3::X * 0.018,
        0.027,
        0.027,
        20,
        reel,
        true,
    );
    let rotor = body + DVec3::Y * 0.014;
    tube(
        m,
        rotor,
        rotor + DVec3::Y * 0.03,
        0.026,
        0.024,
        20,
        metal,
        true,
    );
    let spool = rotor + DVec3::Y * 0.03;
    tube(
        m,
        spool,
        spool + DVec3::Y * 0.026,
        0.020,
        0.020,
        20,
        srgb(210, 200, 160),
        true,
    );
    tube(
        m,
        spool + DVec3::Y * 0.026,
        spool + DVec3::Y * 0.03,
        0.023,
        0.023,
        20,
        silver,
        true,
    );
    tube(
        m,
        spool + DVec3::Y * 0.03,
        spool + DVec3::Y * 0.044,
        0.011,
        0.009,
        12,
        reel,
        true,
    );
    torus(
        m,
        spool + DVec3::Y * 0.012,
        DVec3::Y,
        0.027,
        0.0014,
        24,
        6,
        silver,
    );
}

/// The bundled rod's guides on the reel's side, shrinking toward the tip: metres from the butt
/// and each ring's radius.
pub const ROD_GUIDES: [(f64, f64); 7] = [
    (0.80, 0.016),
    (1.10, 0.011),
    (1.38, 0.0078),
    (1.64, 0.0058),
    (1.88, 0.0047),
    (2.10, 0.0040),
    (2.28, 0.0034),
];

/// The guides on the reel's side ([`ROD_GUIDES`]) and the tip-top ring.
fn guides_and_tip(m: &mut TriMesh) {
    let (metal, silver) = (srgb(58, 60, 66), srgb(168, 170, 176));
    for (y, ring) in ROD_GUIDES {
        guide(m, y, blank_radius(y), ring, (0.022, 0.018), silver, metal);
    }
    let tip_ring = 0.0026;
    torus(
        m,
        v(0.0, ROD_LENGTH - 0.002, -(0.0013 + tip_ring)),
        DVec3::Y,
        tip_ring,
        0.0008,
        16,
        6,
        silver,
    );
}

fn net_mesh() -> TriMesh {
    let mut m = TriMesh::default();
    let (foam, alu, hoop, mesh) = (
        srgb(34, 34, 36),
        srgb(140, 146, 152),
        srgb(44, 62, 50),
        srgb(40, 48, 44),
    );
    tube(
        &mut m,
        DVec3::ZERO,
        v(0.0, 0.34, 0.0),
        0.016,
        0.015,
        16,
        foam,
        true,
    );
    tube(
        &mut m,
        v(0.0, 0.34, 0.0),
        v(0.0, NET_HANDLE, 0.0),
        0.0125,
        0.011,
        14,
        alu,
        true,
    );
    tube(
        &mut m,
        v(0.0, NET_HANDLE - 0.04, 0.0),
        v(0.0, NET_HANDLE + 0.01, 0.0),
        0.015,
        0.013,
        14,
        hoop,
        true,
    );
    let radius = 0.25;
    let centre = v(0.0, NET_HANDLE + radius, 0.0);
    torus(&mut m, centre, DVec3::Z, radius, 0.0065, 64, 8, hoop);
    // Bag: rings and meridians of thin line hanging toward −Z.
    let depth = 0.42;
    let (meridians, rings) = (18u32, 6u32);
    let point = |i: u32, k: u32| -> DVec3 {
        let s = k as f64 / rings as f64;
        let r = radius * (s * FRAC_PI_2 * 0.92).cos();
        let a = TAU * i as f64 / meridians as f64;
        centre + v(a.cos() * r, a.sin() * r, -depth * s.powf(0.8))
    };
    let line = 0.0016;
    for i in 0..meridians {
        for k in 0..rings {
            tube(
                &mut m,
                point(i, k),
                point(i, k + 1),
                line,
                line,
                4,
                mesh,
                false,
            );
            if k > 0 {
                tube(
                    &mut m,
                    point(i, k),
                    point((i + 1) % meridians, k),
                    line,
                    line,
                    4,
                    mesh,
                    false,
                );
            }
        }
        tube(
            &mut m,
            point(i, rings),
            point((i + 1) % meridians, rings),
            line,
            line,
            4,
            mesh,
            false,
        );
    }
    m
}

fn stool_mesh() -> TriMesh {
    let mut m = TriMesh::default();
    let (canvas, frame, feet) = (srgb(62, 88, 72), srgb(122, 126, 132), srgb(30, 30, 32));
    let seat_half = v(0.17, 0.018, 0.15);
    cuboid(
        &mut m,
        v(0.0, STOOL_HEIGHT - seat_half.y, 0.0),
        DMat3::IDENTITY,
        seat_half,
        canvas,
    );
    let rail_y = STOOL_HEIGHT - 0.02;
    for z in [-0.15, 0.15] {
        tube(
            &mut m,
            v(-0.175, rail_y, z),
            v(0.175, rail_y, z),
            0.011,
            0.011,
            14,
            frame,
            true,
        );
    }
    for (x, z) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let top = v(0.15 * x, rail_y, 0.14 * z);
        let foot = v(0.185 * x, 0.02, 0.175 * z);
        tube(&mut m, top, foot, 0.0105, 0.0105, 12, frame, true);
        tube(
            &mut m,
            v(foot.x, 0.0, foot.z),
            v(foot.x, 0.03, foot.z),
            0.015,
            0.013,
            12,
            feet,
            true,
        );
    }
    for x in [-1.0, 1.0] {
        let y = 0.16;
        let xa = 0.15 + (0.185 - 0.15) * (rail_y - y) / (rail_y - 0.02);
        let za = 0.14 + (0.175 - 0.14) * (rail_y - y) / (rail_y - 0.02);
        tube(
            &mut m,
            v(xa * x, y, -za),
            v(xa * x, y, za),
            0.007,
            0.007,
            10,
            frame,
            true,
        );
    }
    m
}

/// Writes one rigid prop: a mesh node named `name` at the scene root with the given empty
/// child nodes `(name, translation)`.
/// A rod guide on the −Z side of the blank (radius `r`) at `y`: a ring of radius `ring` on a
/// stand, its foot along the blank from `y − foot.0` and its brace from `y − foot.1`.
pub(super) fn guide(
    m: &mut TriMesh,
    y: f64,
    r: f64,
    ring: f64,
    foot: (f64, f64),
    silver: [f32; 3],
    metal: [f32; 3],
) {
    let stand = 0.004 + ring * 1.2;
    let centre = v(0.0, y, -(r + stand + ring));
    torus(m, centre, DVec3::Y, ring, 0.0012, 20, 6, silver);
    tube(
        m,
        v(0.0, y - foot.0, -r),
        v(0.0, y + 0.004, -r),
        0.0012,
        0.0012,
        6,
        metal,
        true,
    );
    tube(
        m,
        v(0.0, y - foot.1, -r),
        centre + DVec3::Z * ring,
        0.0009,
        0.0007,
        6,
        metal,
        true,
    );
}

pub(super) fn prop_glb(name: &str, mesh: &TriMesh, empties: &[(&str, [f64; 3])]) -> Vec<u8> {
    let mut glb = GlbBuilder::default();
    let prim = glb.primitive(mesh, None);
    let mesh_index = glb.mesh(name, vec![prim]);
    let node = glb.node(name, [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
    glb.set_mesh(node, mesh_index, None);
    let children: Vec<usize> = empties
        .iter()
        .map(|(n, t)| glb.node(n, *t, [0.0, 0.0, 0.0, 1.0]))
        .collect();
    glb.set_children(node, &children);
    glb.scene_root(node);
    glb.finish()
}

/// A rod as a GLB: the node `name` with `mesh`, and its child [`REEL_CRANK_NODE`] at
/// `crank_pivot` carrying `crank` (positions relative to the pivot).
pub fn prop_glb_with_crank(
    name: &str,
    mesh: &TriMesh,
    crank: &TriMesh,
    crank_pivot: DVec3,
) -> Vec<u8> {
    let mut glb = GlbBuilder::default();
    let prim = glb.primitive(mesh, None);
    let mesh_index = glb.mesh(name, vec![prim]);
    let node = glb.node(name, [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
    glb.set_mesh(node, mesh_index, None);
    let crank_prim = glb.primitive(crank, None);
    let crank_index = glb.mesh(REEL_CRANK_NODE, vec![crank_prim]);
    let crank_node = glb.node(
        REEL_CRANK_NODE,
        crank_pivot.to_array(),
        [0.0, 0.0, 0.0, 1.0],
    );
    glb.set_mesh(crank_node, crank_index, None);
    glb.set_children(node, &[crank_node]);
    glb.scene_root(node);
    glb.finish()
}

/// One rigid mesh as a GLB with a single node (test and tool models).
pub fn mesh_glb(name: &str, mesh: &TriMesh) -> Vec<u8> {
    prop_glb(name, mesh, &[])
}

/// `rod.glb`: butt at the origin, tip at +Y, reel and guides on the −Z side; empties
/// `grip_rear`, `grip_front`, `tip` on the rod axis; the reel's crank as the child node
/// `reel_crank` (see `crank_mesh`), which the session turns, with the empty `reel_knob` at
/// the knob's middle.
pub fn rod_glb() -> Vec<u8> {
    let mut glb = GlbBuilder::default();
    let prim = glb.primitive(&rod_mesh(), None);
    let mesh_index = glb.mesh("rod", vec![prim]);
    let node = glb.node("rod", [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
    glb.set_mesh(node, mesh_index, None);
    let mut children: Vec<usize> = [
        ("grip_rear", [0.0, ROD_GRIP_REAR, 0.0]),
        ("grip_front", [0.0, ROD_GRIP_FRONT, 0.0]),
        ("tip", [0.0, ROD_LENGTH, 0.0]),
    ]
    .iter()
    .map(|(n, t)| glb.node(n, *t, [0.0, 0.0, 0.0, 1.0]))
    .collect();
    let crank_prim = glb.primitive(&crank_mesh(), None);
    let crank_mesh_index = glb.mesh(REEL_CRANK_NODE, vec![crank_prim]);
    let crank = glb.node(REEL_CRANK_NODE, REEL_CRANK_CENTRE, [0.0, 0.0, 0.0, 1.0]);
    glb.set_mesh(crank, crank_mesh_index, None);
    let knob = glb.node(
        REEL_KNOB_NODE,
        [0.0, REEL_CRANK_RADIUS, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    );
    glb.set_children(crank, &[knob]);
    children.push(crank);
    glb.set_children(node, &children);
    glb.scene_root(node);
    glb.finish()
}

/// The name of a rod file's node that the session turns with the reel's crank: about its own
/// X axis, by the crank angle, from its rest (the crank at angle 0).
pub const REEL_CRANK_NODE: &str = "reel_crank";
/// The bundled rod's empty at the knob's middle, a child of [`REEL_CRANK_NODE`] (where an
/// engine attaches a hand, and where the clip tests see the crank turn).
pub const REEL_KNOB_NODE: &str = "reel_knob";

/// `net.glb`: handle end at the origin, handle along +Y, hoop beyond it, bag toward −Z;
/// empty `grip` on the handle axis.
pub fn net_glb() -> Vec<u8> {
    prop_glb("net", &net_mesh(), &[("grip", [0.0, NET_GRIP, 0.0])])
}

/// `stool.glb`: origin on the ground below the seat centre, seat top at `STOOL_HEIGHT`;
/// empty `seat` at the seat top centre.
pub fn stool_glb() -> Vec<u8> {
    prop_glb(
        "stool",
        &stool_mesh(),
        &[("seat", [0.0, STOOL_HEIGHT, 0.0])],
    )
}

/// The meshes themselves, for previews.
pub fn prop_meshes() -> [(&'static str, TriMesh); 3] {
    [
        ("rod", {
            let mut rod = rod_mesh();
            let mut crank = crank_mesh();
            for p in &mut crank.positions {
                *p += DVec3::from_array(REEL_CRANK_CENTRE);
            }
            rod.append(&crank);
            rod
        }),
        ("net", net_mesh()),
        ("stool", stool_mesh()),
    ]
}
