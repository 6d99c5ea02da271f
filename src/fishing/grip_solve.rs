//! The contact grip solve and its cache (issue 33): per hand and grip, where the palm sits
//! on the handle and how far each finger closes, solved once for the hand's calibration, the
//! grip, the handle and the arm's correction (see [`super::hand_contact::PalmArm`]) and kept
//! between pose updates: none of it depends on the arm otherwise, because the palm solve
//! holds the grip frame fixed in the hand.

use super::calibration::{FingerTuning, GripKind, HandCalibration};
use super::crank_clear::{ArmInHand, clear_of_arm};
use super::gear::Gear;
use super::grip_frames::{add_curl_offset, finger_frames, finger_job, palm_in_grip, palm_in_hand};
use super::grip_memo::{Binding, HandContactInputs, Key};
use super::grip_stem;
use super::hand_contact::{
    FingerContact, FingerRole, GripContact, GripStyle, PalmArm, bent_local, finger_index,
};
use super::knob_pinch::Pinch;
use crate::ik::grip_contact::{Capsule, ContactState, Cylinder, palm_clearance};
use crate::rig::{Finger, Transform};
use glam::{DQuat, DVec3};

/// The solved grips of one hand, per grip kind and arm correction: a pose update reuses them
/// while their inputs are the same (exact comparison), so closing the fingers costs nothing
/// while nothing changes. The least recently used entry goes when it is full.
#[derive(Clone, Debug, Default)]
pub struct ContactCache {
    entries: Vec<(Key, GripContact, u64)>,
    clock: u64,
    /// The arm's memo bound to this cache's hand, once used.
    memo: Option<Binding>,
}

impl ContactCache {
    /// The contacts on both grips of a hold (`from`, `to`) with the palm frame
    /// `hand_from_grip` (hand space, calibration applied), the palm moved by `correction`
    /// steps of [`CORRECTION_STEP`] along the grip's palm → axis direction (the arm's
    /// correction, see [`PalmArm`]); from the cache or solved now. `stem_in_grip`: the
    /// reel's stem in the front grip's frame (see
    /// [`super::session_frames::front_stem_in_grip`]), straddled where the grip's style says;
    /// `reel_in_grip`: a reel on top's body there
    /// ([`super::session_frames::front_reel_in_grip`]), which a hand behind the post clears;
    /// `handle_in_grip`: the handle round the reel seat there
    /// ([`super::session_frames::front_handle_in_grip`]), which a finger along it lies on.
    #[allow(clippy::too_many_arguments)]
    pub fn pair(
        &mut self,
        inputs: &HandContactInputs<'_>,
        kinds: (GripKind, GripKind),
        gear: &Gear,
        hand_from_grip: &Transform,
        hand: &HandCalibration,
        correction: i32,
        stem_in_grip: Option<Capsule>,
        reel_in_grip: Option<Capsule>,
        handle_in_grip: Option<[Capsule; 3]>,
    ) -> (&GripContact, &GripContact) {
        let key = |kind| {
            let style = GripStyle::for_grip(kind, gear, hand).for_hand(inputs.fingers);
            Key {
                kind,
                correction,
                radius: gear.grip_radius(kind),
                half_length: gear.grip_half_length(kind),
                arm: (kind == GripKind::ReelHandle).then(|| gear.rod.crank.arm()),
                hand_from_grip: *hand_from_grip,
                style,
                hand: *hand,
                stem_in_grip: stem_in_grip
                    .filter(|_| style.stem_between.is_some() || style.behind_post),
                reel_in_grip: reel_in_grip.filter(|_| style.behind_post),
                handle_in_grip: handle_in_grip
                    .filter(|_| kind == GripKind::RodFront && style.lays_along()),
            }
        };
        self.clock += 1;
        let ki = key(kinds.0);
        let (i, _) = self.index(inputs, &ki);
        if kinds.1 == kinds.0 {
            // On one grip (most of a session): one key, one lookup.
            return (&self.entries[i].1, &self.entries[i].1);
        }
        let (j, solved) = self.index(inputs, &key(kinds.1));
        // `ki` is the newest but one: solving `kj` did not evict it, but may have moved it
        // (a corrected grip inserts its uncorrected one too).
        let i = if solved {
            self.find(&ki).unwrap_or(j)
        } else {
            i
        };
        (&self.entries[i].1, &self.entries[j].1)
    }

