//! The session's water, line and rod-action parameters (issue 34). Plain data with their
//! rules; presets written before they existed read with [`Default`].

use super::rules::{self, FieldProblem, Path};
use serde::{Deserialize, Serialize};

/// Where the water is, in actor space (the angler faces +Z, feet on y = 0).
///
/// The water is the half-plane `y = height`, `z ≥ near` (the bank ends at `near`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WaterParams {
    /// Height of the surface, metres (−5..=1; the bank is at 0).
    pub height: f64,
    /// Distance ahead of the angler where the water starts, metres (0..=20).
    pub near: f64,
}

impl Default for WaterParams {
    fn default() -> Self {
        Self {
            height: -0.4,
            near: 1.2,
        }
    }
}

/// The line, the lure and the fish.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LineParams {
    /// How far the cast puts the lure: metres from the rod tip to where it lands, measured
    /// on the water (3..=100).
    pub length_out: f64,
    /// The line between the tip and the lure while it hangs before the cast, metres
    /// (0.05..=2).
    pub drop: f64,
    /// The lure's mass, grams (1..=500): what the line hangs under and what the cast throws.
    pub lure_weight_g: f64,
    /// The fish's pull along the line in the strike and the landing, newtons (0..=200;
    /// 0 = no fish, a straight rod).
    pub fish_pull: f64,
    /// The line's colour, linear RGB 0..=1.
    pub colour: [f32; 3],
}

impl Default for LineParams {
    fn default() -> Self {
        Self {
            length_out: 14.0,
            drop: 0.45,
            lure_weight_g: 12.0,
            fish_pull: 18.0,
            colour: [0.95, 0.85, 0.25],
        }
    }
}

/// Where along the blank a rod bends under load (a rod setting, like its length).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RodAction {
    /// Stiff butt and middle; the top third bends.
    Fast,
    /// Bends over the top half (the default).
    #[default]
    Moderate,
    /// Bends along its whole length; the softest at the same load.
    Slow,
}

impl RodAction {
    /// Every action, stiffest first.
    pub const ALL: [RodAction; 3] = [RodAction::Fast, RodAction::Moderate, RodAction::Slow];

    /// The snake_case key used in presets and JSON.
    pub fn name(self) -> &'static str {
        match self {
            RodAction::Fast => "fast",
            RodAction::Moderate => "moderate",
            RodAction::Slow => "slow",
        }
    }
}

impl WaterParams {
    pub(crate) fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        rules::number(self.height, &at.join("height"), -5.0, 1.0, out);
        rules::number(self.near, &at.join("near"), 0.0, 20.0, out);
    }
}

impl LineParams {
    pub(crate) fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        rules::number(self.length_out, &at.join("length_out"), 3.0, 100.0, out);
        rules::number(self.drop, &at.join("drop"), 0.05, 2.0, out);
        rules::number(
            self.lure_weight_g,
            &at.join("lure_weight_g"),
            1.0,
            500.0,
            out,
        );
        rules::number(self.fish_pull, &at.join("fish_pull"), 0.0, 200.0, out);
        for (c, key) in self
            .colour
            .into_iter()
            .zip(["colour[0]", "colour[1]", "colour[2]"])
        {
            rules::number(f64::from(c), &at.join(key), 0.0, 1.0, out);
        }
    }
}
