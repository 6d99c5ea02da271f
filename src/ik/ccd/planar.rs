//! The planar finish of a two-link chain: the limit of three's passes in closed form (not in
//! three.js; opt in with [`CcdChain::planar_finish`]).
//!
//! Call the links' origins `S` (link 1) and `E` (link 0), the effector `W` and the target `T`.
//! Once a pass has ended with link 1's step, `W` lies on the ray `S → T`. From then on every
//! step turns about the same axis, the normal `n` of the plane `S, E, T`:
//! - link 0's step turns `E → W` toward `E → T`, and both lie in that plane;
//! - link 1's step turns `S → W` back onto the ray, again within the plane.
//!
//! A turn about `n` keeps `n` (and the plane) fixed, so the passes reduce to two angles in one
//! plane. Each pass closes the gap between the chain's reach `|SW|` and the target distance
//! `|ST|` by a factor of about `1 − (a·γ / L)²`, where `a = |SE|`, `L` the chain's full length
//! and `γ` the bend (0 = straight). Near full reach that factor tends to 1: at a 0.5% gap
//! (γ ≈ 11°) a 0.1 mm finish takes hundreds of passes, and at 0.01% tens of thousands.
//!
//! Their limit is closed form: link 0 bent about `n` until `|SW| = |ST|` (law of cosines),
//! then link 1's ordinary step puts `W` on `T`. The finish jumps there, after the first pass
//! that leaves `W` on the ray, and only where three's passes provably head there:
//! - the chain has two enabled links and no `min_angle` (which would overshoot). `max_angle`
//!   only shortens steps, not their axis, so the limit is the same;
//! - `W` lies on the ray `S → T` within `ON_RAY`, and the bend is not straight or folded
//!   (no plane);
//! - a hinge on link 0 is the plane's normal: both links square to it within `OFF_PLANE`.
//!   (three projects each step onto the hinge; a hinge off the normal, or a wrist off the
//!   hinge's plane, swings the plane a little every pass, and the passes end elsewhere);
//! - no limit acts on the way. Each link's limits leave its new rotation as it is. The
//!   passes do not only move between here and there: the next one turns link 0 to point at
//!   the target and can swing past the finish (a strongly bent chain), and the later ones
//!   come back. So an Euler range must leave alone every turn of the link between now, that
//!   pass and the finish (each link turns about the one axis; five samples), or a clamp
//!   tilts the plane. A hinge about X or Z is exempt for link 0: its Euler angles are
//!   (θ, 0, 0) or (0, 0, θ), so a clamp keeps a turn about the hinge in the plane. One
//!   exception at the end: a limit that stops link 0 part-way along its turn, about its
//!   axis (an elbow that may not straighten past 2°, a target beyond reach). Every later
//!   pass clamps link 0 back to that same rotation, so the passes end there too, with link
//!   1 turned onto the ray.
//!
//! Otherwise nothing changes and three's passes go on (`Refused` ends the tries for the
//! update; `NotYet` tries again after the next pass). The finish runs in the local
//! (uniform-scale) variant of the loop only.

use super::turn::turn;
use super::{CcdLink, CcdSolver, LinkReport};
use crate::ik::euler_inside::EulerInsideTest;
use crate::rig::Transform;
use glam::{DQuat, DVec3};

/// `W` counts as on the ray `S → T` when the sine of the angle between them is at most this
/// (link 1's step aligns them to rounding; a skipped sub-1e-5 step does not).
const ON_RAY: f64 = 1e-9;
/// The bend has no plane when its sine is at most this.
const STRAIGHT: f64 = 1e-9;
/// A link counts as square to link 0's hinge when the cosine of the angle between them is at
/// most this: the passes' plane then swings by about this fraction of their turn over a
/// solve (f32 files leave ~1e-8).
const OFF_PLANE: f64 = 1e-5;
/// A limit acts when it moves a unit quaternion by more than this (~1e-12 rad).
const LIMIT_MOVED: f64 = 1e-12;

/// What [`CcdSolver::planar_finish`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Finish {
    /// `W` is not on the ray `S → T` yet: try again after the next pass.
    NotYet,
    /// The premises fail for good (straight, or a limit acts): three's passes go on.
    Refused,
    /// The links jumped to the limit; the effector in the top parent's frame.
    Done(DVec3),
}

/// The distance between two unit quaternions as rotations (`q` and `-q` are one rotation).
fn moved(a: DQuat, b: DQuat) -> f64 {
    (a - b).length().min((a + b).length())
}

