//! Propagation on value boards, for callers that read neither rule counts nor contradiction
//! reasons nor the position a contradiction left (the unrecorded engine's branch tests), with
//! any profile that has both singles.
//!
//! Same rules and the same fixpoint as [`super::propagate_changed`], found with less work. Next
//! to the grid's cell masks, the search keeps one 81-bit board per value (the cells that may
//! still take it), per value its number of places in each unit (a nibble each, see [`Counts`])
//! and a board of the solved cells, taken from a [`Bases`] cache of the position the branch
//! restricts (the pass's state, an open fixpoint) and corrected on the few cells where the grid
//! differs from it. Then every step is driven by what changed:
//!
//! * a naked single's value leaves exactly the peers its board shows (no scan of 20 peers);
//! * a value that lost places is checked in all 27 units at once, once the naked singles are
//!   done, by a few operations on its counts: no place left in a unit is a contradiction, one
//!   place in an unsolved cell is a hidden single. Units where the value is placed are marked
//!   in the counts and pass;
//! * no duplicate check: two equal singles in a unit cannot both survive, the first one's value
//!   empties the other when it leaves its peers;
//! * locked candidates look, for each value, only at the bands and stacks where a segment (a
//!   block's part of a row or column) lost its last place since their last look: one table
//!   look-up per band gives every pointing and claiming elimination in it (see [`LOCKED`]);
//! * subsets run as in [`super::propagate_changed_eager`] on the units of the cells changed since
//!   their last look, and what they remove leaves the boards.
//!
//! The rules run in that order, cheapest first, each back to the singles after a change; the
//! fixpoint does not depend on the order.
//!
//! Three starts: [`run`] from the pass's state; [`run_from_end`] from an earlier open end of the
//! same branch (its boards corrected from the state's), when the grid differs from that end in
//! few cells; [`run_meet`] from the state, for a grid that is the state intersected with such an
//! end, the subset rules looking first only at the units where both lost something (the others
//! are as in one of two fixpoints).
//!
//! The boards and counts, per value `d` (index `d`, for value `d + 1`):
//!
//! ```text
//! boards[d]: u128, one bit per cell, row by row; bit i set when cell i may take d + 1
//!   bit   0  1  2 ..  8 |  9 10 .. 17 | .. | 72 .. 80 | 81 .. 127
//!   cell  A1 B1 C1 .. I1 | A2 B2 .. I2 | .. | A9 .. I9 | always zero
//!
//! counts[d]: u128, one 4-bit nibble per unit; nibble u is bits 4u .. 4u + 3
//!   nibble  0 .. 8             9 .. 17          18 .. 26            27 .. 31
//!   unit    blocks, row-major  rows 1 .. 9      columns A .. I      always zero
//!   value   the cells of the unit that may take d + 1 (0 .. 9); in a search, 8 is added
//!           where d + 1 is placed in the unit (bit 3 set: the unit passes every check)
//!
//! solved: u128, laid out as a board; bit i set when cell i has one value left
//! ```
//!
//! [`leave`] and [`enter`] keep a board and its counts in step when one value leaves or enters
//! one cell; indices 9 .. 15 of both arrays are padding and stay zero.

use super::{subsets, Cells, Contradiction, Outcome, Profile, Rule, State, Stats, CELL_UNITS};
use crate::bits::{nonzero_lanes, once_and_twice, ones, pop_lowest};
use crate::grid::{differing_masks, each_bit, Cell, CellSet, Grid};

// The 81-bit board of each unit (blocks, rows, columns), and of each cell's 20 peers.
use crate::grid::{PEER_SETS as PEER_BITS, UNIT_SETS as UNIT_BITS};

/// [`UNIT_BITS`] padded to 32 units (the last five empty): a unit index taken from the bits of
/// a `u32` needs no bounds check.
static UNIT_BITS32: [u128; 32] = {
    let mut out = [0u128; 32];
    let mut u = 0;
    while u < 27 {
        out[u] = UNIT_BITS[u];
        u += 1;
    }
    out
};

/// Bit `i` of a board, from a table (cheaper than shifting a `u128` by a variable).
#[inline(always)]
fn bit(i: usize) -> u128 {
    CELL_BITS[i % 128]
}

/// `CELL_BITS[i] == 1 << i`, for [`bit`].
static CELL_BITS: [u128; 128] = {
    let mut out = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        out[i] = 1 << i;
        i += 1;
    }
    out
};

/// The value boards of a position: bit `i` of board `d` when cell `i` may take value `d + 1`;
/// padded to 16 boards (the last seven empty): a value index taken from the trailing zeros of a
/// 9-bit set needs no bounds check (`% 16` is one AND).
type Boards = [u128; 16];

/// Per value, its number of places in each unit, one nibble a unit (nibble `u` for unit `u`,
/// as in [`UNIT_BITS`]): a unit check is a few operations on all 27 at once. In a search, bit
/// 3 of a nibble also marks a unit where the value is placed (count 1, then 9): it passes every
/// check, and losing its place empties a cell (found there). Padded as [`Boards`].
type Counts = [u128; 16];

