//! A rod bent by the line's pull (issue 34): the blank from where it leaves the handle to
//! the tip as a cantilever under one load at the tip, solved with large deflection (the
//! elastica), in the rod's canonical frame (blank along +Y from the butt at the origin).
//!
//! The blank is a chain of [`BEND_SEGMENTS`] straight pieces; joint `k` sits at rest at
//! [`BendChain::rest_along`]`(k)`. Nothing before the first joint moves, so the handle, the
//! reel and the hands' grips stay where they are. The result is a rigid transform per joint
//! (rest blank → bent blank), which is what a skin of the rod's mesh on that chain needs,
//! on the GPU and in an exported file alike.

use super::rod_bend_plane::{MeanTrig, NEWTON_TOLERANCE, Plane, plane_points};
use super::tackle_params::RodAction;
use glam::{DAffine3, DMat3, DVec3};
use thiserror::Error;

/// The largest Newton step (radians) after which [`RodBendJob::solve_tip`] stops: its
/// angles are then within about its square of the bend's, and the tip within a micrometre.
pub const AIM_TOLERANCE: f64 = 1e-3;

pub use super::rod_bend_plane::{BEND_JOINTS, BEND_SEGMENTS};

/// The most the tip's tangent turns from the blank's rest direction, radians (110°): a
/// blank breaks before it folds back on itself.
pub const MAX_TIP_TURN: f64 = 110.0 * std::f64::consts::PI / 180.0;

/// The load the stiffness is rated by: at this pull, square to the blank, a moderate rod's
/// tip would move [`RATED_DEFLECTION`] of the bending length if bending were linear.
pub const RATED_LOAD: f64 = 20.0;

/// See [`RATED_LOAD`].
pub const RATED_DEFLECTION: f64 = 0.35;

/// The rest chain: where the joints sit along the blank.
///
/// Preconditions (checked by [`BendChain::validate`]): finite, `length > 0`,
/// `0 ≤ bend_start < length`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BendChain {
    /// Butt to tip, metres.
    pub length: f64,
    /// Where the blank leaves the handle, metres from the butt: the first joint.
    pub bend_start: f64,
}

/// Why a bend cannot be solved.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RodBendError {
    /// The chain's length and start do not leave a blank to bend.
    #[error("rod bend: length {length} and bend start {bend_start} do not make a blank")]
    Chain {
        /// Butt to tip, metres.
        length: f64,
        /// The first joint, metres from the butt.
        bend_start: f64,
    },
    /// The load has a NaN or infinite component.
    #[error("rod bend: the tip load {0:?} is not finite")]
    Load(DVec3),
}

impl BendChain {
    /// The chain of a rod `length` long whose front grip (the reel seat) is `reel_seat`
    /// from the butt: the blank bends from a fore grip's length (12 cm, at most a fifth of
    /// the rod) ahead of the seat.
    pub fn for_rod(length: f64, reel_seat: f64) -> Self {
        let fore = 0.12f64.min(0.2 * length);
        Self {
            length,
            bend_start: (reel_seat + fore).clamp(0.0, 0.9 * length),
        }
    }

    /// # Errors
    /// [`RodBendError::Chain`] unless the preconditions hold.
    pub fn validate(&self) -> Result<(), RodBendError> {
        let ok = self.length.is_finite()
            && self.bend_start.is_finite()
            && self.length > 0.0
            && (0.0..self.length).contains(&self.bend_start);
        if ok {
            Ok(())
        } else {
            Err(RodBendError::Chain {
                length: self.length,
                bend_start: self.bend_start,
            })
        }
    }

    /// Length of one piece, metres.
    pub fn piece(&self) -> f64 {
        (self.length - self.bend_start) / BEND_SEGMENTS as f64
    }

    /// Joint `k`'s place along the blank at rest, metres from the butt.
    pub fn rest_along(&self, k: usize) -> f64 {
        self.bend_start + self.piece() * k as f64
    }

