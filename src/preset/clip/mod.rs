//! Session clips: the fishing session baked into glTF animations a game engine, three.js or
//! Blender plays back.
//!
//! [`animated_glb`] writes the posed file of [`super::posed_glb`] plus:
//! - one clip `session` over the chosen phases (all of them by default) whose time in seconds
//!   is the session time minus the start of the first chosen phase — with every phase, exactly
//!   the `time` that `solve --timeline` reports;
//! - one clip per chosen phase, named after it ([`Phase::name`]), from 0 to its duration.
//!
//! Channels: a rotation for every skin joint, a translation where a node's translation moves
//! or differs from the file's static pose, the same for other character nodes that move, and
//! translation plus rotation for the rod and net holders, and a rotation for the rod's crank
//! while it turns (the bundled `reel_crank`, or an artist's crank node under any parent, in
//! its parent's frame). Skinned-mesh nodes never get one. The tackle (issue
//! 34, see `export_tackle`): translation plus rotation for every joint of the rod's bend
//! chain, a translation for every point of the line where it moves.
//! Every clip is resampled at `fps` (plus the clip's end), then reduced with a verified bound
//! (see the `reduce` module): no joint and no point of the rod or net is further than
//! [`ClipOptions::tolerance`] from the solver's pose at any sampled time, for slerp and for
//! component-lerp clients. The reduced clip is then measured against the solver in the middle
//! of every interval between samples; each interval that misses the bound there is split (down
//! to a sixteenth of a frame) and the clip reduced again, so the bound holds between frames as
//! well. Interpolation is LINEAR; consecutive quaternion keys lie on the same
//! hemisphere. Pure: returns bytes.

mod reduce;
mod sample;

pub use reduce::BakedChannel;

use super::export_glb::{ExportError, posed_builder};
use crate::assetgen::glb::AnimChannel;
use crate::fishing::{Phase, SessionError, SessionState};
use crate::stage::Stage;
use sample::{ClipRig, frame_times, sample, session_state};
use thiserror::Error;

/// What to bake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipOptions {
    /// Resampling rate in frames per second (1..=240).
    pub fps: f64,
    /// The first and last phase of the range (inclusive, in timeline order).
    pub first: Phase,
    /// The last phase of the range (inclusive; not before [`ClipOptions::first`]).
    pub last: Phase,
    /// The reduction bound in metres (default 0.5 mm; 0 keeps every key).
    pub tolerance: f64,
}

impl Default for ClipOptions {
    fn default() -> Self {
        Self {
            fps: 30.0,
            first: Phase::SeatedHold,
            last: Phase::Landing,
            tolerance: 0.0005,
        }
    }
}

impl ClipOptions {
    /// Every problem with the options, each a sentence: `fps` not finite or outside 1..=240,
    /// `first` after `last`, `tolerance` negative or not finite. Empty when they are valid.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !(self.fps.is_finite() && (1.0..=240.0).contains(&self.fps)) {
            out.push(format!("fps {} is outside 1..=240", self.fps));
        }
        if self.first > self.last {
            out.push(format!(
                "the phase range {}..{} runs backwards",
                self.first.name(),
                self.last.name()
            ));
        }
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            out.push(format!("tolerance {} is not a length ≥ 0", self.tolerance));
        }
        out
    }

    /// The chosen phases in timeline order.
    pub fn phases(&self) -> impl Iterator<Item = Phase> + '_ {
        Phase::ALL
            .into_iter()
            .filter(|p| (self.first..=self.last).contains(p))
    }
}

/// Why baking clips failed.
#[derive(Debug, Error, PartialEq)]
pub enum ClipError {
    /// The [`ClipOptions::problems`], joined with `; `.
    #[error("animation options: {0}")]
    Options(String),
    /// The stage has no evaluation yet ([`Stage::update`] was never called).
    #[error("the stage has not been posed (call Stage::update first)")]
    NotPosed,
    /// The solver failed on a frame, or when the stage was put back at its own state.
    #[error("posing the session at {time:.3} s: {source}")]
    Session {
        /// Seconds from the start of the clip being sampled; the stage's own timeline time
        /// when putting it back failed.
        time: f64,
        /// The solver's error.
        source: SessionError,
    },
    /// A frame's pose has a non-finite local transform.
    #[error("the pose at {time:.3} s has a non-finite transform at node {node}")]
    NonFinite {
        /// Seconds from the start of the clip being sampled.
        time: f64,
        /// The node in the clip's numbering (character bones, then rod and net holder).
        node: usize,
    },
    /// Even with every key kept, the f32 keys miss the solver's pose by more than the bound.
    #[error(
        "clip {clip}: even with every key kept, f32 keys are {error_mm:.3} mm from the solver \
         (more than the {tolerance_mm} mm bound): something is too far from the origin"
    )]
    Precision {
        /// The clip's name.
        clip: String,
        /// The measured error in millimetres.
        error_mm: f64,
        /// The bound in millimetres: the tolerance, at least 0.01 mm.
        tolerance_mm: f64,
    },
    /// Writing the posed file failed.
    #[error(transparent)]
    Export(#[from] ExportError),
}

