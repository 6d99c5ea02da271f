//! Two more rods for calibrating on models other than the bundled one (issue 20), built from
//! one parametric description. Both are modelled the way artists' files come: not in the
//! canonical rod frame.
//!
//! - `rod_surf.glb`: a 3.9 m surf rod with a long EVA handle and a big spinning reel hanging
//!   on a stem, seat 0.68 m from the butt; modelled along **+Z** (Blender's up) with the reel
//!   toward +Y.
//! - `rod_baitcaster.glb`: a 1.9 m baitcasting rod with a short split grip, a trigger, and a
//!   low-profile reel on top of the blank, seat 0.25 m from the butt; modelled along **−X**
//!   with the reel and guides toward +Y, in **centimetres**.

use super::body::srgb;
use super::mesher::TriMesh;
use super::shapes::{lathe, tube};
use glam::{DMat3, DQuat, DVec3};

/// The reel a rod carries.
#[derive(Clone, Copy, Debug)]
pub enum Reel {
    /// A spinning reel on a stem below the blank; `size` scales the bundled reel's body.
    Spinning { size: f64 },
    /// A low-profile baitcasting reel on top of the blank.
    Baitcaster,
}

/// A rod, in the canonical rod frame (butt at the origin, blank +Y, reel −Z, metres).
#[derive(Clone, Debug)]
pub struct RodSpec {
    /// Butt to tip, metres.
    pub length: f64,
    /// Blank radius at the butt and at the tip.
    pub blank: (f64, f64),
    /// Rear grip from the butt: (end, radius).
    pub rear_grip: (f64, f64),
    /// Reel seat centre, metres from the butt.
    pub seat: f64,
    /// Fore grip length beyond the seat (0: none).
    pub fore_grip: f64,
    /// The reel.
    pub reel: Reel,
    /// Guides: (metres from the butt, ring radius).
    pub guides: Vec<(f64, f64)>,
}

/// The surf rod's description.
pub fn surf() -> RodSpec {
    RodSpec {
        length: 3.9,
        blank: (0.0105, 0.0014),
        rear_grip: (0.36, 0.0165),
        seat: 0.68,
        fore_grip: 0.16,
        reel: Reel::Spinning { size: 1.45 },
        guides: vec![
            (1.55, 0.025),
            (2.05, 0.016),
            (2.5, 0.011),
            (2.9, 0.0075),
            (3.3, 0.0055),
            (3.62, 0.0042),
        ],
    }
}

