//! xorshift64*: deterministic, dependency-free randomness for soaks and generated cases (a
//! case is named by its seed).
#![allow(dead_code)]

use glam::{DQuat, DVec3};

/// The generator's state (any non-zero seed).
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)`.
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }

    /// Uniform in the cube `[-r, r)³`.
    pub fn vec(&mut self, r: f64) -> DVec3 {
        DVec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }

    /// A uniformly distributed unit vector (rejection from the unit ball).
    pub fn unit(&mut self) -> DVec3 {
        loop {
            let v = self.vec(1.0);
            if v.length() <= 1.0
                && let Some(u) = v.try_normalize()
            {
                return u;
            }
        }
    }

    /// A rotation about a random axis by up to a half turn.
    pub fn rotation(&mut self) -> DQuat {
        DQuat::from_axis_angle(self.unit(), self.range(0.0, std::f64::consts::PI))
    }
}
