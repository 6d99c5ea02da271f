//! The contact grip in the editor (issue 33): the switch, each finger's tuning (one undo step
//! per slider drag) and the contact the panel shows, all through `EditorState::apply` as the
//! window's panel does.

mod support;

use anglerpose::editor::{DocumentCommand, PoseEdit};
use anglerpose::ik::grip_contact::ContactState;
use anglerpose::rig::{Finger, Side};
use glam::DVec3;
use support::editor::{arms, bundled_editor};

/// Where `finger`'s last joint of the right hand is.
fn finger_tip(ed: &anglerpose::editor::EditorState, finger: Finger) -> DVec3 {
    let stage = &ed.doc().stage;
    let arm = stage.actor.arm(Side::Right);
    let (_, chain) = arm
        .fingers
        .iter()
        .find(|(f, _)| *f == finger)
        .expect("the finger");
    stage.pose.world_position(*chain.joints.last().unwrap())
}

#[test]
fn a_finger_tuning_drag_is_one_undo_step_and_moves_the_finger_off_its_contact() {
    let mut ed = bundled_editor();
    let before = arms(&ed).right.contact;
    assert!(before.solved, "contact grips are on for the bundled angler");
    let index = before.fingers[1].expect("the index has a contact");
    assert_eq!(index.state, ContactState::Touching, "{index:?}");
    let tip = finger_tip(&ed, Finger::Index);
    // A slider drag: several values, one group.
    ed.apply(DocumentCommand::BeginGroup).unwrap();
    for deg in [-5.0, -12.0, -20.0] {
        ed.apply(PoseEdit::SetFingerTuning {
            side: Side::Right,
            finger: Finger::Index,
            curl_offset_deg: deg,
            spread_deg: 0.0,
        })
        .unwrap();
    }
    ed.apply(DocumentCommand::EndGroup).unwrap();
    let opened = arms(&ed).right.contact;
    let index_open = opened.fingers[1].unwrap();
    // Opened by 20° off the handle: a gap the report measures, the tip moved.
    assert_eq!(index_open.state, ContactState::Gap, "{index_open:?}");
    assert!(index_open.gap > 0.001, "{index_open:?}");
    assert!((finger_tip(&ed, Finger::Index) - tip).length() > 0.005);
    let tuning = ed.doc().stage.inputs.calibration.hands.right.fingers.index;
    assert!((tuning.curl_offset - (-20f64).to_radians()).abs() < 1e-12);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(
        finger_tip(&ed, Finger::Index),
        tip,
        "one undo restores the finger exactly"
    );
    assert_eq!(arms(&ed).right.contact, before);
}

#[test]
fn the_contact_switch_falls_back_to_the_parametric_curl_and_undoes() {
    let mut ed = bundled_editor();
    let tip = finger_tip(&ed, Finger::Index);
    ed.apply(PoseEdit::SetFingerContact { enabled: false })
        .unwrap();
    let off = arms(&ed).right.contact;
    assert!(!off.solved && off.fingers.iter().all(Option::is_none));
    assert!(
        (finger_tip(&ed, Finger::Index) - tip).length() > 0.002,
        "the curl differs"
    );
    ed.apply(DocumentCommand::Undo).unwrap();
    assert!(ed.doc().stage.inputs.settings.finger_contact);
    assert_eq!(finger_tip(&ed, Finger::Index), tip);
}

#[test]
fn the_stem_moves_between_index_and_middle() {
    let mut ed = bundled_editor();
    let wrist = ed
        .doc()
        .stage
        .pose
        .world_position(ed.doc().stage.actor.arm(Side::Right).hand);
    ed.apply(PoseEdit::SetStemIndexMiddle {
        side: Side::Right,
        value: true,
    })
    .unwrap();
    let moved = ed
        .doc()
        .stage
        .pose
        .world_position(ed.doc().stage.actor.arm(Side::Right).hand);
    // The front hand slides along the handle by about a finger's width.
    let d = (moved - wrist).length();
    assert!((0.005..0.04).contains(&d), "the hand moved {d} m");
}

#[test]
fn the_front_thumb_wraps_the_handle_and_back_in_one_undo_step() {
    let mut ed = bundled_editor();
    let along = finger_tip(&ed, Finger::Thumb);
    let thumb = arms(&ed).right.contact.fingers[0].expect("the thumb has a contact");
    assert_eq!(thumb.state, ContactState::Touching, "{thumb:?}");
    ed.apply(PoseEdit::SetThumbWraps {
        side: Side::Right,
        value: true,
    })
    .unwrap();
    assert!(ed.doc().stage.inputs.calibration.hands.right.thumb_wraps);
    let wrapped = finger_tip(&ed, Finger::Thumb);
    // Wrapped round the handle, the thumb's tip is centimetres from where it lay along it,
    // and it still touches.
    let d = (wrapped - along).length();
    assert!(d > 0.01, "the thumb's tip moved {d} m");
    let thumb = arms(&ed).right.contact.fingers[0].expect("the thumb has a contact");
    assert_eq!(thumb.state, ContactState::Touching, "{thumb:?}");
    ed.apply(DocumentCommand::Undo).unwrap();
    assert!(!ed.doc().stage.inputs.calibration.hands.right.thumb_wraps);
    assert_eq!(
        finger_tip(&ed, Finger::Thumb),
        along,
        "one undo restores the thumb exactly"
    );
}