    fn find(&self, key: &Key) -> Option<usize> {
        self.entries.iter().position(|(k, _, _)| k == key)
    }

    /// The entry of `key` and whether it was solved now (entries may have been replaced).
    fn index(&mut self, inputs: &HandContactInputs<'_>, key: &Key) -> (usize, bool) {
        if let Some(i) = self.find(key) {
            self.entries[i].2 = self.clock;
            return (i, false);
        }
        let bound = *self.memo.get_or_insert_with(|| inputs.memo.bind(inputs));
        let contact = match inputs.memo.get(bound, key) {
            Some(contact) => contact,
            None => {
                // A corrected grip keeps the place along the palm its uncorrected grip chose.
                let start = if key.correction != 0 {
                    let base = Key {
                        correction: 0,
                        ..key.clone()
                    };
                    let (b, _) = self.index(inputs, &base);
                    Some(self.entries[b].1.place_start)
                } else {
                    None
                };
                let contact = solve_grip(inputs, key, start);
                inputs.memo.put(bound, key, &contact);
                contact
            }
        };
        if self.entries.len() >= CACHE_SIZE {
            let oldest = (0..self.entries.len())
                .filter(|&i| self.entries[i].2 != self.clock)
                .min_by_key(|&i| self.entries[i].2)
                .unwrap_or(0);
            self.entries[oldest] = (key.clone(), contact, self.clock);
            return (oldest, true);
        }
        self.entries.push((key.clone(), contact, self.clock));
        (self.entries.len() - 1, true)
    }
}

/// Grip contacts kept per hand: the grip kinds at the arm corrections a session visits.
const CACHE_SIZE: usize = 64;

