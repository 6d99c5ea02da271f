//! Torso, head and legs: which bones are the hips, the spine chain, neck, head and per side
//! thigh → shin → foot → toe. Names first (Mixamo, Unreal, Rigify `DEF-*`, VRM, KayKit,
//! Cesium-style numbered legs), the skeleton's shape as a fallback.
//!
//! Pure: works on a [`Skeleton`] and its rest [`Pose`]; no axis is assumed (the body's own
//! up, hips → head, decides what "down" means), so Z-up and posed-root files map alike.

use super::names::NameKind;
use super::tree::{Names, main_child, strict_ancestor};
use super::{MapMethod, Side};
use crate::rig::{Pose, Skeleton};
use glam::DVec3;
use std::fmt;

/// One leg, rest-pose lengths in the skeleton's world units.
#[derive(Clone, Debug, PartialEq)]
pub struct LegMap {
    /// Thigh bone; its origin is the hip joint.
    pub thigh: usize,
    /// Shin bone; its origin is the knee.
    pub shin: usize,
    /// Foot bone; its origin is the ankle.
    pub foot: usize,
    /// The toe (ball) joint, when the foot has one.
    pub toe: Option<usize>,
    /// Hip joint → knee.
    pub thigh_length: f64,
    /// Knee → ankle.
    pub shin_length: f64,
}

/// Hips, spine, neck, head and both legs.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyMap {
    /// The hips (pelvis) bone; the head is always one of its descendants.
    pub hips: usize,
    /// The bones strictly between the hips and the neck (or the head), base first.
    pub spine: Vec<usize>,
    /// A bone named as neck between hips and head, else the head's parent when it lies
    /// strictly below the chest (the upper arms' common ancestor, when known); else `None`.
    pub neck: Option<usize>,
    /// The head bone.
    pub head: usize,
    /// Eye bones below the head (named as eyes; the first of each chain), depth first.
    pub eyes: Vec<usize>,
    /// The character's left leg.
    pub left_leg: LegMap,
    /// The character's right leg.
    pub right_leg: LegMap,
    /// [`MapMethod::Names`], or [`MapMethod::Topology`] when the head or legs came from shape.
    pub method: MapMethod,
}

impl BodyMap {
    /// The leg on `side`.
    pub fn leg(&self, side: Side) -> &LegMap {
        match side {
            Side::Left => &self.left_leg,
            Side::Right => &self.right_leg,
        }
    }

    /// Every body role with its bone (spine bones as `spine.1`, `spine.2` …).
    pub fn roles(&self) -> Vec<(BodyRole, usize)> {
        let mut out = vec![(BodyRole::Hips, self.hips)];
        for (k, &b) in self.spine.iter().enumerate() {
            out.push((BodyRole::Spine(k as u8 + 1), b));
        }
        if let Some(n) = self.neck {
            out.push((BodyRole::Neck, n));
        }
        out.push((BodyRole::Head, self.head));
        for side in [Side::Left, Side::Right] {
            let l = self.leg(side);
            out.push((BodyRole::Thigh(side), l.thigh));
            out.push((BodyRole::Shin(side), l.shin));
            out.push((BodyRole::Foot(side), l.foot));
            if let Some(t) = l.toe {
                out.push((BodyRole::Toe(side), t));
            }
        }
        out
    }
}

/// A torso, head or leg role; text form `hips`, `spine.2`, `neck`, `head`, `left.thigh`,
/// `right.shin`, `left.foot`, `right.toe`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BodyRole {
    /// The hips.
    Hips,
    /// Spine bone `k`, counted from 1 just above the hips.
    Spine(u8),
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// A thigh.
    Thigh(Side),
    /// A shin.
    Shin(Side),
    /// A foot.
    Foot(Side),
    /// A toe (ball) joint.
    Toe(Side),
}

