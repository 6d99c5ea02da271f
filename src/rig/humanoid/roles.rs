//! Roles (side + arm part) with a stable text form, e.g. `left.upper_arm`, `right.index.2`,
//! used as keys of a serialisable [`HumanoidOverride`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The character's own left or right (not the viewer's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The character's left.
    Left,
    /// The character's right.
    Right,
}

impl Side {
    /// Text form: `"left"` or `"right"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// One of the five fingers of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finger {
    /// The thumb (index 0).
    Thumb,
    /// The index finger (index 1).
    Index,
    /// The middle finger (index 2).
    Middle,
    /// The ring finger (index 3).
    Ring,
    /// The little finger (index 4).
    Little,
}

impl Finger {
    /// All fingers, thumb first.
    pub const ALL: [Finger; 5] = [
        Finger::Thumb,
        Finger::Index,
        Finger::Middle,
        Finger::Ring,
        Finger::Little,
    ];

    /// Position in [`Finger::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Text form as used in roles: `"thumb"`, `"index"`, `"middle"`, `"ring"`, `"little"`.
    pub fn name(self) -> &'static str {
        match self {
            Finger::Thumb => "thumb",
            Finger::Index => "index",
            Finger::Middle => "middle",
            Finger::Ring => "ring",
            Finger::Little => "little",
        }
    }
}

/// A part of one arm. Finger joints are numbered from 1 at the base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArmPart {
    /// The clavicle (text `clavicle`).
    Clavicle,
    /// The upper arm (text `upper_arm`).
    UpperArm,
    /// The forearm (text `forearm`).
    Forearm,
    /// The hand (text `hand`).
    Hand,
    /// Joint `j` (1 = base) of a finger (text e.g. `index.2`).
    Finger(Finger, u8),
}

impl ArmPart {
    /// The non-finger parts, shoulder to hand: clavicle, upper arm, forearm, hand.
    pub fn all_core() -> [ArmPart; 4] {
        [
            ArmPart::Clavicle,
            ArmPart::UpperArm,
            ArmPart::Forearm,
            ArmPart::Hand,
        ]
    }
}

/// A side and a part; text form `left.upper_arm`, `right.hand`, `left.thumb.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Role {
    /// Which arm.
    pub side: Side,
    /// Which part of it.
    pub part: ArmPart,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side.name();
        match self.part {
            ArmPart::Clavicle => write!(f, "{side}.clavicle"),
            ArmPart::UpperArm => write!(f, "{side}.upper_arm"),
            ArmPart::Forearm => write!(f, "{side}.forearm"),
            ArmPart::Hand => write!(f, "{side}.hand"),
            ArmPart::Finger(finger, j) => write!(f, "{side}.{}.{j}", finger.name()),
        }
    }
}

impl FromStr for Role {
    type Err = HumanoidError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || HumanoidError::BadRole(s.to_string());
        let mut it = s.split('.');
        let side = match it.next() {
            Some("left") => Side::Left,
            Some("right") => Side::Right,
            _ => return Err(bad()),
        };
        let part = match (it.next(), it.next(), it.next()) {
            (Some("clavicle"), None, _) => ArmPart::Clavicle,
            (Some("upper_arm"), None, _) => ArmPart::UpperArm,
            (Some("forearm"), None, _) => ArmPart::Forearm,
            (Some("hand"), None, _) => ArmPart::Hand,
            (Some(finger), Some(j), None) => {
                let finger = Finger::ALL
                    .into_iter()
                    .find(|f| f.name() == finger)
                    .ok_or_else(bad)?;
                let j: u8 = j.parse().map_err(|_| bad())?;
                if j == 0 {
                    return Err(bad());
                }
                ArmPart::Finger(finger, j)
            }
            _ => return Err(bad()),
        };
        Ok(Role { side, part })
    }
}

impl TryFrom<String> for Role {
    type Error = HumanoidError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Role> for String {
    fn from(r: Role) -> String {
        r.to_string()
    }
}

/// Explicit role → bone-name assignments, stored in presets. Serialises as a JSON object,
/// e.g. `{"left.upper_arm": "Bip01 L UpperArm", "left.index.1": "Finger11"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HumanoidOverride {
    /// Bone name assigned to each overridden role.
    pub bones: BTreeMap<Role, String>,
}

impl HumanoidOverride {
    /// Assigns bone name `bone` to `role`, replacing any earlier assignment; returns `self`
    /// for chaining.
    pub fn set(&mut self, role: Role, bone: impl Into<String>) -> &mut Self {
        self.bones.insert(role, bone.into());
        self
    }
}

/// Errors of role parsing and of applying a [`HumanoidOverride`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HumanoidError {
    /// The text is not a role (unknown side or part, or finger joint 0 / not a `u8`).
    #[error(
        "unknown role {0:?} (expected e.g. left.clavicle, right.upper_arm, left.forearm, \
         right.hand, left.index.1)"
    )]
    BadRole(String),
    #[error("humanoid override for {role}: no bone named {name:?} in the skeleton")]
    /// An override names a bone that the skeleton does not have.
    UnknownBone {
        /// The overridden role.
        role: Role,
        /// The bone name that was not found.
        name: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_as_text_and_json() {
        let mut o = HumanoidOverride::default();
        o.set("left.upper_arm".parse().unwrap(), "Arm_L");
        o.set("right.little.3".parse().unwrap(), "Pinky3_R");
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(
            json,
            r#"{"left.upper_arm":"Arm_L","right.little.3":"Pinky3_R"}"#
        );
        let back: HumanoidOverride = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
        assert!("left.elbow".parse::<Role>().is_err());
        assert!("left.index.0".parse::<Role>().is_err());
        assert!(serde_json::from_str::<HumanoidOverride>(r#"{"middle.hand":"x"}"#).is_err());
    }
}
