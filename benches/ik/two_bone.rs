//! Two-bone arm solve including the world→local conversion and the chain refresh.

use anglerpose::ik::two_bone::TwoBoneJob;
use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use criterion::Criterion;
use glam::{DQuat, DVec3};
use std::hint::black_box;

/// clavicle → upper arm → forearm → hand, with a rotated parent and a bent elbow.
fn arm() -> (Skeleton, Pose) {
    let bone = |name: &str, parent: Option<usize>, rest: Transform| Bone {
        name: name.into(),
        parent,
        rest,
    };
    let skel = Skeleton::new(vec![
        bone(
            "clavicle",
            None,
            Transform::new(
                DVec3::new(0.1, 1.45, 0.0),
                DQuat::from_rotation_z(-1.4),
                DVec3::ONE,
            ),
        ),
        bone(
            "upperarm",
            Some(0),
            Transform::new(DVec3::Y * 0.15, DQuat::from_rotation_x(0.2), DVec3::ONE),
        ),
        bone(
            "forearm",
            Some(1),
            Transform::new(DVec3::Y * 0.325, DQuat::from_rotation_x(-0.6), DVec3::ONE),
        ),
        bone(
            "hand",
            Some(2),
            Transform::from_translation(DVec3::Y * 0.255),
        ),
    ])
    .expect("bench skeleton");
    let pose = Pose::rest(&skel);
    (skel, pose)
}

pub fn benches(c: &mut Criterion) {
    let (skel, rest) = arm();
    let shoulder = rest.world_position(1);
    let targets: Vec<DVec3> = (0..64)
        .map(|i| {
            let t = i as f64 * 0.37;
            shoulder
                + DVec3::new(
                    0.3 + 0.1 * t.sin(),
                    -0.25 + 0.1 * t.cos(),
                    0.2 * (1.3 * t).sin(),
                )
        })
        .collect();
    let pole = shoulder + DVec3::new(0.3, -0.6, -0.5);
    let mut pose = rest.clone();
    let mut k = 0usize;
    // `solve` validates, as ozz's `IKTwoBoneJob::Run` does.
    c.bench_function("two_bone/arm", |b| {
        b.iter(|| {
            k = (k + 1) & 63;
            let job = TwoBoneJob::new(1, 2, 3, targets[k], pole);
            black_box(job.solve(&skel, black_box(&mut pose)))
        })
    });
}
