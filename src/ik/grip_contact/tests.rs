//! Unit tests of the finger contact solve (`super`).

use super::*;

/// A straight three-segment finger along +X from (0, 0, h), curling toward −Z.
fn finger(h: f64) -> Vec<ContactJoint> {
    let seg = |len: f64| Capsule {
        start: DVec3::ZERO,
        end: DVec3::X * len,
        radius: 0.008,
    };
    let joint = |at: DVec3, len: f64| ContactJoint {
        prev_from_joint: DAffine3::from_translation(at),
        // Rotating +X toward −Z: about +Y.
        axis: DVec3::Y,
        capsules: std::array::from_fn(|i| {
            if i < SEGMENT_PIECES {
                seg(len)
            } else {
                Capsule::NONE
            }
        }),
        open_limit: -0.3,
        close_limit: 1.7,
    };
    vec![
        joint(DVec3::new(0.0, 0.0, h), 0.045),
        joint(DVec3::X * 0.045, 0.028),
        joint(DVec3::X * 0.028, 0.022),
    ]
}

/// The contact job of `joints` on `cylinder`, unspread, its gap scale the fingers' 8 mm radius.
fn job_on(joints: &[ContactJoint], cylinder: Cylinder) -> FingerContactJob<'_> {
    FingerContactJob {
        joints,
        cylinder,
        spread: 0.0,
        spread_axis: DVec3::Z,
        gap_scale: 0.008,
        also: &[],
    }
}

fn handle(x: f64) -> Cylinder {
    Cylinder {
        point: DVec3::new(x, 0.0, 0.0),
        axis: DVec3::Y,
        radius: 0.014,
        half_length: f64::INFINITY,
        flat_ends: false,
    }
}

#[test]
fn capsule_gap_matches_geometry() {
    let c = handle(0.0);
    let g = c.gap_to_capsule(
        DVec3::new(-1.0, 0.0, 0.05),
        DVec3::new(1.0, 0.0, 0.05),
        0.01,
    );
    assert!((g - 0.026).abs() < 1e-12);
    // Parallel to the axis.
    let g = c.gap_to_capsule(DVec3::new(0.03, -1.0, 0.0), DVec3::new(0.03, 1.0, 0.0), 0.0);
    assert!((g - 0.016).abs() < 1e-12);
    // The end cap is nearest.
    let g = c.gap_to_capsule(DVec3::new(0.05, 0.0, 0.0), DVec3::new(0.09, 0.0, 0.0), 0.0);
    assert!((g - 0.036).abs() < 1e-12);
}

/// A knob's gap is exact at its flat ends: beside its side, over its end disc, off its rim,
/// and inside it; and it is the least over the segment of the point's signed distance, found
/// by sampling the segment finely.
#[test]
fn a_knob_has_flat_ends() {
    let knob = Cylinder::knob(DVec3::ZERO, DVec3::X, 0.0065, 0.009);
    // Beside its side: as the rounded one.
    let g = knob.gap_to_capsule(DVec3::new(-0.1, 0.02, 0.0), DVec3::new(0.1, 0.02, 0.0), 0.0);
    assert!((g - 0.0135).abs() < 1e-9, "{g}");
    // Over the end disc, 3 mm out: 3 mm less the capsule's radius (a round end would have it
    // 2.5 mm inside).
    let g = knob.gap_to_capsule(
        DVec3::new(0.012, -0.004, -1.0),
        DVec3::new(0.012, -0.004, 1.0),
        0.001,
    );
    assert!((g - 0.002).abs() < 1e-9, "{g}");
    // Off the rim, 3 mm past the end and 4 mm out from the side: 5 mm (a round end: 4.4 mm).
    let g = knob.gap_to_capsule(
        DVec3::new(0.012, 0.0105, -1.0),
        DVec3::new(0.012, 0.0105, 1.0),
        0.0,
    );
    assert!((g - 0.005).abs() < 1e-9, "{g}");
    // A segment through it along its axis: as deep as its radius.
    let g = knob.gap_to_capsule(DVec3::new(-0.05, 0.0, 0.0), DVec3::new(0.05, 0.0, 0.0), 0.0);
    assert!((g + 0.0065).abs() < 1e-9, "{g}");
    // Any segment: the least signed distance along it (the samples, 3 µm apart, are an upper
    // bound that is within a few µm of it).
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64 * 0.05 - 0.025
    };
    for _ in 0..200 {
        let a = DVec3::new(next(), next(), next());
        let b = DVec3::new(next(), next(), next());
        let sampled = (0..=20_000)
            .map(|k| knob.signed_distance(a.lerp(b, f64::from(k) / 20_000.0)))
            .fold(f64::INFINITY, f64::min);
        let g = knob.gap_to_capsule(a, b, 0.002);
        assert!(
            g <= sampled - 0.002 + 1e-12 && g > sampled - 0.002 - 5e-6,
            "{a} {b}: {g} against {sampled}"
        );
    }
}