/// One baked clip, in the clip's node numbering (character bones, then rod and net holder).
#[derive(Clone, Debug, PartialEq)]
pub struct BakedClip {
    /// `session`, or the phase's [`Phase::name`].
    pub name: String,
    /// Length in seconds.
    pub duration: f64,
    /// Frames at the clip's rate (including the end).
    pub frames: usize,
    /// Times the solver was sampled at and keys were chosen from: the frames, and the middles
    /// of intervals where the motion between them needed more (see [`MAX_SPLITS`]).
    pub samples: usize,
    /// The reduced channels.
    pub channels: Vec<BakedChannel>,
    /// The largest measured distance of any checked point from the solver's at the sampled
    /// times (metres).
    pub max_error: f64,
    /// The same, measured in the middle of every interval between samples (metres; equal to
    /// `max_error` for a zero tolerance, which keeps every frame and checks nothing between).
    pub between_error: f64,
    /// The per-channel bound the reduction settled on (metres; 0 = every key kept).
    pub channel_bound: f64,
}

impl BakedClip {
    /// Keys before reduction (every channel at every sample: the frames and the middles the
    /// motion between frames needed).
    pub fn keys_before(&self) -> usize {
        self.channels.len() * self.samples
    }

    /// Keys after reduction, summed over the channels.
    pub fn keys_after(&self) -> usize {
        self.channels.iter().map(|c| c.times.len()).sum()
    }

    /// Keyframe bytes before reduction: one shared time accessor and every value at every
    /// sample.
    pub fn bytes_before(&self) -> usize {
        4 * self.samples
            + self
                .channels
                .iter()
                .map(|c| 4 * c.path.width() * self.samples)
                .sum::<usize>()
    }

    /// Keyframe bytes after reduction: distinct time accessors and the kept values.
    pub fn bytes_after(&self) -> usize {
        let times: std::collections::BTreeSet<Vec<u32>> = self
            .channels
            .iter()
            .map(|c| c.times.iter().map(|t| t.to_bits()).collect())
            .collect();
        times.iter().map(|t| 4 * t.len()).sum::<usize>()
            + self
                .channels
                .iter()
                .map(|c| 4 * c.values.len())
                .sum::<usize>()
    }
}

/// Bakes the clips of `options` from `stage`'s calibration, settings and session parameters.
/// The stage is posed at each frame and put back at its own state afterwards.
///
/// # Errors
/// [`ClipError::Options`] for bad options, [`ClipError::NotPosed`] before the first
/// [`Stage::update`], [`ClipError::Session`] (with the time in the clip) when a frame fails
/// or the stage cannot be put back, [`ClipError::NonFinite`] for a non-finite frame and
/// [`ClipError::Precision`] when a clip cannot meet the bound even with every key kept.
pub fn bake_clips(stage: &mut Stage, options: &ClipOptions) -> Result<Vec<BakedClip>, ClipError> {
    check(options)?;
    let rig = ClipRig::new(stage)?;
    bake_on(stage, &rig, options)
}

/// [`ClipError::Options`] with every [`ClipOptions::problems`], if any.
fn check(options: &ClipOptions) -> Result<(), ClipError> {
    let problems = options.problems();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ClipError::Options(problems.join("; ")))
    }
}

/// [`bake_clips`] with checked options, on the clip rig of the stage's own state (built once
/// by the caller).
fn bake_on(
    stage: &mut Stage,
    rig: &ClipRig,
    options: &ClipOptions,
) -> Result<Vec<BakedClip>, ClipError> {
    let own = stage.inputs.state;
    let params = own.params;
    let result = (|| {
        let mut clips = Vec::new();
        let first = options.first;
        let session_length: f64 = options.phases().map(|p| params.phase_duration(p)).sum();
        clips.push(bake_one(
            stage,
            rig,
            "session",
            session_length,
            options,
            |s| session_state(s, first, params),
        )?);
        for phase in options.phases() {
            let d = params.phase_duration(phase);
            clips.push(bake_one(stage, rig, phase.name(), d, options, |s| {
                SessionState::new(phase, (s / d).min(1.0), params)
            })?);
        }
        Ok(clips)
    })();
    stage.inputs.state = own;
    stage.reset_flip_tracking();
    stage.update().map_err(|source| ClipError::Session {
        time: own.time(),
        source,
    })?;
    result
}

/// How many times baking halves an interval between samples at most (down to a
/// sixteenth of a frame).
pub const MAX_SPLITS: usize = 4;

