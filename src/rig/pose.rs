//! [`Pose`]: the mutable local and cached world transforms of a [`Skeleton`]'s bones.

use super::{Skeleton, Transform};
use glam::{DAffine3, DQuat, DVec3};

/// Mutable pose of a [`Skeleton`]: local transforms and cached world transforms.
///
/// World transforms are only valid after [`Pose::refresh_all`] or the relevant
/// [`Pose::refresh_subtree`]; setters never refresh implicitly, so callers batch edits.
/// `world_rotation` is composed from local rotations (`parent_world_rot * local_rot`),
/// which equals the rotation of the world matrix whenever scales along the chain are
/// uniform and positive (the supported case for IK); with non-uniform scale it is the
/// rotation "ignoring scale", like ozz-animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    local: Vec<Transform>,
    /// `local[i].to_affine()`, kept in step by the setters so refreshes skip the conversion.
    local_affine: Vec<DAffine3>,
    /// World matrices of the bones, then one more slot: `world_from_actor` as a matrix, the
    /// parent of every root. A refresh is then the same branch-free step for every bone.
    world: Vec<DAffine3>,
    /// World rotations, with the actor's rotation in the extra last slot.
    world_rot: Vec<DQuat>,
    /// Per bone, the slot of its parent in `world` / `world_rot` (`len()` for roots): the
    /// skeleton's hierarchy, copied so refreshes do not chase `Bone` records.
    parent_slot: Vec<usize>,
    /// Placement of the whole skeleton: world-from-actor-root (roots are its children).
    world_from_actor: Transform,
    /// How many bones have a local scale that is not exactly uniform
    /// ([`Transform::has_uniform_scale`]), kept by the setters: solvers that need uniform
    /// scale skip their walk up the chain when it is 0.
    nonuniform_locals: usize,
}

/// Some bones' locals and world transforms, taken by [`Pose::bone_states`].
#[derive(Clone, Debug, PartialEq)]
pub struct BoneStates(Vec<(usize, (Transform, DAffine3, DAffine3, DQuat))>);

impl Pose {
    /// The rest pose of `skeleton`, refreshed.
    pub fn rest(skeleton: &Skeleton) -> Self {
        let local: Vec<Transform> = skeleton.bones().iter().map(|b| b.rest).collect();
        let n = local.len();
        let local_affine = local.iter().map(Transform::to_affine).collect();
        let nonuniform_locals = local.iter().filter(|t| !t.has_uniform_scale()).count();
        let parent_slot = (0..n).map(|b| skeleton.parent(b).unwrap_or(n)).collect();
        let mut pose = Self {
            local,
            local_affine,
            world: vec![DAffine3::IDENTITY; n + 1],
            world_rot: vec![DQuat::IDENTITY; n + 1],
            parent_slot,
            world_from_actor: Transform::IDENTITY,
            nonuniform_locals,
        };
        pose.refresh_all(skeleton);
        pose
    }

    /// Number of bones (the skeleton's `len()`).
    pub fn len(&self) -> usize {
        self.local.len()
    }

    /// True when the pose has no bones.
    pub fn is_empty(&self) -> bool {
        self.local.is_empty()
    }

    /// Local transform of `bone`, relative to its parent (or to the actor, for a root).
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn local(&self, bone: usize) -> &Transform {
        &self.local[bone]
    }

    /// Every bone's local transform, indexed like the skeleton's bones.
    pub fn locals(&self) -> &[Transform] {
        &self.local
    }

    /// Replaces `bone`'s local transform. Does not refresh world transforms.
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn set_local(&mut self, bone: usize, t: Transform) {
        let was = !self.local[bone].has_uniform_scale();
        self.nonuniform_locals =
            self.nonuniform_locals - usize::from(was) + usize::from(!t.has_uniform_scale());
        self.local[bone] = t;
        self.local_affine[bone] = t.to_affine();
    }

    /// Replaces only the rotation of `bone`'s local transform (relative to its parent; stored
    /// as given, not normalised). Does not refresh world transforms.
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn set_local_rotation(&mut self, bone: usize, q: DQuat) {
        let local = &mut self.local[bone];
        local.rotation = q;
        self.local_affine[bone] = local.to_affine();
    }

    /// True when every bone's local scale is exactly uniform (`x = y = z`; the actor
    /// placement is not included). O(1): the setters keep count.
    #[inline(always)]
    pub fn all_local_scales_uniform(&self) -> bool {
        self.nonuniform_locals == 0
    }

    /// Placement of the whole skeleton in world space: the parent transform of every root.
    pub fn world_from_actor(&self) -> &Transform {
        &self.world_from_actor
    }

    /// Moves the whole skeleton. Call [`Pose::refresh_all`] afterwards.
    pub fn set_world_from_actor(&mut self, t: Transform) {
        self.world_from_actor = t;
        let actor = self.local.len();
        self.world[actor] = t.to_affine();
        self.world_rot[actor] = t.rotation;
    }

    /// World-from-bone affine matrix (cached).
    ///
    /// # Panics
    ///
    /// If `bone > self.len()` (`bone == self.len()` reads the actor placement).
    #[inline(always)]
    pub fn world_from_bone(&self, bone: usize) -> &DAffine3 {
        &self.world[bone]
    }

    /// Every bone's cached world-from-bone matrix, indexed like the skeleton's bones.
    pub fn world_matrices(&self) -> &[DAffine3] {
        &self.world[..self.local.len()]
    }

    /// World position of the bone's origin (cached).
    ///
    /// # Panics
    ///
    /// If `bone > self.len()` (`bone == self.len()` reads the actor placement).
    #[inline(always)]
    pub fn world_position(&self, bone: usize) -> DVec3 {
        self.world[bone].translation
    }