/// `ONE_PER_UNIT[i]`: one in the nibble of each of cell `i`'s three units (the count a value
/// loses there when it leaves the cell); padded to 128 cells, as [`CELL_BITS`].
static ONE_PER_UNIT: [u128; 128] = {
    let mut out = [0u128; 128];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        out[i] = 1 << (4 * ((r / 3) * 3 + c / 3)) | 1 << (4 * (9 + r)) | 1 << (4 * (18 + c));
        i += 1;
    }
    out
};

/// [`ONE_PER_UNIT`] as marks (bit 3 of each nibble): the units where a naked single places its
/// value. Shifted from [`ONE_PER_UNIT`] rather than read from a table of its own, which would
/// crowd the L1 cache.
#[inline(always)]
fn marks(i: usize) -> u128 {
    ONE_PER_UNIT[i % 128] << 3
}

/// The units of `counts` (one value's) with at most one place that are not marked as placed,
/// as bit `4u + 4` for unit `u` (shifted right once, their marks). With bit 0 of each nibble
/// cleared, adding 14 to every nibble carries out of exactly those with two or more (a carry in
/// leaves the next nibble's carry as it was: it is even), into the next nibble's bit 0.
#[inline(always)]
fn alone(counts: u128) -> u128 {
    const HIGH: u128 = 0xEEEE_EEEE_EEEE_EEEE_EEEE_EEEE_EEEE_EEEE;
    /// Bit `4u + 4` for the 27 units.
    const UNITS: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111 & ((1 << 109) - 1) & !1;
    !((counts & HIGH) + HIGH) & UNITS
}

/// The values' entries of `from` (the first nine), the padding zero: copied inline, where a
/// copy of the whole array calls `memcpy` (three per search).
#[inline(always)]
fn values_of(from: &Boards) -> Boards {
    let mut out = [0; 16];
    out[..8].copy_from_slice(&from[..8]);
    out[8] = from[8];
    out
}

/// The cells with exactly one value, from the boards.
fn solved_of(boards: &Boards) -> u128 {
    once_and_twice(boards[..9].iter().copied()).once()
}

/// Value `d` leaves cell `i` on the boards: its board loses the cell, and its count in each of
/// the cell's three units one place.
#[inline(always)]
fn leave(boards: &mut Boards, counts: &mut Counts, d: usize, i: usize) {
    boards[d % 16] &= !bit(i);
    counts[d % 16] -= ONE_PER_UNIT[i % 128];
}

/// Value `d` enters cell `i` on the boards: the reverse of [`leave`].
#[inline(always)]
fn enter(boards: &mut Boards, counts: &mut Counts, d: usize, i: usize) {
    boards[d % 16] |= bit(i);
    counts[d % 16] += ONE_PER_UNIT[i % 128];
}

/// Corrects `boards` and `counts` (unmarked), those of `from`, into those of `to`.
fn correct(boards: &mut Boards, counts: &mut Counts, from: &[u16; 81], to: &[u16; 81]) {
    let _ = each_bit(differing_masks(to, from), |i| {
        for d in ones(to[i] & !from[i]) {
            enter(boards, counts, d, i);
        }
        for d in ones(from[i] & !to[i]) {
            leave(boards, counts, d, i);
        }
        Ok(())
    });
}

/// The value boards, unit counts and solved cells of one position.
#[derive(Clone, Copy)]
struct Base {
    boards: Boards,
    /// Unmarked, as [`correct`] keeps them.
    counts: Counts,
    /// As a search starts from: a unit with one place (in a fixpoint, where the value is placed)
    /// marked.
    marked: Counts,
    solved: u128,
    /// The boards' segments, as locked candidates first look at them ([`segments_of`]).
    rows: Boards,
    columns: Columns,
}

/// The value boards, unit counts and solved cells of the last position branches were tested
/// from (the pass's state), so that a test only corrects the cells its start differs in. A new
/// position's are corrected from the last one's (the state a fact restricted, usually), in
/// place. One position only: keeping one per nesting level of a search saved some corrections
/// but cost more in cache misses than they did.
pub(crate) struct Bases {
    grid: [u16; 81],
    base: Base,
}

impl Default for Bases {
    fn default() -> Self {
        // The empty grid's (all zero), which the first position is corrected from.
        Bases {
            grid: [0; 81],
            base: Base {
                boards: [0; 16],
                counts: [0; 16],
                marked: [0; 16],
                solved: 0,
                rows: [0; 16],
                columns: [0; 16],
            },
        }
    }
}

impl Bases {
    /// The boards, counts and solved cells of `base` (an open fixpoint), computed now unless
    /// kept.
    fn get(&mut self, base: &[u16; 81]) -> &Base {
        if self.grid != *base {
            let b = &mut self.base;
            correct(&mut b.boards, &mut b.counts, &self.grid, base);
            // `counts` (a fixpoint's, where a unit with one place is one where the value is
            // placed) with those units marked, as a search starts from; the values' entries
            // only (the padding stays zero).
            for d in 0..9 {
                b.marked[d] = b.counts[d] | alone(b.counts[d]) >> 1;
                (b.rows[d], b.columns[d]) = segments_of(b.boards[d]);
            }
            b.solved = solved_of(&b.boards);
            self.grid = *base;
        }
        &self.base
    }
}

fn masks(grid: &Grid) -> [u16; 81] {
    let mut out = [0u16; 81];
    for (o, c) in out.iter_mut().zip(grid.cells()) {
        *o = c.bits();
    }
    out
}

