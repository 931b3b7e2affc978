//! The candidate grid: digits, cells, candidate sets, cell sets and the 81-cell state (spec §1).
//!
//! A [`Grid`] holds, for every cell, the set of values it may still take. A given or a derived
//! value is a cell with one candidate; an HDP state is simply a grid. The grid is a small `Copy`
//! value (81 × `u16` = 162 bytes), so the engine copies it for every branch test and never
//! allocates.

mod candidates;
mod cell;
mod units;

pub use candidates::{Candidates, Digit};
pub(crate) use cell::each_bit;
pub use cell::{Cell, CellSet};
pub use units::{Unit, UnitKind};
pub(crate) use units::{PEER_SETS, UNIT_SETS};

use std::fmt;

/// A Sudoku state: the candidate values of each of the 81 cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [Candidates; 81],
}

impl Default for Grid {
    fn default() -> Self {
        Self::empty()
    }
}

/// The candidates of the cells of `a` that are not among those of the same cells of `b`, all
/// together (branch-free; the compiler vectorizes it).
#[inline(always)]
fn outside(a: &[Candidates], b: &[Candidates]) -> u16 {
    a.iter()
        .zip(b)
        .fold(0, |acc, (c, o)| acc | (c.bits() & !o.bits()))
}

impl Grid {
    /// The grid with no givens: every cell may hold every value.
    pub const fn empty() -> Self {
        Grid {
            cells: [Candidates::ALL; 81],
        }
    }

    /// Builds a grid from 81 optional values (row-major); `None` is an empty cell.
    pub fn from_values(values: &[Option<Digit>; 81]) -> Self {
        let mut grid = Grid::empty();
        for cell in Cell::all() {
            if let Some(d) = values[cell.index()] {
                grid.cells[cell.index()] = Candidates::single(d);
            }
        }
        grid
    }

    /// The candidates of `cell`.
    #[inline]
    pub fn get(&self, cell: Cell) -> Candidates {
        self.cells[cell.index()]
    }

    /// Replaces the candidates of `cell`.
    #[inline]
    pub fn set(&mut self, cell: Cell, candidates: Candidates) {
        self.cells[cell.index()] = candidates;
    }

    /// Restricts `cell` to the values of `allowed` (intersection); returns whether it changed.
    #[inline]
    pub fn restrict(&mut self, cell: Cell, allowed: Candidates) -> bool {
        let old = self.cells[cell.index()];
        let new = old & allowed;
        self.cells[cell.index()] = new;
        new != old
    }

    /// All 81 candidate sets, in place (for propagation).
    #[inline]
    pub(crate) fn cells_mut(&mut self) -> &mut [Candidates; 81] {
        &mut self.cells
    }

    /// Restricts every cell to its values in `other` (the cell-wise intersection). Returns the
    /// cells that changed and, among them, those left empty.
    #[inline]
    pub fn intersect(&mut self, other: &Grid) -> (CellSet, CellSet) {
        let mine = *self;
        self.set_intersection(&mine, other)
    }

    /// Sets `self` to the cell-wise intersection of `a` and `b`, in one branch-free pass that
    /// the compiler vectorizes. Returns the cells where it differs from `a` and, among them,
    /// those left empty.
    #[inline]
    pub fn set_intersection(&mut self, a: &Grid, b: &Grid) -> (CellSet, CellSet) {
        let (mut changed, mut empty) = ([0u8; 88], [0u8; 88]);
        for (i, (out, (a, b))) in self
            .cells
            .iter_mut()
            .zip(a.cells.iter().zip(&b.cells))
            .enumerate()
        {
            let old = a.bits();
            let new = old & b.bits();
            *out = Candidates::from_bits(new);
            changed[i] = u8::from(new != old);
            empty[i] = u8::from(new == 0);
        }
        let changed = gather_bytes(&changed);
        (
            CellSet::from_raw(changed),
            CellSet::from_raw(changed & gather_bytes(&empty)),
        )
    }

    /// The cells whose candidates differ from those in `other`.
    #[inline]
    pub fn differing(&self, other: &Grid) -> CellSet {
        CellSet::from_raw(differing_masks(&self.cells, &other.cells))
    }

    /// All 81 candidate sets, row-major.
    #[inline]
    pub fn cells(&self) -> &[Candidates; 81] {
        &self.cells
    }

