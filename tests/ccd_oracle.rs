//! CCD against three.js r187 itself: every `tests/fixtures/ccd/NN_*.json` scene is solved and
//! compared with the `NN_*.expected.json` that `shared/oracles/threejs-ccd/oracle.mjs` printed
//! (7 shipped scenes + our own). f64 port: 1e-9 on quaternion components (sign-insensitive),
//! world positions and distances. Also: the helper data, reports, limit switches, degenerate
//! input and validation errors (the solver's bookkeeping is in `ccd_workspace.rs`).

mod support;

use anglerpose::ik::ccd::{CcdChain, CcdError, CcdLink, CcdSolver, EulerState};
use anglerpose::oracle::{self, SceneError};
use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use glam::{DQuat, DVec3};
use serde_json::Value;
use support::ccd_scenes::{fixtures, load, load_name};

const TOL: f64 = 1e-9;

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn quat_diff(a: &[f64], b: &[f64]) -> f64 {
    let neg: Vec<f64> = b.iter().map(|x| -x).collect();
    max_diff(a, b).min(max_diff(a, &neg))
}

/// Largest difference between f32-rounded points: allow one f32 ulp of the magnitude, since
/// values 1e-11 apart in f64 may round to neighbouring floats.
fn f32_points_close(a: &Value, b: &Value, what: &str) {
    let (a, b) = (a.as_array().unwrap(), b.as_array().unwrap());
    assert_eq!(a.len(), b.len(), "{what}: point count");
    for (p, q) in a.iter().zip(b) {
        for (x, y) in nums(p).iter().zip(nums(q)) {
            let ulp = (y.abs() as f32).max(1e-30).to_bits();
            let step = (f32::from_bits(ulp + 1) - f32::from_bits(ulp)) as f64;
            assert!((x - y).abs() <= step + TOL, "{what}: {x} vs {y}");
        }
    }
}

#[test]
fn at_least_fourteen_scenes_are_checked() {
    let f = fixtures();
    assert!(f.len() >= 14, "only {} scenes", f.len());
    for (_, e) in &f {
        assert!(e.exists(), "{} is missing", e.display());
    }
}

#[test]
fn every_scene_matches_threejs_r187() {
    for (scene_path, expected_path) in fixtures() {
        let name = scene_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let sc = load(&scene_path);
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
        assert!(
            expected["warnings"].as_array().unwrap().is_empty(),
            "{name}: oracle warned"
        );
        let got = oracle::ccd_result(&sc).unwrap();

        let (gb, eb) = (
            got["bones"].as_array().unwrap(),
            expected["bones"].as_array().unwrap(),
        );
        assert_eq!(gb.len(), eb.len(), "{name}");
        for (i, (g, e)) in gb.iter().zip(eb).enumerate() {
            let d = quat_diff(&nums(&g["quaternion"]), &nums(&e["quaternion"]));
            assert!(d <= TOL, "{name}: bones[{i}].quaternion off by {d:e}");
            let d = quat_diff(&nums(&g["worldQuaternion"]), &nums(&e["worldQuaternion"]));
            assert!(d <= TOL, "{name}: bones[{i}].worldQuaternion off by {d:e}");
            for key in ["worldPosition", "eulerXYZ", "position", "scale"] {
                let d = max_diff(&nums(&g[key]), &nums(&e[key]));
                assert!(d <= TOL, "{name}: bones[{i}].{key} off by {d:e}");
            }
            assert_eq!(g["name"], e["name"], "{name}: bones[{i}].name");
        }

        let (gc, ec) = (
            got["chains"].as_array().unwrap(),
            expected["chains"].as_array().unwrap(),
        );
        assert_eq!(gc.len(), ec.len(), "{name}");
        for (k, (g, e)) in gc.iter().zip(ec).enumerate() {
            for key in ["distance", "initialDistance"] {
                let d = (g[key].as_f64().unwrap() - e[key].as_f64().unwrap()).abs();
                assert!(d <= TOL, "{name}: chains[{k}].{key} off by {d:e}");
            }
            for key in [
                "distanceHistory",
                "targetWorld",
                "effectorWorld",
                "initialEffectorWorld",
            ] {
                let d = max_diff(&nums(&g[key]), &nums(&e[key]));
                assert!(d <= TOL, "{name}: chains[{k}].{key} off by {d:e}");
            }
            assert_eq!(g["target"], e["target"]);
            assert_eq!(g["effector"], e["effector"]);
        }

        let (gh, eh) = (
            got["helper"].as_array().unwrap(),
            expected["helper"].as_array().unwrap(),
        );
        assert_eq!(gh.len(), eh.len(), "{name}");
        for (k, (g, e)) in gh.iter().zip(eh).enumerate() {
            for key in ["target", "effector"] {
                let d = max_diff(&nums(&g[key]["position"]), &nums(&e[key]["position"]));
                assert!(d <= TOL, "{name}: helper[{k}].{key} off by {d:e}");
                assert_eq!(
                    g[key]["material"], e[key]["material"],
                    "{name}: {key} material"
                );
            }
            let (gl, el) = (
                g["links"].as_array().unwrap(),
                e["links"].as_array().unwrap(),
            );
            assert_eq!(gl.len(), el.len());
            for (a, b) in gl.iter().zip(el) {
                assert!(
                    max_diff(&nums(&a["position"]), &nums(&b["position"])) <= TOL,
                    "{name}"
                );
                assert_eq!(a["material"], b["material"]);
            }
            f32_points_close(&g["line"]["points"], &e["line"]["points"], &name);
            assert_eq!(g["line"]["material"], e["line"]["material"]);
            assert_eq!(g["sphere"], e["sphere"]);
        }

        // The conditioning estimate is a difference of two solves: compare it loosely.
        for key in ["maxQuatComponentDelta", "maxWorldPositionDelta"] {
            let (g, e) = (
                got["conditioning"][key].as_f64().unwrap(),
                expected["conditioning"][key].as_f64().unwrap(),
            );
            assert!(
                (g - e).abs() <= 1e-8,
                "{name}: conditioning.{key} {g:e} vs {e:e}"
            );
        }
        assert_eq!(got["updates"], expected["updates"]);
    }
}

