//! `Shared`: the depth-1 results of one analysis, for another analysis of the same puzzle under
//! the same propagation profile (classification runs two: the level's `pairs` and the depth's
//! decision kinds).
//!
//! Soundness: a branch's depth-1 result depends only on the state it is applied to, the branch
//! and the profile; states are compared whole (the fingerprint only finds them), and the table
//! is emptied when the profile changes. The second run takes the first one's end instead of
//! propagating again; its counts are unchanged (a test is counted whether or not it propagates).

use super::keys::{fingerprint, KeyHasher};
use super::spares::{Spare, Spares};
use crate::grid::Grid;
use crate::propagate::{Outcome, Profile};
use crate::statement::Statement;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A state's place in [`Shared`]: its id there, and whether it is new (its results are then
/// this pass's own).
pub(crate) struct SharedPlace<'a> {
    /// The results.
    pub(crate) shared: &'a mut Shared,
    /// The state's id.
    pub(crate) id: u32,
    /// Whether the state is new.
    pub(crate) new: bool,
}

/// The depth-1 results of one analysis, for another analysis of the same puzzle under the same
/// propagation profile: classification runs two (the level's `pairs` and the depth's decision
/// kinds), whose states and branches coincide in part, above all early on. A branch's result
/// depends only on the state it is applied to, the branch and the profile, so the second run
/// takes the first one's instead of propagating again; its counts are unchanged (a test is
/// counted whether or not it propagates).
///
/// States are kept by a fingerprint and compared whole; each result by its state's place and
/// the branch's statement. Bounded: past [`SHARED_LIMIT`] states or results nothing more is kept.
#[derive(Default)]
pub(crate) struct Shared {
    profile: Option<Profile>,
    states: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    grids: Vec<Grid>,
    results: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    ends: Vec<(Grid, Outcome)>,
}

/// At most this many results, and as many states, are kept (the two runs' states coincide
/// mostly early on).
pub(super) const SHARED_LIMIT: usize = 1 << 11;

impl Spare for Shared {
    fn slot(spares: &mut Spares) -> &mut Shared {
        &mut spares.shared
    }

    fn clear(&mut self) {
        self.profile = None;
        self.states.clear();
        self.grids.clear();
        self.results.clear();
        self.ends.clear();
    }
}

impl Shared {
    /// These results, emptied first unless they were made under `profile`.
    pub(super) fn for_profile(&mut self, profile: Profile) -> &mut Shared {
        if self.profile != Some(profile) {
            self.clear();
            self.profile = Some(profile);
        }
        self
    }

    /// The place of `state`, kept now if new and there is room; and whether it is new.
    pub(super) fn state(&mut self, state: &Grid) -> Option<(u32, bool)> {
        match self.states.entry(fingerprint(state, 0)) {
            Entry::Occupied(place) => {
                let id = *place.get();
                (self.grids[id as usize] == *state).then_some((id, false))
            }
            Entry::Vacant(slot) if self.grids.len().max(self.ends.len()) < SHARED_LIMIT => {
                let id = self.grids.len() as u32;
                slot.insert(id);
                self.grids.push(*state);
                Some((id, true))
            }
            Entry::Vacant(_) => None,
        }
    }

    /// A result's key: its state's place, the branch's cell and values.
    pub(super) fn key(state: u32, b: Statement) -> u64 {
        u64::from(state) << 16 | b.cell.index() as u64 | u64::from(b.values.bits()) << 7
    }

    /// The result kept for branch `b` of the state kept at `state`.
    pub(super) fn get(&self, state: u32, b: Statement) -> Option<(&Grid, Outcome)> {
        let place = *self.results.get(&Shared::key(state, b))?;
        let (end, outcome) = &self.ends[place as usize];
        Some((end, *outcome))
    }

    /// Keeps `g`, the result of branch `b` from the state kept at `state`.
    pub(super) fn put(&mut self, state: u32, b: Statement, g: &Grid, outcome: Outcome) {
        if self.ends.len() >= SHARED_LIMIT {
            return;
        }
        if let Entry::Vacant(slot) = self.results.entry(Shared::key(state, b)) {
            slot.insert(self.ends.len() as u32);
            self.ends.push((*g, outcome));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Candidates, Cell};

    /// Depth-1 results kept under one propagation profile are not handed out under another;
    /// under the same one they are, by state and branch.
    #[test]
    fn shared_results_serve_only_their_own_state_branch_and_profile() {
        use crate::grid::Digit;
        let state = Grid::empty();
        let mut other = state;
        let b = Statement::new(
            Cell::from_row_col(0, 0),
            Candidates::single(Digit::new(1).unwrap()),
        );
        b.apply(&mut other);
        let mut shared = Shared::default();
        let s = shared.for_profile(Profile::DEFAULT);
        let (id, _) = s.state(&state).unwrap();
        s.put(id, b, &other, Outcome::Open);
        assert_eq!(s.state(&state), Some((id, false)));
        assert_eq!(s.get(id, b).map(|r| *r.0), Some(other));
        let c = Statement::new(b.cell, Candidates::single(Digit::new(2).unwrap()));
        assert!(s.get(id, c).is_none());
        let (o, _) = s.state(&other).unwrap();
        assert!(o != id && s.get(o, b).is_none());
        let s = shared.for_profile(Profile::DEFAULT);
        assert!(s.get(id, b).is_some());
        let s = shared.for_profile(Profile::SINGLES);
        assert!(s.get(id, b).is_none());
    }
}
