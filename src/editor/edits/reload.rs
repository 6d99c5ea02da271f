//! Live reload of the open character: the file changed on disk, so the stage is rebuilt from
//! it while calibration, settings, session time, undo history and camera stay. Bones whose
//! names disappeared are reported by role; preset overrides naming them are dropped (the
//! detection decides) and reported. A file that does not load leaves the last good character.

use super::Edits;
use crate::editor::error::EditorError;
use crate::gltf_io;
use crate::rig::HumanoidOverride;
use crate::stage::Stage;

impl Edits {
    /// Reloads the document's character file. Returns what changed, for the status bar.
    ///
    /// # Errors
    /// [`EditorError::Invalid`] naming the file and the problem when it does not load or
    /// cannot be posed; the current character stays.
    pub(in crate::editor) fn reload_character(&mut self) -> Result<String, EditorError> {
        let path = self.doc.character_path.clone();
        let failed = |e: String| {
            EditorError::Invalid(format!(
                "reloading {}: {e}; the last good character stays",
                path.display()
            ))
        };
        let character = gltf_io::load(&path).map_err(|e| failed(e.to_string()))?;
        let old = &self.doc.stage;
        let mut notes = Vec::new();
        // Overrides naming bones that are gone are repaired by dropping them.
        let mut overrides = HumanoidOverride::default();
        if let Some(p) = &self.doc.preset {
            for (role, name) in &p.humanoid_overrides.bones {
                if character.skeleton.find(name).is_some() {
                    overrides.set(*role, name.clone());
                } else {
                    notes.push(format!(
                        "override {role} = {name:?}: no such bone any more; detected instead"
                    ));
                }
            }
        }
        let mut stage = Stage::with_overrides(character, old.props.clone(), &overrides)
            .map_err(|e| failed(e.to_string()))?;
        // Roles whose bone name changed.
        let name_of = |s: &Stage, b: usize| s.actor.skeleton.bone(b).name.clone();
        let old_roles = role_names(old, &name_of);
        let new_roles = role_names(&stage, &name_of);
        for (role, was) in &old_roles {
            match new_roles.iter().find(|(r, _)| r == role) {
                Some((_, now)) if now != was => {
                    notes.push(format!("{role}: bone {was:?} is now {now:?}"))
                }
                None => notes.push(format!("{role}: bone {was:?} is gone")),
                _ => {}
            }
        }
        stage.inputs.clone_from(&old.inputs);
        stage.world_from_actor = old.world_from_actor;
        stage.reset_flip_tracking();
        stage.update().map_err(|e| failed(e.to_string()))?;
        self.doc.stage = stage;
        self.doc.generation += 1;
        // The flip debugger's analysis was the old character's.
        self.invalidate_timeline();
        if let Some(p) = &mut self.doc.preset
            && p.humanoid_overrides != overrides
        {
            p.humanoid_overrides = overrides;
            self.doc.dirty = true;
        }
        let mut message = format!("reloaded {}", path.display());
        for n in &notes {
            message.push_str("; ");
            message.push_str(n);
        }
        Ok(message)
    }
}

/// Every mapped arm and body role with its bone's name.
fn role_names(stage: &Stage, name_of: &dyn Fn(&Stage, usize) -> String) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = stage
        .map
        .roles()
        .into_iter()
        .map(|(r, b)| (r.to_string(), name_of(stage, b)))
        .collect();
    if let Some(body) = &stage.map.body {
        v.extend(
            body.roles()
                .into_iter()
                .map(|(r, b)| (r.to_string(), name_of(stage, b))),
        );
    }
    v
}
