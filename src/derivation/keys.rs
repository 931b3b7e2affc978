//! Sets of candidates as bits: the key of candidate `d` of cell `c` is `c * 9 + d`, and a
//! [`Keys`] holds any of the 729 keys. A derivation's search asks again and again which
//! candidates a move needs gone, may remove, or finds still there; as sets of bits these are a
//! few word operations instead of lists to build and search.

use crate::bits::ones;
use crate::grid::{Candidates, Cell, Digit, Grid};
use std::ops::{BitAnd, BitOr, BitOrAssign, Sub, SubAssign};

/// A candidate's key: `cell * 9 + digit`, both 0-based.
pub(super) type Key = usize;

/// The key of `d` in `c`.
pub(super) fn key(c: Cell, d: Digit) -> Key {
    c.index() * 9 + d.index()
}

/// The cell of a key.
fn key_cell(k: Key) -> Cell {
    Cell::new(k / 9).unwrap_or(Cell::from_row_col(0, 0))
}

/// The digit of a key.
fn key_digit(k: Key) -> Digit {
    Digit::from_index(k % 9)
}

const WORDS: usize = 729usize.div_ceil(64);

/// A set of keys (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Keys([u64; WORDS]);

impl Keys {
    /// No key.
    pub(super) const NONE: Keys = Keys([0; WORDS]);

    /// The candidates of `g`.
    pub(super) fn of(g: &Grid) -> Keys {
        let mut out = Keys::NONE;
        for c in Cell::all() {
            out.insert_values(c, g.get(c));
        }
        out
    }

    /// Adds `k`.
    pub(super) fn insert(&mut self, k: Key) {
        self.0[k / 64] |= 1 << (k % 64);
    }

    /// Adds the keys of `values` in `c`.
    pub(super) fn insert_values(&mut self, c: Cell, values: Candidates) {
        for d in values.iter() {
            self.insert(key(c, d));
        }
    }

    /// Takes out the keys of `values` in `c`.
    pub(super) fn remove_values(&mut self, c: Cell, values: Candidates) {
        for d in values.iter() {
            let k = key(c, d);
            self.0[k / 64] &= !(1 << (k % 64));
        }
    }

    /// Whether `k` is in the set.
    pub(super) fn contains(&self, k: Key) -> bool {
        self.0[k / 64] >> (k % 64) & 1 == 1
    }

    /// How many keys the set holds.
    pub(super) fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The keys, in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = Key> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| ones(bits).map(move |b| w * 64 + b))
    }

    /// The keys grouped by cell, in cell order: a move's removals as the notation writes them.
    pub(super) fn by_cell(&self) -> Vec<(Cell, Candidates)> {
        let mut out: Vec<(Cell, Candidates)> = Vec::new();
        for k in self.iter() {
            let (c, d) = (key_cell(k), key_digit(k));
            match out.last_mut() {
                Some((x, v)) if *x == c => *v |= Candidates::single(d),
                _ => out.push((c, Candidates::single(d))),
            }
        }
        out
    }
}

impl BitAnd for Keys {
    type Output = Keys;
    fn bitand(mut self, other: Keys) -> Keys {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }
}

impl BitOr for Keys {
    type Output = Keys;
    fn bitor(mut self, other: Keys) -> Keys {
        self |= other;
        self
    }
}

impl BitOrAssign for Keys {
    fn bitor_assign(&mut self, other: Keys) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl Sub for Keys {
    type Output = Keys;
    fn sub(mut self, other: Keys) -> Keys {
        self -= other;
        self
    }
}

impl SubAssign for Keys {
    fn sub_assign(&mut self, other: Keys) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn set(keys: &[Key]) -> Keys {
        let mut s = Keys::NONE;
        for &k in keys {
            s.insert(k);
        }
        s
    }

    proptest! {
        /// The bit operations agree with the same operations on ordered sets of numbers.
        #[test]
        fn keys_behave_as_sets(a in prop::collection::vec(0..729usize, 0..60),
                               b in prop::collection::vec(0..729usize, 0..60)) {
            let (sa, sb) = (set(&a), set(&b));
            let (ta, tb): (BTreeSet<Key>, BTreeSet<Key>) =
                (a.iter().copied().collect(), b.iter().copied().collect());
            let list = |s: Keys| s.iter().collect::<Vec<Key>>();
            prop_assert_eq!(list(sa), ta.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(list(sa & sb), ta.intersection(&tb).copied().collect::<Vec<_>>());
            prop_assert_eq!(list(sa | sb), ta.union(&tb).copied().collect::<Vec<_>>());
            prop_assert_eq!(list(sa - sb), ta.difference(&tb).copied().collect::<Vec<_>>());
            prop_assert_eq!(sa.is_empty(), ta.is_empty());
            prop_assert_eq!(sa.len() as usize, ta.len());
            for k in 0..729 {
                prop_assert_eq!(sa.contains(k), ta.contains(&k));
            }
            // Grouped by cell: every key once, cells increasing, each cell's digits together.
            let grouped = sa.by_cell();
            let back: BTreeSet<Key> = grouped
                .iter()
                .flat_map(|&(c, v)| v.iter().map(move |d| key(c, d)))
                .collect();
            prop_assert_eq!(back, ta);
            prop_assert!(grouped.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }

    #[test]
    fn a_grid_s_keys_are_its_candidates() {
        let g: Grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let k = Keys::of(&g);
        for c in Cell::all() {
            for d in Digit::all() {
                assert_eq!(k.contains(key(c, d)), g.get(c).contains(d), "{c} {d}");
            }
        }
        let mut r = k;
        let c = Cell::from_row_col(0, 1);
        r.remove_values(c, g.get(c));
        assert_eq!(k - r, {
            let mut s = Keys::NONE;
            s.insert_values(c, g.get(c));
            s
        });
    }
}
