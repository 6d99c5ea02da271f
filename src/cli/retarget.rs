//! `anglerpose retarget PRESET --to CHARACTER --out NEW.json`: carries a preset tuned on one
//! character to another through the humanoid map, normalised by the body, then (unless
//! `--no-refine`) re-chooses the rod adjustment and poles for the new body while every grip
//! keeps its place on the rod.

use anglerpose::fishing::{retarget, retarget_refined};
use anglerpose::preset::{Preset, io as preset_io};
use anglerpose::rig::HumanoidOverride;
use anglerpose::stage::Stage;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RetargetArgs {
    /// The preset to carry over.
    pub preset: PathBuf,
    /// The character (.glb/.gltf/.vrm/.fbx) it is for now.
    #[arg(long)]
    pub to: PathBuf,
    /// Where to write the new preset (atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Keep the mapped rod adjustment and poles as they are (no search on the new body).
    #[arg(long)]
    pub no_refine: bool,
    /// Timeline samples for the refinement.
    #[arg(long, default_value_t = 600)]
    pub samples: usize,
}

/// The source preset's overrides re-resolved on `target`: a role whose bone name exists there
/// is kept, others are dropped (the target's own detection decides) and reported.
fn resolve_overrides(
    overrides: &HumanoidOverride,
    target: &anglerpose::gltf_io::Character,
    notes: &mut Vec<String>,
) -> HumanoidOverride {
    let mut kept = HumanoidOverride::default();
    for (role, name) in &overrides.bones {
        if target.skeleton.find(name).is_some() {
            kept.set(*role, name.clone());
        } else {
            notes.push(format!(
                "humanoid override {role} = {name:?}: no such bone in {}; detected instead",
                target.source.display()
            ));
        }
    }
    kept
}

pub fn run(args: RetargetArgs) -> anyhow::Result<()> {
    let preset = preset_io::load_preset(&args.preset)?;
    let (source, warnings) = preset_io::load_stage(&args.preset, &preset)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let character = anglerpose::gltf_io::load(&args.to)?;
    let mut notes = Vec::new();
    let overrides = resolve_overrides(&preset.humanoid_overrides, &character, &mut notes);
    let map = character.detect_humanoid();
    if let Some(why) = super::calibrate::refusal(&character.source, &map)
        && overrides.bones.is_empty()
    {
        anyhow::bail!(why);
    }
    let props = source.props.clone();
    let target_path = character.source.clone();
    let mut stage = Stage::with_overrides(character, props, &overrides)
        .with_context(|| format!("{} cannot take the preset", target_path.display()))?;
    // Refined over the source preset's session, which the output keeps.
    let source_rig = (
        &source.actor,
        &source.inputs.calibration,
        &source.inputs.settings,
    );
    let (calibration, settings, report) = if args.no_refine {
        let (mapped, settings, report) =
            retarget(source_rig.0, source_rig.1, source_rig.2, &stage.actor);
        (mapped, settings, report)
    } else {
        let (refined, settings, report, r) = retarget_refined(
            source_rig,
            &stage.actor,
            &source.inputs.state.params,
            args.samples.max(2),
            anglerpose::fishing::default_threads(),
        )?;
        outln!(
            "refined over {} samples: reached left {:.1}%, right {:.1}%, {} flip(s)",
            r.samples,
            100.0 * r.reached_fraction.left,
            100.0 * r.reached_fraction.right,
            r.flips
        );
        (refined, settings, report)
    };
    notes.extend(report.notes.iter().cloned());
    stage.inputs.calibration = calibration;
    stage.inputs.settings = settings;
    stage.inputs.state = source.inputs.state;
    stage.reset_flip_tracking();
    stage.update()?;
    let (rod, net, seat) = preset_io::prop_refs(&args.out, &stage.props.sources)?;
    let mut out = Preset {
        character: preset_io::character_ref(&args.out, &args.to)?,
        rod,
        net,
        seat,
        humanoid_overrides: overrides,
        ..Preset::from_stage(&stage, preset.character.clone())
    };
    // Named poses keep their states; their own calibrations are carried the same way.
    for (name, pose) in &preset.poses {
        let mut pose = pose.clone();
        if let Some(c) = &pose.calibration {
            pose.calibration =
                Some(retarget(&source.actor, c, &source.inputs.settings, &stage.actor).0);
        }
        out.poses.insert(name.clone(), pose);
    }
    preset_io::save_preset_atomic(&args.out, &out)?;
    outln!(
        "arm scale left {:.3}, right {:.3}",
        report.arm_scale.left,
        report.arm_scale.right
    );
    for n in &notes {
        outln!("not mapped: {n}");
    }
    eprintln!("wrote {}", args.out.display());
    Ok(())
}
