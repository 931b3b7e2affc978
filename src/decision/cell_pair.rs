//! Cell-pair decisions (spec §4): for a two-valued cell `P: a,b`, every other cell `Y` of a unit
//! of `P` holding `a`, `b` and more gives `Y: a,b` versus `Y: rest`.

use super::{Decision, Listed, Origin};
use crate::grid::{Grid, Unit};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    for block in 0..9 {
        let cells = Unit::block(block).cells();
        // The block's two-valued cells, found without branches.
        let mut pairs = 0u16;
        for (k, c) in cells.iter().enumerate() {
            pairs |= u16::from(grid.get(*c).len() == 2) << k;
        }
        while pairs != 0 {
            let pair = cells[pairs.trailing_zeros() as usize % 9];
            pairs &= pairs - 1;
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
