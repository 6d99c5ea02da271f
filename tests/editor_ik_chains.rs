//! UI-logic tests of the per-chain IK inspector and the view toggles, through
//! `EditorState::apply` exactly like the window: per-arm elbow limits, the solver choice,
//! CCD parameters and link limits (all undoable), and x-ray.

mod support;

use anglerpose::editor::files;
use anglerpose::editor::{DocumentCommand, PoseEdit, ViewCommand};
use anglerpose::editor::{EditorCommand as C, EditorState, Snapshot, ViewToggle};
use anglerpose::fishing::{ArmSolverKind, CcdLinkRole};
use anglerpose::rig::{Side, Transform};
use glam::DVec3;
use support::editor::arms;

fn editor() -> EditorState {
    let doc = files::open_default().expect("bundled angler");
    EditorState::new(doc)
}

/// The undoable state and every bone's local transform (the pose is a function of it).
fn state_of(ed: &EditorState) -> (Snapshot, Vec<Transform>) {
    (ed.doc().snapshot(), ed.doc().stage.pose.locals().to_vec())
}

/// Local transforms of one arm's upper arm, forearm and hand.
fn arm_locals(ed: &EditorState, side: Side) -> Vec<Transform> {
    let stage = &ed.doc().stage;
    let arm = stage.actor.arm(side);
    [arm.upper, arm.fore, arm.hand]
        .map(|b| *stage.pose.local(b))
        .to_vec()
}

fn elbow_bend_deg(ed: &EditorState, side: Side) -> f64 {
    let eval = ed.doc().stage.evaluation().unwrap();
    eval.arms.get(side).ik.elbow_bend.to_degrees()
}

#[test]
fn toggling_one_elbows_limit_changes_that_arm_only() {
    let mut ed = editor();
    // A tight limit on both elbows that the seated pose exceeds.
    for side in [Side::Left, Side::Right] {
        assert!(elbow_bend_deg(&ed, side) > 40.0);
        ed.apply(PoseEdit::SetElbowLimit {
            side: Some(side),
            min_deg: 0.0,
            max_deg: 30.0,
            enabled: true,
        })
        .unwrap();
    }
    for side in [Side::Left, Side::Right] {
        assert!((elbow_bend_deg(&ed, side) - 30.0).abs() < 1e-6);
    }
    let left_before = arm_locals(&ed, Side::Left);
    let right_before = arm_locals(&ed, Side::Right);
    let undo_before = ed.history().undo_len();
    // Switch off only the right elbow's limit.
    ed.apply(PoseEdit::SetElbowLimit {
        side: Some(Side::Right),
        min_deg: 0.0,
        max_deg: 30.0,
        enabled: false,
    })
    .unwrap();
    let eval = ed.doc().stage.evaluation().unwrap();
    assert!(!eval.arms.right.ik.elbow_limited);
    assert!(eval.arms.left.ik.elbow_limited);
    assert!(elbow_bend_deg(&ed, Side::Right) > 40.0);
    assert!((elbow_bend_deg(&ed, Side::Left) - 30.0).abs() < 1e-6);
    assert_ne!(arm_locals(&ed, Side::Right), right_before);
    assert_eq!(
        arm_locals(&ed, Side::Left),
        left_before,
        "left arm untouched"
    );
    let s = ed.doc().stage.inputs.settings;
    assert!(s.arms.left.elbow_limit.enabled && !s.arms.right.elbow_limit.enabled);
    assert_eq!(ed.history().undo_len(), undo_before + 1);
    // The global switch still overrides: off frees the left elbow as well.
    ed.apply(PoseEdit::SetLimitsEnabled { on: false }).unwrap();
    assert!(elbow_bend_deg(&ed, Side::Left) > 40.0);
    ed.apply(DocumentCommand::Undo).unwrap();
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(arm_locals(&ed, Side::Right), right_before);
    assert_eq!(arm_locals(&ed, Side::Left), left_before);
}

