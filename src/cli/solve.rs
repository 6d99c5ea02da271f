//! `anglerpose solve`: poses the bundled angler for one session state (or samples the whole
//! timeline) and prints JSON.

use super::render::parse_phase;
use anglerpose::fishing::{Handedness, Phase, SessionState, analyse_timeline};
use anglerpose::oracle::quat_xyzw;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Preset file (default: the bundled angler with default calibration).
    #[arg(long)]
    pub preset: Option<PathBuf>,
    /// Session phase (seated_hold, cast_wind_up, cast_forward, release, retrieve, strike,
    /// landing); default: the preset's state, or seated_hold.
    #[arg(long, value_parser = parse_phase)]
    pub phase: Option<Phase>,
    /// Normalised time within the phase, 0..1 (default: the preset's, or 0).
    #[arg(long)]
    pub t: Option<f64>,
    /// Instead of one state, sample the whole timeline N times and report flips, out-of-reach
    /// runs and limit clamps.
    #[arg(long, conflicts_with_all = ["phase", "t"])]
    pub timeline: Option<usize>,
    /// Pose a left-handed angler.
    #[arg(long)]
    pub left_handed: bool,
}

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    let mut stage = super::render::load_stage(args.preset.as_deref(), None)?;
    if args.left_handed {
        stage.inputs.state.params.handedness = Handedness::Left;
    }
    let out = match args.timeline {
        Some(n) => {
            if !(2..=1_000_000).contains(&n) {
                anyhow::bail!("--timeline {n}: use 2..=1000000 samples");
            }
            let analysis = analyse_timeline(
                &stage.actor,
                &stage.inputs.calibration,
                &stage.inputs.settings,
                &stage.inputs.state.params,
                n,
            )?;
            json!({
                "samples": n,
                "duration": stage.inputs.state.params.total_duration(),
                "flips": analysis.flips,
                "out_of_reach": analysis.out_of_reach,
                "limit_clamps": analysis.limit_clamps,
                "arms": analysis.samples,
            })
        }
        None => {
            let phase = args.phase.unwrap_or(stage.inputs.state.phase);
            let t = args.t.unwrap_or(if args.phase.is_some() {
                0.0
            } else {
                stage.inputs.state.t
            });
            if !(t.is_finite() && (0.0..=1.0).contains(&t)) {
                anyhow::bail!("--t {t} is outside 0..1");
            }
            stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
            let eval = *stage.update()?;
            // Every node is reported: a later node with an already used name is keyed
            // `name#index` (its bone index = glTF node index), e.g. `Foot.L#17`.
            let mut seen = std::collections::HashSet::new();
            let bones: serde_json::Map<String, serde_json::Value> = (0..stage.pose.len())
                .map(|b| {
                    let name = stage.actor.skeleton.bone(b).name.clone();
                    let key = if seen.insert(name.clone()) {
                        name
                    } else {
                        format!("{name}#{b}")
                    };
                    (
                        key,
                        json!({
                            "quaternion": quat_xyzw(stage.pose.local(b).rotation),
                            "world_position": stage.pose.world_position(b).to_array(),
                            // The key before the output became snake_case throughout, kept
                            // for the tools that read it (to be dropped in 0.3).
                            "worldPosition": stage.pose.world_position(b).to_array(),
                        }),
                    )
                })
                .collect();
            let flips: Vec<&str> = [
                ("left", eval.arms.left.flipped),
                ("right", eval.arms.right.flipped),
            ]
            .into_iter()
            .filter(|(_, f)| *f)
            .map(|(s, _)| s)
            .collect();
            json!({
                "state": stage.inputs.state,
                "time": stage.inputs.state.time(),
                "bones": bones,
                "arms": eval.arms,
                "rod": eval.frames.actor_from_rod,
                "net": eval.frames.actor_from_net,
                "flips": flips,
            })
        }
    };
    outln!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