    /// The skin weights of a point `along` metres from the butt (rod space y): the two
    /// joints either side, weighted linearly; a point before the first joint (the handle,
    /// the reel) is the first joint's alone, one past the tip the last's. Weights sum to 1.
    pub fn weights(&self, along: f64) -> [(usize, f64); 2] {
        let piece = self.piece();
        let u = if piece > 0.0 && along.is_finite() {
            (along - self.bend_start) / piece
        } else {
            0.0
        };
        if u <= 0.0 {
            return [(0, 1.0), (1, 0.0)];
        }
        if u >= BEND_SEGMENTS as f64 {
            return [(BEND_SEGMENTS, 1.0), (BEND_SEGMENTS - 1, 0.0)];
        }
        let j = (u.floor() as usize).min(BEND_SEGMENTS - 1);
        let f = u - j as f64;
        [(j, 1.0 - f), (j + 1, f)]
    }
}

/// Per-vertex skin weights of a rod mesh on a [`BendChain`] (see [`BendChain::skin`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSkin {
    /// Per vertex its two joints (glTF `JOINTS_0` layout, the last two unused).
    pub joints: Vec<[u16; 4]>,
    /// Per vertex their weights (`WEIGHTS_0` layout), summing to 1.
    pub weights: Vec<[f32; 4]>,
    /// Some vertex reaches past the bend's start (else the mesh never moves with the bend).
    pub bends: bool,
}

impl BendChain {
    /// The skin of a rod mesh whose vertices are `positions` (mesh space) and which sits at
    /// `rod_from_mesh` at rest: each vertex on the two joints either side of its place along
    /// the blank ([`BendChain::weights`]).
    pub fn skin(&self, positions: &[[f32; 3]], rod_from_mesh: &DAffine3) -> ChainSkin {
        let mut bends = false;
        let (joints, weights) = positions
            .iter()
            .map(|p| {
                let along = rod_from_mesh
                    .transform_point3(DVec3::from(p.map(f64::from)))
                    .y;
                let [(a, wa), (b, wb)] = self.weights(along);
                bends |= a > 0 || (b > 0 && wb > 0.0);
                ([a as u16, b as u16, 0, 0], [wa as f32, wb as f32, 0.0, 0.0])
            })
            .unzip();
        ChainSkin {
            joints,
            weights,
            bends,
        }
    }
}

/// One bend to solve: a rod's chain, its action and the pull on its tip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RodBendJob {
    /// The rest chain.
    pub chain: BendChain,
    /// Where along the blank it gives.
    pub action: RodAction,
    /// The line's pull on the tip, rod space, newtons. Zero (or along the blank) leaves the
    /// rod straight.
    pub tip_load_in_rod: DVec3,
}

/// The solved bend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RodBend {
    /// The rest chain it was solved on.
    pub chain: BendChain,
    /// Per joint, rod space: the rigid transform carrying the rest blank at the joint onto
    /// the bent blank (identity for a straight rod).
    pub bent_from_rest: [DAffine3; BEND_JOINTS],
    /// The tip, rod space (at `(0, length, 0)` when straight).
    pub tip_in_rod: DVec3,
    /// How far the tip moved, metres.
    pub tip_deflection: f64,
    /// The tip's tangent turned from the blank's rest direction, radians.
    pub tip_turn: f64,
    /// The tip's turn was held at [`MAX_TIP_TURN`] (or at the pull's own direction).
    pub limited: bool,
    /// The blank's tangent angle at each joint from its rest direction, radians, in the
    /// plane of the blank and the load (0 at the first joint; all 0 when straight).
    pub tangent_angles: [f64; BEND_JOINTS],
    /// Rounds the solve took: Newton's, or the relaxation's when a clamp decided the bend
    /// (0 when straight).
    pub iterations: u32,
}

