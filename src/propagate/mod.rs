//! Propagation, "solving in the normal manner" (spec §3): singles, subsets and locked candidates
//! repeated to a fixpoint.
//!
//! [`propagate`] works in place on a [`Grid`] and allocates nothing. Every rule only removes
//! candidates that the current state excludes, and a rule that applies to a state applies to every
//! smaller state too (or the smaller state is a contradiction), so the fixpoint (and hence the
//! result) does not depend on the order in which the rules run, for every profile; cheaper rules
//! simply run first. `tests/integration/reference.rs` checks this against a plain implementation.
//! Subsets are read over all nine cells of a unit (see `subsets`), which is what keeps them
//! order-independent when some rules are off.

mod bare;
mod locked;
mod profile;
mod singles;
mod subsets;

pub(crate) use bare::Bases as SinglesBases;
pub use profile::{Profile, Rule, UnknownRule};

use crate::grid::{Candidates, Cell, CellSet, Digit, Grid, Unit};
use serde::Serialize;
use std::fmt;
use std::ops::{Index, IndexMut};

/// What made a state contradictory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Contradiction {
    /// A cell has no value left.
    NoValue {
        /// The empty cell.
        cell: Cell,
    },
    /// A value has no place left in a unit.
    NoPlace {
        /// The value.
        digit: Digit,
        /// The unit.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
    },
    /// Two cells of a unit hold the same single value.
    Duplicate {
        /// The value.
        digit: Digit,
        /// The unit.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
    },
    /// Some cells of a unit hold fewer values between them than there are cells.
    TooFewValues {
        /// The unit.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
        /// How many cells.
        cells: u8,
        /// How many values they hold.
        values: u8,
    },
    /// Some values of a unit have fewer places between them than there are values.
    TooFewPlaces {
        /// The unit.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
        /// How many values.
        values: u8,
        /// How many places they have.
        places: u8,
    },
}

fn ser_display<T: fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::NoValue { cell } => write!(f, "{cell} has no value"),
            Contradiction::NoPlace { digit, unit } => {
                write!(f, "value {digit} has no place in {unit}")
            }
            Contradiction::Duplicate { digit, unit } => {
                write!(f, "value {digit} appears twice in {unit}")
            }
            Contradiction::TooFewValues {
                unit,
                cells,
                values,
            } => write!(f, "{cells} cells of {unit} hold only {values} values"),
            Contradiction::TooFewPlaces {
                unit,
                values,
                places,
            } => write!(f, "{values} values of {unit} have only {places} places"),
        }
    }
}

/// The result of propagating a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every cell holds one value and no unit repeats one: the grid is a solution (SOL).
    Solved,
    /// The state is contradictory (CTR).
    Contradiction(Contradiction),
    /// Neither: the reduced grid is left in place.
    Open,
}

impl Outcome {
    /// Whether this is a contradiction.
    pub fn is_contradiction(self) -> bool {
        matches!(self, Outcome::Contradiction(_))
    }
}

/// How often each rule removed candidates (one count per application with an effect).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    counts: [u64; Rule::COUNT],
}

impl Stats {
    /// Applications of `rule`.
    pub fn get(&self, rule: Rule) -> u64 {
        self.counts[rule as usize]
    }

    #[inline]
    fn bump(&mut self, rule: Rule) {
        self.counts[rule as usize] += 1;
    }

    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &Stats) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }

    /// `(rule, count)` for every rule, in [`Rule::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Rule, u64)> + '_ {
        Rule::ALL.iter().map(move |&r| (r, self.get(r)))
    }
}

/// Propagates `grid` in place to the fixpoint of the rules in `profile`.
///
/// Returns [`Outcome::Solved`], [`Outcome::Contradiction`] (the grid is then left as it was when
/// the contradiction was found) or [`Outcome::Open`] (the grid is the reduced position).
#[inline]
pub fn propagate(grid: &mut Grid, profile: &Profile) -> Outcome {
    let mut stats = Stats::default();
    propagate_counting(grid, profile, &mut stats)
}

/// As [`propagate`], adding the rule applications to `stats`.
pub fn propagate_counting(grid: &mut Grid, profile: &Profile, stats: &mut Stats) -> Outcome {
    let mut state = State::new(grid);
    // Every single is new: remove their values from their peers in one sweep.
    if profile.has(Rule::NakedSingle) {
        if let Err(c) = singles::naked_bulk(&mut state) {
            return Outcome::Contradiction(c);
        }
    }
    state.run(profile, stats)
}