/// Propagates `cells` to the fixpoint of `profile`: `cells` lies inside `base` (cell by cell),
/// an open fixpoint of `profile` whose boards and counts `bases` keeps or computes. Only the
/// cells where the two differ start the work: their lost values are checked, and those that
/// became single are new singles. In `base` each value has two places in a unit or is placed,
/// and every other single's value has left its peers. A
/// contradiction's reason is a placeholder (a cell where the two differ has no value), and the
/// cells are left part-way.
pub(super) fn run(
    cells: &mut Cells<'_>,
    base: &Grid,
    bases: &mut Bases,
    profile: &Profile,
) -> Outcome {
    from_base(cells, base, None, bases, profile)
}

/// As [`run`], for `cells` equal to the intersection of `base` and `end`, another open fixpoint
/// (a branch's earlier end, from a larger state), which differs from `cells` in `other`. A
/// subset can only appear in a unit where both lost something: the subset rules look first
/// only there (the others are as in one of two fixpoints).
pub(super) fn run_meet(
    cells: &mut Cells<'_>,
    other: u128,
    base: &Grid,
    bases: &mut Bases,
    profile: &Profile,
) -> Outcome {
    if !profile.has_subsets() {
        return run(cells, base, bases, profile);
    }
    let mut touched = 0u32;
    let _ = each_bit(other, |i| {
        touched |= CELL_UNITS[i];
        Ok(())
    });
    from_base(cells, base, Some(touched), bases, profile)
}

/// [`run`] and [`run_meet`]: the boards of `base` from `bases`, then the search.
#[inline(always)]
fn from_base(
    cells: &mut Cells<'_>,
    base: &Grid,
    meet: Option<u32>,
    bases: &mut Bases,
    profile: &Profile,
) -> Outcome {
    let diff = differing_masks(cells.0, base.cells());
    let base = masks(base);
    let b = bases.get(&base);
    search(cells, (&base, b, None), (diff, meet), profile)
}

/// As [`run`], for `cells` inside `end`, an open fixpoint inside an earlier state (a branch's
/// earlier end), where `state` is the base [`run`] would take: the boards and counts of `state`
/// (kept in `bases`) are corrected into those of `end`, and only the cells where `cells` differ
/// from `end` (usually few) start the work, not all those where they differ from `state`.
pub(super) fn run_from_end(
    cells: &mut Cells<'_>,
    end: &Grid,
    state: &Grid,
    bases: &mut Bases,
    profile: &Profile,
) -> Outcome {
    let diff = differing_masks(cells.0, end.cells());
    let (state, end) = (masks(state), masks(end));
    let b = bases.get(&state);
    search(cells, (&end, b, Some(&state)), (diff, None), profile)
}

/// The fixpoint from `base` (its masks, and the boards, marked counts and solved cells of
/// `kept`, a position whose masks are the third item, or `base` itself), of which `cells`
/// differ in `diff`.
#[inline(always)]
fn search(
    cells: &mut Cells<'_>,
    base: (&[u16; 81], &Base, Option<&[u16; 81]>),
    diff: (u128, Option<u32>),
    profile: &Profile,
) -> Outcome {
    if profile.has_locked() || profile.has_subsets() {
        search_as::<true>(cells, base, diff, profile)
    } else {
        search_as::<false>(cells, base, diff, profile)
    }
}

/// [`search`], with the rules beyond the singles (`FULL`) or without. The search's own copy of
/// the kept boards and counts is corrected in place when `kept` is another position, and the
/// boards are copied after the struct is built: in the struct literal the compiler copies them
/// through a temporary (a third 256-byte copy per search).
#[inline(always)]
fn search_as<const FULL: bool>(
    cells: &mut Cells<'_>,
    (base, b, kept): (&[u16; 81], &Base, Option<&[u16; 81]>),
    (diff, meet): (u128, Option<u32>),
    profile: &Profile,
) -> Outcome {
    let locked = usize::from(profile.has(Rule::LockedPointing))
        | usize::from(profile.has(Rule::LockedClaiming)) << 1;
    let mut s = Search::<FULL> {
        boards: values_of(&b.boards),
        counts: values_of(&b.marked),
        solved: b.solved,
        queue: 0,
        unchecked_values: 0,
        looked_rows: if FULL { values_of(&b.rows) } else { [0; 16] },
        looked_columns: if FULL { b.columns } else { [0; 16] },
        locked_values: 0,
        changed: 0,
        pending: 0,
        locked,
        subsets: profile.has_subsets().then_some(profile),
    };
    if let Some(kept) = kept {
        // `base` (an earlier end) may hold values `kept` lacks and lack some it holds, but the
        // cells searched lie inside both: the marks of `kept` stay right for them (a value
        // placed in `kept` keeps its cell), and a unit placed in `base` only is marked at its
        // first check.
        correct(&mut s.boards, &mut s.counts, kept, base);
        s.solved = solved_of(&s.boards);
    }
    match s.fixpoint(cells, base, diff, meet) {
        Ok(()) if s.solved == CellSet::ALL.bits() => Outcome::Solved,
        Ok(()) => Outcome::Open,
        Err(()) => {
            let first = Cell::new(diff.trailing_zeros() as usize);
            let cell = first.unwrap_or(Cell::from_row_col(0, 0));
            Outcome::Contradiction(Contradiction::NoValue { cell })
        }
    }
}