impl RodBend {
    /// The unbent rod on `chain`.
    pub fn straight(chain: BendChain) -> Self {
        Self {
            chain,
            bent_from_rest: [DAffine3::IDENTITY; BEND_JOINTS],
            tip_in_rod: DVec3::Y * chain.length,
            tip_deflection: 0.0,
            tip_turn: 0.0,
            limited: false,
            tangent_angles: [0.0; BEND_JOINTS],
            iterations: 0,
        }
    }

    /// Joint `k`'s frame in rod space as bent: at rest the rod's frame moved
    /// [`BendChain::rest_along`]`(k)` up the blank.
    pub fn rod_from_joint(&self, k: usize) -> DAffine3 {
        self.bent_from_rest[k] * DAffine3::from_translation(DVec3::Y * self.chain.rest_along(k))
    }

    /// True when no joint moved.
    pub fn is_straight(&self) -> bool {
        self.bent_from_rest.iter().all(|m| *m == DAffine3::IDENTITY)
    }

    /// Where a rest point of the rod lands, rod space (linear blend of its two joints, as a
    /// skin of the rod's mesh draws it).
    pub fn bend_point(&self, rest_in_rod: DVec3) -> DVec3 {
        self.chain
            .weights(rest_in_rod.y)
            .iter()
            .map(|&(j, w)| self.bent_from_rest[j].transform_point3(rest_in_rod) * w)
            .sum()
    }
}

/// Bending stiffness along the blank relative to the tip's: `u` 0 at the bend's start, 1 at
/// the tip. Pointwise fast ≥ moderate ≥ slow, so a slow rod bends most at the same load.
fn relative_stiffness(action: RodAction, u: f64) -> f64 {
    let (ratio, power) = profile(action);
    let x = (1.0 - u).max(0.0);
    // The profiles' powers in closed form (`powf` is far slower, for the same values).
    let fall = match power {
        0.5 => x.sqrt(),
        1.0 => x,
        1.5 => x * x.sqrt(),
        _ => x.powf(power),
    };
    1.0 + (ratio - 1.0) * fall
}

/// Each action's butt-to-tip stiffness ratio and the power of its fall toward the tip.
fn profile(action: RodAction) -> (f64, f64) {
    match action {
        RodAction::Fast => (60.0, 0.5),
        RodAction::Moderate => (25.0, 1.0),
        RodAction::Slow => (10.0, 1.5),
    }
}

/// The tip's stiffness (N·m²) of a rod bending over `bend_length` metres: rated so that a
/// moderate rod's linear tip deflection under [`RATED_LOAD`] is [`RATED_DEFLECTION`] of it,
/// whatever its length.
fn tip_stiffness(bend_length: f64) -> f64 {
    // ∫₀¹ x² / (1 + k·x) dx for the moderate profile (x = 1 − u, power 1, k = ratio − 1), in
    // closed form: 1/(2k) − 1/k² + ln(1 + k)/k³.
    let k = profile(RodAction::Moderate).0 - 1.0;
    let compliance = 1.0 / (2.0 * k) - 1.0 / (k * k) + (1.0 + k).ln() / (k * k * k);
    RATED_LOAD * bend_length * bend_length * compliance / RATED_DEFLECTION
}

impl RodBendJob {
    /// # Errors
    /// The chain's error, or [`RodBendError::Load`] for a non-finite load.
    pub fn validate(&self) -> Result<(), RodBendError> {
        self.chain.validate()?;
        if !self.tip_load_in_rod.is_finite() {
            return Err(RodBendError::Load(self.tip_load_in_rod));
        }
        Ok(())
    }

    /// Solves the bend: the blank's tangent angle along it, in the plane of the blank and
    /// the load, such that the moment of the load about every piece (with the rod as bent)
    /// matches the piece's curvature — by Newton's method with the exact Jacobian, or, where
    /// a clamp decides the shape, by relaxation. Deterministic; the tangent never turns past
    /// the load's own direction or [`MAX_TIP_TURN`].
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve(&self) -> Result<RodBend, RodBendError> {
        self.solve_with(Some(Start::ZERO))
    }

