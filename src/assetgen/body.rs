//! The angler's body as signed distance fields, one per meshed region: the body (coarse), the
//! head (finer, for the face and the cap's visor) and each hand (finest, for the fingers).
//! The head and hand regions overlap the body's neck and forearms so there is no gap.

use super::mesher::Region;
use super::sdf::{Field, Part, Shape};
use super::skeleton::{FINGERS, Joint, find, left_hand_frame};
use glam::{DMat3, DVec3};

/// An sRGB colour (0–255) as linear RGB, which is what glTF's `COLOR_0` holds.
pub fn srgb(r: u8, g: u8, b: u8) -> [f32; 3] {
    [r, g, b].map(|c| crate::draw::srgb_to_linear(f64::from(c) / 255.0) as f32)
}

fn skin() -> [f32; 3] {
    srgb(222, 170, 138)
}
fn jacket() -> [f32; 3] {
    srgb(98, 114, 82)
}
fn trousers() -> [f32; 3] {
    srgb(74, 82, 96)
}
fn boots() -> [f32; 3] {
    srgb(96, 66, 44)
}
fn hat() -> [f32; 3] {
    srgb(184, 156, 108)
}
fn hair() -> [f32; 3] {
    srgb(70, 52, 40)
}

/// One region to mesh: the field, the grid, colour softness, the joints that may carry its
/// skin weights and how far their weights blend along the surface (see [`super::skinning`]).
pub struct BodyRegion {
    pub name: &'static str,
    pub field: Field,
    pub region: Region,
    pub colour_sigma: f64,
    pub joints: Vec<usize>,
    /// Cap on how far skin weights blend along the surface, metres: five voxels.
    pub skin_blend: f64,
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

fn mirror(p: DVec3, side: f64) -> DVec3 {
    DVec3::new(p.x * side, p.y, p.z)
}

/// Indices of joints whose name matches any of `names` (exact) or, for names ending in `*`,
/// starts with the prefix and ends with `suffix`.
fn joints_named(joints: &[Joint], names: &[&str], suffix: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, j) in joints.iter().enumerate() {
        let hit = names.iter().any(|n| match n.strip_suffix('*') {
            Some(prefix) => j.name.starts_with(prefix) && j.name.ends_with(suffix),
            None => j.name == *n,
        });
        if hit {
            out.push(i);
        }
    }
    out
}

fn head_of(joints: &[Joint], name: &str) -> DVec3 {
    find(joints, name)
        .map(|i| joints[i].head)
        .unwrap_or(DVec3::ZERO)
}

fn tail_of(joints: &[Joint], name: &str) -> DVec3 {
    find(joints, name)
        .map(|i| joints[i].tail)
        .unwrap_or(DVec3::ZERO)
}

