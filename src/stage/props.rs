//! The rod, net and seat the angler uses: the bundled models, or an artist's own (issue 20).
//!
//! An artist's model is brought into its object's canonical space when it is loaded: the
//! transform found from its geometry ([`crate::fishing::rod_model`],
//! [`crate::fishing::net_model`]) is baked into the file's root nodes, so every consumer
//! (the mesh table, the posed and animated exports) places it exactly like the bundled one.
//! A seat keeps the file's up axis (+Y, as glTF says): it is stood on the floor, centred and
//! scaled so that its top is at the bundled stool's height, and then fitted to the body like
//! the stool.

use super::rod_crank::{CrankRest, modelled_crank, turn_crank};
use super::rod_file::{PropFileError, model_points, model_points_except, refuse_character};
use crate::assetgen::props::{REEL_CRANK_NODE, STOOL_HEIGHT};
use crate::fishing::net_model::{NetModel, detect_net};
use crate::fishing::rod_guides::{RodGuide, find_line_run};
use crate::fishing::rod_model::{RodHints, RodModel};
use crate::fishing::{Gear, RodGear, SessionFrames, rules};
use crate::gltf_io::{self, Character, LoadError};
use crate::rig::{Pose, Side, Skeleton, Transform};
use glam::{DQuat, DVec3};
use std::path::{Path, PathBuf};

/// The artist's corrections of where detection put the hands on a rod (`None`: as
/// detected). Editor markers along the blank set the first two.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RodGrips {
    /// The rear grip, metres from the butt.
    pub rear_grip: Option<f64>,
    /// The reel seat, metres from the butt.
    pub reel_seat: Option<f64>,
    /// Whether the reel sits on top of the blank in use (a baitcaster).
    pub reel_above: Option<bool>,
    /// The butt, metres up the blank from the end (a gimbal or cap the hands do not count).
    pub butt_offset: Option<f64>,
}

/// An artist's rod file and the corrections of what detection found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RodSource {
    /// The file.
    pub path: PathBuf,
    /// The real length in metres when the file is not in metres (default: centimetres or
    /// millimetres where that fits, else 2.4 m).
    pub length: Option<f64>,
    /// The butt is at the other end than the thicker one.
    pub flip_ends: bool,
    /// Corrections of the detected butt and grips.
    pub grips: RodGrips,
}

/// An artist's net file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetSource {
    /// The file.
    pub path: PathBuf,
    /// The real length in metres when the file is not in metres (default: centimetres or
    /// millimetres where that fits, else 1.7 m).
    pub length: Option<f64>,
}

/// Which props come from the artist's files (`None`: the bundled one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PropSources {
    /// The rod.
    pub rod: Option<RodSource>,
    /// The landing net.
    pub net: Option<NetSource>,
    /// The seat (stool).
    pub seat: Option<PathBuf>,
}

/// The props (rigid meshes, each in its own canonical object space; see `fishing::session_frames`) and
/// where the hands hold them.
#[derive(Clone, Debug)]
pub struct Props {
    /// The rod, in rod space.
    pub rod: Character,
    /// The net, in net space.
    pub net: Character,
    /// The seat, in stool space (origin on the floor below the seat, top at 0.45 m).
    pub stool: Character,
    /// Grip points, crank and handle radii of the rod and net.
    pub gear: Gear,
    /// What detection found in the artist's rod, with the artist's butt offset (`None` for
    /// the bundled one).
    pub rod_model: Option<RodModel>,
    /// The artist's rod skeleton as in its file (not yet in rod space) and the detection
    /// before any butt offset: a new offset re-places the rod without reading the file.
    rod_file: Option<Box<(Skeleton, RodModel)>>,
    /// What detection found in the artist's net (`None` for the bundled one).
    pub net_model: Option<NetModel>,
    /// The artist's files in use.
    pub sources: PropSources,
    /// The rod's guides, rod space (found in its mesh; see `fishing::rod_guides`).
    pub rod_guides: Vec<RodGuide>,
    /// Where the line leaves the reel, rod space (`None`: the line starts at the first guide,
    /// or at the tip without guides).
    pub rod_reel_exit: Option<DVec3>,
    /// The rod's node that turns with the reel's crank (the bundled rod's `reel_crank`, or
    /// an artist's node named for its crank; see [`Props::rod_pose`]). `None`: the crank is
    /// drawn as modelled.
    pub rod_crank: Option<usize>,
    /// How [`Props::rod_crank`] is modelled (the bundled rod's: the knob toward the tip, on
    /// the rear hand's side).
    pub rod_crank_rest: CrankRest,
}