#[test]
fn switching_the_solver_changes_the_pose_and_undo_restores_it_exactly() {
    let mut ed = editor();
    let before = state_of(&ed);
    let right_before = arm_locals(&ed, Side::Right);
    ed.apply(PoseEdit::SetArmSolver {
        side: Side::Left,
        solver: ArmSolverKind::Ccd,
    })
    .unwrap();
    let after = state_of(&ed);
    assert_ne!(after.1, before.1, "the CCD arm poses differently");
    let eval = ed.doc().stage.evaluation().unwrap();
    assert_eq!(eval.arms.left.solver_kind(), ArmSolverKind::Ccd);
    assert!(eval.arms.left.ik.reached, "{:?}", eval.arms.left);
    assert_eq!(eval.arms.right.solver_kind(), ArmSolverKind::TwoBone);
    assert_eq!(
        arm_locals(&ed, Side::Right),
        right_before,
        "the right arm is untouched"
    );
    assert!(ed.doc().dirty);
    assert_eq!(ed.history().undo_len(), 1);
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(state_of(&ed), before);
    ed.apply(DocumentCommand::Redo).unwrap();
    assert_eq!(state_of(&ed), after);
    // Selecting the solver already in use is not an edit.
    ed.apply(PoseEdit::SetArmSolver {
        side: Side::Left,
        solver: ArmSolverKind::Ccd,
    })
    .unwrap();
    assert_eq!(ed.history().undo_len(), 1);
}

#[test]
fn ccd_parameters_and_link_limits_are_undoable_edits() {
    let mut ed = editor();
    ed.apply(PoseEdit::SetArmSolver {
        side: Side::Right,
        solver: ArmSolverKind::Ccd,
    })
    .unwrap();
    // The planar finish reaches in a pass or two whatever the iteration count; off, the arm
    // runs three's passes alone, and their count shows.
    let finished = state_of(&ed);
    let ccd = arms(&ed).right.ccd().unwrap();
    assert!(
        ccd.planar_finish.is_some() && ccd.iterations <= 2,
        "{ccd:?}"
    );
    ed.apply(PoseEdit::SetCcdPlanarFinish {
        side: Side::Right,
        on: false,
    })
    .unwrap();
    assert!(!ed.doc().stage.inputs.settings.arms.right.ccd.planar_finish);
    let ccd = arms(&ed).right.ccd().unwrap();
    assert_eq!(ccd.planar_finish, None);
    assert_ne!(state_of(&ed).1, finished.1, "three's passes end elsewhere");
    ed.apply(DocumentCommand::Undo).unwrap();
    assert_eq!(state_of(&ed), finished);
    ed.apply(DocumentCommand::Redo).unwrap();
    let start = state_of(&ed);
    // A slider drag over iterations is one step.
    ed.apply(DocumentCommand::BeginGroup).unwrap();
    for n in [40, 20, 3] {
        ed.apply(PoseEdit::SetCcdIterations {
            side: Side::Right,
            iterations: n,
        })
        .unwrap();
    }
    ed.apply(DocumentCommand::EndGroup).unwrap();
    let ccd = arms(&ed).right.ccd().unwrap();
    assert!(ccd.iterations <= 3);
    assert_ne!(state_of(&ed).1, start.1, "3 passes end elsewhere than 64");
    // A tighter forearm hinge range (degrees in, radians stored) clamps the elbow.
    ed.apply(PoseEdit::SetCcdIterations {
        side: Side::Right,
        iterations: 64,
    })
    .unwrap();
    ed.apply(PoseEdit::SetCcdLinkLimits {
        side: Side::Right,
        link: CcdLinkRole::Forearm,
        enabled: true,
        limitation: Some([1.0, 0.0, 0.0]),
        min_deg: Some([2.0, 0.0, 0.0]),
        max_deg: Some([35.0, 0.0, 0.0]),
    })
    .unwrap();
    let l = ed.doc().stage.inputs.settings.arms.right.ccd.forearm;
    assert!((l.rotation_max.unwrap().x - 35f64.to_radians()).abs() < 1e-15);
    let eval = ed.doc().stage.evaluation().unwrap();
    let r = eval.arms.right;
    // The hinge angle sits on its limit; the bend measured between the bones follows it (the
    // angler's bones run along their +Y to within a few microdegrees).
    let hinge = r.ccd().unwrap().links[0].euler();
    assert!((hinge.x - 35f64.to_radians()).abs() < 1e-12, "{hinge}");
    assert!((r.ik.elbow_bend.to_degrees() - 35.0).abs() < 1e-3, "{r:?}");
    assert!(r.ik.elbow_limited && r.ccd().unwrap().links[0].on_limit);
    ed.apply(PoseEdit::SetCcdStepAngles {
        side: Side::Right,
        min_deg: None,
        max_deg: Some(5.0),
    })
    .unwrap();
    ed.apply(PoseEdit::SetCcdBlend {
        side: Side::Right,
        blend: Some(0.5),
    })
    .unwrap();
    let s = ed.doc().stage.inputs.settings.arms.right.ccd;
    assert_eq!(s.blend_factor, Some(0.5));
    assert!((s.max_angle.unwrap() - 5f64.to_radians()).abs() < 1e-15);
    // The solver, the finish, the iteration drag, and four edits since.
    assert_eq!(ed.history().undo_len(), 7);
    for _ in 0..5 {
        ed.apply(DocumentCommand::Undo).unwrap();
    }
    assert_eq!(state_of(&ed), start);
    // Invalid values are refused and change nothing.
    for bad in [
        PoseEdit::SetCcdIterations {
            side: Side::Left,
            iterations: 0,
        },
        PoseEdit::SetCcdStepAngles {
            side: Side::Left,
            min_deg: Some(f64::NAN),
            max_deg: None,
        },
        PoseEdit::SetCcdBlend {
            side: Side::Left,
            blend: Some(-0.1),
        },
        PoseEdit::SetCcdLinkLimits {
            side: Side::Left,
            link: CcdLinkRole::UpperArm,
            enabled: true,
            limitation: Some([0.0; 3]),
            min_deg: None,
            max_deg: None,
        },
        PoseEdit::SetCcdLinkLimits {
            side: Side::Left,
            link: CcdLinkRole::UpperArm,
            enabled: true,
            limitation: None,
            min_deg: Some([10.0, 0.0, 0.0]),
            max_deg: Some([5.0, 0.0, 0.0]),
        },
    ] {
        assert!(ed.apply(bad.clone()).is_err(), "{bad:?}");
    }
    assert_eq!(state_of(&ed), start);
}