impl CcdSolver {
    /// The planar finish of a two-link chain (see the module docs). `locals` are link 0's and
    /// link 1's local transforms (uniform scale), `effector_in_link0` the effector's position
    /// in link 0's frame and `target` the target in link 1's parent frame. On
    /// [`Finish::Done`] both rotations and their reports are updated (each counts one more
    /// rotation); otherwise nothing is written.
    pub(super) fn planar_finish(
        &self,
        links: [(&CcdLink, Option<&EulerInsideTest>); 2],
        locals: &mut [Transform],
        effector_in_link0: DVec3,
        target: DVec3,
        reports: &mut [LinkReport],
    ) -> Finish {
        let (l0, l1) = (locals[0], locals[1]);
        // Everything in link 1's frame: S at the origin.
        let target_in_link1 = (l1.rotation.conjugate() * (target - l1.translation)) / l1.scale.x;
        let elbow = l0.translation;
        let forearm = l0.rotation * (effector_in_link0 * l0.scale.x);
        let effector = elbow + forearm;
        let (w, d) = (effector.length(), target_in_link1.length());
        let aside = effector.cross(target_in_link1).length();
        if !(effector.dot(target_in_link1) > 0.0 && aside <= ON_RAY * w * d) {
            return Finish::NotYet;
        }
        // The passes turn link 0 about the plane's normal. A hinge (three projects every step
        // onto it) must be that normal: both links square to it, so the plane through S square
        // to the hinge holds E and W. Otherwise every pass also swings the plane a little and
        // three's passes end elsewhere. Link 0 then turns about the hinge exactly, so the
        // projection leaves it.
        let link0 = links[0].0;
        let hinge = link0
            .limitation
            .filter(|_| self.limits_enabled && link0.limits_enabled)
            .and_then(DVec3::try_normalize);
        let axis = match hinge {
            Some(h) => {
                let off = |v: DVec3| v.dot(h).abs() > OFF_PLANE * v.length();
                if off(elbow) || off(forearm) {
                    return Finish::Refused;
                }
                h
            }
            None => match elbow.cross(forearm).try_normalize() {
                Some(n) => n,
                None => return Finish::Refused, // straight or folded: no plane
            },
        };
        let Some(angle) = reach_turn(axis, elbow, forearm, d) else {
            return Finish::Refused;
        };
        // Turns about `axis`: link 0's in its parent's frame, link 1's in its own.
        let turn_link0 = |a: f64| DQuat::from_axis_angle(axis, a) * l0.rotation;
        let turn_link1 = |a: f64| l1.rotation * DQuat::from_axis_angle(axis, a);
        let mut new_reports = [reports[0], reports[1]];
        let free0 = turn_link0(angle).normalize();
        let turn0 = Some((axis, angle));
        let Some(q0) = self.on_path(links[0], l0.rotation, free0, turn0, &mut new_reports[0])
        else {
            return Finish::Refused;
        };
        let effector = elbow + q0 * (effector_in_link0 * l0.scale.x);
        let q1 = match turn((None, None), l1.rotation, effector, target_in_link1) {
            Some(free) => {
                match self.on_path(links[1], l1.rotation, free, None, &mut new_reports[1]) {
                    Some(q) => q,
                    None => return Finish::Refused,
                }
            }
            None => l1.rotation,
        };
        // Three's next pass from here turns link 0 to point at the target and can swing past
        // the finish (a strongly bent chain), the passes after it come back: between them
        // they visit the turns between now, that pass and the finish. Euler ranges must not
        // act anywhere there, or a clamp tilts the plane and the passes end elsewhere. A
        // hinge about X or Z clamps a turn about itself to a turn about itself (its Euler
        // angles are (θ, 0, 0) or (0, 0, θ)): the plane stays, so link 0's band is free.
        let in_plane = hinge.is_some_and(|h| h.x.abs() == 1.0 || h.z.abs() == 1.0);
        let check0 = !in_plane && self.ranged(links[0].0);
        let check1 = self.ranged(links[1].0);
        if check0 || check1 {
            let next0 = plane_angle(axis, forearm, target_in_link1 - elbow);
            let next_effector = elbow + DQuat::from_axis_angle(axis, next0) * forearm;
            let next1 = plane_angle(axis, next_effector, target_in_link1);
            let end1 = plane_angle(axis, effector, target_in_link1);
            if (check0 && !self.band_clear(links[0], turn_link0, [0.0, next0, angle]))
                || (check1 && !self.band_clear(links[1], turn_link1, [0.0, next1, end1]))
            {
                return Finish::Refused;
            }
        }
        locals[0].rotation = q0;
        locals[1].rotation = q1;
        reports[..2].copy_from_slice(&new_reports);
        Finish::Done(l1.translation + q1 * (effector * l1.scale.x))
    }