    /// Like [`RodBendJob::solve`], with Newton's method starting from `near_angles` (the
    /// [`RodBend::tangent_angles`] of a bend of the same chain under a nearby load): the same
    /// bend in fewer rounds.
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_near(&self, near_angles: &[f64; BEND_JOINTS]) -> Result<RodBend, RodBendError> {
        self.solve_with(Some(Start {
            angles: near_angles,
            trig: None,
        }))
    }

    /// [`RodBendJob::solve_near`] from the shape of a [`RodBendJob::solve_tip`].
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_near_tip(&self, near: &BentTip) -> Result<RodBend, RodBendError> {
        self.solve_with(Some(Start {
            angles: &near.tangent_angles,
            trig: near.trig.as_ref(),
        }))
    }

    /// Like [`RodBendJob::solve`], by relaxation alone: the reference the Newton solve is
    /// tested against (they meet at the same fixed point), and what it falls back to.
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_by_relaxation(&self) -> Result<RodBend, RodBendError> {
        self.solve_with(None)
    }

    /// The bent tip alone (no joint frames), to within a micrometre: what a caller needs to
    /// aim the next load (see [`RodBendJob::solve_near_tip`]). Its Newton rounds stop at a
    /// step of [`AIM_TOLERANCE`] (`tests/tackle.rs`: at most 2.1e-7 m from
    /// [`RodBendJob::solve`]'s tip, loads up to ten times the rated one).
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_tip(&self) -> Result<BentTip, RodBendError> {
        let chain = self.chain;
        let Some(shape) = self.shape(Some(Start::ZERO), AIM_TOLERANCE)? else {
            return Ok(BentTip {
                tip_in_rod: DVec3::Y * chain.length,
                tangent_angles: [0.0; BEND_JOINTS],
                trig: None,
            });
        };
        let (xs, ys) = plane_points(&shape.trig, chain.piece());
        Ok(BentTip {
            tip_in_rod: shape.bend_dir * xs[BEND_SEGMENTS]
                + DVec3::Y * (chain.bend_start + ys[BEND_SEGMENTS]),
            tangent_angles: shape.theta,
            trig: Some(shape.trig),
        })
    }

    /// The bent shape (see [`Shape`]); `None` for a load that leaves the rod straight.
    fn shape(
        &self,
        newton_from: Option<Start>,
        tolerance: f64,
    ) -> Result<Option<Shape>, RodBendError> {
        self.validate()?;
        let chain = self.chain;
        let load = self.tip_load_in_rod;
        let across = DVec3::new(load.x, 0.0, load.z);
        let (fx, fy) = (across.length(), load.y);
        if fx <= 1e-9 * load.length().max(1.0) {
            return Ok(None);
        }
        let bend_dir = across / fx;
        let cap = fx.atan2(fy).min(MAX_TIP_TURN);
        let ds = chain.piece();
        let ei_tip = tip_stiffness(chain.length - chain.bend_start);
        let mut flex = [0.0f64; BEND_SEGMENTS];
        for (k, f) in flex.iter_mut().enumerate() {
            let u = (k as f64 + 0.5) / BEND_SEGMENTS as f64;
            *f = ds / (ei_tip * relative_stiffness(self.action, u));
        }
        let plane = Plane {
            flex,
            fx,
            fy,
            ds,
            cap,
        };
        let (theta, iterations, limited, trig) =
            match newton_from.and_then(|from| plane.newton(*from.angles, from.trig, tolerance)) {
                Some((theta, rounds, trig)) => (theta, rounds, false, trig),
                None => {
                    let (theta, rounds, limited) = plane.relax();
                    (theta, rounds, limited, MeanTrig::of(&theta))
                }
            };
        Ok(Some(Shape {
            theta,
            trig,
            iterations,
            limited,
            bend_dir,
        }))
    }

