use super::Transform;
use thiserror::Error;

/// One joint: a name, an optional parent, and its rest (bind-pose) local transform.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    pub name: String,
    pub parent: Option<usize>,
    pub rest: Transform,
}

#[derive(Debug, Error, PartialEq)]
pub enum SkeletonError {
    #[error("bone {bone} ({name:?}) names parent {parent}, but there are only {count} bones")]
    ParentOutOfRange {
        bone: usize,
        name: String,
        parent: usize,
        count: usize,
    },
    #[error("bone {bone} ({name:?}) is its own ancestor (parent cycle)")]
    Cycle { bone: usize, name: String },
    #[error("bone {bone} ({name:?}) has a non-finite rest transform")]
    NonFinite { bone: usize, name: String },
    #[error("bone {bone} ({name:?}) has a zero or negative scale {scale:?}")]
    BadScale {
        bone: usize,
        name: String,
        scale: [f64; 3],
    },
}

/// Immutable bone hierarchy. Bones keep the caller's indices; a parents-first evaluation
/// order is derived once, so parents need not precede children in `bones`.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    bones: Vec<Bone>,
    children: Vec<Vec<usize>>,
    order: Vec<usize>,
}

impl Skeleton {
    /// Builds a skeleton, rejecting out-of-range parents, parent cycles, non-finite rest
    /// transforms and non-positive scales. Runs in O(n) without recursion, so very deep
    /// hierarchies cannot overflow the stack.
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
        // Breadth-first from the roots; anything not reached sits on a cycle.
        let mut order = Vec::with_capacity(count);
        order.extend_from_slice(&roots);
        let mut head = 0;
        while head < order.len() {
            let b = order[head];
            head += 1;
            order.extend_from_slice(&children[b]);
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
        Ok(Self {
            bones,
            children,
            order,
        })
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    pub fn bone(&self, i: usize) -> &Bone {
        &self.bones[i]
    }

    #[inline]
    pub fn parent(&self, i: usize) -> Option<usize> {
        self.bones[i].parent
    }

    #[inline]
    pub fn children(&self, i: usize) -> &[usize] {
        &self.children[i]
    }

    /// Parents-first evaluation order over all bones.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// True when `ancestor` is `bone` or one of its ancestors.
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

    /// `bone` and all its descendants, parents first (iterative; safe for deep chains).
    pub fn subtree(&self, bone: usize) -> Vec<usize> {
        let mut out = vec![bone];
        let mut head = 0;
        while head < out.len() {
            let b = out[head];
            head += 1;
            out.extend_from_slice(&self.children[b]);
        }
        out
    }
}
