//! Where the hands hold the rod and the net: the grip points along each object's axis, the
//! reel's crank and the radii the fingers close around (issue 20). [`Gear::BUNDLED`] is the
//! bundled `rod.glb` and `net.glb`; an artist's models give their own (see
//! `rod_model`).
//!
//! Spaces: rod space and net space are the canonical frames of the session (`session_frames.rs`) (butt / handle
//! end at the origin, axis +Y, metres). The **hold frame** is the rod as the hands see it: the
//! reel below the blank. A rod whose reel sits on top in use (a baitcaster) is the hold frame
//! turned half a turn about the blank; the grips stay in the hold frame, so the palm is under
//! the handle either way.

use super::calibration::GripKind;
use super::reel_stem::ReelStem;
use super::rules::{self, FieldProblem, Path};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// Radius of a reel's handle knob, metres (the bundled reel's).
pub const KNOB_RADIUS: f64 = 0.0065;
/// Length of a reel's handle knob along its axis, metres (the bundled reel's), centred on the
/// knob's point ([`crate::fishing::reel_handle_in_hold`]).
pub const KNOB_LENGTH: f64 = 0.018;

/// Half the thickness of a finger, metres: the grip radius is measured to the finger's middle.
const FINGER_HALF: f64 = 0.009;

/// The rod's rear grip, metres from the butt (the bundled rod).
pub const ROD_REAR_GRIP: f64 = 0.08;
/// Front grip (the reel seat), metres from the butt (the bundled rod).
pub const ROD_FRONT_GRIP: f64 = 0.40;
/// Net handle grip, metres from the handle end (the bundled net).
pub const NET_GRIP: f64 = 0.10;

/// The bundled `rod.glb`'s handle round its reel seat ([`RodGear::front_handle`]): the rear
/// cork's end, the seat and the fore grip (see `assetgen::props`; `tests/rod_model.rs` measures
/// it on the file).
const BUNDLED_FRONT_HANDLE: [HandleSection; 3] = [
    HandleSection {
        start: 0.025,
        end: 0.25,
        radius: 0.013357,
    },
    HandleSection {
        start: 0.25,
        end: 0.5,
        radius: 0.0118,
    },
    HandleSection {
        start: 0.5,
        end: 0.55,
        radius: 0.01,
    },
];

/// The reel's crank in the hold frame: the knob turns about the hold frame's X axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReelCrank {
    /// Centre of the knob's circle, hold frame, metres.
    pub centre_in_hold: DVec3,
    /// Radius of the knob's circle, metres.
    pub radius: f64,
    /// The knob's own radius, metres (a modelled crank's, see
    /// `fishing::reel_crank::fit_crank`; else [`KNOB_RADIUS`]).
    #[serde(default = "knob_radius")]
    pub knob_radius: f64,
    /// The knob's length along its axis, metres (else [`KNOB_LENGTH`]).
    #[serde(default = "knob_length")]
    pub knob_length: f64,
    /// How far the crank's arm stands out of the knob's base toward the hand, metres: the
    /// arm's face on the hand's side lies this far from the knob's base toward its outer end
    /// (a modelled crank's, see `fishing::reel_crank::fit_crank`; else 0, the base). At most
    /// [`Self::knob_length`].
    #[serde(default)]
    pub arm_proud: f64,
    /// Whether the arm is a bar carrying a second knob half a turn round (a baitcaster's
    /// double handle), as long and as thick as this one (else one knob).
    #[serde(default)]
    pub opposite_knob: bool,
}

/// What of a reel's crank the hand on its knob keeps clear of, in the knob's grip frame
/// (the knob's axis along +Z through the origin at the knob's middle, its base toward +Z;
/// see [`crate::fishing::reel_handle_in_hold`]), metres. The hand turns with the knob, not
/// with the arm, so what the arm and a second knob sweep as the crank turns is fixed there:
/// the arm's side of a plane across the axis, and a second knob's ring round the axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrankArm {
    /// The arm's face on the hand's side, along +Z from the knob's middle: the plane
    /// `z = face`, the arm on its +Z side.
    pub face: f64,
    /// A second knob half a turn round (see [`ReelCrank::opposite_knob`]): its axis's
    /// distance from this knob's (twice the crank's radius), its radius and its half length
    /// (its middle at z = 0). As the crank turns it sweeps the ring of those radii round the
    /// knob's axis.
    pub opposite: Option<(f64, f64, f64)>,
}

impl ReelCrank {
    /// What the hand on the knob keeps clear of (see [`CrankArm`]).
    pub fn arm(&self) -> CrankArm {
        let half = 0.5 * self.knob_length;
        CrankArm {
            face: half - self.arm_proud.clamp(0.0, self.knob_length),
            opposite: self
                .opposite_knob
                .then_some((2.0 * self.radius, self.knob_radius, half)),
        }
    }
}

