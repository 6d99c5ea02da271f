//! The tackle in the exported files (issue 34).
//!
//! - **The rod's bend chain**: [`BEND_JOINTS`] nodes `rod_bend_00` … along the blank, each a
//!   child of the rod holder (siblings, not a hierarchy: a joint's place is then one channel's
//!   error, not the sum of every joint's before it, so clips reduce as well as the body's),
//!   placed where the solved bend puts the blank. Every rod
//!   mesh that reaches past the bend's start is skinned on that chain (one skin per mesh, its
//!   inverse binds the chain's rest joints composed with the mesh's rest placement in the
//!   rod) and is carried by its own node at the scene root (`<mesh>_bent`, identity, which
//!   glTF ignores for a skinned mesh and three.js binds at identity), so the same weights bend
//!   it in three.js, Blender and an engine exactly as the editor draws it. Meshes before the
//!   bend (handle, reel, crank) stay rigid under their nodes. The rod's guides are nodes
//!   `line_guide_00` … (butt first) at their rings' centres, each a child of the chain joint
//!   that carries it, and `line_reel` where the line leaves the reel (a child of the first
//!   joint, which never moves): the line runs from the reel through them to `line_tip`.
//! - **The line** as the quadratic Bézier curve it is: a `fishing_line` node at the scene root
//!   (identity) with the children [`LINE_NODES`] `line_tip`, `line_control` and `line_lure`
//!   at the curve's three control points in world space (see
//!   `fishing::Tackle::line_bezier`). An engine rebuilds the line exactly from them (three
//!   nodes animate far more cheaply than a polyline's every point).
//!
//! Session clips animate both (translation and rotation of every chain joint, translation
//! of the line's three points).

use crate::assetgen::glb::GlbBuilder;
use crate::fishing::rod_bend::{BEND_JOINTS, BendChain, RodBend};
use crate::fishing::rod_guides::RodGuide;
use crate::rig::Transform;
use crate::stage::Stage;
use glam::{DAffine3, DQuat, DVec3};

/// The rod's chain in the file: its rest chain and its joint nodes, first to tip.
pub(crate) struct BendNodes {
    pub chain: BendChain,
    pub joints: Vec<usize>,
    /// The rod holder, the joints' parent and the skins' skeleton root.
    pub holder: usize,
}

/// The bend the stage draws: the last tackle's, or a straight rod on the rod's chain when the
/// tackle could not be solved; `None` for a rod whose grips leave no blank to bend.
pub(crate) fn stage_bend(stage: &Stage) -> Option<RodBend> {
    if let Some(t) = stage.tackle() {
        return Some(t.bend);
    }
    let rod = &stage.actor.gear.rod;
    let chain = BendChain::for_rod(rod.length, rod.reel_seat);
    chain.validate().ok().map(|_| RodBend::straight(chain))
}

/// Each chain joint's local transform in the rod holder for `bend` (rod space). Unit scale.
pub(crate) fn bend_locals(bend: &RodBend) -> Vec<Transform> {
    (0..BEND_JOINTS)
        .map(|k| {
            let t = Transform::from_affine(&bend.rod_from_joint(k));
            Transform::new(t.translation, t.rotation.normalize(), DVec3::ONE)
        })
        .collect()
}

/// Adds the chain's joint nodes posed by `bend` (not yet parented: the caller lists them
/// among the rod holder's children), each with its guides' [`guide_node`]s.
pub(crate) fn add_bend_chain(
    glb: &mut GlbBuilder,
    bend: &RodBend,
    holder: usize,
    guides: &[RodGuide],
    reel_exit_in_rod: Option<DVec3>,
) -> BendNodes {
    let joints: Vec<usize> = bend_locals(bend)
        .iter()
        .enumerate()
        .map(|(k, l)| {
            glb.node(
                &format!("rod_bend_{k:02}"),
                l.translation.to_array(),
                l.rotation.to_array(),
            )
        })
        .collect();
    for (k, &joint) in joints.iter().enumerate() {
        // The first joint never moves: it carries where the line leaves the reel.
        let reel = reel_exit_in_rod.filter(|_| k == 0).map(|p| {
            let local = p - DVec3::Y * bend.chain.rest_along(0);
            glb.node(LINE_REEL_NODE, local.to_array(), DQuat::IDENTITY.to_array())
        });
        let carried: Vec<usize> = reel
            .into_iter()
            .chain(
                guides
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.joint(bend) == k)
                    .map(|(i, g)| {
                        let local = g.centre_in_rod - DVec3::Y * bend.chain.rest_along(k);
                        glb.node(&guide_node(i), local.to_array(), DQuat::IDENTITY.to_array())
                    }),
            )
            .collect();
        glb.set_children(joint, &carried);
    }
    BendNodes {
        chain: bend.chain,
        joints,
        holder,
    }
}

/// The node where the line leaves the reel (a child of the chain's first joint, which never
/// moves); written when the reel's exit was found, which needs guides.
pub(crate) const LINE_REEL_NODE: &str = "line_reel";

/// The node of the rod's guide `i` (butt first): a child of the chain joint that carries it
/// (see `fishing::rod_guides::RodGuide::joint`), at the ring's centre — static, so the bend's
/// joints carry it in a clip without channels of its own.
pub(crate) fn guide_node(i: usize) -> String {
    format!("line_guide_{i:02}")
}

/// The inverse bind matrices of a rod mesh at `rod_from_mesh` on `chain`: joint `j`'s rest
/// frame is the rod's, moved `rest_along(j)` up the blank.
pub(crate) fn bend_inverse_binds(chain: &BendChain, rod_from_mesh: &DAffine3) -> Vec<[f32; 16]> {
    (0..BEND_JOINTS)
        .map(|j| {
            let m = DAffine3::from_translation(-DVec3::Y * chain.rest_along(j)) * *rod_from_mesh;
            glam::DMat4::from(m).to_cols_array().map(|v| v as f32)
        })
        .collect()
}

/// The line's nodes: its Bézier control points, tip first.
pub(crate) const LINE_NODES: [&str; 3] = ["line_tip", "line_control", "line_lure"];

/// The line's control points as node locals (world translations, no rotation), tip first;
/// empty when the stage has no tackle.
pub(crate) fn line_locals(stage: &Stage) -> Vec<Transform> {
    let Some(t) = stage.tackle() else {
        return Vec::new();
    };
    let world = stage.world_from_actor.to_affine();
    t.line_bezier()
        .iter()
        .map(|p| Transform::new(world.transform_point3(*p), DQuat::IDENTITY, DVec3::ONE))
        .collect()
}

/// Adds `fishing_line` at the scene root with the line's three control-point nodes; returns
/// them (none without a tackle).
pub(crate) fn add_line(glb: &mut GlbBuilder, stage: &Stage) -> Vec<usize> {
    let locals = line_locals(stage);
    if locals.is_empty() {
        return Vec::new();
    }
    let points: Vec<usize> = locals
        .iter()
        .zip(LINE_NODES)
        .map(|(l, name)| glb.node(name, l.translation.to_array(), l.rotation.to_array()))
        .collect();
    let root = glb.node("fishing_line", [0.0; 3], DQuat::IDENTITY.to_array());
    glb.set_children(root, &points);
    glb.scene_root(root);
    points
}