    /// The bend, by Newton's method from `newton_from` (angles per joint) where it settles
    /// inside the clamps, else by relaxation.
    fn solve_with(&self, newton_from: Option<Start>) -> Result<RodBend, RodBendError> {
        let chain = self.chain;
        let Some(Shape {
            theta,
            trig,
            iterations,
            limited,
            bend_dir,
        }) = self.shape(newton_from, NEWTON_TOLERANCE)?
        else {
            return Ok(RodBend::straight(chain));
        };
        let (xs, ys) = plane_points(&trig, chain.piece());
        let axis = DVec3::Y.cross(bend_dir).normalize();
        let mut bent_from_rest = [DAffine3::IDENTITY; BEND_JOINTS];
        // Each joint's tangent angle from the pieces' means (θₖ₊₁ = 2mₖ − θₖ, θ₀ = 0), by
        // the double-angle and difference formulas: no sine or cosine evaluated again.
        let (mut sin, mut cos) = (0.0, 1.0);
        for k in 0..BEND_JOINTS {
            if k > 0 {
                let (sm, cm) = (trig.sin[k - 1], trig.cos[k - 1]);
                let (sin2, cos2) = (2.0 * sm * cm, cm * cm - sm * sm);
                (sin, cos) = (sin2 * cos - cos2 * sin, cos2 * cos + sin2 * sin);
            }
            let at = bend_dir * xs[k] + DVec3::Y * (chain.bend_start + ys[k]);
            // The turn about `axis` carries the blank's direction +Y to cos·Y + sin·bend_dir.
            let turn = rotation_about(axis, sin, cos);
            let rest_tangent_turned = DVec3::Y * cos + bend_dir * sin;
            bent_from_rest[k] = DAffine3::from_mat3_translation(
                turn,
                at - rest_tangent_turned * chain.rest_along(k),
            );
        }
        let tip = bent_from_rest[BEND_SEGMENTS].transform_point3(DVec3::Y * chain.length);
        Ok(RodBend {
            chain,
            bent_from_rest,
            tip_in_rod: tip,
            tip_deflection: tip.distance(DVec3::Y * chain.length),
            tip_turn: theta[BEND_SEGMENTS],
            limited,
            tangent_angles: theta,
            iterations,
        })
    }
}

/// The rotation about the unit `axis` by the angle whose sine and cosine are `sin`, `cos`
/// (Rodrigues' formula: `cos·I + sin·[axis]× + (1 − cos)·axis·axisᵀ`).
fn rotation_about(axis: DVec3, sin: f64, cos: f64) -> DMat3 {
    let column = |e: DVec3| e * cos + axis.cross(e) * sin + axis * (axis.dot(e) * (1.0 - cos));
    DMat3::from_cols(column(DVec3::X), column(DVec3::Y), column(DVec3::Z))
}

/// Where Newton's method starts: joint angles, and their pieces' [`MeanTrig`] when known.
#[derive(Clone, Copy)]
struct Start<'a> {
    angles: &'a [f64; BEND_JOINTS],
    trig: Option<&'a MeanTrig>,
}

impl Start<'_> {
    const ZERO: Start<'static> = Start {
        angles: &[0.0; BEND_JOINTS],
        trig: None,
    };
}

/// A solved shape: the tangent angle at each joint (and its pieces' [`MeanTrig`]), the rounds it took, whether a clamp held
/// the tip, and the unit direction across the blank the rod bends toward (rod space).
struct Shape {
    theta: [f64; BEND_JOINTS],
    trig: MeanTrig,
    iterations: u32,
    limited: bool,
    bend_dir: DVec3,
}

/// A bent tip and the shape that puts it there (see [`RodBendJob::solve_tip`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BentTip {
    /// The tip, rod space.
    pub tip_in_rod: DVec3,
    /// See [`RodBend::tangent_angles`].
    pub tangent_angles: [f64; BEND_JOINTS],
    /// Its pieces' [`MeanTrig`] (for [`RodBendJob::solve_near_tip`]; `None` when straight).
    trig: Option<MeanTrig>,
}