impl fmt::Display for BodyRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyRole::Hips => write!(f, "hips"),
            BodyRole::Spine(k) => write!(f, "spine.{k}"),
            BodyRole::Neck => write!(f, "neck"),
            BodyRole::Head => write!(f, "head"),
            BodyRole::Thigh(s) => write!(f, "{}.thigh", s.name()),
            BodyRole::Shin(s) => write!(f, "{}.shin", s.name()),
            BodyRole::Foot(s) => write!(f, "{}.foot", s.name()),
            BodyRole::Toe(s) => write!(f, "{}.toe", s.name()),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct LegPartial {
    pub(super) thigh: Option<usize>,
    pub(super) shin: Option<usize>,
    pub(super) foot: Option<usize>,
    pub(super) toe: Option<usize>,
}

/// What the body search found: the map when complete, else the roles that are missing.
pub struct BodyFound {
    pub body: Option<BodyMap>,
    pub missing: Vec<BodyRole>,
    pub notes: Vec<String>,
}

fn named_desc(
    n: &Names,
    skel: &Skeleton,
    side: Option<Side>,
    kind: NameKind,
    of: usize,
) -> Option<usize> {
    let mut v: Vec<usize> = (0..n.parsed.len())
        .filter(|&i| {
            n.parsed[i].kind == kind
                && side.is_none_or(|s| n.parsed[i].side.is_none_or(|t| t == s))
                && strict_ancestor(skel, of, i)
        })
        .collect();
    v.sort_by_key(|&i| (n.depth[i], i));
    v.first().copied()
}

fn leg_from_names(skel: &Skeleton, n: &Names, side: Side) -> LegPartial {
    let mut p = LegPartial::default();
    let generic = n.of(side, NameKind::GenericLeg);
    let generic_chain = Names::is_chain(skel, &generic, 3);
    p.thigh = n.of(side, NameKind::Thigh).first().copied();
    if p.thigh.is_none() && generic_chain {
        p.thigh = Some(generic[0]);
        p.shin = Some(generic[1]);
        p.foot = Some(generic[2]);
        p.toe = generic.get(3).copied();
        return p;
    }
    if p.thigh.is_none() {
        // A named shin under an unnamed thigh.
        if let Some(&s) = n.of(side, NameKind::Shin).first() {
            p.thigh = skel.parent(s);
        }
    }
    let Some(t) = p.thigh else { return p };
    p.shin = named_desc(n, skel, Some(side), NameKind::Shin, t).or_else(|| main_child(skel, t));
    let Some(s) = p.shin else { return p };
    p.foot = named_desc(n, skel, Some(side), NameKind::Foot, s).or_else(|| main_child(skel, s));
    let Some(f) = p.foot else { return p };
    p.toe = named_desc(n, skel, Some(side), NameKind::Toe, f).or_else(|| {
        // An unnamed child counts as the toe only if it is not an end marker.
        main_child(skel, f).filter(|&c| n.parsed[c].kind != NameKind::Other || !is_end(skel, c))
    });
    p
}

fn is_end(skel: &Skeleton, b: usize) -> bool {
    let lower = skel.bone(b).name.to_lowercase();
    skel.children(b).is_empty()
        && (lower.contains("end") || lower.contains("nub") || lower.contains("tip"))
}

/// Lowest common ancestor (inclusive) of `bones`.
fn common_ancestor(skel: &Skeleton, bones: &[usize]) -> Option<usize> {
    let (&first, rest) = bones.split_first()?;
    let mut a = Some(first);
    while let Some(c) = a {
        if rest.iter().all(|&b| skel.is_ancestor(c, b)) {
            return Some(c);
        }
        a = skel.parent(c);
    }
    None
}

/// Bones strictly between `top` (ancestor) and `bottom`, top first.
pub(super) fn path_between(skel: &Skeleton, top: usize, bottom: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut b = skel.parent(bottom);
    while let Some(c) = b {
        if c == top {
            break;
        }
        v.push(c);
        b = skel.parent(c);
    }
    v.reverse();
    v
}

