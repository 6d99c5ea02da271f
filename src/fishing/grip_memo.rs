//! Solved contact grips shared by every poser of one arm (issue 37): a grip solve is a pure
//! function of the hand's data and its key (`grip_solve`), so the timelines that
//! calibration, the stability map and the pole search evaluate — each with a poser of its
//! own, each of which used to solve the same grips again — look them up here once their own
//! cache misses. Results are the same with or without it: it only remembers. A poser's cache
//! binds it to its hand once (`GripMemo::bind`, a comparison of the whole hand); a memo
//! bound to another hand since answers nothing to the caches bound before.

use super::calibration::{GripKind, HandCalibration};
use super::hand_contact::{GripContact, GripStyle};
use super::hand_shape::{ContactFinger, HandShape};
use crate::ik::grip_contact::Capsule;
use crate::ik::hand::FingerChain;
use crate::rig::{Finger, Transform};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The next memo generation (see [`Entries::generation`]).
static NEXT_GENERATION: AtomicU64 = AtomicU64::new(1);

/// What a solved grip depends on besides the hand ([`HandContactInputs`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Key {
    // Compared in this order: the cheap fields that differ most first.
    pub(crate) kind: GripKind,
    pub(crate) correction: i32,
    pub(crate) radius: f64,
    /// Half the held part's length (infinite for a handle), metres.
    pub(crate) half_length: f64,
    /// The crank's arm round the knob, on the knob's grip.
    pub(crate) arm: Option<super::gear::CrankArm>,
    pub(crate) hand_from_grip: Transform,
    pub(crate) style: GripStyle,
    pub(crate) hand: HandCalibration,
    /// The reel's stem in the grip's frame, on a grip whose style straddles it (or rests
    /// behind it: a baitcaster's trigger).
    pub(crate) stem_in_grip: Option<Capsule>,
    /// A reel on top's body in the grip's frame, on a grip whose style rests behind it.
    pub(crate) reel_in_grip: Option<Capsule>,
    /// The handle round the reel seat in the grip's frame (butt side, seat, tip side), on a
    /// grip whose style lays a finger along it.
    pub(crate) handle_in_grip: Option<[Capsule; 3]>,
}

/// What a poser's contact cache (`ContactCache::pair`) needs of the hand.
#[derive(Clone, Copy, Debug)]
pub struct HandContactInputs<'a> {
    /// The hand's fingers for the contact solve.
    pub fingers: &'a [ContactFinger],
    /// The hand's shape (its palm points).
    pub shape: &'a HandShape,
    /// The hand's finger chains ([`super::ArmRig::fingers`]): their full curls bend the free
    /// fingers.
    pub chains: &'a [(Finger, crate::ik::hand::FingerChain)],
    /// World scale of the hand bone.
    pub hand_scale: f64,
    /// Wrist to middle knuckle, hand units.
    pub palm_length: f64,
    /// Grips solved by this hand before, by any poser ([`super::ArmRig::grip_memo`]).
    pub memo: &'a GripMemo,
}

/// The hand data the grips were solved for: a memo only answers for the same hand (an arm
/// whose shape is replaced, or a clone given another hand, starts over).
#[derive(Clone, Debug, PartialEq)]
struct Hand {
    fingers: Vec<ContactFinger>,
    shape: HandShape,
    chains: Vec<(Finger, FingerChain)>,
    hand_scale: f64,
    palm_length: f64,
}

impl Hand {
    fn of(inputs: &HandContactInputs<'_>) -> Self {
        Self {
            fingers: inputs.fingers.to_vec(),
            shape: inputs.shape.clone(),
            chains: inputs.chains.to_vec(),
            hand_scale: inputs.hand_scale,
            palm_length: inputs.palm_length,
        }
    }

    fn is(&self, inputs: &HandContactInputs<'_>) -> bool {
        self.hand_scale == inputs.hand_scale
            && self.palm_length == inputs.palm_length
            && self.fingers == inputs.fingers
            && self.chains == inputs.chains
            && self.shape == *inputs.shape
    }
}

#[derive(Debug, Default)]
struct Entries {
    hand: Option<Hand>,
    /// Which hand this memo holds grips for, unique among all memos (0: none yet): a
    /// [`Binding`] to another is stale, also one a poser cache made with another arm's memo.
    generation: u64,
    solved: Vec<(Key, Arc<GripContact>)>,
}

/// A poser cache's claim on a memo ([`GripMemo::bind`]): the memo's grips are for its hand
/// while the memo's generation is the one bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Binding(Option<u64>);

/// The grips solved for one arm's hand, shared between threads and between clones of the
/// arm (an `Arc`). At most [`GripMemo::CAPACITY`] grips: when full it starts over.
/// Two memos always compare equal: what they hold never changes a result.
#[derive(Clone, Default)]
pub struct GripMemo(Arc<Mutex<Entries>>);

impl GripMemo {
    /// The most grips one memo keeps.
    pub const CAPACITY: usize = 1024;

    /// Binds this memo to the hand of `inputs`: compares it with the hand the memo holds
    /// grips for (the whole hand, once per poser cache) and, when it differs, starts over
    /// for this one.
    pub(crate) fn bind(&self, inputs: &HandContactInputs<'_>) -> Binding {
        let mut entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !entries.hand.as_ref().is_some_and(|h| h.is(inputs)) {
            entries.hand = Some(Hand::of(inputs));
            entries.generation = NEXT_GENERATION.fetch_add(1, Ordering::Relaxed);
            entries.solved.clear();
        }
        Binding(Some(entries.generation))
    }

    /// The grip solved for `key`, if this memo has it for the hand `bound`.
    pub(crate) fn get(&self, bound: Binding, key: &Key) -> Option<GripContact> {
        let entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if bound.0 != Some(entries.generation) {
            return None;
        }
        entries
            .solved
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, c)| GripContact::clone(c))
    }

    /// Remembers `contact`, solved for `key` by the hand `bound`.
    pub(crate) fn put(&self, bound: Binding, key: &Key, contact: &GripContact) {
        let mut entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if bound.0 != Some(entries.generation) || entries.solved.iter().any(|(k, _)| k == key) {
            return;
        }
        if entries.solved.len() >= Self::CAPACITY {
            entries.solved.clear();
        }
        entries
            .solved
            .push((key.clone(), Arc::new(contact.clone())));
    }

    /// How many grips it holds.
    pub fn len(&self) -> usize {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .solved
            .len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for GripMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for GripMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GripMemo({} grips)", self.len())
    }
}
