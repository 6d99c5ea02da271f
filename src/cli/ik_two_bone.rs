//! `anglerpose ik two-bone --scene FILE.json`: seed-001 two-bone IK on an oracle-format scene
//! with a `twoBone` block; prints local quaternions and world positions per bone plus the
//! solver's report.

use super::scene_file::{SceneArgs, read_scene};
use anglerpose::ik::two_bone::{ElbowLimit, TwoBoneJob};
use anglerpose::oracle::quat_xyzw;
use anyhow::Context;
use serde_json::json;

pub fn run(args: SceneArgs) -> anyhow::Result<()> {
    let scene = read_scene(&args)?;
    let name = args.scene.display();
    let spec = scene.two_bone.as_ref().with_context(|| {
        format!("{name}: twoBone: missing (two-bone scenes need a twoBone block)")
    })?;
    let mut job = TwoBoneJob::new(spec.root, spec.mid, spec.tip, spec.target, spec.pole);
    job.weight = spec.weight.unwrap_or(1.0);
    job.soften = spec.soften.unwrap_or(1.0);
    job.twist = spec.twist.unwrap_or(0.0);
    job.elbow_limit = spec
        .elbow_limit_deg
        .map(|[lo, hi]| ElbowLimit::from_degrees(lo, hi));
    let mut pose = scene.pose.clone();
    let report = job
        .solve(&scene.skeleton, &mut pose)
        .map_err(|e| anyhow::anyhow!("{name}: twoBone: {e}"))?;
    if let Some(b) = (0..pose.len()).find(|&b| !pose.world_from_bone(b).is_finite()) {
        anyhow::bail!("{name}: twoBone: the solve produced a non-finite transform at bones[{b}]");
    }
    let bones: Vec<_> = (0..pose.len())
        .map(|b| {
            json!({
                "name": scene.skeleton.bone(b).name,
                "quaternion": quat_xyzw(pose.local(b).rotation),
                "worldPosition": pose.world_position(b).to_array(),
            })
        })
        .collect();
    let out = json!({ "bones": bones, "report": report });
    outln!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
