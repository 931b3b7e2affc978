//! Constraint-pair decisions (spec §4): a value `v` with exactly two places `P`, `Q` in a unit
//! gives `P: v` versus `P: rest` (the second branch amounts to `Q: v`).

use super::{Decision, Listed, Origin};
use crate::grid::{Candidates, Digit, Grid, Unit};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    for unit in Unit::all() {
        let cells = unit.cells();
        // The values with exactly two places among the unit's cells, solved ones included (a
        // bit-sliced count, without branches): a solved value has no such pair, as one of its
        // two places would be the solved cell, which is checked for below.
        let mut masks = [0u16; 9];
        let (mut once, mut twice, mut more) = (0u16, 0u16, 0u16);
        for (m, &c) in masks.iter_mut().zip(cells) {
            *m = grid.get(c).bits();
            more |= twice & *m;
            twice |= once & *m;
            once |= *m;
        }
        let mut two = twice & !more & 0x1ff;
        // By first cell, then second cell: a digit-name-free order (digits only break ties
        // between values with the same two places, which then split the cell the same way and
        // are listed once).
        let mut found = [(0u8, 0u8); 9];
        let mut n = 0;
        while two != 0 {
            let d = two.trailing_zeros();
            two &= two - 1;
            let mut p = 0u16;
            for (k, &m) in masks.iter().enumerate() {
                p |= (m >> d & 1) << k;
            }
            let (first, second) = (p.trailing_zeros(), 15 - p.leading_zeros());
            let open = |k: u32| masks[k as usize % 9].count_ones() > 1;
            if open(first) && open(second) {
                found[n % 9] = ((first * 9 + second) as u8, d as u8);
                n += 1;
            }
        }
        let found = &mut found[..n.min(9)];
        found.sort_unstable();
        for &(key, d) in found.iter() {
            let (first, second) = (key as usize / 9, key as usize % 9);
            let digit = Digit::from_index(d as usize);
            listed.push(
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