    /// `free` through the link's limits (recorded in `report`) where three's passes would end
    /// there too; `None` where a limit acts otherwise. Accepted: the limits leave `free` as it
    /// is, or, with `turn = Some((axis, angle))` (link 0, turning by `angle` about `axis` in
    /// its parent's frame), a limit stops the link on its way: every later step would be
    /// clamped back to the same rotation. (What the passes meet on the way is
    /// [`CcdSolver::band_clear`]'s.)
    fn on_path(
        &self,
        link: (&CcdLink, Option<&EulerInsideTest>),
        from: DQuat,
        free: DQuat,
        turn: Option<(DVec3, f64)>,
        report: &mut LinkReport,
    ) -> Option<DQuat> {
        let q = self.limit(link, free, report);
        if moved(q, free) > LIMIT_MOVED {
            let (axis, angle) = turn?;
            // Stopped on the way: the limited rotation is `from` turned about `axis` by a
            // part of `angle`.
            let rel = q * from.conjugate();
            let rel = if rel.w < 0.0 { -rel } else { rel };
            let along = DVec3::new(rel.x, rel.y, rel.z).dot(axis);
            let aside = DVec3::new(rel.x, rel.y, rel.z).reject_from_normalized(axis);
            let part = 2.0 * along.atan2(rel.w);
            let inside =
                part * angle.signum() >= -LIMIT_MOVED && part.abs() <= angle.abs() + LIMIT_MOVED;
            if !(aside.length() <= LIMIT_MOVED && inside) {
                return None;
            }
        }
        Some(q)
    }

    /// True when the link has an Euler range in use.
    fn ranged(&self, link: &CcdLink) -> bool {
        let range = link.rotation_min.is_some() || link.rotation_max.is_some();
        self.limits_enabled && link.limits_enabled && range
    }

    /// True when the link's limits leave every rotation `at(a)` alone for `a` between the
    /// least and greatest of `angles` (sampled at five points).
    fn band_clear(
        &self,
        (link, test): (&CcdLink, Option<&EulerInsideTest>),
        at: impl Fn(f64) -> DQuat,
        angles: [f64; 3],
    ) -> bool {
        let lo = angles.into_iter().fold(f64::INFINITY, f64::min);
        let hi = angles.into_iter().fold(f64::NEG_INFINITY, f64::max);
        let mut scratch = LinkReport {
            bone: link.index,
            rotations: 0,
            on_limit: false,
            euler: super::EulerState::Untouched,
        };
        (0..=4).all(|k| {
            let q = at(lo + (hi - lo) * f64::from(k) / 4.0);
            moved(self.limit((link, test), q, &mut scratch), q) <= LIMIT_MOVED
        })
    }
}

/// The signed angle about `axis` (unit) from `u` to `v`, both taken square to it.
fn plane_angle(axis: DVec3, u: DVec3, v: DVec3) -> f64 {
    let (u, v) = (
        u.reject_from_normalized(axis),
        v.reject_from_normalized(axis),
    );
    axis.dot(u.cross(v)).atan2(u.dot(v))
}

/// The angle (radians, about `axis`, unit) to turn link 0 by so that the effector ends at
/// distance `d` from link 1's origin, on the side of the chain's straightest position it is on
/// now; `elbow` is link 0's origin and `forearm` the vector link 0 → effector, both in link 1's
/// frame. Turned about `axis` through the elbow, the effector runs on a circle whose distance
/// from the origin is `|c|² + |u|² + 2R·cos(φ − φ0)`. A distance out of that range gives the
/// nearest end (straightest or most folded), as three's passes approach it. `None` when the
/// distance does not change along the circle or the chain is at its straightest or most
/// folded already (no side).
fn reach_turn(axis: DVec3, elbow: DVec3, forearm: DVec3, d: f64) -> Option<f64> {
    let along = axis * forearm.dot(axis);
    let centre = elbow + along; // of the effector's circle
    let u = forearm - along; // the effector from the centre, now (φ = 0)
    let v = axis.cross(u); // … a quarter turn on
    let (p, q) = (centre.dot(u), centre.dot(v));
    let r = p.hypot(q);
    let base = centre.length_squared() + u.length_squared();
    if r.is_nan() || r <= STRAIGHT * base {
        return None;
    }
    // φ0: where the effector is farthest (|W|² = base + 2R); it sits at φ = 0 − φ0 from it.
    let far = q.atan2(p);
    if far.abs() <= STRAIGHT || far.abs() >= std::f64::consts::PI - STRAIGHT {
        return None;
    }
    // R·cos(φ − φ0) = (d² − base) / 2, as sin²(ψ/2) = (max² − d²) / 4R for accuracy near
    // full reach (ψ = φ − φ0).
    let max = (base + 2.0 * r).sqrt();
    let half = ((max - d) * (max + d) / (4.0 * r)).clamp(0.0, 1.0);
    let psi = 2.0 * half.sqrt().asin();
    Some(far - far.signum() * psi)
}
