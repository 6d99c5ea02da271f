//! Fingers that close until they touch (issue 33): each finger is a chain of capsules fitted
//! to the character's own skin, and the contact solve bends its joints about their curl axes
//! until the capsules meet a held cylinder (a rod or net handle, a reel knob), within each
//! joint's curl limits. Analytic: capsule against an infinite cylinder in closed form, one
//! 1-D root find per closing stage; no mesh is searched.
//!
//! The solve runs in **hand space** (the hand bone's frame at the base pose, in the hand
//! bone's units): a finger's bones below the hand keep their base locals during a pose
//! update, so where its joints are relative to the hand, and where the held cylinder is
//! relative to the palm frame, do not depend on the arm.
//!
//! Closing follows the auto-grasp rule of grasp planners: all free joints of a finger close
//! together, each from its start toward its curl limit (one parameter `s ∈ [0, 1]`); at the
//! first touch the joints up to the touching segment lock and the joints beyond it go on
//! closing the same way, until the tip touches or every joint is at its limit. A finger that
//! starts inside the cylinder opens (toward each joint's open limit) until it is out. The
//! start is zero bends, or bends the caller gives (a finger lifted off the handle first,
//! [`FingerContactJob::solve_from`]). A handle whose radius changes along it (a reel seat
//! between a thicker rear grip and a thinner fore grip) is a few finite cylinders, one per
//! stretch ([`FingerContactJob::also`]).

use glam::{DAffine3, DMat3, DQuat, DVec3};
pub use segment::segment_distance;
use segment::{least_on_segment, segment_closest};
use serde::{Deserialize, Serialize};

mod segment;

/// A capsule: the points within `radius` of the segment `start`–`end` (in the space of the
/// bone that carries it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capsule {
    /// One end of the axis segment.
    pub start: DVec3,
    /// The other end of the axis segment.
    pub end: DVec3,
    /// Radius about the axis segment (negative: no capsule, see [`Capsule::NONE`]).
    pub radius: f64,
}

impl Capsule {
    /// An unused slot of [`ContactJoint::capsules`]: the gap search skips it.
    pub const NONE: Capsule = Capsule {
        start: DVec3::ZERO,
        end: DVec3::ZERO,
        radius: -1.0,
    };
}

/// A cylinder: the held handle (infinite) or a reel's knob (finite), in hand space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    /// A point on the axis (a finite cylinder's middle).
    pub point: DVec3,
    /// The axis direction (unit length).
    pub axis: DVec3,
    /// Radius.
    pub radius: f64,
    /// Half the length along the axis about `point`; `f64::INFINITY` for a handle.
    pub half_length: f64,
    /// A finite cylinder's ends: flat (a knob: the gap is exact, see
    /// [`Cylinder::signed_distance`]) or rounded (a stretch of a handle beside others: the
    /// capsule round its axis segment, so the step to a neighbouring stretch is met
    /// smoothly). Unused when infinite.
    pub flat_ends: bool,
}

impl Cylinder {
    /// A handle: the infinite cylinder of `radius` round the axis through `point` along
    /// `axis` (unit length).
    pub fn handle(point: DVec3, axis: DVec3, radius: f64) -> Self {
        Self {
            point,
            axis,
            radius,
            half_length: f64::INFINITY,
            flat_ends: false,
        }
    }

    /// A knob: the finite cylinder with flat ends, `half_length` either side of `point`
    /// along `axis` (unit length).
    pub fn knob(point: DVec3, axis: DVec3, radius: f64, half_length: f64) -> Self {
        Self {
            point,
            axis,
            radius,
            half_length,
            flat_ends: true,
        }
    }

    /// [`Cylinder::gap_to_capsule_below`] for a finite cylinder (kept out of line, so the
    /// handle's closed form stays small where it is inlined).
    #[inline(never)]
    fn finite_gap_to_capsule(&self, a: DVec3, b: DVec3, r: f64, bound: f64) -> f64 {
        let h = self.axis * self.half_length;
        let (d, _, t) = segment_closest(a, b, self.point - h, self.point + h);
        let round = d - self.radius - r;
        // Flat ends: where the segment is outside the capsule round the axis segment and
        // nearest it beside the axis (not past an end), the nearest point of that capsule is
        // on the side, which the flat-ended cylinder shares: the gap is the same. Elsewhere
        // that capsule's gap is a lower bound (the cylinder lies inside it).
        if !self.flat_ends || (d >= self.radius && t > 0.0 && t < 1.0) || round >= bound {
            return round;
        }
        least_on_segment(|s| self.signed_distance(a.lerp(b, s))) - r
    }