#[test]
fn disabled_middle_link_stops_the_loop() {
    let sc = load_name("08_disabled_middle");
    let run = oracle::run_ccd(&sc, 0.0);
    let chain = &run.last_report.chains[0];
    assert!(chain.links[0].rotations > 0);
    for l in &chain.links[1..] {
        assert_eq!(
            l.rotations, 0,
            "links beyond the disabled one must not move"
        );
        assert_eq!(l.euler, EulerState::Untouched);
    }
    for l in &sc.solver.chains[0].links[1..] {
        assert_eq!(
            run.pose.local(l.index).rotation,
            sc.pose.local(l.index).rotation
        );
    }
}

#[test]
fn report_counts_passes_and_limits() {
    // 06: 10 passes of maxAngle 0.05 never converge: all passes run.
    let sc = load_name("06_maxangle_iter10");
    let mut pose = sc.pose.clone();
    let r = sc.solver.update(&sc.skeleton, &mut pose, 1.0);
    assert_eq!(r.chains[0].iterations, 10);
    assert!(!r.chains[0].exited_early);
    assert!(r.chains[0].final_distance < r.chains[0].initial_distance);

    // 04: lowerarm X ends at its minimum 1.2 (README): the Euler clamp reports it.
    let sc = load_name("04_kira_arm_euler_limits");
    let run = oracle::run_ccd(&sc, 0.0);
    let lower = &run.last_report.chains[0].links[0];
    assert!(lower.on_limit, "lowerarm should sit on its limit");
    match lower.euler {
        EulerState::Stored(v) => assert!((v.x - 1.2).abs() < 1e-12, "{v}"),
        other => panic!("expected a stored Euler, got {other:?}"),
    }

    // A second update from a solved, reachable pose has nothing to do: early exit.
    let sc = load_name("03_hinge_limitation");
    let mut pose = sc.pose.clone();
    let mut chain = sc.solver.chains[0].clone();
    chain.iteration = 200;
    let solver = CcdSolver::new(vec![chain]);
    let first = solver.update(&sc.skeleton, &mut pose, 1.0);
    assert!(first.chains[0].exited_early, "{:?}", first.chains[0]);
    assert!(first.chains[0].iterations < 200);
    pose.refresh_all(&sc.skeleton);
    let again = solver.update(&sc.skeleton, &mut pose, 1.0);
    assert_eq!(again.chains[0].iterations, 1);
    assert!(again.chains[0].exited_early);
}

