//! Line, lure and a rod that bends (issue 34): the core's pure functions of the session
//! state. The line leaves the rod's (bent) tip in every phase, the lure hangs above the water
//! in the hold, the curve is continuous across every phase boundary; the bend is straight
//! without a pull, grows with the pull, is largest for a slow action, leaves the handle where
//! it is, never folds back, keeps the blank's length, and matches linear beam theory for a
//! small load.

use anglerpose::fishing::rod_bend::{
    BEND_JOINTS, BEND_SEGMENTS, BendChain, MAX_TIP_TURN, RATED_DEFLECTION, RATED_LOAD, RodBendJob,
};
use anglerpose::fishing::seat::BodyFit;
use anglerpose::fishing::tackle::LINE_POINTS;
use anglerpose::fishing::{
    Gear, GripCalibration, Handedness, Phase, RodAction, SessionFrames, SessionParams,
    SessionState, Tackle, TackleJob,
};
use glam::{DQuat, DVec3};

mod support;

fn calibration() -> GripCalibration {
    support::angler::angler().default_calibration()
}

fn tackle(state: &SessionState, gear: &Gear) -> Tackle {
    TackleJob {
        state,
        calibration: &calibration(),
        fit: &BodyFit::IDENTITY,
        gear,
        guides: &[],
        reel_exit_in_rod: None,
    }
    .solve()
    .expect("tackle solves")
}

fn instants(params: SessionParams, per_phase: usize) -> Vec<SessionState> {
    Phase::ALL
        .into_iter()
        .flat_map(|phase| {
            (0..=per_phase)
                .map(move |i| SessionState::new(phase, i as f64 / per_phase as f64, params))
        })
        .collect()
}

fn both_hands() -> [SessionParams; 2] {
    let right = SessionParams::default();
    let left = SessionParams {
        handedness: Handedness::Left,
        ..right
    };
    [right, left]
}

#[test]
fn the_line_leaves_the_rods_tip_in_every_phase() {
    for params in both_hands() {
        for state in instants(params, 20) {
            let t = tackle(&state, &Gear::BUNDLED);
            assert_eq!(t.line_in_actor.len(), LINE_POINTS);
            // The tip as the rod's mesh is bent: the rest tip through the chain's skin
            // weights, placed by the rod's frame.
            let frames = anglerpose::fishing::SessionFrames::evaluate_geared(
                &state,
                &calibration(),
                &BodyFit::IDENTITY,
                &Gear::BUNDLED,
            );
            let rod = frames.actor_from_rod;
            let rest_tip = DVec3::Y * Gear::BUNDLED.rod.length;
            let tip = rod.translation + rod.rotation * t.bend.bend_point(rest_tip);
            let d = t.line_in_actor[0].distance(tip);
            assert!(
                d < 1e-9,
                "{:?} t={}: the line starts {d} m from the tip",
                state.phase,
                state.t
            );
            assert!(t.line_in_actor.iter().all(|p| p.is_finite()));
            let end = *t.line_in_actor.last().unwrap();
            assert!(end.distance(t.lure_in_actor) < 1e-9);
        }
    }
}

#[test]
fn the_lure_hangs_above_the_water_in_the_hold() {
    for params in both_hands() {
        for i in 0..=40 {
            let state = SessionState::new(Phase::SeatedHold, i as f64 / 40.0, params);
            let t = tackle(&state, &Gear::BUNDLED);
            assert!(
                t.lure_in_actor.y >= params.water.height,
                "t={}: the lure at {} is under the water at {}",
                state.t,
                t.lure_in_actor.y,
                params.water.height
            );
            // It hangs on the drop, below the tip.
            let drop = t.tip_in_actor.distance(t.lure_in_actor);
            assert!((drop - params.line.drop).abs() < 1e-9, "drop {drop}");
            assert!(t.lure_in_actor.y < t.tip_in_actor.y);
            assert!(t.fish_in_actor.is_none());
        }
    }
}

