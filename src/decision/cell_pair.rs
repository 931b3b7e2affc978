//! Cell-pair decisions (spec §4): for a two-valued cell `P: a,b`, every other cell `Y` of a unit
//! of `P` holding `a`, `b` and more gives `Y: a,b` versus `Y: rest`.

use super::{Decision, Listed, Origin};
use crate::grid::{differing_masks, each_bit, Cell, Grid, Unit};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    // The two-valued cells and those with three values or more (some values left once the
    // lowest is cleared twice), each found in one branch-free pass over the grid (see
    // `differing_masks`) rather than cell by cell.
    let clear = |m: u16| m & m.wrapping_sub(1);
    let none = [0; 81];
    let more = grid.cells().map(|c| clear(clear(c.bits())));
    let wide = differing_masks(&more, &none);
    let two = grid.cells().map(|c| {
        let rest = clear(c.bits());
        rest & 0u16.wrapping_sub(u16::from(clear(rest) == 0))
    });
    let pairs = differing_masks(&two, &none);
    for block in 0..9 {
        // The block's two-valued cells, row-major.
        each_cell(pairs & Unit::block(block).cell_set().bits(), |pair| {
            let values = grid.get(pair);
            for unit in pair.units() {
                // The unit's cells holding both values and more: among its cells with three
                // values or more, in the unit's order (row-major, as every unit's cells are).
                each_cell(wide & unit.cell_set().bits(), |y| {
                    if grid.get(y).bits() & values.bits() == values.bits() {
                        listed.push(out, grid, y, values, Origin::CellPair { pair, unit });
                    }
                });
            }
        });
    }
}

/// Calls `f` on the cells of `set` (a raw cell-set mask) in row-major order, a 64-bit half at a
/// time (fewer instructions than 128-bit steps).
#[inline(always)]
fn each_cell(set: u128, mut f: impl FnMut(Cell)) {
    let _ = each_bit(set, |i| {
        if let Some(cell) = Cell::new(i) {
            f(cell);
        }
        Ok(())
    });
}
