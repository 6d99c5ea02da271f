//! The angler's joints in the seated rest pose (see the module doc of [`super`]).
//!
//! Every joint has a head (its position), a tail (its child's head, or the end of a leaf
//! bone) and a world rotation whose local +Y runs from head to tail. Local +X is the bone's
//! main hinge axis, mirrored so that the same signed rotation means the same movement on both
//! sides: see [`super`] for the conventions.

use glam::{DMat3, DQuat, DVec3};

/// Stature of the generated angler, metres.
pub const STATURE: f64 = 1.75;

/// One joint of the generated skeleton, in world space (rest pose).
#[derive(Clone, Debug)]
pub struct Joint {
    pub name: String,
    pub parent: Option<usize>,
    pub head: DVec3,
    pub tail: DVec3,
    /// World rotation; its +Y is `(tail - head)` normalised.
    pub rotation: DQuat,
}

impl Joint {
    /// Local translation relative to the parent joint (or world when it has none).
    pub fn local_translation(&self, joints: &[Joint]) -> DVec3 {
        match self.parent {
            Some(p) => joints[p].rotation.inverse() * (self.head - joints[p].head),
            None => self.head,
        }
    }

    /// Local rotation relative to the parent joint.
    pub fn local_rotation(&self, joints: &[Joint]) -> DQuat {
        match self.parent {
            Some(p) => (joints[p].rotation.inverse() * self.rotation).normalize(),
            None => self.rotation,
        }
    }
}

/// Builds a rotation whose +Y is `dir` and whose +X is `x_hint` made orthogonal to it.
/// Precondition: `dir` non-zero; a hint parallel to `dir` falls back to another axis.
fn frame(dir: DVec3, x_hint: DVec3) -> DQuat {
    let y = dir.normalize_or(DVec3::Y);
    let mut x = x_hint - y * x_hint.dot(y);
    if x.length_squared() < 1e-12 {
        x = y.any_orthonormal_vector();
    }
    let x = x.normalize();
    let z = x.cross(y);
    DQuat::from_mat3(&DMat3::from_cols(x, y, z)).normalize()
}

struct Spec {
    name: String,
    parent: Option<String>,
    head: DVec3,
    tail: DVec3,
    x_hint: DVec3,
}

fn spec(name: &str, parent: Option<&str>, head: DVec3, tail: DVec3, x_hint: DVec3) -> Spec {
    Spec {
        name: name.to_string(),
        parent: parent.map(str::to_string),
        head,
        tail,
        x_hint,
    }
}

/// Degrees to radians.
fn deg(d: f64) -> f64 {
    d.to_radians()
}

/// The figure's left-hand frame: `(D, T, N)` = along the hand, toward the thumb, out of the
/// palm. Right-handed: `D × T = N`.
pub fn left_hand_frame(forearm_dir: DVec3) -> (DVec3, DVec3, DVec3) {
    let d = forearm_dir.normalize();
    // Palm faces inward (−X, toward the body's midline) and somewhat down.
    let a = deg(35.0);
    let n0 = DVec3::new(-a.cos(), -a.sin(), 0.0);
    let n = (n0 - d * n0.dot(d)).normalize();
    let t = n.cross(d);
    (d, t, n)
}

/// Fingers: `(name, knuckle (u, v), fan angle deg, length, base radius)` in the hand frame.
pub const FINGERS: [(&str, [f64; 2], f64, f64, f64); 4] = [
    ("index", [0.094, 0.024], 5.0, 0.080, 0.0090),
    ("middle", [0.098, 0.005], 0.0, 0.087, 0.0092),
    ("ring", [0.093, -0.013], -5.0, 0.081, 0.0087),
    ("pinky", [0.084, -0.030], -11.0, 0.064, 0.0077),
];

/// Phalanx fractions of a finger's length, base to tip.
const PHALANGES: [f64; 3] = [0.45, 0.30, 0.25];
/// Relaxed flexion at the three finger joints (toward the palm), degrees.
const CURL: [f64; 3] = [14.0, 22.0, 14.0];