#[test]
fn the_line_is_continuous_across_phase_boundaries() {
    for params in both_hands() {
        for pair in Phase::ALL.windows(2) {
            let end = tackle(&SessionState::new(pair[0], 1.0, params), &Gear::BUNDLED);
            let start = tackle(&SessionState::new(pair[1], 0.0, params), &Gear::BUNDLED);
            let worst = end
                .line_in_actor
                .iter()
                .zip(&start.line_in_actor)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f64::max);
            assert!(
                worst < 1e-3,
                "{:?} → {:?}: the line jumps {worst} m",
                pair[0],
                pair[1]
            );
            assert!((end.pull - start.pull).abs() < 1e-9);
        }
    }
}

#[test]
fn the_cast_lands_on_the_water_and_the_retrieve_brings_it_in() {
    let params = SessionParams::default();
    let landed = tackle(
        &SessionState::new(Phase::Release, 1.0, params),
        &Gear::BUNDLED,
    );
    let lure = landed.lure_in_actor;
    assert!((lure.y - params.water.height).abs() < 1e-9);
    assert!(lure.z > params.water.near);
    let out = DVec3::new(
        lure.x - landed.tip_in_actor.x,
        0.0,
        lure.z - landed.tip_in_actor.z,
    );
    assert!(
        (out.length() - params.line.length_out).abs() < 0.05 * params.line.length_out,
        "landed {} m out",
        out.length()
    );
    // In flight the lure is above the water and moving out.
    let mid = tackle(
        &SessionState::new(Phase::Release, 0.35, params),
        &Gear::BUNDLED,
    );
    assert!(mid.lure_in_actor.y > params.water.height);
    // The retrieve shortens the line, on the water.
    let mut last = f64::INFINITY;
    for i in 0..=10 {
        let t = tackle(
            &SessionState::new(Phase::Retrieve, i as f64 / 10.0, params),
            &Gear::BUNDLED,
        );
        let span = t.tip_in_actor.distance(t.lure_in_actor);
        assert!(span <= last + 1e-9, "the line lengthens in the retrieve");
        assert!((t.lure_in_actor.y - params.water.height).abs() < 1e-9);
        last = span;
    }
    // The landing brings the fish to the net and bends the rod toward it.
    let landed = tackle(
        &SessionState::new(Phase::Landing, 1.0, params),
        &Gear::BUNDLED,
    );
    assert!(landed.fish_in_actor.is_some());
    assert!(
        landed.bend.tip_deflection > 0.05,
        "{}",
        landed.bend.tip_deflection
    );
}

fn chain() -> BendChain {
    BendChain::for_rod(Gear::BUNDLED.rod.length, Gear::BUNDLED.rod.reel_seat)
}

fn bend(action: RodAction, load: DVec3) -> anglerpose::fishing::rod_bend::RodBend {
    RodBendJob {
        chain: chain(),
        action,
        tip_load_in_rod: load,
    }
    .solve()
    .expect("bend solves")
}

#[test]
fn zero_pull_keeps_the_rod_straight() {
    let b = bend(RodAction::Moderate, DVec3::ZERO);
    assert!(b.is_straight());
    // Pure tension along the blank does not bend it either.
    assert!(bend(RodAction::Slow, DVec3::Y * 50.0).is_straight());
    // And the session without a fish never bends it.
    let params = SessionParams {
        line: anglerpose::fishing::LineParams {
            fish_pull: 0.0,
            ..Default::default()
        },
        ..Default::default()
    };
    for state in instants(params, 10) {
        assert!(tackle(&state, &Gear::BUNDLED).bend.is_straight());
    }
}

#[test]
fn deflection_grows_with_pull_and_is_largest_for_a_slow_action() {
    let across = DVec3::new(0.3, -0.2, -1.0).normalize();
    for action in RodAction::ALL {
        let mut last = 0.0;
        for n in [0.5, 2.0, 5.0, 10.0, 20.0, 40.0, 80.0, 200.0] {
            let b = bend(action, across * n);
            assert!(
                b.tip_deflection > last,
                "{action:?}: {n} N deflects {} after {last}",
                b.tip_deflection
            );
            last = b.tip_deflection;
        }
    }
    for n in [2.0, 20.0, 80.0] {
        let [fast, moderate, slow] = RodAction::ALL.map(|a| bend(a, across * n).tip_deflection);
        assert!(
            fast < moderate && moderate < slow,
            "{n} N: {fast} {moderate} {slow}"
        );
    }
}

