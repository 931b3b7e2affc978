//! `KnownOpen`: branches known to be open in the current state of a pass, answered without
//! propagating (still counted as tests).
//!
//! Soundness: if a branch tested open and its final position `R` lies inside branch `b'` (every
//! cell of `b'` holds, in `R`, only values `b'` allows), then `b'` is open at the same depth: its
//! own position contains `R`, a fixpoint that is neither complete nor contradictory, and tests
//! are monotone. That holds at depth 1 always, and at every depth for candidate decisions (the
//! trial-and-error sweep); there a known-open hypothesis counts one test instead of the tests
//! its closure would make (a documented effort difference from the literal engine).

use crate::bits;
use crate::decision::Decision;
use crate::grid::{each_bit, Cell, CellSet, Grid};
use crate::statement::Statement;

/// Branches known to be open in the current state of a pass. If a branch tested open and its
/// final position `R` lies inside branch `b'` (every cell of `b'` has, in `R`, only values `b'`
/// allows), then `b'` is open too at the same depth: its own position contains `R`, and tests
/// are monotone (at depth 1 always; deeper only for candidate decisions).
///
/// For candidate decisions (`X: v` or `X: rest`) two unions per cell suffice: `X: v` is covered
/// when some `R` made `X` single `v`, `X: rest` when some `R` removed `v`. Pair decisions need
/// one `R` inside the whole branch, so per cell the distinct minimal masks of `R` are kept, at
/// most four (forgetting one only loses a skip). One buffer per nesting level is reused.
pub(super) struct KnownOpen {
    general: bool,
    any: bool,
    /// The cells of the pass's decisions still to be asked about (bit = row-major index).
    /// In two 64-bit halves: clearing one bit is cheaper than in a `u128`.
    watched: [u64; 2],
    /// Per cell, how many of the pass's decisions on it are still to be asked about.
    left: [u8; 81],
    single: [u16; 81],
    removed: [u16; 81],
    /// Per cell, up to four masks in the 16-bit lanes of a word; a free lane holds [`FREE`].
    masks: [u64; 81],
}

/// One in each 16-bit lane.
pub(super) const LANES: u64 = 0x0001_0001_0001_0001;
/// A free lane of [`KnownOpen::masks`]: bits outside every candidate mask, so it is inside no
/// mask and contains none.
pub(super) const FREE: u64 = 0xfe00 * LANES;

/// Bit 15 of every lane.
pub(super) const TOPS: u64 = 0x8000 * LANES;

/// Bit 15 of each lane of `x` that is not zero.
#[inline]
fn nonzero_lanes(x: u64) -> u64 {
    bits::nonzero_lanes::<16, u64>(x, LANES)
}

impl Default for KnownOpen {
    fn default() -> Self {
        KnownOpen {
            general: false,
            any: false,
            watched: [u64::MAX; 2],
            left: [0; 81],
            single: [0; 81],
            removed: [0; 81],
            masks: [FREE; 81],
        }
    }
}

impl KnownOpen {
    /// Forgets everything (a new pass, or a new state).
    pub(super) fn reset(&mut self, general: bool) {
        // Only the tables the last mode filled.
        if self.any && self.general {
            self.masks = [FREE; 81];
        } else if self.any {
            self.single = [0; 81];
            self.removed = [0; 81];
        }
        self.any = false;
        self.general = general;
    }

