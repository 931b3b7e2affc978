//! Canonical forms of puzzles (§11): the "minlex" form, the lexicographically smallest of all
//! isomorphs of a puzzle, and the symmetry that maps the puzzle to it.
//!
//! The isomorphs of a puzzle are its images under the 3,359,232 geometric symmetries of §7.3
//! (an optional transposition, then permutations of the bands, of the rows inside each band, of
//! the stacks and of the columns inside each stack), each followed by the relabelling of digits
//! that names them in order of first appearance (the smallest labelling for that geometry). An
//! isomorph is written as 81 digits with `0` for an empty cell, so a form with more empty cells
//! early sorts first.
//!
//! # How the search prunes
//!
//! The form is built a row at a time. A *candidate* is a partial transformation that produced
//! the best prefix so far: the orientation, the source rows chosen for the rows built, and the
//! column order as an ordered partition (columns that no row built so far tells apart are kept
//! as an unordered group instead of being enumerated, and so are whole stacks):
//!
//! ```text
//!   slot 0      slot 1      slot 2        slots: the stacks of the form, left to right
//! [c3 c5|c4] ~ [c0 c1 c2] | [c7|c6|c8]    `|` breaks a group; `~` ties two stacks
//! ```
//!
//! For the next row, every candidate tries every source row the band structure allows; the
//! row's best arrangement under that candidate sorts each group (empty cells first, then digits
//! already labelled by their label, then new digits) and then the tied stacks by their three
//! cells. Only the (candidate, row) pairs whose row equals the smallest are kept. New digits in
//! one group (or in tied stacks that read the same) get their labels from their order, so such
//! a group is split into every order of its columns; all other groups are refined in place.
//! Every kept candidate reaches the same form; the first gives the symmetry.
//!
//! The input's rows and columns must not repeat a digit (a valid puzzle): the row comparison
//! relies on every new digit of a row being a different one.

use crate::format::check_givens;
use crate::grid::Grid;
use serde::Serialize;
use std::fmt;

/// Whether a symmetry mirrors the grid in its main diagonal before permuting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Rows stay rows.
    AsGiven,
    /// Rows become columns first.
    Transposed,
}

/// One of the 3,359,232 geometric symmetries of the grid combined with a relabelling of the
/// digits (§7.3).
///
/// Applied to a grid `g`, it first transposes `g` if its [`Orientation`] says so, then builds
/// the image cell by cell: the cell in row `r`, column `c` of the image is the cell in row
/// `rows[r]`, column `columns[c]` of (the transposed) `g`, its digit `d` renamed
/// `digits[d - 1]`. Rows keep their bands and columns their stacks (`rows[0..3]` come from one
/// band, and so on); indices are 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    orientation: Orientation,
    rows: [u8; 9],
    columns: [u8; 9],
    digits: [u8; 9],
}

/// Why [`Symmetry::new`] refused its parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SymmetryError {
    /// The rows are not a permutation that keeps bands whole.
    #[error("rows {0:?} are not a permutation of 0..9 that keeps each band together")]
    Rows([u8; 9]),
    /// The columns are not a permutation that keeps stacks whole.
    #[error("columns {0:?} are not a permutation of 0..9 that keeps each stack together")]
    Columns([u8; 9]),
    /// The digits are not a permutation of 1..=9.
    #[error("digits {0:?} are not a permutation of 1..=9")]
    Digits([u8; 9]),
}

/// Whether `p` is a permutation of 0..9 whose groups of three come each from one group of three.
fn keeps_groups(p: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for (i, &x) in p.iter().enumerate() {
        if x > 8 || seen & 1 << x != 0 || x / 3 != p[i / 3 * 3] / 3 {
            return false;
        }
        seen |= 1 << x;
    }
    true
}

/// The inverse of a permutation of 0..9.
fn invert(p: &[u8; 9]) -> [u8; 9] {
    let mut out = [0; 9];
    for (i, &x) in p.iter().enumerate() {
        out[usize::from(x)] = i as u8;
    }
    out
}

