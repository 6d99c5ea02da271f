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
use glam::{DMat4, Mat4};
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
        let camera = stage.close_up(Side::Left, [320, 240]).unwrap();
        let world_from_view = Mat4::from_cols_array_2d(&camera.view_from_world)
            .as_dmat4()
            .inverse();
        let eye = world_from_view.w_axis.truncate();
        let forward = -DMat4::col(&world_from_view, 2).truncate().normalize();
        let target = eye + forward * distance;
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
