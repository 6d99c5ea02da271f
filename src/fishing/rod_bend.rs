//! A rod bent by the line's pull (issue 34): the blank from where it leaves the handle to
//! the tip as a cantilever under one load at the tip, solved with large deflection (the
//! elastica), in the rod's canonical frame (blank along +Y from the butt at the origin).
//!
//! The blank is a chain of [`BEND_SEGMENTS`] straight pieces; joint `k` sits at rest at
//! [`BendChain::rest_along`]`(k)`. Nothing before the first joint moves, so the handle, the
//! reel and the hands' grips stay where they are. The result is a rigid transform per joint
//! (rest blank → bent blank), which is what a skin of the rod's mesh on that chain needs,
//! on the GPU and in an exported file alike.

use super::tackle_params::RodAction;
use glam::{DAffine3, DQuat, DVec3};
use thiserror::Error;

/// Straight pieces the bending part of the blank is made of.
pub const BEND_SEGMENTS: usize = 16;

/// Joints of the chain: one at each end of every piece.
pub const BEND_JOINTS: usize = BEND_SEGMENTS + 1;

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
        self.solve_with(Some(&[0.0; BEND_JOINTS]))
    }

    /// Like [`RodBendJob::solve`], with Newton's method starting from `near_angles` (the
    /// [`RodBend::tangent_angles`] of a bend of the same chain under a nearby load): the same
    /// bend in fewer rounds.
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_near(&self, near_angles: &[f64; BEND_JOINTS]) -> Result<RodBend, RodBendError> {
        self.solve_with(Some(near_angles))
    }

    /// Like [`RodBendJob::solve`], by relaxation alone: the reference the Newton solve is
    /// tested against (they meet at the same fixed point), and what it falls back to.
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_by_relaxation(&self) -> Result<RodBend, RodBendError> {
        self.solve_with(None)
    }

    /// The bent tip alone (no joint frames): what a caller needs to aim the next load (see
    /// [`RodBendJob::solve_near`]).
    ///
    /// # Errors
    /// See [`RodBendJob::validate`].
    pub fn solve_tip(&self) -> Result<BentTip, RodBendError> {
        let chain = self.chain;
        let Some(shape) = self.shape(Some(&[0.0; BEND_JOINTS]))? else {
            return Ok(BentTip {
                tip_in_rod: DVec3::Y * chain.length,
                tangent_angles: [0.0; BEND_JOINTS],
            });
        };
        let (xs, ys) = plane_points(&shape.theta, chain.piece());
        Ok(BentTip {
            tip_in_rod: shape.bend_dir * xs[BEND_SEGMENTS]
                + DVec3::Y * (chain.bend_start + ys[BEND_SEGMENTS]),
            tangent_angles: shape.theta,
        })
    }

    /// The bent shape (see [`Shape`]); `None` for a load that leaves the rod straight.
    fn shape(
        &self,
        newton_from: Option<&[f64; BEND_JOINTS]>,
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
        let (theta, iterations, limited) = match newton_from.and_then(|from| plane.newton(*from)) {
            Some((theta, rounds)) => (theta, rounds, false),
            None => plane.relax(),
        };
        Ok(Some(Shape {
            theta,
            iterations,
            limited,
            bend_dir,
        }))
    }

    /// The bend, by Newton's method from `newton_from` (angles per joint) where it settles
    /// inside the clamps, else by relaxation.
    fn solve_with(
        &self,
        newton_from: Option<&[f64; BEND_JOINTS]>,
    ) -> Result<RodBend, RodBendError> {
        let chain = self.chain;
        let Some(Shape {
            theta,
            iterations,
            limited,
            bend_dir,
        }) = self.shape(newton_from)?
        else {
            return Ok(RodBend::straight(chain));
        };
        let (xs, ys) = plane_points(&theta, chain.piece());
        let axis = DVec3::Y.cross(bend_dir).normalize();
        let mut bent_from_rest = [DAffine3::IDENTITY; BEND_JOINTS];
        for k in 0..BEND_JOINTS {
            let at = bend_dir * xs[k] + DVec3::Y * (chain.bend_start + ys[k]);
            let turn = DQuat::from_axis_angle(axis, theta[k]);
            bent_from_rest[k] = DAffine3::from_translation(at)
                * DAffine3::from_quat(turn)
                * DAffine3::from_translation(-DVec3::Y * chain.rest_along(k));
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

/// A solved shape: the tangent angle at each joint, the rounds it took, whether a clamp held
/// the tip, and the unit direction across the blank the rod bends toward (rod space).
struct Shape {
    theta: [f64; BEND_JOINTS],
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
}

/// The bend in its plane (x across toward the load, y along the rest blank): each piece's
/// flexibility (length over stiffness), the load's components and the cap on the tangent.
///
/// The discrete elastica it solves: the tangent angle θ at each joint (θ₀ = 0 where the
/// blank leaves the handle), each piece straight at the mean of its ends' angles, and every
/// piece turning by its flexibility times the load's moment about its middle with the rod
/// as bent: θₖ₊₁ = θₖ + flexₖ·Mₖ(θ), clamped to `[0, cap]`.
struct Plane {
    flex: [f64; BEND_SEGMENTS],
    fx: f64,
    fy: f64,
    ds: f64,
    cap: f64,
}

impl Plane {
    /// Moments about each piece's middle and their derivatives by each piece's mean angle:
    /// `M_j = Σ_{l>j} e_l + ½·e_j` with `e_l = ds·(fx·cos m_l − fy·sin m_l)` the load's
    /// moment over piece `l`.
    fn moments(&self, theta: &[f64; BEND_JOINTS]) -> ([f64; BEND_SEGMENTS], [f64; BEND_SEGMENTS]) {
        let mut e = [0.0; BEND_SEGMENTS];
        let mut de = [0.0; BEND_SEGMENTS];
        for l in 0..BEND_SEGMENTS {
            let (s, c) = (0.5 * (theta[l] + theta[l + 1])).sin_cos();
            e[l] = self.ds * (self.fx * c - self.fy * s);
            de[l] = -self.ds * (self.fx * s + self.fy * c);
        }
        let mut m = [0.0; BEND_SEGMENTS];
        let mut beyond = 0.0;
        for j in (0..BEND_SEGMENTS).rev() {
            m[j] = beyond + 0.5 * e[j];
            beyond += e[j];
        }
        (m, de)
    }

    /// Newton's method with the exact Jacobian, from the angles `from`, on the pieces'
    /// equations `R_k = θ_{k+1} − θ_k − flex_k·M_k(θ) = 0`: the relaxation's fixed point when
    /// no clamp holds it (a few rounds instead of dozens). `M_k` depends only on joints `k`
    /// and beyond, so the Jacobian is upper Hessenberg, and rank one past its superdiagonal:
    /// each round's step costs O(N) (see [`solve_pieces`]).
    /// `None` when a clamp would act or it does not settle; the relaxation then decides.
    fn newton(&self, from: [f64; BEND_JOINTS]) -> Option<([f64; BEND_JOINTS], u32)> {
        const N: usize = BEND_SEGMENTS;
        let mut theta = from;
        theta[0] = 0.0;
        for round in 1..=NEWTON_ROUNDS {
            let (m, de) = self.moments(&theta);
            // Column c is joint c + 1, which ends piece c and starts piece c + 1; a piece's
            // mean angle moves by half of each end's. Row k's entries past its diagonal are
            // −flex_k times the column's term (the whole of both pieces lies beyond k).
            let mut term = [0.0f64; N + 1];
            for (c, t) in term.iter_mut().take(N).enumerate() {
                *t = 0.5 * (de[c] + if c + 1 < N { de[c + 1] } else { 0.0 });
            }
            let mut rows = [PiecesRow::default(); N];
            for (k, row) in rows.iter_mut().enumerate() {
                let flex = self.flex[k];
                let next = if k + 1 < N { de[k + 1] } else { 0.0 };
                *row = PiecesRow {
                    sub: if k > 0 {
                        -1.0 - flex * 0.25 * de[k]
                    } else {
                        0.0
                    },
                    diag: 1.0 - flex * 0.5 * (0.5 * de[k] + next),
                    beyond: -flex,
                    rhs: -(theta[k + 1] - theta[k] - flex * m[k]),
                };
            }
            let step = solve_pieces(&rows, &term)?;
            let mut largest = 0.0f64;
            for k in 0..N {
                theta[k + 1] += step[k];
                largest = largest.max(step[k].abs());
            }
            if !theta.iter().all(|t| t.is_finite()) {
                return None;
            }
            // Newton's error after a step is of the order of the step squared.
            if largest < NEWTON_TOLERANCE {
                let inside = theta.iter().all(|&t| (0.0..=self.cap).contains(&t));
                return inside.then_some((theta, round));
            }
        }
        None
    }

    /// The relaxation: every round turns each piece by its moment with the rod as last bent,
    /// clamped, and moves halfway there (the step halves whenever the change grows). Returns
    /// the angles, the rounds and whether a clamp held the tip.
    fn relax(&self) -> ([f64; BEND_JOINTS], u32, bool) {
        let (fx, fy, ds, cap) = (self.fx, self.fy, self.ds, self.cap);
        let mut theta = [0.0f64; BEND_JOINTS];
        let mut step = 0.5;
        let mut last_change = f64::INFINITY;
        let mut iterations = 0;
        let mut limited = false;
        for round in 1..=MAX_ROUNDS {
            iterations = round;
            let (xs, ys) = plane_points(&theta, ds);
            let (tx, ty) = (xs[BEND_SEGMENTS], ys[BEND_SEGMENTS]);
            let mut next = [0.0f64; BEND_JOINTS];
            limited = false;
            for k in 0..BEND_SEGMENTS {
                let mid = 0.5 * (theta[k] + theta[k + 1]);
                let (cx, cy) = (xs[k] + 0.5 * ds * mid.sin(), ys[k] + 0.5 * ds * mid.cos());
                let moment = (ty - cy) * fx - (tx - cx) * fy;
                let turned = next[k] + moment * self.flex[k];
                next[k + 1] = if turned > cap {
                    limited = true;
                    cap
                } else {
                    turned.max(0.0)
                };
            }
            let change = (1..BEND_JOINTS)
                .map(|k| (next[k] - theta[k]).abs())
                .fold(0.0, f64::max);
            if change > last_change {
                step *= 0.5;
            }
            last_change = change;
            for k in 1..BEND_JOINTS {
                theta[k] += step * (next[k] - theta[k]);
            }
            if change < 1e-12 {
                break;
            }
        }
        (theta, iterations, limited)
    }
}

/// Newton rounds at most, and the largest step (radians) after which its angles count as
/// found: the error left is of the order of its square (1e-12), the change between rounds at
/// which the relaxation stops (`tests/tackle.rs` holds the two within 1e-9 m; they meet
/// within 2e-12 m).
const NEWTON_ROUNDS: u32 = 12;
const NEWTON_TOLERANCE: f64 = 1e-6;

/// One row of the Newton step's system: `sub` at column k − 1, `diag` at k, and
/// `beyond · term[c]` at every column c > k; `rhs` its right-hand side.
#[derive(Clone, Copy, Default)]
struct PiecesRow {
    sub: f64,
    diag: f64,
    beyond: f64,
    rhs: f64,
}

/// A row during elimination, from column `r`: `a` at r, `b` at r + 1, `g · term[c]` beyond.
#[derive(Clone, Copy)]
struct Reduced {
    a: f64,
    b: f64,
    g: f64,
    rhs: f64,
}

/// Solves the Newton step's system (upper Hessenberg, its part above the first superdiagonal
/// of rank one per row: see [`PiecesRow`]) in O(N) by Gaussian elimination pivoting between
/// neighbouring rows; every row stays of the form [`Reduced`] as it is eliminated. `None`
/// when it is singular.
fn solve_pieces<const N: usize>(rows: &[PiecesRow; N], term: &[f64]) -> Option<[f64; N]> {
    let t = |c: usize| term.get(c).copied().unwrap_or(0.0);
    let first = rows[0];
    let mut current = Reduced {
        a: first.diag,
        b: first.beyond * t(1),
        g: first.beyond,
        rhs: first.rhs,
    };
    let mut upper = [current; N];
    for r in 0..N - 1 {
        let row = rows[r + 1];
        let below = Reduced {
            a: row.sub,
            b: row.diag,
            g: row.beyond,
            rhs: row.rhs,
        };
        let (pivot, other) = if below.a.abs() > current.a.abs() {
            (below, current)
        } else {
            (current, below)
        };
        if pivot.a.abs() < 1e-300 {
            return None;
        }
        let m = other.a / pivot.a;
        let g = other.g - m * pivot.g;
        current = Reduced {
            a: other.b - m * pivot.b,
            b: g * t(r + 2),
            g,
            rhs: other.rhs - m * pivot.rhs,
        };
        upper[r] = pivot;
    }
    upper[N - 1] = current;
    let mut x = [0.0; N];
    // Σ_{c ≥ r + 2} term[c]·x[c], kept as r goes down.
    let mut tail = 0.0;
    for r in (0..N).rev() {
        let u = upper[r];
        if u.a.abs() < 1e-300 {
            return None;
        }
        let next = if r + 1 < N { u.b * x[r + 1] } else { 0.0 };
        x[r] = (u.rhs - next - u.g * tail) / u.a;
        if r + 1 < N {
            tail += t(r + 1) * x[r + 1];
        }
    }
    Some(x)
}

/// Relaxation rounds at most (a rated load settles in under 100).
const MAX_ROUNDS: u32 = 2000;

/// The joints in the bend's plane (x across toward the load, y along the rest blank from
/// the bend's start), each piece straight at the mean of its ends' angles.
fn plane_points(theta: &[f64; BEND_JOINTS], ds: f64) -> ([f64; BEND_JOINTS], [f64; BEND_JOINTS]) {
    let mut xs = [0.0; BEND_JOINTS];
    let mut ys = [0.0; BEND_JOINTS];
    for k in 0..BEND_SEGMENTS {
        let mid = 0.5 * (theta[k] + theta[k + 1]);
        xs[k + 1] = xs[k] + ds * mid.sin();
        ys[k + 1] = ys[k] + ds * mid.cos();
    }
    (xs, ys)
}