/// Axis-aligned region around every part of `field`, `margin` metres larger on each side.
fn aabb_around(field: &Field, margin: f64, voxel: f64) -> Region {
    let mut lo = DVec3::INFINITY;
    let mut hi = DVec3::NEG_INFINITY;
    for part in &field.parts {
        for (shape, _) in &part.shapes {
            let (a, b) = shape.bounds();
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    Region::aabb(lo - DVec3::splat(margin), hi + DVec3::splat(margin), voxel)
}

/// Torso, hips, neck base, arms to just short of the wrists, legs and boots.
pub fn body(joints: &[Joint]) -> BodyRegion {
    let mut f = Field::new(0.06);
    let torso = torso(&mut f);
    let hips = f.add(Part::new("hips", 0.04).with(
        Shape::ellipsoid(v(0.0, 0.575, -0.005), v(0.165, 0.11, 0.12)),
        trousers(),
    ));
    f.join(torso, hips, 0.06);
    // The collar: the head region's skin-coloured neck emerges from it.
    let neck = f.add(Part::new("neck", 0.0).with(
        Shape::round_cone(v(0.0, 1.0, 0.05), v(0.0, 1.10, 0.066), 0.064, 0.050),
        jacket(),
    ));
    f.join(torso, neck, 0.04);
    for s in ["L", "R"] {
        arm(&mut f, joints, s, torso);
        leg(&mut f, joints, s, hips);
    }
    let voxel = 0.017;
    let region = aabb_around(&f, 2.0 * voxel, voxel);
    let weighted = joints_named(
        joints,
        &[
            "pelvis",
            "spine_01",
            "spine_02",
            "spine_03",
            "neck",
            "head",
            "clavicle*",
            "upperarm*",
            "forearm*",
            "thigh*",
            "shin*",
            "foot*",
            "toe*",
        ],
        "",
    );
    BodyRegion {
        name: "body",
        field: f,
        region,
        colour_sigma: 0.005,
        joints: weighted,
        skin_blend: 5.0 * voxel,
    }
}

/// The torso's part (chest, shoulders' yoke), added to `f`.
fn torso(f: &mut Field) -> usize {
    f.add(
        Part::new("torso", 0.06)
            .with(
                Shape::ellipsoid(v(0.0, 0.72, 0.025), v(0.150, 0.13, 0.112)),
                jacket(),
            )
            // The chest is narrow enough (0.14 m half-width) that the hanging arms meet it only
            // in the armpits, 10 cm below the shoulders: a longer crease binds more torso skin
            // to the arm, which a raised arm then stretches (see `tests/angler_skin.rs`).
            .with(
                Shape::ellipsoid(v(0.0, 0.89, 0.04), v(0.140, 0.135, 0.105)),
                jacket(),
            )
            .with(
                Shape::capsule(v(-0.13, 0.995, 0.045), v(0.13, 0.995, 0.045), 0.065),
                jacket(),
            )
            .with(
                Shape::capsule(v(-0.04, 1.04, 0.04), v(-0.15, 1.015, 0.045), 0.05),
                jacket(),
            )
            .with(
                Shape::capsule(v(0.04, 1.04, 0.04), v(0.15, 1.015, 0.045), 0.05),
                jacket(),
            ),
    )
}

/// The arm on side `s` (`L`/`R`): shoulder cap, upper arm and forearm to just short of the
/// wrist, joined to the torso.
fn arm(f: &mut Field, joints: &[Joint], s: &str, torso: usize) {
    let shoulder = head_of(joints, &format!("upperarm.{s}"));
    let elbow = head_of(joints, &format!("forearm.{s}"));
    let wrist = head_of(joints, &format!("hand.{s}"));
    let fore_dir = (wrist - elbow).normalize_or(DVec3::NEG_Y);
    let cap = f.add(Part::new("shoulder", 0.0).with(Shape::sphere(shoulder, 0.054), jacket()));
    let upper = f.add(
        Part::new("upperarm", 0.0).with(Shape::round_cone(shoulder, elbow, 0.050, 0.040), jacket()),
    );
    let fore = f.add(Part::new("forearm", 0.0).with(
        Shape::round_cone(elbow, wrist - fore_dir * 0.045, 0.040, 0.030),
        jacket(),
    ));
    f.join(torso, cap, 0.035);
    f.join(cap, upper, 0.04);
    f.join(upper, fore, 0.025);
}

/// The leg on side `s`: thigh, shin and boot, joined to the hips.
fn leg(f: &mut Field, joints: &[Joint], s: &str, hips: usize) {
    let hip = head_of(joints, &format!("thigh.{s}"));
    let knee = head_of(joints, &format!("shin.{s}"));
    let ankle = head_of(joints, &format!("foot.{s}"));
    let ball = head_of(joints, &format!("toe.{s}"));
    let toe = tail_of(joints, &format!("toe.{s}"));
    let thigh =
        f.add(Part::new("thigh", 0.0).with(Shape::round_cone(hip, knee, 0.082, 0.058), trousers()));
    let shin = f.add(Part::new("shin", 0.0).with(
        Shape::round_cone(knee, ankle + DVec3::Y * 0.06, 0.056, 0.043),
        trousers(),
    ));
    let ground = (DVec3::ZERO, DVec3::NEG_Y);
    let toe_dir = (toe - ball).normalize_or(DVec3::Z);
    let heel = ankle + v(0.0, -0.035, -0.045);
    // Boots are a hard union with the trouser leg, which gives a clean boot top.
    f.add(
        Part::new("boot", 0.03)
            .with(
                Shape::round_cone(ankle + DVec3::Y * 0.11, ankle, 0.051, 0.047),
                boots(),
            )
            .with(
                Shape::round_cone(heel, ball, 0.042, 0.040).cut(ground.0, ground.1),
                boots(),
            )
            .with(
                Shape::round_cone(ball, toe - toe_dir * 0.03, 0.039, 0.031).cut(ground.0, ground.1),
                boots(),
            ),
    );
    f.join(hips, thigh, 0.05);
    f.join(thigh, shin, 0.03);
}

/// Head with face hints (nose, ears; painted eyes, brows, mouth, hair) and a cap with a visor.
pub fn head(joints: &[Joint]) -> BodyRegion {
    let mut f = Field::new(0.03);
    let neck = f.add(Part::new("neck", 0.0).with(
        Shape::round_cone(v(0.0, 1.02, 0.054), v(0.0, 1.18, 0.07), 0.056, 0.052),
        skin(),
    ));
    let skull = f.add(
        Part::new("head", 0.03)
            .with(
                Shape::ellipsoid(v(0.0, 1.262, 0.07), v(0.078, 0.098, 0.094)),
                skin(),
            )
            .with(
                Shape::ellipsoid(v(0.0, 1.198, 0.094), v(0.062, 0.058, 0.07)),
                skin(),
            ),
    );
    f.join(neck, skull, 0.03);
    let nose = f.add(Part::new("nose", 0.0).with(
        Shape::round_cone(v(0.0, 1.245, 0.158), v(0.0, 1.218, 0.176), 0.010, 0.011),
        skin(),
    ));
    f.join(skull, nose, 0.012);
    for side in [1.0, -1.0] {
        let ear = f.add(Part::new("ear", 0.0).with(
            Shape::ellipsoid(v(0.078 * side, 1.245, 0.062), v(0.012, 0.028, 0.018)),
            skin(),
        ));
        f.join(skull, ear, 0.01);
        f.paints.push((
            Shape::sphere(v(0.031 * side, 1.256, 0.156), 0.0125),
            srgb(40, 34, 30),
        ));
        f.paints.push((
            Shape::capsule(
                v(0.015 * side, 1.276, 0.158),
                v(0.047 * side, 1.279, 0.146),
                0.0055,
            ),
            hair(),
        ));
    }
    f.paints.push((
        Shape::capsule(v(-0.018, 1.18, 0.163), v(0.018, 1.18, 0.163), 0.0045),
        srgb(170, 104, 96),
    ));
    f.paints.push((
        Shape::ellipsoid(v(0.0, 1.26, 0.035), v(0.086, 0.09, 0.086)),
        hair(),
    ));
    let visor_axes = DMat3::from_rotation_x(8f64.to_radians());
    let visor_centre = v(0.0, 1.284, 0.175);
    let visor_up = visor_axes * DVec3::Y;
    f.add(
        Part::new("hat", 0.006)
            .with(
                Shape::ellipsoid(v(0.0, 1.285, 0.068), v(0.082, 0.088, 0.098))
                    .cut(v(0.0, 1.275, 0.0), DVec3::NEG_Y),
                hat(),
            )
            .with(
                Shape::Ellipsoid {
                    centre: visor_centre,
                    axes: visor_axes,
                    radii: v(0.076, 0.03, 0.064),
                }
                .cut(visor_centre + visor_up * 0.005, visor_up)
                .cut(visor_centre - visor_up * 0.005, -visor_up),
                hat(),
            ),
    );
    let voxel = 0.0075;
    let region = aabb_around(&f, 2.0 * voxel, voxel);
    let weighted = joints_named(joints, &["spine_03", "neck", "head"], "");
    BodyRegion {
        name: "head",
        field: f,
        region,
        colour_sigma: 0.002,
        joints: weighted,
        skin_blend: 5.0 * voxel,
    }
}

/// One hand (`side` = "L" or "R") with a sleeve cuff that overlaps the body's forearm.
pub fn hand(joints: &[Joint], side: &str) -> BodyRegion {
    let sign = if side == "L" { 1.0 } else { -1.0 };
    let m = |p: DVec3| mirror(p, sign);
    // The hand frame is built on the left side and mirrored, like the skeleton.
    let elbow_l = m(head_of(joints, &format!("forearm.{side}")));
    let wrist_l = m(head_of(joints, &format!("hand.{side}")));
    let (d, t, n) = left_hand_frame(wrist_l - elbow_l);
    let (d, t, n) = (m(d), m(t), m(n));
    let wrist = m(wrist_l);
    let at = |u: f64, vv: f64, w: f64| wrist + d * u + t * vv + n * w;
    let axes = DMat3::from_cols(d, t, n);

    let mut f = Field::new(0.02);
    let sleeve = Shape::round_cone(at(-0.10, 0.0, 0.0), at(-0.014, 0.0, 0.0), 0.0305, 0.0315)
        .cut(at(-0.012, 0.0, 0.0), d);
    f.add(Part::new("sleeve", 0.0).with(sleeve, jacket()));
    let palm = f.add(
        Part::new("palm", 0.012)
            .with(
                Shape::RoundBox {
                    centre: at(-0.012, 0.0, 0.0),
                    axes,
                    half: v(0.022, 0.016, 0.004),
                    round: 0.011,
                },
                skin(),
            )
            .with(
                Shape::RoundBox {
                    centre: at(0.052, -0.002, 0.001),
                    axes,
                    half: v(0.036, 0.029, 0.006),
                    round: 0.0095,
                },
                skin(),
            )
            .with(
                Shape::Ellipsoid {
                    centre: at(0.035, 0.020, 0.008),
                    axes,
                    radii: v(0.028, 0.016, 0.014),
                },
                skin(),
            )
            .with(
                Shape::Ellipsoid {
                    centre: at(0.05, -0.027, 0.006),
                    axes,
                    radii: v(0.035, 0.011, 0.011),
                },
                skin(),
            ),
    );
    let mut digits: Vec<(String, f64, f64)> = vec![("thumb".to_string(), 0.0125, 0.015)];
    for (name, _, _, _, r) in FINGERS {
        digits.push((name.to_string(), r, 0.010));
    }
    for (name, r0, join) in digits {
        let mut part = Part::new("digit", 0.004);
        let scale = [1.0, 0.92, 0.85, 0.78];
        for k in 0..3 {
            let jn = format!("{name}_0{}.{side}", k + 1);
            let (a, b) = (head_of(joints, &jn), tail_of(joints, &jn));
            let (ra, rb) = (r0 * scale[k], r0 * scale[k + 1]);
            let b = if k == 2 {
                b - (b - a).normalize_or(d) * rb
            } else {
                b
            };
            part.push(Shape::round_cone(a, b, ra, rb), skin());
        }
        let digit = f.add(part);
        f.join(palm, digit, join);
    }
    let voxel = 0.0042;
    let lo = v(-0.14, -0.075, -0.045);
    let region = Region {
        origin: at(lo.x, lo.y, lo.z),
        axes,
        size: v(0.35, 0.16, 0.13),
        voxel,
    };
    let weighted = joints_named(
        joints,
        &[
            &format!("forearm.{side}"),
            &format!("hand.{side}"),
            "thumb*",
            "index*",
            "middle*",
            "ring*",
            "pinky*",
        ],
        &format!(".{side}"),
    );
    let name = if side == "L" { "hand.L" } else { "hand.R" };
    BodyRegion {
        name,
        field: f,
        region,
        colour_sigma: 0.0012,
        joints: weighted,
        skin_blend: 5.0 * voxel,
    }
}
