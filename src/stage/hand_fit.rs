//! The hands' contact shapes fitted to the character's own skin, once at load (issue 33):
//! the mesh is skinned in the base pose, each vertex goes to the finger segment or palm its
//! strongest joint belongs to (leaf bones and rigid parts count for the segment above them),
//! and each segment gets a capsule round its bone: the axis through the middle of its
//! cross-sections, the radius of its skin on the palm side (the side that meets a handle).

use crate::fishing::hand_shape::PalmPoint;
use crate::fishing::{ActorRig, ArmRig, HandShape, PerSide};
use crate::gltf_io::{self, Character};
use crate::ik::grip_contact::{Capsule, JOINT_CAPSULES, SEGMENT_PIECES};
use crate::rig::{Side, Skeleton};
use glam::DVec3;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Owner {
    Palm(Side),
    Segment(Side, usize, usize),
}

/// Both hands' shapes from `character`'s skin in `actor`'s base pose; a hand with no skin
/// keeps its shape from bone lengths (mittens get the palm only: they have no fingers).
pub fn fit_hands(character: &Character, actor: &ActorRig) -> PerSide<HandShape> {
    let skeleton = &actor.skeleton;
    let owners = owners(skeleton, actor);
    let mut palm: PerSide<Vec<PalmPoint>> = PerSide::default();
    let mut segments: PerSide<Vec<Vec<Vec<DVec3>>>> = actor.arms.map(|_, arm| {
        arm.fingers
            .iter()
            .map(|(_, c)| vec![Vec::new(); c.joints.len()])
            .collect()
    });
    for (m, mesh) in character.meshes.iter().enumerate() {
        let skin = mesh.skin.and_then(|s| character.skins.get(s));
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let positions = gltf_io::skin_positions(character, &actor.base, m, p);
            let mut palm_of_vertex: Vec<Option<(Side, PalmPoint)>> = vec![None; positions.len()];
            for (v, pos) in positions.iter().enumerate() {
                let Some((owner, _)) = owner_of_vertex(&owners, mesh.node, skin, prim, v) else {
                    continue;
                };
                let world = DVec3::from_array(pos.map(f64::from));
                match owner {
                    Owner::Palm(side) => {
                        let point =
                            palm_point(&owners, skin, prim, v, world, actor, side, mesh.node);
                        palm_of_vertex[v] = Some((side, point));
                    }
                    Owner::Segment(side, f, 0) if behind_base(actor, side, f, world) => {
                        let point =
                            palm_point(&owners, skin, prim, v, world, actor, side, mesh.node);
                        palm_of_vertex[v] = Some((side, PalmPoint { pad: true, ..point }));
                    }
                    Owner::Segment(side, f, k) => segments.get_mut(side)[f][k].push(world),
                }
            }
            let world = |v: u32| DVec3::from_array(positions[v as usize].map(f64::from));
            for tri in prim.indices.chunks_exact(3) {
                let corner = |k: usize| palm_of_vertex.get(tri[k] as usize)?.as_ref();
                let (Some(a), Some(b), Some(c)) = (corner(0), corner(1), corner(2)) else {
                    continue;
                };
                if a.0 != b.0 || a.0 != c.0 {
                    continue;
                }
                let spacing = PALM_SPACING * actor.arm(a.0).hand_frame.palm_length;
                let corners = [world(tri[0]), world(tri[1]), world(tri[2])];
                for bary in inner_samples(corners, spacing) {
                    let point = blend([(&a.1, bary[0]), (&b.1, bary[1]), (&c.1, bary[2])]);
                    palm.get_mut(a.0).push(point);
                }
            }
            for (side, point) in palm_of_vertex.into_iter().flatten() {
                palm.get_mut(side).push(point);
            }
        }
    }
    actor.arms.map(|side, arm| {
        let mut shape = HandShape::from_bones(skeleton, &actor.base, &arm.fingers);
        shape.palm = std::mem::take(palm.get_mut(side));
        let mut any = !shape.palm.is_empty();
        for (f, (_, chain)) in arm.fingers.iter().enumerate() {
            for (k, &joint) in chain.joints.iter().enumerate() {
                let points = &segments.get(side)[f][k];
                let bone_from_world = actor.base.world_from_bone(joint).inverse();
                let local: Vec<DVec3> = points
                    .iter()
                    .map(|p| bone_from_world.transform_point3(*p))
                    .collect();
                let bone_capsule = shape.fingers[f][k][0];
                let axis = chain.bend_axes_in_bone[k].normalize();
                // A thumb lies along the handle and meets it with its side as well, and a
                // knob rests against the index's side in a pinch: a finger's cross-section is
                // a stadium (capsules either side where the skin reaches farther sideways than
                // toward the palm), not one circle.
                let flat = true;
                let ends = (k == 0, k + 1 == chain.joints.len());
                if let Some(c) = fit_capsules(&local, bone_capsule, axis, flat, ends) {
                    shape.fingers[f][k] = c;
                    any = true;
                }
            }
        }
        shape.from_skin = any;
        shape
    })
}