/// Locked candidates on one band (or stack) of a value's board, through tables. The band's nine
/// block–line segments are numbered `line * 3 + block` (line and block inside the band); bit `k`
/// of an occupancy says whether segment `k` holds a place of the value.
///
/// `LOCKED[rules][occupancy]` is the segments to clear (`rules`: bit 0 pointing, bit 1
/// claiming): a block whose places lie on one line clears that line's other segments
/// (pointing); a line whose places lie in one block clears that block's other segments
/// (claiming).
static LOCKED: [[u16; 512]; 4] = {
    let mut out = [[0u16; 512]; 4];
    let mut rules = 1;
    while rules < 4 {
        let mut occ = 0u16;
        while occ < 512 {
            let mut clear = 0u16;
            let mut k = 0;
            while k < 3 {
                // Block k's lines, line k's blocks.
                let lines = (occ >> k & 1) | (occ >> (3 + k) & 1) << 1 | (occ >> (6 + k) & 1) << 2;
                let blocks = occ >> (3 * k) & 7;
                if rules & 1 != 0 && lines.count_ones() == 1 {
                    let line = lines.trailing_zeros() as usize;
                    clear |= (7 << (3 * line)) & !(1 << (3 * line + k));
                }
                if rules & 2 != 0 && blocks.count_ones() == 1 {
                    let block = blocks.trailing_zeros() as usize;
                    clear |= (0b1_001_001 << block) & !(1 << (3 * k + block));
                }
                k += 1;
            }
            out[rules][occ as usize] = clear;
            occ += 1;
        }
        rules += 1;
    }
    out
};

/// [`LOCKED`] with the occupancy and the result numbered `block * 3 + line` (for stacks).
static LOCKED_T: [[u16; 512]; 4] = {
    let mut out = [[0u16; 512]; 4];
    let mut rules = 1;
    while rules < 4 {
        let mut occ = 0;
        while occ < 512 {
            out[rules][occ] = transpose3(LOCKED[rules][transpose3(occ as u16) as usize]);
            occ += 1;
        }
        rules += 1;
    }
    out
};

/// Bit `a * 3 + b` to bit `b * 3 + a`.
const fn transpose3(x: u16) -> u16 {
    let mut out = 0;
    let mut k = 0;
    while k < 9 {
        out |= (x >> k & 1) << ((k % 3) * 3 + k / 3);
        k += 1;
    }
    out
}

/// `EXPAND[segments]`: the 27 cells of a band's segments, numbered as in [`LOCKED_T`]
/// (segment `j * 3 + a`, block `j` of row `a`, is cells `9a + 3j ..= 9a + 3j + 2`).
static EXPAND: [u32; 512] = {
    let mut out = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        out[x] = spread(x, 7, 9, 3) as u32;
        x += 1;
    }
    out
};

/// The cells of the segments `x` (nine bits, segment `k` at bit `k`): segment `k` is `cells`
/// shifted by `across * (k % 3) + down * (k / 3)`.
const fn spread(x: usize, cells: u128, across: usize, down: usize) -> u128 {
    let mut out = 0;
    let mut k = 0;
    while k < 9 {
        if x >> k & 1 != 0 {
            out |= cells << (across * (k % 3) + down * (k / 3));
        }
        k += 1;
    }
    out
}

/// `EXPAND_STACK[segments]`: the cells of the first stack's segments, numbered as in
/// [`LOCKED_T`] (segment `i * 3 + c`, column `c` in block row `i`, is cells `27i + c`,
/// `27i + c + 9` and `27i + c + 18`): one look-up, where spreading each segment takes a
/// multiplication.
static EXPAND_STACK: [u128; 512] = {
    let mut out = [0u128; 512];
    let mut x = 0;
    while x < 512 {
        out[x] = spread(x, 0x40201, 1, 27);
        x += 1;
    }
    out
};

const BAND: u128 = (1 << 27) - 1;
/// Bit `3k` of each 3-bit row segment (cells `3k..3k + 3`), the 27 of the grid.
const ROW_SEGMENTS: u128 = {
    let mut out = 0u128;
    let mut k = 0;
    while k < 27 {
        out |= 1 << (3 * k);
        k += 1;
    }
    out
};

/// Bit `27i + c` of each column segment (column `c` in the rows of block row `i`), the 27 of
/// the grid, as `board | board >> 9 | board >> 18` shows them.
const COLUMN_SEGMENTS: u128 = 0x1ff | 0x1ff << 27 | 0x1ff << 54;

/// The column segments of the first stack (columns 1–3), as in [`COLUMN_SEGMENTS`].
const STACK_SEGMENTS: u128 = COLUMN_SEGMENTS & (7 | 7 << 27 | 7 << 54);

/// The row segments of `board` that hold a place, as bit `3k + 2` of segment `k`.
#[inline(always)]
fn across(board: u128) -> u128 {
    nonzero_lanes::<3, u128>(board, ROW_SEGMENTS)
}

/// Per value, the column segments of its board that hold a place (as in [`COLUMN_SEGMENTS`],
/// which fit in 64 bits). Padded as [`Boards`].
type Columns = [u64; 16];

