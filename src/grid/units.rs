//! The 27 units (blocks, rows, columns) and the peer tables, computed at compile time.

use super::cell::{Cell, CellSet};
use std::fmt;

/// The kind of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// A 3×3 block.
    Block,
    /// A row.
    Row,
    /// A column.
    Column,
}

/// One of the 27 units: index 0–8 are the blocks, 9–17 the rows, 18–26 the columns — the
/// canonical order of spec §4.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit(u8);

const fn unit_cells(u: usize) -> [Cell; 9] {
    let mut out = [Cell::from_row_col(0, 0); 9];
    let mut i = 0;
    while i < 9 {
        out[i] = if u < 9 {
            Cell::from_row_col((u / 3) * 3 + i / 3, (u % 3) * 3 + i % 3)
        } else if u < 18 {
            Cell::from_row_col(u - 9, i)
        } else {
            Cell::from_row_col(i, u - 18)
        };
        i += 1;
    }
    out
}

const UNIT_CELLS: [[Cell; 9]; 27] = {
    let mut out = [[Cell::from_row_col(0, 0); 9]; 27];
    let mut u = 0;
    while u < 27 {
        out[u] = unit_cells(u);
        u += 1;
    }
    out
};

const fn set_of(cells: &[Cell; 9]) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < 9 {
        m |= 1u128 << cells[i].index();
        i += 1;
    }
    m
}

/// Each unit's cells as an 81-bit set (bit = row-major index; blocks, rows, columns).
pub(crate) const UNIT_SETS: [u128; 27] = {
    let mut out = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        out[u] = set_of(&UNIT_CELLS[u]);
        u += 1;
    }
    out
};

/// Each cell's 20 peers as an 81-bit set.
pub(crate) const PEER_SETS: [u128; 81] = {
    let mut out = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let c = Cell::from_row_col(i / 9, i % 9);
        let m = UNIT_SETS[c.block()] | UNIT_SETS[9 + c.row()] | UNIT_SETS[18 + c.col()];
        out[i] = m & !(1u128 << i);
        i += 1;
    }
    out
};

const PEERS: [[Cell; 20]; 81] = {
    let mut out = [[Cell::from_row_col(0, 0); 20]; 81];
    let mut i = 0;
    while i < 81 {
        let mut m = PEER_SETS[i];
        let mut k = 0;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            out[i][k] = Cell::from_row_col(j / 9, j % 9);
            k += 1;
            m &= m - 1;
        }
        i += 1;
    }
    out
};

impl Unit {
    /// The unit with index `i` (0 to 26), in the canonical order blocks, rows, columns.
    #[inline]
    pub const fn new(i: usize) -> Option<Unit> {
        if i < 27 {
            Some(Unit(i as u8))
        } else {
            None
        }
    }

    /// Block `b` (0-based, row-major).
    #[inline]
    pub const fn block(b: usize) -> Unit {
        Unit((b % 9) as u8)
    }

    /// Row `r` (0-based).
    #[inline]
    pub const fn row(r: usize) -> Unit {
        Unit(9 + (r % 9) as u8)
    }

    /// Column `c` (0-based).
    #[inline]
    pub const fn column(c: usize) -> Unit {
        Unit(18 + (c % 9) as u8)
    }

    /// Index 0 to 26.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Block, row or column.
    pub const fn kind(self) -> UnitKind {
        match self.0 {
            0..=8 => UnitKind::Block,
            9..=17 => UnitKind::Row,
            _ => UnitKind::Column,
        }
    }

    /// The nine cells: row-major inside a block, left to right in a row, top to bottom in a column.
    #[inline]
    pub fn cells(self) -> &'static [Cell; 9] {
        &UNIT_CELLS[self.0 as usize]
    }

    /// The nine cells as a set.
    #[inline]
    pub fn cell_set(self) -> CellSet {
        CellSet::from_bits(UNIT_SETS[self.0 as usize])
    }

    /// All 27 units in canonical order.
    pub fn all() -> impl Iterator<Item = Unit> + Clone {
        (0..27u8).map(Unit)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0 as usize % 9;
        match self.kind() {
            UnitKind::Block => write!(f, "block {}", n + 1),
            UnitKind::Row => write!(f, "row {}", n + 1),
            UnitKind::Column => write!(f, "column {}", (b'A' + n as u8) as char),
        }
    }
}

impl fmt::Debug for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Cell {
    /// The three units of the cell in the order block, row, column (spec §4).
    #[inline]
    pub const fn units(self) -> [Unit; 3] {
        [
            Unit(self.block() as u8),
            Unit(9 + self.row() as u8),
            Unit(18 + self.col() as u8),
        ]
    }

    /// The 20 peers (cells sharing a unit), row-major.
    #[inline]
    pub fn peers(self) -> &'static [Cell; 20] {
        &PEERS[self.index()]
    }

    /// The 20 peers as a set.
    #[inline]
    pub fn peer_set(self) -> CellSet {
        CellSet::from_bits(PEER_SETS[self.index()])
    }
}

impl CellSet {
    /// The set with the raw 81-bit mask `bits`.
    #[inline]
    pub const fn from_bits(bits: u128) -> CellSet {
        // Safety of meaning: only the low 81 bits name cells.
        CellSet::from_raw(bits & CellSet::ALL.bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_twenty_peers_and_three_units() {
        for c in Cell::all() {
            assert_eq!(c.peer_set().len(), 20);
            assert!(!c.peer_set().contains(c));
            for u in c.units() {
                assert!(u.cells().contains(&c));
            }
        }
    }

    #[test]
    fn units_are_in_canonical_order() {
        assert_eq!(Unit::new(0).unwrap().to_string(), "block 1");
        assert_eq!(Unit::new(9).unwrap().to_string(), "row 1");
        assert_eq!(Unit::new(26).unwrap().to_string(), "column I");
        let b9 = Unit::block(8);
        assert_eq!(b9.cells()[0].to_string(), "G7");
        assert_eq!(b9.cells()[8].to_string(), "I9");
    }
}
