//! A branch of a decision ([`Side`]), and the keys and hashes shared by the engine's caches: a
//! branch as a small integer, a grid's fingerprint, and the hasher for such keys.

use crate::decision::Decision;
use crate::grid::{Candidates, Grid};
use crate::statement::Statement;
use crate::tree::EdgeKind;
use std::hash::Hasher;

/// One branch of a decision: the decision and which of its two branches (0 the first).
#[derive(Clone, Copy)]
pub(super) struct Side<'d> {
    /// The decision.
    pub(super) decision: &'d Decision,
    /// Which branch.
    pub(super) which: usize,
}

impl Side<'_> {
    /// The branch's statement.
    pub(super) fn branch(self) -> Statement {
        self.decision.branch(self.which)
    }

    /// The other branch's statement.
    pub(super) fn other(self) -> Statement {
        self.decision.branch(1 - self.which)
    }

    /// The branch's edge in the tree.
    pub(super) fn edge(self) -> EdgeKind {
        [EdgeKind::First, EdgeKind::Second][self.which % 2]
    }
}

/// A branch as a restriction that means the same in every smaller state: branch 2 is
/// "not `first`".
#[inline]
pub(super) fn branch_key(d: &Decision, which: usize) -> u32 {
    d.cell.index() as u32 | u32::from(d.first.bits()) << 7 | (which as u32) << 16
}

/// A hash of `g`'s cells, started from `seed`: four cells a step, as one word.
pub(super) fn fingerprint(g: &Grid, seed: u64) -> u64 {
    let mix = |a: u64, x: u64| (a.rotate_left(7) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let word = |cells: &[Candidates]| {
        (cells.iter().enumerate()).fold(0, |x, (k, c)| x | u64::from(c.bits()) << (16 * k))
    };
    let cells = g.cells().chunks_exact(4);
    let last = word(cells.remainder());
    mix(cells.fold(seed, |a, four| mix(a, word(four))), last)
}

/// A hasher for the small integer keys of [`Reuse`].
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ n >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}
