//! Every editor action as plain data, by concern (pose edits, document, drag, view, playback,
//! files). The UI, keyboard shortcuts, tests and `--script` all go through
//! [`super::EditorState::apply`] with these.

use super::camera::ViewPreset;
use super::handles::{Axis, GizmoMode, GizmoPart, GizmoSpace, Handle};
use crate::fishing::Phase;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub use super::pose_edit::PoseEdit;

/// A view toggle (the overlay groups, mesh, grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewToggle {
    Spheres,
    BoneLines,
    LimitArcs,
    PoleAndPlane,
    /// The contact markers on the fingertips.
    Contacts,
    /// Each arm's stability slice round its target (issue 36).
    Stability,
    Mesh,
    Grid,
    /// The water's surface (issue 34).
    Water,
    /// The line, the lure and the fish (issue 34).
    Line,
    GripMarkers,
    /// The character and props drawn see-through (alpha-blended, no depth write), so bones,
    /// spheres, limit arcs and bend planes inside the body read clearly.
    Xray,
}

/// Which prop [`FileCommand::UseProp`] replaces.
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

impl EditorCommand {
    /// True for commands that only look (camera, view, selection, time) and never dirty the
    /// document.
    pub fn is_view_only(&self) -> bool {
        matches!(self, EditorCommand::View(_) | EditorCommand::Playback(_))
    }
}

/// [`EditorCommand`] from its concerns: the enum, `From` each concern's enum, and JSON
/// reading that finds the concern by the `cmd` name.
macro_rules! concerns {
    ($($(#[$doc:meta])* $concern:ident($ty:ident)),* $(,)?) => {
        /// One editor action, by concern. JSON form: the concern follows from the command's
        /// name, `{"cmd": "drag_to", "x": 400, "y": 300}`, the same form every concern's enum
        /// has.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum EditorCommand {
            $($(#[$doc])* $concern($ty),)*
        }

        $(impl From<$ty> for EditorCommand {
            fn from(cmd: $ty) -> Self {
                EditorCommand::$concern(cmd)
            }
        })*

        impl<'de> Deserialize<'de> for EditorCommand {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let value = serde_json::Value::deserialize(d)?;
                let Some(name) = value.get("cmd").and_then(serde_json::Value::as_str) else {
                    return Err(D::Error::missing_field("cmd"));
                };
                $(if names_command::<$ty>(name) {
                    return $ty::deserialize(value)
                        .map(EditorCommand::$concern)
                        .map_err(D::Error::custom);
                })*
                Err(D::Error::custom(format!("unknown command `{name}`")))
            }
        }
    };
}

concerns!(
    /// An undoable edit of the pose inputs.
    Edit(PoseEdit),
    /// Undo, redo, groups and the document edits beyond the pose inputs.
    Document(DocumentCommand),
    /// Picking and dragging handles.
    Drag(DragCommand),
    /// Selection, gizmo and camera.
    View(ViewCommand),
    /// Session time and playback.
    Playback(PlaybackCommand),
    /// Props, reload, export, save and open.
    File(FileCommand),
);

/// Whether `T`'s `cmd` tag has a variant called `name`: deserializes `{"cmd": name}` and sees
/// whether serde reports the variant unknown (a known one fails on its missing fields, or
/// succeeds). The names are serde's own, so no list is kept by hand.
fn names_command<'de, T: Deserialize<'de>>(name: &'de str) -> bool {
    let tag = serde::de::value::MapDeserializer::<_, Probe>::new(std::iter::once(("cmd", name)));
    !matches!(T::deserialize(tag), Err(Probe::UnknownVariant))
}

/// The error of [`names_command`]'s probe: an unknown variant, or anything else.
#[derive(Debug)]
enum Probe {
    UnknownVariant,
    Other,
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Probe {}

impl serde::de::Error for Probe {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Probe::Other
    }

    fn unknown_variant(_: &str, _: &'static [&'static str]) -> Self {
        Probe::UnknownVariant
    }
}

/// Undo and redo, edit groups, and the document edits that need more than the pose inputs
/// (the artist's rod grips, the pole search, fitting, applying another preset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum DocumentCommand {
    Undo,
    Redo,
    /// Starts / ends a group of edits that undo as one step (a slider drag).
    BeginGroup,
    EndGroup,
    SetPerPhasePoles {
        on: bool,
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
    /// Runs the pole search over the whole timeline and applies its proposals (one step).
    ApplyPoleProposal,
    /// Calibrates grips, rod adjustment and poles for this character over the whole
    /// session timeline (`anglerpose calibrate`'s search) and applies them (one undo step).
    FitToCharacter,
    /// Applies a preset tuned on another character to this one (`anglerpose retarget`'s
    /// mapping and refinement), calibration and settings in one undo step.
    ApplyPresetToCharacter {
        path: std::path::PathBuf,
    },
}

/// Picking and dragging a handle: one undo step when it ends, exactly undone when cancelled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum DragCommand {
    /// Presses at the pixel, as the window's mouse does ([`super::pick::pick_at`]): grabs the
    /// selection's gizmo part there (constraining the drag to its axis or plane) or else the
    /// handle there, selecting it and beginning the drag; over empty space, deselects.
    PointerDown { x: f64, y: f64 },
    /// Begins dragging `handle` with the mouse at `(x, y)`.
    BeginDrag { handle: Handle, x: f64, y: f64 },
    /// Moves the dragged handle; the IK re-solves.
    DragTo { x: f64, y: f64 },
    /// Constrains the drag to a world axis (X/Y/Z keys), or frees it.
    SetDragAxis { axis: Option<Axis> },
    /// Moves in the plane normal to `normal` (a plane handle of the move gizmo), or frees it.
    SetDragPlane { normal: Option<Axis> },
    /// A number typed during the drag: metres along the drag's axis (X when none) or degrees
    /// about it; `null` goes back to the mouse.
    SetDragNumber { value: Option<f64> },
    /// Snapping while Shift is held.
    SetSnap { on: bool },
    /// Ends the drag: one undo step.
    EndDrag,
    /// Esc: restores the state from before the drag exactly.
    CancelDrag,
}

