//! Resampling the fishing session: the stage is posed at every frame time and the locals of
//! the exported nodes are recorded, with the world positions the bound is checked at.

use super::ClipError;
use crate::fishing::rod_bend::BEND_JOINTS;
use crate::fishing::{Phase, SessionState};
use crate::preset::export_glb::{folded_root, holder_transform};
use crate::preset::export_tackle;
use crate::rig::{Pose, Transform};
use crate::stage::Stage;
use glam::{DAffine3, DQuat, DVec3};

/// What an animated node is, which decides the channels it may get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// A joint of a skin: always a rotation channel.
    Joint,
    /// A node carrying a skinned mesh: never animated (glTF ignores its transform).
    SkinnedMesh,
    /// Any other character node: channels only where it moves.
    Other,
    /// The rod or net holder: translation and rotation always.
    Holder,
}

/// The exported nodes in the clip's own numbering (character bones first, then the rod and
/// net holders, then the rod's turning crank where it has one, after a fixed node for its
/// parent), with the points whose world positions the error bound is checked at.
pub(crate) struct ClipRig {
    pub parent: Vec<Option<usize>>,
    pub kind: Vec<NodeKind>,
    /// The node's scale, constant over the session.
    pub scale: Vec<DVec3>,
    /// The locals written as the nodes' static transforms (the stage's pose when the export
    /// began): a node without a channel keeps this one.
    pub default: Vec<Transform>,
    /// `(node, point in the node's space)`: every character node's origin, and for the rod and
    /// net every node origin and the corners of every mesh's bounding box.
    pub points: Vec<(usize, DVec3)>,
    /// Every node once, parents before children (files may list a child first).
    order: Vec<usize>,
    /// How many character bones come first.
    pub bones: usize,
    /// The rod's turning crank (its bone in the rod's skeleton) and its parent's rest
    /// transform in rod space (the identity for a crank at the rod file's top), after the
    /// holders: a fixed node of that transform under the rod holder, never animated (the
    /// file's own nodes hold it), then the crank, turned by the session under it (see
    /// `stage::Props::rod_pose`). The crank's channels are its local in its parent's frame,
    /// as the file nests it, whatever that parent is.
    pub crank: Option<(usize, Transform)>,
    /// The first of the rod's bend chain joints (after the crank), when the rod has a chain.
    pub bend_first: Option<usize>,
    /// The first of the line's point nodes (after the chain), when the stage has a line.
    pub line_first: Option<usize>,
}

/// What [`current_locals`] appends after the character and the holders.
#[derive(Clone, Copy)]
struct Extras {
    crank: Option<(usize, Transform)>,
    bend: bool,
    line: bool,
}

/// One clip's samples: `times[k]` (seconds from the clip's start) and the locals of every
/// clip node at that time (roots and holders in world space).
pub(crate) struct Samples {
    pub times: Vec<f64>,
    pub locals: Vec<Vec<Transform>>,
}

/// The locals of the stage's current pose in the clip's numbering (with the rod's `crank`
/// bone's parent's rest transform and the crank's local after the holders, when it has one).
fn current_locals(
    stage: &Stage,
    n_bones: usize,
    extras: Extras,
) -> Result<Vec<Transform>, ClipError> {
    let crank = extras.crank;
    let eval = stage.evaluation().ok_or(ClipError::NotPosed)?;
    let world_from_actor = stage.world_from_actor.to_affine();
    let skel = &stage.character.skeleton;
    let mut locals = Vec::with_capacity(n_bones + 2);
    for b in 0..n_bones {
        let local = *stage.pose.local(b);
        locals.push(if skel.parent(b).is_none() {
            folded_root(&world_from_actor, &local)
        } else {
            local
        });
    }
    for frame in [eval.frames.actor_from_rod, eval.frames.actor_from_net] {
        locals.push(holder_transform(&(world_from_actor * frame.to_affine())));
    }
    if let Some((b, rod_from_parent)) = crank {
        locals.push(rod_from_parent);
        locals.push(*stage.props.rod_pose(&eval.frames).local(b));
    }
    if extras.bend {
        let bend = export_tackle::stage_bend(stage).ok_or(ClipError::NotPosed)?;
        locals.extend(export_tackle::bend_locals(&bend));
    }
    if extras.line {
        let line = export_tackle::line_locals(stage);
        if line.len() != export_tackle::LINE_NODES.len() {
            return Err(ClipError::NotPosed);
        }
        locals.extend(line);
    }
    Ok(locals)
}