#[test]
fn a_finite_cylinder_with_rounded_ends_is_the_capsule_round_its_axis_segment() {
    let knob = Cylinder {
        point: DVec3::ZERO,
        axis: DVec3::X,
        radius: 0.0065,
        half_length: 0.009,
        flat_ends: false,
    };
    // Beside its side, across the axis: as the infinite one.
    let g = knob.gap_to_capsule(DVec3::new(-0.1, 0.02, 0.0), DVec3::new(0.1, 0.02, 0.0), 0.0);
    assert!((g - 0.0135).abs() < 1e-12, "{g}");
    let g = knob.gap_to_capsule(
        DVec3::new(0.005, 0.02, -1.0),
        DVec3::new(0.005, 0.02, 1.0),
        0.008,
    );
    assert!((g - 0.0055).abs() < 1e-12, "{g}");
    // Past its end the gap grows, where the infinite cylinder would still be touched.
    let g = knob.gap_to_capsule(DVec3::new(0.03, 0.0, -1.0), DVec3::new(0.03, 0.0, 1.0), 0.0);
    assert!((g - (0.021 - 0.0065)).abs() < 1e-12, "{g}");
    let infinite = Cylinder {
        half_length: f64::INFINITY,
        ..knob
    };
    let g = infinite.gap_to_capsule(DVec3::new(0.03, 0.0, -1.0), DVec3::new(0.03, 0.0, 1.0), 0.0);
    assert!((g + 0.0065).abs() < 1e-12, "{g}");
    // Parallel segments and points.
    assert!(
        (segment_distance(DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Y + DVec3::X) - 1.0).abs()
            < 1e-12
    );
    assert!(
        (segment_distance(DVec3::ZERO, DVec3::ZERO, DVec3::Y * 2.0, DVec3::Y * 2.0) - 2.0).abs()
            < 1e-12
    );
}

#[test]
fn a_finger_closes_until_it_touches_and_never_enters() {
    // The knuckle over the handle's far side: the finger wraps the handle.
    for x in [0.0, 0.01, 0.02] {
        let joints = finger(0.024);
        let job = job_on(&joints, handle(x));
        let r = job.solve().unwrap();
        assert_eq!(r.state, ContactState::Touching, "{x}: {r:?}");
        assert!(r.gap >= 0.0 && r.gap < 1e-4, "{x}: gap {}", r.gap);
        assert!(r.angles.iter().all(|a| *a > 0.0), "{x}: {:?}", r.angles);
        // Every segment is outside the handle, and the tip segment is on it.
        let frames = job.frames(&r.angles);
        for (k, (f, j)) in frames.iter().zip(&joints).enumerate() {
            let c = &j.capsules[0];
            let g = job.cylinder.gap_to_capsule(
                f.transform_point3(c.start),
                f.transform_point3(c.end),
                c.radius,
            );
            assert!(g >= -1e-9, "{x}: segment {k} inside by {g}");
        }
    }
}