impl Props {
    /// The bundled rod, net and stool from `assets`.
    ///
    /// # Errors
    /// A bundled file that does not load.
    pub fn load(assets: &Path) -> Result<Self, LoadError> {
        Ok(Self {
            rod: gltf_io::load(assets.join("rod.glb"))?,
            net: gltf_io::load(assets.join("net.glb"))?,
            stool: gltf_io::load(assets.join("stool.glb"))?,
            gear: Gear::BUNDLED,
            rod_model: None,
            rod_file: None,
            net_model: None,
            sources: PropSources::default(),
            rod_crank: None,
            rod_crank_rest: CrankRest::default(),
            rod_guides: Vec::new(),
            rod_reel_exit: None,
        }
        .with_bundled_crank()
        .with_guides())
    }

    /// The rod's guides found in its meshes at rest.
    fn with_guides(mut self) -> Self {
        self.find_line_run();
        self
    }

    /// The guides, the reel's line exit and (an artist's spinning rod) the reel's stem and
    /// body of the rod in use.
    fn find_line_run(&mut self) {
        let rod = &self.gear.rod;
        let points = model_points(&self.rod);
        (self.rod_guides, self.rod_reel_exit) = find_line_run(&points, rod.length, rod.reel_seat);
        if let Some(model) = &self.rod_model {
            self.gear.rod.stem = model.stem(&points, &self.gear.rod);
            // The body without the crank that turns beside it (the rear hand holds that).
            self.gear.rod.reel_body = if self.gear.rod.reel_above {
                self.gear.rod.reel_body
            } else if self.rod_crank.is_some() {
                let reel = model_points_except(&self.rod, self.rod_crank);
                model.body_below(&reel, &self.gear.rod)
            } else {
                model.body_below(&points, &self.gear.rod)
            };
        }
    }

    /// The bundled rod's crank node, found by name.
    fn with_bundled_crank(mut self) -> Self {
        self.rod_crank = self.rod.skeleton.find(REEL_CRANK_NODE);
        self
    }

    /// The rod's nodes (rod space) with its crank turned as `frames` have it: by the crank
    /// angle (less the knob's angle as modelled) about the hold frame's X axis through the
    /// crank node's origin (see `fishing::reel_handle_in_hold`), so the knob is where the rear
    /// hand cranks it. A left-handed session cranks on the reel's other side: the crank is
    /// drawn as its mirror image across the blank (see [`super::rod_crank::turn_crank`]). A
    /// rod without a turning crank is at its rest.
    pub fn rod_pose(&self, frames: &SessionFrames) -> Pose {
        let skeleton = &self.rod.skeleton;
        let mut pose = Pose::rest(skeleton);
        let Some(node) = self.rod_crank else {
            return pose;
        };
        let left_handed = frames.front_side == Side::Left;
        let rest = self.rod_crank_rest;
        if frames.crank == rest.rest_angle && left_handed == rest.mirrored {
            return pose;
        }
        turn_crank(
            &mut pose,
            skeleton,
            (node, rest),
            self.gear.rod.hold_from_model(),
            frames.crank,
            left_handed,
        );
        pose
    }

    /// An artist's rod's crank: a node named for it whose knob can be fitted turns with the
    /// session, and its knob's circle (on the rear hand's side, see
    /// [`super::rod_crank::on_rear_side`]) is the gear's crank; otherwise the crank is drawn as
    /// modelled and the gear keeps the one guessed from the reel's size.
    fn find_crank(&mut self) {
        self.rod_crank = None;
        self.rod_crank_rest = CrankRest::default();
        match modelled_crank((&self.rod.skeleton, &self.rod.meshes), &self.gear.rod) {
            Some((node, Some((fit, rest)))) => {
                self.gear.rod.crank = fit.crank;
                self.rod_crank = Some(node);
                self.rod_crank_rest = rest;
            }
            Some((node, None)) => tracing::warn!(
                "rod node {:?} is named for a crank but has no knob off its axis: drawn as modelled",
                self.rod.skeleton.bones()[node].name
            ),
            None => {}
        }
    }

    /// The bundled props from `assets` with the artist's files of `sources` in their place.
    ///
    /// # Errors
    /// A file that does not load or is not what it is used as; the message names the file.
    pub fn load_with(assets: &Path, sources: &PropSources) -> Result<Self, PropFileError> {
        let mut props = Self::load(assets).map_err(PropFileError::Load)?;
        if let Some(rod) = &sources.rod {
            props.set_rod(rod)?;
        }
        if let Some(net) = &sources.net {
            props.set_net(net)?;
        }
        if let Some(seat) = &sources.seat {
            props.set_seat(seat)?;
        }
        Ok(props)
    }

    /// Uses the rod file of `source`, in its canonical frame.
    ///
    /// # Errors
    /// The file does not load, is a character, is not rod-shaped, or the corrections put the
    /// grips off the rod.
    pub fn set_rod(&mut self, source: &RodSource) -> Result<(), PropFileError> {
        let file = load(&source.path)?;
        let hints = RodHints {
            real_length: source.length,
            flip_ends: source.flip_ends,
            butt_offset: 0.0,
        };
        let detected = super::rod_file::rod_model_with(&file, &hints)?;
        let (model, gear) = rod_gear(&detected, &source.grips, &source.path)?;
        let file_skeleton = file.skeleton.clone();
        self.rod = placed(file, &Transform::from_affine(&model.rod_from_file()));
        self.gear.rod = gear;
        self.rod_model = Some(model);
        self.rod_file = Some(Box::new((file_skeleton, detected)));
        self.sources.rod = Some(source.clone());
        self.find_crank();
        self.find_line_run();
        Ok(())
    }