/// The grip of `key`; `start`: the place along the palm (from the uncorrected grip), else
/// chosen here.
fn solve_grip(inputs: &HandContactInputs<'_>, key: &Key, start: Option<DVec3>) -> GripContact {
    let scale = inputs.hand_scale.max(1e-12);
    let radius = key.radius / scale;
    let rot = key.hand_from_grip.rotation;
    let t = key.hand_from_grip.translation;
    let gy = rot * DVec3::Y;
    let inv = rot.inverse();
    let palm_rests = key.kind != GripKind::ReelHandle;
    let mut shift = DVec3::ZERO;
    let mut chosen = None;
    let pinch = pinched_knob(inputs, key, radius);
    let support = pinch.as_ref().map(|p| &p.support_angles[..]);
    if let Some(start) = start {
        shift = start;
    } else if let Some(p) = &pinch {
        // The knob against the supporting finger's side: the grip's axis goes there.
        shift = p.knob - t;
    } else if key.half_length.is_finite() {
        // No fingers to pinch with (a mitten): the knob's end rests on the palm.
        let palm = palm_in_grip(inputs, None, t, inv);
        let half = key.half_length / scale;
        if let Some(l) = super::knob_pinch::knob_end_on_palm(&palm, radius, half) {
            shift = rot * DVec3::Z * l;
        }
    } else if let Some((a, b)) = key.style.stem_between {
        let along = |f: Finger| {
            inputs
                .fingers
                .iter()
                .find(|c| c.finger == Some(f))
                .map(|c| (c.base_in_hand - t).dot(gy))
        };
        if let (Some(ya), Some(yb)) = (along(a), along(b)) {
            shift += gy * (0.5 * (ya + yb));
        }
    }
    // Where along the palm the handle lies: where the palm's own skin can touch it without a
    // finger's base pad in the way (the pads stand out of the palm near the knuckles) and
    // every finger reaches round it.
    // Chosen with the arm as at the base pose, so every arm correction keeps the same place.
    if palm_rests && start.is_none() {
        // Along the palm toward the fingers (the grip's X runs toward the wrist on a right
        // hand and toward the fingers on a left one).
        let gx = rot * DVec3::X;
        let knuckles = inputs
            .fingers
            .iter()
            .filter(|c| c.finger != Some(Finger::Thumb))
            .fold(DVec3::ZERO, |a, c| a + c.base_in_hand - t);
        let to_fingers = if knuckles.dot(gx) >= 0.0 { gx } else { -gx };
        let step = PALM_SEARCH_STEP * inputs.palm_length;
        // Straddling a stem, the handle may lie farther toward the fingers (in the fingers, as
        // anglers hold a spinning rod: the stem then meets them past their webs) and the
        // search steps are halved.
        let straddling = key.stem_in_grip.is_some() && key.style.stem_between.is_some();
        let places: &[i32] = if straddling { &STEM_PLACES } else { &PLACES };
        let try_place = |k: i32| {
            let mut along = to_fingers * (step * f64::from(k) / 10.0);
            if let Some(c) = grip_stem::stem_balance_at(inputs, key, t + shift + along, radius) {
                along += gy * c;
            }
            let placed = place(inputs, key, shift + along, 0, support);
            // The palm floating, or a finger closed to its limits short of the handle.
            let short = placed
                .out
                .contacts
                .iter()
                .flatten()
                .map(|c| c.gap.max(0.0))
                .fold(0.0, f64::max);
            // In half-millimetre steps (places that differ less are equal): a straddling
            // finger into the stem first (its skin goes deeper than its capsules do), then
            // the palm floating or a finger short.
            let into_stem = placed.out.stem_clearance.map_or(0.0, |c| (-c).max(0.0));
            let into_stem_steps = (into_stem / PLACE_RESOLUTION).round() as i64;
            let cost = ((placed.float + short) / PLACE_RESOLUTION).round() as i64;
            // Among equals, the place nearest the palm frame's own, then the straddling
            // fingers turned least (milliradians).
            let turned = (placed.out.stem_turn * 1e3).round() as i64;
            (
                into_stem_steps,
                cost,
                k.unsigned_abs(),
                turned,
                along,
                placed,
            )
        };
        let rank = |c: &(i64, i64, u32, i64, DVec3, Placed)| (c.0, c.1, c.2, c.3);
        let mut best = places
            .iter()
            .map(|&k| (k, try_place(k)))
            .min_by_key(|c| rank(&c.1));
        // Straddling, the places between the best and its neighbours too.
        if straddling && let Some((k, _)) = best {
            for d in STEM_REFINE {
                let c = try_place(k + d);
                if best.as_ref().is_none_or(|b| rank(&c) < rank(&b.1)) {
                    best = Some((k + d, c));
                }
            }
        }
        if let Some((_, (_, _, _, _, along, placed))) = best {
            shift += along;
            chosen = (key.correction == 0).then_some(placed);
        }
    }
    let place_start = shift;
    let placed = match chosen {
        Some(p) => p,
        None => place(inputs, key, shift, key.correction, support),
    };
    let (mut out, mut shift, mut palm_shift) = (placed.out, placed.shift, placed.palm_shift);
    // A finger that lies along the handle (the thumb on a spinning rod) closed as a wrapping one
    // while the palm found its place; it is laid along the handle now.
    super::grip_along::lay_along(inputs, key, &mut out, t + shift, gy, radius);
    // Behind the post (a baitcaster's trigger): the hand slides along the handle, which
    // leaves its contacts as they are.
    let behind = if key.style.behind_post {
        let frames = finger_frames(inputs, &out, t + shift, gy, radius);
        let palm: Vec<DVec3> = (inputs.shape.palm.iter())
            .map(|p| palm_in_hand(p, Some(&frames)))
            .collect();
        grip_stem::behind_post(inputs, key, (&frames, &palm), t + shift, gy)
    } else {
        0.0
    };
    shift += gy * behind;
    palm_shift += gy * behind;
    out.post_shift = behind * scale;
    out.palm_shift_in_hand = shift;
    out.place_start = place_start;
    // The knob resting on a mitten's palm is corrected for the arm like a handle.
    let knob_on_palm = pinch.is_none() && key.half_length.is_finite();
    if palm_rests || knob_on_palm {
        let held = (radius, key.half_length / scale);
        let frames = finger_frames(inputs, &out, t + palm_shift, gy, radius);
        out.palm_arm = super::palm_arm_points::palm_arm_points(
            inputs,
            &frames,
            t + palm_shift,
            inv,
            held,
            scale,
        );
    }
    for (finger, (angles, spread)) in inputs
        .fingers
        .iter()
        .zip(out.angles.iter().zip(&out.spreads))
    {
        let bends = finger
            .joints
            .iter()
            .zip(angles)
            .enumerate()
            .map(|(k, (j, a))| {
                let spread = (k == 0).then_some((finger.spread_axis, *spread));
                bent_local(DQuat::IDENTITY, j.axis, *a, spread)
            })
            .collect();
        out.bends.push(bends);
    }
    out
}