/// The row segments of `board` that hold a place (bit `3k + 2` of segment `k`) and its column
/// segments that do (as in [`COLUMN_SEGMENTS`]).
#[inline(always)]
fn segments_of(board: u128) -> (u128, u64) {
    let rows = across(board);
    let columns =
        (board as u64 | (board >> 9) as u64 | (board >> 18) as u64) & COLUMN_SEGMENTS as u64;
    (rows, columns)
}

/// The places that locked candidates (`rules`, as in [`LOCKED`]) remove from a value's `board`,
/// where `looked` is the segments ([`segments_of`]) of its board at the last look (when it had
/// none to remove, and held every place `board` holds), and the segments of `board`, to keep
/// for the next look. A band's (or stack's) removals depend only on which of its segments hold
/// a place: only those where a segment lost its last place since (held one at the last look,
/// none in `board`) are looked at.
#[inline]
fn locked_removals(board: u128, looked: (u128, u64), rules: usize) -> (u128, (u128, u64)) {
    let now = segments_of(board);
    // A segment `board` holds, the last look held: XOR is AND NOT here.
    let row_emptied = looked.0 ^ now.0;
    let column_emptied = looked.1 ^ now.1;
    if row_emptied | u128::from(column_emptied) == 0 {
        return (0, now);
    }
    let gone = in_band::<0>(now.0, row_emptied, rules)
        | in_band::<1>(now.0, row_emptied, rules)
        | in_band::<2>(now.0, row_emptied, rules)
        | in_stack::<0>(now.1, column_emptied, rules)
        | in_stack::<1>(now.1, column_emptied, rules)
        | in_stack::<2>(now.1, column_emptied, rules);
    (gone & board, now)
}

/// [`locked_removals`] in band `B` (rows `3B..3B + 3`), if one of its row segments emptied
/// (bits of `emptied`); `rows` those that hold a place (both as [`segments_of`] gives them).
/// The cells cleared may include some without the value.
#[inline(always)]
fn in_band<const B: usize>(rows: u128, emptied: u128, rules: usize) -> u128 {
    if emptied & BAND << (27 * B) == 0 {
        return 0;
    }
    /// Bit `3k` of each of the band's nine segments.
    const SPACED: u64 = 0x124_9249;
    // Segment `a * 3 + j` (bit 3(3a + j)) lands on bit `16 + j * 3 + a` of the product, from
    // the term `16 - 8a`: each bit of the product has one term (no carries), the transposed
    // occupancy of `LOCKED_T`.
    let x = (rows >> (27 * B + 2)) as u64 & SPACED;
    let occ = ((x * 0x1_0101) >> 16) as usize % 512;
    // (Indices reduced to their tables' sizes: no bounds checks.)
    let clear = LOCKED_T[rules % 4][occ];
    u128::from(EXPAND[usize::from(clear) % 512]) << (27 * B)
}

/// [`locked_removals`] in stack `S` (columns `3S..3S + 3`), if one of its column segments
/// emptied (bits of `emptied`, as in [`COLUMN_SEGMENTS`]); `columns` those that hold a place.
/// The cells cleared may include some without the value.
#[inline(always)]
fn in_stack<const S: usize>(columns: u64, emptied: u64, rules: usize) -> u128 {
    if emptied & (STACK_SEGMENTS as u64) << (3 * S) == 0 {
        return 0;
    }
    let column = |i: usize| (columns >> (27 * i + 3 * S)) as u16 & 7;
    let occ = column(0) | column(1) << 3 | column(2) << 6;
    let clear = LOCKED_T[rules % 4][usize::from(occ)];
    EXPAND_STACK[usize::from(clear) % 512] << (3 * S)
}

/// The working state besides the cells.
struct Search<'b, const FULL: bool> {
    boards: Boards,
    /// Per value, its places in each unit, marked where it is placed.
    counts: Counts,
    /// The cells with one value.
    solved: u128,
    /// The singles whose value has not yet left their peers.
    queue: u128,
    /// The values that lost a place since their last unit check (bit `d` for value `d + 1`).
    unchecked_values: u16,
    /// With `FULL`: per value, the segments of its board when locked candidates last looked
    /// ([`segments_of`]; those it emptied since are the difference: no bookkeeping on each
    /// removal). A search from another position's boards starts from that one's: it held every
    /// place, and the segments emptied since are looked at once more.
    looked_rows: Boards,
    /// With `FULL`: the column segments at the last look, as `looked_rows`.
    looked_columns: Columns,
    /// With `FULL`: the values whose board lost cells since the last look (bit `d` for value `d + 1`).
    locked_values: u16,
    /// With `FULL`: the units of the cells changed since the subset rules last looked.
    changed: u32,
    /// With `FULL`: units the subset rules still have to search (an eager pass stopped early).
    pending: u32,
    /// Which locked rules are on: bit 0 pointing, bit 1 claiming (an index of [`LOCKED`]).
    locked: usize,
    /// The profile, when it has subset rules.
    subsets: Option<&'b Profile>,
}