    /// Signed distance of `p` from the surface (negative inside), exact for flat ends (the
    /// distance to the side, to the end disc or to the rim, whichever is nearest); an
    /// infinite cylinder's is the distance from its axis less the radius.
    pub fn signed_distance(&self, p: DVec3) -> f64 {
        let d = p - self.point;
        let along = d.dot(self.axis);
        let radial = (d - self.axis * along).length() - self.radius;
        let axial = along.abs() - self.half_length;
        if radial <= 0.0 && axial <= 0.0 {
            radial.max(axial)
        } else {
            radial.max(0.0).hypot(axial.max(0.0))
        }
    }

    /// Signed distance from the surface of the capsule `a`–`b` (radius `r`) to this
    /// cylinder's surface: positive is a gap, negative is how deep the capsule is inside.
    /// Exact for an infinite cylinder: the distance from the axis line to a segment is the
    /// distance from the origin to the segment projected on the plane across the axis. A
    /// finite one with flat ends is exact too: beside its side as the capsule round its axis
    /// segment; else the signed distance to a convex solid is convex along the segment, so
    /// its least value is found by golden-section search to 1e-9 of the segment's length. One with rounded ends is taken as the capsule round its
    /// axis segment (exact along its side; at its ends it reaches up to one radius farther,
    /// so a capsule near an end may stop short of the flat end, never inside it).
    #[inline(always)]
    pub fn gap_to_capsule(&self, a: DVec3, b: DVec3, r: f64) -> f64 {
        self.gap_to_capsule_below(a, b, r, f64::INFINITY)
    }

    /// [`Cylinder::gap_to_capsule`], or, for a knob, a lower bound of it where that is
    /// already at least `bound` (a gap that cannot be the least of those compared is not
    /// worked out).
    #[inline(always)]
    fn gap_to_capsule_below(&self, a: DVec3, b: DVec3, r: f64, bound: f64) -> f64 {
        if self.half_length.is_finite() {
            return self.finite_gap_to_capsule(a, b, r, bound);
        }
        let across = |p: DVec3| {
            let d = p - self.point;
            d - self.axis * d.dot(self.axis)
        };
        let (pa, pb) = (across(a), across(b));
        let d = pb - pa;
        let dd = d.length_squared();
        let s = if dd > 0.0 {
            (-pa.dot(d) / dd).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (pa + d * s).length() - r - self.radius
    }
}

/// One finger joint as the contact solve sees it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactJoint {
    /// This joint's frame at zero bend in the previous joint's frame (for the first joint,
    /// in hand space), from the base pose: intermediate bones and scale included.
    pub prev_from_joint: DAffine3,
    /// Curl axis in the joint's frame (unit length; positive angles close the finger).
    pub axis: DVec3,
    /// The skin of the segment this joint carries, in the joint's frame: capsules base →
    /// tip along the segment, each fitted to its part of the skin.
    ///
    /// The first [`SEGMENT_PIECES`] run along the segment's middle; the next two sets (the
    /// same thirds, either side: a thumb's flat cross-section) are [`Capsule::NONE`] where a
    /// segment has none.
    pub capsules: [Capsule; JOINT_CAPSULES],
    /// Most the joint opens, radians (≤ 0).
    pub open_limit: f64,
    /// Most the joint closes, radians (≥ 0).
    pub close_limit: f64,
}

/// Capsules per finger segment: a finger narrows toward its tip and bulges at its joints,
/// so each third of a segment has its own.
pub const SEGMENT_PIECES: usize = 3;

/// Capsule slots per joint: the pieces along the middle, then the same either side, then at
/// the palm side's two edges.
pub const JOINT_CAPSULES: usize = 5 * SEGMENT_PIECES;

/// Where a finger ended against the cylinder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactState {
    /// The skin is on the surface (within [`CONTACT_TOLERANCE`] of the hand's size).
    #[default]
    Touching,
    /// The finger closed to its limits without meeting the surface.
    Gap,
    /// The finger could not leave the cylinder (open to its limits and still inside).
    Inside,
}

/// What "touching" means, as a fraction of the gap scale the caller passes (a finger's
/// radius): the solve itself ends within 1e-4 of it.
pub const CONTACT_TOLERANCE: f64 = 0.05;

