//! Every editor action as plain data. The UI, keyboard shortcuts, tests and `--script` all go
//! through [`super::EditorState::apply`] with these.

use super::camera::ViewPreset;
use super::pick::{Axis, GizmoMode, GizmoPart, GizmoSpace, Handle};
use crate::fishing::{ArmSolverKind, CcdLinkRole, GripKind, Handedness, Phase};
use crate::rig::Side;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A view toggle (the overlay groups, mesh, grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewToggle {
    Spheres,
    BoneLines,
    LimitArcs,
    PoleAndPlane,
    Mesh,
    Grid,
    GripMarkers,
    /// The character and props drawn see-through (alpha-blended, no depth write), so bones,
    /// spheres, limit arcs and bend planes inside the body read clearly.
    Xray,
}

/// One editor action. JSON form: `{"cmd": "drag_to", "x": 400, "y": 300}`.
/// Which prop [`EditorCommand::UseProp`] replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PropKind {
    Rod,
    Net,
    Seat,
}

impl PropKind {
    pub const ALL: [PropKind; 3] = [PropKind::Rod, PropKind::Net, PropKind::Seat];

    pub fn name(self) -> &'static str {
        match self {
            PropKind::Rod => "rod",
            PropKind::Net => "net",
            PropKind::Seat => "seat",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum EditorCommand {
    /// Selects a handle (or nothing).
    Select {
        handle: Option<Handle>,
    },
    /// Picks under the pixel; selects it and begins dragging it if something is there.
    PointerDown {
        x: f64,
        y: f64,
    },
    /// Begins dragging `handle` with the mouse at `(x, y)`.
    BeginDrag {
        handle: Handle,
        x: f64,
        y: f64,
    },
    /// Moves the dragged handle; the IK re-solves.
    DragTo {
        x: f64,
        y: f64,
    },
    /// Constrains the drag to a world axis (X/Y/Z keys), or frees it.
    SetDragAxis {
        axis: Option<Axis>,
    },
    /// Moves in the plane normal to `normal` (a plane handle of the move gizmo), or frees it.
    SetDragPlane {
        normal: Option<Axis>,
    },
    /// A number typed during the drag: metres along the drag's axis (X when none) or degrees
    /// about it; `null` goes back to the mouse.
    SetDragNumber {
        value: Option<f64>,
    },
    /// W / E: the gizmo moves or rotates the selection; `null`: each handle's own kind.
    SetGizmoMode {
        mode: Option<GizmoMode>,
    },
    /// Q: gizmo axes in the world or the selection's own frame.
    SetGizmoSpace {
        space: GizmoSpace,
    },
    /// The gizmo part under the mouse (highlighted).
    SetHover {
        part: Option<GizmoPart>,
    },
    /// Snapping while Shift is held.
    SetSnap {
        on: bool,
    },
    /// Ends the drag: one undo step.
    EndDrag,
    /// Esc: restores the state from before the drag exactly.
    CancelDrag,
    Undo,
    Redo,
    /// Starts / ends a group of edits that undo as one step (a slider drag).
    BeginGroup,
    EndGroup,
    /// Global switch for every angle limit.
    SetLimitsEnabled {
        on: bool,
    },
    /// An elbow's two-bone hinge limit (degrees) and its own on/off switch; `side: null` (or
    /// absent) sets both arms.
    SetElbowLimit {
        #[serde(default)]
        side: Option<Side>,
        min_deg: f64,
        max_deg: f64,
        enabled: bool,
    },
    /// Which solver poses an arm (two-bone or CCD).
    /// Two-bone twist of one arm's elbow about the shoulder → wrist line, degrees (−180..=180).
    SetTwist {
        side: Side,
        degrees: f64,
    },
    SetArmSolver {
        side: Side,
        solver: ArmSolverKind,
    },
    /// CCD passes per pose update (1..=1000).
    SetCcdIterations {
        side: Side,
        iterations: u32,
    },
    /// CCD step-angle clamps in degrees (three.js `minAngle` / `maxAngle`; `null` = none).
    SetCcdStepAngles {
        side: Side,
        min_deg: Option<f64>,
        max_deg: Option<f64>,
    },
    /// The CCD chain's own blend 0..=1 (three.js `blendFactor`); `null` uses the global weight.
    SetCcdBlend {
        side: Side,
        blend: Option<f64>,
    },
    /// One CCD link's limits: its switch, hinge axis (link-local) and Euler XYZ range in
    /// degrees (`null` = none).
    SetCcdLinkLimits {
        side: Side,
        link: CcdLinkRole,
        enabled: bool,
        limitation: Option<[f64; 3]>,
        min_deg: Option<[f64; 3]>,
        max_deg: Option<[f64; 3]>,
    },
    SetSoften {
        value: f64,
    },
    SetWeight {
        value: f64,
    },
    SetGripOffset {
        kind: GripKind,
        offset: [f64; 3],
    },
    /// Grip rotation as XYZ Euler angles in degrees.
    SetGripRotation {
        kind: GripKind,
        euler_deg: [f64; 3],
    },
    SetRodAdjust {
        offset: [f64; 3],
        euler_deg: [f64; 3],
    },
    /// Palm correction as XYZ Euler angles in degrees.
    SetPalmCorrection {
        side: Side,
        euler_deg: [f64; 3],
    },
    SetFingerCurl {
        side: Side,
        value: f64,
    },
    SetThumbCurl {
        side: Side,
        value: f64,
    },
    /// Sets the constant pole (or the current phase's key in per-phase mode), actor space.
    SetPole {
        side: Side,
        pole: [f64; 3],
    },
    SetPerPhasePoles {
        on: bool,
    },
    /// Runs the pole search over the whole timeline and applies its proposals (one step).
    ApplyPoleProposal,
    /// Calibrates grips, rod adjustment and poles for this character over the whole
    /// session timeline (`anglerpose calibrate`'s search) and applies them (one undo step).
    FitToCharacter,
    /// Reloads the character file from disk, keeping calibration, settings, session time,
    /// undo history and camera (live reload; also scriptable).
    ReloadCharacter,
    /// Applies a preset tuned on another character to this one (`anglerpose retarget`'s
    /// mapping and refinement), calibration and settings in one undo step.
    ApplyPresetToCharacter {
        path: std::path::PathBuf,
    },
    /// Uses an artist's rod, net or seat file (`path`), or the bundled one (`null`). The
    /// rod's grips start where detection puts them. Not an undo step (the file is reloaded
    /// to go back); the document becomes dirty and its preset names the file.
    UseProp {
        prop: PropKind,
        path: Option<PathBuf>,
    },
    /// Re-detects the artist's rod's frame with its butt at the thinner end (`flip_ends`)
    /// and, for a file not in metres, its real `length` (`null`: as detected). Like
    /// `UseProp`, not an undo step.
    SetRodFrame {
        flip_ends: bool,
        length: Option<f64>,
    },
    /// Moves the butt and the hands on the artist's rod: `butt_offset` metres up the blank
    /// from its end, the grips metres from the butt; `null` = as detected. An undo step.
    SetRodGrips {
        rear_grip: Option<f64>,
        reel_seat: Option<f64>,
        reel_above: Option<bool>,
        #[serde(default)]
        butt_offset: Option<f64>,
    },
    SetHandedness {
        handedness: Handedness,
    },
    SetRodLength {
        metres: f64,
    },
    SetCastPower {
        value: f64,
    },
    /// Scrubs to `seconds` on the whole timeline (not an undo step).
    SetTime {
        seconds: f64,
    },
    SetPhase {
        phase: Phase,
        t: f64,
    },
    Play {
        on: bool,
    },
    SetSpeed {
        value: f64,
    },
    /// Advances playback by `dt` seconds of wall time.
    Tick {
        dt: f64,
    },
    SetView {
        view: ViewPreset,
    },
    SetOrthographic {
        on: bool,
    },
    Orbit {
        dx: f64,
        dy: f64,
    },
    Pan {
        dx: f64,
        dy: f64,
    },
    Zoom {
        steps: f64,
    },
    FrameSelection,
    SetViewport {
        width: u32,
        height: u32,
    },
    Toggle {
        what: ViewToggle,
        on: bool,
    },
    /// Writes the character, rod and net with the session baked into animation clips
    /// (`anglerpose export --animation`'s code): `session` over `first..=last` and one clip
    /// per phase, resampled at `fps`. Does not change the document.
    ExportAnimation {
        path: PathBuf,
        fps: f64,
        first: Phase,
        last: Phase,
    },
    /// Saves the document (to `path`, or to its own path).
    Save {
        path: Option<PathBuf>,
    },
    /// Opens a preset (`.json`) or a character (`.glb` / `.gltf`); discards unsaved work, so
    /// the UI confirms first.
    Open {
        path: PathBuf,
    },
}

impl EditorCommand {
    /// True for commands that only look (camera, view, selection, time) and never dirty the
    /// document.
    pub fn is_view_only(&self) -> bool {
        use EditorCommand::*;
        matches!(
            self,
            Select { .. }
                | SetView { .. }
                | SetOrthographic { .. }
                | Orbit { .. }
                | Pan { .. }
                | Zoom { .. }
                | FrameSelection
                | SetViewport { .. }
                | Toggle { .. }
                | SetGizmoMode { .. }
                | SetGizmoSpace { .. }
                | SetHover { .. }
                | SetTime { .. }
                | SetPhase { .. }
                | Play { .. }
                | SetSpeed { .. }
                | Tick { .. }
        )
    }
}