    /// Moves the butt and the hands on the artist's rod to `grips` (no file is read; a new
    /// butt offset re-places the model in rod space, so the mesh table must be rebuilt).
    ///
    /// # Errors
    /// [`PropFileError::Grips`] when the grips leave the rod or the butt offset does not fit
    /// it, or when `grips` corrects the bundled rod (which has no detection to correct); the
    /// props are then unchanged.
    pub fn set_rod_grips(&mut self, grips: RodGrips) -> Result<(), PropFileError> {
        match (&mut self.sources.rod, &self.rod_file) {
            (Some(source), Some(file)) => {
                let (file_skeleton, detected) = file.as_ref();
                let (model, gear) = rod_gear(detected, &grips, &source.path)?;
                if grips.butt_offset != source.grips.butt_offset {
                    let rod_from_file = Transform::from_affine(&model.rod_from_file());
                    self.rod.skeleton = file_skeleton.with_roots_under(&rod_from_file);
                }
                self.gear.rod = gear;
                self.rod_model = Some(model);
                source.grips = grips;
                self.find_crank();
                self.find_line_run();
                Ok(())
            }
            _ if grips == RodGrips::default() => Ok(()),
            _ => Err(PropFileError::Grips {
                path: "the bundled rod".into(),
                why: "only an artist's rod has detected grips to correct".into(),
            }),
        }
    }

    /// The corrections of the artist's rod grips (none for the bundled rod).
    pub fn rod_grips(&self) -> RodGrips {
        self.sources
            .rod
            .as_ref()
            .map(|r| r.grips)
            .unwrap_or_default()
    }

    /// Uses the net file of `source`, in its canonical frame.
    ///
    /// # Errors
    /// The file does not load, is a character, or is not net-shaped.
    pub fn set_net(&mut self, source: &NetSource) -> Result<(), PropFileError> {
        let file = load(&source.path)?;
        refuse_character(&file)?;
        let path = file.source.display().to_string();
        let model = detect_net(&model_points(&file), source.length)
            .map_err(|source| PropFileError::Shape { path, source })?;
        self.net = placed(
            file,
            &Transform::from_affine(&model.file_from_net.inverse()),
        );
        self.gear.net = model.gear;
        self.net_model = Some(model);
        self.sources.net = Some(source.clone());
        Ok(())
    }

    /// Uses the seat file at `path`: stood on the floor, centred, its top at the bundled
    /// stool's height.
    ///
    /// # Errors
    /// The file does not load, is a character, or has no height.
    pub fn set_seat(&mut self, path: &Path) -> Result<(), PropFileError> {
        let file = load(path)?;
        refuse_character(&file)?;
        let points = model_points(&file);
        let (lo, hi) = points.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let height = hi.y - lo.y;
        if points.is_empty() || !(height.is_finite() && height > 0.0) {
            return Err(PropFileError::Flat {
                path: path.display().to_string(),
            });
        }
        let k = STOOL_HEIGHT / height;
        let centre = DVec3::new(0.5 * (lo.x + hi.x), lo.y, 0.5 * (lo.z + hi.z));
        let stool_from_file = Transform::new(-centre * k, DQuat::IDENTITY, DVec3::splat(k));
        self.stool = placed(file, &stool_from_file);
        self.sources.seat = Some(path.to_path_buf());
        Ok(())
    }
}

/// `detected` with `grips`' butt offset, and the grips on it with their corrections, checked.
fn rod_gear(
    detected: &RodModel,
    grips: &RodGrips,
    path: &Path,
) -> Result<(RodModel, RodGear), PropFileError> {
    let model = detected
        .clone()
        .shifted(grips.butt_offset.unwrap_or(0.0))
        .map_err(|e| PropFileError::Grips {
            path: path.display().to_string(),
            why: e.to_string(),
        })?;
    let gear = model.gear(
        grips.rear_grip.unwrap_or(model.rear_grip),
        grips.reel_seat.unwrap_or(model.reel_seat),
        grips.reel_above.unwrap_or(model.reel_above),
    );
    rules::first(gear.problems("rod")).map_err(|why| PropFileError::Grips {
        path: path.display().to_string(),
        why,
    })?;
    Ok((model, gear))
}

fn load(path: &Path) -> Result<Character, PropFileError> {
    gltf_io::load(path).map_err(PropFileError::Load)
}

/// `file` with `object_from_file` baked into its root nodes.
fn placed(mut file: Character, object_from_file: &Transform) -> Character {
    file.skeleton = file.skeleton.with_roots_under(object_from_file);
    file
}
