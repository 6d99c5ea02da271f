//! The CCD solver's bookkeeping on the oracle scenes: world transforms after an update, the
//! path-only refresh, and reusing a report and workspace (including cached limit tests
//! after the limits change) gives what a fresh update gives.

mod support;

use anglerpose::ik::ccd::CcdWorkspace;
use support::ccd_scenes::{fixtures, load, load_name};

/// The solver's world transforms after an update equal a full refresh of its locals (the
/// path-only refresh inside a chain must leave nothing stale).
#[test]
fn world_transforms_are_current_after_update() {
    for (p, _) in fixtures() {
        let sc = load(&p);
        let mut pose = sc.pose.clone();
        let _ = sc.solver.update(
            &sc.skeleton,
            &mut pose,
            sc.global_blend_factor.unwrap_or(1.0),
        );
        let mut fresh = pose.clone();
        fresh.refresh_all(&sc.skeleton);
        for i in 0..pose.len() {
            let d = (pose.world_position(i) - fresh.world_position(i)).length();
            assert!(d < 1e-12, "{}: bone {i} stale by {d}", p.display());
        }
    }
}

/// `CcdRefresh::Path` gives the same locals and reports as `Subtree`, and leaves the path
/// (every link and the effector) current; a refresh of the rest afterwards gives the pose
/// `Subtree` gives.
#[test]
fn path_refresh_keeps_the_chain_current_and_the_result_unchanged() {
    use anglerpose::ik::ccd::CcdRefresh;
    for (p, _) in fixtures() {
        let sc = load(&p);
        if sc.solver.chains.len() != 1 {
            continue; // a later chain may read bones off an earlier chain's path
        }
        let blend = sc.global_blend_factor.unwrap_or(1.0);
        let mut subtree = sc.pose.clone();
        let a = sc.solver.update(&sc.skeleton, &mut subtree, blend);
        let mut path_solver = sc.solver.clone();
        path_solver.refresh = CcdRefresh::Path;
        let mut path = sc.pose.clone();
        let b = path_solver.update(&sc.skeleton, &mut path, blend);
        assert_eq!(a, b, "{}", p.display());
        assert_eq!(subtree.locals(), path.locals());
        let chain = &sc.solver.chains[0];
        let on_path = chain.links.iter().map(|l| l.index).chain([chain.effector]);
        for i in on_path {
            assert_eq!(
                subtree.world_from_bone(i),
                path.world_from_bone(i),
                "bone {i}"
            );
        }
        path.refresh_all(&sc.skeleton);
        assert_eq!(
            subtree.world_matrices(),
            path.world_matrices(),
            "{}",
            p.display()
        );
    }
}

/// A workspace reused after a link's Euler limits change (its cached inside-the-range tests
/// must follow them) gives exactly what a fresh workspace gives, limits tightened until
/// they bind, loosened again, switched off and on.
#[test]
fn a_reused_workspace_follows_changed_euler_limits() {
    let sc = load_name("04_kira_arm_euler_limits");
    let mut work = CcdWorkspace::default();
    let mut report = anglerpose::ik::ccd::CcdReport::default();
    let mut solver = sc.solver.clone();
    let limited: Vec<usize> = (0..solver.chains[0].links.len())
        .filter(|&j| solver.chains[0].links[j].rotation_max.is_some())
        .collect();
    assert!(!limited.is_empty());
    let mut bound = 0;
    for (k, scale) in [1.0, 0.05, 0.3, 1.0, 0.05].into_iter().enumerate() {
        for &j in &limited {
            let (lo, hi) = {
                let l = &sc.solver.chains[0].links[j];
                (l.rotation_min.unwrap(), l.rotation_max.unwrap())
            };
            let c = (lo + hi) * 0.5;
            let link = &mut solver.chains[0].links[j];
            link.rotation_min = Some(c + (lo - c) * scale);
            link.rotation_max = Some(c + (hi - c) * scale);
        }
        solver.limits_enabled = k != 3;
        let mut reused = sc.pose.clone();
        solver.update_into(&sc.skeleton, &mut reused, 1.0, &mut report, &mut work);
        let mut fresh = sc.pose.clone();
        let want = solver.update(&sc.skeleton, &mut fresh, 1.0);
        assert_eq!(reused, fresh, "step {k}");
        assert_eq!(report, want, "step {k}");
        bound += want.chains[0].links.iter().filter(|l| l.on_limit).count();
    }
    assert!(
        bound > 0,
        "the tightened limits never bound: the test shows nothing"
    );
}

#[test]
fn update_into_reuses_the_report_and_equals_update() {
    let sc = load_name("12_two_chains_shared_root");
    let mut a = sc.pose.clone();
    let mut b = sc.pose.clone();
    let fresh = sc.solver.update(&sc.skeleton, &mut a, 1.0);
    let mut reused = sc.solver.update(&sc.skeleton, &mut sc.pose.clone(), 1.0);
    let mut work = CcdWorkspace::default();
    sc.solver
        .update_into(&sc.skeleton, &mut b, 1.0, &mut reused, &mut work);
    assert_eq!(a, b);
    assert_eq!(fresh.chains.len(), reused.chains.len());
    for (x, y) in fresh.chains.iter().zip(&reused.chains) {
        assert_eq!(x.links, y.links);
        assert_eq!(x.final_distance, y.final_distance);
    }
}
