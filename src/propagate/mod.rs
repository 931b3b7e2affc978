//! Propagation, "solving in the normal manner" (spec §3): singles, subsets and locked candidates
//! repeated to a fixpoint.
//!
//! [`propagate`] works in place on a [`Grid`] and allocates nothing. Every rule only removes
//! candidates that the current state excludes, and a rule that applies to a state applies to every
//! smaller state too, so the fixpoint (and hence the result) does not depend on the order in which
//! the rules run; cheaper rules simply run first.

mod locked;
mod profile;
mod singles;
mod subsets;

pub use profile::{Profile, Rule, UnknownRule};

use crate::grid::{Cell, Digit, Grid, Unit};
use serde::Serialize;
use std::fmt;

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
    let outcome = state.run(profile, stats);
    state.store(grid);
    outcome
}

/// The working state: raw masks, plus the set of single-valued cells already propagated.
pub(crate) struct State {
    pub(crate) cells: [u16; 81],
    /// Singles whose value has already been removed from their peers.
    pub(crate) done: u128,
}

pub(crate) type Step = Result<bool, Contradiction>;

impl State {
    fn new(grid: &Grid) -> Self {
        let mut cells = [0u16; 81];
        for (out, c) in cells.iter_mut().zip(grid.cells()) {
            *out = c.bits();
        }
        State { cells, done: 0 }
    }

    fn store(&self, grid: &mut Grid) {
        for cell in Cell::all() {
            grid.set(
                cell,
                crate::grid::Candidates::from_bits(self.cells[cell.index()]),
            );
        }
    }

    fn run(&mut self, p: &Profile, stats: &mut Stats) -> Outcome {
        match self.fixpoint(p, stats) {
            Err(c) => Outcome::Contradiction(c),
            Ok(()) => {
                if self.cells.iter().all(|&m| m.count_ones() == 1) {
                    // Units are checked in the fixpoint: all singles and no duplicate is a solution.
                    Outcome::Solved
                } else {
                    Outcome::Open
                }
            }
        }
    }

    fn fixpoint(&mut self, p: &Profile, stats: &mut Stats) -> Result<(), Contradiction> {
        loop {
            if p.has(Rule::NakedSingle) {
                singles::naked(self, stats)?;
            }
            // Unit checks always run: they find the contradictions every profile must see.
            if singles::check_units_and_hidden(self, p.has(Rule::HiddenSingle), stats)? {
                continue;
            }
            if p.has_locked() && locked::apply(self, p, stats)? {
                continue;
            }
            if p.has_subsets() && subsets::apply(self, p, stats)? {
                continue;
            }
            return Ok(());
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
