//! Close-ups of a hand on its grip (`render --close-up`, [`close_up_from`]): on a handle,
//! looking from [`grip_view_direction`] or, where that is filled, from that direction turned
//! about the handle ([`GRIP_TURNS`]); on the reel's knob, from one of [`KNOB_VIEWS`]; where
//! every one of those is filled, from any of [`FALLBACK_VIEWS`]; each also from nearer
//! ([`CLOSE_UP_NEARER`]), in front of what fills it from the usual distance. Of the views,
//! the first above the floor that the character's body and the rod leave most open (a head,
//! chest, shoulder, thigh, forearm or the reel may fill a view, depending on how the
//! character sits and is calibrated): the fewest skin and rod faces drawn on five lines of
//! sight to the grip, as the renderer draws them (back faces culled unless double-sided), and
//! not from inside a double-sided body (which sees only its inside).

use super::Stage;
use super::view::{CLOSE_UP_DISTANCE, KNOB_VIEWS, close_up_from, grip_view_direction};
use crate::draw::Camera;
use crate::fishing::GripKind;
use crate::gltf_io::skin_positions;
use crate::rig::Side;
use glam::{DQuat, DVec3};

/// The turns about the handle (radians) a handle's close-up may look from, after its own
/// direction, in the order preferred: a little either way, then round to the other side.
const GRIP_TURNS: [f64; 7] = [
    0.0,
    std::f64::consts::FRAC_PI_4,
    -std::f64::consts::FRAC_PI_4,
    std::f64::consts::FRAC_PI_2,
    -std::f64::consts::FRAC_PI_2,
    3.0 * std::f64::consts::FRAC_PI_4,
    -3.0 * std::f64::consts::FRAC_PI_4,
];

