//! A humanoid that its file declares (VRM 0.x and 1.0 `humanBones`): bone by bone, which
//! role each plays. A declaration is the map; names and topology fill only what it leaves
//! out. Pure: the importer reads the declaration (`gltf_io`), this turns its bone names into
//! roles.

use super::body::{BodyFound, BodyMap, LegPartial, eyes_below, leg_map, path_between};
use super::tree::strict_ancestor;
use super::{ArmPart, BodyRole, Finger, HumanoidMap, MapMethod, Role, Side};
use crate::rig::{Pose, Skeleton};

/// What a file declares: where it was declared (`"VRM 1.0"`, `"VRM 0.x"`) and each declared
/// bone as (the declaration's bone name, bone index), in the file's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeclaredHumanoid {
    /// Where the declaration came from, for reports.
    pub source: String,
    /// (VRM human bone name such as `leftUpperArm`, bone index).
    pub bones: Vec<(String, usize)>,
}

/// A role a declared bone plays in the map (bones the map has no role for, such as the jaw,
/// are none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredRole {
    /// An arm's clavicle, upper arm, forearm, hand or finger joint.
    Arm(Role),
    /// The hips.
    Hips,
    /// The torso above the hips, bottom up: 1 `spine`, 2 `chest`, 3 `upperChest`.
    Spine(u8),
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// An eye.
    Eye(Side),
    /// A thigh (`upperLeg`).
    Thigh(Side),
    /// A shin (`lowerLeg`).
    Shin(Side),
    /// A foot.
    Foot(Side),
    /// A toe (`toes`).
    Toe(Side),
}

/// The role of VRM human bone `name` (VRM 1.0 and 0.x names; case as the specifications
/// write them). Finger joints count from 1 at the base: a VRM 1.0 thumb is metacarpal,
/// proximal, distal; a VRM 0.x thumb proximal, intermediate, distal; the other fingers
/// proximal, intermediate, distal in both.
pub fn declared_role(name: &str) -> Option<DeclaredRole> {
    let body = match name {
        "hips" => Some(DeclaredRole::Hips),
        "spine" => Some(DeclaredRole::Spine(1)),
        "chest" => Some(DeclaredRole::Spine(2)),
        "upperChest" => Some(DeclaredRole::Spine(3)),
        "neck" => Some(DeclaredRole::Neck),
        "head" => Some(DeclaredRole::Head),
        _ => None,
    };
    if body.is_some() {
        return body;
    }
    let (side, rest) = if let Some(r) = name.strip_prefix("left") {
        (Side::Left, r)
    } else if let Some(r) = name.strip_prefix("right") {
        (Side::Right, r)
    } else {
        return None;
    };
    let arm = |part| Some(DeclaredRole::Arm(Role { side, part }));
    match rest {
        "Eye" => Some(DeclaredRole::Eye(side)),
        "UpperLeg" => Some(DeclaredRole::Thigh(side)),
        "LowerLeg" => Some(DeclaredRole::Shin(side)),
        "Foot" => Some(DeclaredRole::Foot(side)),
        "Toes" => Some(DeclaredRole::Toe(side)),
        "Shoulder" => arm(ArmPart::Clavicle),
        "UpperArm" => arm(ArmPart::UpperArm),
        "LowerArm" => arm(ArmPart::Forearm),
        "Hand" => arm(ArmPart::Hand),
        _ => {
            let (finger, joint) = Finger::ALL.iter().find_map(|&f| {
                let mut cap = f.name().to_string();
                cap[..1].make_ascii_uppercase();
                let joint = rest.strip_prefix(cap.as_str())?;
                let k = match (f, joint) {
                    (Finger::Thumb, "Metacarpal") => 1,
                    (Finger::Thumb, "Proximal") => {
                        // VRM 1.0: the second joint (after the metacarpal); VRM 0.x: the
                        // first. Resolved by the caller, which knows the version.
                        return Some((f, 0));
                    }
                    (_, "Proximal") => 1,
                    (_, "Intermediate") => 2,
                    (_, "Distal") => 3,
                    _ => return None,
                };
                Some((f, k))
            })?;
            arm(ArmPart::Finger(finger, joint))
        }
    }
}

