//! The head follows the fishing (issue 34): on the bundled angler and on the shared
//! characters, the head's forward points at the lure (the fish once one is on) wherever that
//! lies within the neck limits, is held at the limit beyond them, turns half as far at weight
//! ½, and the arms and hands do not move by a bit. Off, the head is the seated pose's.

mod support;

use anglerpose::fishing::head_look::{
    EYE_PITCH_DOWN_LIMIT, EYE_PITCH_UP_LIMIT, EYE_YAW_LIMIT, HeadLookJob, PITCH_DOWN_LIMIT,
    PITCH_UP_LIMIT, YAW_LIMIT,
};
use anglerpose::fishing::{Phase, SessionState};
use anglerpose::gltf_io;
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use glam::{DQuat, DVec3};
use support::fs::{bin, fresh_scratch, stdout_ok};
use support::gltf_edit::{Doc, shared_models};

/// `stage` posed at `phase`/`t` with the head following (`on`) or not.
fn posed(stage: &mut Stage, phase: Phase, t: f64, on: bool) {
    stage.inputs.settings.look.enabled = on;
    stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
    stage.update().expect("poses");
}

/// The head's forward in world space: the actor's forward turned by what the look added to
/// the head's world rotation.
fn forward(stage: &Stage, head_before: DQuat) -> DVec3 {
    let head = stage.map.body.as_ref().unwrap().head;
    let turn = stage.pose.world_rotation(head) * head_before.inverse();
    turn * (stage.world_from_actor.rotation * DVec3::Z)
}

fn check(name: &str, stage: &mut Stage) -> usize {
    let body = stage.map.body.clone().expect("a mapped head");
    let mut followed = 0;
    for phase in Phase::ALL {
        for t in [0.0, 0.5, 1.0] {
            posed(stage, phase, t, false);
            let still = stage.pose.clone();
            let head_before = still.world_rotation(body.head);
            posed(stage, phase, t, true);
            // The arms and hands are exactly where they were.
            for side in anglerpose::fishing::SIDES {
                let arm = stage.actor.arm(side);
                for b in [arm.upper, arm.fore, arm.hand] {
                    assert_eq!(
                        stage.pose.world_position(b),
                        still.world_position(b),
                        "{name} {phase:?} {t}: the arm moved"
                    );
                }
            }
            let target = stage.tackle().unwrap().lure_in_actor;
            let target = stage.world_from_actor.to_affine().transform_point3(target);
            let eye = stage.pose.world_position(body.head);
            let want = (target - eye).normalize();
            let got = forward(stage, head_before);
            // Within the limits the head looks at the target.
            let to = stage.world_from_actor.rotation.inverse() * want;
            let yaw = to.x.atan2(to.z);
            let pitch = to.y.atan2(to.x.hypot(to.z));
            if yaw.abs() < YAW_LIMIT - 0.05 && pitch < PITCH_UP_LIMIT - 0.05 && pitch > -0.8 {
                let off = got.angle_between(want);
                // The neck's part of the turn moves the head's origin a little, so the
                // direction is measured from where the head ended.
                assert!(
                    off < 0.03,
                    "{name} {phase:?} {t}: the head looks {off} rad off"
                );
                followed += 1;
            }
        }
    }
    followed
}

#[test]
fn the_bundled_angler_looks_at_the_lure_and_the_fish() {
    let mut stage = Stage::bundled().expect("bundled");
    let followed = check("angler", &mut stage);
    assert!(followed >= 15, "only {followed} instants within the limits");
}

#[test]
fn shared_characters_look_at_the_lure_and_the_fish() {
    let Some(dir) = shared_models("shared_characters_look_at_the_lure_and_the_fish") else {
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "glb" && e != "gltf") {
            continue;
        }
        let Ok(character) = gltf_io::load(&path) else {
            continue;
        };
        let props = Props::load(&bundled_assets_dir()).unwrap();
        let Ok(mut stage) = Stage::new(character, props) else {
            continue;
        };
        if stage.map.body.is_none() {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let followed = check(&name, &mut stage);
        assert!(followed >= 10, "{name}: only {followed} instants followed");
        seen += 1;
    }
    assert!(seen >= 3, "{seen} shared characters with a head");
}