/// Two symmetric chains (thigh, shin, foot[, toe]) that run away from `up` to the lowest
/// joints: the legs, found from shape alone. Left is `+left_hint` of the two.
fn legs_from_topology(
    skel: &Skeleton,
    rest: &Pose,
    up: DVec3,
    avoid: &[usize],
) -> Option<[LegPartial; 2]> {
    let pos = |b: usize| rest.world_position(b);
    let heights: Vec<f64> = (0..skel.len()).map(|b| pos(b).dot(up)).collect();
    let (lo, hi) = heights
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &y| {
            (l.min(y), h.max(y))
        });
    let height = hi - lo;
    if height.is_nan() || height <= 0.0 {
        return None;
    }
    let chain_of = |start: usize| {
        let mut c = vec![start];
        while c.len() < 5 {
            match main_child(skel, *c.last().unwrap_or(&start)) {
                Some(k) => c.push(k),
                None => break,
            }
        }
        c
    };
    let mut best: Option<(f64, [Vec<usize>; 2])> = None;
    for b in 0..skel.len() {
        let kids = skel.children(b);
        for (i, &a) in kids.iter().enumerate() {
            for &c in &kids[i + 1..] {
                if avoid
                    .iter()
                    .any(|&x| skel.is_ancestor(a, x) || skel.is_ancestor(c, x))
                {
                    continue;
                }
                let (ca, cc) = (chain_of(a), chain_of(c));
                if ca.len() < 3 || cc.len() < 3 {
                    continue;
                }
                let seg = |ch: &[usize], k: usize| (pos(ch[k + 1]) - pos(ch[k])).length();
                let symmetric = (0..2).all(|k| {
                    let (x, y) = (seg(&ca, k), seg(&cc, k));
                    x > 1e-9 && (x - y).abs() <= 0.15 * x.max(y)
                });
                let down = |ch: &[usize]| {
                    let d = pos(ch[2]) - pos(ch[0]);
                    d.try_normalize().is_some_and(|d| d.dot(up) < -0.6)
                        && heights[ch[2]] - lo < 0.25 * height
                };
                if !symmetric || !down(&ca) || !down(&cc) {
                    continue;
                }
                let span = seg(&ca, 0) + seg(&ca, 1) + seg(&cc, 0) + seg(&cc, 1);
                if best.as_ref().is_none_or(|(s, _)| span > *s) {
                    best = Some((span, [ca, cc]));
                }
            }
        }
    }
    let (_, [a, c]) = best?;
    let part = |ch: Vec<usize>| LegPartial {
        thigh: Some(ch[0]),
        shin: Some(ch[1]),
        foot: Some(ch[2]),
        toe: ch.get(3).copied(),
    };
    Some([part(a), part(c)])
}

/// The head from shape alone: from `chest`, the child chain (not leading to an arm) that
/// climbs highest; the head is the last joint with a child, or the top joint of a short chain.
fn head_from_topology(
    skel: &Skeleton,
    rest: &Pose,
    chest: usize,
    up: DVec3,
    arms: &[usize],
) -> Option<usize> {
    let pos = |b: usize| rest.world_position(b);
    let base = pos(chest).dot(up);
    let mut best: Option<(f64, usize)> = None;
    for &c in skel.children(chest) {
        if arms.iter().any(|&a| skel.is_ancestor(c, a)) {
            continue;
        }
        let top = skel
            .subtree(c)
            .into_iter()
            .map(|b| pos(b).dot(up))
            .fold(f64::NEG_INFINITY, f64::max);
        if top > base && best.is_none_or(|(t, _)| top > t) {
            best = Some((top, c));
        }
    }
    let (_, start) = best?;
    let mut chain = vec![start];
    while let Some(k) = main_child(skel, *chain.last()?) {
        chain.push(k);
    }
    Some(if chain.len() >= 3 {
        chain[chain.len() - 2]
    } else {
        *chain.last()?
    })
}

pub(super) fn leg_map(rest: &Pose, p: &LegPartial) -> Option<LegMap> {
    let (t, s, f) = (p.thigh?, p.shin?, p.foot?);
    let d = |a: usize, b: usize| (rest.world_position(b) - rest.world_position(a)).length();
    Some(LegMap {
        thigh: t,
        shin: s,
        foot: f,
        toe: p.toe,
        thigh_length: d(t, s),
        shin_length: d(s, f),
    })
}