impl DeclaredHumanoid {
    /// Every declared bone with its role; a VRM 0.x thumb's proximal joint is its first, a
    /// VRM 1.0 thumb's its second (after the metacarpal). Bones without a role are left out.
    pub fn roles(&self) -> Vec<(DeclaredRole, usize)> {
        let vrm0 = self.source.contains("0.x");
        self.bones
            .iter()
            .filter_map(|(name, bone)| {
                let role = match declared_role(name)? {
                    DeclaredRole::Arm(Role {
                        side,
                        part: ArmPart::Finger(Finger::Thumb, 0),
                    }) => DeclaredRole::Arm(Role {
                        side,
                        part: ArmPart::Finger(Finger::Thumb, if vrm0 { 1 } else { 2 }),
                    }),
                    r => r,
                };
                Some((role, *bone))
            })
            .collect()
    }
}

/// The body as `roles` declare it: hips, head and both legs (thigh, shin, foot) must be
/// declared, the head below the hips and the feet below the hips (the body's up from the
/// hips to the head); the neck, toes and eyes are taken when declared. The spine is every
/// bone between the hips and the neck (or the head), declared or not; eyes not declared are
/// found by name below the head. The problem in words when the declaration is not a body.
pub(super) fn declared_body(
    skel: &Skeleton,
    rest: &Pose,
    roles: &[(DeclaredRole, usize)],
) -> Result<BodyFound, String> {
    let one = |want: DeclaredRole| roles.iter().find(|&&(r, _)| r == want).map(|&(_, b)| b);
    let mut missing = Vec::new();
    let hips = one(DeclaredRole::Hips);
    let head = one(DeclaredRole::Head);
    if hips.is_none() {
        missing.push(BodyRole::Hips);
    }
    if head.is_none() {
        missing.push(BodyRole::Head);
    }
    let legs = [Side::Left, Side::Right].map(|side| {
        let p = LegPartial {
            thigh: one(DeclaredRole::Thigh(side)),
            shin: one(DeclaredRole::Shin(side)),
            foot: one(DeclaredRole::Foot(side)),
            toe: one(DeclaredRole::Toe(side)),
        };
        for (bone, role) in [
            (p.thigh, BodyRole::Thigh(side)),
            (p.shin, BodyRole::Shin(side)),
            (p.foot, BodyRole::Foot(side)),
        ] {
            if bone.is_none() {
                missing.push(role);
            }
        }
        leg_map(rest, &p)
    });
    let (Some(hips), Some(head), [Some(left_leg), Some(right_leg)]) = (hips, head, legs) else {
        let names: Vec<String> = missing.iter().map(BodyRole::to_string).collect();
        return Err(format!("it leaves out {}", names.join(", ")));
    };
    if !strict_ancestor(skel, hips, head) {
        return Err("its head is not below its hips".into());
    }
    let p = |b: usize| rest.world_position(b);
    let up = (p(head) - p(hips)).normalize_or_zero();
    if [&left_leg, &right_leg]
        .iter()
        .any(|l| (p(l.foot) - p(hips)).dot(up) >= 0.0)
    {
        return Err("its feet are not below its hips".into());
    }
    // A neck strictly between the hips and the head, else none.
    let neck = one(DeclaredRole::Neck)
        .filter(|&n| strict_ancestor(skel, hips, n) && strict_ancestor(skel, n, head));
    let path = path_between(skel, hips, head);
    let spine = match neck {
        Some(n) => path.iter().copied().take_while(|&b| b != n).collect(),
        None => path,
    };
    let declared_eyes: Vec<usize> = [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|s| one(DeclaredRole::Eye(s)))
        .collect();
    let eyes = if declared_eyes.is_empty() {
        eyes_below(skel, head)
    } else {
        declared_eyes
    };
    let mut missing = Vec::new();
    for (side, leg) in [(Side::Left, &left_leg), (Side::Right, &right_leg)] {
        if leg.toe.is_none() {
            missing.push(BodyRole::Toe(side));
        }
    }
    if neck.is_none() {
        missing.push(BodyRole::Neck);
    }
    Ok(BodyFound {
        body: Some(BodyMap {
            hips,
            spine,
            neck,
            head,
            eyes,
            left_leg,
            right_leg,
            method: MapMethod::Declared,
        }),
        missing,
        notes: Vec::new(),
    })
}