/// The outcome of a [`FingerContactJob`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FingerContactReport {
    /// The bend of each joint, radians (base → tip).
    pub angles: Vec<f64>,
    /// The smallest gap between any segment and the cylinder (and the job's other
    /// surfaces), hand units (negative: inside).
    pub gap: f64,
    /// The segment with the smallest gap.
    pub nearest_segment: usize,
    /// Touching, a gap or inside (see [`CONTACT_TOLERANCE`]).
    pub state: ContactState,
    /// How many closing stages ran (each a 1-D root find).
    pub stages: u32,
}

/// Closes one finger on a cylinder.
///
/// Preconditions: `joints` base → tip, each `axis` of unit length, limits with
/// `open_limit ≤ 0 ≤ close_limit`; the cylinder's axis of unit length (see
/// [`FingerContactJob::validate`]). A finger without joints reports no angles and an infinite
/// gap.
#[derive(Clone, Copy, Debug)]
pub struct FingerContactJob<'a> {
    /// The finger, base → tip.
    pub joints: &'a [ContactJoint],
    /// The held cylinder, hand space.
    pub cylinder: Cylinder,
    /// More of the held object's surface beside `cylinder` (the handle's sections either
    /// side of a finite `cylinder`, each its own finite cylinder): the finger's gap is the
    /// smallest to any of them. Usually empty.
    pub also: &'a [Cylinder],
    /// Turn of the first joint about the palm normal before closing (spread), radians, about
    /// `spread_axis` (the first joint's frame).
    pub spread: f64,
    /// The spread axis in the first joint's frame.
    pub spread_axis: DVec3,
    /// The tolerance scale for [`ContactState`] (hand units; a finger's radius).
    pub gap_scale: f64,
}

/// Steps of the closing scan over `s ∈ [0, 1]` before the bisection.
const SCAN_STEPS: usize = 16;
/// Bisection steps: 16 · 2¹⁰ = 16 384 parts of the closing range (≈ 1e-4 rad, 0.01 mm at a
/// finger's length).
const BISECT_STEPS: usize = 10;