    /// World rotation of the bone, scale removed (cached; see the type docs).
    ///
    /// # Panics
    ///
    /// If `bone > self.len()` (`bone == self.len()` reads the actor placement).
    #[inline(always)]
    pub fn world_rotation(&self, bone: usize) -> DQuat {
        self.world_rot[bone]
    }

    /// World rotation of the bone's parent, or of the actor for a root (cached).
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn parent_world_rotation(&self, skeleton: &Skeleton, bone: usize) -> DQuat {
        debug_assert_eq!(
            skeleton.parent(bone).unwrap_or(self.len()),
            self.parent_slot[bone]
        );
        self.world_rot[self.parent_slot[bone]]
    }

    /// World rotations are composed without renormalising: products of unit quaternions drift
    /// by ~1e-16 per level, far below anything the solvers can see.
    #[inline(always)]
    fn update_one(&mut self, skeleton: &Skeleton, bone: usize) {
        let p = self.parent_slot[bone];
        debug_assert_eq!(skeleton.parent(bone).unwrap_or(self.len()), p);
        self.world[bone] = self.world[p] * self.local_affine[bone];
        self.world_rot[bone] = self.world_rot[p] * self.local[bone].rotation;
    }

    /// Recomputes every world transform, parents first. `skeleton` must be the one this pose
    /// was built from.
    pub fn refresh_all(&mut self, skeleton: &Skeleton) {
        for k in 0..skeleton.order().len() {
            let b = skeleton.order()[k];
            self.update_one(skeleton, b);
        }
    }

    /// Recomputes the world transforms of `bone` and its descendants (parents first, one
    /// contiguous run of the skeleton's preorder). Precondition: the parent's world
    /// transform is current.
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    pub fn refresh_subtree(&mut self, skeleton: &Skeleton, bone: usize) {
        for &b in skeleton.subtree_order(bone) {
            self.update_one(skeleton, b);
        }
    }

    /// Recomputes only `bone` itself (not descendants). Precondition: parent current.
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn refresh_bone(&mut self, skeleton: &Skeleton, bone: usize) {
        self.update_one(skeleton, bone);
    }

    /// Sets `bone`'s local rotation like [`Pose::set_local_rotation`] and refreshes the bone
    /// itself from world values the caller already knows: a solver that turned the bone in
    /// world space has its new world rotation and origin in hand, so only the scaled world
    /// matrix is composed. Descendants are not refreshed.
    ///
    /// Preconditions: the parent's world transform is current, and `world_rotation` and
    /// `world_position` are what [`Pose::refresh_bone`] would compute from `local_rotation`,
    /// to rounding (otherwise the cache disagrees with the locals until the next refresh).
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn set_local_rotation_turned(
        &mut self,
        bone: usize,
        local_rotation: DQuat,
        world_rotation: DQuat,
        world_position: DVec3,
    ) {
        self.set_local_rotation(bone, local_rotation);
        let p = self.parent_slot[bone];
        self.world[bone] = DAffine3 {
            matrix3: self.world[p].matrix3 * self.local_affine[bone].matrix3,
            translation: world_position,
        };
        self.world_rot[bone] = world_rotation;
    }

    /// [`Pose::refresh_bone`] for a bone whose new world origin the caller already knows
    /// (a solver moved it there): the rotation and scaled matrix are composed, the origin is
    /// written. Preconditions: parent current; `world_position` is what the refresh would
    /// compute, to rounding.
    ///
    /// # Panics
    ///
    /// If `bone >= self.len()`.
    #[inline(always)]
    pub fn refresh_bone_at(&mut self, skeleton: &Skeleton, bone: usize, world_position: DVec3) {
        let p = self.parent_slot[bone];
        debug_assert_eq!(skeleton.parent(bone).unwrap_or(self.len()), p);
        self.world[bone] = DAffine3 {
            matrix3: self.world[p].matrix3 * self.local_affine[bone].matrix3,
            translation: world_position,
        };
        self.world_rot[bone] = self.world_rot[p] * self.local[bone].rotation;
    }

    /// The local and world state of `bones`, to put back bit for bit with
    /// [`Pose::put_back`].
    ///
    /// # Panics
    ///
    /// If a bone is out of range.
    pub fn bone_states(&self, bones: &[usize]) -> BoneStates {
        BoneStates(
            bones
                .iter()
                .map(|&b| {
                    let state = (
                        self.local[b],
                        self.local_affine[b],
                        self.world[b],
                        self.world_rot[b],
                    );
                    (b, state)
                })
                .collect(),
        )
    }

    /// Puts `states` back (locals and world transforms): what setting those locals and
    /// refreshing those bones would give, when every other bone they depend on is as it was
    /// when the states were taken (precondition; not checked). Other bones are untouched.
    ///
    /// # Panics
    ///
    /// If a bone is out of range.
    pub fn put_back(&mut self, states: &BoneStates) {
        for &(b, (local, local_affine, world, world_rot)) in &states.0 {
            let was = !self.local[b].has_uniform_scale();
            self.nonuniform_locals =
                self.nonuniform_locals - usize::from(was) + usize::from(!local.has_uniform_scale());
            self.local[b] = local;
            self.local_affine[b] = local_affine;
            self.world[b] = world;
            self.world_rot[b] = world_rot;
        }
    }

    /// True when every local transform is finite (the actor placement is not checked).
    pub fn is_finite(&self) -> bool {
        self.local.iter().all(Transform::is_finite)
    }
}
