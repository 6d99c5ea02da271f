//! The rod's turning crank (issue 33): the bundled rod's `reel_crank` node, or an artist's
//! node named for its crank (see [`find_crank_node`]), turned by the session's crank angle
//! about the hold frame's X axis through the node's origin (see
//! [`crate::fishing::reel_crank`]). An artist's crank is fitted once when the rod is placed:
//! its knob's circle replaces the crank that [`crate::fishing::rod_model::RodModel::gear`]
//! guesses from the reel's size, so the knob the rear hand pinches is the one drawn.

use crate::fishing::RodGear;
use crate::fishing::reel_crank::{CrankFit, crank_motion, fit_crank};
use crate::gltf_io::SkinnedMesh;
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

/// The first node (in the file's order) whose name holds `crank` (any case) and under which
/// a mesh hangs: how a modelled reel's turning handle is named in DCC tools and asset stores
/// (`reel_crank`, `Crank`, `ReelCrankHandle`).
pub fn find_crank_node(skeleton: &Skeleton, meshes: &[SkinnedMesh]) -> Option<usize> {
    (0..skeleton.len()).find(|&b| {
        skeleton.bones()[b].name.to_lowercase().contains("crank")
            && meshes
                .iter()
                .any(|m| skeleton.subtree_order(b).contains(&m.node))
    })
}

/// The crank of `node` of a rod whose nodes are `skeleton` (rod space, at rest) and meshes
/// `meshes`, fitted in the hold frame (`hold_from_model`: [`RodGear::hold_from_model`]).
/// `None` when its meshes have no knob off its axis (see [`fit_crank`]).
pub fn fit_rod_crank(
    (skeleton, meshes): (&Skeleton, &[SkinnedMesh]),
    node: usize,
    hold_from_model: DQuat,
) -> Option<CrankFit> {
    let rest = Pose::rest(skeleton);
    let hold = DAffine3::from_quat(hold_from_model);
    let under = skeleton.subtree_order(node);
    let (mut points, mut triangles) = (Vec::<DVec3>::new(), Vec::<[u32; 3]>::new());
    for m in meshes.iter().filter(|m| under.contains(&m.node)) {
        let world = hold * *rest.world_from_bone(m.node);
        for p in &m.primitives {
            let first = points.len() as u32;
            triangles.extend(
                p.indices
                    .chunks_exact(3)
                    .map(|t| [t[0] + first, t[1] + first, t[2] + first]),
            );
            points.extend(
                p.positions
                    .iter()
                    .map(|q| world.transform_point3(Vec3::from(*q).as_dvec3())),
            );
        }
    }
    let pivot = hold.transform_point3(rest.world_from_bone(node).translation);
    fit_crank(&points, &triangles, pivot)
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
    hold_from_model: DQuat,
    angle: f64,
    left_handed: bool,
) {
    let hold = DAffine3::from_quat(hold_from_model);
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

/// The crank of an artist's rod (`skeleton` in rod space, `meshes`) held as `rod` says: the
/// node named for it ([`find_crank_node`]), its fit ([`fit_rod_crank`]) on the rear hand's
/// side ([`on_rear_side`]) and how it is modelled. `None` without such a node;
/// `Some((node, None))`: a node named for it without a knob off its axis.
pub fn modelled_crank(
    (skeleton, meshes): (&Skeleton, &[SkinnedMesh]),
    rod: &RodGear,
) -> Option<(usize, Option<(CrankFit, CrankRest)>)> {
    let node = find_crank_node(skeleton, meshes)?;
    let fit = fit_rod_crank((skeleton, meshes), node, rod.hold_from_model());
    Some((node, fit.map(on_rear_side)))
}