#[test]
fn a_finger_closes_from_a_lifted_start_and_refuses_a_start_outside_its_limits() {
    let joints = finger(0.024);
    let job = job_on(&joints, handle(0.02));
    let from_zero = job.solve().unwrap();
    assert_eq!(job.solve_from(&[0.0, 0.0, 0.0]).unwrap(), from_zero);
    let lifted = job.solve_from(&[-0.3]).unwrap();
    assert_eq!(lifted.state, ContactState::Touching, "{lifted:?}");
    assert!(lifted.gap >= 0.0 && lifted.gap < 1e-4, "{lifted:?}");
    // It closed from the lifted start: the first joint turned on from −0.3, and the
    // path differs from the one from zero.
    assert!(lifted.angles[0] > -0.3, "{lifted:?}");
    assert_ne!(lifted.angles, from_zero.angles);
    for bad in [[-0.5, 0.0, 0.0], [0.0, 2.0, 0.0], [f64::NAN, 0.0, 0.0]] {
        assert!(job.solve_from(&bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_finger_over_a_thinner_stretch_of_the_handle_closes_onto_it() {
    // The handle along +Y: 14 mm thick toward −Y to y = −0.03, then 10 mm. The finger
    // (at y = 0) lies over the thinner stretch, beyond the thicker one's rounded end.
    let (x, joint) = (0.02, -0.03);
    let stretch = |from: f64, to: f64, radius: f64| Cylinder {
        point: DVec3::new(x, 0.5 * (from + to), 0.0),
        axis: DVec3::Y,
        radius,
        half_length: 0.5 * (to - from),
        flat_ends: false,
    };
    let (seat, fore) = (stretch(-0.1, joint, 0.014), stretch(joint, 0.1, 0.010));
    let joints = finger(0.024);
    let also = [fore];
    let job = FingerContactJob {
        also: &also,
        ..job_on(&joints, seat)
    };
    let r = job.solve().unwrap();
    assert_eq!(r.state, ContactState::Touching, "{r:?}");
    assert!(r.gap >= 0.0 && r.gap < 1e-4, "{r:?}");
    let on = |cylinder: Cylinder| FingerContactJob {
        cylinder,
        also: &[],
        ..job
    };
    // On the thinner stretch, and inside where the seat's radius would have been.
    assert!((on(fore).gap_at(&r.angles).0 - r.gap).abs() < 1e-12);
    let whole = on(handle(x)).gap_at(&r.angles).0;
    assert!(whole < -0.003, "{whole}");
    // A stretch without length is refused.
    let none = [stretch(0.1, 0.1, 0.01)];
    assert!(FingerContactJob { also: &none, ..job }.solve().is_err());
}

#[test]
fn a_finger_inside_opens_and_one_out_of_reach_closes_to_its_limits() {
    let joints = finger(0.015);
    let job = job_on(&joints, handle(0.0));
    let r = job.solve().unwrap();
    // The knuckle itself is inside: opening cannot get it out.
    assert_eq!(r.state, ContactState::Inside);
    assert!(
        r.angles
            .iter()
            .zip(&joints)
            .all(|(a, j)| *a == j.open_limit)
    );
    let joints_far = finger(0.024);
    let r = job_on(&joints_far, handle(0.5)).solve().unwrap();
    assert_eq!(r.state, ContactState::Gap);
    assert!(
        r.angles
            .iter()
            .zip(&joints_far)
            .all(|(a, j)| *a == j.close_limit)
    );
}

#[test]
fn palm_clearance_puts_the_axis_one_radius_beyond_the_palm() {
    let palm = [DVec3::new(0.0, 0.0, -0.01), DVec3::new(0.02, 0.0, 0.5)];
    let l = palm_clearance(&palm, 0.014).unwrap();
    assert!((l - 0.004).abs() < 1e-12);
    assert_eq!(palm_clearance(&palm[1..], 0.014), None);
}
