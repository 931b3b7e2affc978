//! Single-candidate decisions for trial and error (spec §5, last paragraph): for every unsolved
//! cell (row-major) and each of its values `v`, `X: v` versus `X: rest`.

use super::{push_unique, Decision, Origin};
use crate::grid::{Candidates, Cell, Grid};

pub(super) fn generate(grid: &Grid, out: &mut Vec<Decision>) {
    for cell in Cell::all() {
        let values = grid.get(cell);
        if values.len() < 2 {
            continue;
        }
        for d in values.iter() {
            push_unique(out, grid, cell, Candidates::single(d), Origin::Candidate);
        }
    }
}
