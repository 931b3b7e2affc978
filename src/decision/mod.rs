//! Binary decisions (spec §4): one cell's values split in two, `X: S` versus `X: rest`.
//!
//! [`generate`] lists the decisions of a state in the canonical order: cell pairs (source pairs by
//! block, row-major inside the block; their units block, row, column; candidates in unit order),
//! then constraint pairs (units blocks, rows, columns; then by first cell), then single-candidate
//! decisions when asked for. The order never depends on the digits' names. A decision reached
//! twice in one pass (same cell, same split) is listed once. The source's own method
//! ([`DecisionKinds::PAIRS`]) uses cell pairs, and constraint pairs only in a state that has no
//! cell-pair decision at all; the fallback is decided per state.

mod candidate;
mod cell_pair;
mod constraint_pair;

use crate::grid::{Candidates, Cell, Digit, Grid, Unit};
use crate::statement::Statement;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Where a decision comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A two-valued cell `pair` and another cell of `unit` holding both its values and more.
    CellPair {
        /// The two-valued source cell.
        pair: Cell,
        /// The unit shared by the pair and the decided cell.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
    },
    /// A value with exactly two places in a unit; the decided cell is the first place.
    ConstraintPair {
        /// The value.
        digit: Digit,
        /// The unit.
        #[serde(serialize_with = "ser_display")]
        unit: Unit,
        /// The second place.
        other: Cell,
    },
    /// One candidate of a cell against the others (trial and error, `--decisions candidate`).
    Candidate,
}

fn ser_display<T: fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// A binary decision on one cell: branch 1 is `cell: first`, branch 2 is `cell: rest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Decision {
    /// The decided cell.
    pub cell: Cell,
    /// The values of branch 1.
    #[serde(serialize_with = "ser_display")]
    pub first: Candidates,
    /// The values of branch 2: the cell's other candidates when the decision was made.
    #[serde(serialize_with = "ser_display")]
    pub rest: Candidates,
    /// How the decision was found.
    pub origin: Origin,
}

impl Decision {
    /// The statement of branch 1 (`which = 0`) or branch 2 (`which = 1`).
    pub fn branch(&self, which: usize) -> Statement {
        if which == 0 {
            Statement::new(self.cell, self.first)
        } else {
            Statement::new(self.cell, self.rest)
        }
    }

    /// Both branch statements.
    pub fn branches(&self) -> [Statement; 2] {
        [self.branch(0), self.branch(1)]
    }

    /// Whether `other` splits the same cell the same way (in either order).
    pub fn same_split(&self, cell: Cell, first: Candidates) -> bool {
        self.cell == cell && (self.first == first || self.rest == first)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} | {}", self.branch(0), self.branch(1))
    }
}

/// Which decision kinds are generated (`--decisions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DecisionKinds {
    /// Cell-pair decisions.
    pub cell: bool,
    /// Constraint-pair decisions.
    pub constraint: bool,
    /// Constraint-pair decisions only in a state with no cell-pair decision (the source's
    /// method, `pairs`); meaningful with `cell` on and `constraint` off.
    pub constraint_fallback: bool,
    /// Single-candidate decisions (`X: v` vs `X: rest`), for trial-and-error depth.
    pub candidate: bool,
}

impl DecisionKinds {
    /// Cell and constraint pairs in every state (`cell,constraint`, the default of `chain`).
    pub const BOTH: DecisionKinds = DecisionKinds {
        cell: true,
        constraint: true,
        constraint_fallback: false,
        candidate: false,
    };
    /// The source's method (`pairs`): cell pairs, and constraint pairs in a state that has no
    /// cell-pair decision. The level of a puzzle is computed with these (spec §6).
    pub const PAIRS: DecisionKinds = DecisionKinds {
        cell: true,
        constraint: false,
        constraint_fallback: true,
        candidate: false,
    };
    /// Cell pairs only.
    pub const CELL: DecisionKinds = DecisionKinds {
        cell: true,
        constraint: false,
        constraint_fallback: false,
        candidate: false,
    };
    /// Every cell and value (trial and error).
    pub const CANDIDATE: DecisionKinds = DecisionKinds {
        cell: false,
        constraint: false,
        constraint_fallback: false,
        candidate: true,
    };

    const NONE: DecisionKinds = DecisionKinds {
        cell: false,
        constraint: false,
        constraint_fallback: false,
        candidate: false,
    };
}

impl Default for DecisionKinds {
    fn default() -> Self {
        DecisionKinds::BOTH
    }
}

impl fmt::Display for DecisionKinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = Vec::new();
        if self.cell && self.constraint_fallback && !self.constraint {
            names.push("pairs");
        } else if self.cell {
            names.push("cell");
        }
        if self.constraint {
            names.push("constraint");
        }
        if self.candidate {
            names.push("candidate");
        }
        f.write_str(&names.join(","))
    }
}