impl Symmetry {
    /// Builds a symmetry from its parts (see the type's documentation for their meaning).
    ///
    /// # Errors
    ///
    /// When `rows` or `columns` is not a permutation of 0..9 keeping bands (stacks) together,
    /// or `digits` is not a permutation of 1..=9.
    pub fn new(
        orientation: Orientation,
        rows: [u8; 9],
        columns: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Symmetry, SymmetryError> {
        if !keeps_groups(&rows) {
            return Err(SymmetryError::Rows(rows));
        }
        if !keeps_groups(&columns) {
            return Err(SymmetryError::Columns(columns));
        }
        let mut seen = 0u16;
        for &d in &digits {
            if !(1..=9).contains(&d) || seen & 1 << d != 0 {
                return Err(SymmetryError::Digits(digits));
            }
            seen |= 1 << d;
        }
        Ok(Symmetry {
            orientation,
            rows,
            columns,
            digits,
        })
    }

    /// The symmetry that changes nothing.
    pub const fn identity() -> Symmetry {
        Symmetry {
            orientation: Orientation::AsGiven,
            rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            columns: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            digits: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        }
    }

    /// Whether the grid is transposed first.
    pub const fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// `rows()[r]`: the row (0-based, after the transposition) that becomes row `r`.
    pub const fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// `columns()[c]`: the column (0-based, after the transposition) that becomes column `c`.
    pub const fn columns(&self) -> [u8; 9] {
        self.columns
    }

    /// `digits()[d - 1]`: the new name of digit `d`.
    pub const fn digits(&self) -> [u8; 9] {
        self.digits
    }

    /// The image of `cells` (row-major, `0` for an empty cell, digits 1-9; other values are
    /// read as empty).
    pub fn apply(&self, cells: &[u8; 81]) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.columns.iter().enumerate() {
                let (sr, sc) = (usize::from(sr), usize::from(sc));
                let source = match self.orientation {
                    Orientation::AsGiven => cells[sr * 9 + sc],
                    Orientation::Transposed => cells[sc * 9 + sr],
                };
                out[r * 9 + c] = match source {
                    1..=9 => self.digits[usize::from(source - 1)],
                    _ => 0,
                };
            }
        }
        out
    }

    /// The image of a candidate grid (each cell's candidates renamed and moved).
    pub fn apply_grid(&self, grid: &Grid) -> Grid {
        let mut map = [crate::grid::Digit::from_index(0); 9];
        for (i, &d) in self.digits.iter().enumerate() {
            map[i] = crate::grid::Digit::from_index(usize::from(d - 1));
        }
        let source = match self.orientation {
            Orientation::AsGiven => grid.relabel(&map),
            Orientation::Transposed => grid.transpose().relabel(&map),
        };
        let mut out = source;
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.columns.iter().enumerate() {
                let to = crate::grid::Cell::from_row_col(r, c);
                let from = crate::grid::Cell::from_row_col(usize::from(sr), usize::from(sc));
                out.set(to, source.get(from));
            }
        }
        out
    }

    /// The symmetry that undoes this one: `s.inverse().apply(&s.apply(g)) == g`.
    pub fn inverse(&self) -> Symmetry {
        let (rows, columns) = match self.orientation {
            Orientation::AsGiven => (invert(&self.rows), invert(&self.columns)),
            // Undoing "transpose, then permute" is "transpose, then permute rows by the
            // inverse column permutation and columns by the inverse row permutation".
            Orientation::Transposed => (invert(&self.columns), invert(&self.rows)),
        };
        let mut digits = [0u8; 9];
        for (i, &d) in self.digits.iter().enumerate() {
            digits[usize::from(d - 1)] = i as u8 + 1;
        }
        Symmetry {
            orientation: self.orientation,
            rows,
            columns,
            digits,
        }
    }
}