#[test]
fn switched_off_limits_are_ignored() {
    // Per link: a link whose limits are off solves like the same link without limits.
    let sc = load_name("03_hinge_limitation");
    let mut off = sc.solver.clone();
    off.chains[0].links[0].limits_enabled = false;
    let mut free = sc.solver.clone();
    free.chains[0].links[0].limitation = None;
    let (mut a, mut b, mut c) = (sc.pose.clone(), sc.pose.clone(), sc.pose.clone());
    let _ = off.update(&sc.skeleton, &mut a, 1.0);
    let _ = free.update(&sc.skeleton, &mut b, 1.0);
    let _ = sc.solver.update(&sc.skeleton, &mut c, 1.0);
    assert_eq!(a, b);
    assert_ne!(a, c, "the limitation must matter in this scene");

    // Globally: every Euler limit of 04 ignored.
    let sc = load_name("04_kira_arm_euler_limits");
    let mut off = sc.solver.clone();
    off.limits_enabled = false;
    let mut free = sc.solver.clone();
    for l in &mut free.chains[0].links {
        l.rotation_min = None;
        l.rotation_max = None;
    }
    let (mut a, mut b) = (sc.pose.clone(), sc.pose.clone());
    let ra = off.update(&sc.skeleton, &mut a, 1.0);
    let _ = free.update(&sc.skeleton, &mut b, 1.0);
    assert_eq!(a, b);
    assert!(ra.chains[0].links.iter().all(|l| !l.on_limit));
}

fn line_skeleton(n: usize) -> Skeleton {
    let mut bones: Vec<Bone> = (0..n)
        .map(|i| Bone {
            name: format!("b{i}"),
            parent: i.checked_sub(1),
            rest: Transform::from_translation(if i == 0 { DVec3::ZERO } else { DVec3::Y }),
        })
        .collect();
    bones.push(Bone {
        name: "target".into(),
        parent: None,
        rest: Transform::IDENTITY,
    });
    Skeleton::new(bones).unwrap()
}

#[test]
fn degenerate_targets_stay_finite() {
    // 4 bones on +Y; target (bone 4) placed: on a link, behind the chain, at the effector.
    let skel = line_skeleton(4);
    let links = vec![CcdLink::new(2), CcdLink::new(1), CcdLink::new(0)];
    let mut chain = CcdChain::new(4, 3, links);
    chain.iteration = 20;
    chain.min_angle = Some(0.01);
    let solver = CcdSolver::new(vec![chain]);
    solver.validate(&skel).unwrap();
    for target in [
        DVec3::new(0.0, 2.0, 0.0),  // exactly on link 2
        DVec3::new(0.0, -3.0, 0.0), // straight behind every link (cross = 0)
        DVec3::new(0.0, 3.0, 0.0),  // on the effector
        DVec3::ZERO,                // on the root
    ] {
        let mut pose = Pose::rest(&skel);
        pose.set_local(4, Transform::from_translation(target));
        pose.refresh_all(&skel);
        let r = solver.update(&skel, &mut pose, 0.5);
        assert!(pose.is_finite(), "target {target}");
        for i in 0..pose.len() {
            assert!(pose.world_position(i).is_finite());
            let q = pose.local(i).rotation;
            assert!(
                (q.length() - 1.0).abs() < 1e-9,
                "non-unit {q} for target {target}"
            );
        }
        assert!(r.chains[0].final_distance.is_finite());
        if target.y < 0.0 {
            // Exactly behind: three would build a non-unit quaternion; we turn about a
            // perpendicular instead, so the chain folds toward the target.
            assert!(
                r.chains[0].final_distance < r.chains[0].initial_distance - 0.5,
                "{r:?}"
            );
        }
    }
}

