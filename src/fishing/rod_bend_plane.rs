//! The rod's bend (`rod_bend.rs`) in its plane: the discrete elastica, solved by Newton's
//! method with the exact Jacobian (O(N) a round) or, where a clamp decides the shape, by
//! relaxation.

/// Straight pieces the bending part of the blank is made of.
pub const BEND_SEGMENTS: usize = 16;

/// Joints of the chain: one at each end of every piece.
pub const BEND_JOINTS: usize = BEND_SEGMENTS + 1;

/// The bend in its plane (x across toward the load, y along the rest blank): each piece's
/// flexibility (length over stiffness), the load's components and the cap on the tangent.
///
/// The discrete elastica it solves: the tangent angle θ at each joint (θ₀ = 0 where the
/// blank leaves the handle), each piece straight at the mean of its ends' angles, and every
/// piece turning by its flexibility times the load's moment about its middle with the rod
/// as bent: θₖ₊₁ = θₖ + flexₖ·Mₖ(θ), clamped to `[0, cap]`.
pub(super) struct Plane {
    pub flex: [f64; BEND_SEGMENTS],
    pub fx: f64,
    pub fy: f64,
    pub ds: f64,
    pub cap: f64,
}

/// The sine and cosine of each piece's mean angle `½(θₖ + θₖ₊₁)` for one set of joint
/// angles. Newton's rounds carry them: a round's step turns them by the sum formulas (see
/// [`MeanTrig::advance`]), so only a round that moves some piece far calls `sin_cos` again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MeanTrig {
    pub sin: [f64; BEND_SEGMENTS],
    pub cos: [f64; BEND_SEGMENTS],
}

/// The largest turn of a piece (radians) that [`MeanTrig::advance`] makes by the sum
/// formulas; the series it uses for the turn's sine and cosine are exact to 3e-19 there.
const SERIES_TURN: f64 = 0.1;

impl MeanTrig {
    /// Of the joint angles `theta`, by `sin_cos`.
    pub fn of(theta: &[f64; BEND_JOINTS]) -> Self {
        let mut trig = Self {
            sin: [0.0; BEND_SEGMENTS],
            cos: [1.0; BEND_SEGMENTS],
        };
        for l in 0..BEND_SEGMENTS {
            let mid = 0.5 * (theta[l] + theta[l + 1]);
            if mid != 0.0 {
                (trig.sin[l], trig.cos[l]) = mid.sin_cos();
            }
        }
        trig
    }

    /// The same after the joints (past the first, which stays at 0) moved by `step`, to
    /// `theta`: each piece turned by the mean of its ends' steps. A turn past
    /// [`SERIES_TURN`] anywhere recomputes them all with `sin_cos`.
    fn advance(&mut self, step: &[f64; BEND_SEGMENTS], theta: &[f64; BEND_JOINTS]) {
        let mut turns = [0.0; BEND_SEGMENTS];
        let mut before = 0.0;
        for (l, turn) in turns.iter_mut().enumerate() {
            *turn = 0.5 * (before + step[l]);
            before = step[l];
        }
        if turns.iter().any(|t| t.abs() > SERIES_TURN) {
            *self = Self::of(theta);
            return;
        }
        for (l, &t) in turns.iter().enumerate() {
            let (s, c) = small_sin_cos(t);
            let (s0, c0) = (self.sin[l], self.cos[l]);
            self.sin[l] = s0 * c + c0 * s;
            self.cos[l] = c0 * c - s0 * s;
        }
    }
}

/// `x.sin_cos()` for `|x| ≤` [`SERIES_TURN`], by their Taylor series to x⁹ and x¹⁰ (the first
/// terms left out are below 3e-19 there).
fn small_sin_cos(x: f64) -> (f64, f64) {
    let x2 = x * x;
    let sin = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))));
    let cos = 1.0
        - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0))));
    (sin, cos)
}

