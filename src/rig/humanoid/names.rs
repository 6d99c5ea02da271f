//! Bone-name parsing for humanoid mapping: side and role keywords from Mixamo, Blender/Rigify,
//! Unreal, VRM, KayKit and Cesium-style names, for arms, hands, fingers, torso, head and legs.

use super::{Finger, Side};

/// What a name says about a bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Clavicle,
    UpperArm,
    Forearm,
    /// `hand` or `wrist`.
    Hand,
    Finger(Finger),
    /// `arm` with a number / `arm_joint`: upper arm, forearm or hand by chain position.
    GenericArm,
    /// `hips`, `pelvis`, or an unsided `hip`.
    Hips,
    /// `spine`, `chest`, `torso`, `abdomen`, `waist`.
    Spine,
    Neck,
    Head,
    /// `thigh`, `upleg`, `upperleg`, `femur`, or a sided `hip`.
    Thigh,
    /// `shin`, `calf`, `lowerleg`, `knee`, or a plain sided `leg` (Mixamo's `LeftLeg`).
    Shin,
    /// `foot`, `ankle`.
    Foot,
    /// `toe`, `toes`, `toebase`, `ball`.
    Toe,
    /// `leg` with a number / `leg_joint`: thigh, shin, foot, toe by chain position.
    GenericLeg,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedName {
    pub side: Option<Side>,
    pub kind: NameKind,
}

