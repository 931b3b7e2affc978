//! Temporary exact solver (replaced by the solver branch).
use crate::grid::{Candidates, Cell, Grid};
use crate::propagate::{propagate, Outcome, Profile};

/// Solutions of a candidate grid, counted up to two.
#[derive(Clone, Debug, PartialEq)]
pub enum Solutions {
    /// No solution.
    None,
    /// Exactly one.
    Unique(Grid),
    /// Two or more (the first found).
    Multiple(Grid),
}

fn count(g: &mut Grid, found: &mut Vec<Grid>) {
    match propagate(g, &Profile::SINGLES) {
        Outcome::Contradiction(_) => {}
        Outcome::Solved => found.push(*g),
        Outcome::Open => {
            let Some(cell) = Cell::all()
                .filter(|&c| g.get(c).len() > 1)
                .min_by_key(|&c| g.get(c).len())
            else {
                return;
            };
            for d in g.get(cell).iter() {
                let mut h = *g;
                h.set(cell, Candidates::single(d));
                count(&mut h, found);
                if found.len() >= 2 {
                    return;
                }
            }
        }
    }
}

/// Counts the solutions of `grid`, up to two.
pub fn solve(grid: &Grid) -> Solutions {
    let mut found = Vec::new();
    count(&mut grid.clone(), &mut found);
    match found.len() {
        0 => Solutions::None,
        1 => Solutions::Unique(found[0]),
        _ => Solutions::Multiple(found[0]),
    }
}
