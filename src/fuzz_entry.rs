//! What the fuzz targets in `fuzz/fuzz_targets/` run, shared with `tests/fuzz_regressions.rs`
//! so a kept input replays through exactly the same code. Each function takes the raw bytes,
//! returns whether the input got all the way through (parsed and posed), and panics only when
//! an invariant breaks — that is what the fuzzer looks for:
//! - every pose the solver accepts is finite, and so is every file written from it;
//! - a preset written from a posed stage parses back;
//! - an exported animated GLB loads back with the same nodes.
#![doc(hidden)]

use crate::fishing::{SessionState, retarget};
use crate::preset::{self, ClipOptions, Preset};
use crate::stage::Stage;
use std::sync::OnceLock;

fn bundled() -> Option<&'static Stage> {
    static STAGE: OnceLock<Option<Stage>> = OnceLock::new();
    STAGE.get_or_init(|| Stage::bundled().ok()).as_ref()
}

/// A second character for retargeting: CesiumMan from `../shared/models` when present (other
/// proportions, another rig), else the bundled angler again.
fn retarget_target() -> Option<&'static Stage> {
    static STAGE: OnceLock<Option<Stage>> = OnceLock::new();
    STAGE
        .get_or_init(|| {
            let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/models/CesiumMan.glb");
            let character = crate::gltf_io::load(file).ok()?;
            let props = crate::stage::Props::load(&crate::stage::bundled_assets_dir()).ok()?;
            Stage::new(character, props).ok()
        })
        .as_ref()
        .or_else(bundled)
}

fn parse(data: &[u8]) -> Option<Preset> {
    preset::parse_preset(std::str::from_utf8(data).ok()?).ok()
}

/// The bundled angler with the preset of `data` applied and posed; `None` when the bytes are
/// not a preset or the preset cannot be posed there.
fn posed_angler(data: &[u8]) -> Option<Stage> {
    let preset = parse(data)?;
    let mut stage = bundled()?.clone();
    preset.apply_to(&mut stage).ok()?;
    Some(stage)
}

/// The stage is posed and finite everywhere; its preset serialises without `null` and parses.
fn assert_posed_sound(stage: &Stage, what: &str) {
    for b in 0..stage.pose.len() {
        let m = stage.pose.world_from_bone(b);
        assert!(
            m.is_finite(),
            "{what}: accepted pose has a non-finite bone {b}: {m:?}"
        );
    }
    let text = Preset::from_stage(
        stage,
        preset::CharacterRef {
            path: "angler.glb".into(),
            sha256: None,
        },
    )
    .to_json();
    assert!(
        preset::parse_preset(&text).is_ok(),
        "{what}: a preset from the posed stage does not parse back:\n{text}"
    );
}

/// Poses the bundled angler with the preset's calibration, settings and state (what a
/// `calibrate`-written preset feeds the editor), then at three more session times.
pub fn preset_pose(data: &[u8]) -> bool {
    let Some(mut stage) = posed_angler(data) else {
        return false;
    };
    assert_posed_sound(&stage, "apply_to");
    let params = stage.inputs.state.params;
    for u in [0.0, 0.37, 1.0] {
        stage.inputs.state = SessionState::at_fraction(u, params);
        if stage.update().is_err() {
            return false;
        }
        assert_posed_sound(&stage, "timeline");
    }
    true
}

/// Retargets the preset (tuned on the angler) onto another character, poses it there and
/// refines it over a few samples.
pub fn preset_retarget(data: &[u8]) -> bool {
    let (Some(source), Some(target)) = (posed_angler(data), retarget_target()) else {
        return false;
    };
    let (calibration, settings, report) = retarget(
        &source.actor,
        &source.inputs.calibration,
        &source.inputs.settings,
        &target.actor,
    );
    assert!(report.arm_scale.left.is_finite() && report.arm_scale.right.is_finite());
    let mut stage = target.clone();
    stage.inputs.calibration = calibration.clone();
    stage.inputs.settings = settings;
    stage.inputs.state = source.inputs.state;
    if stage.update().is_err() {
        return false;
    }
    assert_posed_sound(&stage, "retargeted");
    let refined = crate::fishing::refine(
        &stage.actor,
        &settings,
        &source.inputs.state.params,
        calibration,
        false,
        4,
        1,
    );
    if let Ok((c, _)) = refined {
        stage.inputs.calibration = c;
        if stage.update().is_ok() {
            assert_posed_sound(&stage, "refined");
        }
    }
    true
}

/// Exports the preset's session as animation clips (4 fps) and loads the file back.
pub fn clip_roundtrip(data: &[u8]) -> bool {
    let Some(mut stage) = posed_angler(data) else {
        return false;
    };
    let options = ClipOptions {
        fps: 4.0,
        ..Default::default()
    };
    let Ok((bytes, clips)) = preset::animated_glb(&mut stage, &options) else {
        return false;
    };
    for clip in &clips {
        assert!(
            clip.max_error <= options.tolerance,
            "{}: bound broken",
            clip.name
        );
        for c in &clip.channels {
            assert!(
                c.values.iter().all(|v| v.is_finite()),
                "{}: non-finite key",
                clip.name
            );
        }
    }
    let back = crate::gltf_io::load_from_bytes(std::path::Path::new("fuzz-clip.glb"), &bytes)
        .unwrap_or_else(|e| panic!("an exported clip does not load back: {e}"));
    // The tackle's nodes (issue 34): the bend chain, a root node per rod mesh skinned on it,
    // the line's root and its three control points, the rod's guides and where the line
    // leaves the reel.
    let names =
        |f: &dyn Fn(&str) -> bool| back.skeleton.bones().iter().filter(|b| f(&b.name)).count();
    let bent = names(&|n| n.ends_with("_bent"));
    let tackle = names(&|n| n.starts_with("rod_bend_"))
        + bent
        + names(&|n| n == "fishing_line" || n.starts_with("line_"));
    // The line is its Bézier's three control points.
    let guides = stage.props.rod_guides.len();
    let reel = usize::from(guides > 0 && stage.props.rod_reel_exit.is_some());
    assert_eq!(
        tackle,
        crate::fishing::rod_bend::BEND_JOINTS + bent + 1 + 3 + guides + reel
    );
    assert_eq!(
        back.skeleton.len(),
        stage.character.skeleton.len() + count_prop_nodes(&stage) + tackle
    );
    true
}

/// Nodes the export adds besides the character's: a holder per prop and its nodes.
fn count_prop_nodes(stage: &Stage) -> usize {
    let p = &stage.props;
    3 + p.rod.skeleton.len() + p.net.skeleton.len() + p.stool.skeleton.len()
}