impl ClipRig {
    /// The rig of `stage` at its current (posed) state.
    pub fn new(stage: &Stage) -> Result<Self, ClipError> {
        let character = &stage.character;
        let skel = &character.skeleton;
        let n = skel.len();
        // The crank's local is written relative to its parent in the file; the parent stays
        // where the file puts it in the rod's frame (the session turns only the crank).
        let rod = &stage.props.rod;
        let rod_rest = Pose::rest(&rod.skeleton);
        let crank = stage.props.rod_crank.map(|b| {
            let parent = rod.skeleton.parent(b).map_or(Transform::IDENTITY, |p| {
                Transform::from_affine(rod_rest.world_from_bone(p))
            });
            (b, parent)
        });
        let extras = Extras {
            crank,
            bend: export_tackle::stage_bend(stage).is_some(),
            line: stage.tackle().is_some(),
        };
        let default = current_locals(stage, n, extras)?;
        let mut parent: Vec<Option<usize>> = (0..n).map(|b| skel.parent(b)).collect();
        parent.extend([None, None]);
        let crank_node = crank.map(|_| crank_node_after(n));
        if crank.is_some() {
            parent.extend([Some(n), Some(n + 2)]);
        }
        let bend_first = extras.bend.then_some(parent.len());
        if bend_first.is_some() {
            parent.extend([Some(n); BEND_JOINTS]);
        }
        let line_first = extras.line.then_some(parent.len());
        if line_first.is_some() {
            parent.extend([None; export_tackle::LINE_NODES.len()]);
        }
        let mut kind = vec![NodeKind::Other; n];
        for skin in &character.skins {
            for &j in &skin.joints {
                kind[j] = NodeKind::Joint;
            }
        }
        for mesh in &character.meshes {
            if mesh.skin.is_some() {
                kind[mesh.node] = NodeKind::SkinnedMesh;
            }
        }
        kind.extend([NodeKind::Holder, NodeKind::Holder]);
        if crank.is_some() {
            kind.extend([NodeKind::Other, NodeKind::Other]);
        }
        if bend_first.is_some() {
            kind.extend([NodeKind::Holder; BEND_JOINTS]);
        }
        if line_first.is_some() {
            kind.extend([NodeKind::Other; export_tackle::LINE_NODES.len()]);
        }
        let mut scale: Vec<DVec3> = default.iter().map(|t| t.scale).collect();
        scale[n] = DVec3::ONE;
        scale[n + 1] = DVec3::ONE;
        let mut points: Vec<(usize, DVec3)> = (0..n).map(|b| (b, DVec3::ZERO)).collect();
        for (holder, object) in [(n, &stage.props.rod), (n + 1, &stage.props.net)] {
            let rest = Pose::rest(&object.skeleton);
            // The crank's points (its own and its children's) in its space: it turns under
            // the holder.
            let crank_from_rod = crank
                .filter(|_| holder == n)
                .map(|(c, _)| rest.world_from_bone(c).inverse());
            let turning = |b: usize| {
                let mut at = Some(b);
                while let Some(x) = at {
                    if crank_from_rod.is_some() && crank.map(|c| c.0) == Some(x) {
                        return crank_from_rod;
                    }
                    at = object.skeleton.parent(x);
                }
                None
            };
            for b in 0..object.skeleton.len() {
                points.push(match (turning(b), crank_node) {
                    (Some(m), Some(c)) => (c, m.transform_point3(rest.world_position(b))),
                    _ => (holder, rest.world_position(b)),
                });
            }
            for mesh in &object.meshes {
                let world = *rest.world_from_bone(mesh.node);
                let (node, world) = match (turning(mesh.node), crank_node) {
                    (Some(m), Some(c)) => (c, m * world),
                    _ => (holder, world),
                };
                for prim in &mesh.primitives {
                    points.extend(
                        box_corners(&prim.positions).map(|c| (node, world.transform_point3(c))),
                    );
                }
            }
        }
        // The chain's joints and the line's points are checked at their origins.
        points.extend(
            (n + 2 + 2 * usize::from(crank.is_some())..parent.len()).map(|i| (i, DVec3::ZERO)),
        );
        let order = parents_first(&parent);
        Ok(Self {
            order,
            parent,
            kind,
            scale,
            default,
            points,
            bones: n,
            crank,
            bend_first,
            line_first,
        })
    }