/// Finds the body. `upper_arms` are the mapped upper arms (left, right) when known: their
/// common ancestor is the chest, which anchors the head search and the spine.
pub(super) fn detect_body(
    skel: &Skeleton,
    rest: &Pose,
    n: &Names,
    upper_arms: [Option<usize>; 2],
) -> BodyFound {
    let mut notes = Vec::new();
    let arms: Vec<usize> = upper_arms.iter().flatten().copied().collect();
    let chest = (arms.len() == 2)
        .then(|| common_ancestor(skel, &arms))
        .flatten();
    let mut method = MapMethod::Names;
    let mut legs = [Side::Left, Side::Right].map(|s| leg_from_names(skel, n, s));
    // The head: a named head (below the chest when known), else the shape above the chest.
    let mut head = (0..skel.len())
        .filter(|&b| n.parsed[b].kind == NameKind::Head)
        .filter(|&b| chest.is_none_or(|c| strict_ancestor(skel, c, b)))
        .min_by_key(|&b| (n.depth[b], b));
    let named_hips = (0..skel.len())
        .filter(|&b| n.parsed[b].kind == NameKind::Hips)
        .min_by_key(|&b| (n.depth[b], b));
    // Up from the body itself, for the shape fallbacks.
    let up_from = |low: Option<usize>, high: Option<usize>| {
        let (l, h) = (low?, high?);
        (rest.world_position(h) - rest.world_position(l)).try_normalize()
    };
    let mut up = up_from(named_hips, head.or(chest));
    if head.is_none()
        && let Some(c) = chest
    {
        let guess_up = up.unwrap_or(DVec3::Y);
        head = head_from_topology(skel, rest, c, guess_up, &arms);
        if head.is_some() {
            method = MapMethod::Topology;
        }
    }
    if up.is_none() {
        up = up_from(named_hips.or(chest), head);
    }
    let legs_complete = |l: &[LegPartial; 2]| l.iter().all(|p| p.foot.is_some());
    if !legs_complete(&legs) {
        let up = up.unwrap_or(DVec3::Y);
        if let Some(t) = legs_from_topology(skel, rest, up, &arms) {
            legs = t;
            method = MapMethod::Topology;
            notes.push("legs found from the skeleton's shape (names did not match)".to_string());
        }
    }
    let hips = hips_above_thighs(skel, named_hips, &legs);
    if method == MapMethod::Topology {
        put_left_leg_first(rest, &mut legs, upper_arms);
    }
    let mut missing = missing_roles(hips, head, &legs);
    let (Some(hips), Some(head)) = (hips, head) else {
        return BodyFound {
            body: None,
            missing,
            notes,
        };
    };
    let [Some(left_leg), Some(right_leg)] = legs.each_ref().map(|l| leg_map(rest, l)) else {
        return BodyFound {
            body: None,
            missing,
            notes,
        };
    };
    if !strict_ancestor(skel, hips, head) {
        notes.push(format!(
            "the head {:?} is not below the hips {:?}",
            skel.bone(head).name,
            skel.bone(hips).name
        ));
        missing.push(BodyRole::Head);
        return BodyFound {
            body: None,
            missing,
            notes,
        };
    }
    // Shape check: the legs hang below the hips and the head sits above them.
    let p = |b: usize| rest.world_position(b);
    let body_up = (p(head) - p(hips)).normalize_or_zero();
    let hangs = |l: &LegMap| (p(l.foot) - p(hips)).dot(body_up) < 0.0;
    if !hangs(&left_leg) || !hangs(&right_leg) {
        notes.push("the legs do not hang below the hips".to_string());
        return BodyFound {
            body: None,
            missing,
            notes,
        };
    }
    let (neck, spine) = neck_and_spine(skel, n, hips, head, chest);
    missing.retain(|r| matches!(r, BodyRole::Toe(_)));
    if neck.is_none() {
        missing.push(BodyRole::Neck);
    }
    BodyFound {
        body: Some(BodyMap {
            hips,
            spine,
            neck,
            head,
            eyes: eyes_below(skel, head),
            left_leg,
            right_leg,
            method,
        }),
        missing,
        notes,
    }
}