#[test]
fn links_that_are_not_a_parent_chain_are_an_error() {
    let skel = line_skeleton(4);
    // Skips bone 2: links[0] must be the effector's parent.
    let bad = CcdSolver::new(vec![CcdChain::new(4, 3, vec![CcdLink::new(1)])]);
    match bad.validate(&skel) {
        Err(e @ CcdError::NotAChain { .. }) => {
            assert_eq!(e.path(), "iks[0].links[0].index");
            assert!(e.to_string().contains("iks[0].links[0].index"), "{e}");
        }
        other => panic!("expected NotAChain, got {other:?}"),
    }
    // Right bones, wrong order.
    let bad = CcdSolver::new(vec![CcdChain::new(
        4,
        3,
        vec![CcdLink::new(2), CcdLink::new(0), CcdLink::new(1)],
    )]);
    assert!(matches!(
        bad.validate(&skel),
        Err(CcdError::NotAChain { .. })
    ));
    let bad = CcdSolver::new(vec![CcdChain::new(9, 3, vec![])]);
    assert_eq!(
        bad.validate(&skel).unwrap_err().to_string(),
        "iks[0].target: 9 is out of range (5 bones)"
    );
    let mut link = CcdLink::new(2);
    link.limitation = Some(DVec3::ZERO);
    let bad = CcdSolver::new(vec![CcdChain::new(4, 3, vec![link])]);
    assert!(bad.validate(&skel).is_err());
    // update() on an unvalidated out-of-range chain skips it rather than panicking.
    let mut pose = Pose::rest(&skel);
    let r = CcdSolver::new(vec![CcdChain::new(4, 3, vec![CcdLink::new(77)])])
        .update(&skel, &mut pose, 1.0);
    assert!(r.chains[0].skipped);
}

fn scene_err(text: &str) -> SceneError {
    oracle::parse_scene(text, "scene.json").expect_err("should fail")
}

const GOOD: &str = r#"{"bones": [
  {"name": "a", "parent": -1, "position": [0, 0, 0]},
  {"name": "b", "parent": 0, "position": [0, 1, 0]},
  {"name": "c", "parent": 1, "position": [0, 1, 0]},
  {"name": "t", "parent": -1, "position": [1, 1, 0]}
], "iks": [{"target": 3, "effector": 2, "links": [{"index": 1}, {"index": 0}]}]}"#;

#[test]
fn scene_errors_name_the_source_and_json_path() {
    assert!(oracle::parse_scene(GOOD, "scene.json").is_ok());
    let cases: &[(&str, &str, &str)] = &[
        (
            r#""index": 0}]}"#,
            r#""index": 9}]}"#,
            "scene.json: iks[0].links[1].index: 9 is out of range (4 bones)",
        ),
        (
            r#""index": 0}]}"#,
            r#""index": 3}]}"#,
            "scene.json: iks[0].links[1].index: bone 3 is not the parent of bone 1",
        ),
        (
            r#""target": 3, "#,
            "",
            "scene.json: iks[0].target: missing required key",
        ),
        (
            r#"[1, 1, 0]"#,
            r#"[1, 1e999, 0]"#,
            "scene.json: invalid JSON at line 5, column",
        ),
        (
            r#"[1, 1, 0]"#,
            r#"[1, "1", 0]"#,
            "scene.json: bones[3].position[1]: expected a number, found a string",
        ),
        (
            r#""parent": 0, "position": [0, 1, 0]}"#,
            r#""parent": 2, "position": [0, 1, 0]}"#,
            "scene.json: bones[",
        ),
        (
            r#"{"index": 1}"#,
            r#"{"index": 1, "enabled": 0}"#,
            "scene.json: iks[0].links[0].enabled: expected true or false",
        ),
        (
            r#"{"index": 1}"#,
            r#"{"index": 1, "limitation": [0, 0, 0]}"#,
            "scene.json: iks[0].links[0].limitation: axis has zero length",
        ),
        (
            r#""links""#,
            r#""iteration": 1.5, "links""#,
            "scene.json: iks[0].iteration: 1.5 is not an integer",
        ),
        (
            r#"[1, 1, 0]}"#,
            r#"[1, 1, 0] "#,
            "scene.json: invalid JSON at line",
        ),
    ];
    for (from, to, want) in cases {
        assert!(GOOD.contains(from), "{from}");
        let err = scene_err(&GOOD.replacen(from, to, 1)).to_string();
        assert!(err.starts_with(want), "got: {err}\nwant: {want}");
    }
    // The overflow and cycle messages also carry their paths.
    let e = scene_err(&GOOD.replacen("[1, 1, 0]", "[1, 1e999, 0]", 1)).to_string();
    assert!(
        e.contains("bones[3].position") && e.contains("finite"),
        "{e}"
    );
    let e = scene_err(&GOOD.replacen(
        r#""parent": -1, "position": [0, 0, 0]"#,
        r#""parent": 2, "position": [0, 0, 0]"#,
        1,
    ))
    .to_string();
    assert!(e.contains(".parent") && e.contains("cycle"), "{e}");
    let e = scene_err("{\"bones\": [\n  {\"parent\": -1,,}\n]}").to_string();
    assert!(e.contains("line 2") && e.contains("bones[0]"), "{e}");
}