#[test]
fn the_handle_stays_and_the_blank_keeps_its_length() {
    let c = chain();
    for action in RodAction::ALL {
        for n in [5.0, 50.0, 200.0] {
            let b = bend(action, DVec3::new(1.0, 0.5, 0.0).normalize() * n);
            for y in [0.0, 0.2, c.bend_start * 0.5, c.bend_start] {
                let p = DVec3::new(0.01, y, -0.02);
                assert!(
                    b.bend_point(p).distance(p) < 1e-12,
                    "the handle moves at {y}"
                );
            }
            for k in 0..BEND_SEGMENTS {
                let a = b.bent_from_rest[k].transform_point3(DVec3::Y * c.rest_along(k));
                let z = b.bent_from_rest[k + 1].transform_point3(DVec3::Y * c.rest_along(k + 1));
                assert!(
                    (a.distance(z) - c.piece()).abs() < 1e-9,
                    "piece {k} stretched"
                );
            }
            assert_eq!(b.bent_from_rest.len(), BEND_JOINTS);
        }
    }
}

#[test]
fn the_rod_never_folds_back() {
    for action in RodAction::ALL {
        for dir in [
            DVec3::X,
            DVec3::new(1.0, -1.0, 0.0),
            DVec3::new(0.05, -1.0, 0.0),
        ] {
            let load = dir.normalize() * 200.0;
            let b = bend(action, load);
            let toward = load.x.hypot(load.z).atan2(load.y);
            assert!(b.tip_turn <= MAX_TIP_TURN + 1e-12 && b.tip_turn <= toward + 1e-12);
            // The tip's tangent, from the last joint, turns the same way.
            let t = b.bent_from_rest[BEND_SEGMENTS].matrix3 * glam::DVec3::Y;
            assert!((t.angle_between(DVec3::Y) - b.tip_turn).abs() < 1e-9);
            // A hard pull back along the blank is held at the limit.
            if dir.y < -0.9 {
                let hard = bend(action, dir.normalize() * 5000.0);
                assert!(hard.limited, "{action:?} folded to {}", hard.tip_turn);
                assert!((hard.tip_turn - MAX_TIP_TURN).abs() < 1e-9);
                assert!(hard.tip_in_rod.is_finite());
            }
        }
    }
}

#[test]
fn a_small_load_matches_linear_beam_theory() {
    // The moderate rod is rated: linear tip deflection RATED_DEFLECTION of the bending length
    // at RATED_LOAD square to the blank. A hundredth of it is well inside the linear range.
    let c = chain();
    let n = RATED_LOAD / 100.0;
    let b = bend(RodAction::Moderate, DVec3::X * n);
    let expected = RATED_DEFLECTION / 100.0 * (c.length - c.bend_start);
    let err = (b.tip_deflection - expected).abs() / expected;
    assert!(
        err < 0.01,
        "deflection {} against {expected} ({err})",
        b.tip_deflection
    );
}