#[test]
fn xray_and_mesh_toggles_are_view_only() {
    let mut ed = editor();
    let before = state_of(&ed);
    ed.apply(ViewCommand::Toggle {
        what: ViewToggle::Xray,
        on: true,
    })
    .unwrap();
    assert!(ed.view().options().xray);
    let camera = ed.render_camera();
    let frame = ed.doc().stage.frame(camera, ed.view().options());
    assert_eq!(frame.mesh_style, anglerpose::render::MeshStyle::xray());
    assert!(!frame.skinned.is_empty() && !frame.rigid.is_empty());
    ed.apply(ViewCommand::Toggle {
        what: ViewToggle::Mesh,
        on: false,
    })
    .unwrap();
    let frame = ed.doc().stage.frame(camera, ed.view().options());
    assert!(frame.skinned.is_empty() && !frame.rigid.is_empty());
    assert!(!ed.doc().dirty);
    assert_eq!(ed.history().undo_len(), 0);
    assert_eq!(state_of(&ed), before);
    // The JSON form scripts use.
    let cmd: C = serde_json::from_str(r#"{"cmd": "toggle", "what": "xray", "on": false}"#).unwrap();
    ed.apply(cmd).unwrap();
    assert!(!ed.view().options().xray);
    let both: C = serde_json::from_str(
        r#"{"cmd": "set_elbow_limit", "min_deg": 1, "max_deg": 2, "enabled": true}"#,
    )
    .unwrap();
    assert!(matches!(
        both,
        C::Edit(PoseEdit::SetElbowLimit { side: None, .. })
    ));
}

#[test]
fn ccd_arms_overlay_their_links_and_limits() {
    let mut ed = editor();
    let camera = ed.render_camera();
    let two_bone = ed.doc().stage.frame(camera, ed.view().options()).overlays;
    ed.apply(PoseEdit::SetArmSolver {
        side: Side::Right,
        solver: ArmSolverKind::Ccd,
    })
    .unwrap();
    let stage = &ed.doc().stage;
    let ccd = stage.frame(camera, ed.view().options()).overlays;
    let arm = stage.actor.arm(Side::Right).clone();
    let at = |p: DVec3| [p.x as f32, p.y as f32, p.z as f32];
    use anglerpose::stage::colors;
    let link = colors::linear(colors::LINK, 1.0);
    for bone in [arm.fore, arm.upper] {
        let c = at(stage.pose.world_position(bone));
        assert!(
            ccd.spheres.iter().any(|s| s.centre == c && s.rgba == link),
            "link sphere at bone {bone}"
        );
    }
    let effector = colors::linear(colors::EFFECTOR, 1.0);
    let wrist = at(stage.pose.world_position(arm.hand));
    assert!(
        ccd.spheres
            .iter()
            .any(|s| s.centre == wrist && s.rgba == effector)
    );
    // The pole is greyed out; the elbow's arc is the CCD forearm hinge (the upper arm's
    // limits are off by default, so it draws none): as many arcs as before.
    let unused = colors::linear(colors::UNUSED, 0.5);
    assert_eq!(ccd.spheres.iter().filter(|s| s.rgba == unused).count(), 1);
    assert_eq!(ccd.arcs.len(), two_bone.arcs.len());
    let elbow = at(stage.pose.world_position(arm.fore));
    let arc = ccd
        .arcs
        .iter()
        .find(|a| a.centre == elbow)
        .expect("elbow arc");
    assert!(
        (arc.sweep_rad - 148f32.to_radians()).abs() < 1e-4,
        "{arc:?}"
    );
    // Switching the upper arm's limits on adds its three Euler arcs at the shoulder.
    ed.apply(PoseEdit::SetCcdLinkLimits {
        side: Side::Right,
        link: CcdLinkRole::UpperArm,
        enabled: true,
        limitation: None,
        min_deg: Some([-180.0, -90.0, -180.0]),
        max_deg: Some([180.0, 90.0, 180.0]),
    })
    .unwrap();
    let stage = &ed.doc().stage;
    let more = stage.frame(camera, ed.view().options()).overlays;
    let shoulder = at(stage.pose.world_position(arm.upper));
    assert_eq!(more.arcs.iter().filter(|a| a.centre == shoulder).count(), 3);
}

#[test]
fn a_ccd_arms_pole_cannot_be_picked_or_dragged() {
    use anglerpose::editor::Handle;
    use anglerpose::editor::pick::{handle_pixel, pick};
    let mut ed = editor();
    ed.apply(ViewCommand::SetViewport {
        width: 900,
        height: 700,
    })
    .unwrap();
    let camera = ed.render_camera();
    let at = handle_pixel(&ed.doc().stage, &camera, Handle::Pole(Side::Right)).expect("on screen");
    let pixel = [at[0] as f32, at[1] as f32];
    assert_eq!(
        pick(&ed.doc().stage, ed.view().options(), &camera, pixel),
        Some(Handle::Pole(Side::Right)),
        "a two-bone arm's pole is pickable"
    );
    ed.apply(PoseEdit::SetArmSolver {
        side: Side::Right,
        solver: ArmSolverKind::Ccd,
    })
    .unwrap();
    let camera = ed.render_camera();
    assert_ne!(
        pick(&ed.doc().stage, ed.view().options(), &camera, pixel),
        Some(Handle::Pole(Side::Right)),
        "the CCD arm's pole (unused by CCD) must not be pickable"
    );
    // The left arm is still two-bone: its pole stays pickable.
    let left = handle_pixel(&ed.doc().stage, &camera, Handle::Pole(Side::Left)).expect("on screen");
    assert_eq!(
        pick(
            &ed.doc().stage,
            ed.view().options(),
            &camera,
            [left[0] as f32, left[1] as f32]
        ),
        Some(Handle::Pole(Side::Left))
    );
}