/// The places the search tries, tenths of [`PALM_SEARCH_STEP`] (negative: toward the wrist).
const PLACES: [i32; 6] = [-30, -20, -10, 0, 10, 20];
/// The same for a grip that straddles the reel's stem.
const STEM_PLACES: [i32; 14] = [-20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35, 40, 45];

/// Where the search looks again round the best of [`STEM_PLACES`], tenths.
const STEM_REFINE: [i32; 4] = [-3, -2, 2, 3];

/// The steps of the search for where along the palm the handle lies, as a share of the palm's
/// length (wrist to middle knuckle): six places from 0.3 toward the wrist to 0.2 toward the
/// fingers.
const PALM_SEARCH_STEP: f64 = 0.1;
/// Places whose palm float and finger gaps differ by less than this (metres) are equal.
const PLACE_RESOLUTION: f64 = 5e-4;

/// A grip placed on the palm: the fingers closed, the palm's shift, where its skin rests, and
/// how far the palm's own skin floats above the handle (metres).
struct Placed {
    out: GripContact,
    shift: DVec3,
    palm_shift: DVec3,
    float: f64,
}

/// Places the palm on the handle with the grip origin moved by `start` (hand space) and the
/// arm's `correction`: the palm rests where its skin with the fingers straight touches; closed
/// fingers move the creases at the knuckles, and a finger inside whichever way it turns moves
/// the palm out from there. The arm's correction (measured with the creases of the
/// uncorrected grip) replaces the creases' share.
fn place(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    start: DVec3,
    correction: i32,
    support: Option<&[f64]>,
) -> Placed {
    let scale = inputs.hand_scale.max(1e-12);
    let radius = key.radius / scale;
    let rot = key.hand_from_grip.rotation;
    let t = key.hand_from_grip.translation;
    let (gy, gz) = (rot * DVec3::Y, rot * DVec3::Z);
    let inv = rot.inverse();
    let palm_rests = key.kind != GripKind::ReelHandle;
    let palm_at = |out: Option<&GripContact>| -> Vec<DVec3> {
        let frames = out.map(|o| finger_frames(inputs, o, t, gy, radius));
        palm_in_grip(inputs, frames.as_deref(), t, inv)
    };
    let clearance = |points: &[DVec3], shift: DVec3| {
        let along = inv * shift;
        let moved: Vec<DVec3> = points.iter().map(|q| *q - along).collect();
        palm_clearance(&moved, radius)
    };
    let mut palm_shift = start;
    if palm_rests && let Some(l) = clearance(&palm_at(None), start) {
        palm_shift += gz * l;
    }
    let mut extra = f64::from(correction) * CORRECTION_STEP / scale;
    let mut floor = f64::NEG_INFINITY;
    let mut crease;
    // Where the palm's own skin (no pads) would touch.
    let mut own_crease = extra;
    let mut out;
    let mut rounds = 0;
    // The palm's rest is a fixed point: where the palm's skin touches depends on how far the
    // fingers close, which depends on where the palm is. `crease − extra` changes sign across
    // it (the fingers closing more as the palm comes in move the creases out), so once it has,
    // the next place is the secant's between the last two on either side.
    let mut other_side: Option<(f64, f64)> = None;
    loop {
        let shift = palm_shift + gz * extra;
        out = solve_fingers(inputs, key, t + shift, (radius, gy, gz), support);
        rounds += 1;
        if !palm_rests {
            break;
        }
        if correction == 0 {
            let points = palm_at(Some(&out));
            crease = clearance(&points, palm_shift).unwrap_or(0.0);
            let own: Vec<DVec3> = points
                .iter()
                .zip(&inputs.shape.palm)
                .filter(|(_, p)| !p.pad)
                .map(|(q, _)| *q)
                .collect();
            own_crease = clearance(&own, palm_shift).unwrap_or(crease);
        } else {
            crease = f64::from(correction) * CORRECTION_STEP / scale;
            own_crease = crease;
        }
        let deficit = out
            .contacts
            .iter()
            .flatten()
            .filter(|c| c.state == ContactState::Inside)
            .map(|c| -c.gap / scale)
            .fold(0.0, f64::max);
        let next = if deficit > 0.0 {
            floor = extra + deficit;
            floor
        } else {
            let g = crease - extra;
            let secant = other_side
                .filter(|&(_, gx)| (gx < 0.0) != (g < 0.0) && (gx - g).abs() > 1e-12)
                .map(|(x, gx)| extra - g * (x - extra) / (gx - g));
            if other_side.is_none_or(|(_, gx)| (gx < 0.0) != (g < 0.0)) {
                other_side = Some((extra, g));
            }
            secant.unwrap_or(crease).max(floor)
        };
        if (next - extra).abs() <= PLACE_TOLERANCE / scale || rounds >= PLACE_ROUNDS {
            break;
        }
        extra = next;
    }
    Placed {
        shift: palm_shift + gz * extra,
        palm_shift,
        float: (extra - own_crease).max(0.0) * scale,
        out,
    }
}

