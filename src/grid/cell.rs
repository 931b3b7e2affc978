//! Cells named like spreadsheet cells (column letter A–I, row digit 1–9), and 81-bit cell sets.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the 81 cells; row-major index `(row-1)*9 + (col-1)` (spec §1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cell(u8);

impl Cell {
    /// The cell with row-major index `i` (0 to 80).
    #[inline]
    pub const fn new(i: usize) -> Option<Cell> {
        if i < 81 {
            Some(Cell(i as u8))
        } else {
            None
        }
    }

    /// The cell at zero-based `row` and `col` (each 0 to 8, taken modulo 9).
    #[inline]
    pub const fn from_row_col(row: usize, col: usize) -> Cell {
        Cell(((row % 9) * 9 + col % 9) as u8)
    }

    /// Row-major index, 0 to 80.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based row (0 = row 1).
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Zero-based column (0 = column A).
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// Zero-based block, numbered row-major (0 = top-left).
    #[inline]
    pub const fn block(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// The cell mirrored in the main diagonal.
    #[inline]
    pub const fn transpose(self) -> Cell {
        Cell::from_row_col(self.col(), self.row())
    }

    /// All cells, row-major.
    pub fn all() -> impl Iterator<Item = Cell> + Clone {
        (0..81u8).map(Cell)
    }

    /// The column letter, `A` to `I`.
    pub fn column_letter(self) -> char {
        (b'A' + self.col() as u8) as char
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for a cell name that is not a letter A–I followed by a digit 1–9.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad cell name {0:?}: expected a column letter A-I and a row digit 1-9, like G8")]
pub struct BadCellName(pub String);

impl FromStr for Cell {
    type Err = BadCellName;
    fn from_str(s: &str) -> Result<Cell, BadCellName> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(BadCellName(s.to_string()));
        }
        let col = b[0].to_ascii_uppercase();
        let row = b[1];
        if !(b'A'..=b'I').contains(&col) || !(b'1'..=b'9').contains(&row) {
            return Err(BadCellName(s.to_string()));
        }
        Ok(Cell::from_row_col(
            (row - b'1') as usize,
            (col - b'A') as usize,
        ))
    }
}

impl TryFrom<String> for Cell {
    type Error = BadCellName;
    fn try_from(s: String) -> Result<Self, BadCellName> {
        s.parse()
    }
}

impl From<Cell> for String {
    fn from(c: Cell) -> String {
        c.to_string()
    }
}

/// A set of cells as an 81-bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);

    /// All 81 cells.
    pub const ALL: CellSet = CellSet((1 << 81) - 1);

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.0 & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.0;
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.0);
    }

    /// Number of cells.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with the raw mask `bits` (callers keep it within 81 bits).
    #[inline]
    pub(crate) const fn from_raw(bits: u128) -> CellSet {
        CellSet(bits)
    }

    /// The raw 81-bit mask.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Removes and returns the lowest cell.
    #[inline]
    pub fn pop(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(i))
    }

    /// The cells in row-major order.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut s = self;
        std::iter::from_fn(move || s.pop())
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Calls `f` with each set bit of `x`, in increasing order, until it fails: the two 64-bit
/// halves one after the other (a 128-bit trailing-zero count and clear cost twice as much).
#[inline(always)]
pub(crate) fn each_bit(x: u128, mut f: impl FnMut(usize) -> Result<(), ()>) -> Result<(), ()> {
    let mut lo = x as u64;
    while lo != 0 {
        f(lo.trailing_zeros() as usize)?;
        lo &= lo - 1;
    }
    let mut hi = (x >> 64) as u64;
    while hi != 0 {
        f(64 + hi.trailing_zeros() as usize)?;
        hi &= hi - 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_spec() {
        let g8: Cell = "G8".parse().unwrap();
        assert_eq!(g8.col(), 6);
        assert_eq!(g8.row(), 7);
        assert_eq!(g8.block(), 8);
        assert_eq!(g8.index(), 7 * 9 + 6);
        assert_eq!(g8.to_string(), "G8");
        for c in Cell::all() {
            assert_eq!(c.to_string().parse::<Cell>().unwrap(), c);
        }
        assert!("J1".parse::<Cell>().is_err());
        assert!("A0".parse::<Cell>().is_err());
        assert!("A10".parse::<Cell>().is_err());
    }

    #[test]
    fn cell_set_basics() {
        let mut s = CellSet::EMPTY;
        s.insert(Cell::from_row_col(8, 8));
        s.insert(Cell::from_row_col(0, 0));
        assert_eq!(s.len(), 2);
        assert_eq!(
            s.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["A1", "I9"]
        );
    }
}
