//! Naked and hidden pairs, triples and quads inside a unit (spec §3).
//!
//! Both kinds are one search: among up to nine items with a bit mask each (cells with their
//! candidates for naked subsets, values with their places for hidden ones), find `k` items whose
//! masks together hold `k` bits (fewer is a contradiction). All sizes are found in a single
//! depth-first pass with nested loops, pruned as soon as the union grows past the largest size
//! searched; the per-unit set-up is free of data-dependent branches.
//!
//! With the default profile, a unit missing from the table of units known to hold no subset is
//! first checked for all pairs, triples and quads of bits at once (bit-sliced counts of the items
//! each one holds, from tables), and the search runs only where a subset may act (most units
//! are let through without a search).
//!
//! That fast path works on a unit's *key*: its nine candidate masks `m0 .. m8` (in the order of
//! [`Unit::cells`]) packed into one `u128`, ten bits a field, six fields in the low half and
//! three in the high one ([`key_of`]):
//!
//! ```text
//! bit    127 .. 94 | 93..84 | 83..74 | 73..64 || 63..60 | 59..50 | 49..40 | .. | 19..10 | 9..0
//! field  zero      |   m8   |   m7   |   m6   || zero   |   m5   |   m4   | .. |   m1   |  m0
//!
//! one field: bit 9 always clear (a guard the field-wise subtractions borrow into)
//!            bits 8 .. 0 the cell's candidates, bit d for value d + 1
//! ```
//!
//! The key is the unit's entry in the table of units known to hold no subset, and the filters
//! read it field-wise (all fields at once): the open cells ([`open_cells`]), the cells with
//! more than `k` values ([`cells_over`]), the values of the open or solved cells
//! ([`values_in`]), the values with few places ([`few_places`]), one value's places
//! ([`places_of`]) and the bit-matrix transpose of the key ([`transpose`]).

use super::{Contradiction, State, Stats, Step};
use crate::bits::{once_and_twice, ones};
use crate::grid::{transpose8, Candidates, Unit};
use crate::propagate::{Profile, Rule};
use std::cell::RefCell;

const NAKED: [Rule; 3] = [Rule::NakedPair, Rule::NakedTriple, Rule::NakedQuad];
const HIDDEN: [Rule; 3] = [Rule::HiddenPair, Rule::HiddenTriple, Rule::HiddenQuad];

/// Which subset sizes to look for: bit `k` of `sizes` for size `k` (2..=4), and the largest one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sizes {
    sizes: u8,
    max: u32,
}

impl Sizes {
    fn new(rules: &[Rule; 3], p: &Profile, limit: u32) -> Sizes {
        let mut sizes = 0u8;
        for (k, &rule) in (2u32..=4).zip(rules.iter()) {
            if p.has(rule) && k <= limit {
                sizes |= 1 << k;
            }
        }
        let max = if sizes == 0 {
            0
        } else {
            7 - sizes.leading_zeros()
        };
        Sizes { sizes, max }
    }

    #[inline]
    fn wants(self, k: u32) -> bool {
        self.sizes & (1 << k) != 0
    }
}

/// Searches `items` (`(mask, tag)` pairs, each mask with between 1 and `want.max` bits) for `k`
/// items (`k` a wanted size) whose masks hold at most `k` bits between them, and calls
/// `act(tags, union, k)` for each until it reports a change. Returns the size acted on.
#[inline(always)]
fn find<F>(items: &[(u16, u16)], want: Sizes, mut act: F) -> Result<Option<u32>, Contradiction>
where
    F: FnMut(u16, u16, u32) -> Step,
{
    let n = items.len();
    for a in 0..n {
        let (ua, ta) = items[a];
        for b in a + 1..n {
            let ub = ua | items[b].0;
            let nb = ub.count_ones();
            if nb > want.max {
                continue;
            }
            let tb = ta | items[b].1;
            if nb <= 2 && want.wants(2) && act(tb, ub, 2)? {
                return Ok(Some(2));
            }
            if want.max < 3 {
                continue;
            }
            for c in b + 1..n {
                let uc = ub | items[c].0;
                let nc = uc.count_ones();
                if nc > want.max {
                    continue;
                }
                let tc = tb | items[c].1;
                if nc <= 3 && want.wants(3) && act(tc, uc, 3)? {
                    return Ok(Some(3));
                }
                if want.max < 4 {
                    continue;
                }
                for &(md, td) in &items[c + 1..] {
                    let ud = uc | md;
                    if ud.count_ones() <= 4 && want.wants(4) && act(tc | td, ud, 4)? {
                        return Ok(Some(4));
                    }
                }
            }
        }
    }
    Ok(None)
}

/// Applies the switched-on subset rules to every unit that changed since it was last examined
/// (at most one subset per unit per call; a changed unit is examined again next time).
pub(super) fn apply(s: &mut State, p: &Profile, stats: &mut Stats) -> Step {
    // The rules are over all nine cells of a unit, solved or not: k cells holding at most k
    // values between them (fewer is a contradiction), or k values with at most k places. Read
    // that way every rule stays true of every smaller state, so the fixpoint does not depend on
    // the order of the rules, whatever the profile.
    //
    // With the default profile (both singles and every subset rule) a faster reading gives the
    // same fixpoint: subsets run once the singles are done, so a solved cell's value is in no
    // other cell of its units and subsets can be sought among the open cells alone; and a naked
    // subset of n of the n_open open cells is the hidden subset of the other n_open - n (the same
    // elimination), while a contradiction one side would expose the other side, or the singles,
    // expose through a smaller subset; so each side only needs sizes up to half.
    // `tests/integration/reference.rs` checks both readings against a plain implementation.
    let fast = NAKED
        .iter()
        .chain(HIDDEN.iter())
        .chain([Rule::NakedSingle, Rule::HiddenSingle].iter())
        .all(|&r| p.has(r));
    let todo = s.dirty_subsets;
    s.dirty_subsets = 0;
    if fast {
        return NO_SUBSET.with(|t| {
            let NoSubset { table, missed } = &mut **t.borrow_mut();
            apply_fast(s, todo, table, missed, stats)
        });
    }
    let naked = [Sizes::new(&NAKED, p, 4); 10];
    let hidden = [Sizes::new(&HIDDEN, p, 4); 10];
    let mut changed = false;
    for u in ones(todo) {
        let Some(unit) = Unit::new(u) else { continue };
        if apply_unit(s, unit, &naked, &hidden, stats)? {
            changed = true;
        }
    }
    Ok(changed)
}

