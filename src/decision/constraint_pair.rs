//! Constraint-pair decisions (spec §4): a value `v` with exactly two places `P`, `Q` in a unit
//! gives `P: v` versus `P: rest` (the second branch amounts to `Q: v`).

use super::{Decision, Listed, Origin, Sets};
use crate::grid::{Candidates, Cell, Digit, Grid, Unit};

pub(super) fn generate(grid: &Grid, sets: &Sets, listed: &mut Listed, out: &mut Vec<Decision>) {
    let open = sets.pairs | sets.wide;
    for unit in Unit::all() {
        let set = unit.cell_set().bits();
        // The values with exactly two places among the unit's cells (one mask operation each on
        // the cells holding the value), solved ones included, both open: a solved value has no
        // such pair, as one of its two places would be the solved cell. Keyed by first cell,
        // then second cell (row-major, the unit's order): a digit-name-free order (digits only
        // break ties between values with the same two places, which then split the cell the
        // same way and are listed once).
        let mut found = [0u32; 9];
        let mut n = 0;
        for (d, &cells) in sets.values.iter().enumerate() {
            let places = cells & set;
            if places.count_ones() == 2 && places & !open == 0 {
                let (first, second) = (places.trailing_zeros(), 127 - places.leading_zeros());
                found[n % 9] = first << 16 | second << 8 | d as u32;
                n += 1;
            }
        }
        let found = &mut found[..n.min(9)];
        found.sort_unstable();
        for &key in found.iter() {
            let (Some(first), Some(second)) = (
                Cell::new((key >> 16) as usize),
                Cell::new((key >> 8 & 0xff) as usize),
            ) else {
                continue;
            };
            let d = key & 0xff;
            let digit = Digit::from_index(d as usize);
            listed.push(
                out,
                grid,
                first,
                // `Listed::bit` of `{d}` (`lo = hi = d`), without its bit scans.
                (Candidates::single(digit), 1u64 << (d * (d + 3) / 2 % 64)),
                Origin::ConstraintPair {
                    digit,
                    unit,
                    other: second,
                },
            );
        }
    }
}
