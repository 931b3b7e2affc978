//! Cell-pair decisions (spec §4): for a two-valued cell `P: a,b`, every other cell `Y` of a unit
//! of `P` holding `a`, `b` and more gives `Y: a,b` versus `Y: rest`.

use super::{Decision, Listed, Origin};
use crate::grid::{differing_masks, CellSet, Grid, Unit};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    // The two-valued cells (one value left, and not none, once the lowest is cleared), found in
    // one branch-free pass over the grid (see `differing_masks`) rather than cell by cell.
    let rest = grid.cells().map(|c| {
        let m = c.bits();
        let rest = m & m.wrapping_sub(1);
        rest & 0u16.wrapping_sub(u16::from(rest & rest.wrapping_sub(1) == 0))
    });
    let pairs = differing_masks(&rest, &[0; 81]);
    for block in 0..9 {
        // The block's two-valued cells, row-major (a cell set's order).
        let mut sources = CellSet::from_raw(pairs & Unit::block(block).cell_set().bits());
        while let Some(pair) = sources.pop() {
            let values = grid.get(pair).bits();
            for unit in pair.units() {
                // The other cells holding both values and more (the pair cell itself holds
                // exactly them).
                let ys = unit.cells();
                let mut hits = 0u16;
                for (k, y) in ys.iter().enumerate() {
                    let m = grid.get(*y).bits();
                    hits |= u16::from(m & values == values && m != values) << k;
                }
                while hits != 0 {
                    let y = ys[hits.trailing_zeros() as usize % 9];
                    hits &= hits - 1;
                    let values = grid.get(pair);
                    listed.push(out, grid, y, values, Origin::CellPair { pair, unit });
                }
            }
        }
    }
}