#[test]
fn limits_and_weight() {
    let mut stage = Stage::bundled().expect("bundled");
    posed(&mut stage, Phase::SeatedHold, 0.5, false);
    let body = stage.map.body.clone().unwrap();
    let base = stage.pose.clone();
    let skel = stage.actor.skeleton.clone();
    let eye = base.world_position(body.head);
    let job = |target: DVec3, weight: f64| HeadLookJob {
        neck: body.neck,
        head: body.head,
        eyes: &[],
        target_in_world: target,
        weight,
        keep: &[],
    };
    // Square to the left (past the limit, short of the fade): held at the yaw limit.
    let actor = stage.world_from_actor.rotation;
    let mut pose = base.clone();
    let left = job(eye + actor * DVec3::new(2.0, 0.0, 0.0), 1.0).solve(&skel, &mut pose);
    assert!(left.limited);
    assert!((left.yaw - YAW_LIMIT).abs() < 1e-9, "{}", left.yaw);
    // Straight behind: the seated pose's head (the turn fades out toward ±π, so a target
    // passing behind never snaps the head from one side to the other).
    for x in [1e-3, -1e-3] {
        let mut pose = base.clone();
        let behind = job(eye + actor * DVec3::new(x, 0.0, -3.0), 1.0).solve(&skel, &mut pose);
        assert!(behind.yaw.abs() < 1e-5, "{}", behind.yaw);
    }
    // Half the weight, half the turn.
    let side = eye + DVec3::new(1.0, 0.3, 1.0);
    let mut full_pose = base.clone();
    let full = job(side, 1.0).solve(&skel, &mut full_pose);
    let mut half_pose = base.clone();
    let half = job(side, 0.5).solve(&skel, &mut half_pose);
    assert!(!full.limited);
    assert!((half.yaw - 0.5 * full.yaw).abs() < 1e-12);
    assert!((half.pitch - 0.5 * full.pitch).abs() < 1e-12);
    // A head whose subtree holds a bone to keep does not turn.
    let mut kept = base.clone();
    let keep = [body.head];
    let none = HeadLookJob {
        keep: &keep,
        ..job(side, 1.0)
    }
    .solve(&skel, &mut kept);
    assert_eq!(none.yaw, 0.0);
    assert_eq!(kept, base);
    // Not finite: nothing.
    let mut nan = base.clone();
    job(DVec3::NAN, 1.0).solve(&skel, &mut nan);
    assert_eq!(nan, base);
}

/// The bundled angler with two eye bones added under its head, as a character file would
/// carry them (Mixamo's names), written to a scratch folder of its own named `name`.
fn angler_with_eyes_file(name: &str) -> std::path::PathBuf {
    let mut doc = Doc::read(&bundled_assets_dir().join("angler.glb"));
    doc.add_child("head", "mixamorig:LeftEye", [0.032, 0.09, 0.085]);
    doc.add_child("head", "mixamorig:RightEye", [-0.032, 0.09, 0.085]);
    let file = fresh_scratch(name).join("angler_eyes.glb");
    std::fs::write(&file, doc.bytes()).unwrap();
    file
}

fn angler_with_eyes() -> Stage {
    let character = gltf_io::load(angler_with_eyes_file("eyes")).expect("loads");
    Stage::new(character, Props::load(&bundled_assets_dir()).unwrap()).expect("stage")
}

