//! [`Skeleton`]: the immutable bone hierarchy, and the errors that reject a bad one.

use super::Transform;
use thiserror::Error;

/// One joint: a name, an optional parent, and its rest (bind-pose) local transform.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// The bone's name (not required to be unique; see [`Skeleton::find`]).
    pub name: String,
    /// Index of the parent bone in the skeleton, or `None` for a root.
    pub parent: Option<usize>,
    /// Rest local transform, relative to the parent (or to the actor, for a root).
    pub rest: Transform,
}

/// Why [`Skeleton::new`] rejected a bone list. `bone` and `name` identify the offending bone.
#[derive(Debug, Error, PartialEq)]
pub enum SkeletonError {
    /// A bone's parent index is not below the number of bones.
    #[error("bone {bone} ({name:?}) names parent {parent}, but there are only {count} bones")]
    ParentOutOfRange {
        /// Index of the offending bone.
        bone: usize,
        /// Its name.
        name: String,
        /// The out-of-range parent index.
        parent: usize,
        /// Number of bones.
        count: usize,
    },
    /// Some bones cannot be reached from a root: `bone` is the lowest-indexed of them.
    #[error("bone {bone} ({name:?}) is its own ancestor (parent cycle)")]
    Cycle {
        /// Index of the unreachable bone.
        bone: usize,
        /// Its name.
        name: String,
    },
    /// A rest transform has a NaN or infinite component.
    #[error("bone {bone} ({name:?}) has a non-finite rest transform")]
    NonFinite {
        /// Index of the offending bone.
        bone: usize,
        /// Its name.
        name: String,
    },
    /// A rest scale component is zero or negative.
    #[error("bone {bone} ({name:?}) has a zero or negative scale {scale:?}")]
    BadScale {
        /// Index of the offending bone.
        bone: usize,
        /// Its name.
        name: String,
        /// The rest scale, `[x, y, z]`.
        scale: [f64; 3],
    },
}

/// Immutable bone hierarchy. Bones keep the caller's indices; a parents-first evaluation
/// order is derived once, so parents need not precede children in `bones`.
///
/// The order is a depth-first preorder, so every bone's subtree is one contiguous run of it
/// ([`Skeleton::subtree_order`]): refreshing a subtree is a plain loop, no stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    bones: Vec<Bone>,
    children: Vec<Vec<usize>>,
    order: Vec<usize>,
    /// Position of each bone in `order`.
    order_pos: Vec<usize>,
    /// Number of bones in each bone's subtree, itself included.
    subtree_len: Vec<usize>,
}