/// An unknown decision kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown decision kind {0:?}: expected pairs, cell, constraint or candidate (comma-separated)"
)]
pub struct UnknownDecisionKind(pub String);

impl FromStr for DecisionKinds {
    type Err = UnknownDecisionKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut k = DecisionKinds::NONE;
        for item in s.split([',', '+']).map(str::trim).filter(|i| !i.is_empty()) {
            match item {
                "cell" => k.cell = true,
                "constraint" => k.constraint = true,
                "candidate" => k.candidate = true,
                "pairs" => {
                    k.cell = true;
                    k.constraint_fallback = true;
                }
                "both" => {
                    k.cell = true;
                    k.constraint = true;
                }
                _ => return Err(UnknownDecisionKind(item.to_string())),
            }
        }
        if k.constraint {
            k.constraint_fallback = false;
        }
        if !(k.cell || k.constraint || k.candidate) {
            return Err(UnknownDecisionKind(s.to_string()));
        }
        Ok(k)
    }
}

/// The splits one [`generate`] call has listed, so that a repeat is found without searching the
/// list. Per cell, bit `hi * (hi + 1) / 2 + lo` stands for the value set `{lo, hi}` (`lo <= hi`,
/// one value when equal; see [`Listed::bit`]); a listed split marks both its halves that have
/// one or two values. A decision's first half has one or two values, so a split is a repeat
/// exactly when its first half is marked, and the generators can compute that half's bit once
/// for all the cells they split by it. The triangular index stays below 45, so a cell's marks fit
/// one word (cheaper to clear and test).
struct Listed([u64; 81]);

/// [`Listed::bit`] of every value set (as bits) of one or two values, 0 for the others: a split's
/// second half marked by one look-up, without counting its values or scanning its bits.
const MARKS: [u64; 512] = {
    let mut t = [0; 512];
    let mut set = 0;
    while set < 512 {
        if matches!((set as u16).count_ones(), 1 | 2) {
            t[set] = Listed::bit(set as u16);
        }
        set += 1;
    }
    t
};

impl Listed {
    fn new() -> Self {
        Listed([0; 81])
    }

    /// The mark of a value set of one or two values (given as bits).
    #[inline]
    const fn bit(set: u16) -> u64 {
        let (lo, hi) = (set.trailing_zeros(), 15 - set.leading_zeros());
        1u64 << ((hi * (hi + 1) / 2 + lo) % 64)
    }

    /// Appends `(cell, first)` to `out` unless the same split (in either order) is already there;
    /// `first_bit` is `Listed::bit(first)`.
    #[inline]
    fn push(
        &mut self,
        out: &mut Vec<Decision>,
        grid: &Grid,
        cell: Cell,
        (first, first_bit): (Candidates, u64),
        origin: Origin,
    ) {
        let seen = &mut self.0[cell.index()];
        if *seen & first_bit != 0 {
            return;
        }
        let rest = grid.get(cell) - first;
        // A later first half may be `rest` (when it has one or two values).
        *seen |= first_bit | MARKS[usize::from(rest.bits()) % 512];
        out.push(Decision {
            cell,
            first,
            rest,
            origin,
        });
    }
}

/// The cell sets of a state both pair generators read, gathered once per [`generate`] call: a
/// unit's cells of some kind are then a mask operation away rather than a scan of the unit.
struct Sets {
    /// The cells holding each value (see [`Grid::value_cells`]).
    values: [u128; 9],
    /// The two-valued cells.
    pairs: u128,
    /// The cells with three values or more.
    wide: u128,
}

impl Sets {
    fn new(grid: &Grid) -> Self {
        let values = grid.value_cells();
        // The cells' numbers of values, counted bit-sliced over the value sets (all cells at
        // once, without branches): seen once, twice, more.
        let (mut once, mut twice, mut more) = (0u128, 0u128, 0u128);
        for &v in &values {
            more |= twice & v;
            twice |= once & v;
            once |= v;
        }
        Sets {
            values,
            pairs: twice & !more,
            wide: more,
        }
    }
}

/// Lists the decisions of `grid` of the given kinds into `out` (cleared first), in canonical order.
///
/// Returns whether the constraint-pair fallback of [`DecisionKinds::PAIRS`] was taken (the state
/// has no cell-pair decision).
pub fn generate(grid: &Grid, kinds: DecisionKinds, out: &mut Vec<Decision>) -> bool {
    out.clear();
    let mut listed = Listed::new();
    let sets = Sets::new(grid);
    if kinds.cell {
        cell_pair::generate(grid, &sets, &mut listed, out);
    }
    let fallback = kinds.constraint_fallback && !kinds.constraint && out.is_empty();
    if kinds.constraint || fallback {
        constraint_pair::generate(grid, &sets, &mut listed, out);
    }
    if kinds.candidate {
        candidate::generate(grid, &mut listed, out);
    }
    fallback
}

#[cfg(test)]
mod tests;
