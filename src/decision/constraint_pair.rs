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
        // By first cell, then second cell: a digit-name-free order.
        for first in 0..9 {
            for second in first + 1..9 {
                let want = (1u16 << first) | (1 << second);
                for (d, &p) in places.iter().enumerate() {
                    let digit = Digit::from_index(d);
                    if p == want && !solved.contains(digit) {
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
        }
    }
}
