//! Solved contact grips shared by every poser of one arm (issue 37): a grip solve is a pure
//! function of the hand's data and its [`super::grip_solve`] key, so the timelines that
//! calibration, the stability map and the pole search evaluate — each with a poser of its
//! own, each of which used to solve the same grips again — look them up here once their own
//! cache misses. Results are the same with or without it: it only remembers.

use super::grip_solve::{HandContactInputs, Key};
use super::hand_contact::GripContact;
use super::hand_shape::{ContactFinger, HandShape};
use crate::ik::hand::FingerChain;
use crate::rig::Finger;
use std::sync::{Arc, Mutex, PoisonError};

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
    solved: Vec<(Key, Arc<GripContact>)>,
}

/// The grips solved for one arm's hand, shared between threads and between clones of the
/// arm (an `Arc`). At most [`GripMemo::CAPACITY`] grips: when full it starts over.
/// Two memos always compare equal: what they hold never changes a result.
#[derive(Clone, Default)]
pub struct GripMemo(Arc<Mutex<Entries>>);

impl GripMemo {
    /// The most grips one memo keeps.
    pub const CAPACITY: usize = 1024;

    /// The grip solved for `key` by the hand of `inputs`, if this memo has it.
    pub(crate) fn get(&self, inputs: &HandContactInputs<'_>, key: &Key) -> Option<GripContact> {
        let entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !entries.hand.as_ref().is_some_and(|h| h.is(inputs)) {
            return None;
        }
        entries
            .solved
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, c)| GripContact::clone(c))
    }

    /// Remembers `contact`, solved for `key` by the hand of `inputs`.
    pub(crate) fn put(&self, inputs: &HandContactInputs<'_>, key: &Key, contact: &GripContact) {
        let mut entries = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !entries.hand.as_ref().is_some_and(|h| h.is(inputs)) {
            entries.hand = Some(Hand::of(inputs));
            entries.solved.clear();
        }
        if entries.solved.iter().any(|(k, _)| k == key) {
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
