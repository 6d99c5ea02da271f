//! Using an artist's rod, net or seat in the editor (issue 20): File → Use rod / net / seat…,
//! a model dropped on the window, and back to the bundled ones.

use super::Edits;
use crate::editor::command::PropKind;
use crate::editor::error::EditorError;
use crate::stage::{NetSource, PropSources, Props, RodSource, bundled_assets_dir};
use std::path::PathBuf;

impl Edits {
    /// Replaces the `prop` with the file at `path` (`None`: the bundled one). The pose,
    /// calibration and undo history stay; the window uploads the new meshes. Returns what
    /// the status bar says.
    ///
    /// # Errors
    /// The file cannot be used (its message names it) or the pose cannot be solved with the
    /// new rod; the document is then unchanged.
    pub(in crate::editor) fn use_prop(
        &mut self,
        prop: PropKind,
        path: Option<PathBuf>,
    ) -> Result<String, EditorError> {
        let mut sources: PropSources = self.doc.stage.props.sources.clone();
        match prop {
            PropKind::Rod => {
                sources.rod = path.clone().map(|path| RodSource {
                    path,
                    ..Default::default()
                })
            }
            PropKind::Net => {
                sources.net = path.clone().map(|path| NetSource { path, length: None })
            }
            PropKind::Seat => sources.seat = path.clone(),
        }
        self.replace_props(&sources)?;
        Ok(match (&path, prop) {
            (None, _) => format!("using the bundled {}", prop.name()),
            (Some(p), PropKind::Rod) => {
                let g = &self.doc.stage.actor.gear.rod;
                format!(
                    "using {} as the rod: {:.2} m, rear grip {:.3} m, reel seat {:.3} m, reel {} \
                     — drag the markers on the blank to correct them",
                    p.display(),
                    g.length,
                    g.rear_grip,
                    g.reel_seat,
                    if g.reel_above { "on top" } else { "below" }
                )
            }
            (Some(p), _) => format!("using {} as the {}", p.display(), prop.name()),
        })
    }

    /// Re-detects the artist's rod (see [`crate::editor::command::FileCommand::SetRodFrame`]);
    /// returns what the status bar says.
    ///
    /// # Errors
    /// No artist's rod is in use, or the correction does not fit it; nothing changes then.
    pub(in crate::editor) fn set_rod_frame(
        &mut self,
        flip_ends: bool,
        length: Option<f64>,
    ) -> Result<String, EditorError> {
        let mut sources = self.doc.stage.props.sources.clone();
        let Some(rod) = &mut sources.rod else {
            return Err(EditorError::Invalid(
                "the bundled rod's frame needs no correction".into(),
            ));
        };
        rod.flip_ends = flip_ends;
        rod.length = length;
        self.replace_props(&sources)?;
        Ok(format!(
            "rod butt at the {} end: {:.2} m long",
            if flip_ends { "thin" } else { "thick" },
            self.doc.stage.actor.gear.rod.length
        ))
    }

    /// Loads `sources` and puts them on the stage, or leaves everything as it was.
    fn replace_props(&mut self, sources: &PropSources) -> Result<(), EditorError> {
        let props = Props::load_with(&bundled_assets_dir(), sources)
            .map_err(|e| EditorError::Invalid(e.to_string()))?;
        let before = self.doc.stage.props.clone();
        let length = self.doc.stage.inputs.state.params.rod_length;
        if let Err(e) = self.doc.stage.set_props(props) {
            self.doc.stage.inputs.state.params.rod_length = length;
            let _ = self.doc.stage.set_props(before);
            return Err(e.into());
        }
        self.changed_outside_history();
        Ok(())
    }
}
