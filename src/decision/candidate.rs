//! Single-candidate decisions for trial and error (spec §5, last paragraph): for every unsolved
//! cell (row-major) and each of its values `v`, `X: v` versus `X: rest`.

use super::{Decision, Listed, Origin};
use crate::grid::{Candidates, Cell, Grid};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    // Alone (the `--te` case), the only split reached twice is that of a two-valued cell
    // (`X: a` is `X: b` swapped), so nothing needs searching; with other kinds, any may repeat.
    let alone = out.is_empty();
    for cell in Cell::all() {
        let values = grid.get(cell);
        if values.len() < 2 {
            continue;
        }
        for d in values.iter() {
            let first = Candidates::single(d);
            if !alone {
                let key = (first, Listed::bit(first.bits()));
                listed.push(out, grid, cell, key, Origin::Candidate);
                continue;
            }
            out.push(Decision {
                cell,
                first,
                rest: values - first,
                origin: Origin::Candidate,
            });
            if values.len() == 2 {
                break;
            }
        }
    }
}