/// As [`propagate`], for a grid that was a fixpoint of `profile` before `changed` was restricted
/// (the engine's case: every branch test and every fact restricts one cell of a propagated
/// position). Only the units of `changed` are searched again for subsets and locked candidates,
/// which makes a branch test several times cheaper. If the precondition does not hold the result
/// is still sound, only possibly less reduced.
pub fn propagate_from(grid: &mut Grid, changed: Cell, profile: &Profile) -> Outcome {
    propagate_changed(grid, [changed].into_iter().collect(), profile)
}

/// As [`propagate_from`], for a grid that was a fixpoint of `profile` before the cells of
/// `changed` were restricted: a re-test that starts from an earlier branch's end position
/// intersected with a smaller state, or several facts applied at once.
pub fn propagate_changed(grid: &mut Grid, changed: CellSet, profile: &Profile) -> Outcome {
    let mut state = State::in_place(grid);
    state.assume_fixpoint_except(changed);
    state.run(profile, &mut Stats::default())
}

/// As [`propagate_changed`] with `profile`, faster, for callers that read neither rule counts nor
/// a contradiction's reason nor the grid a contradiction leaves: the reason is a placeholder and
/// the grid is left part-way. An open or solved result is the same. `profile` must have both
/// singles (the value boards need them); locked candidates work on the value boards too,
/// subsets as in [`propagate_changed_eager`]. `grid` must lie inside `base` (cell by cell), an
/// open fixpoint of `profile` (the pass's state a branch test restricts), whose value boards
/// `bases` keeps.
pub(crate) fn propagate_bare(
    grid: &mut Grid,
    base: &Grid,
    bases: &mut SinglesBases,
    profile: &Profile,
) -> Outcome {
    debug_assert!(Profile::SINGLES.is_subset_of(profile));
    bare::run(&mut Cells(grid.cells_mut()), base, bases, profile)
}

/// As [`propagate_bare`], for a `grid` that is the intersection of `base` and another open
/// fixpoint of `profile` (the end of an earlier test of the same branch, from a larger state),
/// from which `grid` differs in `changed`: the subset rules look first only at the units where
/// both lost something.
pub(crate) fn propagate_bare_meet(
    grid: &mut Grid,
    changed: CellSet,
    base: &Grid,
    bases: &mut SinglesBases,
    profile: &Profile,
) -> Outcome {
    debug_assert!(Profile::SINGLES.is_subset_of(profile));
    bare::run_meet(
        &mut Cells(grid.cells_mut()),
        changed.bits(),
        base,
        bases,
        profile,
    )
}

/// As [`propagate_bare`], for a `grid` that also lies inside `end`, another open fixpoint of
/// `profile` (the end of an earlier test of the same branch, from a larger state): the work
/// starts from where `grid` differs from `end`, usually far fewer cells than from `base`.
pub(crate) fn propagate_bare_from_end(
    grid: &mut Grid,
    end: &Grid,
    base: &Grid,
    bases: &mut SinglesBases,
    profile: &Profile,
) -> Outcome {
    debug_assert!(Profile::SINGLES.is_subset_of(profile));
    bare::run_from_end(&mut Cells(grid.cells_mut()), end, base, bases, profile)
}

/// As [`propagate_changed`], in another order of the rules: locked candidates and subsets stop
/// at their first change, so that singles run again at once. Same fixpoint and outcome (the
/// result does not depend on the order); the contradiction named, the position it leaves and
/// the rule counts may differ, so only callers that read none of them use it (the unrecorded
/// engine).
pub fn propagate_changed_eager(grid: &mut Grid, changed: CellSet, profile: &Profile) -> Outcome {
    let mut state = State::in_place(grid);
    state.assume_fixpoint_except(changed);
    state.eager = true;
    state.run(profile, &mut Stats::default())
}

/// The unit bits (block, row, column) of each cell, as a 27-bit mask.
const CELL_UNITS: [u32; 81] = {
    let mut out = [0u32; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        out[i] = (1 << ((r / 3) * 3 + c / 3)) | (1 << (9 + r)) | (1 << (18 + c));
        i += 1;
    }
    out
};

pub(crate) const ALL_UNITS: u32 = (1 << 27) - 1;

/// A grid's candidate sets as raw masks, worked on in place (no copy in or out).
pub(crate) struct Cells<'g>(&'g mut [Candidates; 81]);

impl Index<usize> for Cells<'_> {
    type Output = u16;
    #[inline]
    fn index(&self, i: usize) -> &u16 {
        self.0[i].bits_ref()
    }
}

impl IndexMut<usize> for Cells<'_> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut u16 {
        self.0[i].bits_mut()
    }
}