/// The sizes the fast reading searches among `n` open cells: naked subsets up to half of them,
/// hidden ones up to half of the others.
const fn fast_sizes(hidden: bool) -> [Sizes; 10] {
    let mut out = [Sizes { sizes: 0, max: 0 }; 10];
    let mut n: u32 = 0;
    while n < 10 {
        let limit = if hidden {
            n.saturating_sub(1) / 2
        } else {
            n / 2
        };
        let max = if limit > 4 { 4 } else { limit };
        let mut sizes = 0u8;
        let mut k = 2;
        while k <= max {
            sizes |= 1 << k;
            k += 1;
        }
        out[n as usize] = Sizes {
            sizes,
            max: if sizes == 0 { 0 } else { max },
        };
        n += 1;
    }
    out
}

const FAST_NAKED: [Sizes; 10] = fast_sizes(false);
const FAST_HIDDEN: [Sizes; 10] = fast_sizes(true);

/// Per value, whether it has at most `max` (0..=4) places among the `open` cells of `masks`: a
/// bit-sliced count, without branches.
#[inline]
fn at_most(masks: &[u16; 9], open: u16, max: u32) -> u16 {
    let (mut c0, mut c1, mut c2, mut c3) = (0u16, 0u16, 0u16, 0u16);
    for (k, &m) in masks.iter().enumerate() {
        let m = m & 0u16.wrapping_sub((open >> k) & 1);
        let k1 = c0 & m;
        c0 ^= m;
        let k2 = c1 & k1;
        c1 ^= k1;
        let k3 = c2 & k2;
        c2 ^= k2;
        c3 |= k3;
    }
    // Counts stay below 16 (nine cells); c3 marks 8 or more.
    let le = [
        !(c0 | c1 | c2 | c3),
        !(c1 | c2 | c3),
        !(c2 | c3) & !(c0 & c1),
        !(c2 | c3),
        !c3 & !(c2 & (c1 | c0)),
    ];
    le[max.min(4) as usize]
}

/// The cells of `open` whose masks have at most `max` bits, without branches.
#[inline]
fn small_cells(masks: &[u16; 9], open: u16, max: u32) -> u16 {
    let mut out = 0u16;
    for (k, &m) in masks.iter().enumerate() {
        out |= u16::from(m.count_ones() <= max) << k;
    }
    out & open
}

/// Writes `(masks[k], 1 << k)` for each `k` of `set` (nine bits) to `items`; returns how many.
/// Padded, so that the indices need no bounds checks.
#[inline]
fn items_of(masks: &Padded, set: u16, items: &mut [(u16, u16); 16]) -> usize {
    let mut n = 0;
    for k in ones(set) {
        items[n % 16] = (masks[k % 16], 1 << k);
        n += 1;
    }
    n
}

/// The masks of `unit`'s nine cells.
#[inline]
fn unit_masks(s: &State, unit: Unit) -> [u16; 9] {
    let mut masks = [0u16; 9];
    for (m, c) in masks.iter_mut().zip(unit.cells()) {
        *m = s.cells[c.index()];
    }
    masks
}

/// The offsets of the nine cells of a block, a row and a column from their first cell, in the
/// order of [`Unit::cells`].
const OFFSETS: [[usize; 9]; 3] = [
    [0, 1, 2, 9, 10, 11, 18, 19, 20],
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [0, 9, 18, 27, 36, 45, 54, 63, 72],
];

/// [`unit_masks`] for unit `j` (0..9) of kind `K` (0 blocks, 1 rows, 2 columns), read at fixed
/// offsets from its first cell rather than through a table of cell indices.
#[inline(always)]
fn kind_masks<const K: usize>(cells: &[Candidates; 81], j: usize) -> [u16; 9] {
    let j = j % 9;
    let start = match K {
        0 => 27 * (j / 3) + 3 * (j % 3),
        1 => 9 * j,
        _ => j,
    };
    let mut masks = [0u16; 9];
    for (m, o) in masks.iter_mut().zip(OFFSETS[K]) {
        *m = cells[start + o].bits();
    }
    masks
}

/// Looks up in `table` the units of kind `K` in `todo` (as in [`apply_fast`]): the ones found.
/// The keys of the others go to `missed`, by unit.
#[inline(always)]
fn look_up_kind<const K: usize>(
    cells: &[Candidates; 81],
    todo: u32,
    table: &Table,
    missed: &mut Missed,
) -> u32 {
    let mut known = 0u32;
    for j in ones(todo >> (9 * K) & 0x1ff) {
        let (key, slot) = key_of(&kind_masks::<K>(cells, j));
        // No branch on the answer, and nothing written: the next units' look-ups start while
        // this one waits for its line (a mispredicted answer, often the case, would otherwise
        // stop them).
        known |= u32::from(holds(table, slot, key)) << j;
        missed[(9 * K + j) % 32] = key;
    }
    known << (9 * K)
}

/// The nine masks of the unit of `key`, padded: cheaper than reading the cells again.
#[inline]
fn masks_of(key: u128) -> Padded {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    let mut out = [0u16; 16];
    for (k, m) in out[..6].iter_mut().enumerate() {
        *m = (lo >> (10 * k)) as u16 & 0x1ff;
    }
    for (k, m) in out[6..9].iter_mut().enumerate() {
        *m = (hi >> (10 * k)) as u16 & 0x1ff;
    }
    out
}

/// A unit's nine masks (the first nine of `masks`) as a key of [`NO_SUBSET`], and its set there: masks 0..6 in the 10-bit
/// fields of the low half, masks 6..9 in those of the high half, bit 9 of each field clear (so
/// that [`open_cells`] can work on all fields at once).
#[inline]
fn key_of(masks: &[u16]) -> (u128, usize) {
    let lo = masks[..6]
        .iter()
        .rev()
        .fold(0u64, |k, &m| k << 10 | u64::from(m));
    let hi = masks[6..9]
        .iter()
        .rev()
        .fold(0u64, |k, &m| k << 10 | u64::from(m));
    let key = u128::from(hi) << 64 | u128::from(lo);
    (key, slot_of(key))
}

/// The set of `key` in [`NO_SUBSET`].
#[inline(always)]
fn slot_of(key: u128) -> usize {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    ((lo ^ hi).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - NO_SUBSET_BITS)) as usize
}

