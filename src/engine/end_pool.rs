//! `EndPool`: open depth-1 end positions found under the passes at `j >= 2` under way, which
//! answer branches of the closures inside them as known-open.
//!
//! Soundness: every closure inside a pass at state `Y` works on a state inside `Y`, and so does
//! every end found in it. An open, incomplete end `E` is a fixpoint of propagation, so a branch
//! `b` whose position `Z ∧ b` contains `E` propagates to a position that contains `E` too: no
//! contradiction, not complete, open. A branch answered so is still counted as a test. A pass's
//! entries are dropped when it ends.
//!
//! ```text
//!   ends: [ pass 1 ends | pass 2 ends | pass 3 ends ]   starts: [0, s2, s3]
//!                                      ▲ innermost: find_inside(Z) keeps those within Z
//! ```

use super::spares::{Spare, Spares};
use crate::grid::Grid;
use crate::statement::Statement;

/// Open end positions of depth-1 tests, kept while the passes at `j >= 2` that they were found
/// under run. Every closure inside such a pass works on a state inside the pass's state `Y`, and
/// so does every end found in it. An open, incomplete end `E` is a fixpoint of propagation, so
/// a branch `b` whose position `Z ∧ b` contains `E` propagates to a position that contains `E`
/// too: no contradiction, not complete, open. [`EndPool::find_inside`] finds for a pass at `Z`
/// the ends that lie inside `Z` (found in earlier hypotheses of the enclosing pass, or in
/// earlier passes of this closure), which answer its branches besides its [`KnownOpen`] notes
/// ([`EndPool::covers`]); a branch they answer is still counted as a test.
///
/// One buffer with a start per pass under way: a pass's entries are those from its start on,
/// dropped when it ends.
#[derive(Default)]
pub(super) struct EndPool {
    ends: Vec<Grid>,
    starts: Vec<usize>,
}

/// The places of the end pool's ends inside a closure's state, for its depth-1 passes. Asked
/// about cell by cell instead of noted in [`KnownOpen`]: most of their cells are never asked
/// about, and none is forgotten. While the closure runs, the innermost pass of the pool is the
/// one its hypothesis belongs to, which only gains ends; and the closure's state only shrinks,
/// so an end outside it once stays outside: a later pass checks only the ends found inside
/// before and those added since.
#[derive(Default)]
pub(super) struct Inside {
    places: Vec<u32>,
    /// The pool's length when last looked at (0: never).
    seen: usize,
}

impl Inside {
    /// A new closure.
    pub(super) fn clear(&mut self) {
        self.places.clear();
        self.seen = 0;
    }
}

/// At most this many ends are kept per pass under way (a bound per pass, not on the whole pool,
/// so that the outermost pass cannot leave no room for the passes inside it).
pub(super) const POOL_LIMIT: usize = 1 << 10;

impl Spare for EndPool {
    fn slot(spares: &mut Spares) -> &mut EndPool {
        &mut spares.pool
    }

    /// All entries and starts (an aborted analysis may leave passes open).
    fn clear(&mut self) {
        self.ends.clear();
        self.starts.clear();
    }
}

impl EndPool {
    /// A pass at `j >= 2` starts.
    pub(super) fn open(&mut self) {
        self.starts.push(self.ends.len());
    }

    /// The pass ends: its entries go.
    pub(super) fn close(&mut self) {
        let start = self.starts.pop().unwrap_or(0);
        self.ends.truncate(start);
    }

    /// Keeps `end`, the open end of a depth-1 test, if a pass is under way and has room.
    pub(super) fn add(&mut self, end: &Grid) {
        let Some(&start) = self.starts.last() else {
            return;
        };
        if self.ends.len() - start >= POOL_LIMIT {
            return;
        }
        if !end.is_complete() {
            self.ends.push(*end);
        }
    }