/// Newton's solve meets the relaxation's fixed point: the same joints within a nanometre for
/// every action, loads from a touch to ten times the rated one and directions all round
/// (where a clamp decides, the solve is the relaxation's, bit for bit); from a nearby bend it
/// finds the same bend again.
#[test]
fn newton_finds_the_relaxations_bend() {
    let mut newton = 0;
    let mut worst_aim = 0.0f64;
    for action in [RodAction::Fast, RodAction::Moderate, RodAction::Slow] {
        for pull in [0.01, 0.5, 2.0, 5.0, 10.0, 18.0, 25.0, 40.0, 80.0, 200.0] {
            for k in 0..24 {
                let a = f64::from(k) * 0.26;
                let load = DVec3::new(a.sin(), a.cos(), 0.3) * pull;
                let job = RodBendJob {
                    chain: chain(),
                    action,
                    tip_load_in_rod: load,
                };
                let (fast, slow) = (job.solve().unwrap(), job.solve_by_relaxation().unwrap());
                if fast.limited || slow.limited {
                    assert_eq!(fast, slow, "{action:?} {load}: a clamp decides");
                    continue;
                }
                if fast == slow {
                    // Newton did not settle inside the clamps; the relaxation decided.
                    continue;
                }
                newton += 1;
                for (p, q) in fast.bent_from_rest.iter().zip(&slow.bent_from_rest) {
                    let d = (p.translation - q.translation).abs().max_element();
                    assert!(d < 1e-9, "{action:?} {load}: joints {d} m apart");
                }
                assert!((fast.tip_turn - slow.tip_turn).abs() < 1e-9);
                // The tip alone is the bend's tip, to the micrometre an aim needs.
                let tip = job.solve_tip().unwrap();
                let off = tip.tip_in_rod.distance(fast.tip_in_rod);
                worst_aim = worst_aim.max(off);
                assert!(off < 1e-6, "{action:?} {load}: the tip alone {off} m off");
                let turned = RodBendJob {
                    tip_load_in_rod: DQuat::from_rotation_y(0.05) * load * 1.05,
                    ..job
                };
                let near = turned.solve_near(&fast.tangent_angles).unwrap();
                let cold = turned.solve().unwrap();
                assert!((near.tip_in_rod - cold.tip_in_rod).length() < 1e-9);
            }
        }
    }
    assert!(newton >= 500, "only {newton} bends by Newton");
    println!("solve_tip: at most {worst_aim:e} m from the bend's tip");
}

/// The tackle's bend is the line's pull aimed from the bent tip: solved again here with the
/// first pass exact (`solve`, not the micrometre aim of `solve_tip`), every joint lands
/// within a nanometre of the tackle's, in the strike and the landing, either hand.
#[test]
fn the_bend_is_aimed_from_the_bent_tip() {
    let mut bent = 0;
    for params in both_hands() {
        for state in instants(params, 20) {
            let t = tackle(&state, &Gear::BUNDLED);
            if t.pull == 0.0 {
                continue;
            }
            let calib = calibration();
            let rod =
                SessionFrames::rod_in_actor(&state, &calib, &BodyFit::IDENTITY, &Gear::BUNDLED);
            let in_rod = |p: DVec3| rod.rotation.inverse() * (p - rod.translation) / rod.scale;
            let job = |from_in_rod: DVec3| RodBendJob {
                chain: t.bend.chain,
                action: params.rod_action,
                tip_load_in_rod: (in_rod(t.lure_in_actor) - from_in_rod).normalize() * t.pull,
            };
            let straight = DVec3::Y * Gear::BUNDLED.rod.length;
            let first = job(straight).solve().unwrap();
            let exact = job(first.tip_in_rod).solve().unwrap();
            for (k, (p, q)) in t
                .bend
                .bent_from_rest
                .iter()
                .zip(&exact.bent_from_rest)
                .enumerate()
            {
                let d = (p.translation - q.translation).abs().max_element();
                assert!(d < 1e-9, "{:?} t={} joint {k}: {d} m", state.phase, state.t);
            }
            bent += 1;
        }
    }
    assert!(bent >= 40, "only {bent} bent instants");
}

/// The rod (and the net) alone posed are exactly those of the whole session frames, for either
/// hand and a reel above the blank.
#[test]
fn the_rod_alone_is_the_frames_rod() {
    let mut above = Gear::BUNDLED;
    above.rod.reel_above = true;
    for gear in [Gear::BUNDLED, above] {
        for handedness in [Handedness::Right, Handedness::Left] {
            let params = SessionParams {
                handedness,
                ..SessionParams::default()
            };
            for state in instants(params, 6) {
                let calib = calibration();
                let fit = BodyFit::IDENTITY;
                let frames = SessionFrames::evaluate_geared(&state, &calib, &fit, &gear);
                let rod = SessionFrames::rod_in_actor(&state, &calib, &fit, &gear);
                assert_eq!(rod, frames.actor_from_rod);
                let net = SessionFrames::net_in_actor(&state, &fit, &gear);
                assert_eq!(net, frames.actor_from_net);
            }
        }
    }
}