/// How far apart the palm's surface samples lie, as a share of the palm's length: a face
/// between sparse vertices (a low-poly or boxy hand) is part of the palm that meets a
/// handle, and a handle between two samples this far apart sinks in at most about
/// `spacing² / (8 · radius)`.
const PALM_SPACING: f64 = 0.1;

/// Barycentric weights of points inside the triangle `corners` (base pose) at most `spacing`
/// apart along its longest edge, the corners left out (they are points themselves); none
/// when the triangle is no longer than `spacing`.
fn inner_samples(corners: [DVec3; 3], spacing: f64) -> Vec<[f64; 3]> {
    let [a, b, c] = corners;
    let longest = a.distance(b).max(b.distance(c)).max(c.distance(a));
    if !(longest > spacing && spacing > 0.0) {
        return Vec::new();
    }
    let n = ((longest / spacing).ceil() as usize).min(64);
    let f = n as f64;
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=(n - i) {
            let k = n - i - j;
            if i.max(j).max(k) < n {
                out.push([i as f64 / f, j as f64 / f, k as f64 / f]);
            }
        }
    }
    out
}

/// A point of a palm triangle as linear blend skinning draws it: the corners' skinned
/// positions mixed by the barycentric weights. The finger and arm shares keep each corner's
/// own bone-space position (exact); the hand's share is rigid with the hand, so its mixed term
/// `Σ wᵢ · hand_weightᵢ · in_handᵢ` is exact as `in_hand · hand_weight` with `in_hand` its
/// weighted mean (the plain mean where the hand carries none of it).
fn blend(corners: [(&PalmPoint, f64); 3]) -> PalmPoint {
    let hand_weight: f64 = corners.iter().map(|(p, w)| p.hand_weight * w).sum();
    let in_hand = if hand_weight > 1e-12 {
        corners
            .iter()
            .map(|(p, w)| p.in_hand * (p.hand_weight * w))
            .sum::<DVec3>()
            / hand_weight
    } else {
        corners.iter().map(|(p, w)| p.in_hand * *w).sum()
    };
    let mut point = PalmPoint {
        in_hand,
        hand_weight,
        segments: Vec::new(),
        others: Vec::new(),
        pad: corners.iter().any(|(p, _)| p.pad),
    };
    // One term per bone: a bone's transform is affine, so `Σ wᵢ·M·pᵢ = W·M·(Σ wᵢ·pᵢ / W)`.
    for (p, w) in corners {
        for &(f, k, sw, at) in &p.segments {
            let sw = sw * w;
            match point.segments.iter_mut().find(|s| s.0 == f && s.1 == k) {
                Some(s) => {
                    s.3 = (s.3 * s.2 + at * sw) / (s.2 + sw).max(1e-300);
                    s.2 += sw;
                }
                None => point.segments.push((f, k, sw, at)),
            }
        }
        for &(bone, ow, at) in &p.others {
            let ow = ow * w;
            match point.others.iter_mut().find(|o| o.0 == bone) {
                Some(o) => {
                    o.2 = (o.2 * o.1 + at * ow) / (o.1 + ow).max(1e-300);
                    o.1 += ow;
                }
                None => point.others.push((bone, ow, at)),
            }
        }
    }
    point
}

