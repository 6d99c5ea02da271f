//! Solver settings: the global switches plus, per arm, which solver poses it (the seed-001
//! two-bone solver or the three.js-exact CCD solver of [`crate::ik::ccd`]) and that solver's
//! parameters and joint limits.
//!
//! Angles are radians. Plain `Copy` data (undo snapshots and presets store it as is).

use super::rules::{self, FieldProblem, Path};
use crate::ik::two_bone::ElbowLimit;
use crate::rig::Side;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Which solver poses an arm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmSolverKind {
    /// Seed 001's two-bone solver with pole, softening and the elbow hinge limit.
    #[default]
    TwoBone,
    /// three.js r187 `CCDIKSolver` semantics on the chain hand ← forearm ← upper arm.
    Ccd,
}

impl ArmSolverKind {
    /// Both solvers, two-bone first.
    pub const ALL: [ArmSolverKind; 2] = [ArmSolverKind::TwoBone, ArmSolverKind::Ccd];

    /// Name for the UI (`two-bone`, `CCD`).
    pub fn label(self) -> &'static str {
        match self {
            ArmSolverKind::TwoBone => "two-bone",
            ArmSolverKind::Ccd => "CCD",
        }
    }
}

/// The links of a CCD arm chain, effector side first (three.js `links[0]` is the effector's
/// parent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CcdLinkRole {
    /// The forearm: the effector's parent (three.js `links[0]`).
    Forearm,
    /// The upper arm.
    UpperArm,
}

impl CcdLinkRole {
    /// Both links, forearm first (three.js link order).
    pub const ALL: [CcdLinkRole; 2] = [CcdLinkRole::Forearm, CcdLinkRole::UpperArm];

    /// The snake_case key used in problem paths (`forearm`, `upper_arm`).
    pub fn name(self) -> &'static str {
        match self {
            CcdLinkRole::Forearm => "forearm",
            CcdLinkRole::UpperArm => "upper_arm",
        }
    }

    /// Position in [`CcdLinkRole::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One CCD link's limits (three.js `BoneLink`), on the link's local rotation relative to the
/// previous link of the chain (its parent bone's frame when the bones are parent and child).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcdLinkLimits {
    /// This link's own limit switch (the global `limits_enabled` still overrides it).
    pub enabled: bool,
    /// Hinge axis in the link's local frame (three.js `limitation`), or none.
    pub limitation: Option<DVec3>,
    /// Euler XYZ lower / upper bounds (three.js `rotationMin` / `rotationMax`), or none.
    pub rotation_min: Option<DVec3>,
    /// Euler XYZ upper bounds (three.js `rotationMax`), or none.
    pub rotation_max: Option<DVec3>,
}

impl CcdLinkLimits {
    /// No limits (a free ball joint), switched on.
    pub const FREE: Self = Self {
        enabled: true,
        limitation: None,
        rotation_min: None,
        rotation_max: None,
    };
}

/// The CCD chain of one arm: three.js `IK` parameters and one limit set per link.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcdArmSettings {
    /// Passes per pose update (every update starts again from the seated base pose).
    pub iterations: u32,
    /// three.js `minAngle`: step angles below it are raised to it (radians).
    pub min_angle: Option<f64>,
    /// three.js `maxAngle`: caps every step (radians).
    pub max_angle: Option<f64>,
    /// three.js `blendFactor`: the chain's own blend with the base pose; `None` uses the global
    /// `weight`.
    pub blend_factor: Option<f64>,
    /// Limits of the forearm link.
    pub forearm: CcdLinkLimits,
    /// Limits of the upper-arm link.
    pub upper_arm: CcdLinkLimits,
    /// Not in three.js: once the passes have gone planar (every later step turns both links
    /// about one axis), the arm jumps to where they converge instead of running them out
    /// (`ik::ccd::CcdChain::planar_finish`). Near full reach three's passes close only a
    /// sliver of the gap each and stop millimetres short after 64; with this on the arm
    /// reaches in a pass or two. Off: three's passes alone, up to `iterations`. On by
    /// default; presets without it read on.
    #[serde(default = "planar_finish_default")]
    pub planar_finish: bool,
}

fn planar_finish_default() -> bool {
    true
}

impl CcdArmSettings {
    /// Iterations above this are refused (a pose update must stay interactive).
    pub const MAX_ITERATIONS: u32 = 1000;

