//! The assembled angler scene: character, rod, net and stool, the fishing session that poses
//! them, and the plain per-frame draw data (meshes, skin matrices, overlays) the renderer
//! draws. Shared by `anglerpose render` and the editor; headless.

mod ccd_overlays;
mod close_up;
pub use close_up::faces_crossed;
pub mod colors;
pub mod hand_fit;
mod meshes;
mod overlays;
mod props;
pub mod rod_crank;
pub mod rod_file;
pub mod rod_markers;
mod setup;
mod stability_overlay;
mod tackle_draw;
mod view;

pub use meshes::{MeshTable, mesh_data_from_primitive};
pub use overlays::{OverlayOptions, arm_overlays, elbow_limit_arc, sphere_radius};
pub use props::{NetSource, PropSources, Props, RodGrips, RodSource};
pub use setup::{PreparedActor, prepare};
pub use stability_overlay::{
    SLICE_CELLS, SLICE_HALF_EXTENT, SliceFacing, SliceProbe, StabilityReadout, class_hex,
    stability_slices,
};
pub use view::{
    CLOSE_UP_DISTANCE, CameraPreset, ViewOptions, camera_for, camera_for_scaled, close_up_from,
    grip_view_direction,
};

use crate::draw::{FrameData, MeshData, MeshStyle, RigidDraw, SkinnedDraw};
use crate::fishing::{
    ActorError, ActorRig, PoseEvaluation, PoseInputs, Poser, SessionError, SessionState, Tackle,
    TackleJob,
};
use crate::gltf_io::{self, Character, LoadError};
use crate::rig::{CharacterFrame, HumanoidMap, HumanoidOverride, Pose, Transform};
use glam::{DAffine3, DMat4};
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StageError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("{path}: {source}{}", notes.iter().map(|n| format!("; {n}")).collect::<String>())]
    Actor {
        path: PathBuf,
        source: ActorError,
        /// What humanoid detection found (e.g. "front legs of a quadruped?").
        notes: Vec<String>,
    },
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("{path}: humanoid_overrides: {source}")]
    Humanoid {
        path: PathBuf,
        source: crate::rig::HumanoidError,
    },
}

/// Everything needed to pose and draw one angler.
#[derive(Clone, Debug)]
pub struct Stage {
    pub character: Character,
    pub map: HumanoidMap,
    pub actor: ActorRig,
    pub props: Props,
    /// The calibration, solver settings and session state the pose is evaluated from.
    pub inputs: PoseInputs,
    pub world_from_actor: Transform,
    pub pose: Pose,
    /// How the character's file space was brought into actor space (`None`: kept as is).
    pub frame: Option<CharacterFrame>,
    /// What preparing the character did or could not do (shown to the user).
    pub notes: Vec<String>,
    /// Lowest and highest mesh point in the base pose (actor y), when there are vertices.
    pub mesh_height: Option<(f64, f64)>,
    poser: Poser,
    last: Option<PoseEvaluation>,
    /// The line, lure, fish and the rod's bend of the last evaluation (issue 34).
    tackle: Option<Tackle>,
    table: MeshTable,
}

/// The folder of the bundled assets in this source tree.
pub fn bundled_assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

impl Stage {
    /// The bundled angler with the bundled props and default calibration.
    pub fn bundled() -> Result<Self, StageError> {
        let dir = bundled_assets_dir();
        let character = gltf_io::load(dir.join("angler.glb"))?;
        Self::new(character, Props::load(&dir)?)
    }

    /// Any character whose detected humanoid map has both arms: framed, seated and fitted
    /// (see [`prepare`]).
    pub fn new(character: Character, props: Props) -> Result<Self, StageError> {
        Self::with_overrides(character, props, &HumanoidOverride::default())
    }

    /// Like [`Stage::new`], detecting the humanoid with a preset's overrides (which can
    /// rescue a character whose names detection misses).
    pub fn with_overrides(
        character: Character,
        props: Props,
        overrides: &HumanoidOverride,
    ) -> Result<Self, StageError> {
        let prepared = prepare(character, overrides)?;
        Ok(Self::from_prepared(prepared, props)?)
    }