impl Skeleton {
    /// Builds a skeleton, rejecting out-of-range parents, parent cycles, non-finite rest
    /// transforms and non-positive scales. Runs in O(n) without recursion, so very deep
    /// hierarchies cannot overflow the stack.
    ///
    /// # Errors
    ///
    /// The first problem found, as a [`SkeletonError`]: per bone in index order a non-finite
    /// rest transform, a non-positive scale or an out-of-range parent; then any parent cycle.
    pub fn new(bones: Vec<Bone>) -> Result<Self, SkeletonError> {
        let count = bones.len();
        let mut children = vec![Vec::new(); count];
        let mut roots = Vec::new();
        for (i, bone) in bones.iter().enumerate() {
            if !bone.rest.is_finite() {
                return Err(SkeletonError::NonFinite {
                    bone: i,
                    name: bone.name.clone(),
                });
            }
            let s = bone.rest.scale;
            if s.x <= 0.0 || s.y <= 0.0 || s.z <= 0.0 {
                return Err(SkeletonError::BadScale {
                    bone: i,
                    name: bone.name.clone(),
                    scale: s.to_array(),
                });
            }
            match bone.parent {
                Some(p) if p >= count => {
                    return Err(SkeletonError::ParentOutOfRange {
                        bone: i,
                        name: bone.name.clone(),
                        parent: p,
                        count,
                    });
                }
                Some(p) => children[p].push(i),
                None => roots.push(i),
            }
        }
        // Depth-first preorder from the roots (children in index order); anything not reached
        // sits on a cycle.
        let mut order = Vec::with_capacity(count);
        let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(children[b].iter().rev());
        }
        if order.len() != count {
            let mut seen = vec![false; count];
            for &b in &order {
                seen[b] = true;
            }
            let bone = seen.iter().position(|s| !s).unwrap_or(0);
            return Err(SkeletonError::Cycle {
                bone,
                name: bones[bone].name.clone(),
            });
        }
        let mut order_pos = vec![0; count];
        for (k, &b) in order.iter().enumerate() {
            order_pos[b] = k;
        }
        let mut subtree_len = vec![1; count];
        for &b in order.iter().rev() {
            if let Some(p) = bones[b].parent {
                subtree_len[p] += subtree_len[b];
            }
        }
        Ok(Self {
            bones,
            children,
            order,
            order_pos,
            subtree_len,
        })
    }

    /// This skeleton with every root bone's rest transform composed under `outer` (a uniform
    /// scale; see [`Transform::compose_uniform`]): the whole rig, and every mesh skinned or
    /// attached to it, moves into `outer`'s space. Same structure, so it cannot fail when
    /// `outer` is finite with a positive scale; otherwise the skeleton is returned unchanged.
    pub fn with_roots_under(&self, outer: &Transform) -> Skeleton {
        let bones: Vec<Bone> = self
            .bones
            .iter()
            .map(|b| match b.parent {
                Some(_) => b.clone(),
                None => Bone {
                    rest: outer.compose_uniform(&b.rest),
                    ..b.clone()
                },
            })
            .collect();
        Skeleton::new(bones).unwrap_or_else(|_| self.clone())
    }

    /// Number of bones.
    #[inline]
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// True when there are no bones.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    /// All bones, in the caller's index order.
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    /// Bone `i`.
    ///
    /// # Panics
    ///
    /// If `i` is not a bone index (`>= self.len()`).
    pub fn bone(&self, i: usize) -> &Bone {
        &self.bones[i]
    }

    /// Parent of bone `i`, or `None` for a root.
    ///
    /// # Panics
    ///
    /// If `i` is not a bone index (`>= self.len()`).
    #[inline]
    pub fn parent(&self, i: usize) -> Option<usize> {
        self.bones[i].parent
    }

    /// Direct children of bone `i`, in increasing index order.
    ///
    /// # Panics
    ///
    /// If `i` is not a bone index (`>= self.len()`).
    #[inline]
    pub fn children(&self, i: usize) -> &[usize] {
        &self.children[i]
    }

    /// Parents-first evaluation order over all bones (depth-first preorder).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// `bone` and all its descendants, parents first: a contiguous run of [`Skeleton::order`].
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index (`>= self.len()`).
    #[inline]
    pub fn subtree_order(&self, bone: usize) -> &[usize] {
        let start = self.order_pos[bone];
        &self.order[start..start + self.subtree_len[bone]]
    }

    /// Number of bones in `bone`'s subtree, itself included.
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index (`>= self.len()`).
    #[inline]
    pub fn subtree_len(&self, bone: usize) -> usize {
        self.subtree_len[bone]
    }

    /// Index of the first bone (lowest index) named exactly `name`, if any.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// True when `ancestor` is `bone` or one of its ancestors.
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index (`>= self.len()`).
    pub fn is_ancestor(&self, ancestor: usize, bone: usize) -> bool {
        let mut cur = Some(bone);
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            cur = self.bones[c].parent;
        }
        false
    }

    /// `bone` and all its descendants, parents first (see [`Skeleton::subtree_order`]).
    ///
    /// # Panics
    ///
    /// If `bone` is not a bone index (`>= self.len()`).
    pub fn subtree(&self, bone: usize) -> Vec<usize> {
        self.subtree_order(bone).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::{Pose, Transform};
    use glam::{DQuat, DVec3};

    /// Bones listed children-before-parents, with two roots and branching.
    fn branching() -> Skeleton {
        // 5 ← 2 ← 0 (root), 3 ← 0, 4 ← 3, 1 ← 4; 6 is a second root with child 7.
        let parents = [
            None,
            Some(4),
            Some(0),
            Some(0),
            Some(3),
            Some(2),
            None,
            Some(6),
        ];
        let bones = parents
            .iter()
            .enumerate()
            .map(|(i, &parent)| Bone {
                name: format!("b{i}"),
                parent,
                rest: Transform::new(
                    DVec3::new(0.1 * i as f64, 1.0, -0.2),
                    DQuat::from_rotation_z(0.3 * i as f64),
                    DVec3::splat(1.0 + 0.1 * i as f64),
                ),
            })
            .collect();
        Skeleton::new(bones).expect("valid skeleton")
    }

    fn descendants(s: &Skeleton, bone: usize) -> Vec<usize> {
        let mut out: Vec<usize> = (0..s.len()).filter(|&b| s.is_ancestor(bone, b)).collect();
        out.sort();
        out
    }

    #[test]
    fn subtree_order_is_a_parents_first_run_holding_exactly_the_descendants() {
        let s = branching();
        assert_eq!(s.order().len(), s.len());
        for bone in 0..s.len() {
            let run = s.subtree_order(bone);
            assert_eq!(run[0], bone);
            assert_eq!(run.len(), s.subtree_len(bone));
            let mut sorted = run.to_vec();
            sorted.sort();
            assert_eq!(sorted, descendants(&s, bone), "subtree of {bone}");
            for (k, &b) in run.iter().enumerate().skip(1) {
                let p = s.parent(b).expect("non-root inside a subtree");
                assert!(run[..k].contains(&p), "parent of {b} comes after it");
            }
        }
    }

    #[test]
    fn refreshing_one_subtree_matches_a_full_refresh() {
        let s = branching();
        let mut pose = Pose::rest(&s);
        pose.set_local_rotation(3, DQuat::from_rotation_x(1.1));
        let mut full = pose.clone();
        full.refresh_all(&s);
        pose.refresh_subtree(&s, 3);
        assert_eq!(pose.world_matrices(), full.world_matrices());
        assert_ne!(pose.world_from_bone(1), Pose::rest(&s).world_from_bone(1));
    }
}
