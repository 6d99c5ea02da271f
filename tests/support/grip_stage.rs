#![allow(dead_code)]
//! Stages for the grip tests (issue 33): a character seated on the bundled rod or one of the
//! extra rods with the contact grips on, the characters measured, the instants of the
//! session they are measured at, and calibration as `anglerpose calibrate` does it.

use anglerpose::fishing::{Handedness, Phase, calibrate};
use anglerpose::gltf_io;
use anglerpose::stage::{PropSources, Props, RodSource, Stage, bundled_assets_dir};
use std::path::{Path, PathBuf};

/// The bundled props with the extra rod `rod` (a file in the bundled assets, loaded as an
/// artist's rod) in place of the bundled one (`None`: the bundled rod).
pub fn props_on(rod: Option<&str>) -> Props {
    let dir = bundled_assets_dir();
    let sources = PropSources {
        rod: rod.map(|r| RodSource {
            path: dir.join(r),
            ..Default::default()
        }),
        ..Default::default()
    };
    Props::load_with(&dir, &sources).unwrap()
}

/// The character `file` seated on `rod` (see [`props_on`]) with the contact grips on, for a
/// `handedness` angler, posed.
pub fn stage_on(file: &Path, rod: Option<&str>, handedness: Handedness) -> Stage {
    let mut stage = Stage::new(gltf_io::load(file).unwrap(), props_on(rod)).unwrap();
    stage.inputs.settings.finger_contact = true;
    stage.inputs.state.params.handedness = handedness;
    stage.update().unwrap();
    stage
}

/// The bundled angler and those of `shared` (name, file under `../shared/models`) that are
/// there; without the shared models a skip notice names `test`.
pub fn characters(test: &str, shared: &[(&str, &str)]) -> Vec<(String, PathBuf)> {
    let mut out = vec![(
        "angler".to_string(),
        bundled_assets_dir().join("angler.glb"),
    )];
    if let Some(dir) = super::gltf_edit::shared_models(test) {
        for (name, file) in shared {
            out.push((name.to_string(), dir.join(file)));
        }
    }
    out
}

/// mannequiny, the shared character with finger bones.
pub const MANNEQUINY: (&str, &str) = ("mannequiny", "mannequiny-0.3.0.glb");

/// The seated hold's middle and five times in every phase.
pub fn session_instants() -> Vec<(Phase, f64)> {
    let mut out = vec![(Phase::SeatedHold, 0.5)];
    for phase in Phase::ALL {
        for t in [0.02, 0.3, 0.5, 0.7, 0.98] {
            out.push((phase, t));
        }
    }
    out
}

/// Fits `stage`'s character as `anglerpose calibrate` does (`samples` timeline samples) and
/// uses it.
pub fn calibrate_stage(stage: &mut Stage, samples: usize) {
    let (calibration, _) = calibrate(
        &stage.actor,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        samples,
        anglerpose::fishing::default_threads(),
    )
    .unwrap();
    stage.inputs.calibration = calibration;
    stage.reset_flip_tracking();
}
