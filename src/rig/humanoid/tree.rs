//! Skeleton-tree helpers shared by the arm and body detectors: depths, the main child, strict
//! ancestry, and the parsed bone names.

use super::Side;
use super::names::{self, NameKind};
use crate::rig::Skeleton;

/// Each bone's depth in its tree (roots are 0).
pub(super) fn depths(skel: &Skeleton) -> Vec<usize> {
    let mut d = vec![0; skel.len()];
    for &b in skel.order() {
        if let Some(p) = skel.parent(b) {
            d[b] = d[p] + 1;
        }
    }
    d
}

/// The child with the largest subtree (first on ties); `None` for a leaf.
pub(super) fn main_child(skel: &Skeleton, b: usize) -> Option<usize> {
    skel.children(b)
        .iter()
        .copied()
        .max_by_key(|&c| (skel.subtree_len(c), std::cmp::Reverse(c)))
}

pub(super) fn strict_ancestor(skel: &Skeleton, a: usize, b: usize) -> bool {
    a != b && skel.is_ancestor(a, b)
}

pub(super) struct Names {
    pub(super) parsed: Vec<names::ParsedName>,
    pub(super) depth: Vec<usize>,
}

impl Names {
    /// Bones of `side` whose name has `kind`, shallowest first.
    pub(super) fn of(&self, side: Side, kind: NameKind) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.parsed.len())
            .filter(|&i| self.parsed[i].side == Some(side) && self.parsed[i].kind == kind)
            .collect();
        v.sort_by_key(|&i| (self.depth[i], i));
        v
    }

    /// True when `bones` (shallowest first) form one ancestor chain of at least `min` bones.
    pub(super) fn is_chain(skel: &Skeleton, bones: &[usize], min: usize) -> bool {
        bones.len() >= min && bones.windows(2).all(|w| strict_ancestor(skel, w[0], w[1]))
    }
}

/// Every bone's parsed name and depth.
pub(super) fn names_of(skel: &Skeleton) -> Names {
    Names {
        parsed: skel.bones().iter().map(|b| names::parse(&b.name)).collect(),
        depth: depths(skel),
    }
}