impl Plane {
    /// Moments about each piece's middle and their derivatives by each piece's mean angle:
    /// `M_j = Σ_{l>j} e_l + ½·e_j` with `e_l = ds·(fx·cos m_l − fy·sin m_l)` the load's
    /// moment over piece `l`.
    fn moments(&self, trig: &MeanTrig) -> ([f64; BEND_SEGMENTS], [f64; BEND_SEGMENTS]) {
        let mut e = [0.0; BEND_SEGMENTS];
        let mut de = [0.0; BEND_SEGMENTS];
        for l in 0..BEND_SEGMENTS {
            let (s, c) = (trig.sin[l], trig.cos[l]);
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
    /// `from_trig`: `from`'s [`MeanTrig`] when known. Returns the angles, the rounds and
    /// their [`MeanTrig`] (carried through the rounds).
    /// `None` when a clamp would act or it does not settle; the relaxation then decides.
    pub fn newton(
        &self,
        from: [f64; BEND_JOINTS],
        from_trig: Option<&MeanTrig>,
        tolerance: f64,
    ) -> Option<([f64; BEND_JOINTS], u32, MeanTrig)> {
        const N: usize = BEND_SEGMENTS;
        let mut theta = from;
        theta[0] = 0.0;
        let mut trig = match from_trig {
            Some(trig) if from[0] == 0.0 => *trig,
            _ => MeanTrig::of(&theta),
        };
        for round in 1..=NEWTON_ROUNDS {
            let (m, de) = self.moments(&trig);
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
            trig.advance(&step, &theta);
            // Newton's error after a step is of the order of the step squared.
            if largest < tolerance {
                let inside = theta.iter().all(|&t| (0.0..=self.cap).contains(&t));
                return inside.then_some((theta, round, trig));
            }
        }
        None
    }

    /// The relaxation: every round turns each piece by its moment with the rod as last bent,
    /// clamped, and moves halfway there (the step halves whenever the change grows). Returns
    /// the angles, the rounds and whether a clamp held the tip.
    pub fn relax(&self) -> ([f64; BEND_JOINTS], u32, bool) {
        let (fx, fy, ds, cap) = (self.fx, self.fy, self.ds, self.cap);
        let mut theta = [0.0f64; BEND_JOINTS];
        let mut step = 0.5;
        let mut last_change = f64::INFINITY;
        let mut iterations = 0;
        let mut limited = false;
        for round in 1..=MAX_ROUNDS {
            iterations = round;
            let trig = MeanTrig::of(&theta);
            let (xs, ys) = plane_points(&trig, ds);
            let (tx, ty) = (xs[BEND_SEGMENTS], ys[BEND_SEGMENTS]);
            let mut next = [0.0f64; BEND_JOINTS];
            limited = false;
            for k in 0..BEND_SEGMENTS {
                let (cx, cy) = (
                    xs[k] + 0.5 * ds * trig.sin[k],
                    ys[k] + 0.5 * ds * trig.cos[k],
                );
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
pub(super) const NEWTON_TOLERANCE: f64 = 1e-6;

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
    // The pivots' reciprocals, apart from the substitution below: each of its rounds waits
    // for the one before, and a multiplication keeps that wait shorter than a division.
    let mut inverse = [0.0; N];
    for (inv, u) in inverse.iter_mut().zip(&upper) {
        if u.a.abs() < 1e-300 {
            return None;
        }
        *inv = 1.0 / u.a;
    }
    let mut x = [0.0; N];
    // Σ_{c ≥ r + 2} term[c]·x[c], kept as r goes down.
    let mut tail = 0.0;
    for r in (0..N).rev() {
        let u = upper[r];
        let next = if r + 1 < N { u.b * x[r + 1] } else { 0.0 };
        x[r] = (u.rhs - next - u.g * tail) * inverse[r];
        if r + 1 < N {
            tail += t(r + 1) * x[r + 1];
        }
    }
    Some(x)
}

/// Relaxation rounds at most (a rated load settles in under 100).
const MAX_ROUNDS: u32 = 2000;

/// The joints in the bend's plane (x across toward the load, y along the rest blank from
/// the bend's start), each piece straight at the mean of its ends' angles (`trig`: their
/// sines and cosines), `ds` long.
pub(super) fn plane_points(trig: &MeanTrig, ds: f64) -> ([f64; BEND_JOINTS], [f64; BEND_JOINTS]) {
    let mut xs = [0.0; BEND_JOINTS];
    let mut ys = [0.0; BEND_JOINTS];
    for k in 0..BEND_SEGMENTS {
        xs[k + 1] = xs[k] + ds * trig.sin[k];
        ys[k + 1] = ys[k] + ds * trig.cos[k];
    }
    (xs, ys)
}