/// Views tried after a grip's own, where every one of those is filled: the eight diagonals
/// of world space and its four horizontal axes, upper ones first (none straight up or down,
/// which the camera's world up cannot look along).
const FALLBACK_VIEWS: [[f64; 3]; 12] = [
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [1.0, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
    [1.0, -1.0, 1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, -1.0],
    [-1.0, -1.0, -1.0],
];

/// The shares of [`CLOSE_UP_DISTANCE`] an eye may be at, in the order preferred: nearer only
/// where that sees more of the hand (or sees it from outside the body).
const CLOSE_UP_NEARER: [f64; 3] = [1.0, 0.7, 0.5];

/// Skin this close (metres, times the character's size) to the knob is the hand that holds
/// it, not something in the way.
const HAND_REACH: f64 = 0.035;
/// Skin this close to the line of sight (metres, times the size) blocks it.
const SIGHT_RADIUS: f64 = 0.02;

impl Stage {
    /// A close-up of `side`'s hand on its grip, or `None` before the first pose.
    pub fn close_up(&self, side: Side, size: [u32; 2]) -> Option<Camera> {
        let grip = self.hand_on_grip_in_world(side)?;
        let knob = self.last.as_ref()?.frames.grips.get(side).hold.main() == GripKind::ReelHandle;
        let k = self.size_factor();
        let triangles = self.sight_blockers()?;
        let target = grip.translation;
        let eye_distance = f64::from(CLOSE_UP_DISTANCE) * k;
        let fallback = FALLBACK_VIEWS
            .iter()
            .map(|v| DVec3::from_array(*v).normalize());
        if !knob {
            let first = grip_view_direction(&grip);
            let handle = grip.rotation * DVec3::Y;
            let views = GRIP_TURNS
                .iter()
                .map(|a| DQuat::from_axis_angle(handle, *a) * first)
                .chain(fallback);
            let (from, share) = least_blocked(&triangles, target, views, eye_distance, k);
            return Some(close_up_from(&grip, from, share, size, k));
        }
        let axes = [
            grip.rotation * DVec3::X,
            grip.rotation * DVec3::Y,
            grip.rotation * DVec3::Z,
            DVec3::Y,
        ];
        let from = |v: &[f64; 4]| -> DVec3 {
            axes.iter()
                .zip(v)
                .map(|(a, w)| *a * *w)
                .sum::<DVec3>()
                .normalize_or(DVec3::Y)
        };
        let (from, share) = least_blocked(
            &triangles,
            target,
            KNOB_VIEWS.iter().map(from).chain(fallback),
            eye_distance,
            k,
        );
        Some(close_up_from(&grip, from, share, size, k))
    }

    /// The character's skin as posed and the rod's faces, world space: what may stand between
    /// a close-up's camera and the hand. `None` before the first pose.
    fn sight_blockers(&self) -> Option<Vec<SightFace>> {
        let mut faces = self.skin_sight_faces();
        // The rod (its reel) hides the knob as much as the body does.
        let frames = &self.last.as_ref()?.frames;
        let world_from_rod = self.world_from_actor.to_affine() * frames.actor_from_rod.to_affine();
        let rod_pose = self.props.rod_pose(frames);
        for mesh in &self.props.rod.meshes {
            let m = world_from_rod * *rod_pose.world_from_bone(mesh.node);
            // A mirroring node turns its faces' fronts round (the renderer draws them so).
            let mirrored = m.matrix3.determinant() < 0.0;
            for prim in &mesh.primitives {
                let corner = |i: u32| {
                    prim.positions
                        .get(i as usize)
                        .map(|p| m.transform_point3(glam::Vec3::from(*p).as_dvec3()))
                };
                let two_sided = prim.material.double_sided;
                faces.extend(sight_faces(prim, corner, two_sided).map(|mut f| {
                    if mirrored {
                        f.corners.swap(1, 2);
                    }
                    f
                }));
            }
        }
        Some(faces)
    }

    /// The character's skin faces as the current pose skins them, world space (faces with an
    /// index out of range are left out).
    pub fn skin_faces_in_world(&self) -> Vec<[DVec3; 3]> {
        self.skin_sight_faces()
            .into_iter()
            .map(|f| f.corners)
            .collect()
    }

    /// [`Stage::skin_faces_in_world`] with whether each is double-sided.
    fn skin_sight_faces(&self) -> Vec<SightFace> {
        let mut faces = Vec::new();
        for (m, mesh) in self.character.meshes.iter().enumerate() {
            for (p, prim) in mesh.primitives.iter().enumerate() {
                let at: Vec<DVec3> = skin_positions(&self.character, &self.pose, m, p)
                    .into_iter()
                    .map(|v| glam::Vec3::from(v).as_dvec3())
                    .collect();
                let corner = |i: u32| at.get(i as usize).copied();
                faces.extend(sight_faces(prim, corner, prim.material.double_sided));
            }
        }
        faces
    }

    /// Where `side`'s hand holds its grip, world space: the arm's grip (slid along a long
    /// butt where the arm fell short) moved toward the butt by how far the hand rests behind
    /// the reel's post (a baitcaster's trigger). `None` before the first pose.
    pub fn hand_on_grip_in_world(&self, side: Side) -> Option<crate::rig::Transform> {
        let arm = self.evaluation()?.arms.get(side);
        let mut grip = self
            .world_from_actor
            .compose_rigid(&arm.grip.actor_from_grip);
        grip.translation -= grip.rotation * DVec3::Y * arm.contact.post_shift;
        Some(grip)
    }
}

/// A face that may stand between a close-up's eye and the hand.
#[derive(Clone, Copy, Debug)]
struct SightFace {
    /// Its corners, counter-clockwise seen from its front (glTF's winding).
    corners: [DVec3; 3],
    /// Both sides drawn (glTF `doubleSided`); else only the front (back faces are culled).
    double_sided: bool,
}

impl SightFace {
    /// Whether the face is drawn seen from `eye`: either side of a double-sided face, else
    /// its front only.
    fn drawn_from(&self, eye: DVec3) -> bool {
        let [a, b, c] = self.corners;
        self.double_sided || (b - a).cross(c - a).dot(eye - a) > 0.0
    }
}

/// `prim`'s faces with their corners where `corner` puts them (a face with a corner `None`
/// is left out).
fn sight_faces<'a>(
    prim: &'a crate::gltf_io::Primitive,
    corner: impl Fn(u32) -> Option<DVec3> + 'a,
    double_sided: bool,
) -> impl Iterator<Item = SightFace> + 'a {
    prim.indices.chunks_exact(3).filter_map(move |t| {
        Some(SightFace {
            corners: [corner(t[0])?, corner(t[1])?, corner(t[2])?],
            double_sided,
        })
    })
}

/// Of `views` (unit directions from `target`, in the order preferred), each at the shares of
/// `eye_distance` in [`CLOSE_UP_NEARER`] (a view's own direction nearer before the next
/// direction: an eye behind an arm comes nearer, in front of it), the first above the floor
/// (world y 0) and outside the double-sided faces (a generalized winding number under a
/// half) that the fewest `faces` drawn between the eye and the hand block: five lines of
/// sight to the target and round it (`SIGHT_RADIUS`, times the character's size `k`), each
/// face it crosses counted where it is drawn seen from the eye (its front, or either side of a
/// double-sided one; an eye inside a body whose back faces are culled sees through it, one
/// inside a double-sided body sees its inside), not counting faces within `HAND_REACH` of the
/// target (the hand looked at). Returns the direction and the share; world up at the full
/// distance without views.
fn least_blocked(
    faces: &[SightFace],
    target: DVec3,
    views: impl Iterator<Item = DVec3>,
    eye_distance: f64,
    k: f64,
) -> (DVec3, f64) {
    let two_sided: Vec<[DVec3; 3]> = (faces.iter())
        .filter(|f| f.double_sided)
        .map(|f| f.corners)
        .collect();
    views
        .flat_map(|dir| CLOSE_UP_NEARER.iter().map(move |share| (dir, *share)))
        .min_by_key(|(dir, share)| {
            let eye = target + *dir * (eye_distance * share);
            // Inside a double-sided body (the hand looked at included) the eye sees only
            // the body's inside.
            let buried = eye.y < 0.0 || winding_number(&two_sided, eye).abs() >= 0.5;
            let side = dir.any_orthonormal_vector() * (SIGHT_RADIUS * k);
            let up = dir.cross(side);
            let seen: Vec<[DVec3; 3]> = (faces.iter())
                .filter(|f| f.drawn_from(eye))
                .map(|f| f.corners)
                .collect();
            let crossed = [DVec3::ZERO, side, -side, up, -up]
                .iter()
                .map(|o| faces_crossed(&seen, eye + *o, target + *o, HAND_REACH * k))
                .sum::<usize>();
            (buried, crossed)
        })
        .unwrap_or((DVec3::Y, 1.0))
}