/// Splits at separators, camelCase humps and letter/digit boundaries; lowercases.
pub fn tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let hump = p.is_lowercase() && ch.is_uppercase();
            let digit_edge = p.is_ascii_digit() != ch.is_ascii_digit();
            if (hump || digit_edge) && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(ch.to_lowercase());
        prev = Some(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// True for an eye bone's name (`LeftEye`, `eye.L`, `CC_Base_L_Eye`, `Eyeball_R`,
/// `FACIAL_L_Eye`): a token `eye` or `eyeball`, and none of a lid, brow, lash or helper
/// (`end`, `target`, `mch`, …).
pub fn is_eye(name: &str) -> bool {
    let toks = tokens(name);
    let part = |t: &String| {
        [
            "lid", "lids", "brow", "brows", "lash", "lashes", "socket", "look", "aim",
        ]
        .contains(&t.as_str())
            || HELPER_TOKENS.contains(&t.as_str())
    };
    toks.iter().any(|t| t == "eye" || t == "eyeball") && !toks.iter().any(part)
}

/// Tokens that mark helper bones which must never be mapped as arm joints.
const HELPER_TOKENS: &[&str] = &[
    "twist",
    "roll",
    "ik",
    "fk",
    "pole",
    "target",
    "mch",
    "ctrl",
    "control",
    "end",
    "nub",
    "tip",
    "helper",
    "null",
    "socket",
    "attach",
    "prop",
    "weapon",
    "slot",
    "corrective",
    "bend",
];
/// Prefix tokens that carry no meaning.
const NOISE_TOKENS: &[&str] = &[
    "mixamorig",
    "skeleton",
    "b",
    "def",
    "org",
    "bip",
    "bip01",
    "bone",
    "j",
    "jnt",
    "joint",
    "c",
    "bn",
    "sk",
    "rig",
    "armature",
];

pub fn parse(name: &str) -> ParsedName {
    let toks = tokens(name);
    let mut side = None;
    let mut words: Vec<&str> = Vec::new();
    let numbered = toks
        .iter()
        .any(|t| t == "joint" || t.chars().all(|c| c.is_ascii_digit()));
    for t in &toks {
        match t.as_str() {
            "left" | "l" | "lf" | "lft" => side = side.or(Some(Side::Left)),
            "right" | "r" | "rt" | "rgt" => side = side.or(Some(Side::Right)),
            t if t.chars().all(|c| c.is_ascii_digit()) => {}
            t if NOISE_TOKENS.contains(&t) => {}
            t => words.push(t),
        }
    }
    if toks.iter().any(|t| HELPER_TOKENS.contains(&t.as_str())) {
        return ParsedName {
            side,
            kind: NameKind::Other,
        };
    }
    let key: String = words.concat();
    let has = |s: &str| key.contains(s);
    let kind = if has("thumb") {
        NameKind::Finger(Finger::Thumb)
    } else if has("index") || has("pointer") {
        NameKind::Finger(Finger::Index)
    } else if has("middle") {
        NameKind::Finger(Finger::Middle)
    } else if has("ring") {
        NameKind::Finger(Finger::Ring)
    } else if has("pinky") || has("pinkie") || has("little") {
        NameKind::Finger(Finger::Little)
    } else if has("clavicle") || has("collar") || has("shoulder") {
        NameKind::Clavicle
    } else if has("upperarm") || has("uparm") || has("humerus") || (key == "arm" && !numbered) {
        NameKind::UpperArm
    } else if has("forearm") || has("lowerarm") || has("elbow") || has("lowarm") {
        NameKind::Forearm
    } else if has("hand") || has("wrist") {
        NameKind::Hand
    } else if has("arm") && !has("armature") {
        NameKind::GenericArm
    } else {
        body_kind(&key, side.is_some(), numbered)
    };
    ParsedName { side, kind }
}

/// Torso, head and leg keywords (after the arm keywords, which win).
fn body_kind(key: &str, sided: bool, numbered: bool) -> NameKind {
    let has = |s: &str| key.contains(s);
    if has("toe") || key == "ball" {
        NameKind::Toe
    } else if has("foot") || has("ankle") {
        NameKind::Foot
    } else if has("thigh") || has("upleg") || has("upperleg") || has("femur") || has("uleg") {
        NameKind::Thigh
    } else if has("shin") || has("calf") || has("lowerleg") || has("lowleg") || has("knee") {
        NameKind::Shin
    } else if has("leg") && numbered {
        NameKind::GenericLeg
    } else if has("leg") && sided {
        NameKind::Shin
    } else if key == "hip" && sided {
        NameKind::Thigh
    } else if has("hips") || has("pelvis") || key == "hip" {
        NameKind::Hips
    } else if has("neck") {
        NameKind::Neck
    } else if key == "head" || has("head") && !has("headtop") {
        NameKind::Head
    } else if has("spine") || has("chest") || has("torso") || has("abdomen") || has("waist") {
        NameKind::Spine
    } else {
        NameKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(name: &str) -> (Option<Side>, NameKind) {
        let p = parse(name);
        (p.side, p.kind)
    }

    #[test]
    fn tokenises_common_styles() {
        assert_eq!(
            tokens("mixamorig:LeftHandIndex1"),
            ["mixamorig", "left", "hand", "index", "1"]
        );
        assert_eq!(
            tokens("Skeleton_arm_joint_L__4_"),
            ["skeleton", "arm", "joint", "l", "4"]
        );
        assert_eq!(tokens("upperarm.L"), ["upperarm", "l"]);
    }

    #[test]
    fn recognises_sides_and_roles() {
        use NameKind::*;
        let l = Some(Side::Left);
        let r = Some(Side::Right);
        assert_eq!(k("mixamorig:LeftArm"), (l, UpperArm));
        assert_eq!(k("mixamorig:RightForeArm"), (r, Forearm));
        assert_eq!(k("mixamorig:LeftHand"), (l, Hand));
        assert_eq!(k("mixamorig:LeftShoulder"), (l, Clavicle));
        assert_eq!(
            k("mixamorig:LeftHandPinky2"),
            (l, Finger(super::Finger::Little))
        );
        assert_eq!(k("upperarm.l"), (l, UpperArm));
        assert_eq!(k("forearm.L"), (l, Forearm));
        assert_eq!(k("lowerarm_r"), (r, Forearm));
        assert_eq!(k("hand_l"), (l, Hand));
        assert_eq!(k("upper_arm.R"), (r, UpperArm));
        assert_eq!(k("leftUpperArm"), (l, UpperArm));
        assert_eq!(k("rightLowerArm"), (r, Forearm));
        assert_eq!(k("leftIndexProximal"), (l, Finger(super::Finger::Index)));
        assert_eq!(k("arm_joint_L_1"), (l, GenericArm));
        assert_eq!(k("Skeleton_arm_joint_R__2_"), (r, GenericArm));
        assert_eq!(k("b_LeftUpperArm_09"), (l, UpperArm));
        assert_eq!(k("thumb_02.R"), (r, Finger(super::Finger::Thumb)));
        assert_eq!(k("wrist.l"), (l, Hand));
        assert_eq!(k("upperarm_twist_01_l"), (l, Other));
        assert_eq!(k("hand_ik.L"), (l, Other));
        assert_eq!(k("Armature"), (None, Other));
        assert_eq!(k("spine_02"), (None, Spine));
        assert_eq!(k("thigh.L"), (l, Thigh));
    }

    #[test]
    fn recognises_eyes_not_their_parts() {
        for name in [
            "mixamorig:LeftEye",
            "eye.L",
            "DEF-eye.R",
            "CC_Base_L_Eye",
            "Eyeball_R",
            "FACIAL_L_Eye",
            "J_Adj_R_FaceEye",
        ] {
            assert!(is_eye(name), "{name}");
        }
        for name in [
            "LeftEyeLid",
            "eyelid_L",
            "Eye_L_end",
            "MCH-eye.L",
            "eye_target",
            "Eyes",
            "EyeBrow_R",
            "Head",
            "eyelash",
        ] {
            assert!(!is_eye(name), "{name}");
        }
    }

    #[test]
    fn recognises_torso_head_and_legs() {
        use NameKind::*;
        let l = Some(Side::Left);
        let r = Some(Side::Right);
        // Mixamo
        assert_eq!(k("mixamorig:Hips"), (None, Hips));
        assert_eq!(k("mixamorig:Spine2"), (None, Spine));
        assert_eq!(k("mixamorig:Neck"), (None, Neck));
        assert_eq!(k("mixamorig:Head"), (None, Head));
        assert_eq!(k("mixamorig:HeadTop_End"), (None, Other));
        assert_eq!(k("mixamorig:LeftUpLeg"), (l, Thigh));
        assert_eq!(k("mixamorig:LeftLeg"), (l, Shin));
        assert_eq!(k("mixamorig:RightFoot"), (r, Foot));
        assert_eq!(k("mixamorig:RightToeBase"), (r, Toe));
        assert_eq!(k("mixamorig:RightToe_End"), (r, Other));
        // Unreal / mannequiny
        assert_eq!(k("pelvis"), (None, Hips));
        assert_eq!(k("neck_01"), (None, Neck));
        assert_eq!(k("calf_l"), (l, Shin));
        assert_eq!(k("ball_r"), (r, Toe));
        assert_eq!(k("thigh_twist_01_l"), (l, Other));
        // Rigify DEF bones
        assert_eq!(k("DEF-spine.003"), (None, Spine));
        assert_eq!(k("DEF-thigh.L"), (l, Thigh));
        assert_eq!(k("DEF-shin.R"), (r, Shin));
        assert_eq!(k("DEF-toe.L"), (l, Toe));
        assert_eq!(k("MCH-thigh_ik.L"), (l, Other));
        // VRM
        assert_eq!(k("leftUpperLeg"), (l, Thigh));
        assert_eq!(k("rightLowerLeg"), (r, Shin));
        assert_eq!(k("upperChest"), (None, Spine));
        assert_eq!(k("leftToes"), (l, Toe));
        // Cesium-style numbered legs, KayKit, RobotExpressive
        assert_eq!(k("Skeleton_leg_joint_L__3_"), (l, GenericLeg));
        assert_eq!(k("leg_joint_R_1"), (r, GenericLeg));
        assert_eq!(k("UpperLeg.L"), (l, Thigh));
        assert_eq!(k("LowerLeg.R"), (r, Shin));
        assert_eq!(k("Torso"), (None, Spine));
        assert_eq!(k("Abdomen"), (None, Spine));
        assert_eq!(k("hip.L"), (l, Thigh));
        assert_eq!(k("Hips"), (None, Hips));
    }
}