/// For `fields` 10-bit fields of `x` (9-bit masks, bit 9 clear): the fields with more than `k`
/// bits (`k` at most 4), as bits `0..fields`, all fields at once.
#[inline(always)]
fn fields_over(x: u64, fields: u32, k: u32) -> u16 {
    debug_assert!(k <= 4, "more than four values are not counted");
    let one = (0..fields).fold(0u64, |a, i| a | 1 << (10 * i));
    let low = one * 0x1ff;
    let guard = one * 0x200;
    // m & (m - 1) in each field, k times: the guard bit, set, stops the borrow of an empty one.
    let clear = |z: u64| z & ((z | guard) - one);
    let z = match k {
        0 => x,
        1 => clear(x),
        2 => clear(clear(x)),
        3 => clear(clear(clear(x))),
        _ => clear(clear(clear(clear(x)))),
    };
    let multi = (z + low) & guard;
    // Bit 9 + 10 i to bit 64 - fields + i: the other products land below or above.
    let gather = (0..fields).fold(0u64, |a, j| a | 1 << (64 - fields - 9 - 9 * j));
    (multi.wrapping_mul(gather) >> (64 - fields)) as u16
}

/// The cells with more than `k` (at most 4) values in the unit of `key`.
#[inline]
fn cells_over(key: u128, k: u32) -> u16 {
    fields_over(key as u64, 6, k) | fields_over((key >> 64) as u64, 3, k) << 6
}

/// The open cells (more than one value) of the unit of `key`.
#[inline]
fn open_cells(key: u128) -> u16 {
    cells_over(key, 1)
}

/// The values of the open cells (`open`), or of the others, of the unit of `key`: all fields
/// at once, with the same steps as [`open_cells`] (which the compiler then shares).
#[inline(always)]
fn values_in(key: u128, open: bool) -> u16 {
    let half = |x: u64, fields: u32| {
        let one = (0..fields).fold(0u64, |a, i| a | 1 << (10 * i));
        let (low, guard) = (one * 0x1ff, one * 0x200);
        let multi = ((x & ((x | guard) - one)) + low) & guard;
        // 0x1ff in the fields of open cells.
        let wide = multi - (multi >> 9);
        let x = x & if open { wide } else { !wide };
        // The fields ORed into the first: 3 apart, then 1 and 2 apart.
        let x = if fields > 3 { x | x >> 30 } else { x };
        (x | x >> 10 | x >> 20) as u16 & 0x1ff
    };
    half(key as u64, 6) | half((key >> 64) as u64, 3)
}

/// [`apply`] with the default profile, for the units of `todo`. A unit's result then depends
/// only on its nine masks, and units found to hold no subset are remembered in `table` (most
/// searches find nothing, and the same unit contents recur from branch test to branch test).
/// Every unit is looked up before any is searched, so that the look-ups' cache misses overlap;
/// after a change, the units still to come are read again (until then their masks come from
/// their keys, kept in `missed`).
fn apply_fast(
    s: &mut State,
    todo: u32,
    table: &mut Table,
    missed: &mut Missed,
    stats: &mut Stats,
) -> Step {
    // Blocks, rows, then columns: in the order of the units.
    let cells = &*s.cells.0;
    let mut known = look_up_kind::<0>(cells, todo, table, missed);
    known |= look_up_kind::<1>(cells, todo, table, missed);
    known |= look_up_kind::<2>(cells, todo, table, missed);
    let mut changed = false;
    let mut rest = todo & !known;
    while rest != 0 {
        let u = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let Some(unit) = Unit::new(u) else { continue };
        let (wide, key, slot) = if changed {
            let mut wide: Padded = [0; 16];
            for (m, c) in wide.iter_mut().zip(unit.cells()) {
                *m = s.cells[c.index()];
            }
            let (key, slot) = key_of(&wide);
            if holds(table, slot, key) {
                continue;
            }
            (wide, key, slot)
        } else {
            // Unchanged since its look-up.
            let key = missed[u % 32];
            (masks_of(key), key, slot_of(key))
        };
        if surely_none(&wide, key) {
            remember(table, slot, key);
            continue;
        }
        if apply_masks(s, unit, Some(key), &FAST_NAKED, &FAST_HIDDEN, stats, &wide)? {
            if s.eager {
                // The units still to come are searched next time.
                s.dirty_subsets |= rest;
                return Ok(true);
            }
            changed = true;
            // Units still to come may have changed: read them again, as if never looked up.
            rest |= todo & known & !((2u32 << u) - 1);
            known = 0;
        } else {
            remember(table, slot, key);
        }
    }
    Ok(changed)
}

fn apply_unit(
    s: &mut State,
    unit: Unit,
    naked: &[Sizes; 10],
    hidden: &[Sizes; 10],
    stats: &mut Stats,
) -> Step {
    let masks = unit_masks(s, unit);
    apply_masks(s, unit, None, naked, hidden, stats, &masks)
}

/// Size (log2) of the per-thread table of units without a subset in sets of two: 32,768
/// entries, 512 KiB (chosen by timing a few sizes on forum-hardest: a miss costs far more than a
/// look-up).
const NO_SUBSET_BITS: u32 = 14;
const NO_SUBSET_LEN: usize = 2 << NO_SUBSET_BITS;
type Table = [u128; NO_SUBSET_LEN];
/// The keys of the units of a pass missing from the table, by unit (32, so that `% 32` bounds
/// the index with one AND).
type Missed = [u128; 32];

thread_local! {
    /// Units (their [keys](key_of)) known to hold no subset under the default profile, in a
    /// two-way set-associative table, the newest first in its set (a found unit is not moved:
    /// the look-ups write nothing); `u128::MAX` is no unit. With it, room for [`apply_fast`]'s
    /// keys of the units it missed, kept here so as not to be cleared at every call.
    static NO_SUBSET: RefCell<Box<NoSubset>> = RefCell::new(Box::new(NoSubset {
        table: [u128::MAX; NO_SUBSET_LEN],
        missed: [0; 32],
    }));
}

/// [`NO_SUBSET`]'s contents, aligned to a cache line so that no set of the table straddles two
/// (a large allocation is otherwise only 16-byte aligned).
#[repr(C, align(64))]
struct NoSubset {
    table: Table,
    missed: Missed,
}

/// Whether set `set` of `table` holds `key`.
#[inline(always)]
fn holds(table: &Table, set: usize, key: u128) -> bool {
    let i = 2 * set % NO_SUBSET_LEN;
    (table[i] == key) | (table[i | 1] == key)
}

/// Puts `key` first in set `set` of `table`, its older entry second.
#[inline(always)]
fn remember(table: &mut Table, set: usize, key: u128) {
    let i = 2 * set % NO_SUBSET_LEN;
    table[i | 1] = table[i];
    table[i] = key;
}

