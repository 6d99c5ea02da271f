//! From a loaded character to a posable actor: the character frame (upright, facing +Z,
//! metres), the seated base pose on the floor, and the props fitted to the body.

use super::StageError;
use crate::fishing::ActorRig;
use crate::fishing::seat::{self, BodyFit};
use crate::gltf_io::{self, Character};
use crate::rig::{CharacterFrame, HumanoidMap, HumanoidOverride, Pose};
use glam::DVec3;

/// A character made ready for the fishing pipeline.
#[derive(Clone, Debug)]
pub struct PreparedActor {
    /// The character with its skeleton carried into actor space.
    pub character: Character,
    pub map: HumanoidMap,
    pub actor: ActorRig,
    /// How the file's space was mapped (`None` without a body: the file frame is kept).
    pub frame: Option<CharacterFrame>,
    /// What was done or could not be done, for the user.
    pub notes: Vec<String>,
    /// Lowest and highest point of the meshes in the base pose (actor y), when there are
    /// vertices: cameras frame by it.
    pub mesh_height: Option<(f64, f64)>,
}

fn detect(character: &Character, overrides: &HumanoidOverride) -> Result<HumanoidMap, StageError> {
    character
        .humanoid(overrides)
        .map_err(|source| StageError::Humanoid {
            path: character.source.clone(),
            source,
        })
}

/// The lowest and highest point of the character's meshes in `pose` (actor y), if it has
/// vertices.
fn mesh_extent(character: &Character, pose: &Pose) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (m, mesh) in character.meshes.iter().enumerate() {
        for p in 0..mesh.primitives.len() {
            for v in gltf_io::skin_positions(character, pose, m, p) {
                lo = lo.min(f64::from(v[1]));
                hi = hi.max(f64::from(v[1]));
            }
        }
    }
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

/// Frames, seats and fits `character`. A character without a full body (hips, head, legs)
/// keeps its file frame and rest pose, with a note saying what is missing.
///
/// # Errors
/// An override naming a bone that does not exist, or an actor that cannot be built (an arm
/// missing, a zero-length palm).
pub fn prepare(
    mut character: Character,
    overrides: &HumanoidOverride,
) -> Result<PreparedActor, StageError> {
    let mut notes = Vec::new();
    let first = detect(&character, overrides)?;
    let rest0 = Pose::rest(&character.skeleton);
    let frame = match CharacterFrame::from_map(&rest0, &first) {
        Ok(f) => Some(f),
        Err(e) => {
            notes.push(format!(
                "{e}; the character keeps its file frame and rest pose"
            ));
            None
        }
    };
    let map = match &frame {
        Some(f) if !f.is_identity() => {
            character.skeleton = f.apply(&character.skeleton);
            if f.unit_scale != 1.0 {
                notes.push(format!("file units scaled by {} to metres", f.unit_scale));
            }
            detect(&character, overrides)?
        }
        _ => first,
    };
    let skeleton = character.skeleton.clone();
    let rest = Pose::rest(&skeleton);
    let (base, fit, mesh_height) = match seat::seat(&skeleton, &rest, &map) {
        Ok(seated) if seated.already_seated => {
            let extent = mesh_extent(&character, &seated.pose);
            (seated.pose, BodyFit::IDENTITY, extent)
        }
        Ok(mut seated) => {
            // Feet on the floor (the mesh's lowest point, else the joints), hips over the
            // origin. The roots only move, so the mesh's extent moves down by `floor`.
            let extent = mesh_extent(&character, &seated.pose);
            let floor = match extent {
                Some((y, _)) => y,
                None => map.body.as_ref().map_or(0.0, |b| {
                    seat::floor_from_joints(&skeleton, &rest, &seated.pose, b)
                }),
            };
            let hips = map
                .body
                .as_ref()
                .map_or(DVec3::ZERO, |b| seated.pose.world_position(b.hips));
            seat::translate_roots(
                &skeleton,
                &mut seated.pose,
                DVec3::new(-hips.x, -floor, -hips.z),
            );
            let fit = BodyFit::new(&seated.pose, &map, false);
            let extent = extent.map(|(lo, hi)| (lo - floor, hi - floor));
            (seated.pose, fit, extent)
        }
        Err(_) => {
            let extent = mesh_extent(&character, &rest);
            (rest.clone(), BodyFit::IDENTITY, extent)
        }
    };
    let mut actor =
        ActorRig::with_base(skeleton, base, &map, fit).map_err(|source| StageError::Actor {
            path: character.source.clone(),
            source,
            notes: map.notes.clone(),
        })?;
    actor.set_hand_shapes(super::hand_fit::fit_hands(&character, &actor));
    Ok(PreparedActor {
        character,
        map,
        actor,
        frame,
        notes,
        mesh_height,
    })
}