    /// The limits of link `role`.
    pub fn link(&self, role: CcdLinkRole) -> &CcdLinkLimits {
        match role {
            CcdLinkRole::Forearm => &self.forearm,
            CcdLinkRole::UpperArm => &self.upper_arm,
        }
    }

    /// The limits of link `role`, mutably.
    pub fn link_mut(&mut self, role: CcdLinkRole) -> &mut CcdLinkLimits {
        match role {
            CcdLinkRole::Forearm => &mut self.forearm,
            CcdLinkRole::UpperArm => &mut self.upper_arm,
        }
    }
}

impl Default for CcdArmSettings {
    /// 64 passes; the elbow a hinge about its local +X (the bundled angler's bend axis on both
    /// sides) bending 2°..150° — never quite straight, because a straight CCD arm cannot
    /// start folding toward a nearer target; the upper arm free (its Euler range switched off).
    fn default() -> Self {
        Self {
            iterations: 64,
            min_angle: None,
            max_angle: None,
            blend_factor: None,
            planar_finish: true,
            forearm: CcdLinkLimits {
                enabled: true,
                limitation: Some(DVec3::X),
                rotation_min: Some(DVec3::new(2f64.to_radians(), 0.0, 0.0)),
                rotation_max: Some(DVec3::new(150f64.to_radians(), 0.0, 0.0)),
            },
            upper_arm: CcdLinkLimits {
                enabled: false,
                limitation: None,
                rotation_min: Some(DVec3::new(-180.0, -90.0, -180.0) * DEG),
                rotation_max: Some(DVec3::new(180.0, 90.0, 180.0) * DEG),
            },
        }
    }
}

/// Radians per degree.
const DEG: f64 = std::f64::consts::PI / 180.0;

/// One arm's solver choice and the parameters of both solvers (the unused one is kept, so
/// switching back and forth loses nothing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmSettings {
    /// Which solver poses this arm.
    pub solver: ArmSolverKind,
    /// The two-bone elbow hinge limit of this arm.
    pub elbow_limit: ElbowLimit,
    /// Two-bone only: a turn of the elbow about the shoulder → wrist line after the solve,
    /// radians in −π..=π (positive counter-clockwise looking from the shoulder toward the
    /// wrist); the wrist stays on its target. Presets without it read 0.
    #[serde(default)]
    pub twist: f64,
    /// The CCD solver's parameters for this arm.
    pub ccd: CcdArmSettings,
}

impl Default for ArmSettings {
    fn default() -> Self {
        Self {
            solver: ArmSolverKind::TwoBone,
            elbow_limit: ElbowLimit::from_degrees(2.0, 150.0),
            twist: 0.0,
            ccd: CcdArmSettings::default(),
        }
    }
}

/// Solver settings: global switches and one [`ArmSettings`] per arm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverSettings {
    /// Global switch for all angle limits: off overrides every per-joint switch.
    pub limits_enabled: bool,
    /// ozz-style softening ratio of the two-bone solver (1 = off).
    pub soften: f64,
    /// Blend of the arm IK with the base pose (CCD chains without their own blend use it too).
    pub weight: f64,
    /// The settings of each arm.
    pub arms: crate::fishing::PerSide<ArmSettings>,
    /// Fingers close on the handle until their skin touches it and the palm sits on its
    /// surface (issue 33); off: the parametric curl of `finger_curl` / `thumb_curl`. Presets
    /// without the key read on.
    #[serde(default = "contact_on")]
    pub finger_contact: bool,
    /// The head follows the fishing (issue 34): on/off and weight. Presets without it read on
    /// at full weight.
    #[serde(default)]
    pub look: super::head_look::LookSettings,
}

fn contact_on() -> bool {
    true
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            limits_enabled: true,
            soften: 1.0,
            weight: 1.0,
            arms: Default::default(),
            finger_contact: true,
            look: Default::default(),
        }
    }
}

impl SolverSettings {
    /// The settings of the `side` arm.
    pub fn arm(&self, side: Side) -> &ArmSettings {
        self.arms.get(side)
    }

    /// The settings of the `side` arm, mutably.
    pub fn arm_mut(&mut self, side: Side) -> &mut ArmSettings {
        self.arms.get_mut(side)
    }