/// Selection, gizmo, camera and view toggles: they never change the document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum ViewCommand {
    /// Selects a handle (or nothing).
    Select {
        handle: Option<Handle>,
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
    /// Instants whose stability margin is below `metres` are marked in the margin lane.
    SetMarginThreshold {
        metres: f64,
    },
    /// The plane the stability slice lies in: `bend_plane`, `camera` or `rod`.
    SetSliceFacing {
        facing: crate::stage::SliceFacing,
    },
}

/// The session time and playback: not undo steps, and they never dirty the document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum PlaybackCommand {
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
    /// Scrubs to the session's weakest instant: the smallest stability margin of either
    /// arm in the margin lane (see [`crate::editor::EditorState::weakest_instant`]).
    JumpToWeakest,
}

/// Files: props, reloading the character, export, save and open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum FileCommand {
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
    /// Reloads the character file from disk, keeping calibration, settings, session time,
    /// undo history and camera (live reload; also scriptable).
    ReloadCharacter,
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
    Save { path: Option<PathBuf> },
    /// Opens a preset (`.json`) or a character (`.glb` / `.gltf`); discards unsaved work, so
    /// the UI confirms first.
    Open { path: PathBuf },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::Side;

    fn read(json: &str) -> Result<EditorCommand, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn each_concern_reads_back_what_it_writes() {
        let commands: Vec<EditorCommand> = vec![
            PoseEdit::SetFingerCurl {
                side: Side::Left,
                value: 0.25,
            }
            .into(),
            DocumentCommand::Undo.into(),
            DragCommand::DragTo { x: 4.0, y: 5.0 }.into(),
            ViewCommand::Zoom { steps: -2.0 }.into(),
            PlaybackCommand::Tick { dt: 0.5 }.into(),
            FileCommand::Save { path: None }.into(),
        ];
        for cmd in commands {
            let json = serde_json::to_string(&cmd).unwrap();
            assert!(json.starts_with(r#"{"cmd":""#), "{json}");
            assert_eq!(read(&json).unwrap(), cmd, "{json}");
        }
    }

    #[test]
    fn the_concern_follows_from_the_name() {
        let cmd = read(
            r#"{"cmd": "set_rod_grips", "rear_grip": null, "reel_seat": 0.4, "reel_above": null}"#,
        )
        .unwrap();
        assert!(matches!(
            cmd,
            EditorCommand::Document(DocumentCommand::SetRodGrips {
                reel_seat: Some(_),
                butt_offset: None,
                ..
            })
        ));
        assert!(
            read(r#"{"cmd": "frame_selection"}"#)
                .unwrap()
                .is_view_only()
        );
        assert!(
            read(r#"{"cmd": "set_phase", "phase": "cast_forward", "t": 0.5}"#)
                .unwrap()
                .is_view_only()
        );
        assert!(!read(r#"{"cmd": "redo"}"#).unwrap().is_view_only());
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        assert_eq!(
            read(r#"{"cmd": "drag_too", "x": 1}"#).unwrap_err(),
            "unknown command `drag_too`"
        );
        assert_eq!(read(r#"{"x": 1}"#).unwrap_err(), "missing field `cmd`");
        let err = read(r#"{"cmd": "drag_to", "x": 1}"#).unwrap_err();
        assert!(err.contains("missing field `y`"), "{err}");
        let err = read(r#"{"cmd": "set_soften", "value": "soft"}"#).unwrap_err();
        assert!(err.contains("invalid type"), "{err}");
    }
}