impl Cells<'_> {
    /// The 81 masks, row-major.
    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().map(|c| c.bits())
    }
}

/// The working state: the grid's masks, plus what changed since each rule family last looked.
pub(crate) struct State<'g> {
    pub(crate) cells: Cells<'g>,
    /// Cells that became single and whose value has not yet left their peers.
    pub(crate) new_singles: u128,
    /// Units changed since the unit checks (and hidden singles) last examined them.
    pub(crate) dirty_check: u32,
    /// Units changed since locked candidates last examined them.
    pub(crate) dirty_locked: u32,
    /// Units changed since the subset rules last examined them.
    pub(crate) dirty_subsets: u32,
    /// Locked candidates and subsets return after their first change, so that the cheaper
    /// rules run again at once (see [`propagate_changed_eager`]).
    pub(crate) eager: bool,
    /// The cells changed (by [`State::set`]).
    pub(crate) changed: u128,
}

pub(crate) type Step = Result<bool, Contradiction>;

impl<'g> State<'g> {
    /// A fresh state: every unit to examine, every single new.
    fn new(grid: &'g mut Grid) -> Self {
        let mut state = State::in_place(grid);
        let mut singles = 0u128;
        for (i, m) in state.cells.iter().enumerate() {
            if m != 0 && m & (m - 1) == 0 {
                singles |= 1u128 << i;
            }
        }
        state.new_singles = singles;
        state
    }

    /// The cells of `grid`, worked on in place, with no single yet marked as new.
    #[inline]
    fn in_place(grid: &'g mut Grid) -> Self {
        State::in_place_cells(Cells(grid.cells_mut()))
    }

    /// As [`State::in_place`], on masks already borrowed.
    #[inline]
    pub(crate) fn in_place_cells(cells: Cells<'g>) -> Self {
        State {
            cells,
            new_singles: 0,
            dirty_check: ALL_UNITS,
            dirty_locked: ALL_UNITS,
            dirty_subsets: ALL_UNITS,
            eager: false,
            changed: 0,
        }
    }

    /// Assumes the grid was a fixpoint before the cells of `changed` were restricted.
    fn assume_fixpoint_except(&mut self, changed: CellSet) {
        let mut units = 0;
        let mut singles = 0u128;
        for cell in changed.iter() {
            let i = cell.index();
            units |= CELL_UNITS[i];
            let m = self.cells[i];
            if m != 0 && m & (m - 1) == 0 {
                singles |= 1u128 << i;
            }
        }
        self.dirty_check = units;
        self.dirty_locked = units;
        self.dirty_subsets = units;
        self.new_singles = singles;
    }

    /// Replaces the candidates of cell `i` by `new` (a subset of the old ones), noting what
    /// changed. An empty cell is a contradiction.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, new: u16) -> Result<(), Contradiction> {
        self.cells[i] = new;
        self.changed |= 1 << i;
        let units = CELL_UNITS[i];
        self.dirty_check |= units;
        self.dirty_locked |= units;
        self.dirty_subsets |= units;
        if new & new.wrapping_sub(1) == 0 {
            if new == 0 {
                let cell = Cell::new(i).unwrap_or(Cell::from_row_col(0, 0));
                return Err(Contradiction::NoValue { cell });
            }
            self.new_singles |= 1u128 << i;
        }
        Ok(())
    }

    fn run(&mut self, p: &Profile, stats: &mut Stats) -> Outcome {
        match self.fixpoint(p, stats) {
            Err(c) => Outcome::Contradiction(c),
            Ok(()) => {
                if self.cells.iter().all(|m| m.count_ones() == 1) {
                    // Units are checked in the fixpoint: all singles and no duplicate is a solution.
                    Outcome::Solved
                } else {
                    Outcome::Open
                }
            }
        }
    }

    fn fixpoint(&mut self, p: &Profile, stats: &mut Stats) -> Result<(), Contradiction> {
        let naked = p.has(Rule::NakedSingle);
        loop {
            if naked {
                singles::naked(self, stats)?;
            }
            // Unit checks always run: they find the contradictions every profile must see.
            if self.dirty_check != 0
                && singles::check_units_and_hidden(self, p.has(Rule::HiddenSingle), stats)?
            {
                continue;
            }
            if naked && self.new_singles != 0 {
                continue;
            }
            if p.has_locked() && self.dirty_locked != 0 && locked::apply(self, p, stats)? {
                continue;
            }
            if p.has_subsets() && self.dirty_subsets != 0 && subsets::apply(self, p, stats)? {
                continue;
            }
            return Ok(());
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