/// `inspect` names the eyes it found (text and JSON).
#[test]
fn inspect_names_the_eyes() {
    let file = angler_with_eyes_file("eyes-cli");
    let text = stdout_ok(bin().arg("inspect").arg(&file));
    assert!(
        text.contains("eyes: mixamorig:LeftEye, mixamorig:RightEye"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout_ok(bin().arg("inspect").arg(&file).arg("--json"))).unwrap();
    assert_eq!(
        json.pointer("/humanoid/body/eyes"),
        Some(&serde_json::json!([
            "mixamorig:LeftEye",
            "mixamorig:RightEye"
        ])),
        "{json}"
    );
}

/// The eyes make up what the neck cannot: within the head's limits and the eyes' they look
/// straight at the target from where each eye is (the head looks from its own origin), up to
/// their own limits beyond; without the look they stay as seated, and nothing else moves.
#[test]
fn eyes_look_the_rest_of_the_way() {
    let mut stage = angler_with_eyes();
    let body = stage.map.body.clone().expect("a head");
    let names: Vec<&str> = body
        .eyes
        .iter()
        .map(|&e| stage.actor.skeleton.bone(e).name.as_str())
        .collect();
    assert_eq!(names, ["mixamorig:LeftEye", "mixamorig:RightEye"]);
    let mut exact = 0;
    for phase in Phase::ALL {
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            posed(&mut stage, phase, t, false);
            let still = stage.pose.clone();
            posed(&mut stage, phase, t, true);
            let target = stage.tackle().unwrap().lure_in_actor;
            let target = stage.world_from_actor.to_affine().transform_point3(target);
            let actor = stage.world_from_actor.rotation;
            for &eye in &body.eyes {
                let turn = stage.pose.world_rotation(eye) * still.world_rotation(eye).inverse();
                let gaze = turn * (actor * DVec3::Z);
                let want = (target - stage.pose.world_position(eye)).normalize();
                // Where the target lies from the eye in the seated head's frame.
                let to = actor.inverse() * want;
                let yaw = to.x.atan2(to.z);
                let pitch = to.y.atan2(to.x.hypot(to.z));
                let reach_yaw = YAW_LIMIT + EYE_YAW_LIMIT - 0.05;
                let within = yaw.abs() < reach_yaw
                    && pitch < PITCH_UP_LIMIT + EYE_PITCH_UP_LIMIT - 0.05
                    && pitch > -(PITCH_DOWN_LIMIT + EYE_PITCH_DOWN_LIMIT) + 0.05
                    && to.x.hypot(to.z) > 0.3;
                if within {
                    let off = gaze.angle_between(want);
                    assert!(off < 1e-6, "{phase:?} {t}: the eye looks {off} rad off");
                    exact += 1;
                }
                // In the head, never past the eye's limits.
                let head_turn = stage.pose.world_rotation(body.head)
                    * still.world_rotation(body.head).inverse();
                let in_head = actor.inverse() * (head_turn.inverse() * gaze);
                let (ey, ep) = (
                    in_head.x.atan2(in_head.z),
                    in_head.y.atan2(in_head.x.hypot(in_head.z)),
                );
                assert!(
                    ey.abs() <= EYE_YAW_LIMIT + 1e-9,
                    "{phase:?} {t}: eye yaw {ey}"
                );
                assert!(
                    (-EYE_PITCH_DOWN_LIMIT - 1e-9..=EYE_PITCH_UP_LIMIT + 1e-9).contains(&ep),
                    "{phase:?} {t}: eye pitch {ep}"
                );
            }
            // Nothing but the neck, the head and the eyes moved.
            for bone in 0..stage.actor.skeleton.len() {
                let turned = stage
                    .actor
                    .skeleton
                    .subtree_order(body.neck.unwrap_or(body.head));
                if !turned.contains(&bone) {
                    assert_eq!(
                        stage.pose.world_position(bone),
                        still.world_position(bone),
                        "{phase:?} {t}: {} moved",
                        stage.actor.skeleton.bone(bone).name
                    );
                }
            }
        }
    }
    assert!(exact >= 40, "only {exact} eye aims checked exactly");
}