    /// The cells holding each value (entry `d`: the cells with value `d + 1` among their
    /// candidates), so that the cells of a unit holding a value are one mask operation away.
    #[inline]
    pub(crate) fn value_cells(&self) -> [u128; 9] {
        // Eight cells at a time, read as two words of four: their low bytes as an 8x8 bit
        // matrix, transposed in three swaps (byte `d` then holds the eight cells' bits of value
        // `d + 1`), and their bits of value 9 gathered by products.
        let word = |c: &[Candidates]| {
            c.iter()
                .take(4)
                .enumerate()
                .fold(0u64, |w, (k, c)| w | u64::from(c.bits()) << (16 * k))
        };
        let low4 = |w: u64| {
            let x = w & 0x00ff_00ff_00ff_00ff;
            let x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
            (x | x >> 16) & 0xffff_ffff
        };
        // Bits 8, 24, 40, 56 to bits 60..63 (no other products meet there).
        let high4 = |w: u64| {
            (w >> 8 & 0x0001_0001_0001_0001).wrapping_mul(1 << 60 | 1 << 45 | 1 << 30 | 1 << 15)
                >> 60
        };
        let mut bytes = [[0u8; 16]; 9];
        for (g, eight) in self.cells.chunks_exact(8).enumerate() {
            let (w0, w1) = (word(&eight[..4]), word(&eight[4..]));
            let low = transpose8(low4(w0) | low4(w1) << 32);
            for (d, b) in bytes.iter_mut().take(8).enumerate() {
                b[g % 16] = (low >> (8 * d)) as u8;
            }
            bytes[8][g % 16] = (high4(w0) | high4(w1) << 4) as u8;
        }
        // The last cell, alone.
        let last = self.cells[80].bits();
        for (d, b) in bytes.iter_mut().enumerate() {
            b[10] = (last >> d & 1) as u8;
        }
        bytes.map(u128::from_le_bytes)
    }

    /// The value of `cell` when it has exactly one candidate.
    #[inline]
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        self.get(cell).single_value()
    }

    /// The number of cells with exactly one candidate.
    pub fn solved_count(&self) -> usize {
        self.cells.iter().filter(|c| c.len() == 1).count()
    }

    /// The number of two-valued cells ("pairs", spec §5).
    pub fn pair_count(&self) -> usize {
        // Two values: one left once the lowest is cleared. Without popcounts or branches, so
        // that it vectorizes (the engine counts pairs after every open branch test).
        self.cells
            .iter()
            .map(|c| {
                let m = c.bits();
                let rest = m & m.wrapping_sub(1);
                usize::from(rest != 0 && rest & rest.wrapping_sub(1) == 0)
            })
            .sum()
    }

    /// Whether every cell's candidates are among those of the same cell in `other` (this
    /// position lies inside `other`).
    #[inline]
    pub(crate) fn within(&self, other: &Grid) -> bool {
        // All 81 cells at once, without branches: most positions asked about lie inside.
        outside(&self.cells, &other.cells) == 0
    }

    /// The first cell (row-major index) with a candidate not among those of the same cell in
    /// `other`, if any (`None`: this position lies inside `other`).
    pub(crate) fn first_outside(&self, other: &Grid) -> Option<usize> {
        // Sixteen cells at a time (without branches inside), stopping at the first sixteen where
        // some cell is not; then the cell inside the sixteen.
        let (a, b) = (&self.cells, &other.cells);
        (0..81).step_by(16).find_map(|from| {
            let to = (from + 16).min(81);
            (outside(&a[from..to], &b[from..to]) != 0).then(|| {
                from + a[from..to]
                    .iter()
                    .zip(&b[from..to])
                    .position(|(c, o)| c.bits() & !o.bits() != 0)
                    // Never taken: some cell of the sixteen is outside.
                    .unwrap_or(0)
            })
        })
    }

    /// Whether every cell has exactly one candidate (not whether those values are consistent).
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|c| c.len() == 1)
    }

    /// Whether some cell has no candidate left.
    pub fn has_empty_cell(&self) -> bool {
        self.cells.iter().any(|c| c.is_empty())
    }

    /// Whether every cell is a single value and every unit holds each digit once.
    pub fn is_valid_solution(&self) -> bool {
        self.is_complete()
            && Unit::all().all(|u| {
                u.cells()
                    .iter()
                    .fold(Candidates::NONE, |acc, &c| acc | self.get(c))
                    == Candidates::ALL
            })
    }

    /// Whether this grid is compatible with `other`: every cell of `other` (typically a solution)
    /// still has its candidates among ours.
    pub fn admits(&self, other: &Grid) -> bool {
        Cell::all().all(|c| other.get(c).is_subset_of(self.get(c)))
    }

    /// Exchanges digits: `map[d-1]` is the new name of digit `d` (spec §7.3).
    pub fn relabel(&self, map: &[Digit; 9]) -> Grid {
        let mut out = *self;
        for cell in Cell::all() {
            out.cells[cell.index()] = self.get(cell).relabel(map);
        }
        out
    }

    /// Mirrors the grid in its main diagonal (rows become columns).
    pub fn transpose(&self) -> Grid {
        let mut out = *self;
        for cell in Cell::all() {
            out.cells[cell.transpose().index()] = self.get(cell);
        }
        out
    }

    /// The 81-character line: the value of every single-valued cell, `.` for the others.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c.single_value() {
                Some(d) => d.to_char(),
                None => '.',
            })
            .collect()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

