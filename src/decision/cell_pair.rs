//! Cell-pair decisions (spec §4): for a two-valued cell `P: a,b`, every other cell `Y` of a unit
//! of `P` holding `a`, `b` and more gives `Y: a,b` versus `Y: rest`.

use super::{push_unique, Decision, Origin};
use crate::grid::{Grid, Unit};

pub(super) fn generate(grid: &Grid, out: &mut Vec<Decision>) {
    for block in 0..9 {
        for &pair in Unit::block(block).cells() {
            let values = grid.get(pair);
            if values.len() != 2 {
                continue;
            }
            for unit in pair.units() {
                for &y in unit.cells() {
                    let ys = grid.get(y);
                    if y != pair && ys.len() > 2 && values.is_subset_of(ys) {
                        push_unique(out, grid, y, values, Origin::CellPair { pair, unit });
                    }
                }
            }
        }
    }
}