impl fmt::Display for Symmetry {
    /// `transposed rows 213456789 columns BACDEFGHI digits 123456789`: 1-based source rows,
    /// source column letters, and the new names of digits 1 to 9 (`as-given` when not
    /// transposed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.orientation {
            Orientation::AsGiven => "as-given rows ",
            Orientation::Transposed => "transposed rows ",
        })?;
        for &r in &self.rows {
            write!(f, "{}", r + 1)?;
        }
        f.write_str(" columns ")?;
        for &c in &self.columns {
            write!(f, "{}", char::from(b'A' + c))?;
        }
        f.write_str(" digits ")?;
        for &d in &self.digits {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A puzzle's canonical form and how to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Canonical {
    /// The minlex isomorph, row-major, `0` for an empty cell.
    pub form: [u8; 81],
    /// A symmetry that maps the input to `form` (when the puzzle has automorphisms, one of
    /// several).
    pub symmetry: Symmetry,
}

impl Canonical {
    /// The form as 81 characters, `0` for an empty cell.
    pub fn to_line(&self) -> String {
        self.form.iter().map(|&d| char::from(b'0' + d)).collect()
    }
}

/// The givens of a grid as [`canonical`] reads them: the value of each cell with exactly one
/// candidate, `0` for every other cell.
pub fn givens_of(grid: &Grid) -> [u8; 81] {
    let mut out = [0u8; 81];
    for (o, c) in out.iter_mut().zip(grid.cells()) {
        *o = c.single_value().map_or(0, |d| d.get());
    }
    out
}

/// The key of a digit not labelled yet: above every label.
const NEW: u8 = 10;

/// A partial transformation that produced the best prefix of the form so far.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// 0 as given, 1 transposed.
    orientation: u8,
    /// The source rows of the rows built.
    rows: [u8; 9],
    /// Source rows used (bits).
    rows_used: u16,
    /// Source bands used (bits).
    bands_used: u8,
    /// Position → source column; positions `3s..3s + 3` are slot `s`.
    order: [u8; 9],
    /// Per slot: bit 0 separates its positions 0 and 1, bit 1 its positions 1 and 2. Positions
    /// not separated hold columns no row tells apart yet.
    breaks: [u8; 3],
    /// Bit 0: slots 0 and 1 hold interchangeable stacks; bit 1: slots 1 and 2.
    tied: u8,
    /// Source digit → label, [`NEW`] when unlabelled; `key[0] = 0` (empty).
    key: [u8; 10],
}

/// The cells of one row under a candidate, once arranged: keys by position and the slots'
/// source.
struct Arranged {
    keys: [u8; 9],
    order: [u8; 9],
    breaks: [u8; 3],
    /// The packed row (4 bits a cell, first cell highest): smaller is lexicographically smaller.
    packed: u64,
}

