//! Close-ups of a hand on its grip (`render --close-up`, [`close_up_from`]): on a handle,
//! looking from [`grip_view_direction`] or, where that is filled, from that direction turned
//! about the handle ([`GRIP_TURNS`]); on the reel's knob, from one of [`KNOB_VIEWS`]. Of the views, the first that the character's own body and the rod leave
//! most open (a head, chest, shoulder, thigh, forearm or the reel may fill a view, depending
//! on how the character sits and is calibrated): the fewest skin and rod faces crossed by
//! five lines of sight to the grip.

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
        if !knob {
            let first = grip_view_direction(&grip);
            let handle = grip.rotation * DVec3::Y;
            let views = GRIP_TURNS
                .iter()
                .map(|a| DQuat::from_axis_angle(handle, *a) * first);
            let best = least_blocked(&triangles, target, views, eye_distance, k);
            return Some(close_up_from(&grip, best, size, k));
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
        let best = least_blocked(
            &triangles,
            target,
            KNOB_VIEWS.iter().map(from),
            eye_distance,
            k,
        );
        Some(close_up_from(&grip, best, size, k))
    }

    /// The character's skin as posed and the rod's faces, world space: what may stand between
    /// a close-up's camera and the hand. `None` before the first pose.
    fn sight_blockers(&self) -> Option<Vec<[DVec3; 3]>> {
        let mut triangles = self.skin_faces_in_world();
        // The rod (its reel) hides the knob as much as the body does.
        let frames = &self.last.as_ref()?.frames;
        let world_from_rod = self.world_from_actor.to_affine() * frames.actor_from_rod.to_affine();
        let rod_pose = self.props.rod_pose(frames);
        for mesh in &self.props.rod.meshes {
            let m = world_from_rod * *rod_pose.world_from_bone(mesh.node);
            for prim in &mesh.primitives {
                let at = |i: u32| {
                    prim.positions
                        .get(i as usize)
                        .map(|p| m.transform_point3(glam::Vec3::from(*p).as_dvec3()))
                };
                triangles.extend(
                    prim.indices
                        .chunks_exact(3)
                        .filter_map(|t| Some([at(t[0])?, at(t[1])?, at(t[2])?])),
                );
            }
        }
        Some(triangles)
    }

    /// The character's skin faces as the current pose skins them, world space (faces with an
    /// index out of range are left out).
    pub fn skin_faces_in_world(&self) -> Vec<[DVec3; 3]> {
        let mut triangles: Vec<[DVec3; 3]> = Vec::new();
        for (m, mesh) in self.character.meshes.iter().enumerate() {
            for (p, prim) in mesh.primitives.iter().enumerate() {
                let at: Vec<DVec3> = skin_positions(&self.character, &self.pose, m, p)
                    .into_iter()
                    .map(|v| glam::Vec3::from(v).as_dvec3())
                    .collect();
                triangles.extend(prim.indices.chunks_exact(3).filter_map(|t| {
                    Some([
                        *at.get(t[0] as usize)?,
                        *at.get(t[1] as usize)?,
                        *at.get(t[2] as usize)?,
                    ])
                }));
            }
        }
        triangles
    }

    /// Where `side`'s hand holds its grip, world space: the arm's grip (slid along a long
    /// butt where the arm fell short) moved toward the butt by how far the hand rests behind
    /// the reel's post (a baitcaster's trigger). `None` before the first pose.
    fn hand_on_grip_in_world(&self, side: Side) -> Option<crate::rig::Transform> {
        let arm = self.evaluation()?.arms.get(side);
        let mut grip = self
            .world_from_actor
            .compose_rigid(&arm.grip.actor_from_grip);
        grip.translation -= grip.rotation * DVec3::Y * arm.contact.post_shift;
        Some(grip)
    }
}

/// Of `views` (unit directions from `target`, in the order preferred), the first that the
/// fewest of `triangles` block: five lines of sight from `eye_distance` away, to the target
/// and round it (`SIGHT_RADIUS`, times the character's size `k`), not counting faces within
/// `HAND_REACH` of the target (the hand looked at). World up without views.
fn least_blocked(
    triangles: &[[DVec3; 3]],
    target: DVec3,
    views: impl Iterator<Item = DVec3>,
    eye_distance: f64,
    k: f64,
) -> DVec3 {
    views
        .min_by_key(|dir| {
            let eye = target + *dir * eye_distance;
            let side = dir.any_orthonormal_vector() * (SIGHT_RADIUS * k);
            let up = dir.cross(side);
            [DVec3::ZERO, side, -side, up, -up]
                .iter()
                .map(|o| faces_crossed(triangles, eye + *o, target + *o, HAND_REACH * k))
                .sum::<usize>()
        })
        .unwrap_or(DVec3::Y)
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
}
