//! Constraint-pair decisions (spec §4): a value `v` with exactly two places `P`, `Q` in a unit
//! gives `P: v` versus `P: rest` (the second branch amounts to `Q: v`).

use super::{Decision, Listed, Origin};
use crate::grid::{Candidates, Digit, Grid, Unit};

pub(super) fn generate(grid: &Grid, listed: &mut Listed, out: &mut Vec<Decision>) {
    for unit in Unit::all() {
        let cells = unit.cells();
        // The masks of the unit's unsolved cells (solved ones read as empty), and the values of
        // the solved ones; without branches.
        let mut masks = [0u16; 9];
        let mut solved = 0u16;
        for (m, &c) in masks.iter_mut().zip(cells) {
            let bits = grid.get(c).bits();
            let open = 0u16.wrapping_sub(u16::from(bits & bits.wrapping_sub(1) != 0));
            *m = bits & open;
            solved |= bits & !open;
        }
        // The values with exactly two places among them (a bit-sliced count).
        let (mut once, mut twice, mut more) = (0u16, 0u16, 0u16);
        for &m in &masks {
            more |= twice & m;
            twice |= once & m;
            once |= m;
        }
        let mut two = twice & !more & !solved & 0x1ff;
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
            found[n % 9] = (
                (p.trailing_zeros() * 9 + (15 - p.leading_zeros())) as u8,
                d as u8,
            );
            n += 1;
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
