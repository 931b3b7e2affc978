//! Redundant givens: those whose removal leaves the solution unique, and whether a puzzle is
//! minimal (none is redundant). A setter's check, and what `generate --minimal` keeps.
//!
//! A given is a cell with one candidate; removing it gives the cell every candidate back. Each
//! check is one run of the exact solver, counted up to two, within the caller's limits.

use crate::grid::{Candidates, Cell, Grid};
use crate::solver::{solve_within, Solutions, SolveLimits, Stop};
use std::fmt;

/// Why the givens of a puzzle could not be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GivensError {
    /// The puzzle itself has no solution.
    NoSolution,
    /// The puzzle itself has several solutions.
    SeveralSolutions,
    /// A limit of the solver stopped a check.
    Stopped(Stop),
}

impl fmt::Display for GivensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GivensError::NoSolution => f.write_str("the puzzle has no solution"),
            GivensError::SeveralSolutions => f.write_str("the puzzle has several solutions"),
            GivensError::Stopped(stop) => write!(f, "unsolved: {stop}"),
        }
    }
}

impl std::error::Error for GivensError {}

/// The givens of a puzzle with one solution, and which of them are redundant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivensCheck {
    /// The given cells, row-major.
    pub givens: Vec<Cell>,
    /// The givens whose removal (alone) leaves the solution unique, row-major.
    pub redundant: Vec<Cell>,
}

impl GivensCheck {
    /// Whether no given can be removed without losing uniqueness.
    pub fn is_minimal(&self) -> bool {
        self.redundant.is_empty()
    }
}

/// The cells of `grid` with exactly one candidate, row-major.
pub fn given_cells(grid: &Grid) -> Vec<Cell> {
    Cell::all().filter(|&c| grid.get(c).len() == 1).collect()
}

/// Whether `grid` has exactly one solution, within `limits`.
pub fn is_unique(grid: &Grid, limits: SolveLimits) -> Result<bool, Stop> {
    Ok(matches!(solve_within(grid, limits)?, Solutions::Unique(_)))
}

/// `grid` with the cells of `cells` emptied (every candidate back).
pub fn without(grid: &Grid, cells: &[Cell]) -> Grid {
    let mut g = *grid;
    for &c in cells {
        g.set(c, Candidates::ALL);
    }
    g
}

/// Checks every given of `grid`, which must have one solution: one solver run per given, each
/// within `limits`.
pub fn check_givens(grid: &Grid, limits: SolveLimits) -> Result<GivensCheck, GivensError> {
    match solve_within(grid, limits).map_err(GivensError::Stopped)? {
        Solutions::None => return Err(GivensError::NoSolution),
        Solutions::Multiple(_) => return Err(GivensError::SeveralSolutions),
        Solutions::Unique(_) => {}
    }
    let givens = given_cells(grid);
    let mut redundant = Vec::new();
    for &c in &givens {
        if is_unique(&without(grid, &[c]), limits).map_err(GivensError::Stopped)? {
            redundant.push(c);
        }
    }
    Ok(GivensCheck { givens, redundant })
}

/// Whether `grid` (with one solution) is minimal, within `limits`: stops at the first
/// redundant given.
pub fn is_minimal(grid: &Grid, limits: SolveLimits) -> Result<bool, Stop> {
    for c in given_cells(grid) {
        if is_unique(&without(grid, &[c]), limits)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::tests::grid;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn inkala_is_minimal_and_one_more_given_is_redundant() {
        let g = grid(INKALA);
        let check = check_givens(&g, SolveLimits::default()).unwrap();
        assert_eq!(check.givens.len(), 21);
        assert!(check.is_minimal());
        assert!(is_minimal(&g, SolveLimits::default()).unwrap());
        // Add B1's value (1): B1 is now the only redundant given... or among them.
        let mut more = g;
        let b1 = Cell::new(1).unwrap();
        more.set(b1, Candidates::single(crate::Digit::new(1).unwrap()));
        let check = check_givens(&more, SolveLimits::default()).unwrap();
        assert!(check.redundant.contains(&b1), "{:?}", check.redundant);
        assert!(!is_minimal(&more, SolveLimits::default()).unwrap());
        let mut several = g;
        several.set(Cell::new(0).unwrap(), Candidates::ALL);
        assert_eq!(
            check_givens(&several, SolveLimits::default()),
            Err(GivensError::SeveralSolutions)
        );
    }
}
