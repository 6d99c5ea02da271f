//! The thumb along the handle on a spinning rod's reel seat (issue 33: "the thumb along the
//! top of the handle, not through it"), measured on the posed export as `grip_contact.rs`
//! measures grips (CPU-skinned, against the rod's radius profile).
//!
//! At every instant the front hand holds the reel seat, on the bundled and the surf rod (and
//! for a left-handed angler too, the rod mirrored):
//! the thumb's skin touches the handle (within [−2, +3] mm of the surface), it rests on the
//! side of the handle away from the reel, and its last segments (the thumb's second joint →
//! the farthest of its skin from its base) point more nearly along the handle toward the tip
//! than the same thumb wrapped round the handle (`HandCalibration::thumb_wraps`, the grip
//! before this) does: by at least 0.05 in cosine for the bundled angler, whose wrapped thumb
//! crosses the handle, and never less for any character (mannequiny's long thumb already
//! lies along the handle as it wraps, and keeps it).

mod support;

use anglerpose::fishing::{GripKind, Handedness, SessionState};
use anglerpose::rig::Finger;
use anglerpose::stage::Stage;
use support::grip_measure::{Part, handle, posed_skin};
use support::grip_stage::{MANNEQUINY, characters, session_instants, stage_on};

/// The front thumb at the stage's pose: the cosine between its last segments and the
/// handle's axis toward the tip, the gap of its skin to the handle's surface (metres), and
/// the angle round the handle from the side opposite the reel to its nearest skin (degrees).
struct Thumb {
    along: f64,
    gap: f64,
    from_top_deg: f64,
}

fn front_thumb(stage: &Stage) -> Option<Thumb> {
    let side = stage.inputs.state.params.handedness.front_side();
    let eval = stage.evaluation().unwrap();
    let grip = eval.frames.grips.get(side);
    let holding = (grip.hold.blend == 0.0 || grip.hold.blend == 1.0) && grip.opening == 1.0;
    if !holding || grip.hold.main() != GripKind::RodFront || !eval.arms.get(side).ik.reached {
        return None;
    }
    let h = handle(stage, GripKind::RodFront);
    let skin = posed_skin(stage);
    let points = skin.parts.get(&Part::Finger(side, Finger::Thumb))?;
    let arm = stage.actor.arm(side);
    let (_, chain) = arm.fingers.iter().find(|(f, _)| *f == Finger::Thumb)?;
    let world_from_actor = stage.world_from_actor.to_affine();
    let joint =
        |k: usize| (world_from_actor * *stage.pose.world_from_bone(chain.joints[k])).translation;
    let (base, second) = (joint(0), joint(1));
    let tip = points
        .iter()
        .copied()
        .max_by(|a, b| a.distance(base).total_cmp(&b.distance(base)))?;
    // The handle's frame: +Y from the butt toward the tip, the reel toward −Z.
    let along = h
        .object_from_world
        .transform_vector3(tip - second)
        .normalize()
        .y;
    let nearest = points
        .iter()
        .copied()
        .min_by(|a, b| h.gap(*a).total_cmp(&h.gap(*b)))?;
    let q = h.object_from_world.transform_point3(nearest);
    Some(Thumb {
        along,
        gap: h.gap(nearest),
        // Away from the reel either way round (a left-handed session mirrors the rod).
        from_top_deg: q.x.abs().atan2(q.z).to_degrees(),
    })
}

#[test]
fn the_front_thumb_lies_along_a_spinning_rods_handle() {
    let mut out = Vec::new();
    let characters = characters("thumb_along: mannequiny", &[MANNEQUINY]);
    let cases = characters.iter().flat_map(|(name, file)| {
        let hands: &[Handedness] = if name == "angler" {
            &[Handedness::Right, Handedness::Left]
        } else {
            &[Handedness::Right]
        };
        [None, Some("rod_surf.glb")]
            .into_iter()
            .flat_map(move |rod| hands.iter().map(move |h| (name, file, rod, *h)))
    });
    for (name, file, rod, handedness) in cases {
        let label = format!("{name} on {} ({handedness:?})", rod.unwrap_or("rod.glb"));
        let mut along = stage_on(file, rod, handedness);
        let mut wrapped = stage_on(file, rod, handedness);
        wrapped
            .inputs
            .calibration
            .hands
            .get_mut(handedness.front_side())
            .thumb_wraps = true;
        let mut measured = 0;
        for (phase, t) in session_instants() {
            for stage in [&mut along, &mut wrapped] {
                stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
                stage.update().unwrap();
            }
            let (Some(a), Some(w)) = (front_thumb(&along), front_thumb(&wrapped)) else {
                continue;
            };
            measured += 1;
            let at = format!("{label} {phase:?} t={t:.2}");
            if !(-0.002..=0.003).contains(&a.gap) {
                out.push(format!("{at}: thumb {:.1} mm off the handle", a.gap * 1e3));
            }
            if a.from_top_deg.abs() > 90.0 {
                out.push(format!(
                    "{at}: thumb on the reel's side, {:.0}° from the top",
                    a.from_top_deg
                ));
            }
            let gain = if name == "angler" { 0.05 } else { 0.0 };
            if a.along < w.along + gain - 1e-9 {
                out.push(format!(
                    "{at}: thumb along the handle {:.2}, wrapped {:.2}",
                    a.along, w.along
                ));
            }
        }
        eprintln!("{label}: {measured} instants measured");
        if measured < 20 {
            out.push(format!(
                "{label}: only {measured} instants on the reel seat"
            ));
        }
    }
    assert!(
        out.is_empty(),
        "{} problems:\n{}",
        out.len(),
        out.join("\n")
    );
}
