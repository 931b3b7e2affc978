//! Constraint-pair decisions (spec §4): a value `v` with exactly two places `P`, `Q` in a unit
//! gives `P: v` versus `P: rest` (the second branch amounts to `Q: v`).

use super::{Decision, Listed, Origin, Sets};
use crate::grid::{Candidates, Cell, Digit, Grid, Unit};

/// The first of the last 64 cells (a word's worth, holding the last three blocks and two rows).
const HIGH: u32 = 81 - 64;

/// Per value index (the low bits of a key; the last seven are padding), the digit, its set and
/// the `Listed::bit` of `{d}` (`lo = hi = d`): one look-up rather than a division and bit scans.
const DIGITS: [(Digit, Candidates, u64); 16] = {
    let mut t = [(Digit::from_index(0), Candidates::from_bits(1), 1); 16];
    let mut d = 0;
    while d < 16 {
        let i = d % 9;
        let digit = Digit::from_index(i);
        t[d] = (digit, Candidates::single(digit), 1 << (i * (i + 3) / 2));
        d += 1;
    }
    t
};

pub(super) fn generate(grid: &Grid, sets: &Sets, listed: &mut Listed, out: &mut Vec<Decision>) {
    let open = sets.pairs | sets.wide;
    // The value and open cell sets of the first 64 cells and of the last 64, one word each.
    let word = |at: u32| (sets.values.map(|v| (v >> at) as u64), (open >> at) as u64);
    let (low, high) = (word(0), word(HIGH));
    // Only the first `n` keys are read: no clearing between units.
    let mut found = [0u32; 9];
    let columns = column_pairs(grid);
    for unit in Unit::all() {
        let set = unit.cell_set().bits();
        // The values with exactly two places among the unit's cells (one mask operation each on
        // the cells holding the value), solved ones included, both open: a solved value has no
        // such pair, as one of its two places would be the solved cell. Keyed by first cell,
        // then second cell (row-major, the unit's order): a digit-name-free order (digits only
        // break ties between values with the same two places, which then split the cell the
        // same way and are listed once). A block or a row lies inside the first 64 cells or the
        // last 64: one word per value, then, rather than two (only columns need the whole grid).
        let n = if set >> 64 == 0 {
            bilocated(&low.0, low.1, set as u64, 0, &mut found)
        } else if set & ((1 << HIGH) - 1) == 0 {
            bilocated(&high.0, high.1, (set >> HIGH) as u64, HIGH, &mut found)
        } else {
            // A column: only the values counted twice in it (see [`column_pairs`]).
            let mut n = 0;
            let mut digits = columns[unit.index() % 9];
            while digits != 0 {
                let d = digits.trailing_zeros();
                digits &= digits - 1;
                if let Some((first, second)) = sets.values[d as usize % 9].two_places(set, open) {
                    found[n % 9] = first << 16 | second << 8 | d;
                    n += 1;
                }
            }
            n
        };
        let keys = &mut found[..n.min(9)];
        keys.sort_unstable();
        for &key in keys.iter() {
            let (Some(first), Some(second)) = (
                Cell::new((key >> 16) as usize),
                Cell::new((key >> 8 & 0xff) as usize),
            ) else {
                continue;
            };
            let (digit, set, bit) = DIGITS[(key & 15) as usize];
            listed.push(
                out,
                grid,
                first,
                (set, bit),
                Origin::ConstraintPair {
                    digit,
                    unit,
                    other: second,
                },
            );
        }
    }
}

/// A cell set of one word (from some cell on) or of the whole grid.
trait Word: Copy {
    /// The first and last of the places of `self` in `set`, when they are two, both `open`.
    fn two_places(self, set: Self, open: Self) -> Option<(u32, u32)>;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            #[inline(always)]
            fn two_places(self, set: Self, open: Self) -> Option<(u32, u32)> {
                let places = self & set;
                let last = || <$t>::BITS - 1 - places.leading_zeros();
                (places.count_ones() == 2 && places & !open == 0)
                    .then(|| (places.trailing_zeros(), last()))
            }
        }
    };
}
word!(u64);
word!(u128);

/// Writes the keys (see [`generate`]) of the values whose cell sets `values` (cells from `at`
/// on) have exactly two places in `set`, both `open`, into `found`; returns how many.
#[inline(always)]
fn bilocated<W: Word>(values: &[W; 9], open: W, set: W, at: u32, found: &mut [u32; 9]) -> usize {
    let mut n = 0;
    for (d, &cells) in values.iter().enumerate() {
        if let Some((first, second)) = cells.two_places(set, open) {
            found[n % 9] = (first + at) << 16 | (second + at) << 8 | d as u32;
            n += 1;
        }
    }
    n
}

/// Per column, the values with exactly two places in it (as bits), so that [`generate`] tests
/// only those there: a column spans both halves of the cell sets, and testing every value costs
/// twice as much as in a block or a row. Counted bit-sliced over the rows (once, twice, more),
/// four columns a word (16-bit lanes of candidate bits).
fn column_pairs(grid: &Grid) -> [u16; 9] {
    let cells = grid.cells();
    let four = |i: usize| {
        (0..4).fold(0u64, |w, k| {
            w | u64::from(cells[(i + k) % 81].bits()) << (16 * k)
        })
    };
    // Per word: the values seen once, twice, more.
    let mut counts = [(0u64, 0u64, 0u64); 3];
    for row in 0..9 {
        let x = [
            four(9 * row),
            four(9 * row + 4),
            u64::from(cells[9 * row + 8].bits()),
        ];
        for ((once, twice, more), x) in counts.iter_mut().zip(x) {
            *more |= *twice & x;
            *twice |= *once & x;
            *once |= x;
        }
    }
    std::array::from_fn(|c| {
        let (_, twice, more) = counts[c / 4];
        ((twice & !more) >> (16 * (c % 4))) as u16
    })
}
