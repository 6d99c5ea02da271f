//! Finger curl on the CPU (seed 001 §7): after a pose update every finger joint carries its
//! share of the curl, bends about an axis across its own bone (the bend is composed after the
//! base rotation, in the joint's frame), and its world transform is its parent's world times
//! its local — for the bundled angler and, where ../shared is present, mannequiny, whose finger
//! bones have non-identity base rotations.

mod support;

use anglerpose::fishing::SIDES;
use anglerpose::gltf_io;
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use support::gltf_edit::shared_models;

fn stages() -> Vec<(String, Stage)> {
    let mut out = vec![("angler".to_string(), Stage::bundled().unwrap())];
    if let Some(dir) = shared_models("fingers: mannequiny") {
        let c = gltf_io::load(dir.join("mannequiny-0.3.0.glb")).unwrap();
        let props = Props::load(&bundled_assets_dir()).unwrap();
        out.push(("mannequiny".to_string(), Stage::new(c, props).unwrap()));
    }
    for (_, s) in &mut out {
        // These tests are about the parametric curl (the contact grips are tests/grip_contact.rs).
        s.inputs.settings.finger_contact = false;
        for side in SIDES {
            let h = s.inputs.calibration.hands.get_mut(side);
            h.finger_curl = 0.9;
            h.thumb_curl = 0.8;
        }
        s.update().unwrap();
    }
    out
}

#[test]
fn every_finger_joint_bends_across_its_bone_by_its_share() {
    for (name, stage) in stages() {
        let skel = &stage.actor.skeleton;
        let mut fingers = 0;
        for side in SIDES {
            for (finger, chain) in &stage.actor.arm(side).fingers {
                fingers += 1;
                let mut angles = Vec::new();
                for (k, &j) in chain.joints.iter().enumerate() {
                    let base = stage.actor.base.local(j).rotation;
                    let rel = base.inverse() * stage.pose.local(j).rotation;
                    let (axis_in_bone, angle) = rel.to_axis_angle();
                    angles.push(angle);
                    // The bend axis, in world: through the parent's posed rotation and the
                    // joint's base rotation (the bend acts in the joint's own frame).
                    let parent = skel.parent(j).unwrap();
                    let axis_world = stage.pose.world_rotation(parent) * base * axis_in_bone;
                    // Across the bone: perpendicular to the joint → child direction.
                    let child = chain
                        .joints
                        .get(k + 1)
                        .copied()
                        .or_else(|| skel.children(j).first().copied());
                    if let Some(c) = child {
                        let dir = (stage.pose.world_position(c) - stage.pose.world_position(j))
                            .normalize();
                        assert!(
                            axis_world.dot(dir).abs() < 0.2,
                            "{name} {side:?} {finger:?} joint {k}: bends about {axis_world:?}, \
                             not across its bone {dir:?}"
                        );
                    }
                }
                // Every joint takes part; none carries the whole curl.
                let total: f64 = angles.iter().sum();
                for (k, a) in angles.iter().enumerate() {
                    assert!(
                        *a > 0.12 * total && *a < 0.6 * total,
                        "{name} {side:?} {finger:?}: joint {k} bends {a:.3} of {total:.3} rad"
                    );
                }
            }
        }
        assert!(fingers >= 8, "{name}: only {fingers} fingers");
    }
}

#[test]
fn finger_world_transforms_are_the_parents_world_times_the_local() {
    for (name, stage) in stages() {
        let skel = &stage.actor.skeleton;
        for side in SIDES {
            for (finger, chain) in &stage.actor.arm(side).fingers {
                for &j in &chain.joints {
                    let parent = skel.parent(j).unwrap();
                    let want =
                        *stage.pose.world_from_bone(parent) * stage.pose.local(j).to_affine();
                    let got = stage.pose.world_from_bone(j);
                    let d = (got.translation - want.translation).length()
                        + (got.matrix3 - want.matrix3)
                            .abs()
                            .to_cols_array()
                            .iter()
                            .sum::<f64>();
                    assert!(
                        d < 1e-12,
                        "{name} {side:?} {finger:?} bone {j}: stale by {d:e}"
                    );
                }
            }
        }
        // The fingertips have moved with the curl (the check above is not vacuous).
        let tip = |s: &Stage| {
            let chain = &s.actor.arm(anglerpose::rig::Side::Right).fingers[1].1;
            s.pose.world_position(*chain.joints.last().unwrap())
        };
        let mut open = stage.clone();
        open.inputs.calibration.hands.right.finger_curl = 0.0;
        open.update().unwrap();
        assert!(
            (tip(&stage) - tip(&open)).length() > 0.005,
            "{name}: curl moves no tip"
        );
    }
}

/// A curl through kept bends (`FingerChain::curl_with`, as the poser curls) is bit for bit
/// the plain curl: by the same amount again, by another amount, and for another finger
/// through the same bends.
#[test]
fn kept_bends_curl_exactly_like_a_fresh_curl() {
    use anglerpose::ik::hand::CurlBends;
    let stage = Stage::bundled().unwrap();
    let fingers = &stage.actor.arm(SIDES[0]).fingers;
    assert!(fingers.len() >= 2);
    let mut bends = CurlBends::default();
    for (chain, amount) in [
        (&fingers[0].1, 0.7),
        (&fingers[0].1, 0.7),
        (&fingers[0].1, 0.71),
        (&fingers[1].1, 0.71),
        (&fingers[1].1, -0.2),
    ] {
        let mut fresh = stage.actor.base.clone();
        chain.curl(&mut fresh, &[], amount).unwrap();
        let mut kept = stage.actor.base.clone();
        chain.curl_with(&mut kept, amount, &mut bends).unwrap();
        assert_eq!(kept.locals(), fresh.locals(), "{amount}");
        assert_ne!(fresh.locals(), stage.actor.base.locals());
    }
    let mut pose = stage.actor.base.clone();
    assert!(
        fingers[0]
            .1
            .curl_with(&mut pose, f64::NAN, &mut bends)
            .is_err()
    );
    assert!(fingers[0].1.curl_with(&mut pose, 2.0, &mut bends).is_err());
    assert_eq!(
        pose.locals(),
        stage.actor.base.locals(),
        "a refused curl changes nothing"
    );
}
