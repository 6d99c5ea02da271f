//! A runtime pose table a game can load: per sampled time, every bone's local rotation and
//! translation (by bone name) and the rod and net placements in actor-root space.
//!
//! ```json
//! { "format": "anglerpose-pose-table", "version": 1,
//!   "bones": [{"name": "root", "parent": null}, …],
//!   "samples": [{ "time": 0.0, "phase": "seated_hold", "t": 0.0,
//!                 "bones": {"pelvis": {"rotation": [x,y,z,w], "translation": [x,y,z]}, …},
//!                 "props": {"rod": {…}, "net": {…}} }] }
//! ```
//! Rotations are unit quaternions `[x, y, z, w]`, translations metres in the parent's frame.
//! Roots are relative to the actor root. Bone names that repeat get `#<index>` appended.

use crate::fishing::{Phase, SessionError, SessionState};
use crate::rig::Transform;
use crate::stage::Stage;
use serde::Serialize;
use std::collections::BTreeMap;

/// One bone of the table (`bones[i]`), in skeleton order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoneInfo {
    /// The bone's unique key (see [`bone_keys`]).
    pub name: String,
    /// The parent's key; `None` (`null`) for a root.
    pub parent: Option<String>,
}

/// A rotation and translation relative to the parent (or the actor root).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LocalTransform {
    /// Unit quaternion `[x, y, z, w]` (normalised on conversion).
    pub rotation: [f64; 4],
    /// Metres, in the parent's frame.
    pub translation: [f64; 3],
}

impl From<&Transform> for LocalTransform {
    fn from(t: &Transform) -> Self {
        Self {
            rotation: t.rotation.normalize().to_array(),
            translation: t.translation.to_array(),
        }
    }
}

/// The pose at one sampled state (`samples[k]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoseSample {
    /// Seconds from the start of the session timeline.
    pub time: f64,
    /// The phase of the state.
    pub phase: Phase,
    /// Normalised time within the phase, clamped to 0..=1.
    pub t: f64,
    /// Bone key → local transform, for every bone.
    pub bones: BTreeMap<String, LocalTransform>,
    /// `rod` and `net` → placement in actor-root space.
    pub props: BTreeMap<String, LocalTransform>,
}

/// The whole table (see the module docs for the JSON layout).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoseTable {
    /// Always `"anglerpose-pose-table"`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// Every bone in skeleton order.
    pub bones: Vec<BoneInfo>,
    /// One sample per requested state, in order.
    pub samples: Vec<PoseSample>,
}

/// Unique bone keys: the name, or `name#index` for a name used before.
pub fn bone_keys(stage: &Stage) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    stage
        .character
        .skeleton
        .bones()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if seen.insert(b.name.clone()) {
                b.name.clone()
            } else {
                format!("{}#{i}", b.name)
            }
        })
        .collect()
}

/// Poses `stage` at each state in turn (in order, so flip tracking sees a continuous
/// sequence) and records the locals. The stage is left at the last state.
///
/// # Errors
/// The solver's error for the first state that fails (the stage is left at that state).
pub fn pose_table(stage: &mut Stage, states: &[SessionState]) -> Result<PoseTable, SessionError> {
    let keys = bone_keys(stage);
    let bones = stage
        .character
        .skeleton
        .bones()
        .iter()
        .enumerate()
        .map(|(i, b)| BoneInfo {
            name: keys[i].clone(),
            parent: b.parent.map(|p| keys[p].clone()),
        })
        .collect();
    let mut samples = Vec::with_capacity(states.len());
    stage.reset_flip_tracking();
    for state in states {
        stage.inputs.state = *state;
        let frames = stage.update()?.frames;
        let bones = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.clone(), LocalTransform::from(stage.pose.local(i))))
            .collect();
        let props = [
            (
                "net".to_string(),
                LocalTransform::from(&frames.actor_from_net),
            ),
            (
                "rod".to_string(),
                LocalTransform::from(&frames.actor_from_rod),
            ),
        ]
        .into_iter()
        .collect();
        samples.push(PoseSample {
            time: state.time(),
            phase: state.phase,
            t: state.t_clamped(),
            bones,
            props,
        });
    }
    Ok(PoseTable {
        format: "anglerpose-pose-table".to_string(),
        version: 1,
        bones,
        samples,
    })
}

/// `n` states evenly spread over the whole timeline (both ends included; one sample is the
/// start). `n == 0` gives none.
pub fn timeline_states(n: usize, params: crate::fishing::SessionParams) -> Vec<SessionState> {
    (0..n)
        .map(|i| {
            let u = if n > 1 {
                i as f64 / (n - 1) as f64
            } else {
                0.0
            };
            SessionState::at_fraction(u, params)
        })
        .collect()
}
