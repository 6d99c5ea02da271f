//! The surface operators bone-heat skinning needs: the cotangent Laplacian of a triangle mesh,
//! its lumped vertex areas, and a Jacobi-preconditioned conjugate-gradient solve of
//! `(L + diag(a)) x = b`.
//!
//! Cotangent weights are clamped at zero (an obtuse angle would make one negative), so the
//! operator is an M-matrix: a solve with a non-negative right-hand side stays non-negative and
//! a partition of unity stays one. Deterministic: plain loops in a fixed order.

use glam::DVec3;

/// The symmetric positive semi-definite cotangent Laplacian `L` in compressed rows (the
/// off-diagonal entries are `-w_ij`, the diagonal `Σ_j w_ij`), with each vertex's lumped area
/// (a third of its triangles' areas).
pub struct Laplacian {
    start: Vec<usize>,
    column: Vec<u32>,
    value: Vec<f64>,
    diagonal: Vec<f64>,
    /// Lumped area of each vertex, m².
    pub area: Vec<f64>,
}

fn cot(a: DVec3, b: DVec3) -> f64 {
    let s = a.cross(b).length();
    if s <= 1e-30 { 0.0 } else { a.dot(b) / s }
}

impl Laplacian {
    /// Builds the operator of a triangle list over `positions`. Degenerate triangles add
    /// nothing; an isolated vertex has an empty row and zero area.
    pub fn new(positions: &[DVec3], indices: &[u32]) -> Self {
        let n = positions.len();
        let mut pairs: Vec<(u32, u32, f64)> = Vec::with_capacity(indices.len() * 2);
        let mut area = vec![0.0; n];
        for t in indices.chunks_exact(3) {
            let [i, j, k] = [t[0], t[1], t[2]];
            let [a, b, c] = [i, j, k].map(|v| positions[v as usize]);
            let third = (b - a).cross(c - a).length() / 6.0;
            for v in [i, j, k] {
                area[v as usize] += third;
            }
            // The weight of edge (j, k) is half the cotangent of the angle opposite it, at i.
            for (o, p, q) in [(a, j, k), (b, k, i), (c, i, j)] {
                let (pp, qp) = (positions[p as usize], positions[q as usize]);
                let w = 0.5 * cot(pp - o, qp - o).max(0.0);
                pairs.push((p.min(q), p.max(q), w));
            }
        }
        pairs.sort_by_key(|x| (x.0, x.1));
        let mut rows: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
        let mut diagonal = vec![0.0; n];
        let mut k = 0;
        while k < pairs.len() {
            let (p, q) = (pairs[k].0, pairs[k].1);
            let mut w = 0.0;
            while k < pairs.len() && pairs[k].0 == p && pairs[k].1 == q {
                w += pairs[k].2;
                k += 1;
            }
            if p != q {
                rows[p as usize].push((q, -w));
                rows[q as usize].push((p, -w));
                diagonal[p as usize] += w;
                diagonal[q as usize] += w;
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let (mut column, mut value) = (Vec::new(), Vec::new());
        for row in &mut rows {
            start.push(column.len());
            row.sort_by_key(|e| e.0);
            for &(c, v) in row.iter() {
                column.push(c);
                value.push(v);
            }
        }
        start.push(column.len());
        Self {
            start,
            column,
            value,
            diagonal,
            area,
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.diagonal.len()
    }

    /// Whether the mesh has no vertices.
    pub fn is_empty(&self) -> bool {
        self.diagonal.is_empty()
    }

    /// `out = (L + diag(extra)) x`.
    fn apply(&self, extra: &[f64], x: &[f64], out: &mut [f64]) {
        for i in 0..self.len() {
            let mut s = (self.diagonal[i] + extra[i]) * x[i];
            for e in self.start[i]..self.start[i + 1] {
                s += self.value[e] * x[self.column[e] as usize];
            }
            out[i] = s;
        }
    }

    /// Solves `(L + diag(extra)) x = b` by conjugate gradients with a Jacobi preconditioner,
    /// starting from `x` and stopping when the largest residual is below `tolerance × max|b|`
    /// (or after `4 n + 100` iterations). Returns the iterations taken.
    ///
    /// Precondition: every connected part of the mesh has a vertex with `extra > 0` (so the
    /// system is positive definite); `extra`, `b` and `x` have [`Laplacian::len`] entries.
    pub fn solve(&self, extra: &[f64], b: &[f64], x: &mut [f64], tolerance: f64) -> usize {
        let n = self.len();
        let inv: Vec<f64> = (0..n)
            .map(|i| {
                let d = self.diagonal[i] + extra[i];
                if d > 0.0 { 1.0 / d } else { 0.0 }
            })
            .collect();
        let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if scale == 0.0 {
            x.fill(0.0);
            return 0;
        }
        let mut ax = vec![0.0; n];
        self.apply(extra, x, &mut ax);
        let mut r: Vec<f64> = (0..n).map(|i| b[i] - ax[i]).collect();
        let mut z: Vec<f64> = (0..n).map(|i| r[i] * inv[i]).collect();
        let mut p = z.clone();
        let mut rz: f64 = (0..n).map(|i| r[i] * z[i]).sum();
        let limit = 4 * n + 100;
        for iteration in 0..limit {
            if r.iter().fold(0.0f64, |m, v| m.max(v.abs())) <= tolerance * scale {
                return iteration;
            }
            self.apply(extra, &p, &mut ax);
            let pap: f64 = (0..n).map(|i| p[i] * ax[i]).sum();
            if pap <= 0.0 {
                return iteration;
            }
            let alpha = rz / pap;
            for i in 0..n {
                x[i] += alpha * p[i];
                r[i] -= alpha * ax[i];
                z[i] = r[i] * inv[i];
            }
            let rz_next: f64 = (0..n).map(|i| r[i] * z[i]).sum();
            let beta = rz_next / rz;
            rz = rz_next;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat `n × n` grid of unit squares split into triangles.
    fn grid(n: usize) -> (Vec<DVec3>, Vec<u32>) {
        let mut p = Vec::new();
        for y in 0..=n {
            for x in 0..=n {
                p.push(DVec3::new(x as f64, y as f64, 0.0));
            }
        }
        let id = |x: usize, y: usize| (y * (n + 1) + x) as u32;
        let mut t = Vec::new();
        for y in 0..n {
            for x in 0..n {
                t.extend([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
                t.extend([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
            }
        }
        (p, t)
    }

    #[test]
    fn the_laplacian_of_a_linear_field_vanishes_inside_and_areas_sum() {
        let (p, t) = grid(6);
        let l = Laplacian::new(&p, &t);
        let total: f64 = l.area.iter().sum();
        assert!((total - 36.0).abs() < 1e-12, "{total}");
        let x: Vec<f64> = p.iter().map(|v| 2.0 * v.x - v.y).collect();
        let mut out = vec![0.0; p.len()];
        l.apply(&vec![0.0; p.len()], &x, &mut out);
        // Interior vertex (3, 3): the cotangent Laplacian is exact on linear functions.
        assert!(out[3 * 7 + 3].abs() < 1e-12, "{}", out[3 * 7 + 3]);
        // Constants are in the kernel everywhere.
        l.apply(&vec![0.0; p.len()], &vec![1.0; p.len()], &mut out);
        assert!(out.iter().all(|v| v.abs() < 1e-12));
    }

    #[test]
    fn the_solve_satisfies_the_system_and_keeps_a_partition_of_unity() {
        let (p, t) = grid(8);
        let l = Laplacian::new(&p, &t);
        let n = p.len();
        // Heat from the left column into bone 0, from the right column into bone 1.
        let extra: Vec<f64> = p
            .iter()
            .map(|v| if v.x < 0.5 || v.x > 7.5 { 10.0 } else { 0.01 })
            .collect();
        let hot = |v: &DVec3| if v.x < 4.0 { 1.0 } else { 0.0 };
        let b0: Vec<f64> = (0..n).map(|i| extra[i] * hot(&p[i])).collect();
        let b1: Vec<f64> = (0..n).map(|i| extra[i] * (1.0 - hot(&p[i]))).collect();
        let (mut x0, mut x1) = (vec![0.0; n], vec![0.0; n]);
        assert!(l.solve(&extra, &b0, &mut x0, 1e-12) > 0);
        l.solve(&extra, &b1, &mut x1, 1e-12);
        let mut ax = vec![0.0; n];
        l.apply(&extra, &x0, &mut ax);
        for i in 0..n {
            assert!((ax[i] - b0[i]).abs() < 1e-9, "residual at {i}");
            assert!((x0[i] + x1[i] - 1.0).abs() < 1e-9, "sum at {i}");
            assert!((-1e-12..=1.0 + 1e-12).contains(&x0[i]), "{}", x0[i]);
        }
        // Falls monotonically across the grid, from near 1 on the left (strongly tied, 10 against
        // a Laplacian diagonal of 2-4) to near 0 on the right.
        let row = &x0[4 * 9..5 * 9];
        assert!(row.windows(2).all(|w| w[0] > w[1]), "{row:?}");
        assert!(row[0] > 0.98 && row[8] < 0.02, "{row:?}");
    }
}
