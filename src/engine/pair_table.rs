//! `PairTable`: results shared between the hypotheses of one pass at `j >= 2`.
//!
//! Soundness: every hypothesis of a (synchronous) pass starts from the pass's state `S`, and
//! propagation is a closure operator, so the first depth-1 test of branch `b` inside hypothesis
//! `a` ends where the test of `a` inside hypothesis `b` does: both propagate `S ∧ a ∧ b`. What
//! hypothesis `a` finds for a branch still to come as a hypothesis is kept for it and taken once
//! when it comes. Contradictions are kept only when nothing records (their partial grid would be
//! another one).
//!
//! ```text
//!   pass at j >= 2 over S:   hyp a ──test b──▶ end(S∧a∧b) ─┐ offer(a, b)
//!                            hyp b ──test a──▶ take(a, b) ◀┘ (no propagation)
//! ```

use super::keys::{branch_key, KeyHasher};
use crate::decision::Decision;
use crate::grid::Grid;
use crate::propagate::Outcome;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Results shared between the hypotheses of one pass at `j >= 2`. Every hypothesis starts
/// from the pass's state `S`, and propagation is a closure operator, so the first depth-1 test
/// of branch `b` inside hypothesis `a` ends where the test of `a` inside hypothesis `b` does:
/// both propagate `S ∧ a ∧ b`. What hypothesis `a` finds for a branch still to come as a
/// hypothesis is kept for it, and taken (once) when it comes.
#[derive(Default)]
pub(super) struct PairTable {
    on: bool,
    /// Keep contradictions too (their position is only drawn when something is recorded).
    contradictions: bool,
    /// The place in the pass of each branch that is (or was) a hypothesis.
    order: HashMap<u32, u32, BuildHasherDefault<KeyHasher>>,
    /// `(earlier hypothesis, later one)` → its end position, and whether it was a contradiction.
    results: HashMap<u64, (Grid, bool), BuildHasherDefault<KeyHasher>>,
}

impl PairTable {
    /// Starts a pass: `order` (the pass's test order over `decisions`), or `None` when results
    /// cannot be shared.
    pub(super) fn reset(
        &mut self,
        order: Option<&Vec<usize>>,
        decisions: &[Decision],
        contradictions: bool,
    ) {
        self.order.clear();
        self.results.clear();
        self.on = order.is_some();
        self.contradictions = contradictions;
        for (place, &i) in order.into_iter().flatten().enumerate() {
            for which in 0..2 {
                let key = branch_key(&decisions[i], which);
                self.order
                    .entry(key)
                    .or_insert(2 * place as u32 + which as u32);
            }
        }
    }

    pub(super) fn on(&self) -> bool {
        self.on
    }

    /// The result hypothesis `b` found for `a` (branch keys), if kept.
    pub(super) fn take(&mut self, a: u32, b: u32) -> Option<(Grid, bool)> {
        self.results.remove(&(u64::from(a) << 32 | u64::from(b)))
    }

    /// Hypothesis `a` tested branch `b` to `g`: kept if `b` is a hypothesis still to come.
    pub(super) fn offer(&mut self, a: u32, b: u32, g: &Grid, outcome: Outcome) {
        let ctr = match outcome {
            Outcome::Open => false,
            Outcome::Contradiction(_) if self.contradictions => true,
            _ => return,
        };
        match (self.order.get(&a), self.order.get(&b)) {
            (Some(pa), Some(pb)) if pb > pa => {
                self.results
                    .insert(u64::from(a) << 32 | u64::from(b), (*g, ctr));
            }
            _ => {}
        }
    }
}