/// The baitcaster's description.
pub fn baitcaster() -> RodSpec {
    RodSpec {
        length: 1.9,
        blank: (0.0062, 0.0011),
        rear_grip: (0.15, 0.0128),
        seat: 0.25,
        fore_grip: 0.05,
        reel: Reel::Baitcaster,
        guides: (0..8)
            .map(|i| {
                let t = f64::from(i) / 7.0;
                (0.55 + 1.25 * t, 0.0055 - 0.0025 * t)
            })
            .collect(),
    }
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// A rod's meshes in the canonical rod frame: the rod with its reel, and the reel's crank
/// (arm and knobs), which turns about the X axis through `crank_pivot`.
pub struct RodMeshes {
    /// Everything but the crank.
    pub rod: TriMesh,
    /// The crank at rest.
    pub crank: TriMesh,
    /// A point of the crank's axis (along X), canonical rod frame.
    pub crank_pivot: DVec3,
}

/// The rod's meshes in the canonical rod frame.
pub fn rod_mesh(spec: &RodSpec) -> RodMeshes {
    let mut m = TriMesh::default();
    let mut crank = TriMesh::default();
    let (eva, rubber, blank) = (srgb(30, 32, 34), srgb(20, 20, 22), srgb(92, 40, 36));
    let (metal, silver, body) = (srgb(58, 60, 66), srgb(168, 170, 176), srgb(40, 44, 60));
    let (r0, r1) = spec.blank;
    let radius = |y: f64| r0 + (r1 - r0) * (y / spec.length).clamp(0.0, 1.0).powf(0.8);
    let mut y = spec.rear_grip.0 - 0.02;
    while y < spec.length {
        let next = (y + 0.3).min(spec.length);
        tube(
            &mut m,
            v(0.0, y, 0.0),
            v(0.0, next, 0.0),
            radius(y),
            radius(next),
            10,
            blank,
            next >= spec.length,
        );
        y = next;
    }
    let (grip_end, grip_r) = spec.rear_grip;
    tube(
        &mut m,
        DVec3::ZERO,
        v(0.0, 0.015, 0.0),
        grip_r * 1.02,
        grip_r * 1.02,
        20,
        rubber,
        true,
    );
    lathe(
        &mut m,
        v(0.0, 0.015, 0.0),
        DVec3::Y,
        &[
            (0.0, grip_r * 0.95),
            (0.3 * grip_end, grip_r),
            (0.8 * grip_end, grip_r * 0.97),
            (grip_end - 0.015, grip_r * 0.85),
        ],
        20,
        eva,
    );
    // Reel seat: a metal sleeve with hoods at both ends, a fore grip beyond it.
    let (a, b) = (spec.seat - 0.06, spec.seat + 0.06);
    let seat_r = grip_r * 0.72;
    lathe(
        &mut m,
        v(0.0, a, 0.0),
        DVec3::Y,
        &[(0.0, seat_r), (b - a, seat_r)],
        16,
        metal,
    );
    for y in [a, b - 0.015] {
        tube(
            &mut m,
            v(0.0, y, 0.0),
            v(0.0, y + 0.015, 0.0),
            seat_r * 1.15,
            seat_r * 1.15,
            16,
            silver,
            true,
        );
    }
    if spec.fore_grip > 0.0 {
        lathe(
            &mut m,
            v(0.0, b, 0.0),
            DVec3::Y,
            &[(0.0, grip_r * 0.85), (spec.fore_grip, grip_r * 0.7)],
            16,
            eva,
        );
    }
    let crank_pivot = match spec.reel {
        Reel::Spinning { size } => {
            spinning_reel((&mut m, &mut crank), spec.seat, seat_r, size, body, silver)
        }
        Reel::Baitcaster => {
            let pivot = baitcaster_reel(
                (&mut m, &mut crank),
                spec.seat,
                seat_r,
                body,
                silver,
                rubber,
            );
            // The trigger under the seat, opposite the reel (+Z), below the reel's middle and
            // raked back toward the butt.
            tube(
                &mut m,
                v(0.0, spec.seat - 0.012, seat_r),
                v(0.0, spec.seat - 0.024, seat_r + 0.016),
                0.004,
                0.003,
                8,
                metal,
                true,
            );
            pivot
        }
    };
    for &(y, ring) in &spec.guides {
        super::props::guide(&mut m, y, radius(y), ring, (0.02, 0.016), silver, metal);
    }
    RodMeshes {
        rod: m,
        crank,
        crank_pivot,
    }
}

/// A spinning reel hanging on a stem below the seat (−Z), crank on +X (its arm and knob
/// into `crank`); returns the crank's pivot.
fn spinning_reel(
    (m, crank_mesh): (&mut TriMesh, &mut TriMesh),
    seat: f64,
    seat_r: f64,
    size: f64,
    body: [f32; 3],
    silver: [f32; 3],
) -> DVec3 {
    let k = size;
    let centre = v(0.0, seat - 0.008 * k, -seat_r - 0.07 * k);
    tube(
        m,
        v(0.0, seat - 0.03 * k, -seat_r),
        v(0.0, seat + 0.03 * k, -seat_r),
        0.003 * k,
        0.003 * k,
        8,
        body,
        true,
    );
    tube(
        m,
        v(0.0, seat, -seat_r),
        centre + v(0.0, 0.0, 0.024 * k),
        0.0055 * k,
        0.0065 * k,
        10,
        body,
        true,
    );
    tube(
        m,
        centre - DVec3::X * 0.018 * k,
        centre + DVec3::X * 0.018 * k,
        0.027 * k,
        0.027 * k,
        20,
        body,
        true,
    );
    let spool = centre + DVec3::Y * 0.014 * k;
    tube(
        m,
        spool,
        spool + DVec3::Y * 0.05 * k,
        0.026 * k,
        0.022 * k,
        20,
        silver,
        true,
    );
    let crank = centre + DVec3::X * 0.018 * k;
    tube(
        crank_mesh,
        crank,
        crank + v(0.016, 0.0, -0.045) * k,
        0.003 * k,
        0.003 * k,
        8,
        silver,
        true,
    );
    let knob = crank + v(0.016, 0.0, -0.045) * k;
    tube(
        crank_mesh,
        knob,
        knob + DVec3::X * 0.018 * k,
        0.0065 * k,
        0.0065 * k,
        12,
        body,
        true,
    );
    crank
}

/// A low-profile baitcasting reel on top of the seat (−Z, the side the reel is on), spool
/// across the blank, crank on +X (its bar and knobs into `crank`); returns the crank's pivot.
fn baitcaster_reel(
    (m, crank): (&mut TriMesh, &mut TriMesh),
    seat: f64,
    seat_r: f64,
    body: [f32; 3],
    silver: [f32; 3],
    rubber: [f32; 3],
) -> DVec3 {
    let centre = v(0.0, seat - 0.005, -seat_r - 0.024);
    tube(
        m,
        v(0.0, seat - 0.03, -seat_r),
        v(0.0, seat + 0.03, -seat_r),
        0.004,
        0.004,
        8,
        body,
        true,
    );
    tube(
        m,
        centre - DVec3::X * 0.036,
        centre + DVec3::X * 0.036,
        0.022,
        0.022,
        24,
        body,
        true,
    );
    tube(
        m,
        centre - DVec3::X * 0.028,
        centre + DVec3::X * 0.028,
        0.0225,
        0.0225,
        24,
        silver,
        false,
    );
    let hub = centre + DVec3::X * 0.036;
    tube(
        m,
        hub,
        hub + DVec3::X * 0.008,
        0.006,
        0.006,
        10,
        silver,
        true,
    );
    let bar = hub + DVec3::X * 0.008;
    tube(
        crank,
        bar - DVec3::Y * 0.035,
        bar + DVec3::Y * 0.035,
        0.003,
        0.003,
        8,
        silver,
        true,
    );
    for s in [-1.0, 1.0] {
        let knob = bar + DVec3::Y * 0.035 * s;
        tube(
            crank,
            knob,
            knob + DVec3::X * 0.016,
            0.0075,
            0.0075,
            12,
            rubber,
            true,
        );
    }
    bar
}

/// `mesh` carried from the canonical rod frame into a file frame: turned by `rotation`, scaled
/// by `scale`, normals turned with it.
pub fn in_file_frame(mesh: &mut TriMesh, rotation: DQuat, scale: f64) {
    for p in &mut mesh.positions {
        *p = rotation * *p * scale;
    }
    for n in &mut mesh.normals {
        *n = rotation * *n;
    }
}

/// `rod_surf.glb`: along +Z, reel toward +Y, metres.
pub fn surf_glb() -> Vec<u8> {
    // Rod +Y → file +Z, rod −Z (reel) → file +Y: a quarter turn about X.
    rod_file_glb(
        "rod_surf",
        rod_mesh(&surf()),
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
        1.0,
    )
}

/// A generated rod as an artist's file: its meshes turned by `rotation` and scaled by `scale`
/// into the file's frame, the crank the child node [`super::props::REEL_CRANK_NODE`] with
/// its origin on the crank's axis (as modelled reels have their turning handle).
fn rod_file_glb(name: &str, mut meshes: RodMeshes, rotation: DQuat, scale: f64) -> Vec<u8> {
    let pivot = meshes.crank_pivot;
    for p in &mut meshes.crank.positions {
        *p -= pivot;
    }
    in_file_frame(&mut meshes.rod, rotation, scale);
    in_file_frame(&mut meshes.crank, rotation, scale);
    let pivot_in_file = rotation * pivot * scale;
    super::props::prop_glb_with_crank(name, &meshes.rod, &meshes.crank, pivot_in_file)
}

/// `rod_baitcaster.glb`: along −X, reel toward +Y, centimetres.
pub fn baitcaster_glb() -> Vec<u8> {
    // Rod +Y → file −X and rod −Z (reel) → file +Y: rod x → file +Z.
    let r = DQuat::from_mat3(&DMat3::from_cols(DVec3::Z, -DVec3::X, -DVec3::Y));
    rod_file_glb("rod_baitcaster", rod_mesh(&baitcaster()), r, 100.0)
}