    /// Updates `inside`, a closure's ends inside its `state`, for a depth-1 pass: the ends of
    /// the innermost pass under way that lie inside `state`.
    pub(super) fn find_inside(&self, state: &Grid, inside: &mut Inside) {
        let Some(&start) = self.starts.last() else {
            return;
        };
        let from = inside.seen.max(start);
        inside.seen = self.ends.len();
        if inside.places.is_empty() && from == self.ends.len() {
            return;
        }
        inside
            .places
            .retain(|&k| self.ends[k as usize].within(state));
        // A cell where the last end found outside `state` is: most others are outside there too.
        // And another where the one before was (both cell 0 until two are found).
        let mut probes = [(0, !state.cells()[0].bits()); 2];
        for (k, e) in (from as u32..).zip(&self.ends[from..]) {
            if probes
                .iter()
                .any(|&(p, outside)| e.cells()[p].bits() & outside != 0)
            {
                continue;
            }
            // Most ends that pass the probes are inside: all cells at once, then which is not.
            if e.within(state) {
                inside.places.push(k);
            } else if let Some(i) = e.first_outside(state) {
                probes = [(i, !state.cells()[i].bits()), probes[0]];
            }
        }
    }

    /// Whether one of the ends at `inside` (a closure's, inside its state) lies inside branch
    /// `b` (so `b` is open). The end found is moved to the front: an end that answers one branch
    /// often answers the next ones (the order of `inside` changes no answer).
    #[inline]
    pub(super) fn covers(&self, inside: &mut Inside, b: Statement) -> bool {
        let (i, outside) = (b.cell.index(), !b.values.bits());
        let found = inside
            .places
            .iter()
            .position(|&k| self.ends[k as usize].cells()[i].bits() & outside == 0);
        match found {
            Some(p) => {
                inside.places.swap(0, p);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Candidates, Cell};
    use crate::testing::XorShift;

    /// A random restriction of `g`: a few cells lose a random part of their values (never all).
    fn shrunk(g: &Grid, rng: &mut XorShift, cells: usize) -> Grid {
        let mut out = *g;
        for _ in 0..cells {
            let cell = Cell::new(rng.below(81)).unwrap();
            let now = out.get(cell).bits();
            let keep = now & (rng.below(512) as u16 | now & now.wrapping_neg());
            out.set(cell, Candidates::from_bits(keep));
        }
        out
    }

    /// While a closure's state shrinks and the innermost pass gains ends, with passes inside it
    /// opening and closing, the places `find_inside` keeps are exactly the ends of the
    /// innermost pass that lie inside the state.
    #[test]
    fn the_pool_keeps_exactly_the_ends_inside_a_shrinking_state() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let (mut pool, mut inside) = (EndPool::default(), Inside::default());
            let outer = Grid::empty();
            pool.open();
            for _ in 0..rng.below(5) {
                pool.add(&shrunk(&outer, &mut rng, 3));
            }
            // The closure's pass: its ends, then its state, which only shrinks.
            pool.open();
            let mut state = shrunk(&outer, &mut rng, 2);
            for _ in 0..6 {
                for _ in 0..rng.below(8) {
                    // Some ends inside the state, some not.
                    let base = if rng.below(2) == 0 { state } else { outer };
                    pool.add(&shrunk(&base, &mut rng, 4));
                }
                pool.find_inside(&state, &mut inside);
                let start = *pool.starts.last().unwrap();
                let want: Vec<u32> = (start..pool.ends.len())
                    .filter(|&k| pool.ends[k].within(&state))
                    .map(|k| k as u32)
                    .collect();
                let mut got = inside.places.clone();
                got.sort_unstable();
                assert_eq!(got, want);
                // A pass inside the closure comes and goes; the state shrinks.
                pool.open();
                for _ in 0..rng.below(4) {
                    pool.add(&shrunk(&state, &mut rng, 2));
                }
                pool.close();
                state = shrunk(&state, &mut rng, 2);
            }
        }
    }
}