/// Bakes one clip of `duration` seconds whose time `s` is `state_at(s)`: resampled at the
/// frame rate, reduced, then measured against the solver in the middle of every interval
/// between samples; each interval that misses the tolerance there gets its middle as a
/// sample, and the clip is reduced again (at most [`MAX_SPLITS`] times), so the bound holds
/// between frames too, with samples (and keys) only where the motion needs them (issue 34
/// item 7). A zero tolerance keeps every frame's key and checks nothing between them.
fn bake_one(
    stage: &mut Stage,
    rig: &ClipRig,
    name: &str,
    duration: f64,
    options: &ClipOptions,
    state_at: impl Fn(f64) -> SessionState + Copy,
) -> Result<BakedClip, ClipError> {
    let times = frame_times(duration, options.fps);
    let frames = times.len();
    let mut samples = sample(stage, rig, times, state_at)?;
    for round in 0..=MAX_SPLITS {
        let mut clip = finish(name, duration, rig, &samples, options)?;
        clip.frames = frames;
        if options.tolerance == 0.0 {
            return Ok(clip);
        }
        let middles: Vec<f64> = samples
            .times
            .windows(2)
            .map(|w| 0.5 * (w[0] + w[1]))
            .collect();
        let between = sample(stage, rig, middles, state_at)?;
        let middle_times: Vec<f32> = between.times.iter().map(|&t| t as f32).collect();
        let errors = reduce::measure_each(
            rig,
            &middle_times,
            &clip.channels,
            &reduce::reference_worlds(rig, &between),
        );
        clip.between_error = errors.iter().copied().fold(0.0, f64::max);
        if clip.between_error <= options.tolerance || round == MAX_SPLITS {
            return Ok(clip);
        }
        // The middles that missed join the samples, in time order.
        let mut merged = sample::Samples {
            times: Vec::with_capacity(samples.times.len() * 2),
            locals: Vec::with_capacity(samples.times.len() * 2),
        };
        let mut extra = between.times.into_iter().zip(between.locals).zip(errors);
        for (time, locals) in samples.times.into_iter().zip(samples.locals) {
            merged.times.push(time);
            merged.locals.push(locals);
            if let Some(((t, l), e)) = extra.next()
                && e > options.tolerance
            {
                merged.times.push(t);
                merged.locals.push(l);
            }
        }
        samples = merged;
    }
    unreachable!("the last round returns")
}

fn finish(
    name: &str,
    duration: f64,
    rig: &ClipRig,
    samples: &sample::Samples,
    options: &ClipOptions,
) -> Result<BakedClip, ClipError> {
    let reduced = reduce::reduce(rig, samples, options.tolerance);
    // With a zero tolerance every key is kept and f32 rounding is all that is left.
    let bound = options.tolerance.max(1e-5);
    if reduced.max_error > bound {
        return Err(ClipError::Precision {
            clip: name.to_string(),
            error_mm: reduced.max_error * 1e3,
            tolerance_mm: bound * 1e3,
        });
    }
    Ok(BakedClip {
        name: name.to_string(),
        duration,
        frames: samples.times.len(),
        samples: samples.times.len(),
        channels: reduced.channels,
        max_error: reduced.max_error,
        between_error: reduced.max_error,
        channel_bound: reduced.channel_bound,
    })
}

/// The posed GLB of `stage` with the clips of `options` (see the module docs), and the clips.
///
/// # Errors
/// As [`bake_clips`] and [`super::posed_glb`].
pub fn animated_glb(
    stage: &mut Stage,
    options: &ClipOptions,
) -> Result<(Vec<u8>, Vec<BakedClip>), ClipError> {
    let (mut glb, nodes) = posed_builder(stage)?;
    let rig = ClipRig::new(stage)?;
    check(options)?;
    let clips = bake_on(stage, &rig, options)?;
    let n = nodes.character.len();
    let node_of = |i: usize| match i {
        i if i < n => Some(nodes.character[i]),
        i if i == n => Some(nodes.rod),
        i if i == n + 1 => Some(nodes.net),
        i if rig.line_first.is_some_and(|f| i >= f) => nodes.line.get(i - rig.line_first?).copied(),
        i if rig.bend_first.is_some_and(|f| i >= f) => {
            nodes.rod_bend.get(i - rig.bend_first?).copied()
        }
        // The crank; its parent's fixed node is the file's own nodes.
        i if rig.crank_node() == Some(i) => nodes.rod_crank,
        _ => None,
    };
    for clip in &clips {
        let channels: Vec<AnimChannel> = clip
            .channels
            .iter()
            .filter_map(|c| {
                Some(AnimChannel {
                    node: node_of(c.node)?,
                    path: c.path,
                    times: &c.times,
                    values: &c.values,
                })
            })
            .collect();
        glb.animation(&clip.name, &channels);
    }
    Ok((glb.finish(), clips))
}