    /// A stage on an already prepared actor.
    pub fn from_prepared(prepared: PreparedActor, props: Props) -> Result<Self, SessionError> {
        let PreparedActor {
            character,
            map,
            actor,
            frame,
            notes,
            mesh_height,
        } = prepared;
        let mut actor = actor;
        actor.gear = props.gear;
        let calibration = actor.default_calibration();
        let settings = actor.default_settings();
        let table = MeshTable::new(&character, &props);
        let mut stage = Self {
            pose: actor.base.clone(),
            character,
            map,
            actor,
            props,
            inputs: PoseInputs::new(calibration, settings, SessionState::default()),
            world_from_actor: Transform::IDENTITY,
            frame,
            notes,
            mesh_height,
            poser: Poser::new(),
            last: None,
            tackle: None,
            table,
        };
        stage.update()?;
        Ok(stage)
    }

    /// The `side` hand's grip frame in the last evaluation (world space; grip frame
    /// convention: origin on the held axis, +Y along it on the thumb side, +Z from the palm
    /// toward the axis), for close-ups.
    pub fn grip_in_world(&self, side: crate::rig::Side) -> Option<Transform> {
        let grip = self.last.as_ref()?.frames.grips.get(side);
        Some(self.world_from_actor.compose_rigid(&grip.actor_from_grip))
    }

    /// The character's seated size relative to the bundled angler (the top of its mesh in
    /// the base pose over the angler's 1.36 m, else its joints' height over 1.345 m); exactly
    /// 1 for the angler itself. Cameras scale by it.
    pub fn size_factor(&self) -> f64 {
        if self.actor.fit.is_identity() {
            return 1.0;
        }
        let k = match self.mesh_height {
            Some((_, top)) => top / 1.36,
            None => self.actor.height / 1.345,
        };
        k.clamp(0.05, 100.0)
    }

    /// Uses other props (an artist's rod, net or seat): the actor holds the new rod's grips,
    /// the session's rod length follows an artist's rod (within the session's 1–5 m), and
    /// the stage re-poses. The mesh handles change: upload [`Stage::mesh_data`] again.
    ///
    /// # Errors
    /// The solver's error when [`Stage::update`] fails; the stage then already holds the
    /// props.
    pub fn set_props(&mut self, props: Props) -> Result<(), SessionError> {
        self.actor.gear = props.gear;
        if props.sources.rod.is_some() {
            self.inputs.state.params.rod_length = props.gear.rod.length.clamp(1.0, 5.0);
        }
        self.table = MeshTable::new(&self.character, &props);
        self.props = props;
        self.reset_flip_tracking();
        self.update()?;
        Ok(())
    }

    /// Moves the hands on the artist's rod (see [`Props::set_rod_grips`]); call
    /// [`Stage::update`] to re-pose.
    ///
    /// # Errors
    /// As [`Props::set_rod_grips`]; the stage is then unchanged.
    pub fn set_rod_grips(&mut self, grips: RodGrips) -> Result<(), rod_file::PropFileError> {
        let moved = grips.butt_offset != self.props.rod_grips().butt_offset;
        self.props.set_rod_grips(grips)?;
        self.actor.gear = self.props.gear;
        if moved {
            self.table = MeshTable::new(&self.character, &self.props);
        }
        Ok(())
    }

    /// Re-poses for the current state, calibration and settings (seed 001's order), and
    /// solves the line, lure and the rod's bend for the same instant.
    pub fn update(&mut self) -> Result<&PoseEvaluation, SessionError> {
        let eval = self.poser.evaluate(
            &self.actor,
            &self.inputs,
            &self.world_from_actor,
            &mut self.pose,
        )?;
        let job = TackleJob {
            state: &self.inputs.state,
            calibration: &self.inputs.calibration,
            fit: &self.actor.fit,
            gear: &self.actor.gear,
            guides: &self.props.rod_guides,
            reel_exit_in_rod: self.props.rod_reel_exit,
        };
        // The poser has checked the session's parameters; a rod whose grips leave no blank
        // draws straight and without a line.
        self.tackle = job
            .solve()
            .inspect_err(|e| tracing::warn!("no line or bend: {e}"))
            .ok();
        self.look_at_the_tackle();
        Ok(self.last.insert(eval))
    }