impl<const FULL: bool> Search<'_, FULL> {
    /// The fixpoint from `base`, of which `cells` differ in `diff`. With `meet`, `cells` are
    /// also the intersection of `base` with another open fixpoint, and `meet` gives every unit
    /// where that one lost anything: only where both lost something can a subset appear.
    fn fixpoint(
        &mut self,
        cells: &mut Cells<'_>,
        base: &[u16; 81],
        diff: u128,
        meet: Option<u32>,
    ) -> Result<(), ()> {
        // The cells that differ from `base`: their lost values leave the boards, and are to be
        // checked in their units.
        // The lost values and the new singles gathered locally, set once after the loop (not
        // stored back on every cell).
        let (mut touched, mut values, mut singles) = (0u32, 0u16, 0u128);
        each_bit(diff, |i| {
            let m = cells[i];
            let lost = base[i] & !m;
            values |= lost;
            if FULL {
                touched |= CELL_UNITS[i];
            }
            for d in ones(lost) {
                leave(&mut self.boards, &mut self.counts, d, i);
            }
            if m & m.wrapping_sub(1) == 0 {
                if m == 0 {
                    return Err(());
                }
                singles |= bit(i);
            }
            Ok(())
        })?;
        self.unchecked_values |= values;
        self.queue |= singles;
        self.solved |= singles;
        if FULL {
            self.locked_values |= values;
            match meet {
                Some(other) => self.pending = touched & other,
                None => self.changed = touched,
            }
        }
        loop {
            self.singles(cells)?;
            if !FULL || !(self.locked(cells)? || self.subsets(cells)?) {
                return Ok(());
            }
        }
    }

    /// Naked and hidden singles to their fixpoint: all the naked ones first, then the unit
    /// checks they left, value by value (each (unit, value) checked once for all the places it
    /// lost meanwhile).
    fn singles(&mut self, cells: &mut Cells<'_>) -> Result<(), ()> {
        loop {
            while self.queue != 0 {
                // A naked single: its value leaves the peers that have it.
                let i = pop_lowest(&mut self.queue);
                let d = cells[i].trailing_zeros() as usize % 16;
                let hits = self.boards[d] & PEER_BITS[i];
                if hits == 0 {
                    // Nothing lost: no check, no look.
                    self.counts[d] |= marks(i);
                    continue;
                }
                self.remove(cells, d, hits, marks(i))?;
            }
            if self.unchecked_values == 0 {
                return Ok(());
            }
            for d in ones(std::mem::take(&mut self.unchecked_values)) {
                self.check(cells, d % 16)?;
            }
        }
    }

    /// Value `d` leaves the cells `hits`, which hold it, and is to be checked; `placed` marks
    /// the units where it is now placed (a naked single's, left with one place each).
    #[inline(always)]
    fn remove(
        &mut self,
        cells: &mut Cells<'_>,
        d: usize,
        hits: u128,
        placed: u128,
    ) -> Result<(), ()> {
        self.boards[d] &= !hits;
        if FULL {
            self.locked_values |= 1 << d;
        }
        let v = 1u16 << d;
        let mut units = 0u32;
        let mut lost = 0u128;
        each_bit(hits, |p| {
            let n = cells[p] & !v;
            cells[p] = n;
            if n & n.wrapping_sub(1) == 0 {
                if n == 0 {
                    return Err(());
                }
                self.queue |= bit(p);
                self.solved |= bit(p);
            }
            lost += ONE_PER_UNIT[p % 128];
            if FULL {
                units |= CELL_UNITS[p];
            }
            Ok(())
        })?;
        if FULL {
            self.changed |= units;
        }
        self.counts[d] = (self.counts[d] - lost) | placed;
        self.unchecked_values |= v;
        Ok(())
    }

    /// Locked candidates, for the values that lost a place since the last look, in the bands
    /// and stacks where a segment lost its last place. Returns whether a value left a cell.
    fn locked(&mut self, cells: &mut Cells<'_>) -> Result<bool, ()> {
        if self.locked == 0 {
            return Ok(false);
        }
        let mut any = false;
        for d in ones(std::mem::take(&mut self.locked_values)) {
            let d = d % 16;
            let board = self.boards[d];
            let looked = (self.looked_rows[d], self.looked_columns[d]);
            let (gone, now) = locked_removals(board, looked, self.locked);
            (self.looked_rows[d], self.looked_columns[d]) = now;
            if gone != 0 {
                any = true;
                self.remove(cells, d, gone, 0)?;
            }
        }
        Ok(any)
    }

    /// The subset rules, on the units changed since the last look (and those an earlier look
    /// left), in the eager order: back to the singles after the first change. Returns whether a
    /// cell changed.
    fn subsets(&mut self, cells: &mut Cells<'_>) -> Result<bool, ()> {
        let Some(profile) = self.subsets else {
            return Ok(false);
        };
        let units = self.pending | std::mem::take(&mut self.changed);
        if units == 0 {
            return Ok(false);
        }
        let before = *cells.0;
        let mut state = State::in_place_cells(Cells(&mut *cells.0));
        state.dirty_subsets = units;
        state.eager = true;
        let found = subsets::apply(&mut state, profile, &mut Stats::default()).map_err(|_| ())?;
        self.pending = state.dirty_subsets;
        let changed = state.changed;
        if !found || changed == 0 {
            return Ok(false);
        }
        // The cells the subset changed lose their values (those they had `before`) on the boards,
        // to be checked in their units.
        for i in ones(changed) {
            let i = i % 81;
            let m = cells[i];
            let lost = before[i].bits() & !m;
            self.locked_values |= lost;
            self.unchecked_values |= lost;
            for d in ones(lost) {
                leave(&mut self.boards, &mut self.counts, d, i);
            }
            self.changed |= CELL_UNITS[i];
            if m & m.wrapping_sub(1) == 0 && self.solved >> i & 1 == 0 {
                if m == 0 {
                    return Err(());
                }
                self.queue |= bit(i);
                self.solved |= bit(i);
            }
        }
        Ok(true)
    }

    /// Value `d` lost places since its last check: a unit with none left is a contradiction,
    /// one with one left in an unsolved cell a hidden single, placed at once (the values its cell
    /// loses are marked for their own checks; `d`'s board stays as it is). Either way the unit
    /// is marked: its check passes from then on.
    #[inline(always)]
    fn check(&mut self, cells: &mut Cells<'_>, d: usize) -> Result<(), ()> {
        let alone = alone(self.counts[d]);
        if alone == 0 {
            return Ok(());
        }
        let board = self.boards[d];
        each_bit(alone, |k| {
            let places = board & UNIT_BITS32[(k / 4).wrapping_sub(1) % 32];
            if places == 0 {
                return Err(());
            }
            if places & self.solved == 0 {
                self.hidden(cells, places, d);
            }
            Ok(())
        })?;
        self.counts[d] |= alone >> 1;
        Ok(())
    }

    /// A hidden single: value `d`'s one place `places` in a unit, in an unsolved cell.
    #[inline(never)]
    fn hidden(&mut self, cells: &mut Cells<'_>, places: u128, d: usize) {
        let q = (places.trailing_zeros() as usize).min(80);
        let value = 1u16 << d;
        let lost = cells[q] & !value;
        cells[q] = value;
        self.solved |= places;
        self.queue |= places;
        self.unchecked_values |= lost;
        if FULL {
            self.changed |= CELL_UNITS[q];
            self.locked_values |= lost;
        }
        for e in ones(lost) {
            leave(&mut self.boards, &mut self.counts, e, q);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        propagate, propagate_bare, propagate_bare_from_end, propagate_bare_meet, propagate_changed,
    };
    use super::*;
    use crate::grid::{Candidates, CellSet};

    /// The corpus puzzles the comparison starts from: hard ones (top95, the SHC examples with
    /// T&E depths 0 to 3) and a few from forum-hardest.
    fn puzzles() -> Vec<Grid> {
        let mut out = Vec::new();
        for (name, take) in [
            ("top95.txt", 95),
            ("shc-examples-342-every9.tsv", 40),
            ("forum-hardest-1106.txt", 30),
        ] {
            let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().take(take) {
                let line = line.split('\t').next().unwrap_or("");
                out.push(line.parse::<Grid>().unwrap());
            }
        }
        out
    }

    /// The same positions on every run.
    use crate::testing::XorShift as Rng;

    /// The boards and (unmarked) counts of `masks` by their definition, bit by bit and cell by
    /// cell: bit `i` of board `d` when cell `i` holds value `d + 1`, nibble `u` of count `d`
    /// the cells of unit `u` that hold it.
    fn plain_boards(masks: &[u16; 81]) -> (Boards, Counts) {
        let (mut boards, mut counts) = ([0u128; 16], [0u128; 16]);
        for d in 0..9 {
            for (i, &m) in masks.iter().enumerate() {
                if m >> d & 1 != 0 {
                    boards[d] |= 1 << i;
                }
            }
            for (u, &unit) in UNIT_BITS.iter().enumerate() {
                let n = (0..81).filter(|&i| unit >> i & 1 != 0 && masks[i] >> d & 1 != 0);
                counts[d] |= (n.count() as u128) << (4 * u);
            }
        }
        (boards, counts)
    }

    fn random_masks(rng: &mut Rng) -> [u16; 81] {
        std::array::from_fn(|_| rng.next() as u16 & 0x1ff)
    }

    /// `leave` and `enter` against the boards recomputed from scratch, and `correct` between
    /// two random positions.
    #[test]
    fn leave_enter_and_correct_match_the_definition() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..200 {
            let mut masks = random_masks(&mut rng);
            let (mut boards, mut counts) = plain_boards(&masks);
            for _ in 0..20 {
                let (i, d) = (rng.below(81), rng.below(9));
                let v = 1u16 << d;
                if masks[i] & v != 0 {
                    leave(&mut boards, &mut counts, d, i);
                } else {
                    enter(&mut boards, &mut counts, d, i);
                }
                masks[i] ^= v;
                assert_eq!(
                    (boards, counts),
                    plain_boards(&masks),
                    "value {} cell {i}",
                    d + 1
                );
            }
            let to = random_masks(&mut rng);
            correct(&mut boards, &mut counts, &masks, &to);
            assert_eq!((boards, counts), plain_boards(&to));
            let solved = (0..81).filter(|&i| to[i].count_ones() == 1);
            assert_eq!(solved_of(&boards), solved.fold(0, |a, i| a | 1u128 << i));
        }
    }

    fn open_cells(g: &Grid) -> Vec<Cell> {
        Cell::all().filter(|&c| g.get(c).len() > 1).collect()
    }

    /// A random branch of a random open cell: one value, or all but one.
    fn branch(g: &Grid, rng: &mut Rng) -> (Cell, Candidates) {
        let open = open_cells(g);
        let cell = open[rng.below(open.len())];
        let values: Vec<_> = g.get(cell).iter().collect();
        let one = Candidates::single(values[rng.below(values.len())]);
        let keep = if rng.below(2) == 0 {
            one
        } else {
            g.get(cell) - one
        };
        (cell, keep)
    }

    /// Ours against `propagate_changed` with `profile`, on `g` (inside `base`).
    fn compare(
        g: &Grid,
        changed: CellSet,
        (base, profile): (&Grid, &Profile),
        bases: &mut Bases,
        checked: &mut usize,
    ) {
        let (mut ours, mut theirs) = (*g, *g);
        let got = propagate_bare(&mut ours, base, bases, profile);
        let want = propagate_changed(&mut theirs, changed, profile);
        if want.is_contradiction() {
            assert!(got.is_contradiction(), "{g:?} from {base:?}: {got:?}");
        } else {
            assert_eq!(got, want, "{g:?} from {base:?}");
            assert_eq!(ours, theirs, "{g:?} from {base:?}");
        }
        *checked += 1;
    }

    /// Corpus puzzles with random branches applied, as the engine's tests do: fresh branch tests
    /// from a state, and re-tests from an earlier branch's end position intersected with a
    /// smaller state (a fact found since); the boards kept for several states at once.
    #[test]
    fn bare_singles_reach_the_same_fixpoint() {
        let (checked, contradictions) = same_fixpoint(&Profile::SINGLES, 1, 60);
        assert!(
            checked > 10_000 && contradictions > 100,
            "{checked} {contradictions}"
        );
    }

    /// The same with locked candidates and subsets: the default profile, and profiles with the
    /// singles and a random choice of the other rules.
    #[test]
    fn bare_rules_reach_the_same_fixpoint() {
        let (checked, contradictions) = same_fixpoint(&Profile::DEFAULT, 1, 60);
        assert!(
            checked > 8_000 && contradictions > 500,
            "{checked} {contradictions}"
        );
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..12 {
            let mut profile = Profile::SINGLES;
            for &rule in &Rule::ALL[2..] {
                if rng.below(2) == 0 {
                    profile = profile.with(rule);
                }
            }
            let (checked, _) = same_fixpoint(&profile, 2, 10);
            assert!(checked > 500, "{checked}");
        }
    }

    /// Compares ours with `propagate_changed` under `profile` on every `every`-th puzzle, with
    /// `tests` random fresh tests and re-tests from each. Returns the comparisons made and the
    /// re-tests skipped because the earlier branch was a contradiction.
    fn same_fixpoint(profile: &Profile, every: usize, tests: usize) -> (usize, usize) {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut bases = Bases::default();
        let (mut checked, mut contradictions) = (0, 0);
        for puzzle in puzzles().into_iter().step_by(every) {
            let mut start = puzzle;
            if propagate(&mut start, profile) != Outcome::Open {
                continue;
            }
            // A chain of smaller states, each a fact (a branch) applied to the last, propagated.
            let mut states = vec![start];
            for _ in 0..6 {
                let mut s = *states.last().unwrap();
                let (cell, keep) = branch(&s, &mut rng);
                s.set(cell, keep);
                if propagate(&mut s, profile) != Outcome::Open {
                    break;
                }
                states.push(s);
            }
            for _ in 0..tests {
                let k = rng.below(states.len());
                let state = states[k];
                // A fresh branch test.
                let (cell, keep) = branch(&state, &mut rng);
                let mut g = state;
                g.set(cell, keep);
                compare(
                    &g,
                    [cell].into_iter().collect(),
                    (&state, profile),
                    &mut bases,
                    &mut checked,
                );
                // A re-test: a branch's end in an earlier state, intersected with this one.
                let earlier = states[rng.below(k + 1)];
                let (cell, keep) = branch(&earlier, &mut rng);
                let mut end = earlier;
                end.set(cell, keep);
                match propagate(&mut end, profile) {
                    Outcome::Open => {}
                    _ => {
                        contradictions += 1;
                        continue;
                    }
                }
                let open_end = end;
                let (changed, emptied) = end.intersect(&state);
                if emptied.is_empty() && !changed.is_empty() {
                    compare(&end, changed, (&state, profile), &mut bases, &mut checked);
                    // The same, with only the units where both lost something checked.
                    let (mut ours, mut theirs) = (end, end);
                    let got = propagate_bare_meet(&mut ours, changed, &state, &mut bases, profile);
                    let want = propagate_changed(&mut theirs, changed, profile);
                    assert_eq!(got.is_contradiction(), want.is_contradiction(), "{end:?}");
                    if !want.is_contradiction() {
                        assert_eq!((got, ours), (want, theirs), "{end:?} from {open_end:?}");
                    }
                    // The same, with the work starting from the earlier end.
                    let (mut ours, mut theirs) = (end, end);
                    let got =
                        propagate_bare_from_end(&mut ours, &open_end, &state, &mut bases, profile);
                    let want = propagate_changed(&mut theirs, changed, profile);
                    assert_eq!(got.is_contradiction(), want.is_contradiction(), "{end:?}");
                    if !want.is_contradiction() {
                        assert_eq!((got, ours), (want, theirs), "{end:?} from {open_end:?}");
                    }
                }
            }
        }
        (checked, contradictions)
    }
}