fn left_side() -> Vec<Spec> {
    let mut s = Vec::new();
    let shoulder = DVec3::new(0.175, 1.03, 0.045);
    s.push(spec(
        "clavicle.L",
        Some("spine_03"),
        DVec3::new(0.02, 1.015, 0.075),
        shoulder,
        DVec3::Z,
    ));
    let (out, fwd) = (deg(12.0), deg(20.0));
    let upper = DVec3::new(out.sin(), -out.cos() * fwd.cos(), out.cos() * fwd.sin());
    let bend_axis = upper.cross(DVec3::new(0.0, 0.2, 1.0)).normalize();
    let fore = DQuat::from_axis_angle(bend_axis, deg(45.0)) * upper;
    let elbow = shoulder + upper * 0.186 * STATURE;
    let wrist = elbow + fore * 0.146 * STATURE;
    let (d, t, n) = left_hand_frame(fore);
    let at = |u: f64, v: f64, w: f64| wrist + d * u + t * v + n * w;
    let middle_knuckle = at(FINGERS[1].1[0], FINGERS[1].1[1], 0.0);
    s.push(spec(
        "upperarm.L",
        Some("clavicle.L"),
        shoulder,
        elbow,
        bend_axis,
    ));
    s.push(spec(
        "forearm.L",
        Some("upperarm.L"),
        elbow,
        wrist,
        bend_axis,
    ));
    s.push(spec("hand.L", Some("forearm.L"), wrist, middle_knuckle, -t));

    // Thumb: starts near the wrist on the palm side and opposes the palm.
    let thumb_dirs = [
        (0.046, DVec3::new(0.72, 0.55, 0.42)),
        (0.033, DVec3::new(0.82, 0.25, 0.52)),
        (0.028, DVec3::new(0.78, 0.02, 0.62)),
    ];
    let mut p = at(0.016, 0.020, 0.010);
    for (k, (len, dir)) in thumb_dirs.iter().enumerate() {
        let dir = (d * dir.x + t * dir.y + n * dir.z).normalize();
        let flex_towards = (-t + n * 0.6).normalize();
        let x = dir.cross(flex_towards);
        let parent = if k == 0 {
            "hand.L".to_string()
        } else {
            format!("thumb_0{k}.L")
        };
        let end = p + dir * *len;
        s.push(spec(
            &format!("thumb_0{}.L", k + 1),
            Some(&parent),
            p,
            end,
            x,
        ));
        p = end;
    }
    for (name, [u, v], fan, len, _) in FINGERS {
        let in_plane = (d * deg(fan).cos() + t * deg(fan).sin()).normalize();
        let mut p = at(u, v, 0.0);
        let mut flex = 0.0;
        for k in 0..3 {
            flex += deg(CURL[k]);
            let dir = in_plane * flex.cos() + n * flex.sin();
            let end = p + dir * len * PHALANGES[k];
            let parent = if k == 0 {
                "hand.L".to_string()
            } else {
                format!("{name}_0{k}.L")
            };
            let x = dir.cross(n);
            s.push(spec(
                &format!("{name}_0{}.L", k + 1),
                Some(&parent),
                p,
                end,
                x,
            ));
            p = end;
        }
    }

    let hip = DVec3::new(0.09, 0.535, 0.03);
    let knee = hip + DVec3::new(0.07, -0.07, 1.0).normalize() * 0.245 * STATURE;
    let ankle = knee + DVec3::new(0.01, -1.0, 0.12).normalize() * 0.246 * STATURE;
    let ball = ankle + DVec3::new(0.012, -0.052, 0.135);
    let toe_tip = ball + DVec3::new(0.004, -0.004, 0.055);
    s.push(spec("thigh.L", Some("pelvis"), hip, knee, DVec3::X));
    s.push(spec("shin.L", Some("thigh.L"), knee, ankle, DVec3::X));
    s.push(spec("foot.L", Some("shin.L"), ankle, ball, DVec3::X));
    s.push(spec("toe.L", Some("foot.L"), ball, toe_tip, DVec3::X));
    s
}

