//! The results of `hdp solve` and `hdp propagate` as records: one computation and one JSON
//! shape shared by the command and the Python package (`hdp.solve`, `hdp.propagate`), so the two
//! cannot drift apart. The `schema`, `source` and `line` fields are the writer's.

use crate::format::GridJson;
use crate::grid::{Cell, Grid};
use crate::propagate::{propagate_counting, Outcome, Profile, Stats};
use crate::solver::{Solutions, Stop};
use serde::Serialize;
use std::collections::BTreeMap;

/// The words for a search stopped by `stop`.
pub fn stop_words(stop: Stop) -> &'static str {
    match stop {
        Stop::Deadline => "the time limit passed",
        Stop::Nodes => "the search-node budget ran out",
    }
}

/// A `solve --format json` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SolveRecord {
    /// The solver finished.
    Counted {
        /// The puzzle, 81 characters.
        puzzle: String,
        /// 0, 1, or 2 for two or more.
        solutions: u8,
        /// The solution when there is exactly one.
        solution: Option<String>,
    },
    /// A limit stopped the solver: the count is unknown (`null`).
    Stopped {
        /// The puzzle, 81 characters.
        puzzle: String,
        /// Unknown.
        solutions: Option<u8>,
        /// Which limit stopped the search, in words.
        limit: &'static str,
    },
}

impl SolveRecord {
    /// The record of `puzzle` whose search ended with `result`.
    pub fn new(puzzle: &Grid, result: &Result<Solutions, Stop>) -> SolveRecord {
        match result {
            Ok(s) => SolveRecord::Counted {
                puzzle: puzzle.to_line(),
                solutions: s.count(),
                solution: match s {
                    Solutions::Unique(g) => Some(g.to_line()),
                    _ => None,
                },
            },
            Err(stop) => SolveRecord::Stopped {
                puzzle: puzzle.to_line(),
                solutions: None,
                limit: stop_words(*stop),
            },
        }
    }
}

/// A `solve --solutions N --format json` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolutionsRecord {
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// How many solutions are listed (at most N).
    pub solutions: usize,
    /// Whether the puzzle has more solutions than those listed.
    pub more: bool,
    /// The solutions listed, 81 characters each, in the solver's order.
    pub grids: Vec<String>,
    /// The cells (A1..I9) where two of the listed solutions differ, row by row.
    pub differ: Vec<String>,
}

impl SolutionsRecord {
    /// The record of `puzzle` with the solutions `grids` listed (`more` when there are others).
    pub fn new(puzzle: &Grid, grids: &[Grid], more: bool) -> SolutionsRecord {
        SolutionsRecord {
            puzzle: puzzle.to_line(),
            solutions: grids.len(),
            more,
            grids: grids.iter().map(Grid::to_line).collect(),
            differ: differing_cells(grids).iter().map(Cell::to_string).collect(),
        }
    }
}

/// The cells where two of `grids` differ, row-major.
pub fn differing_cells(grids: &[Grid]) -> Vec<Cell> {
    let Some(first) = grids.first() else {
        return Vec::new();
    };
    Cell::all()
        .filter(|&c| grids.iter().any(|g| g.get(c) != first.get(c)))
        .collect()
}

/// A puzzle propagated to its fixpoint, with how often each rule applied.
#[derive(Clone, Debug)]
pub struct Propagation {
    /// The puzzle.
    pub puzzle: Grid,
    /// The reduced position.
    pub grid: Grid,
    /// Solved, open, or a contradiction.
    pub outcome: Outcome,
    /// How often each rule applied.
    pub stats: Stats,
}

/// A `propagate --format json` record.
#[derive(Clone, Debug, Serialize)]
pub struct PropagateRecord {
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// `solved`, `open`, or `contradiction: ...`.
    pub status: String,
    /// Two-valued cells of the reduced position.
    pub pairs: usize,
    /// The reduced position.
    pub grid: GridJson,
    /// How often each rule applied, by rule name.
    pub rules: BTreeMap<&'static str, u64>,
}

impl Propagation {
    /// Propagates `puzzle` with `profile`.
    pub fn run(puzzle: &Grid, profile: &Profile) -> Propagation {
        let mut grid = *puzzle;
        let mut stats = Stats::default();
        let outcome = propagate_counting(&mut grid, profile, &mut stats);
        Propagation {
            puzzle: *puzzle,
            grid,
            outcome,
            stats,
        }
    }

    /// `solved`, `open`, or `contradiction: ...`.
    pub fn status(&self) -> String {
        match self.outcome {
            Outcome::Solved => "solved".to_string(),
            Outcome::Open => "open".to_string(),
            Outcome::Contradiction(c) => format!("contradiction: {c}"),
        }
    }

    /// The JSON record.
    pub fn record(&self) -> PropagateRecord {
        PropagateRecord {
            puzzle: self.puzzle.to_line(),
            status: self.status(),
            pairs: self.grid.pair_count(),
            grid: GridJson::from_grid(&self.grid),
            rules: self.stats.iter().map(|(r, n)| (r.name(), n)).collect(),
        }
    }
}