/// The most finger solves one palm placement makes, and how close (metres) two rounds' rests
/// must be for the rest to count as found: a fifth of [`PLACE_RESOLUTION`], well inside what
/// touching means for a finger.
const PLACE_ROUNDS: usize = 8;
const PLACE_TOLERANCE: f64 = 1e-4;

/// The step of the arm's correction of the palm placement, metres: the pose update rounds the
/// correction to it, so the solved grips it asks for repeat.
pub const CORRECTION_STEP: f64 = 5e-4;

/// The fingers of `inputs` closed on the grip whose axis passes through `origin` (hand space).
///
/// `support`: the bends of the [`FingerRole::Support`] finger (from the knob's pinch), else
/// its calibrated curl.
fn solve_fingers(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    origin: DVec3,
    (radius, gy, gz): (f64, DVec3, DVec3),
    support: Option<&[f64]>,
) -> GripContact {
    let scale = inputs.hand_scale.max(1e-12);
    let mut out = GripContact {
        palm_shift_in_hand: DVec3::ZERO,
        angles: Vec::with_capacity(inputs.fingers.len()),
        spreads: Vec::with_capacity(inputs.fingers.len()),
        contacts: Vec::with_capacity(inputs.fingers.len()),
        bends: Vec::with_capacity(inputs.fingers.len()),
        palm_arm: PalmArm::default(),
        place_start: DVec3::ZERO,
        stem_clearance: None,
        stem_turn: 0.0,
        post_shift: 0.0,
    };
    let handle = Cylinder::handle(origin, gy, radius);
    let grip_stem::Straddle {
        mut fingers,
        turned,
        clearance,
        turn,
    } = grip_stem::straddle(inputs, key, handle, scale);
    out.stem_clearance = clearance;
    out.stem_turn = turn;
    for (i, finger) in inputs.fingers.iter().enumerate() {
        let f = finger.finger.unwrap_or(Finger::Index);
        let tuning: FingerTuning = key.hand.fingers.get(f);
        let role = key.style.role(f);
        let cylinder = match role {
            FingerRole::Wrap | FingerRole::Along => Some(handle),
            FingerRole::Pinch => Some(Cylinder::knob(origin, gz, radius, key.half_length / scale)),
            FingerRole::Free | FingerRole::Support => None,
        };
        let Some(cylinder) = cylinder else {
            let angles: Vec<f64> = match support {
                Some(a) if role == FingerRole::Support => a.to_vec(),
                // The knob hand's free fingers keep clear of the crank's arm: on the hand's
                // side of its face, out of a bar's second knob's ring.
                _ if let Some(arm) = &key.arm => clear_of_arm(
                    finger,
                    &free_curl(inputs, key, i),
                    tuning.spread,
                    &ArmInHand::new(arm, origin, gz, scale),
                ),
                _ => free_curl(inputs, key, i),
            };
            // The knob rests against a supporting finger: its gap is reported.
            let contact = (role == FingerRole::Support).then(|| {
                let knob = Cylinder::knob(origin, gz, radius, key.half_length / scale);
                let job = finger_job(finger, tuning.spread, knob);
                let (gap, _) = job.gap_at(&angles);
                let state = job.state_for(gap);
                FingerContact {
                    gap: gap * scale,
                    state,
                    touches: state == ContactState::Touching,
                }
            });
            out.angles.push(angles);
            out.spreads.push(tuning.spread);
            out.contacts.push(contact);
            continue;
        };
        let solved = match fingers[i].take() {
            Some(s) => s,
            None => {
                let spread = tuning.spread
                    + key
                        .style
                        .turns_with(f)
                        .map_or(0.0, |g| turned[finger_index(g)]);
                finger_job(finger, spread, cylinder)
                    .solve()
                    .map(|r| (spread, r))
            }
        };
        let Ok((spread, report)) = solved else {
            out.angles.push(vec![0.0; finger.joints.len()]);
            out.spreads.push(0.0);
            out.contacts.push(None);
            continue;
        };
        let mut angles = report.angles;
        let mut contact = FingerContact {
            gap: report.gap * scale,
            state: report.state,
            touches: report.state == ContactState::Touching,
        };
        add_curl_offset(
            finger,
            (spread, cylinder, &[]),
            tuning.curl_offset,
            scale,
            &mut angles,
            &mut contact,
        );
        out.angles.push(angles);
        out.spreads.push(spread);
        out.contacts.push(Some(contact));
    }
    out
}