    /// Notes only the cells of `decisions` from now on, with pair decisions (a pass's, all still
    /// to be asked about), each until [`KnownOpen::asked`] has been told of its last one.
    pub(super) fn watch(&mut self, decisions: &[Decision]) {
        self.left = [0; 81];
        for d in decisions {
            // (`min`: no bounds check, cheaper than `% 81`; a cell's index is below 81.)
            self.left[d.cell.index().min(80)] += 1;
        }
        // The cells counted, eight at a time (the product's top byte gathers the top bits of
        // the eight bytes).
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let mut cells = u128::from(self.left[80] != 0) << 80;
        for (j, chunk) in self.left.chunks_exact(8).enumerate() {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            let x = u64::from_le_bytes(eight);
            let nonzero = (((x & !HIGH) + !HIGH) | x) & HIGH;
            cells |=
                u128::from((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
        }
        self.watched = [cells as u64, (cells >> 64) as u64];
    }

    /// One decision on `cell` will not be asked about again (both its branches were).
    #[inline]
    pub(super) fn asked(&mut self, cell: Cell) {
        let i = cell.index().min(80);
        self.left[i] -= 1;
        if self.left[i] == 0 {
            self.watched[i / 64] &= !(1 << (i % 64));
        }
    }

    pub(super) fn note(&mut self, state: &Grid, r: &Grid) {
        self.any = true;
        if !self.general {
            // Without branches: `r` lies inside `s`, so a solved or unchanged cell adds nothing.
            let cells = state.cells().iter().zip(r.cells());
            for ((single, removed), (s, r)) in
                self.single.iter_mut().zip(&mut self.removed).zip(cells)
            {
                let (s, r) = (s.bits(), r.bits());
                let open = s & s.wrapping_sub(1) != 0;
                let now_single = r & r.wrapping_sub(1) == 0;
                *single |= r & 0u16.wrapping_sub(u16::from(open & now_single));
                *removed |= s & !r;
            }
            return;
        }
        if self.watched == [0; 2] {
            return;
        }
        // Only watched cells that changed (decision cells are open in the state), compared one
        // by one (the watched cells are few). The four
        // masks of a cell are compared with `r` at once, without branches.
        let (rc, sc) = (r.cells(), state.cells());
        let watched = u128::from(self.watched[1]) << 64 | u128::from(self.watched[0]);
        let _ = each_bit(watched & CellSet::ALL.bits(), |i| {
            let i = i % 81;
            if rc[i] != sc[i] {
                self.keep(i, rc[i].bits());
            }
            Ok(())
        });
    }

    /// Keeps mask `r` (an open end's) of cell `i` among the minimal masks of the cell.
    #[inline(always)]
    pub(super) fn keep(&mut self, i: usize, r: u16) {
        let r = u64::from(r) * LANES;
        let kept = self.masks[i];
        // A kept mask inside `r` already covers everything `r` would.
        if nonzero_lanes(kept & !r) != TOPS {
            return;
        }
        // Free the masks that contain `r`; then keep `r` in the first free lane, if any.
        let other = (nonzero_lanes(r & !kept) >> 15) * 0xffff;
        let kept = (kept & other) | (FREE & !other);
        let free = !nonzero_lanes(kept ^ FREE) & TOPS;
        if free != 0 {
            let lane = 0xffff_u64 << (free.trailing_zeros() - 15);
            self.masks[i] = (kept & !lane) | (r & lane);
        } else {
            self.masks[i] = kept;
        }
    }

    /// Whether branch `b` (in the current `state`) is known to be open.
    #[inline]
    pub(super) fn covers(&self, state: &Grid, b: Statement) -> bool {
        if !self.any {
            return false;
        }
        let i = b.cell.index();
        if self.general {
            let values = u64::from(b.values.bits()) * LANES;
            return nonzero_lanes(self.masks[i] & !values) != TOPS;
        }
        let now = state.get(b.cell).bits();
        let values = b.values.bits() & now;
        let outside = now & !values;
        (values.count_ones() == 1 && self.single[i] & values != 0)
            || (outside.count_ones() == 1 && self.removed[i] & outside != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Candidates, Cell};

    /// policy: a mask inside a kept one's is not kept; kept masks containing a new one go; at
    /// most four are kept. Random notes and questions on a few cells.
    #[test]
    fn known_open_masks_behave_as_a_list_of_minimal_masks() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next();
        let state = Grid::empty();
        let (mut asked, mut covered) = (0, 0);
        for _ in 0..200 {
            let mut known = KnownOpen::default();
            known.reset(true);
            let mut plain: Vec<Vec<u16>> = vec![Vec::new(); 81];
            for _ in 0..40 {
                let cell = Cell::new(next() as usize % 4).unwrap();
                let r = (next() as u16 & next() as u16 & 0x1ff) | 1 << (next() % 9);
                let mut end = state;
                end.set(cell, Candidates::from_bits(r));
                known.note(&state, &end);
                let kept = &mut plain[cell.index()];
                if !kept.iter().any(|m| m & !r == 0) {
                    kept.retain(|m| r & !m != 0);
                    if kept.len() < 4 {
                        kept.push(r);
                    }
                }
                // A question about a random branch of a random cell.
                let cell = Cell::new(next() as usize % 4).unwrap();
                let values = Candidates::from_bits(next() as u16 & 0x1ff);
                let want = plain[cell.index()].iter().any(|m| m & !values.bits() == 0);
                let b = Statement { cell, values };
                assert_eq!(known.covers(&state, b), want, "{b}");
                asked += 1;
                covered += usize::from(want);
            }
        }
        assert!(
            covered > 500 && asked - covered > 500,
            "{covered} of {asked}"
        );
    }
}