    /// The crank's node in the clip's numbering, when the rod has one.
    pub fn crank_node(&self) -> Option<usize> {
        self.crank.map(|_| crank_node_after(self.bones))
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// World matrices of every node for one sample's locals (rotations and translations
    /// from `local_of`, scales from the rig).
    pub fn world(&self, local_of: impl Fn(usize) -> (DVec3, DQuat), out: &mut Vec<DAffine3>) {
        out.clear();
        out.resize(self.len(), DAffine3::IDENTITY);
        for &i in &self.order {
            let (t, r) = local_of(i);
            let m = DAffine3::from_scale_rotation_translation(self.scale[i], r, t);
            out[i] = match self.parent[i] {
                Some(p) => out[p] * m,
                None => m,
            };
        }
    }
}

/// The crank's node after `bones` character bones: past the rod and net holders and its
/// parent's fixed node.
fn crank_node_after(bones: usize) -> usize {
    bones + 3
}

/// Node indices with every parent before its children (a forest: roots first).
fn parents_first(parent: &[Option<usize>]) -> Vec<usize> {
    let mut children = vec![Vec::new(); parent.len()];
    let mut order: Vec<usize> = Vec::with_capacity(parent.len());
    for (i, p) in parent.iter().enumerate() {
        match p {
            Some(p) => children[*p].push(i),
            None => order.push(i),
        }
    }
    let mut next = 0;
    while next < order.len() {
        order.extend(children[order[next]].iter().copied());
        next += 1;
    }
    order
}

/// The eight corners of the bounding box of `positions` (none for an empty primitive).
fn box_corners(positions: &[[f32; 3]]) -> impl Iterator<Item = DVec3> {
    let mut lo = DVec3::splat(f64::INFINITY);
    let mut hi = DVec3::splat(f64::NEG_INFINITY);
    for p in positions {
        let p = glam::Vec3::from(*p).as_dvec3();
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let n = if positions.is_empty() { 0 } else { 8 };
    (0..n).map(move |c| {
        DVec3::new(
            if c & 1 == 0 { lo.x } else { hi.x },
            if c & 2 == 0 { lo.y } else { hi.y },
            if c & 4 == 0 { lo.z } else { hi.z },
        )
    })
}

/// Frame times `0, 1/fps, 2/fps, …` up to `duration`, which is always the last time (a frame
/// closer than a hundredth of a frame to the end is replaced by it).
pub(crate) fn frame_times(duration: f64, fps: f64) -> Vec<f64> {
    let frames = (duration * fps - 0.01).ceil().max(1.0) as usize;
    let mut times: Vec<f64> = (0..frames).map(|k| k as f64 / fps).collect();
    times.push(duration);
    times
}

/// Poses `stage` at `state_at(t)` for each of `times` in order and records the clip's locals
/// (the stage is left at the last state).
pub(crate) fn sample(
    stage: &mut Stage,
    rig: &ClipRig,
    times: Vec<f64>,
    state_at: impl Fn(f64) -> SessionState,
) -> Result<Samples, ClipError> {
    let n = rig.bones;
    stage.reset_flip_tracking();
    let mut locals = Vec::with_capacity(times.len());
    for &time in &times {
        stage.inputs.state = state_at(time);
        stage
            .update()
            .map_err(|source| ClipError::Session { time, source })?;
        let extras = Extras {
            crank: rig.crank,
            bend: rig.bend_first.is_some(),
            line: rig.line_first.is_some(),
        };
        let l = current_locals(stage, n, extras)?;
        if let Some(node) = l.iter().position(|t| !t.is_finite()) {
            return Err(ClipError::NonFinite { time, node });
        }
        locals.push(l);
    }
    Ok(Samples { times, locals })
}

/// The state at `seconds` after the start of `first` on the session timeline.
pub(crate) fn session_state(
    seconds: f64,
    first: Phase,
    params: crate::fishing::SessionParams,
) -> SessionState {
    SessionState::at_time(params.phase_start(first) + seconds, params)
}