/// Whether `world` (base pose) lies behind the base joint of finger `f` of `side`: skin that a
/// finger's first bone carries but that sits in the palm before its knuckle (the pads under
/// the knuckles that heat weights give to the finger). It does not turn rigidly with the
/// finger, so it is no part of the finger's capsules: it joins the palm's points as a pad,
/// which the grip solve skins with the fingers' bends (see [`PalmPoint::pad`]). Not the
/// thumb: its first bone carries the ball of the thumb, which turns with it.
fn behind_base(actor: &ActorRig, side: Side, f: usize, world: DVec3) -> bool {
    let (finger, chain) = &actor.arm(side).fingers[f];
    if *finger == crate::rig::Finger::Thumb {
        return false;
    }
    let (Some(&base), Some(&next)) = (chain.joints.first(), chain.joints.get(1)) else {
        return false;
    };
    let origin = actor.base.world_from_bone(base).translation;
    let along = actor.base.world_from_bone(next).translation - origin;
    (world - origin).dot(along) < 0.0
}

/// Which hand part each bone's skin belongs to: a finger joint its segment, a bone below a
/// finger joint (the tip's end bone, a rigid claw) the segment above it, the hand and the palm
/// bones beside it (and what hangs below them but is no finger) the palm.
fn owners(skeleton: &Skeleton, actor: &ActorRig) -> Vec<Option<Owner>> {
    let mut own: Vec<Option<Owner>> = vec![None; skeleton.len()];
    for arm in [&actor.arms.left, &actor.arms.right] {
        mark(&mut own, arm);
    }
    // Walk up from every bone to the first one marked (parents before children in the
    // preorder, so one pass in that order settles every bone).
    for &b in skeleton.order() {
        if own[b].is_none()
            && let Some(p) = skeleton.parent(b)
        {
            own[b] = own[p];
        }
    }
    own
}

/// The hand part carrying most of vertex `v`'s weight (the weights of its joints summed by
/// part), and the share it carries; rigid meshes belong to their node's part.
fn owner_of_vertex(
    owners: &[Option<Owner>],
    node: usize,
    skin: Option<&gltf_io::Skin>,
    prim: &gltf_io::Primitive,
    v: usize,
) -> Option<(Owner, f64)> {
    let (Some(skin), Some(joints), Some(weights)) = (skin, &prim.joints, &prim.weights) else {
        return owners.get(node).copied().flatten().map(|o| (o, 1.0));
    };
    let mut parts: [(Option<Owner>, f64); 4] = [(None, 0.0); 4];
    let mut total = 0.0;
    for k in 0..4 {
        let w = f64::from(weights[v][k]);
        if w <= 0.0 {
            continue;
        }
        total += w;
        let owner = skin
            .joints
            .get(joints[v][k] as usize)
            .and_then(|&b| owners.get(b).copied().flatten());
        if let Some(slot) = parts.iter_mut().find(|(o, w)| *w > 0.0 && *o == owner) {
            slot.1 += w;
        } else if let Some(slot) = parts.iter_mut().find(|(_, w)| *w == 0.0) {
            *slot = (owner, w);
        }
    }
    let (owner, w) = parts.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((owner?, w / total.max(1e-12)))
}