    /// The elbow limit the two-bone solver of `side` uses: its own, switched off when the
    /// global switch is off.
    pub fn effective_elbow_limit(&self, side: Side) -> ElbowLimit {
        let mut limit = self.arm(side).elbow_limit;
        limit.enabled &= self.limits_enabled;
        limit
    }

    /// Every broken rule with its JSON path under `prefix` (e.g.
    /// `settings.arms.left.ccd.iterations`): elbow limits in 0..=π with min ≤ max, soften and
    /// weight in 0..=1, CCD iterations, step angles, blend and link limits. The preset checker
    /// and the poser both use this list.
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        use crate::ik::two_bone::{BEND_RANGE, SOFTEN_RANGE, TWIST_RANGE, WEIGHT_RANGE};
        let mut out = Vec::new();
        let root = Path::root(prefix);
        let arms = root.join("arms");
        for side in crate::fishing::SIDES {
            let arm = self.arm(side);
            let p = arms.join(side.name());
            let lim = &arm.elbow_limit;
            let limit = p.join("elbow_limit");
            let min_path = limit.join("min_bend");
            rules::in_range(lim.min_bend, &min_path, BEND_RANGE, &mut out);
            rules::in_range(lim.max_bend, &limit.join("max_bend"), BEND_RANGE, &mut out);
            if lim.min_bend.is_finite() && lim.max_bend.is_finite() && lim.min_bend > lim.max_bend {
                rules::push(
                    &mut out,
                    min_path.to_string(),
                    format!(
                        "min_bend {} is greater than max_bend {}",
                        lim.min_bend, lim.max_bend
                    ),
                );
            }
            rules::in_range(arm.twist, &p.join("twist"), TWIST_RANGE, &mut out);
            arm.ccd.check(&p.join("ccd"), &mut out);
        }
        rules::in_range(self.soften, &root.join("soften"), SOFTEN_RANGE, &mut out);
        rules::in_range(self.weight, &root.join("weight"), WEIGHT_RANGE, &mut out);
        self.look.check(&root.join("look"), &mut out);
        out
    }

    /// The first of [`SolverSettings::problems`].
    ///
    /// # Errors
    /// The first problem, as `path: message`, when a rule is broken.
    pub fn validate(&self) -> Result<(), String> {
        rules::first(self.problems(""))
    }
}

impl CcdArmSettings {
    /// The CCD chain's rules (see [`SolverSettings::problems`]), appended to `out`.
    pub fn problems(&self, prefix: &str, out: &mut Vec<FieldProblem>) {
        self.check(&Path::root(prefix), out);
    }

    fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        use std::f64::consts::PI;
        let max = CcdArmSettings::MAX_ITERATIONS;
        if !(1..=max).contains(&self.iterations) {
            rules::push(
                out,
                at.join("iterations").to_string(),
                format!("{} is outside 1..={max}", self.iterations),
            );
        }
        for (what, v, hi) in [
            ("min_angle", self.min_angle, PI),
            ("max_angle", self.max_angle, PI),
            ("blend_factor", self.blend_factor, 1.0),
        ] {
            if let Some(v) = v {
                rules::number(v, &at.join(what), 0.0, hi, out);
            }
        }
        for role in CcdLinkRole::ALL {
            let l = self.link(role);
            let p = at.join(role.name());
            if let Some(a) = l.limitation {
                let before = out.len();
                let path = p.join("limitation");
                rules::finite3(a, &path, out);
                if out.len() == before && a.length_squared() < 1e-12 {
                    rules::push(out, path.to_string(), "the hinge axis has zero length");
                }
            }
            for (what, v) in [
                ("rotation_min", l.rotation_min),
                ("rotation_max", l.rotation_max),
            ] {
                if let Some(v) = v {
                    rules::finite3(v, &p.join(what), out);
                }
            }
            if let (Some(lo), Some(hi)) = (l.rotation_min, l.rotation_max) {
                for i in 0..3 {
                    if lo[i].is_finite() && hi[i].is_finite() && lo[i] > hi[i] {
                        rules::push(
                            out,
                            format!("{}[{i}]", p.join("rotation_min")),
                            format!("{} is greater than rotation_max[{i}] {}", lo[i], hi[i]),
                        );
                    }
                }
            }
        }
    }
}