fn knob_radius() -> f64 {
    KNOB_RADIUS
}

fn knob_length() -> f64 {
    KNOB_LENGTH
}

/// The rod's grips, in rod space along the blank.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RodGear {
    /// Butt to tip, metres.
    pub length: f64,
    /// The rear hand's grip, metres from the butt.
    pub rear_grip: f64,
    /// The front hand's grip (the middle of the reel seat), metres from the butt.
    pub reel_seat: f64,
    /// Handle radius at the rear grip, metres.
    pub rear_grip_radius: f64,
    /// Handle radius at the reel seat, metres.
    pub reel_seat_radius: f64,
    /// The reel sits on top of the blank in use (a baitcaster): the model is the hold frame
    /// turned half a turn about the blank.
    pub reel_above: bool,
    /// The reel's crank.
    pub crank: ReelCrank,
    /// What the front hand's fingers pass either side of, hold space: a spinning reel's stem,
    /// or a baitcaster's trigger (`None`: none found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stem: Option<ReelStem>,
    /// The reel's body where the front hand meets it, hold space: a reel on top's side
    /// profile across the blank, or a spinning reel's gearbox, rotor and spool along it below
    /// the stem (`None`: not found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reel_body: Option<ReelBody>,
    /// The rear handle round the rear grip, metres from the butt (start, end): where the
    /// handle keeps the rear grip's radius, from the rod model's radius profile. A rear hand
    /// that falls short may slide along it (see `reach_slide::slide_bounds`); `None`: not
    /// measured (the bundled rod), and the slide keeps within 0.1 m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rear_handle: Option<(f64, f64)>,
    /// The handle round the reel seat from the rod model's radius profile: the section that
    /// keeps the seat's radius, then the sections next to it toward the butt and toward the
    /// tip, as [butt side, seat, tip side]. A thumb along the handle lies across them (see
    /// `grip_along`); `None`: not measured (then the seat's radius is taken all along).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front_handle: Option<[HandleSection; 3]>,
}

/// A stretch of a handle along the blank with one radius, metres from the butt.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandleSection {
    /// Where it begins (toward the butt).
    pub start: f64,
    /// Where it ends (toward the tip).
    pub end: f64,
    /// Its radius.
    pub radius: f64,
}

/// A reel's body as the front hand meets it, hold space, as a capsule. A baitcaster's: the
/// cylinder across the blank whose section is the body's side profile (its spool and side
/// plates, [`super::reel_shape::ReelCircle`]), as wide as the reel, from the middle of one
/// side to the other's. A spinning reel's: along the blank round its gearbox, rotor and spool
/// (`spinning_body::find_spinning_body`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReelBody {
    /// One end of the capsule's axis.
    pub start_in_hold: DVec3,
    /// The other end.
    pub end_in_hold: DVec3,
    /// The capsule's radius, metres.
    pub radius: f64,
}

impl ReelBody {
    /// The bundled `rod.glb`'s spinning reel body (see `assetgen::props`;
    /// `tests/reel_stem.rs` finds it there within a millimetre).
    pub const BUNDLED: Self = Self {
        start_in_hold: DVec3::new(0.0, 0.392, -0.0819),
        end_in_hold: DVec3::new(0.0, 0.4488, -0.0819),
        radius: 0.0324,
    };
}

/// The net's grip, in net space along the handle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetGear {
    /// Handle end to the far side of the hoop, metres.
    pub length: f64,
    /// The grip, metres from the handle end.
    pub grip: f64,
    /// Handle radius at the grip, metres.
    pub grip_radius: f64,
}

/// The rod and the net the session uses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gear {
    /// The rod.
    pub rod: RodGear,
    /// The landing net.
    pub net: NetGear,
}

impl RodGear {
    /// The rod model's frame in the hold frame: the same frame, or (a reel on top, a
    /// baitcaster) the hold frame turned half a turn about the blank (+Y), so that the palm
    /// stays under the handle while the reel is on top.
    pub fn hold_from_model(&self) -> DQuat {
        if self.reel_above {
            DQuat::from_rotation_y(std::f64::consts::PI)
        } else {
            DQuat::IDENTITY
        }
    }

    /// The bundled `rod.glb` (2.4 m spinning rod, see `assetgen::props`).
    pub const BUNDLED: Self = Self {
        length: 2.4,
        rear_grip: ROD_REAR_GRIP,
        reel_seat: ROD_FRONT_GRIP,
        rear_grip_radius: 0.0138,
        reel_seat_radius: 0.0118,
        reel_above: false,
        crank: ReelCrank {
            centre_in_hold: DVec3::new(-0.06, ROD_FRONT_GRIP + 0.01, -0.075),
            radius: 0.045,
            knob_radius: KNOB_RADIUS,
            knob_length: KNOB_LENGTH,
            arm_proud: 0.0,
            opposite_knob: false,
        },
        stem: Some(ReelStem::BUNDLED),
        reel_body: Some(ReelBody::BUNDLED),
        rear_handle: None,
        front_handle: Some(BUNDLED_FRONT_HANDLE),
    };

