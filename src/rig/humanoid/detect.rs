//! Arm detection: names first, topology as a fallback, quadruped rejection, then lengths and
//! elbow axes from the rest pose.

use super::body::{self, BodyMap};
use super::declared::{DeclaredHumanoid, DeclaredRole};
use super::names::NameKind;
use super::tree::{Names, main_child, names_of, strict_ancestor};
use super::{
    ArmMap, ArmPart, Finger, HumanoidError, HumanoidMap, HumanoidOverride, MapMethod, Role, Side,
};
use crate::rig::{Pose, Skeleton};
use glam::DVec3;

/// An arm under construction (bone indices).
#[derive(Clone, Debug, Default, PartialEq)]
struct Partial {
    clavicle: Option<usize>,
    upper: Option<usize>,
    fore: Option<usize>,
    hand: Option<usize>,
    fingers: [Vec<usize>; 5],
    /// Core roles filled from structure rather than names.
    guessed: usize,
}

impl Partial {
    fn is_complete(&self) -> bool {
        self.upper.is_some() && self.fore.is_some() && self.hand.is_some()
    }
}

fn side_slot(side: Side) -> usize {
    match side {
        Side::Left => 0,
        Side::Right => 1,
    }
}

fn arm_from_names(skel: &Skeleton, n: &Names, side: Side) -> Partial {
    let mut p = Partial::default();
    let generic = n.of(side, NameKind::GenericArm);
    let generic_chain = Names::is_chain(skel, &generic, 3);
    p.upper = n.of(side, NameKind::UpperArm).first().copied();
    if p.upper.is_none() && generic_chain {
        p.upper = Some(generic[0]);
        p.fore = Some(generic[1]);
        p.hand = Some(generic[2]);
        return finish_partial(skel, n, side, p);
    }
    // Two numbered arm joints above a named hand (`arm_joint_L_1`, `arm_joint_L_2`, `wrist_L`).
    if p.upper.is_none()
        && generic.len() == 2
        && Names::is_chain(skel, &generic, 2)
        && let Some(h) = n
            .of(side, NameKind::Hand)
            .into_iter()
            .find(|&h| strict_ancestor(skel, generic[1], h))
    {
        p.upper = Some(generic[0]);
        p.fore = Some(generic[1]);
        p.hand = Some(h);
        return finish_partial(skel, n, side, p);
    }
    if p.upper.is_none() {
        // A named forearm whose parent is unnamed: take the parent as the upper arm.
        if let Some(&f) = n.of(side, NameKind::Forearm).first() {
            p.upper = skel.parent(f);
            p.guessed += 1;
        }
    }
    let u = match p.upper {
        Some(u) => u,
        None => return p,
    };
    p.fore = n
        .of(side, NameKind::Forearm)
        .into_iter()
        .find(|&f| strict_ancestor(skel, u, f));
    if p.fore.is_none() {
        p.fore = main_child(skel, u);
        p.guessed += 1;
    }
    let Some(f) = p.fore else { return p };
    p.hand = n
        .of(side, NameKind::Hand)
        .into_iter()
        .find(|&h| strict_ancestor(skel, f, h));
    if p.hand.is_none() {
        p.hand = main_child(skel, f);
        p.guessed += 1;
    }
    finish_partial(skel, n, side, p)
}

/// Clavicle (a named ancestor of the upper arm) and finger chains (named descendants of the hand).
fn finish_partial(skel: &Skeleton, n: &Names, side: Side, mut p: Partial) -> Partial {
    let (Some(u), Some(h)) = (p.upper, p.hand) else {
        return p;
    };
    p.clavicle = n
        .of(side, NameKind::Clavicle)
        .into_iter()
        .filter(|&c| strict_ancestor(skel, c, u))
        .max_by_key(|&c| n.depth[c]);
    let sub = skel.subtree(h);
    for f in Finger::ALL {
        let mut cands: Vec<usize> = sub[1..]
            .iter()
            .copied()
            .filter(|&b| {
                n.parsed[b].kind == NameKind::Finger(f)
                    && n.parsed[b].side.is_none_or(|s| s == side)
            })
            .collect();
        cands.sort_by_key(|&b| (n.depth[b], b));
        let mut chain: Vec<usize> = Vec::new();
        for b in cands {
            if chain
                .last()
                .is_none_or(|&last| strict_ancestor(skel, last, b))
            {
                chain.push(b);
            }
        }
        // Mixamo-style end joints (a fourth, childless joint) are not phalanges.
        if chain.len() > 3 && chain.last().is_some_and(|&b| skel.children(b).is_empty()) {
            chain.pop();
        }
        p.fingers[f.index()] = chain;
    }
    p
}

