//! `Reuse`: the end positions of the depth-1 branches already tested in one closure, as starts
//! for re-testing the same branch after new facts.
//!
//! Soundness: tests are monotone and propagation is a closure operator. If branch `b` ended open
//! in `R` from state `S`, then from any smaller state `S'` it ends where propagating `R ∩ S'`
//! ends; when `R` lies inside `S'` that is `R` itself, found with no work. The enclosing
//! closure's ends are valid starts too (its states all contain this closure's). A contradiction
//! found from such a start is the same verdict, but the partial grid where propagation stopped
//! can differ: with a recorded chain the printed `CTR` position is illustrative.

use super::boards::Prop;
use super::keys::{branch_key, KeyHasher, Side};
use super::pair_table::PairTable;
use super::shared::SharedPlace;
use crate::grid::Grid;
use crate::propagate::{Contradiction, Outcome};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// End positions of the depth-1 branches tested so far in one closure, for re-tests after new
/// facts. Tests are monotone and propagation is a closure operator: if branch `b` ended open in
/// `R` from state `S`, then from any smaller state `S'` it ends where propagating `R ∩ S'` ends;
/// when `R` lies inside `S'` that is `R` itself, with no work at all.
#[derive(Default)]
pub(super) struct Reuse {
    /// Whether ends are kept ([`Shortcuts::reuse`](super::Shortcuts::reuse)); when not, none
    /// is ever found and every test propagates from the state.
    on: bool,
    ends: HashMap<u32, Grid, BuildHasherDefault<KeyHasher>>,
}

impl Reuse {
    /// Forgets every end (a new closure); keeps ends from now on if `on`.
    pub(super) fn reset(&mut self, on: bool) {
        self.ends.clear();
        self.on = on;
    }

    /// [`Reuse::propagate`], unless `shared` (another analysis' results, with the state's
    /// place there) holds the branch's result; a result found here is added to it.
    // Inlined into `test`, its only caller: it is on the hot path.
    #[inline(always)]
    pub(super) fn propagate_sharing(
        &mut self,
        state: &Grid,
        side: Side<'_>,
        outer: Option<&mut Outer<'_>>,
        prop: Prop<'_>,
        g: &mut Grid,
        shared: Option<SharedPlace<'_>>,
    ) -> Outcome {
        let Some(SharedPlace { shared, id, new }) = shared else {
            return self.propagate(state, side, outer, prop, g);
        };
        let (d, which) = (side.decision, side.which);
        let b = d.branch(which);
        // A new state's results are this pass's own, of other branches (a branch repeated in
        // the pass finds its own end in `self` instead, the same one).
        if let Some((end, outcome)) = (!new).then(|| shared.get(id, b)).flatten() {
            // Taken as this closure's end of the branch, as if propagated here.
            *g = *end;
            let key = branch_key(d, which);
            if outcome.is_contradiction() {
                self.ends.remove(&key);
            } else if self.on {
                self.ends.insert(key, *g);
            }
            return outcome;
        }
        let outcome = self.propagate(state, side, outer, prop, g);
        shared.put(id, b, g, outcome);
        outcome
    }

    /// Applies branch `which` of `d` to `state` and propagates, into `g`, starting from the end
    /// of an earlier test of the same branch in this closure or, failing that, in the enclosing
    /// one.
    pub(super) fn propagate(
        &mut self,
        state: &Grid,
        side: Side<'_>,
        outer: Option<&mut Outer<'_>>,
        prop: Prop<'_>,
        g: &mut Grid,
    ) -> Outcome {
        let (d, which) = (side.decision, side.which);
        let key = branch_key(d, which);
        let (outer, mut pairs) = match outer {
            Some(o) => (Some(o.reuse), o.pairs.as_mut()),
            None => (None, None),
        };
        if let Some((table, hypothesis)) = pairs.as_mut() {
            if let Some((end, ctr)) = table.take(key, *hypothesis) {
                *g = end;
                if ctr {
                    self.ends.remove(&key);
                    let c = Contradiction::NoValue { cell: d.cell };
                    return Outcome::Contradiction(c);
                }
                if self.on {
                    self.ends.insert(key, end);
                }
                return Outcome::Open;
            }
        }
        let on = self.on;
        let slot = self.ends.entry(key);
        let (outcome, moved) = match &slot {
            Entry::Occupied(own) => from_end(g, (own.get(), true), state, prop),
            Entry::Vacant(_) => match outer.and_then(|o| o.ends.get(&key)) {
                Some(end) => from_end(g, (end, false), state, prop),
                None => {
                    *g = *state;
                    d.branch(which).apply(g);
                    (prop.from(g, d.cell, state), true)
                }
            },
        };
        if !moved {
            return outcome;
        }
        if let Some((table, hypothesis)) = pairs {
            table.offer(*hypothesis, key, g, outcome);
        }
        match slot {
            Entry::Occupied(own) if outcome.is_contradiction() => {
                own.remove();
            }
            Entry::Occupied(mut own) => *own.get_mut() = *g,
            Entry::Vacant(slot) if on && !outcome.is_contradiction() => {
                slot.insert(*g);
            }
            Entry::Vacant(_) => {}
        }
        outcome
    }
}

/// Propagates into `g` the intersection of `state` with `end`, an earlier open end of the same
/// branch (`own`: in this closure). Also returns whether `g` moved from `end` (when not, `end`
/// lies inside `state` and is the answer, found with no work at all).
#[inline]
pub(super) fn from_end(
    g: &mut Grid,
    (end, own): (&Grid, bool),
    state: &Grid,
    prop: Prop<'_>,
) -> (Outcome, bool) {
    let (changed, emptied) = g.set_intersection(end, state);
    if changed.is_empty() {
        let outcome = if g.is_complete() {
            Outcome::Solved
        } else {
            Outcome::Open
        };
        return (outcome, false);
    }
    let outcome = match emptied.iter().next() {
        Some(cell) => Outcome::Contradiction(Contradiction::NoValue { cell }),
        None if own && changed.len() < 6 => prop.changed_from_end(g, changed, end, state),
        None => prop.meet(g, changed, state),
    };
    (outcome, true)
}

/// What a closure inside a hypothesis may start its depth-1 tests from.
pub(super) struct Outer<'a> {
    /// The enclosing closure's depth-1 end positions (its states all contain this one's).
    pub(super) reuse: &'a Reuse,
    /// While the hypothesis' state is still the position its own test ended in (no fact found
    /// inside yet): the enclosing pass's [`PairTable`] and the hypothesis' branch key.
    pub(super) pairs: Option<(&'a mut PairTable, u32)>,
}