/// The roles of `map` (text form) whose bone is the one `roles` declares for them.
pub(super) fn declared_in_map(map: &HumanoidMap, roles: &[(DeclaredRole, usize)]) -> Vec<String> {
    let is = |want: DeclaredRole, bone: usize| roles.iter().any(|&(r, b)| r == want && b == bone);
    let mut out: Vec<String> = map
        .roles()
        .into_iter()
        .filter(|&(role, bone)| is(DeclaredRole::Arm(role), bone))
        .map(|(role, _)| role.to_string())
        .collect();
    if let Some(body) = &map.body {
        for (role, bone) in body.roles() {
            let want = match role {
                BodyRole::Hips => DeclaredRole::Hips,
                BodyRole::Neck => DeclaredRole::Neck,
                BodyRole::Head => DeclaredRole::Head,
                BodyRole::Thigh(s) => DeclaredRole::Thigh(s),
                BodyRole::Shin(s) => DeclaredRole::Shin(s),
                BodyRole::Foot(s) => DeclaredRole::Foot(s),
                BodyRole::Toe(s) => DeclaredRole::Toe(s),
                // The spine is every bone between the hips and the neck: a declared spine,
                // chest or upper chest is any of them.
                BodyRole::Spine(_) => {
                    if roles
                        .iter()
                        .any(|&(r, b)| matches!(r, DeclaredRole::Spine(_)) && b == bone)
                    {
                        out.push(role.to_string());
                    }
                    continue;
                }
            };
            if is(want, bone) {
                out.push(role.to_string());
            }
        }
        for (k, &eye) in body.eyes.iter().enumerate() {
            if roles
                .iter()
                .any(|&(r, b)| matches!(r, DeclaredRole::Eye(_)) && b == eye)
            {
                out.push(format!("eye.{}", k + 1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vrm_names_map_to_roles() {
        let arm = |side, part| Some(DeclaredRole::Arm(Role { side, part }));
        assert_eq!(declared_role("hips"), Some(DeclaredRole::Hips));
        assert_eq!(declared_role("upperChest"), Some(DeclaredRole::Spine(3)));
        assert_eq!(
            declared_role("leftEye"),
            Some(DeclaredRole::Eye(Side::Left))
        );
        assert_eq!(
            declared_role("rightToes"),
            Some(DeclaredRole::Toe(Side::Right))
        );
        assert_eq!(
            declared_role("leftShoulder"),
            arm(Side::Left, ArmPart::Clavicle)
        );
        assert_eq!(
            declared_role("rightLowerArm"),
            arm(Side::Right, ArmPart::Forearm)
        );
        assert_eq!(
            declared_role("leftLittleDistal"),
            arm(Side::Left, ArmPart::Finger(Finger::Little, 3))
        );
        assert_eq!(
            declared_role("rightThumbMetacarpal"),
            arm(Side::Right, ArmPart::Finger(Finger::Thumb, 1))
        );
        assert_eq!(declared_role("jaw"), None);
        assert_eq!(declared_role("leftEar"), None);
        assert_eq!(declared_role("leftIndexTip"), None);
    }

    #[test]
    fn a_thumbs_proximal_joint_follows_the_version() {
        let thumb = |source: &str| {
            let d = DeclaredHumanoid {
                source: source.into(),
                bones: vec![("leftThumbProximal".into(), 7), ("jaw".into(), 8)],
            };
            d.roles()
        };
        let at = |k| {
            vec![(
                DeclaredRole::Arm(Role {
                    side: Side::Left,
                    part: ArmPart::Finger(Finger::Thumb, k),
                }),
                7,
            )]
        };
        assert_eq!(thumb("VRM 1.0"), at(2));
        assert_eq!(thumb("VRM 0.x"), at(1));
    }
}
