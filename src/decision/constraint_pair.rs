//! Constraint-pair decisions (spec §4): a value `v` with exactly two places `P`, `Q` in a unit
//! gives `P: v` versus `P: rest` (the second branch amounts to `Q: v`).

use super::{push_unique, Decision, Origin};
use crate::grid::{Candidates, Digit, Grid, Unit};

pub(super) fn generate(grid: &Grid, out: &mut Vec<Decision>) {
    for unit in Unit::all() {
        let cells = unit.cells();
        // places[d] = positions (0..9) of value d in the unit, for unsolved cells only.
        let mut places = [0u16; 9];
        let mut solved = Candidates::NONE;
        for (k, &c) in cells.iter().enumerate() {
            let m = grid.get(c);
            if m.len() == 1 {
                solved |= m;
                continue;
            }
            for d in m.iter() {
                places[d.index()] |= 1 << k;
            }
        }
        // By first cell, then second cell: a digit-name-free order (digits only break ties
        // between values with the same two places, which then split the cell the same way and
        // are listed once).
        let mut found = [(0u8, 0u8); 9];
        let mut n = 0;
        for (d, &p) in places.iter().enumerate() {
            if p.count_ones() == 2 && !solved.contains(Digit::from_index(d)) {
                found[n] = (
                    (p.trailing_zeros() * 9 + (15 - p.leading_zeros())) as u8,
                    d as u8,
                );
                n += 1;
            }
        }
        let found = &mut found[..n];
        found.sort_unstable();
        for &(key, d) in found.iter() {
            let (first, second) = (key as usize / 9, key as usize % 9);
            let digit = Digit::from_index(d as usize);
            push_unique(
                out,
                grid,
                cells[first],
                Candidates::single(digit),
                Origin::ConstraintPair {
                    digit,
                    unit,
                    other: cells[second],
                },
            );
        }
    }
}