impl std::ops::Index<Cell> for Grid {
    type Output = Candidates;
    fn index(&self, cell: Cell) -> &Candidates {
        &self.cells[cell.index()]
    }
}

impl std::ops::IndexMut<Cell> for Grid {
    fn index_mut(&mut self, cell: Cell) -> &mut Candidates {
        &mut self.cells[cell.index()]
    }
}

/// The transpose of an 8×8 bit matrix whose rows are the bytes of `x` (bit `c` of byte `r`
/// becomes bit `r` of byte `c`), in three swaps.
#[inline(always)]
pub(crate) fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The cells (bits of a [`CellSet`]) where `a` and `b` differ, in one branch-free pass that the
/// compiler vectorizes (for candidate sets or raw masks).
#[inline]
pub(crate) fn differing_masks<T: PartialEq>(a: &[T; 81], b: &[T; 81]) -> u128 {
    let mut differ = [0u8; 88];
    for (d, (a, b)) in differ.iter_mut().zip(a.iter().zip(b)) {
        *d = u8::from(a != b);
    }
    gather_bytes(&differ)
}

/// Bit `i` set when byte `i` is 1, for bytes that are 0 or 1 (the last 7 are padding, 0).
#[inline(always)]
fn gather_bytes(bytes: &[u8; 88]) -> u128 {
    // Eight bytes at a time: the product's top byte collects bit 0 of byte `k` at bit `56 + k`
    // (its terms land on distinct bits, so nothing carries).
    let mut out = 0u128;
    for (j, chunk) in bytes.chunks_exact(8).enumerate() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(chunk);
        let bits = u64::from_le_bytes(eight).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        out |= u128::from(bits) << (8 * j);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_grid_has_no_pairs_and_no_values() {
        let g = Grid::empty();
        assert_eq!(g.solved_count(), 0);
        assert_eq!(g.pair_count(), 0);
        assert!(!g.is_complete());
        assert_eq!(g.to_line(), ".".repeat(81));
    }

    /// Random grids (each cell a random mask, sometimes empty or single).
    fn random_grids(n: usize) -> Vec<Grid> {
        let mut rng = crate::testing::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next();
        (0..n)
            .map(|_| {
                let mut g = Grid::empty();
                for c in g.cells.iter_mut() {
                    let r = next();
                    // Mostly few values, as in real positions.
                    let m = (r & 0x1ff) as u16 & (r >> 9) as u16 & (r >> 18) as u16;
                    *c = Candidates::from_bits(if r >> 40 & 3 == 0 { r as u16 >> 3 } else { m });
                }
                g
            })
            .collect()
    }

    #[test]
    fn pair_count_and_intersect_agree_with_their_definitions() {
        let grids = random_grids(400);
        for (a, b) in grids.iter().zip(grids.iter().skip(1)) {
            let pairs = a.cells.iter().filter(|c| c.len() == 2).count();
            assert_eq!(a.pair_count(), pairs);
            let inside = |x: &Grid, y: &Grid| Cell::all().all(|c| x.get(c).is_subset_of(y.get(c)));
            assert_eq!(a.within(b), inside(a, b));
            let first = Cell::all().position(|c| !a.get(c).is_subset_of(b.get(c)));
            assert_eq!(a.first_outside(b), first);
            let mut meet = *a;
            meet.intersect(b);
            assert!(meet.within(a) && meet.within(b));
            assert_eq!(a.within(&meet), inside(a, &meet));
            let mut got = *a;
            let (changed, emptied) = got.intersect(b);
            let mut set = Grid::empty();
            assert_eq!(set.set_intersection(a, b), (changed, emptied));
            assert_eq!(set, got);
            let masks = |g: &Grid| g.cells.map(Candidates::bits);
            assert_eq!(differing_masks(&masks(a), &masks(b)), a.differing(b).bits());
            let values = a.value_cells();
            for cell in Cell::all() {
                for (d, v) in values.iter().enumerate() {
                    let holds = a.get(cell).bits() >> d & 1 == 1;
                    assert_eq!(v >> cell.index() & 1 == 1, holds, "{cell} {d}");
                }
                let differing = a.differing(b);
                let (old, new) = (a.get(cell), a.get(cell) & b.get(cell));
                assert_eq!(differing.contains(cell), old != b.get(cell), "{cell}");
                assert_eq!(got.get(cell), new, "{cell}");
                assert_eq!(changed.contains(cell), new != old, "{cell}");
                assert_eq!(
                    emptied.contains(cell),
                    new != old && new.is_empty(),
                    "{cell}"
                );
            }
        }
    }

    #[test]
    fn transpose_twice_is_identity() {
        let mut g = Grid::empty();
        let c = Cell::from_row_col(2, 7);
        g.set(c, Candidates::single(Digit::new(4).unwrap()));
        let t = g.transpose();
        assert_eq!(t.value(Cell::from_row_col(7, 2)), Digit::new(4));
        assert_eq!(t.transpose(), g);
    }
}
