//! `Memo`: the hypotheses already worked out in one analysis, by where they start.
//!
//! Soundness: a hypothesis' closure depends only on its start position, its depth `j` and its
//! nesting level (the options are the analysis'; the buffers it reuses change its speed, never
//! its result). A second hypothesis starting from the same position ends the same way: the same
//! result, final position and solution, and it is counted with the same effort as if worked out
//! again. Keys are compared whole, so a fingerprint collision only loses a shortcut. A result
//! whose effort would cross the test budget is worked out again, so a budget stops exactly where
//! it would without the memo. Recorded runs do not use it: they must write every line.

use super::keys::{fingerprint, KeyHasher};
use super::search::Res;
use super::spares::{Spare, Spares};
use crate::grid::Grid;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The hypotheses worked out so far in one analysis, by where they start. A hypothesis'
/// closure depends only on its start position, its depth and its nesting level (the options
/// are the analysis'; the buffers it reuses change its speed, never its result), so a second
/// hypothesis starting from the same position (two branches can propagate to the same place)
/// ends the same way: the same result, final position and solution reached, with the same
/// effort. Only unrecorded runs keep results: a recorded one must write every line.
///
/// The map holds small entries (a key's fingerprint → its place in `kept`), so growing it moves
/// no grids. A key whose fingerprint is taken by another is not kept: a lost shortcut only.
#[derive(Default)]
pub(super) struct Memo {
    places: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    kept: Vec<(MemoKey, Worked)>,
}

/// Where a hypothesis starts (its branch test's position), its depth `j` and nesting level.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct MemoKey {
    start: Grid,
    j: u8,
    level: u8,
    /// A hash of the rest, computed once.
    fingerprint: u64,
}

impl MemoKey {
    pub(super) fn new(start: Grid, j: u8, level: u8) -> MemoKey {
        let fingerprint = fingerprint(&start, u64::from(j) << 8 | u64::from(level));
        MemoKey {
            start,
            j,
            level,
            fingerprint,
        }
    }
}

/// A hypothesis' closure result, its final position, the solution it reached (when solved)
/// and the effort made inside it.
#[derive(Clone, Copy)]
pub(super) struct Worked {
    pub(super) res: Res,
    pub(super) end: Grid,
    pub(super) solved: Grid,
    pub(super) tests: u64,
    pub(super) hypotheses: u64,
    pub(super) facts: u64,
}

/// At most this many results are kept per analysis (about 4.5 MB; the emptied buffers stay with
/// the thread for its next analysis, see [`Spares`]).
pub(super) const MEMO_LIMIT: usize = 1 << 13;

impl Spare for Memo {
    fn slot(spares: &mut Spares) -> &mut Memo {
        &mut spares.memo
    }

    fn clear(&mut self) {
        self.places.clear();
        self.kept.clear();
    }
}

impl Memo {
    /// The result kept for `key`, unless counting its effort would cross the test budget (the
    /// hypothesis is then worked out again, so the analysis stops exactly where it would).
    pub(super) fn recall(
        &self,
        key: &MemoKey,
        now: super::Counters,
        budget: &super::Budget,
    ) -> Option<Worked> {
        let place = *self.places.get(&key.fingerprint)?;
        let (kept, w) = &self.kept[place as usize];
        let over_budget = budget
            .max_tests
            .is_some_and(|max| now.tests + w.tests > max);
        (kept == key && !over_budget).then_some(*w)
    }

    /// Keeps what the hypothesis of `key` found (its result, its final position and, if solved,
    /// the solution reached), with the effort between `before` and `after`.
    pub(super) fn keep(
        &mut self,
        key: MemoKey,
        res: Res,
        end: &Grid,
        solved: &Grid,
        before: super::Counters,
        after: super::Counters,
    ) {
        if self.kept.len() >= MEMO_LIMIT {
            return;
        }
        if let Entry::Vacant(slot) = self.places.entry(key.fingerprint) {
            slot.insert(self.kept.len() as u32);
            let worked = Worked {
                res,
                end: *end,
                solved: *solved,
                tests: after.tests - before.tests,
                hypotheses: after.hypotheses - before.hypotheses,
                facts: after.facts - before.facts,
            };
            self.kept.push((key, worked));
        }
    }
}
