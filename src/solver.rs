//! The exact solver: counts the solutions of a candidate grid, up to two (spec §6).
//!
//! A depth-first search over the crate's own incremental propagation (singles and locked
//! candidates, `propagate_from`), branching on a cell with the fewest candidates. It works on
//! candidate grids (pencil marks, HDP contexts), not only givens. The `sudoku` crate (a JCZSolve
//! port) was considered and rejected: it reads givens only, and its AGPL-3.0 licence would bind
//! every user of this MIT/Apache crate. Speed is measured in `benches/engine.rs` (see
//! BENCHMARKS.md): the uniqueness check stays a few percent of an analysis.

use crate::grid::{Candidates, Cell, Grid};
use crate::propagate::{propagate, propagate_from, Outcome, Profile, Rule};

/// The solutions of a grid, counted up to two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Grid),
    /// Two or more; the first one found.
    Multiple(Grid),
}

impl Solutions {
    /// 0, 1 or 2 (several).
    pub fn count(&self) -> u8 {
        match self {
            Solutions::None => 0,
            Solutions::Unique(_) => 1,
            Solutions::Multiple(_) => 2,
        }
    }
}

/// The propagation used inside the search: singles and locked candidates. Subsets would cut
/// the search further but cost more per node than they save (measured on magictour-top1465).
const SEARCH_PROFILE: Profile = Profile::SINGLES
    .with(Rule::LockedPointing)
    .with(Rule::LockedClaiming);

struct Search {
    found: usize,
    first: Option<Grid>,
}

impl Search {
    /// Depth-first search below a propagated, open position.
    fn run(&mut self, g: &Grid) {
        // Branch on the cell with the fewest candidates (a two-valued one when there is one).
        let mut best: Option<Cell> = None;
        let mut best_len = 10;
        for c in Cell::all() {
            let n = g.get(c).len();
            if n > 1 && n < best_len {
                best_len = n;
                best = Some(c);
                if n == 2 {
                    break;
                }
            }
        }
        let Some(cell) = best else {
            self.solution(g);
            return;
        };
        for d in g.get(cell).iter() {
            let mut next = *g;
            next.set(cell, Candidates::single(d));
            match propagate_from(&mut next, cell, &SEARCH_PROFILE) {
                Outcome::Contradiction(_) => {}
                Outcome::Solved => self.solution(&next),
                Outcome::Open => self.run(&next),
            }
            if self.found >= 2 {
                return;
            }
        }
    }

    fn solution(&mut self, g: &Grid) {
        self.found += 1;
        if self.first.is_none() {
            self.first = Some(*g);
        }
    }
}

/// Counts the solutions of `grid` (a candidate grid), up to two.
pub fn solve(grid: &Grid) -> Solutions {
    let mut g = *grid;
    let mut search = Search {
        found: 0,
        first: None,
    };
    match propagate(&mut g, &SEARCH_PROFILE) {
        Outcome::Contradiction(_) => {}
        Outcome::Solved => search.solution(&g),
        Outcome::Open => search.run(&g),
    }
    match (search.found, search.first) {
        (1, Some(s)) => Solutions::Unique(s),
        (n, Some(s)) if n > 1 => Solutions::Multiple(s),
        _ => Solutions::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::tests::grid;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const INKALA_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn inkala_is_unique() {
        assert_eq!(
            solve(&grid(INKALA)),
            Solutions::Unique(grid(INKALA_SOLUTION))
        );
    }

    #[test]
    fn empty_grid_has_many_and_a_valid_first() {
        match solve(&Grid::empty()) {
            Solutions::Multiple(g) => assert!(g.is_valid_solution()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clashing_givens_have_none() {
        let mut bad = INKALA.to_string();
        bad.replace_range(1..2, "8");
        assert_eq!(solve(&grid(&bad)), Solutions::None);
    }

    #[test]
    fn candidate_restrictions_are_respected() {
        let sol = grid(INKALA_SOLUTION);
        let mut g = grid(INKALA);
        let a1 = Cell::new(1).unwrap(); // B1, solution 1
                                        // Allow the true value and one other: still unique.
        g.set(
            a1,
            sol.get(a1) | Candidates::single(crate::Digit::new(9).unwrap()),
        );
        assert_eq!(solve(&g), Solutions::Unique(sol));
        // Rule the true value out: no solution.
        g.set(a1, Candidates::single(crate::Digit::new(9).unwrap()));
        assert_eq!(solve(&g), Solutions::None);
        // An empty cell: no solution.
        g.set(a1, Candidates::NONE);
        assert_eq!(solve(&g), Solutions::None);
    }

    #[test]
    fn removing_givens_makes_several() {
        // Inkala's puzzle minus two givens has several solutions.
        let mut line = INKALA.to_string();
        line.replace_range(0..1, ".");
        line.replace_range(11..12, ".");
        match solve(&grid(&line)) {
            Solutions::Multiple(g) => {
                assert!(g.is_valid_solution() && grid(&line).admits(&g))
            }
            other => panic!("{other:?}"),
        }
    }
}