/// A palm vertex with every part that carries it (see [`PalmPoint`]); a rigid part of the
/// hand is carried by the hand alone.
#[allow(clippy::too_many_arguments)]
fn palm_point(
    owners: &[Option<Owner>],
    skin: Option<&gltf_io::Skin>,
    prim: &gltf_io::Primitive,
    v: usize,
    world: DVec3,
    actor: &ActorRig,
    side: Side,
    node: usize,
) -> PalmPoint {
    let arm = actor.arm(side);
    let base = &actor.base;
    let in_hand = base
        .world_from_bone(arm.hand)
        .inverse()
        .transform_point3(world);
    let mut point = PalmPoint {
        in_hand,
        hand_weight: 0.0,
        segments: Vec::new(),
        others: Vec::new(),
        pad: false,
    };
    let parts: Vec<(usize, f64)> = match (skin, &prim.joints, &prim.weights) {
        (Some(skin), Some(j), Some(w)) => (0..4)
            .filter(|&k| w[v][k] > 0.0)
            .filter_map(|k| Some((*skin.joints.get(j[v][k] as usize)?, f64::from(w[v][k]))))
            .collect(),
        _ => vec![(node, 1.0)],
    };
    let total = parts.iter().map(|p| p.1).sum::<f64>().max(1e-12);
    for (bone, w) in parts {
        let w = w / total;
        let in_bone = |b: usize| base.world_from_bone(b).inverse().transform_point3(world);
        match owners.get(bone).copied().flatten() {
            Some(Owner::Palm(s)) if s == side => point.hand_weight += w,
            Some(Owner::Segment(s, f, j)) if s == side => {
                point
                    .segments
                    .push((f, j, w, in_bone(arm.fingers[f].1.joints[j])));
            }
            _ => point.others.push((bone, w, in_bone(bone))),
        }
    }
    point
}

fn mark(own: &mut [Option<Owner>], arm: &ArmRig) {
    own[arm.hand] = Some(Owner::Palm(arm.side));
    for &b in &arm.hand_group {
        own[b] = Some(Owner::Palm(arm.side));
    }
    for (f, (_, chain)) in arm.fingers.iter().enumerate() {
        for (k, &j) in chain.joints.iter().enumerate() {
            own[j] = Some(Owner::Segment(arm.side, f, k));
        }
    }
}