    /// Every broken rule under `prefix`: a positive, finite length; the rear grip before the
    /// reel seat and both on the rod; positive radii under 10 cm; a crank within a metre of the
    /// seat.
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        self.check(&Path::root(prefix), &mut out);
        out
    }

    fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        rules::number(self.length, &at.join("length"), 0.3, 10.0, out);
        rules::number(self.reel_seat, &at.join("reel_seat"), 0.0, self.length, out);
        rules::number(
            self.rear_grip,
            &at.join("rear_grip"),
            0.0,
            self.reel_seat,
            out,
        );
        for (v, f) in [
            (self.rear_grip_radius, "rear_grip_radius"),
            (self.reel_seat_radius, "reel_seat_radius"),
        ] {
            rules::number(v, &at.join(f), 1e-4, 0.1, out);
        }
        let front = at.join("front_handle");
        for (section, name) in (self.front_handle.iter().flatten()).zip(["0", "1", "2"]) {
            let at = front.join(name);
            rules::number(section.radius, &at.join("radius"), 1e-4, 0.1, out);
            rules::number(section.start, &at.join("start"), 0.0, section.end, out);
            rules::number(
                section.end,
                &at.join("end"),
                section.start,
                self.length,
                out,
            );
        }
        let crank = at.join("crank");
        rules::number(self.crank.radius, &crank.join("radius"), 0.0, 0.5, out);
        rules::number(
            self.crank.knob_radius,
            &crank.join("knob_radius"),
            0.0,
            0.1,
            out,
        );
        rules::number(
            self.crank.knob_length,
            &crank.join("knob_length"),
            0.0,
            0.2,
            out,
        );
        rules::number(
            self.crank.arm_proud,
            &crank.join("arm_proud"),
            0.0,
            self.crank.knob_length,
            out,
        );
        let c = self.crank.centre_in_hold - DVec3::Y * self.reel_seat;
        if !c.is_finite() || c.length() > 1.0 {
            rules::push(
                out,
                crank.join("centre_in_hold").to_string(),
                "must be finite and within 1 m of the reel seat",
            );
        }
    }
}

impl NetGear {
    /// The bundled `net.glb` (1.2 m handle, 0.5 m hoop).
    pub const BUNDLED: Self = Self {
        length: 1.7,
        grip: NET_GRIP,
        grip_radius: 0.0159,
    };
}

impl Gear {
    /// The radius of what a hand holds on `kind`, metres: the handle there, or the reel's knob
    /// ([`KNOB_RADIUS`]).
    pub fn grip_radius(&self, kind: GripKind) -> f64 {
        match kind {
            GripKind::RodRear => self.rod.rear_grip_radius,
            GripKind::RodFront => self.rod.reel_seat_radius,
            GripKind::ReelHandle => self.rod.crank.knob_radius,
            GripKind::NetHandle => self.net.grip_radius,
        }
    }

    /// Half the length along its axis of what a hand holds on `kind`, metres: the reel's
    /// knob is [`KNOB_LENGTH`] long; handles are infinite (`f64::INFINITY`).
    pub fn grip_half_length(&self, kind: GripKind) -> f64 {
        match kind {
            GripKind::ReelHandle => 0.5 * self.rod.crank.knob_length,
            _ => f64::INFINITY,
        }
    }

    /// The bundled rod and net.
    pub const BUNDLED: Self = Self {
        rod: RodGear::BUNDLED,
        net: NetGear::BUNDLED,
    };

    /// Every broken rule under `prefix` (see [`RodGear::problems`]; the net's grip must lie on
    /// its handle and its radius be positive and under 10 cm).
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        let root = Path::root(prefix);
        self.rod.check(&root.join("rod"), &mut out);
        let net = root.join("net");
        rules::number(self.net.length, &net.join("length"), 0.3, 10.0, &mut out);
        rules::number(
            self.net.grip,
            &net.join("grip"),
            0.0,
            self.net.length,
            &mut out,
        );
        rules::number(
            self.net.grip_radius,
            &net.join("grip_radius"),
            1e-4,
            0.1,
            &mut out,
        );
        out
    }
}

/// How much of a calibrated finger curl a handle of `radius` takes, against the bundled
/// handle of `reference` radius where the curl was tuned: fingers wrapped round a cylinder
/// close by the angle their length subtends on it, so the curl scales with
/// `(reference + f) / (radius + f)` (f: half a finger's thickness). Exactly 1 when the radii
/// are equal; a thicker grip curls less.
pub fn curl_for_radius(radius: f64, reference: f64) -> f64 {
    if radius == reference {
        return 1.0;
    }
    ((reference + FINGER_HALF) / (radius.max(0.0) + FINGER_HALF)).clamp(0.3, 1.6)
}