/// The generalized winding number of `triangles` about `p` (±1 inside a closed surface, 0
/// outside; Jacobson et al. 2013: the solid angle each face subtends, over 4π).
fn winding_number(triangles: &[[DVec3; 3]], p: DVec3) -> f64 {
    let sum: f64 = triangles
        .iter()
        .map(|t| {
            let (a, b, c) = (t[0] - p, t[1] - p, t[2] - p);
            let (la, lb, lc) = (a.length(), b.length(), c.length());
            let num = a.dot(b.cross(c));
            let den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
            2.0 * num.atan2(den)
        })
        .sum();
    sum / (4.0 * std::f64::consts::PI)
}

/// How many of `triangles` the segment from `eye` to `target` passes through, not counting
/// crossings within `near` of the target (the hand looked at). Möller–Trumbore.
pub fn faces_crossed(triangles: &[[DVec3; 3]], eye: DVec3, target: DVec3, near: f64) -> usize {
    let d = target - eye;
    let length = d.length();
    if length <= near {
        return 0;
    }
    let t_max = 1.0 - near / length;
    triangles
        .iter()
        .filter(|[a, b, c]| {
            let (e1, e2) = (*b - *a, *c - *a);
            let p = d.cross(e2);
            let det = e1.dot(p);
            if det.abs() < 1e-18 {
                return false;
            }
            let inv = 1.0 / det;
            let s = eye - *a;
            let u = s.dot(p) * inv;
            if !(0.0..=1.0).contains(&u) {
                return false;
            }
            let q = s.cross(e1);
            let v = d.dot(q) * inv;
            if v < 0.0 || u + v > 1.0 {
                return false;
            }
            let t = e2.dot(q) * inv;
            (0.0..t_max).contains(&t)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_faces_crossed_away_from_the_target_block_the_view() {
        let (eye, target) = (DVec3::new(0.0, 0.0, 1.0), DVec3::ZERO);
        // A face across the line of sight halfway, one beside it, one at the hand, one behind
        // the eye.
        let across = |z: f64, x: f64| {
            [
                DVec3::new(x - 0.1, -0.1, z),
                DVec3::new(x + 0.1, -0.1, z),
                DVec3::new(x, 0.1, z),
            ]
        };
        let faces = [
            across(0.5, 0.0),
            across(0.5, 0.5),
            across(0.03, 0.0),
            across(1.5, 0.0),
        ];
        assert_eq!(faces_crossed(&faces, eye, target, 0.07), 1);
        assert_eq!(faces_crossed(&faces[1..], eye, target, 0.07), 0);
    }

    #[test]
    fn a_face_is_drawn_from_its_front_or_either_side_when_double_sided() {
        // Counter-clockwise seen from +Z.
        let corners = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let (front, back) = (DVec3::new(0.2, 0.2, 1.0), DVec3::new(0.2, 0.2, -1.0));
        let one = SightFace {
            corners,
            double_sided: false,
        };
        assert!(one.drawn_from(front) && !one.drawn_from(back));
        let both = SightFace {
            double_sided: true,
            ..one
        };
        assert!(both.drawn_from(front) && both.drawn_from(back));
    }

    /// A closed box: ±1 inside (by its faces' winding), 0 outside.
    #[test]
    fn the_winding_number_tells_inside_from_outside() {
        let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
        let quad = |a: DVec3, b: DVec3, c: DVec3, d: DVec3| [[a, b, c], [a, c, d]];
        let (p, n) = (1.0, -1.0);
        let faces: Vec<[DVec3; 3]> = [
            quad(v(n, n, n), v(n, p, n), v(p, p, n), v(p, n, n)),
            quad(v(n, n, p), v(p, n, p), v(p, p, p), v(n, p, p)),
            quad(v(n, n, n), v(p, n, n), v(p, n, p), v(n, n, p)),
            quad(v(n, p, n), v(n, p, p), v(p, p, p), v(p, p, n)),
            quad(v(n, n, n), v(n, n, p), v(n, p, p), v(n, p, n)),
            quad(v(p, n, n), v(p, p, n), v(p, p, p), v(p, n, p)),
        ]
        .concat();
        assert!((winding_number(&faces, v(0.2, -0.3, 0.5)).abs() - 1.0).abs() < 1e-9);
        assert!(winding_number(&faces, v(0.2, 3.0, 0.5)).abs() < 1e-9);
    }
}