/// Capsules along the bone's segment direction (that of `bone_capsule`), one per third of
/// the skin's extent along the bone: each through the middle of its third's cross-sections,
/// its radius the skin's reach toward the palm side there (the direction the segment moves as
/// it closes: `axis × direction`; any side where none is), the finger's outer ends (`first`:
/// the segment's base is the finger's, `last`: its tip is the fingertip) drawn in by a radius
/// so the caps end on the skin; at a joint between segments the caps overlap, so the skin
/// round the joint stays covered however it bends. `flat` (a thumb, which meets a handle with its side as
/// well): the same radius, and where the skin reaches farther to either side, a capsule there
/// too (its cross-section a stadium, not a circle). `None` with fewer than 4 points.
fn fit_capsules(
    points: &[DVec3],
    bone_capsule: Capsule,
    axis: DVec3,
    flat: bool,
    (first, last): (bool, bool),
) -> Option<[Capsule; JOINT_CAPSULES]> {
    if points.len() < 4 {
        return None;
    }
    let d = (bone_capsule.end - bone_capsule.start).try_normalize()?;
    let palmar = axis.cross(d).try_normalize()?;
    let side = d.cross(palmar);
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let t = p.dot(d);
            (lo.min(t), hi.max(t))
        });
    let n = SEGMENT_PIECES as f64;
    let step = (hi - lo) / n;
    let slab = |p: &DVec3| (((p.dot(d) - lo) / step.max(1e-12)) as usize).min(SEGMENT_PIECES - 1);
    let mut sums = [(DVec3::ZERO, 0usize); SEGMENT_PIECES];
    for p in points {
        let s = &mut sums[slab(p)];
        s.0 += *p - d * p.dot(d);
        s.1 += 1;
    }
    let all = sums.iter().fold(DVec3::ZERO, |a, s| a + s.0) / points.len() as f64;
    let centres: [DVec3; SEGMENT_PIECES] = std::array::from_fn(|i| match sums[i].1 {
        0 => all,
        c => sums[i].0 / c as f64,
    });
    // The handle runs across the fingers, along their curl axes, so what meets it is the skin's
    // extent toward the palm side in the plane the segment curls in: the radius is how far the
    // skin reaches from the axis in the palm-side direction (a high quantile, so a vertex that
    // a neighbour's weights barely lose — webbing, the palm's edge — does not fatten it).
    let mut palm_side: [Vec<f64>; SEGMENT_PIECES] = Default::default();
    let mut any_side: [Vec<f64>; SEGMENT_PIECES] = Default::default();
    let mut sideways: [[Vec<f64>; 2]; SEGMENT_PIECES] = Default::default();
    let mut diagonal: [[Vec<f64>; 2]; SEGMENT_PIECES] = Default::default();
    for p in points {
        let i = slab(p);
        let e = *p - d * p.dot(d) - centres[i];
        any_side[i].push(e.length());
        let toward = e.dot(palmar);
        if toward > 0.0 {
            palm_side[i].push(toward);
        }
        let across = e.dot(side);
        sideways[i][usize::from(across < 0.0)].push(across.abs());
        if toward > 0.0 {
            diagonal[i][usize::from(across < 0.0)]
                .push((toward + across.abs()) * std::f64::consts::FRAC_1_SQRT_2);
        }
    }
    let radius = |i: usize| {
        let v = if palm_side[i].is_empty() {
            &any_side[i]
        } else {
            &palm_side[i]
        };
        quantile(v, RADIUS_QUANTILE)
    };
    let piece = |i: usize, offset: DVec3, r: f64| {
        let mut a = lo + step * i as f64;
        let mut b = lo + step * (i + 1) as f64;
        if i == 0 && first {
            a = (a + r).min(b);
        }
        if i == SEGMENT_PIECES - 1 && last {
            b = (b - r).max(a);
        }
        Capsule {
            start: centres[i] + offset + d * a,
            end: centres[i] + offset + d * b,
            radius: r,
        }
    };
    Some(std::array::from_fn(|slot| {
        let i = slot % SEGMENT_PIECES;
        let r = radius(i);
        match slot / SEGMENT_PIECES {
            0 => piece(i, DVec3::ZERO, r),
            across @ (1 | 2) if flat => {
                let (k, sign) = if across == 1 { (0, 1.0) } else { (1, -1.0) };
                let reach = quantile(&sideways[i][k], RADIUS_QUANTILE);
                if reach > r {
                    piece(i, side * (sign * (reach - r)), r)
                } else {
                    Capsule::NONE
                }
            }
            edge @ (3 | 4) if flat => {
                // A wide finger's palm-side edges (a box finger's corners): a smaller capsule
                // reaching as far toward the palm and to the side as the skin does, which a
                // finger turned across the handle (spread) meets it with.
                // Its radius: the one whose reach along the edge's diagonal is the skin's there
                // (a round finger's edge capsule grows into its side capsule, and is left out).
                let (k, sign) = if edge == 3 { (0, 1.0) } else { (1, -1.0) };
                let reach = quantile(&sideways[i][k], RADIUS_QUANTILE);
                if reach <= r || diagonal[i][k].is_empty() {
                    return Capsule::NONE;
                }
                let diag = quantile(&diagonal[i][k], RADIUS_QUANTILE);
                let s2 = std::f64::consts::SQRT_2;
                let rho = (((reach + r) / s2 - diag) / (s2 - 1.0)).max(EDGE_LEAST * r);
                if rho >= r {
                    Capsule::NONE
                } else {
                    piece(i, side * (sign * (reach - rho)) + palmar * (r - rho), rho)
                }
            }
            _ => Capsule::NONE,
        }
    }))
}

/// The share of a piece's palm-side (or sideways) skin inside its capsule.
const RADIUS_QUANTILE: f64 = 0.95;
/// The least radius of a palm-side edge capsule, as a share of the segment's radius (a box
/// finger's corner is still rounded).
const EDGE_LEAST: f64 = 0.2;

/// The `q` quantile of `values` (nearest rank); 0 for none.
fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n => v[((q * n as f64).ceil() as usize).clamp(1, n) - 1],
    }
}