/// For each 9-bit mask `m` of at most three bits, at its [rank](RANK23), the k-sets of
/// [`KSETS23`] (k = 2, 3) that hold `m`, as bits of a `u128` (the 36 pairs at bits 0..36,
/// [`PAIRS`], then the 84 triples, [`TRIPLES`]); a mask of more bits is in none ([`NONE23`]).
/// Compact (2 KiB read, and the 512-byte [`RANK23`]; 256 rows so that a `u8` rank needs no
/// bounds check): rows by mask, most of them empty, spread the look-ups of
/// [`crowded23`] over 8 KiB or more, which missed the cache often beside the search's other
/// tables (about 1 in 3 on forum-hardest; 1 in 8 compact, for one more load each).
static HOLDING23: Aligned<[u128; 256]> = Aligned(by_rank(&holding(&KSETS23), &RANK23.0));
/// For each 9-bit mask, the quads ([`KSETS4`]) that hold it, by mask: far fewer look-ups.
static HOLDING4: Aligned<[u128; 512]> = Aligned(holding(&KSETS4));

/// For each 9-bit mask, its row in [`HOLDING23`]: the masks of at most three bits by bit
/// count, then in increasing order, the others at [`NONE23`].
static RANK23: Aligned<[u8; 512]> = Aligned(ranks23());
/// The empty row of [`HOLDING23`].
const NONE23: u8 = 130;

/// A cache line's alignment.
#[repr(align(64))]
struct Aligned<T>(T);

/// The sets of [`KSETS23`] (`FOUR` false) or of [`KSETS4`] that hold `m`.
#[inline(always)]
fn holding_of<const FOUR: bool>(m: u16) -> u128 {
    let m = usize::from(m) % 512;
    if FOUR {
        HOLDING4.0[m]
    } else {
        HOLDING23.0[usize::from(RANK23.0[m])]
    }
}

static KSETS23: [u16; 120] = ksets(&[2, 3]);
static KSETS4: [u16; 126] = ksets(&[4]);
/// [`KSETS23`] and [`KSETS4`] padded to 128 entries, for [`may_act`]: an index taken from the
/// bits of a `u128` then needs no division (`% 128` is one AND).
static PADDED23: [u16; 128] = padded_sets(&KSETS23);
static PADDED4: [u16; 128] = padded_sets(&KSETS4);

/// `sets` followed by empty sets, 128 in all.
const fn padded_sets<const N: usize>(sets: &[u16; N]) -> [u16; 128] {
    let mut out = [0u16; 128];
    let mut i = 0;
    while i < N {
        out[i] = sets[i];
        i += 1;
    }
    out
}
const PAIRS: u128 = (1 << 36) - 1;
const TRIPLES: u128 = ((1 << 84) - 1) << 36;

/// The 9-bit masks with a bit count in `sizes`, by size, then in increasing order.
const fn ksets<const N: usize>(sizes: &[u32]) -> [u16; N] {
    let mut out = [0u16; N];
    let mut n = 0;
    let mut i = 0;
    while i < sizes.len() {
        let mut set: u32 = 0;
        while set < 512 {
            if set.count_ones() == sizes[i] {
                out[n] = set as u16;
                n += 1;
            }
            set += 1;
        }
        i += 1;
    }
    out
}

/// [`RANK23`].
const fn ranks23() -> [u8; 512] {
    let mut out = [NONE23; 512];
    let mut rank = 0;
    let mut bits = 0;
    while bits <= 3 {
        let mut m: usize = 0;
        while m < 512 {
            if m.count_ones() == bits {
                out[m] = rank;
                rank += 1;
            }
            m += 1;
        }
        bits += 1;
    }
    out
}

/// The rows `by_mask` of the masks at their `rank`s.
const fn by_rank(by_mask: &[u128; 512], rank: &[u8; 512]) -> [u128; 256] {
    let mut out = [0u128; 256];
    let mut m = 0;
    while m < 512 {
        out[rank[m] as usize] |= by_mask[m];
        m += 1;
    }
    out
}

/// For each 9-bit mask, the sets of `sets` that hold it, as bits.
const fn holding<const N: usize>(sets: &[u16; N]) -> [u128; 512] {
    let mut out = [0u128; 512];
    let mut m = 0;
    while m < 512 {
        let mut bit = 0;
        while bit < N {
            if m & !sets[bit] == 0 {
                out[m as usize] |= 1 << bit;
            }
            bit += 1;
        }
        m += 1;
    }
    out
}

/// Nine masks (a unit's cells, or its values' places) padded to 16, so that an index taken from
/// the trailing zeros of a 9-bit set needs no bounds check (`% 16` is one AND).
type Padded = [u16; 16];

/// The k-sets `U` of bits (2 <= `k` <= `max`, `max` <= 3) that hold at least `k` of the items
/// `sel` of `masks`, as bits in the order of [`KSETS23`]: some `k` items have at most `k` bits
/// between them if and only if one is found. Counted for all k-sets at once.
#[inline(always)]
fn crowded23(masks: &Padded, sel: u16, max: u32) -> u128 {
    let n = sel.count_ones();
    if n < 2 {
        return 0;
    }
    if n <= 3 {
        // Two or three items (most calls): a crowded set holds two of them within two bits or
        // all three within three, mostly not, which their unions tell without the counts.
        let item = |set: u16| masks[set.trailing_zeros() as usize % 16];
        let (a, b) = (item(sel), item(sel & (sel - 1)));
        let third = sel & (sel - 1) & (sel & (sel - 1)).wrapping_sub(1);
        if quiet_few(a, b, (n == 3).then(|| item(third)), max) {
            return 0;
        }
        // Otherwise the pairs crowded are those holding two of them, the triples those
        // holding all three: the rows of their unions.
        let pairs = holding_of::<false>(a | b);
        if n == 2 {
            return pairs & PAIRS;
        }
        let c = item(third);
        let pairs = pairs | holding_of::<false>(a | c) | holding_of::<false>(b | c);
        let triples = if max < 3 {
            0
        } else {
            holding_of::<false>(a | b | c)
        };
        return pairs & PAIRS | triples & TRIPLES;
    }
    let mut rest = sel;
    if max < 3 {
        // Pairs only: the low half of the table.
        let held = ones(rest).map(|k| holding_of::<false>(masks[k % 16]) as u64);
        return u128::from(once_and_twice(held).twice) & PAIRS;
    }
    if n == 4 {
        // Likewise four items: the pairs holding two of them, the triples holding three.
        let mut m = [0u16; 4];
        for x in &mut m {
            *x = masks[rest.trailing_zeros() as usize % 16];
            rest &= rest.wrapping_sub(1);
        }
        let [a, b, c, d] = m;
        let h = holding_of::<false>;
        let pairs = h(a | b) | h(a | c) | h(a | d) | h(b | c) | h(b | d) | h(c | d);
        let triples = h(a | b | c) | h(a | b | d) | h(a | c | d) | h(b | c | d);
        return pairs & PAIRS | triples & TRIPLES;
    }
    let mut c = [[0u64; 2]; 3];
    for k in ones(rest) {
        count_up(&mut c, holding_of::<false>(masks[k % 16]));
    }
    let [_, c2, c3] = c.map(|[lo, hi]| u128::from(hi) << 64 | u128::from(lo));
    c2 & PAIRS | c3 & TRIPLES
}