/// The bones below `head` named as eyes (see [`super::names::is_eye`]), without the ones
/// below another eye.
pub(super) fn eyes_below(skel: &Skeleton, head: usize) -> Vec<usize> {
    let eyes: Vec<usize> = skel.subtree_order(head)[1..]
        .iter()
        .copied()
        .filter(|&b| super::names::is_eye(&skel.bone(b).name))
        .collect();
    eyes.iter()
        .copied()
        .filter(|&b| !eyes.iter().any(|&e| e != b && strict_ancestor(skel, e, b)))
        .collect()
}

/// The hips: a named hips bone above both thighs, else the thighs' common ancestor.
fn hips_above_thighs(
    skel: &Skeleton,
    named_hips: Option<usize>,
    legs: &[LegPartial; 2],
) -> Option<usize> {
    let thighs: Vec<usize> = legs.iter().filter_map(|l| l.thigh).collect();
    let mut hips = named_hips.filter(|&h| thighs.iter().all(|&t| strict_ancestor(skel, h, t)));
    if hips.is_none() && thighs.len() == 2 {
        hips = common_ancestor(skel, &thighs);
    }
    hips
}

/// Left / right of shape-found legs: swaps `legs` so that the first is the leg on the left
/// side of the body (left of the upper arms' line; unchanged unless both arms are known).
fn put_left_leg_first(rest: &Pose, legs: &mut [LegPartial; 2], upper_arms: [Option<usize>; 2]) {
    if let (Some(a), Some(b)) = (legs[0].thigh, legs[1].thigh)
        && let [Some(la), Some(ra)] = upper_arms
    {
        let left = rest.world_position(la) - rest.world_position(ra);
        if (rest.world_position(a) - rest.world_position(b)).dot(left) < 0.0 {
            legs.swap(0, 1);
        }
    }
}

/// The body roles not found: hips, head, then per side thigh, shin, foot and toe.
fn missing_roles(
    hips: Option<usize>,
    head: Option<usize>,
    legs: &[LegPartial; 2],
) -> Vec<BodyRole> {
    let mut missing = Vec::new();
    if hips.is_none() {
        missing.push(BodyRole::Hips);
    }
    if head.is_none() {
        missing.push(BodyRole::Head);
    }
    for (side, l) in [Side::Left, Side::Right].into_iter().zip(legs) {
        if l.thigh.is_none() {
            missing.push(BodyRole::Thigh(side));
        }
        if l.shin.is_none() {
            missing.push(BodyRole::Shin(side));
        }
        if l.foot.is_none() {
            missing.push(BodyRole::Foot(side));
        }
        if l.toe.is_none() {
            missing.push(BodyRole::Toe(side));
        }
    }
    missing
}

/// The neck and the spine between `hips` and `head`: a bone on the path named as neck, else
/// the head's parent when it sits strictly below `chest`; the spine is the path below it.
fn neck_and_spine(
    skel: &Skeleton,
    n: &Names,
    hips: usize,
    head: usize,
    chest: Option<usize>,
) -> (Option<usize>, Vec<usize>) {
    let path = path_between(skel, hips, head);
    let neck = path
        .iter()
        .copied()
        .find(|&b| n.parsed[b].kind == NameKind::Neck)
        .or_else(|| {
            // Unnamed: the head's parent when it sits above the chest.
            let parent = *path.last()?;
            (Some(parent) != chest && chest.is_none_or(|c| strict_ancestor(skel, c, parent)))
                .then_some(parent)
        });
    let spine = match neck {
        Some(nk) => path.iter().copied().take_while(|&b| b != nk).collect(),
        None => path,
    };
    (neck, spine)
}