/// Mirror of a left-side spec: positions reflected in x; the hinge hint is an axial vector,
/// reflected as `-M h`, so equal rotations flex both sides alike.
fn mirrored(l: &Spec) -> Spec {
    let m = |v: DVec3| DVec3::new(-v.x, v.y, v.z);
    let r = |n: &str| match n.strip_suffix(".L") {
        Some(stem) => format!("{stem}.R"),
        None => n.to_string(),
    };
    Spec {
        name: r(&l.name),
        parent: l.parent.as_deref().map(r),
        head: m(l.head),
        tail: m(l.tail),
        x_hint: -m(l.x_hint),
    }
}

/// The angler's joints, parents before children. Names are documented in [`super`].
pub fn angler_joints() -> Vec<Joint> {
    let c = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    let mut specs = vec![
        spec("root", None, DVec3::ZERO, c(0.0, 0.53, 0.0), DVec3::X),
        spec(
            "pelvis",
            Some("root"),
            c(0.0, 0.53, 0.0),
            c(0.0, 0.63, 0.005),
            DVec3::X,
        ),
        spec(
            "spine_01",
            Some("pelvis"),
            c(0.0, 0.63, 0.005),
            c(0.0, 0.75, 0.02),
            DVec3::X,
        ),
        spec(
            "spine_02",
            Some("spine_01"),
            c(0.0, 0.75, 0.02),
            c(0.0, 0.88, 0.04),
            DVec3::X,
        ),
        spec(
            "spine_03",
            Some("spine_02"),
            c(0.0, 0.88, 0.04),
            c(0.0, 1.045, 0.06),
            DVec3::X,
        ),
        spec(
            "neck",
            Some("spine_03"),
            c(0.0, 1.045, 0.06),
            c(0.0, 1.13, 0.07),
            DVec3::X,
        ),
        spec(
            "head",
            Some("neck"),
            c(0.0, 1.13, 0.07),
            c(0.0, 1.345, 0.075),
            DVec3::X,
        ),
    ];
    let left = left_side();
    let (arm_l, leg_l): (Vec<Spec>, Vec<Spec>) = left.into_iter().partition(|s| {
        !["thigh", "shin", "foot", "toe"]
            .iter()
            .any(|n| s.name.starts_with(n))
    });
    let arm_r: Vec<Spec> = arm_l.iter().map(mirrored).collect();
    let leg_r: Vec<Spec> = leg_l.iter().map(mirrored).collect();
    specs.extend(arm_l);
    specs.extend(arm_r);
    specs.extend(leg_l);
    specs.extend(leg_r);

    let mut joints: Vec<Joint> = Vec::with_capacity(specs.len());
    for s in specs {
        // Parents are always listed first (checked by the assets test via the hierarchy).
        let parent = s
            .parent
            .as_ref()
            .and_then(|p| joints.iter().position(|j| &j.name == p));
        let rotation = frame(s.tail - s.head, s.x_hint);
        joints.push(Joint {
            name: s.name,
            parent,
            head: s.head,
            tail: s.tail,
            rotation,
        });
    }
    joints
}

/// Index of the joint called `name`.
pub fn find(joints: &[Joint], name: &str) -> Option<usize> {
    joints.iter().position(|j| j.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_joint_but_root_has_its_parent_and_sides_mirror() {
        let joints = angler_joints();
        assert_eq!(joints.len(), 53);
        for (i, j) in joints.iter().enumerate() {
            assert_eq!(j.parent.is_none(), j.name == "root", "{}", j.name);
            if let Some(p) = j.parent {
                assert!(p < i, "{} listed before its parent", j.name);
            }
            let y = j.rotation * DVec3::Y;
            assert!(
                y.abs_diff_eq((j.tail - j.head).normalize(), 1e-12),
                "{}: +Y off the bone",
                j.name
            );
            if let Some(stem) = j.name.strip_suffix(".L") {
                let r = &joints[find(&joints, &format!("{stem}.R")).unwrap()];
                let m = DVec3::new(-1.0, 1.0, 1.0);
                assert!(r.head.abs_diff_eq(j.head * m, 1e-12));
                // The hinge (+X) mirrors as an axial vector: same sign flexes both sides.
                let (xl, xr) = (j.rotation * DVec3::X, r.rotation * DVec3::X);
                assert!(xr.abs_diff_eq(-(xl * m), 1e-12), "{}: {xl} vs {xr}", j.name);
            }
        }
    }
}