/// Whether no k-set (2 <= k <= `max`) holds k of the two items `a`, `b` or the three with `c`:
/// no two within two bits, nor (with `max` >= 3) all three within three.
#[inline(always)]
fn quiet_few(a: u16, b: u16, c: Option<u16>, max: u32) -> bool {
    (a | b).count_ones() > 2
        && c.map_or(true, |c| {
            (a | c).count_ones() > 2
                && (b | c).count_ones() > 2
                && (max < 3 || (a | b | c).count_ones() > 3)
        })
}

/// Adds the sets of `t` to the bit-sliced counts `c` (`c[i]`: the sets held more than `i`
/// times), as two 64-bit lanes: cheaper than on `u128`, whose carries and shifts the counts do
/// not need.
#[inline(always)]
fn count_up<const N: usize>(c: &mut [[u64; 2]; N], t: u128) {
    let t = [t as u64, (t >> 64) as u64];
    for i in (1..N).rev() {
        for h in 0..2 {
            c[i][h] |= c[i - 1][h] & t[h];
        }
    }
    for h in 0..2 {
        c[0][h] |= t[h];
    }
}

/// [`crowded23`] for quads ([`KSETS4`]).
#[inline(always)]
fn crowded4(masks: &Padded, sel: u16) -> u128 {
    let n = sel.count_ones();
    if n < 4 {
        return 0;
    }
    if n <= 5 {
        // Four or five items (most calls, mostly none crowded): a crowded quad holds all four,
        // or all five but one, whose unions tell without the counts. Leaving out an item
        // takes from the union of all the bits only it holds.
        let tally = once_and_twice(ones(sel).map(|k| masks[k % 16]));
        let all = tally.any.count_ones();
        let only = tally.once();
        let mut quiet = all > 4;
        if n == 5 {
            for k in ones(sel) {
                quiet &= all - (masks[k % 16] & only).count_ones() > 4;
            }
        }
        if quiet {
            return 0;
        }
    }
    let mut c = [[0u64; 2]; 4];
    for k in ones(sel) {
        count_up(&mut c, holding_of::<true>(masks[k % 16]));
    }
    u128::from(c[3][1]) << 64 | u128::from(c[3][0])
}

/// Whether some crowded k-set (bits of `crowded`, listed by `sets`) may make the search act:
/// it holds more than `k` elements of `scope` in `masks`, or meets one without holding it, or
/// meets `missing` (bits in no element of `scope`). Otherwise every `k` items with at most `k`
/// bits between them hold exactly such a set, which no other element meets: nothing to remove
/// and no contradiction (a union of fewer than `k` bits would leave some crowded set that
/// holds it with a bit that is missing, or in another element).
#[inline(never)]
fn may_act(masks: &Padded, scope: u16, missing: u16, crowded: u128, sets: &[u16; 128]) -> bool {
    // The elements outside `scope` as a bit no set holds, so that every set looks at all
    // sixteen lanes at once (vectorized).
    let mut lanes = [0u16; 16];
    for (k, (l, &m)) in lanes.iter_mut().zip(masks).enumerate() {
        *l = if scope >> k & 1 != 0 { m } else { 0x8000 };
    }
    for set in ones(crowded) {
        let u = sets[set % 128];
        if u & missing != 0 {
            return true;
        }
        let (mut inside, mut partial) = (0u16, 0u16);
        for &m in &lanes {
            inside += u16::from(m & !u == 0);
            partial |= m & u & 0u16.wrapping_sub(u16::from(m & !u != 0));
        }
        if partial != 0 || u32::from(inside) > u.count_ones() {
            return true;
        }
    }
    false
}

/// The places of the values of a unit, as [`transpose`] finds them: byte `d` of `low` holds
/// those of value `d` (0..8) among cells 0..8, bit `d` of `cell8` whether cell 8 holds value
/// `d`, and `value8` the places of value 8.
#[derive(Clone, Copy)]
struct Places {
    low: u64,
    cell8: u16,
    value8: u16,
}

impl Places {
    /// The places of each value.
    #[inline]
    fn array(self) -> Padded {
        // Four bytes of `low` into four 16-bit lanes, bit d of `cell8` (d < 4) to the top of
        // lane d (15 d + 8 up: no two products meet).
        let lanes = |bytes: u64, cell8: u16| {
            let x = (bytes | bytes << 16) & 0x0000_ffff_0000_ffff;
            let x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
            let top = u64::from(cell8 & 0xf).wrapping_mul(1 << 8 | 1 << 23 | 1 << 38 | 1 << 53);
            x | top & 0x0100_0100_0100_0100
        };
        let halves = [
            lanes(self.low & 0xffff_ffff, self.cell8),
            lanes(self.low >> 32, self.cell8 >> 4),
        ];
        let mut out = [0u16; 16];
        for (d, p) in out[..8].iter_mut().enumerate() {
            *p = (halves[d / 4] >> (16 * (d % 4))) as u16;
        }
        out[8] = self.value8;
        out
    }
}

/// The values with at most `max` (0..=4) places among the nine cells of the unit of `key`:
/// counted bit-sliced on three lanes of three fields at once, cheaper than [`transpose`], which
/// a unit with fewer than two such values does without.
#[inline(always)]
fn few_places(key: u128, max: u32) -> u16 {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    let three = (1u64 << 30) - 1;
    let (a, b, c) = (lo & three, lo >> 30 & three, hi & three);
    let maj = |a: u64, b: u64, c: u64| a & b | c & (a ^ b);
    // Per lane: ones and twos.
    let (s, k) = (a ^ b ^ c, maj(a, b, c));
    // The lanes added: ones, twos (two of them), fours (two of them).
    let ones = s ^ s >> 10 ^ s >> 20;
    let (twos, fours) = (maj(s, s >> 10, s >> 20), maj(k, k >> 10, k >> 20));
    let t = k ^ k >> 10 ^ k >> 20;
    let (c1, c2, c4) = (ones, twos ^ t, fours ^ (twos & t));
    let c8 = fours & twos & t;
    let over = match max {
        0 => c1 | c2 | c4 | c8,
        1 => c2 | c4 | c8,
        2 => c4 | c8 | c1 & c2,
        3 => c4 | c8,
        _ => c8 | c4 & (c2 | c1),
    };
    !(over as u16) & 0x1ff
}

