//! The close-up of a hand on a handle (`render --close-up`, issue 33) looks from where the
//! character's own body leaves the hand in sight: from its usual direction through the
//! handle, or turned about the handle where the body fills that one (`Stage::close_up`).
//! Measured on the posed skin (a winding number over its faces, `support/prop_solid.rs`):
//! the shared characters' rear hands at the seated hold were seen from inside their own
//! bodies (mannequiny's chest, KayKit's head; the render was a flat fill of their colour);
//! now the eye is outside and no more skin lies between it and the hand (counted by the
//! stage's own `faces_crossed` on its `skin_faces_in_world`: none for mannequiny; faces
//! within 3.5 cm of the grip are the hand looked at, and KayKit's ball of a mitten is
//! larger). Skipped without ../shared.

mod support;

use anglerpose::gltf_io;
use anglerpose::rig::Side;
use anglerpose::stage::{
    CLOSE_UP_DISTANCE, Props, Stage, bundled_assets_dir, faces_crossed, grip_view_direction,
};
use glam::{DMat4, DVec3, Mat4};
use support::gltf_edit::shared_models;
use support::prop_solid::Solid;

/// Faces this close to the grip (metres, times the character's size) are the hand's own.
const HAND_REACH: f64 = 0.035;

fn seated(file: &std::path::Path) -> Stage {
    let props = Props::load(&bundled_assets_dir()).unwrap();
    let mut stage = Stage::new(gltf_io::load(file).unwrap(), props).unwrap();
    stage.update().unwrap();
    stage
}

/// The eye of `side`'s close-up, and the point it looks at nearest where the hand holds its
/// grip (the camera looks there, from a distance that depends on the view).
fn eye_and_target(stage: &Stage, side: Side) -> (DVec3, DVec3) {
    let camera = stage.close_up(side, [320, 240]).unwrap();
    let world_from_view = Mat4::from_cols_array_2d(&camera.view_from_world)
        .as_dmat4()
        .inverse();
    let eye = world_from_view.w_axis.truncate();
    let forward = -DMat4::col(&world_from_view, 2).truncate().normalize();
    let grip = stage.hand_on_grip_in_world(side).unwrap().translation;
    let target = eye + forward * (grip - eye).dot(forward);
    assert!(
        target.distance(grip) < 1e-4,
        "the close-up looks {:.1} mm off the grip",
        target.distance(grip) * 1e3
    );
    (eye, target)
}

#[test]
fn a_rear_hands_close_up_is_not_taken_from_inside_the_characters_own_body() {
    let Some(dir) = shared_models("close_up_views: shared characters") else {
        return;
    };
    for (name, file) in [
        ("mannequiny", "mannequiny-0.3.0.glb"),
        ("KayKit", "KayKit_Mannequin/manny_med_mod.gltf"),
    ] {
        let stage = seated(&dir.join(file));
        let k = stage.size_factor();
        let distance = f64::from(CLOSE_UP_DISTANCE) * k;
        let (eye, target) = eye_and_target(&stage, Side::Left);
        let faces = stage.skin_faces_in_world();
        let near = HAND_REACH * k;
        let body = Solid {
            triangles: faces.clone(),
            rod_from_world: glam::DAffine3::IDENTITY,
        };
        // The usual view, through the handle from above: its eye was inside the body.
        let grip = stage.grip_in_world(Side::Left).unwrap();
        let usual = target + grip_view_direction(&grip) * distance;
        let (inside_before, inside) = (body.winding(usual), body.winding(eye));
        assert!(
            inside_before >= 0.5,
            "{name}: the usual view was outside ({inside_before})"
        );
        assert!(
            inside < 0.5,
            "{name}: the close-up's eye is inside the body ({inside})"
        );
        // And no more of the body lies between the eye and the hand than before.
        let (before, after) = (
            faces_crossed(&faces, usual, target, near),
            faces_crossed(&faces, eye, target, near),
        );
        assert!(
            after <= before,
            "{name}: {after} skin faces in the way, {before} before"
        );
        if name == "mannequiny" {
            assert_eq!(after, 0, "{name}: {after} skin faces in the way");
        }
        eprintln!(
            "{name}: the usual eye inside the body (winding {inside_before:.2}), {before} faces \
             in the way; the one taken outside ({inside:.2}), {after}"
        );
    }
}

/// The hand on the reel's knob in the retrieve: mannequiny's close-ups were taken from inside
/// its head (the bundled rod; every one of the knob's own views was filled by the chest, the
/// head or the arm) or showed only the sky (the baitcaster). The eye is now outside the skin
/// and above the floor, and nothing of the body but the hand lies on the line of sight.
#[test]
fn a_knob_hands_close_up_sees_the_hand() {
    let Some(dir) = shared_models("close_up_views: mannequiny on the knob") else {
        return;
    };
    let file = dir.join("mannequiny-0.3.0.glb");
    for (rod, t) in [(None, 0.725), (Some("rod_baitcaster.glb"), 0.782)] {
        let mut stage =
            support::grip_stage::stage_on(&file, rod, anglerpose::fishing::Handedness::Right);
        stage.inputs.state = anglerpose::fishing::SessionState::new(
            anglerpose::fishing::Phase::Retrieve,
            t,
            stage.inputs.state.params,
        );
        stage.update().unwrap();
        let here = format!("{} t={t}", rod.unwrap_or("rod.glb"));
        let eval = stage.evaluation().unwrap();
        assert_eq!(
            eval.frames.grips.get(Side::Left).hold.main(),
            anglerpose::fishing::GripKind::ReelHandle,
            "{here}: the left hand is not on the knob"
        );
        let (eye, target) = eye_and_target(&stage, Side::Left);
        let faces = stage.skin_faces_in_world();
        let body = Solid {
            triangles: faces.clone(),
            rod_from_world: glam::DAffine3::IDENTITY,
        };
        let inside = body.winding(eye);
        assert!(
            inside.abs() < 0.5,
            "{here}: the eye is inside the body ({inside})"
        );
        assert!(eye.y > 0.0, "{here}: the eye is under the floor");
        let near = HAND_REACH * stage.size_factor();
        let crossed = faces_crossed(&faces, eye, target, near);
        assert_eq!(crossed, 0, "{here}: {crossed} skin faces in the way");
        eprintln!("{here}: eye outside (winding {inside:.2}), nothing in the way");
    }
}