/// Symmetric pairs of chains branching from one bone; the longest pair that does not reach the
/// ground is taken as the arms.
fn arms_from_topology(skel: &Skeleton, rest: &Pose) -> Option<[Partial; 2]> {
    let main_child = |b: usize| main_child(skel, b);
    let chain_of = |start: usize| {
        let mut c = vec![start];
        while c.len() < 8 {
            match main_child(*c.last().unwrap_or(&start)) {
                Some(k) => c.push(k),
                None => break,
            }
        }
        c
    };
    let pos = |b: usize| rest.world_position(b);
    let mut best: Option<(f64, [Partial; 2])> = None;
    for b in 0..skel.len() {
        let kids = skel.children(b);
        for (i, &a) in kids.iter().enumerate() {
            for &c in &kids[i + 1..] {
                let (ca, cc) = (chain_of(a), chain_of(c));
                if ca.len() < 3 || cc.len() < 3 {
                    continue;
                }
                let seg = |ch: &[usize], k: usize| (pos(ch[k + 1]) - pos(ch[k])).length();
                let symmetric = (0..2).all(|k| {
                    let (x, y) = (seg(&ca, k), seg(&cc, k));
                    x > 1e-9 && (x - y).abs() <= 0.15 * x.max(y)
                });
                let apart = (pos(a) - pos(c)).length() > 1e-9;
                if !symmetric || !apart {
                    continue;
                }
                // Left is the one at +X relative to the other in the rest pose (glTF faces +Z).
                let (left, right) = if pos(a).x >= pos(c).x {
                    (ca, cc)
                } else {
                    (cc, ca)
                };
                let parts = [left, right].map(|ch| {
                    let clav_first = ch.len() >= 4 && seg(&ch, 0) < 0.6 * seg(&ch, 1);
                    let o = usize::from(clav_first);
                    Partial {
                        clavicle: clav_first.then_some(ch[0]),
                        upper: Some(ch[o]),
                        fore: ch.get(o + 1).copied(),
                        hand: ch.get(o + 2).copied(),
                        ..Partial::default()
                    }
                });
                if !parts.iter().all(Partial::is_complete)
                    || parts.iter().any(|p| reaches_ground(skel, rest, p))
                {
                    continue;
                }
                // Arms are the largest symmetric limbs that do not reach the ground (fingers
                // are symmetric too, but small).
                let span: f64 = parts
                    .iter()
                    .map(|p| dist(rest, p.upper.unwrap_or(b), p.hand.unwrap_or(b)))
                    .sum();
                if best.as_ref().is_none_or(|(s, _)| span > *s) {
                    best = Some((span, parts));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}

/// True when the chain hangs straight down to near the lowest joint: a front leg.
fn reaches_ground(skel: &Skeleton, rest: &Pose, p: &Partial) -> bool {
    let (Some(u), Some(h)) = (p.upper, p.hand) else {
        return false;
    };
    let (lo, hi) = (0..skel.len())
        .map(|b| rest.world_position(b).y)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let height = hi - lo;
    let d = rest.world_position(h) - rest.world_position(u);
    let Some(dir) = d.try_normalize() else {
        return false;
    };
    height > 0.0 && dir.y < -0.8 && rest.world_position(h).y - lo < 0.2 * height
}

pub fn detect(skel: &Skeleton, rest: &Pose) -> HumanoidMap {
    let (parts, method, notes) = detect_partials(skel, rest);
    build(skel, rest, parts, method, notes, None)
}

fn detect_partials(skel: &Skeleton, rest: &Pose) -> ([Partial; 2], MapMethod, Vec<String>) {
    let n = names_of(skel);
    let mut notes = Vec::new();
    let mut parts = [Side::Left, Side::Right].map(|s| arm_from_names(skel, &n, s));
    let mut method = MapMethod::Names;
    if !parts.iter().any(Partial::is_complete) {
        method = MapMethod::NotFound;
        if let Some(t) = arms_from_topology(skel, rest) {
            notes.push("arms found from the skeleton's shape (names did not match)".to_string());
            parts = t;
            method = MapMethod::Topology;
        }
    }
    if parts
        .iter()
        .any(|p| p.is_complete() && reaches_ground(skel, rest, p))
    {
        let names: Vec<&str> = parts
            .iter()
            .filter_map(|p| p.upper)
            .map(|b| skel.bone(b).name.as_str())
            .collect();
        notes.push(format!(
            "no humanoid arms found: the arm-like chains {names:?} run down to the ground \
             (front legs of a quadruped?)"
        ));
        parts = [Partial::default(), Partial::default()];
        method = MapMethod::NotFound;
    } else if !parts.iter().any(Partial::is_complete) {
        notes.push("no humanoid arms found".to_string());
        method = MapMethod::NotFound;
    } else if method == MapMethod::Topology {
        // Shape alone maps arms on many trees (fingers, tails, branches): accept them only
        // on a body with hips, head and two legs.
        let found = body::detect_body(skel, rest, &n, [parts[0].upper, parts[1].upper]);
        if found.body.is_none() {
            let missing: Vec<String> = found.missing.iter().map(|r| r.to_string()).collect();
            notes.push(format!(
                "no humanoid found: arm-like chains exist, but no body around them (missing \
                 {})",
                missing.join(", ")
            ));
            parts = [Partial::default(), Partial::default()];
            method = MapMethod::NotFound;
        }
    }
    (parts, method, notes)
}

pub fn detect_with(
    skel: &Skeleton,
    rest: &Pose,
    declared: Option<&DeclaredHumanoid>,
    overrides: &HumanoidOverride,
) -> Result<HumanoidMap, HumanoidError> {
    let (mut parts, mut method, mut notes) = detect_partials(skel, rest);
    let declared = declared.map(|d| (d, d.roles()));
    if let Some((d, roles)) = &declared {
        if apply_declared_arms(skel, &mut parts, roles, &mut notes) {
            method = MapMethod::Declared;
            notes.retain(|n| !n.starts_with("no humanoid") && !n.starts_with("arms found"));
        }
        notes.push(format!(
            "{} bone(s) declared by the file's {} humanoid",
            roles.len(),
            d.source
        ));
    }
    if overrides.bones.is_empty() {
        return Ok(build(skel, rest, parts, method, notes, declared));
    }
    // A finger named in the override is replaced as a whole.
    let mut fingers: [[Vec<(u8, usize)>; 5]; 2] = Default::default();
    for (role, name) in &overrides.bones {
        let bone = skel.find(name).ok_or_else(|| HumanoidError::UnknownBone {
            role: *role,
            name: name.clone(),
        })?;
        put_role(&mut parts, &mut fingers, *role, bone);
    }
    set_fingers(&mut parts, &mut fingers);
    for p in &mut parts {
        p.guessed = 0;
    }
    method = MapMethod::Override;
    notes.retain(|n| !n.starts_with("no humanoid arms"));
    notes.push(format!("{} role(s) set by override", overrides.bones.len()));
    Ok(build(skel, rest, parts, method, notes, declared))
}

/// Puts `bone` in `role`'s place: a core part into its side's partial, a finger joint into
/// `fingers` (joint number, bone) for [`set_fingers`].
fn put_role(
    parts: &mut [Partial; 2],
    fingers: &mut [[Vec<(u8, usize)>; 5]; 2],
    role: Role,
    bone: usize,
) {
    let s = side_slot(role.side);
    let p = &mut parts[s];
    match role.part {
        ArmPart::Clavicle => p.clavicle = Some(bone),
        ArmPart::UpperArm => p.upper = Some(bone),
        ArmPart::Forearm => p.fore = Some(bone),
        ArmPart::Hand => p.hand = Some(bone),
        ArmPart::Finger(f, j) => fingers[s][f.index()].push((j, bone)),
    }
}

/// Each finger with joints in `fingers` (joint number, bone) gets them, base first.
fn set_fingers(parts: &mut [Partial; 2], fingers: &mut [[Vec<(u8, usize)>; 5]; 2]) {
    for (s, per_side) in fingers.iter_mut().enumerate() {
        for (f, joints) in per_side.iter_mut().enumerate() {
            if !joints.is_empty() {
                joints.sort();
                parts[s].fingers[f] = joints.iter().map(|&(_, b)| b).collect();
            }
        }
    }
}

/// The declared arm roles over the detected ones: an arm whose upper arm, forearm and hand
/// are all declared, each below the one before, takes them (and a declared clavicle above the
/// upper arm), each finger whose declared joints run down from the hand, one below the other,
/// takes those. True when an arm was declared. What does not hang together is left to
/// detection, with a note.
fn apply_declared_arms(
    skel: &Skeleton,
    parts: &mut [Partial; 2],
    roles: &[(DeclaredRole, usize)],
    notes: &mut Vec<String>,
) -> bool {
    let mut declared = [Partial::default(), Partial::default()];
    let mut fingers: [[Vec<(u8, usize)>; 5]; 2] = Default::default();
    for &(role, bone) in roles {
        if let DeclaredRole::Arm(r) = role {
            put_role(&mut declared, &mut fingers, r, bone);
        }
    }
    let below = |a: usize, b: usize| strict_ancestor(skel, a, b);
    let mut any = false;
    for (s, side) in [Side::Left, Side::Right].into_iter().enumerate() {
        let d = &declared[s];
        let (Some(u), Some(f), Some(h)) = (d.upper, d.fore, d.hand) else {
            continue;
        };
        if !(below(u, f) && below(f, h)) {
            notes.push(format!(
                "the declared {} arm is not a chain (upper arm → forearm → hand): found from \
                 names instead",
                side.name()
            ));
            continue;
        }
        any = true;
        let p = &mut parts[s];
        (p.upper, p.fore, p.hand) = (Some(u), Some(f), Some(h));
        p.clavicle = d.clavicle.filter(|&c| below(c, u)).or(p.clavicle);
        p.guessed = 0;
    }
    for (s, side) in [Side::Left, Side::Right].into_iter().enumerate() {
        let Some(hand) = parts[s].hand else {
            fingers[s] = Default::default();
            continue;
        };
        for (f, joints) in fingers[s].iter_mut().enumerate() {
            joints.sort();
            let chain = joints
                .iter()
                .try_fold(hand, |above, &(_, b)| below(above, b).then_some(b));
            if !joints.is_empty() && chain.is_none() {
                notes.push(format!(
                    "the declared {} {} finger does not run down from the hand: found from \
                     names instead",
                    side.name(),
                    Finger::ALL[f].name()
                ));
                joints.clear();
            }
        }
    }
    set_fingers(parts, &mut fingers);
    any
}

/// Body forward (unit, world) from the shoulders: `left × up`, with `up` from the hips to the
/// head when the body is mapped (else +Y); +Z when undefined.
fn body_forward(rest: &Pose, parts: &[Partial; 2], body: Option<&BodyMap>) -> DVec3 {
    let (Some(l), Some(r)) = (parts[0].upper, parts[1].upper) else {
        return DVec3::Z;
    };
    // The body's up, snapped to the nearest axis when within the frame's snap angle (a head
    // leaning forward must not tilt "forward" toward the floor).
    let up = body
        .and_then(|b| (rest.world_position(b.head) - rest.world_position(b.hips)).try_normalize())
        .map(|u| {
            let axis = super::frame::nearest_axis(u).1;
            if u.angle_between(axis) <= super::frame::SNAP_ANGLE_DEG.to_radians() {
                axis
            } else {
                u
            }
        })
        .unwrap_or(DVec3::Y);
    let left = rest.world_position(l) - rest.world_position(r);
    left.cross(up).try_normalize().unwrap_or(DVec3::Z)
}

fn dist(rest: &Pose, a: usize, b: usize) -> f64 {
    (rest.world_position(b) - rest.world_position(a)).length()
}

fn arm_map(skel: &Skeleton, rest: &Pose, p: &Partial, forward: DVec3) -> Option<ArmMap> {
    let (u, f, h) = (p.upper?, p.fore?, p.hand?);
    let pos = |b: usize| rest.world_position(b);
    let upper_dir = (pos(f) - pos(u)).try_normalize();
    let fore_dir = (pos(h) - pos(f)).try_normalize();
    // Flexion axis when the arm is straight: rotating the forearm about `upper × forward`
    // swings it toward the front of the body.
    let straight = upper_dir.and_then(|ud| {
        ud.cross(forward)
            .try_normalize()
            .or_else(|| ud.cross(DVec3::Y).try_normalize())
    });
    let bent = match (upper_dir, fore_dir) {
        (Some(a), Some(b)) if a.angle_between(b) > 5f64.to_radians() => a.cross(b).try_normalize(),
        _ => None,
    };
    let axis = match (bent, straight) {
        (Some(b), Some(s)) if b.dot(s) > -0.25 => b,
        (_, Some(s)) => s,
        (Some(b), None) => b,
        (None, None) => forward.cross(DVec3::Y).try_normalize().unwrap_or(DVec3::X),
    };
    let finger_base = [Finger::Middle, Finger::Index, Finger::Ring, Finger::Little]
        .iter()
        .find_map(|&fi| p.fingers[fi.index()].first().copied());
    let palm_length = match finger_base {
        Some(b) => Some(dist(rest, h, b)),
        None => {
            let kids = skel.children(h);
            (!kids.is_empty())
                .then(|| kids.iter().map(|&k| dist(rest, h, k)).sum::<f64>() / kids.len() as f64)
        }
    };
    let finger_lengths = p.fingers.clone().map(|chain| {
        let mut l: Vec<f64> = chain.windows(2).map(|w| dist(rest, w[0], w[1])).collect();
        if let Some(&tip) = chain.last()
            && let Some(end) = main_child(skel, tip)
        {
            l.push(dist(rest, tip, end));
        }
        l
    });
    Some(ArmMap {
        clavicle: p.clavicle,
        upper_arm: u,
        forearm: f,
        hand: h,
        fingers: p.fingers.clone(),
        upper_arm_length: dist(rest, u, f),
        forearm_length: dist(rest, f, h),
        palm_length,
        finger_lengths,
        elbow_axis_in_world: axis,
        elbow_axis_in_upper_arm: (rest.world_rotation(u).inverse() * axis).normalize(),
    })
}

fn build(
    skel: &Skeleton,
    rest: &Pose,
    parts: [Partial; 2],
    method: MapMethod,
    mut notes: Vec<String>,
    declared: Option<(&DeclaredHumanoid, Vec<(DeclaredRole, usize)>)>,
) -> HumanoidMap {
    // The declared body, else (none declared, or not a body) the one names and shape give.
    let declared_body = declared.as_ref().and_then(|(d, roles)| {
        super::declared::declared_body(skel, rest, roles)
            .map_err(|problem| {
                notes.push(format!(
                    "the {} declaration's body is not used ({problem}): found from names and \
                     shape",
                    d.source
                ));
            })
            .ok()
    });
    let found = declared_body.unwrap_or_else(|| {
        let n = names_of(skel);
        body::detect_body(skel, rest, &n, [parts[0].upper, parts[1].upper])
    });
    notes.extend(found.notes);
    let forward = body_forward(rest, &parts, found.body.as_ref());
    let mut missing = Vec::new();
    let mut score = 0.0;
    let mut arms = [None, None];
    for (slot, side) in [Side::Left, Side::Right].into_iter().enumerate() {
        let p = &parts[slot];
        let arm = arm_map(skel, rest, p, forward);
        let mut push = |part| missing.push(Role { side, part });
        match &arm {
            None => {
                ArmPart::all_core().into_iter().for_each(&mut push);
                Finger::ALL
                    .into_iter()
                    .for_each(|f| push(ArmPart::Finger(f, 1)));
            }
            Some(a) => {
                if a.clavicle.is_none() {
                    push(ArmPart::Clavicle);
                }
                for f in Finger::ALL {
                    if a.finger(f).is_empty() {
                        push(ArmPart::Finger(f, 1));
                    }
                }
                let optional = 6 - missing.iter().filter(|r| r.side == side).count();
                let s = 0.8 + 0.2 * optional as f64 / 6.0 - 0.1 * p.guessed as f64;
                score += 0.5 * s.max(0.1);
            }
        }
        arms[slot] = arm;
    }
    let confidence = match method {
        MapMethod::Names | MapMethod::Override | MapMethod::Declared => score,
        MapMethod::Topology => 0.5 * score,
        MapMethod::NotFound => 0.0,
    };
    let [left, right] = arms;
    let mut map = HumanoidMap {
        left,
        right,
        confidence: confidence.clamp(0.0, 1.0),
        method,
        missing,
        notes,
        forward,
        body: found.body,
        body_missing: found.missing,
        declared_by: None,
        declared: Vec::new(),
    };
    if let Some((d, roles)) = declared {
        map.declared = super::declared::declared_in_map(&map, &roles);
        map.declared_by = Some(d.source.clone());
    }
    map
}