/// The calibrated curl of finger `i` of `inputs` (its chain's full curl times the hand's
/// finger or thumb curl, plus its curl offset): a finger that touches nothing.
fn free_curl(inputs: &HandContactInputs<'_>, key: &Key, i: usize) -> Vec<f64> {
    let f = inputs.fingers[i].finger.unwrap_or(Finger::Index);
    let tuning: FingerTuning = key.hand.fingers.get(f);
    let amount = if f == Finger::Thumb {
        key.hand.thumb_curl
    } else {
        key.hand.finger_curl
    };
    inputs.chains[i]
        .1
        .full_curl
        .iter()
        .map(|a| a * amount + tuning.curl_offset / 3.0)
        .collect()
}

/// The knob's pinch on a pinch grip (a [`FingerRole::Pinch`] and a [`FingerRole::Support`]
/// finger in the style): where the knob's middle goes in hand space and the supporting
/// finger's bends (see [`super::knob_pinch::PinchJob`]). `None` for other grips, or a hand
/// that lacks either finger.
fn pinched_knob(inputs: &HandContactInputs<'_>, key: &Key, radius: f64) -> Option<Pinch> {
    let (pincher, support) = (
        key.style.finger_with(FingerRole::Pinch)?,
        key.style.finger_with(FingerRole::Support)?,
    );
    let index_of = |f: Finger| inputs.fingers.iter().position(|c| c.finger == Some(f));
    let (p, s) = (index_of(pincher)?, index_of(support)?);
    let tuning = key.hand.fingers.get(support);
    let scale = inputs.hand_scale.max(1e-12);
    super::knob_pinch::PinchJob {
        pincher: (&inputs.fingers[p], key.hand.fingers.get(pincher).spread),
        support: (&inputs.fingers[s], tuning.spread),
        support_curl: (&inputs.chains[s].1.full_curl, tuning.curl_offset / 3.0),
        calibrated: key.hand.finger_curl,
        axis: key.hand_from_grip.rotation * DVec3::Z,
        knob: (radius, key.half_length / scale),
        arm_face: key.arm.map(|a| a.face / scale),
    }
    .solve()
}
