//! Full pose update of the bundled angler (both arms, palms, contact grips, skin matrices) with
//! two-bone and with CCD arms, with the parametric finger curl instead of contact grips, a
//! 600-sample timeline analysis on all cores and on one, one arm's 32×32 stability slice and
//! both arms' stability margins over the 600-sample timeline (issue 36), and the line, lure
//! and rod bend over the same 600 states (issue 34).

use anglerpose::fishing::head_look::HeadLookJob;
use anglerpose::fishing::{
    ArmSolverKind, PoseInputs, Poser, SIDES, SessionParams, SessionState, SolverSettings,
    StabilityGrid, TackleJob, analyse_timeline, analyse_timeline_on, default_threads,
    timeline_margins,
};
use anglerpose::gltf_io::skin_matrices_into;
use anglerpose::rig::Side;
use anglerpose::rig::Transform;
use anglerpose::stage::Stage;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn fishing(c: &mut Criterion) {
    // The stage's actor: its hands fitted to the angler's skin (contact grips).
    let stage = Stage::bundled().expect("bundled angler");
    let (character, actor) = (&stage.character, &stage.actor);
    let calib = actor.default_calibration();
    let settings = SolverSettings::default();
    let params = SessionParams::default();
    let skin = &character.skins[0];
    let body = stage.map.body.as_ref().expect("the angler's head");
    let keep: Vec<usize> = SIDES.iter().map(|&s| actor.arm(s).upper).collect();
    // One pose update at each of 600 states; with `adds`, also what a stage update adds for
    // issue 34: the line, lure, fish and the rod's bend, then (`Adds::TackleLook`) the head
    // turned toward the lure.
    let pose_update = |c: &mut Criterion, name: &str, settings: &SolverSettings, adds: Adds| {
        let mut poser = Poser::new();
        let mut pose = actor.base.clone();
        let mut palette = Vec::new();
        let mut k = 0usize;
        let mut inputs = PoseInputs::new(calib.clone(), *settings, SessionState::default());
        c.bench_function(name, |b| {
            b.iter(|| {
                k = (k + 1) % 600;
                inputs.state = SessionState::at_fraction(k as f64 / 599.0, params);
                let eval = poser
                    .evaluate(actor, &inputs, &Transform::IDENTITY, &mut pose)
                    .expect("pose");
                let tackle = (adds != Adds::Nothing).then(|| {
                    TackleJob {
                        state: &inputs.state,
                        calibration: &inputs.calibration,
                        fit: &actor.fit,
                        gear: &actor.gear,
                        guides: &stage.props.rod_guides,
                        reel_exit_in_rod: stage.props.rod_reel_exit,
                    }
                    .solve()
                    .expect("tackle")
                });
                let looked = tackle
                    .as_ref()
                    .filter(|_| adds == Adds::TackleLook)
                    .map(|t| {
                        HeadLookJob {
                            neck: body.neck,
                            head: body.head,
                            eyes: &body.eyes,
                            target_in_world: t.lure_in_actor,
                            weight: settings.look.weight,
                            keep: &keep,
                        }
                        .solve(&actor.skeleton, &mut pose)
                    });
                skin_matrices_into(skin, &pose, &mut palette);
                let _ = black_box((eval, tackle, looked, &palette));
            })
        });
    };
    pose_update(c, "fishing/pose_update", &settings, Adds::Nothing);
    // Side by side with the line above; the tackle alone, to tell the two apart.
    pose_update(
        c,
        "fishing/pose_update_tackle_look",
        &settings,
        Adds::TackleLook,
    );
    pose_update(c, "fishing/pose_update_tackle", &settings, Adds::Tackle);
    // The line, lure, fish and the rod's bend at the same 600 states (issue 34): what a stage
    // update adds to the pose update.
    {
        let mut k = 0usize;
        c.bench_function("fishing/tackle", |b| {
            b.iter(|| {
                k = (k + 1) % 600;
                let state = SessionState::at_fraction(k as f64 / 599.0, params);
                let job = TackleJob {
                    state: &state,
                    calibration: &calib,
                    fit: &actor.fit,
                    gear: &actor.gear,
                    guides: &stage.props.rod_guides,
                    reel_exit_in_rod: stage.props.rod_reel_exit,
                };
                black_box(job.solve().expect("tackle"))
            })
        });
    }
    // The same with the parametric finger curl instead of the contact grips (issue 33).
    let parametric = SolverSettings {
        finger_contact: false,
        ..settings
    };
    pose_update(
        c,
        "fishing/pose_update_parametric_curl",
        &parametric,
        Adds::Nothing,
    );
    // Both arms on CCD (their default chains), the same 600 states.
    let mut ccd = SolverSettings::default();
    for side in SIDES {
        ccd.arm_mut(side).solver = ArmSolverKind::Ccd;
    }
    pose_update(c, "fishing/pose_update_ccd", &ccd, Adds::Nothing);
    c.bench_function("fishing/timeline_600", |b| {
        b.iter(|| {
            black_box(analyse_timeline(actor, &calib, &settings, &params, 600).expect("timeline"))
        })
    });
    c.bench_function("fishing/timeline_600_one_thread", |b| {
        b.iter(|| {
            black_box(
                analyse_timeline_on(actor, &calib, &settings, &params, 600, 1).expect("timeline"),
            )
        })
    });
    // The right arm's slice through its target at the seated hold, 32×32 samples over ±8 cm.
    let mut posed = Stage::bundled().expect("bundled angler");
    posed.update().expect("pose");
    let grid = StabilityGrid {
        axes: [glam::DVec3::X, glam::DVec3::Y, glam::DVec3::Z],
        half_extent: 0.08,
        steps: [32, 32, 1],
    };
    let job = posed.stability_job(Side::Right, grid).expect("posed");
    c.bench_function("fishing/stability_slice_32", |b| {
        b.iter(|| black_box(job.solve().expect("stability")))
    });
    // Both arms' margins at the 600 timeline samples, on every core.
    c.bench_function("fishing/stability_timeline_600", |b| {
        b.iter(|| {
            black_box(
                timeline_margins(actor, &calib, &settings, &params, 600, default_threads())
                    .expect("margins"),
            )
        })
    });
}

/// What a pose update bench adds to the poser (issue 34).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Adds {
    Nothing,
    Tackle,
    TackleLook,
}

criterion_group!(benches, fishing);
criterion_main!(benches);
