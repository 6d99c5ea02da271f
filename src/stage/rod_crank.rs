//! The rod's turning crank (issue 33): the bundled rod's `reel_crank` node, or an artist's
//! node named for its crank (see [`find_crank_node`]), turned by the session's crank angle
//! about the hold frame's X axis through the node's origin (see
//! [`crate::fishing::reel_crank`]). An artist's crank is fitted once when the rod is placed:
//! its knob's circle replaces the crank that [`crate::fishing::rod_model::RodModel::gear`]
//! guesses from the reel's size, so the knob the rear hand pinches is the one drawn.

use crate::fishing::reel_crank::{CrankFit, crank_motion, fit_crank};
use crate::gltf_io::Character;
use crate::rig::{Pose, Skeleton, Transform};
use glam::{DAffine3, DQuat, DVec3, Vec3};

/// How a rod's crank node is modelled.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CrankRest {
    /// The knob's angle as modelled (see [`CrankFit::rest_angle`]; 0 on the bundled rod).
    pub rest_angle: f64,
    /// The crank is modelled on the hold frame's +X side, the front hand's for a
    /// right-handed angler (a reel for the left hand's retrieve): the session cranks on the
    /// rear hand's side, so it is drawn as its mirror image, as an angler moves a reel's
    /// handle to the other side.
    pub mirrored: bool,
}

/// The crank of `fit`, on the rear hand's side of a right-handed session (hold −X): a crank
/// modelled on +X is mirrored across the blank.
pub fn on_rear_side(mut fit: CrankFit) -> (CrankFit, CrankRest) {
    let mirrored = fit.crank.centre_in_hold.x > 0.0;
    if mirrored {
        fit.crank.centre_in_hold.x = -fit.crank.centre_in_hold.x;
    }
    let rest = CrankRest {
        rest_angle: fit.rest_angle,
        mirrored,
    };
    (fit, rest)
}

/// The rod model's frame in the hold frame: a reel on top (a baitcaster) is the hold frame
/// turned half a turn about the blank (see [`crate::fishing::gear`]).
pub fn hold_from_rod(reel_above: bool) -> DAffine3 {
    if reel_above {
        DAffine3::from_quat(DQuat::from_rotation_y(std::f64::consts::PI))
    } else {
        DAffine3::IDENTITY
    }
}

/// The first node (in the file's order) whose name holds `crank` (any case) and under which
/// a mesh hangs: how a modelled reel's turning handle is named in DCC tools and asset stores
/// (`reel_crank`, `Crank`, `ReelCrankHandle`).
pub fn find_crank_node(rod: &Character) -> Option<usize> {
    let skeleton = &rod.skeleton;
    (0..skeleton.len()).find(|&b| {
        skeleton.bones()[b].name.to_lowercase().contains("crank")
            && rod
                .meshes
                .iter()
                .any(|m| skeleton.subtree_order(b).contains(&m.node))
    })
}

/// The crank of `node` in `rod` (rod space, at rest) fitted in the hold frame of a rod whose
/// reel is on top when `reel_above`. `None` when its meshes have no knob off its axis (see
/// [`fit_crank`]).
pub fn fit_rod_crank(rod: &Character, node: usize, reel_above: bool) -> Option<CrankFit> {
    let skeleton = &rod.skeleton;
    let rest = Pose::rest(skeleton);
    let hold = hold_from_rod(reel_above);
    let under = skeleton.subtree_order(node);
    let points: Vec<DVec3> = rod
        .meshes
        .iter()
        .filter(|m| under.contains(&m.node))
        .flat_map(|m| {
            let world = hold * *rest.world_from_bone(m.node);
            m.primitives.iter().flat_map(move |p| {
                p.positions
                    .iter()
                    .map(move |q| world.transform_point3(Vec3::from(*q).as_dvec3()))
            })
        })
        .collect();
    let pivot = hold.transform_point3(rest.world_from_bone(node).translation);
    fit_crank(&points, pivot)
}

/// `pose` (the rod at rest) with the crank node `b` (modelled as `rest` says) turned to the
/// session's `angle`, drawn as its mirror image across the blank for a left-handed session
/// (`left_handed`) or a crank modelled on the other side, not both (see [`crank_motion`]).
/// The node's local is set from the world transform it should have, so a crank under any
/// parent turns about the hold frame's X axis.
pub fn turn_crank(
    pose: &mut Pose,
    skeleton: &Skeleton,
    (b, rest): (usize, CrankRest),
    reel_above: bool,
    angle: f64,
    left_handed: bool,
) {
    let hold = hold_from_rod(reel_above);
    let rest_world = *pose.world_from_bone(b);
    let pivot = hold.transform_point3(rest_world.translation);
    let mirrored = left_handed != rest.mirrored;
    let motion = hold.inverse() * crank_motion(pivot, rest.rest_angle, angle, mirrored) * hold;
    let parent_world = skeleton
        .parent(b)
        .map_or(*pose.world_from_bone(skeleton.len()), |p| {
            *pose.world_from_bone(p)
        });
    let local = Transform::from_affine(&(parent_world.inverse() * motion * rest_world));
    pose.set_local(b, local);
    pose.refresh_subtree(skeleton, b);
}

/// The crank of an artist's rod (in rod space) whose reel is on top when `reel_above`: the
/// node named for it ([`find_crank_node`]), its fit ([`fit_rod_crank`]) on the rear hand's
/// side ([`on_rear_side`]) and how it is modelled. `None` without such a node or a knob;
/// `Some((node, None))`: a node named for it without a knob off its axis.
pub fn modelled_crank(
    rod: &Character,
    reel_above: bool,
) -> Option<(usize, Option<(CrankFit, CrankRest)>)> {
    let node = find_crank_node(rod)?;
    Some((node, fit_rod_crank(rod, node, reel_above).map(on_rear_side)))
}