/// The places of each value among the nine cells of the unit of `key` (a bit-matrix
/// transpose).
#[inline]
fn transpose(key: u128) -> Places {
    let (low, high) = (key as u64, (key >> 64) as u64);
    // The low eight bits of cells 0..8 as bytes, fields 10 bits apart brought 8 apart.
    const EVEN: u64 = 0xff | 0xff << 20 | 0xff << 40;
    let x = low & EVEN | (low >> 2) & (EVEN << 8);
    let x = x & 0xffff | (x >> 4) & (0xffff << 16) | (x >> 8) & (0xffff << 32);
    let lo = x | (high & 0xff) << 48 | (high >> 10 & 0xff) << 56;
    // Cells 0..8 and values 0..8 as an 8x8 matrix of bytes, transposed.
    let lo = transpose8(lo);
    Places {
        low: lo,
        cell8: (high >> 20) as u16 & 0x1ff,
        value8: places_of(key, 8),
    }
}

/// The places of value `d` among the nine cells of the unit of `key`: for a few values,
/// cheaper than [`transpose`].
#[inline(always)]
fn places_of(key: u128, d: u32) -> u16 {
    let (low, high) = (key as u64 >> d, (key >> 64) as u64 >> d);
    // Bit 10 i to bit 64 - n + i for the n fields of each half (the other products land
    // below, or above 64).
    let ones = |n: u32| (0..n).fold(0u64, |a, i| a | 1 << (10 * i));
    let gather = |n: u32| (0..n).fold(0u64, |a, j| a | 1 << (64 - n - 9 * j));
    let cells_0_6 = (low & ones(6)).wrapping_mul(gather(6)) >> 58;
    let cells_6_9 = (high & ones(3)).wrapping_mul(gather(3)) >> 61;
    (cells_0_6 | cells_6_9 << 6) as u16
}

/// Whether [`apply_masks`] in the fast reading surely changes nothing and finds no
/// contradiction in `masks` (whose [key](key_of) is `key`): on each side, no k-set is
/// [crowded](crowded23), or none [may act](may_act). `false` when the search may act. Out of
/// line: it runs on look-up misses only, and inlined it makes [`apply_fast`]'s loop dearer.
#[inline(never)]
fn surely_none(wide: &Padded, key: u128) -> bool {
    let open = open_cells(key);
    let n_open = open.count_ones() as usize;
    if n_open < 3 {
        return true;
    }
    // Naked: items are the open cells with few values.
    let want = FAST_NAKED[n_open];
    if want.max >= 2 {
        let small = open & !cells_over(key, want.max);
        // The values in no open cell, wanted only once some k-set is crowded.
        let missing = || !values_in(key, true) & 0x1ff;
        // Cells of four values are in no pair or triple: fewer items to count, often two or
        // three, which their unions answer.
        let small23 = if want.max >= 4 {
            open & !cells_over(key, 3)
        } else {
            small
        };
        let crowded = crowded23(wide, small23, want.max);
        if crowded != 0 && may_act(wide, open, missing(), crowded, &PADDED23) {
            return false;
        }
        if want.max >= 4 {
            let crowded = crowded4(wide, small);
            if crowded != 0 && may_act(wide, open, missing(), crowded, &PADDED4) {
                return false;
            }
        }
    }
    // Hidden: items are the unsolved values with few places, all in open cells (a solved cell
    // holds only its solved value). Values without a place count as items here (the search
    // leaves them out), which can only answer `false`.
    let want = FAST_HIDDEN[n_open];
    if want.max < 2 {
        return true;
    }
    let solved_values = values_in(key, false);
    let unsolved = !solved_values & 0x1ff;
    let small = few_places(key, want.max) & unsolved;
    // Fewer than two items: nothing crowded, without the places.
    if small & small.wrapping_sub(1) == 0 {
        return true;
    }
    // Two or three items (most units): no quad, and no crowded pair or triple (among them
    // or the fewer of three places) as their unions tell, without the transpose.
    let rest = small & (small - 1);
    let third = rest & (rest - 1);
    if third & third.wrapping_sub(1) == 0 {
        let item = |set: u16| places_of(key, set.trailing_zeros());
        let (a, b) = (item(small), item(rest));
        if quiet_few(a, b, (third != 0).then(|| item(third)), want.max) {
            return true;
        }
    }
    // Likewise values of four places.
    let small23 = if want.max >= 4 {
        few_places(key, 3) & unsolved
    } else {
        small
    };
    let places = transpose(key).array();
    let crowded = crowded23(&places, small23, want.max);
    let crowded4 = if want.max >= 4 {
        crowded4(&places, small)
    } else {
        0
    };
    if crowded | crowded4 == 0 {
        return true;
    }
    // A solved value left in an open cell could be removed: not looked at here.
    if values_in(key, true) & solved_values != 0 {
        return false;
    }
    let missing = !open & 0x1ff;
    // Each side called only when crowded: the call and its lanes are dear beside the test.
    !(crowded != 0 && may_act(&places, unsolved, missing, crowded, &PADDED23)
        || crowded4 != 0 && may_act(&places, unsolved, missing, crowded4, &PADDED4))
}