impl FingerContactJob<'_> {
    /// Checks finite inputs, unit axes and ordered limits.
    ///
    /// # Errors
    /// A message naming the first bad input.
    pub fn validate(&self) -> Result<(), String> {
        for c in std::iter::once(&self.cylinder).chain(self.also) {
            if !(c.point.is_finite() && c.axis.is_finite() && c.radius.is_finite()) {
                return Err("handle cylinder is not finite".into());
            }
            if (c.axis.length() - 1.0).abs() > 1e-6
                || c.radius < 0.0
                || c.half_length.is_nan()
                || c.half_length <= 0.0
            {
                return Err(
                    "handle cylinder needs a unit axis, a radius ≥ 0 and a length > 0".into(),
                );
            }
        }
        if !self.spread.is_finite() || !self.spread_axis.is_finite() {
            return Err("finger spread is not finite".into());
        }
        for (k, j) in self.joints.iter().enumerate() {
            let finite = j.prev_from_joint.is_finite()
                && j.axis.is_finite()
                && j.capsules
                    .iter()
                    .all(|c| c.start.is_finite() && c.end.is_finite() && c.radius.is_finite());
            if !finite {
                return Err(format!("finger joint {k} is not finite"));
            }
            if (j.axis.length() - 1.0).abs() > 1e-6 {
                return Err(format!("finger joint {k} has no unit curl axis"));
            }
            if !(j.open_limit <= 0.0 && 0.0 <= j.close_limit) {
                return Err(format!("finger joint {k} limits are not open ≤ 0 ≤ close"));
            }
        }
        Ok(())
    }

    /// Runs the contact solve from zero bends (see the module docs). Deterministic.
    ///
    /// # Errors
    /// What [`FingerContactJob::validate`] returns.
    pub fn solve(&self) -> Result<FingerContactReport, String> {
        self.solve_from(&[])
    }

    /// Runs the contact solve from the bends `from` (radians, base → tip; a missing one is 0)
    /// instead of zero: a finger lifted away from the cylinder first (opened at a joint)
    /// closes onto it from there. Deterministic.
    ///
    /// # Errors
    /// What [`FingerContactJob::validate`] returns, or a start bend that is not finite or
    /// lies outside its joint's limits.
    pub fn solve_from(&self, from: &[f64]) -> Result<FingerContactReport, String> {
        self.validate()?;
        let n = self.joints.len();
        let mut start: Vec<f64> = (0..n)
            .map(|k| from.get(k).copied().unwrap_or(0.0))
            .collect();
        for (k, (a, j)) in start.iter().zip(self.joints).enumerate() {
            if !(j.open_limit..=j.close_limit).contains(a) {
                return Err(format!("finger joint {k} starts outside its limits"));
            }
        }
        let mut report = FingerContactReport {
            angles: start.clone(),
            gap: f64::INFINITY,
            ..Default::default()
        };
        if n == 0 {
            report.state = ContactState::Gap;
            return Ok(report);
        }
        let mut free = 0;
        let mut angles = start.clone();
        while free < n {
            report.stages += 1;
            let at = |s: f64, angles: &mut [f64]| {
                for k in free..n {
                    let j = &self.joints[k];
                    let end = if s >= 0.0 {
                        j.close_limit
                    } else {
                        j.open_limit
                    };
                    angles[k] = start[k] + s.abs() * (end - start[k]);
                }
                self.nearest(angles, free)
            };
            let (g0, _) = at(0.0, &mut angles);
            if g0 < 0.0 {
                // Inside at the start: the smallest turn that is out, opening or closing (skin
                // behind a joint, such as the pad at a finger's base, leaves by closing).
                let open = self.first_crossing(&at, &mut angles, -1.0, |g| g >= 0.0).0;
                let close = self.first_crossing(&at, &mut angles, 1.0, |g| g >= 0.0).0;
                match (open, close) {
                    (_, Some(c)) if open.is_none_or(|o| c < -o) && report.stages < 8 => {
                        // Out by closing: close on from there until the next touch.
                        at(c, &mut angles);
                        start.copy_from_slice(&angles);
                        continue;
                    }
                    (Some(o), _) => {
                        at(o, &mut angles);
                    }
                    _ => {
                        at(-1.0, &mut angles);
                    }
                }
                break;
            }
            let (Some(s), touching) = self.first_crossing(&at, &mut angles, 1.0, |g| g <= 0.0)
            else {
                at(1.0, &mut angles);
                break;
            };
            // Stop just outside: the last closing that still has a gap. The joints up to the
            // segment that touched lock there; the rest close on from where they are.
            at(s, &mut angles);
            if touching + 1 >= n {
                break;
            }
            start.copy_from_slice(&angles);
            free = touching + 1;
        }
        let (gap, nearest) = self.nearest(&angles, 0);
        report.angles = angles;
        report.gap = gap;
        report.nearest_segment = nearest;
        report.state = self.state_for(gap);
        Ok(report)
    }

    /// Scans `s` from 0 toward `end` (±1) for the first value where `hit(gap)` holds, then
    /// bisects it down to the last value where it does not (closing: still outside) or the
    /// first where it does (opening: already out). `None` when it never holds.
    fn first_crossing(
        &self,
        at: &impl Fn(f64, &mut [f64]) -> (f64, usize),
        angles: &mut [f64],
        end: f64,
        hit: impl Fn(f64) -> bool,
    ) -> (Option<f64>, usize) {
        let mut before = 0.0;
        for i in 1..=SCAN_STEPS {
            let s = end * i as f64 / SCAN_STEPS as f64;
            let (g, seg) = at(s, angles);
            if hit(g) {
                let (mut lo, mut hi) = (before, s);
                let mut seg_hi = seg;
                for _ in 0..BISECT_STEPS {
                    let mid = 0.5 * (lo + hi);
                    let (g, seg) = at(mid, angles);
                    if hit(g) {
                        hi = mid;
                        seg_hi = seg;
                    } else {
                        lo = mid;
                    }
                }
                // Closing ends on the outside (lo); opening ends on the outside too (hi).
                return (Some(if end > 0.0 { lo } else { hi }), seg_hi);
            }
            before = s;
        }
        (None, 0)
    }

    /// The gap between the capsule `a`–`b` of radius `r` (hand space and units) and the
    /// nearest of the job's surfaces (`cylinder` and `also`; see
    /// [`Cylinder::gap_to_capsule`]).
    pub fn gap_to_capsule(&self, a: DVec3, b: DVec3, r: f64) -> f64 {
        self.gap_to_capsule_below(a, b, r, f64::INFINITY)
    }

    /// [`FingerContactJob::gap_to_capsule`], or a lower bound of it that is at least `bound`
    /// (see [`Cylinder::gap_to_capsule_below`]).
    #[inline(always)]
    fn gap_to_capsule_below(&self, a: DVec3, b: DVec3, r: f64, bound: f64) -> f64 {
        let first = self.cylinder.gap_to_capsule_below(a, b, r, bound);
        (self.also.iter()).fold(first, |g, s| {
            g.min(s.gap_to_capsule_below(a, b, r, g.min(bound)))
        })
    }

    /// The smallest gap over segments `from..` at `angles`, and which segment it is.
    fn nearest(&self, angles: &[f64], from: usize) -> (f64, usize) {
        let (gap, segment, _) = self.nearest_from(angles, from);
        (gap, segment)
    }

    /// The smallest gap over segments `from..` at `angles`, its segment and which of the
    /// segment's capsule slots it is (see [`ContactJoint::capsules`]); the first of equals.
    fn nearest_from(&self, angles: &[f64], from: usize) -> (f64, usize, usize) {
        let mut best = (f64::INFINITY, from, 0);
        for (k, (j, frame)) in self
            .joints
            .iter()
            .zip(self.joint_frames(angles))
            .enumerate()
        {
            if k < from {
                continue;
            }
            let scale = frame.matrix3.x_axis.length();
            for (slot, c) in j
                .capsules
                .iter()
                .enumerate()
                .filter(|(_, c)| c.radius >= 0.0)
            {
                let (a, b) = (
                    frame.transform_point3(c.start),
                    frame.transform_point3(c.end),
                );
                // A capsule whose gap is at least the least so far is never the nearest.
                let g = self.gap_to_capsule_below(a, b, c.radius * scale, best.0);
                if g < best.0 {
                    best = (g, k, slot);
                }
            }
        }
        best
    }

    /// The capsule nearest the job's surfaces at `angles`: its gap (hand units), segment and
    /// slot (see [`ContactJoint::capsules`]: below [`SEGMENT_PIECES`], one along the
    /// segment's middle, its pad).
    pub fn nearest_capsule(&self, angles: &[f64]) -> (f64, usize, usize) {
        self.nearest_from(angles, 0)
    }

    /// The smallest gap over all segments at `angles` (hand units), and which segment.
    pub fn gap_at(&self, angles: &[f64]) -> (f64, usize) {
        self.nearest(angles, 0)
    }

    /// The [`ContactState`] of a gap (hand units) at this job's tolerance.
    pub fn state_for(&self, gap: f64) -> ContactState {
        let tol = CONTACT_TOLERANCE * self.gap_scale;
        if gap > tol {
            ContactState::Gap
        } else if gap < -tol {
            ContactState::Inside
        } else {
            ContactState::Touching
        }
    }

    /// The joints' frames in hand space at `angles` (the same composition the solve uses).
    pub fn frames(&self, angles: &[f64]) -> Vec<DAffine3> {
        self.joint_frames(angles).collect()
    }

    /// The joints' frames in hand space, base → tip, at `angles` (a missing angle is 0):
    /// each joint's base frame in its parent's, the first joint's spread, then its bend.
    fn joint_frames<'b>(&'b self, angles: &'b [f64]) -> impl Iterator<Item = DAffine3> + 'b {
        let mut frame = DAffine3::IDENTITY;
        self.joints.iter().enumerate().map(move |(k, j)| {
            frame *= j.prev_from_joint;
            if k == 0 && self.spread != 0.0 {
                frame *= rotation(self.spread_axis, self.spread);
            }
            frame *= rotation(j.axis, angles.get(k).copied().unwrap_or(0.0));
            frame
        })
    }
}

fn rotation(axis: DVec3, angle: f64) -> DAffine3 {
    DAffine3::from_mat3(DMat3::from_quat(DQuat::from_axis_angle(axis, angle)))
}

/// How far along the palm → axis direction a cylinder of `radius` must sit so that no point
/// of `palm_in_grip` is inside it. Points are in the grip frame (the cylinder's axis along
/// +Y through the origin, +Z from the palm toward the axis): the result `λ` is the smallest
/// shift of the axis along +Z with every point at least `radius` from it, or `None` when no
/// point lies across the cylinder's width (`|x| < radius`).
pub fn palm_clearance(palm_in_grip: &[DVec3], radius: f64) -> Option<f64> {
    let r2 = radius * radius;
    palm_in_grip
        .iter()
        .filter(|p| p.x * p.x < r2)
        .map(|p| p.z + (r2 - p.x * p.x).sqrt())
        .reduce(f64::max)
}

#[cfg(test)]
mod tests;