impl Candidate {
    /// The best arrangement of source row `values` under this candidate.
    #[inline]
    fn arrange(&self, values: &[u8; 9]) -> Arranged {
        let mut order = self.order;
        let mut keys = [0u8; 9];
        for (k, &c) in keys.iter_mut().zip(&order) {
            *k = self.key[usize::from(values[usize::from(c)])];
        }
        // Sort each group of columns inside its slot (insertion sort that stops at breaks).
        let mut segment = [0u16; 3];
        for (s, (segment, breaks)) in segment.iter_mut().zip(self.breaks).enumerate() {
            let base = 3 * s;
            for i in 1..3 {
                let mut j = i;
                while j > 0 && breaks & 1 << (j - 1) == 0 && keys[base + j - 1] > keys[base + j] {
                    keys.swap(base + j - 1, base + j);
                    order.swap(base + j - 1, base + j);
                    j -= 1;
                }
            }
            *segment = u16::from(keys[base]) << 8
                | u16::from(keys[base + 1]) << 4
                | u16::from(keys[base + 2]);
        }
        // Sort tied slots by their three cells.
        let mut slots = [0usize, 1, 2];
        for i in 1..3 {
            let mut j = i;
            while j > 0 && self.tied & 1 << (j - 1) != 0 && segment[j - 1] > segment[j] {
                segment.swap(j - 1, j);
                slots.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut out = Arranged {
            keys: [0; 9],
            order: [0; 9],
            breaks: [0; 3],
            packed: u64::from(segment[0]) << 24
                | u64::from(segment[1]) << 12
                | u64::from(segment[2]),
        };
        for (to, &from) in slots.iter().enumerate() {
            out.keys[3 * to..3 * to + 3].copy_from_slice(&keys[3 * from..3 * from + 3]);
            out.order[3 * to..3 * to + 3].copy_from_slice(&order[3 * from..3 * from + 3]);
            out.breaks[to] = self.breaks[from];
        }
        out
    }
}

/// The orders of 2 and 3 items.
const ORDERS_2: [[usize; 3]; 2] = [[0, 1, 2], [1, 0, 2]];
const ORDERS_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The orders of `len` (2 or 3) items.
fn orders(len: usize) -> &'static [[usize; 3]] {
    if len == 2 {
        &ORDERS_2
    } else {
        &ORDERS_3
    }
}

/// The search's working lists, reused from row to row.
struct Search {
    /// Both orientations of the puzzle, by row.
    sources: [[[u8; 9]; 9]; 2],
    current: Vec<Candidate>,
    next: Vec<Candidate>,
    /// The (candidate, source row) pairs that gave the best row.
    best: Vec<(u32, u8)>,
}

impl Search {
    fn new(cells: &[u8; 81]) -> Search {
        let mut sources = [[[0u8; 9]; 9]; 2];
        for r in 0..9 {
            for c in 0..9 {
                let v = cells[r * 9 + c];
                let v = if v <= 9 { v } else { 0 };
                sources[0][r][c] = v;
                sources[1][c][r] = v;
            }
        }
        let start = |orientation| Candidate {
            orientation,
            rows: [0; 9],
            rows_used: 0,
            bands_used: 0,
            order: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            breaks: [0; 3],
            tied: 0b11,
            key: [0, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW],
        };
        Search {
            sources,
            current: vec![start(0), start(1)],
            next: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The source rows candidate `c` may place at row `depth`.
    #[inline]
    fn choices(c: &Candidate, depth: usize) -> impl Iterator<Item = u8> {
        let allowed: u16 = if depth % 3 == 0 {
            (0..3)
                .filter(|b| c.bands_used & 1 << b == 0)
                .fold(0, |m, b| m | 0b111 << (3 * b))
        } else {
            0b111 << (3 * (c.rows[depth - 1] / 3)) & !c.rows_used
        };
        (0..9u8).filter(move |r| allowed & 1 << r != 0)
    }

    /// Builds row `depth`: keeps the candidates that give the smallest row.
    fn step(&mut self, depth: usize, next_label: &mut u8) {
        self.best.clear();
        let mut best = u64::MAX;
        for (i, c) in self.current.iter().enumerate() {
            for r in Self::choices(c, depth) {
                let values = &self.sources[usize::from(c.orientation)][usize::from(r)];
                let packed = c.arrange(values).packed;
                if packed < best {
                    best = packed;
                    self.best.clear();
                }
                if packed == best {
                    self.best.push((i as u32, r));
                }
            }
        }
        self.next.clear();
        let mut labels = *next_label;
        for &(i, r) in &self.best {
            let c = self.current[i as usize];
            let values = &self.sources[usize::from(c.orientation)][usize::from(r)];
            labels = refine(&c, r, values, depth, *next_label, &mut self.next);
        }
        *next_label = labels;
        std::mem::swap(&mut self.current, &mut self.next);
    }
}

/// Places source row `r` (cells `values`) at row `depth` of candidate `c`, pushing every
/// refined candidate that reaches the best row; returns the next free label.
fn refine(
    c: &Candidate,
    r: u8,
    values: &[u8; 9],
    depth: usize,
    next_label: u8,
    out: &mut Vec<Candidate>,
) -> u8 {
    let a = c.arrange(values);
    let mut base = *c;
    base.rows[depth] = r;
    base.rows_used |= 1 << r;
    base.bands_used |= 1 << (r / 3);
    base.order = a.order;
    // Column groups: split where the keys differ or where two new digits meet (their order is
    // a choice, made below); remember the runs of new digits.
    let mut runs: [(usize, usize); 9] = [(0, 0); 9];
    let mut run_count = 0;
    for s in 0..3 {
        let mut breaks = a.breaks[s];
        let mut start = 0;
        for j in 1..=3 {
            let at_end = j == 3 || breaks & 1 << (j - 1) != 0;
            let differ = !at_end && a.keys[3 * s + j - 1] != a.keys[3 * s + j];
            if at_end || differ {
                if j - start >= 2 && a.keys[3 * s + start] == NEW {
                    runs[run_count] = (3 * s + start, j - start);
                    run_count += 1;
                }
                start = j;
            }
            if j < 3 && differ {
                breaks |= 1 << (j - 1);
            }
        }
        base.breaks[s] = breaks;
    }
    // Tied stacks: those that now differ, or read the same with new digits in them, are no
    // longer tied (the latter are ordered in every way below).
    let segment = |s: usize| &a.keys[3 * s..3 * s + 3];
    let mut tied = 0u8;
    let mut slot_runs: [(usize, usize); 2] = [(0, 0); 2];
    let mut slot_run_count = 0;
    let mut s = 0;
    while s < 3 {
        let mut e = s + 1;
        while e < 3 && c.tied & 1 << (e - 1) != 0 && segment(e) == segment(s) {
            e += 1;
        }
        if e - s >= 2 {
            if segment(s).contains(&NEW) {
                slot_runs[slot_run_count] = (s, e - s);
                slot_run_count += 1;
            } else {
                for t in s..e - 1 {
                    tied |= 1 << t;
                }
            }
        }
        s = e;
    }
    base.tied = tied;
    // Every order of each run of new digits inside a group, then of each run of tied stacks.
    let first = out.len();
    out.push(base);
    for &(start, len) in &runs[..run_count] {
        let end = out.len();
        for i in first..end {
            let from = out[i];
            for (k, perm) in orders(len).iter().enumerate() {
                let mut x = from;
                for (p, &q) in perm[..len].iter().enumerate() {
                    x.order[start + p] = from.order[start + q];
                }
                for p in start..start + len - 1 {
                    x.breaks[p / 3] |= 1 << (p % 3);
                }
                if k == 0 {
                    out[i] = x;
                } else {
                    out.push(x);
                }
            }
        }
    }
    for &(start, len) in &slot_runs[..slot_run_count] {
        let end = out.len();
        for i in first..end {
            let from = out[i];
            for (k, perm) in orders(len).iter().enumerate() {
                let mut x = from;
                for (p, &q) in perm[..len].iter().enumerate() {
                    let (to, src) = (3 * (start + p), 3 * (start + q));
                    x.order[to..to + 3].copy_from_slice(&from.order[src..src + 3]);
                    x.breaks[start + p] = from.breaks[start + q];
                }
                if k == 0 {
                    out[i] = x;
                } else {
                    out.push(x);
                }
            }
        }
    }
    // Label the new digits left to right.
    let mut label = next_label;
    for x in &mut out[first..] {
        label = next_label;
        for &col in &x.order {
            let d = usize::from(values[usize::from(col)]);
            if d != 0 && x.key[d] == NEW {
                x.key[d] = label;
                label += 1;
            }
        }
    }
    label
}

/// The canonical (minlex) form of a puzzle and a symmetry that maps it there.
///
/// # Arguments
///
/// `cells`: the puzzle row-major, `0` for an empty cell and 1-9 for a given (other values are
/// read as empty); no row or column may repeat a digit (see the module documentation).
///
/// # Returns
///
/// The lexicographically smallest isomorph (written with `0` for empty cells) and a
/// [`Symmetry`] whose [`apply`](Symmetry::apply) turns `cells` into it.
///
/// # Complexity
///
/// A row at a time over the candidates that tie for the best prefix; for a puzzle without
/// automorphisms a few hundred row arrangements. A fully symmetric input (the empty grid, or a
/// solution grid's first row) keeps up to a few thousand candidates a row.
///
/// # Example
///
/// ```
/// let line = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// let mut cells = [0u8; 81];
/// for (c, ch) in cells.iter_mut().zip(line.bytes()) {
///     *c = if ch == b'.' { 0 } else { ch - b'0' };
/// }
/// let canonical = hdp::canon::canonical(&cells);
/// assert_eq!(canonical.symmetry.apply(&cells), canonical.form);
/// assert!(hdp::canon::minlex_string(&cells).starts_with("000000001"));
/// ```
pub fn canonical(cells: &[u8; 81]) -> Canonical {
    let mut search = Search::new(cells);
    let mut next_label = 1u8;
    for depth in 0..9 {
        search.step(depth, &mut next_label);
    }
    // `step` always keeps at least one candidate: every candidate has a row to place.
    let c = search.current.first().copied().unwrap_or(Candidate {
        orientation: 0,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        rows_used: 0,
        bands_used: 0,
        order: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        breaks: [0; 3],
        tied: 0,
        key: [0; 10],
    });
    // Digits absent from the puzzle take the remaining labels in order.
    let mut digits = [0u8; 9];
    for d in 1..=9 {
        if c.key[d] != NEW && c.key[d] != 0 {
            digits[d - 1] = c.key[d];
        } else {
            digits[d - 1] = next_label;
            next_label += 1;
        }
    }
    let symmetry = Symmetry {
        orientation: if c.orientation == 0 {
            Orientation::AsGiven
        } else {
            Orientation::Transposed
        },
        rows: c.rows,
        columns: c.order,
        digits,
    };
    Canonical {
        form: symmetry.apply(cells),
        symmetry,
    }
}

/// The canonical form as 81 characters, `0` for an empty cell (see [`canonical`]).
pub fn minlex_string(cells: &[u8; 81]) -> String {
    canonical(cells).to_line()
}

#[cfg(test)]
mod tests;

/// A symmetry as records write it (`hdp canon --format jsonl`, the Python package): whether the
/// grid is transposed first, then the rows, columns and digit names in their new order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SymmetryRecord {
    /// Transposed before the permutations.
    pub transposed: bool,
    /// The source rows in their new order, `1`-`9`.
    pub rows: String,
    /// The source columns in their new order, `A`-`I`.
    pub columns: String,
    /// The new name of each digit 1-9 (`0` stays `0`).
    pub digits: String,
}

impl From<&Symmetry> for SymmetryRecord {
    fn from(s: &Symmetry) -> SymmetryRecord {
        SymmetryRecord {
            transposed: s.orientation() == Orientation::Transposed,
            rows: s.rows().iter().map(|r| char::from(b'1' + r)).collect(),
            columns: s.columns().iter().map(|c| char::from(b'A' + c)).collect(),
            digits: s.digits().iter().map(|d| char::from(b'0' + d)).collect(),
        }
    }
}

/// The canonical form of a puzzle of givens; the message when `grid` is not one.
pub fn canonical_of_grid(grid: &Grid) -> Result<Canonical, String> {
    if grid.cells().iter().any(|c| c.len() != 1 && c.len() != 9) {
        return Err(
            "a pencil-mark position has no canonical form of givens (only a puzzle of givens \
             has one)"
                .into(),
        );
    }
    check_givens(grid).map_err(|e| e.to_string())?;
    Ok(canonical(&givens_of(grid)))
}