/// [`apply_unit`] on the unit's masks (the first nine of `masks`), read already; `fast` is
/// `Some` of their [key](key_of) in the fast reading, whose open cells and solved values then
/// come from the key, all fields at once.
fn apply_masks(
    s: &mut State,
    unit: Unit,
    fast: Option<u128>,
    naked: &[Sizes; 10],
    hidden: &[Sizes; 10],
    stats: &mut Stats,
    masks: &[u16],
) -> Step {
    let masks: [u16; 9] = std::array::from_fn(|k| masks[k]);
    let wide: Padded = std::array::from_fn(|k| if k < 9 { masks[k % 9] } else { 0 });
    let cells = unit.cells();
    // The cells and values the search is over: the open ones (fast), or all of them.
    let (scope, solved_values, n_open) = if let Some(key) = fast {
        let open = open_cells(key);
        let n_open = open.count_ones() as usize;
        if n_open < 3 {
            return Ok(false);
        }
        (open, values_in(key, false), n_open)
    } else {
        (0x1ff, 0, 9)
    };

    // Naked subsets: k cells with k values between them; the values leave the unit's other
    // cells (of the scope: with `fast`, solved cells hold none of them).
    let want = naked[n_open];
    let small = small_cells(&masks, scope, want.max);
    if want.max >= 2 && small.count_ones() >= 2 {
        let mut items = [(0u16, 0u16); 16];
        let n = items_of(&wide, small, &mut items);
        let found = find(&items[..n], want, |chosen, values, k| {
            if values.count_ones() < k {
                return Err(Contradiction::TooFewValues {
                    unit,
                    cells: k as u8,
                    values: values.count_ones() as u8,
                });
            }
            let mut removed = false;
            for k in ones(scope & !chosen) {
                let i = cells[k].index();
                let m = s.cells[i];
                if m & values != 0 {
                    s.set(i, m & !values)?;
                    removed = true;
                }
            }
            Ok(removed)
        })?;
        if let Some(k) = found {
            stats.bump(NAKED[k as usize - 2]);
            return Ok(true);
        }
    }

    // Hidden subsets: k values confined to k cells; those cells lose their other values.
    let want = hidden[n_open];
    if want.max < 2 {
        return Ok(false);
    }
    let eligible = at_most(&masks, scope, want.max) & !solved_values & 0x1ff;
    if eligible.count_ones() < 2 {
        return Ok(false);
    }
    // A value without a place is a contradiction the unit checks report; it is left out.
    let mut places: Padded = [0; 16];
    let mut values = 0u16;
    for d in ones(eligible) {
        let mut p = 0u16;
        for (k, &m) in masks.iter().enumerate() {
            p |= ((m >> d) & 1) << k;
        }
        places[d % 16] = p & scope;
        values |= u16::from(p & scope != 0) << d;
    }
    // Items are (places, value bit).
    let mut items = [(0u16, 0u16); 16];
    let count = items_of(&places, values, &mut items);
    let found = find(&items[..count], want, |digits, positions, k| {
        if positions.count_ones() < k {
            return Err(Contradiction::TooFewPlaces {
                unit,
                values: k as u8,
                places: positions.count_ones() as u8,
            });
        }
        let mut removed = false;
        for k in ones(positions) {
            let i = cells[k].index();
            let m = s.cells[i];
            if m & !digits != 0 {
                s.set(i, m & digits)?;
                removed = true;
            }
        }
        Ok(removed)
    })?;
    if let Some(k) = found {
        stats.bump(HIDDEN[k as usize - 2]);
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::propagate::{propagate, tests::grid, Outcome, ALL_UNITS};

    /// `masks`, padded.
    fn padded(masks: &[u16; 9]) -> Padded {
        let mut out = [0u16; 16];
        out[..9].copy_from_slice(masks);
        out
    }

    /// One subset pass of the default profile over every unit of `g`, with `table`.
    fn one_pass(mut g: Grid, table: &mut Table) -> (Grid, Stats, Step) {
        let mut stats = Stats::default();
        let mut s = State::in_place(&mut g);
        let step = apply_fast(&mut s, ALL_UNITS, table, &mut [0; 32], &mut stats);
        (g, stats, step)
    }

    /// One pass gives the same grid and counts whatever the table holds, so long as it holds
    /// only units without a subset: looking every unit up first must not skip a unit that a
    /// subset found earlier in the pass changed.
    #[test]
    fn a_pass_does_not_depend_on_what_the_table_holds() {
        let corpora = [
            include_str!("../../tests/data/forum-hardest-1106.txt"),
            include_str!("../../tests/data/top95.txt"),
            include_str!("../../tests/data/tarek-pearly6000-every240.txt"),
        ];
        let (mut passes, mut found) = (0, 0);
        for line in corpora.iter().flat_map(|c| c.lines()) {
            let mut g = grid(line);
            // Singles done, subsets still to find.
            if propagate(&mut g, &Profile::SINGLES) != Outcome::Open {
                continue;
            }
            let mut cold = Box::new([u128::MAX; NO_SUBSET_LEN]);
            let expected = one_pass(g, &mut cold);
            // Every unit that holds no subset as it stands, known in advance.
            let mut warm = Box::new([u128::MAX; NO_SUBSET_LEN]);
            for unit in Unit::all() {
                let mut copy = g;
                let mut s = State::in_place(&mut copy);
                let masks = unit_masks(&s, unit);
                let (key, slot) = key_of(&masks);
                let mut stats = Stats::default();
                if let Ok(false) = apply_masks(
                    &mut s,
                    unit,
                    Some(key),
                    &FAST_NAKED,
                    &FAST_HIDDEN,
                    &mut stats,
                    &masks,
                ) {
                    remember(&mut warm, slot, key);
                }
            }
            let got = one_pass(g, &mut warm);
            assert_eq!(got.0, expected.0, "{line}");
            assert_eq!(got.1, expected.1, "{line}");
            assert_eq!(got.2, expected.2, "{line}");
            passes += 1;
            found += usize::from(expected.2 == Ok(true));
        }
        assert!(
            passes > 100 && found > 50,
            "{passes} passes, {found} with a subset"
        );
    }

    /// When `surely_none` says so, the fast reading's search finds nothing: no removal, no
    /// contradiction; and it says so for most random units, and not for all.
    #[test]
    fn surely_none_is_never_wrong() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next();
        let (mut none, mut maybe) = (0, 0);
        for round in 0..200_000 {
            let mut masks = [0u16; 9];
            // Few values per cell, from a few of the nine, sometimes solved.
            let pool = (next() | next()) as u16 & 0x1ff;
            for m in masks.iter_mut() {
                let r = next();
                let bits = (r as u16 | (r >> 9) as u16 & (r >> 18) as u16) & pool;
                *m = if r >> 40 & 7 == 0 || bits == 0 {
                    1 << ((r >> 50) % 9)
                } else {
                    bits
                };
            }
            if round % 3 != 0 {
                // Clean: solved values out of the open cells.
                let solved = masks
                    .iter()
                    .filter(|m| m.count_ones() == 1)
                    .fold(0, |a, &m| a | m);
                for m in masks.iter_mut().filter(|m| m.count_ones() > 1) {
                    *m &= !solved;
                }
            }
            if round % 3 == 2 {
                // A locked set: k cells within k values, which the others lack.
                let r = next();
                let k = 2 + (r % 3) as usize;
                let mut values = 0u16;
                while (values.count_ones() as usize) < k {
                    values |= 1 << (next() % 9);
                }
                let start = (r >> 8) as usize % 9;
                for (j, m) in masks.iter_mut().enumerate() {
                    if m.count_ones() == 1 {
                        continue;
                    }
                    if (j + 9 - start) % 9 < k {
                        let sub = values & (next() as u16 | next() as u16);
                        *m = if sub.count_ones() >= 2 { sub } else { values };
                    } else if *m & !values != 0 {
                        *m &= !values;
                    }
                }
            }
            let unit = Unit::new(round % 27).unwrap_or(Unit::new(0).unwrap());
            let mut g = Grid::empty();
            for (&m, c) in masks.iter().zip(unit.cells()) {
                g.cells_mut()[c.index()] = crate::grid::Candidates::from_bits(m);
            }
            let before = g;
            let mut s = State::in_place(&mut g);
            let mut stats = Stats::default();
            let got = apply_masks(
                &mut s,
                unit,
                Some(key_of(&masks).0),
                &FAST_NAKED,
                &FAST_HIDDEN,
                &mut stats,
                &masks,
            );
            if surely_none(&padded(&masks), key_of(&masks).0) {
                assert_eq!(got, Ok(false), "{masks:?}");
                assert_eq!(stats, Stats::default(), "{masks:?}");
                assert_eq!(g, before, "{masks:?}");
                none += 1;
            } else {
                maybe += 1;
            }
        }
        assert!(
            none > 10_000 && maybe > 10_000,
            "{none} none, {maybe} maybe"
        );
    }

    /// `open_cells` and `cells_over` read the key as a loop over the masks does, empty masks
    /// included, `masks_of` gives the masks back, and `values_in` the values of the open cells
    /// and of the others.
    #[test]
    fn open_cells_match_a_loop_over_the_masks() {
        let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..100_000 {
            let mut masks = [0u16; 9];
            for m in masks.iter_mut() {
                let x = rng.next();
                *m = match x >> 60 {
                    0 => 0,
                    1..=4 => 1 << ((x >> 20) % 9),
                    _ => x as u16 & 0x1ff,
                };
            }
            let (mut open, mut solved, mut values) = (0u16, 0u16, 0u16);
            for (k, &m) in masks.iter().enumerate() {
                if m.count_ones() > 1 {
                    open |= 1 << k;
                    values |= m;
                } else {
                    solved |= m;
                }
            }
            let key = key_of(&masks).0;
            assert_eq!(open_cells(key), open, "{masks:?}");
            assert_eq!(masks_of(key), padded(&masks), "{masks:?}");
            for k in 0..=4 {
                let small = small_cells(&masks, 0x1ff, k);
                assert_eq!(cells_over(key, k), !small & 0x1ff, "{masks:?} {k}");
            }
            assert_eq!(values_in(key, true), values, "{masks:?}");
            assert_eq!(values_in(key, false), solved, "{masks:?}");
        }
    }

    /// The compact tables give, for every mask, exactly the k-sets that hold it.
    #[test]
    fn holding_of_matches_a_scan_of_the_sets() {
        for m in 0..512u16 {
            let scan = |sets: &[u16]| {
                (sets.iter().enumerate()).fold(0u128, |a, (k, &s)| a | u128::from(m & !s == 0) << k)
            };
            assert_eq!(holding_of::<false>(m), scan(&KSETS23), "{m:#b}");
            assert_eq!(holding_of::<true>(m), scan(&KSETS4), "{m:#b}");
        }
    }

    /// `crowded23` finds exactly the pairs, and with `max` 3 the triples, that hold as many of
    /// the chosen items as they have bits, however few items there are.
    #[test]
    fn crowded23_counts_the_items_inside_every_set() {
        let mut rng = crate::testing::XorShift(0x5851_f42d_4c95_7f2d);
        for _ in 0..200_000 {
            let mut masks = [0u16; 16];
            let pool = rng.next() as u16 & 0x1ff | 0x7;
            for m in masks[..9].iter_mut() {
                let x = rng.next();
                *m = (x as u16 & (x >> 9) as u16 | 1 << ((x >> 20) % 9)) & pool;
            }
            let sel = rng.next() as u16 & 0x1ff;
            let max = 2 + (rng.next() % 2) as u32;
            let mut want = 0u128;
            for (bit, &u) in KSETS23.iter().enumerate() {
                let k = u.count_ones();
                let inside = (0..9)
                    .filter(|&j| sel >> j & 1 != 0 && masks[j] & !u == 0)
                    .count() as u32;
                if k <= max && inside >= k {
                    want |= 1 << bit;
                }
            }
            assert_eq!(
                crowded23(&masks, sel, max),
                want,
                "{masks:?} {sel:#x} {max}"
            );
        }
    }

    /// `transpose` and `places_of` give the places of each value, and `few_places` counts them
    /// as `small_cells` does.
    #[test]
    fn transpose_gives_the_places() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        for _ in 0..100_000 {
            let mut masks = [0u16; 9];
            for m in masks.iter_mut() {
                *m = rng.next() as u16 & 0x1ff;
            }
            let mut places = [0u16; 9];
            for (d, p) in places.iter_mut().enumerate() {
                for (k, &m) in masks.iter().enumerate() {
                    *p |= (m >> d & 1) << k;
                }
            }
            let got = transpose(key_of(&masks).0);
            assert_eq!(got.array()[..9], places, "{masks:?}");
            for (d, &p) in places.iter().enumerate() {
                assert_eq!(places_of(key_of(&masks).0, d as u32), p, "{masks:?} {d}");
            }
            for max in 0..=4 {
                let want = small_cells(&places, 0x1ff, max);
                assert_eq!(few_places(key_of(&masks).0, max), want, "{masks:?} {max}");
            }
        }
    }

    /// The fast reading's constant tables are the sizes the default profile asks for, up to half
    /// of the open cells (naked) and half of the others (hidden).
    #[test]
    fn fast_sizes_are_the_default_profiles_up_to_half() {
        let p = Profile::DEFAULT;
        for n in 0..10u32 {
            assert_eq!(FAST_NAKED[n as usize], Sizes::new(&NAKED, &p, n / 2), "{n}");
            let hidden = Sizes::new(&HIDDEN, &p, n.saturating_sub(1) / 2);
            assert_eq!(FAST_HIDDEN[n as usize], hidden, "{n}");
        }
    }
}