#[test]
fn two_bone_block_is_parsed_and_validated() {
    let with = GOOD.replacen(
        "\"iks\"",
        r#""twoBone": {"root": 0, "mid": 1, "tip": 2, "target": [1, 1, 0], "pole": [0, 1, 1],
           "weight": 0.5, "elbowLimitDeg": [0, 150]}, "iks""#,
        1,
    );
    let sc = oracle::parse_scene(&with, "scene.json").unwrap();
    let tb = sc.two_bone.unwrap();
    assert_eq!((tb.root, tb.mid, tb.tip), (0, 1, 2));
    assert_eq!(tb.pole, DVec3::new(0.0, 1.0, 1.0));
    assert_eq!(tb.weight, Some(0.5));
    assert_eq!(tb.soften, None);
    assert_eq!(tb.elbow_limit_deg, Some([0.0, 150.0]));
    let e = scene_err(&with.replacen("\"tip\": 2", "\"tip\": 7", 1)).to_string();
    assert_eq!(e, "scene.json: twoBone.tip: 7 is out of range (4 bones)");
    let e = scene_err(&with.replacen("[0, 1, 1]", "[0, 1]", 1)).to_string();
    assert!(
        e.starts_with("scene.json: twoBone.pole: expected [x, y, z]"),
        "{e}"
    );
}

#[test]
fn helper_positions_are_mesh_local() {
    // Scene 10 has a rotated, translated, scaled mesh: the helper shows bone positions in the
    // mesh's frame, so they must differ from world positions and map back onto them.
    let sc = load_name("10_scaled_rotated_parent");
    let run = oracle::run_ccd(&sc, 0.0);
    let h = oracle::result_json(&sc, &run, None);
    let chain = &sc.solver.chains[0];
    let local = DVec3::from_array(
        nums(&h["helper"][0]["effector"]["position"])
            .try_into()
            .unwrap(),
    );
    let world = run.pose.world_position(chain.effector);
    assert!((local - world).length() > 0.1);
    assert!((sc.mesh.to_affine().transform_point3(local) - world).length() < 1e-12);
    assert!(h.get("conditioning").is_none());
    let _ = DQuat::IDENTITY;
}

#[test]
fn converged_within_stops_a_chain_once_the_effector_is_close_and_none_is_threes() {
    // 4 bones on +Y (links 2, 1, 0; effector 3); a reachable target off the line.
    let skel = line_skeleton(4);
    let links = vec![CcdLink::new(2), CcdLink::new(1), CcdLink::new(0)];
    let mut chain = CcdChain::new(4, 3, links);
    chain.iteration = 200;
    let three = CcdSolver::new(vec![chain.clone()]);
    chain.converged_within = Some(1e-3);
    let close = CcdSolver::new(vec![chain]);
    let mut rest = Pose::rest(&skel);
    rest.set_local(4, Transform::from_translation(DVec3::new(1.3, 1.9, 0.4)));
    rest.refresh_all(&skel);
    let (mut a, mut b) = (rest.clone(), rest.clone());
    let ra = three.update(&skel, &mut a, 1.0);
    let rb = close.update(&skel, &mut b, 1.0);
    let (ca, cb) = (&ra.chains[0], &rb.chains[0]);
    assert!(cb.final_distance <= 1e-3, "{}", cb.final_distance);
    assert!(
        cb.iterations < ca.iterations,
        "{} passes with the stop, {} without",
        cb.iterations,
        ca.iterations
    );
    assert!(cb.exited_early);
    // Without it the chain runs until a pass rotates nothing, reaching much closer.
    assert!(ca.final_distance < cb.final_distance);
}
