//! Cell-pair decisions (spec §4): for a two-valued cell `P: a,b`, every other cell `Y` of a unit
//! of `P` holding `a`, `b` and more gives `Y: a,b` versus `Y: rest`.

use super::{Decision, Listed, Origin, Sets};
use crate::grid::{each_bit, Cell, Grid, Unit};

pub(super) fn generate(grid: &Grid, sets: &Sets, listed: &mut Listed, out: &mut Vec<Decision>) {
    for block in 0..9 {
        // The block's two-valued cells, row-major.
        each_cell(sets.pairs & Unit::block(block).cell_set().bits(), |pair| {
            let values = grid.get(pair);
            let (a, b) = (
                values.bits().trailing_zeros(),
                15 - values.bits().leading_zeros(),
            );
            // The cells holding both values and more (any with three values or more holding
            // both), found for the whole grid at once, then taken unit by unit.
            let holders = sets.values[a as usize % 9] & sets.values[b as usize % 9] & sets.wide;
            if holders & pair.peer_set().bits() == 0 {
                return;
            }
            let first = (values, Listed::bit(values.bits()));
            for unit in pair.units() {
                // In the unit's order (row-major, as every unit's cells are).
                each_cell(holders & unit.cell_set().bits(), |y| {
                    listed.push(out, grid, y, first, Origin::CellPair { pair, unit });
                });
            }
        });
    }
}

/// Calls `f` on the cells of `set` (a raw cell-set mask) in row-major order, a 64-bit half at a
/// time.
#[inline(always)]
fn each_cell(set: u128, mut f: impl FnMut(Cell)) {
    let _ = each_bit(set, |i| {
        if let Some(cell) = Cell::new(i) {
            f(cell);
        }
        Ok(())
    });
}
