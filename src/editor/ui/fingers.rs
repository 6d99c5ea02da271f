//! The contact grip's panel (issue 33): the switch, and per hand each finger's contact with
//! the handle (touching / gap / inside, the gap in mm on hover) with its curl offset and
//! spread; each slider drag is one undo step.

use super::{Commands, doc_slider, grouped};
use crate::editor::EditorState;
use crate::editor::command::PoseEdit;
use crate::fishing::hand_contact::finger_index;
use crate::ik::grip_contact::ContactState;
use crate::rig::Side;
use crate::stage::colors;
use egui::{Color32, RichText};

/// The contact-grip switch (one for both hands).
pub fn contact_switch_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let mut on = ed.doc().stage.inputs.settings.finger_contact;
    if ui
        .checkbox(&mut on, "Contact grips")
        .on_hover_text(
            "Fingers close until their skin touches the handle and the palm sits on it; off: \
             the finger and thumb curl amounts",
        )
        .changed()
    {
        out.push(PoseEdit::SetFingerContact { enabled: on });
    }
}

fn state_colour(state: ContactState) -> Color32 {
    let hex = match state {
        ContactState::Touching => colors::CONTACT_TOUCHING,
        ContactState::Gap => colors::CONTACT_GAP,
        ContactState::Inside => colors::CONTACT_INSIDE,
    };
    Color32::from_rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// One hand's fingers: contact state and the tuning sliders.
pub fn fingers_ui(ui: &mut egui::Ui, ed: &EditorState, side: Side, out: &mut Commands) {
    let stage = &ed.doc().stage;
    if !stage.inputs.settings.finger_contact {
        return;
    }
    let hand = stage.inputs.calibration.hands.get(side);
    let report = stage.evaluation().map(|e| e.arms.get(side).contact);
    let id = match side {
        Side::Left => "fingers_left",
        Side::Right => "fingers_right",
    };
    egui::CollapsingHeader::new("Fingers")
        .id_salt(id)
        .default_open(false)
        .show(ui, |ui| {
            if let Some(value) = choice_ui(
                ui,
                hand.stem_index_middle,
                "reel stem between index and middle",
                "On a spinning rod's reel seat; off: between middle and ring",
            ) {
                out.push(PoseEdit::SetStemIndexMiddle { side, value });
            }
            if let Some(value) = choice_ui(
                ui,
                hand.thumb_wraps,
                "thumb wraps the handle",
                "On a spinning rod's reel seat; off: the thumb lies along its top",
            ) {
                out.push(PoseEdit::SetThumbWraps { side, value });
            }
            for (finger, _) in &stage.actor.arm(side).fingers {
                let finger = *finger;
                let contact = report.and_then(|r| r.fingers[finger_index(finger)]);
                let name = format!("{finger:?}").to_lowercase();
                let label = match contact {
                    Some(c) => RichText::new(format!("{name}: {:?}", c.state).to_lowercase())
                        .color(state_colour(c.state)),
                    None => RichText::new(format!("{name}: free")),
                };
                let r = ui.label(label);
                if let Some(c) = contact {
                    r.on_hover_text(format!("gap to the handle {:.1} mm", c.gap * 1e3));
                }
                let tuning = hand.fingers.get(finger);
                let mut curl = tuning.curl_offset.to_degrees();
                let mut spread = tuning.spread.to_degrees();
                let edit = |curl: f64, spread: f64| PoseEdit::SetFingerTuning {
                    side,
                    finger,
                    curl_offset_deg: curl,
                    spread_deg: spread,
                };
                let r = ui.add(doc_slider(&mut curl, -40.0..=40.0).text("curl offset °"));
                grouped(&r, r.changed().then(|| edit(curl, spread)), out);
                let r = ui.add(doc_slider(&mut spread, -25.0..=25.0).text("spread °"));
                grouped(&r, r.changed().then(|| edit(curl, spread)), out);
            }
        });
}

/// A checkbox for one of the hand's grip choices: the new value when the artist flips it.
fn choice_ui(ui: &mut egui::Ui, value: bool, label: &str, hover: &str) -> Option<bool> {
    let mut flipped = value;
    let changed = ui
        .checkbox(&mut flipped, label)
        .on_hover_text(hover)
        .changed();
    changed.then_some(flipped)
}