    /// Turns the head toward what the angler watches (the lure, or the fish once one is on),
    /// when the settings ask for it and the character's head is mapped.
    fn look_at_the_tackle(&mut self) {
        let look = self.inputs.settings.look;
        let (Some(body), Some(tackle)) = (&self.map.body, &self.tackle) else {
            return;
        };
        if !look.enabled {
            return;
        }
        let target = self
            .world_from_actor
            .to_affine()
            .transform_point3(tackle.lure_in_actor);
        let keep: Vec<usize> = crate::fishing::SIDES
            .iter()
            .map(|&side| self.actor.arm(side).upper)
            .collect();
        crate::fishing::head_look::HeadLookJob {
            neck: body.neck,
            head: body.head,
            eyes: &body.eyes,
            target_in_world: target,
            weight: look.weight,
            keep: &keep,
        }
        .solve(&self.actor.skeleton, &mut self.pose);
    }

    /// The line, lure, fish and the rod's bend of the last update (actor space; the bend in
    /// rod space), if they could be solved.
    pub fn tackle(&self) -> Option<&Tackle> {
        self.tackle.as_ref()
    }

    /// Forgets the previous evaluation, so the next update reports no flips (use after a jump
    /// in time rather than a step).
    pub fn reset_flip_tracking(&mut self) {
        self.poser.reset();
    }

    pub fn evaluation(&self) -> Option<&PoseEvaluation> {
        self.last.as_ref()
    }

    /// Meshes to upload, in handle order (mesh `i` is `MeshHandle` number `i`).
    pub fn mesh_data(&self) -> Vec<MeshData> {
        self.table.mesh_data(&self.character, &self.props)
    }

    /// Draw data for the current pose.
    pub fn frame(&self, camera: crate::draw::Camera, options: &ViewOptions) -> FrameData {
        let mut frame = FrameData::new(camera);
        frame.grid = options.grid;
        if options.xray {
            frame.mesh_style = MeshStyle::xray();
        }
        if options.mesh_visible {
            let palettes = gltf_io::skin_matrices(&self.character, &self.pose);
            for (handle, skin) in self.table.skinned() {
                frame.skinned.push(SkinnedDraw {
                    mesh: handle,
                    skin_matrices: palettes.get(skin).cloned().unwrap_or_default(),
                });
            }
        }
        let world = self.world_from_actor.to_affine();
        if let Some(eval) = &self.last {
            let rod = self.table.rod_posed(&self.props.rod_pose(&eval.frames));
            let world_from_rod = world * eval.frames.actor_from_rod.to_affine();
            // A bent rod is drawn skinned on its chain; a straight one as it always was.
            let bent = tackle_draw::bent_rod(self, &rod, &world_from_rod, &mut frame);
            let objects = [
                (if bent { &[][..] } else { &rod[..] }, world_from_rod),
                (
                    self.table.net(),
                    world * eval.frames.actor_from_net.to_affine(),
                ),
                (
                    self.table.stool(),
                    world * self.actor.fit.actor_from_stool.to_affine(),
                ),
                (self.table.rigid_character(), world),
            ];
            for (draws, world_from_object) in objects {
                for &(handle, object_from_mesh) in draws {
                    frame.rigid.push(RigidDraw {
                        mesh: handle,
                        world_from_mesh: to_f32(world_from_object * object_from_mesh),
                        tint: [1.0; 4],
                    });
                }
            }
            if options.overlays.any() {
                frame.overlays = arm_overlays(self, eval, &options.overlays, &camera);
                if options.overlays.spheres {
                    rod_markers::rod_marker_overlays(self, &mut frame.overlays);
                }
            }
        }
        tackle_draw::water_and_line(self, options, &world, &mut frame);
        frame
    }
}

fn to_f32(m: DAffine3) -> [[f32; 4]; 4] {
    DMat4::from(m).as_mat4().to_cols_array_2d()
}
