//! The exact solver: counts the solutions of a candidate grid, up to two (spec §6).
//!
//! A bitboard solver in the style of JCZSolve, fsss2 and tdoku's band approach (written from the
//! ideas, not from their code). For every digit, each band (three rows) is a 27-bit board of the
//! cells where the digit may still go; a second set of boards marks the cells not yet solved.
//! Propagation repeats, until nothing changes:
//!
//! * the *band rule* on a changed digit board: the digit takes one row-in-box triplet per row and
//!   per box of the band, a permutation of the three boxes; triplets used by no permutation are
//!   removed (locked candidates and hidden singles of rows and boxes, in one table look-up). A
//!   row left with one cell places the digit there, clearing the cell from the other digits;
//! * the *stack rule*, the same permutation rule on the columns a digit may use in each band of
//!   a stack: locked candidates and hidden singles of columns, and the column eliminations of
//!   placed digits across bands;
//! * *naked singles*: bitwise counting over the nine digit boards finds the cells with exactly
//!   one digit left (and the cells with none, a contradiction).
//!
//! Each digit is brought to its fixpoint before the next, then naked singles are placed. The
//! search branches on a two-candidate cell with the most unsolved peers (else a cell with the
//! fewest candidates), copying the 264-byte state per branch; it never allocates and stops at
//! the cap (two solutions for [`solve`]; the solutions it keeps for [`solutions_within`] are the
//! only allocation), or at a limit: [`solve_within`] and [`count_within`]
//! take a node budget and an optional deadline ([`SolveLimits`]; a node is one propagation of a
//! branch; the deadline, the only clock the solver reads, is read every [`DEADLINE_EVERY`]
//! nodes). It starts from any candidate grid (pencil marks, HDP contexts), not only givens:
//! single-candidate cells are placed first, and clashing singles or empty cells mean no solution.
//!
//! The `sudoku` crate (a JCZSolve port) was considered and rejected: it reads givens only, and
//! its AGPL-3.0 licence would bind every user of this MIT/Apache crate. Speed is measured in
//! `benches/solver.rs` (see BENCHMARKS.md).

use crate::grid::{Candidates, Cell, Grid};
use std::fmt;
use std::time::Instant;

/// The default node budget of [`SolveLimits`]: over 1000 times the most nodes any puzzle of
/// `../shared/corpora` needs (1,375), so only hostile grids meet it (BENCHMARKS.md has the
/// survey and the time a node takes).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// How often (in nodes) a search with a deadline reads the clock.
pub const DEADLINE_EVERY: u64 = 1024;

/// Limits on one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// The most search nodes (propagations of a branch).
    pub max_nodes: u64,
    /// The moment to give up (read every [`DEADLINE_EVERY`] nodes).
    pub deadline: Option<Instant>,
}

impl Default for SolveLimits {
    /// [`DEFAULT_MAX_NODES`], no deadline.
    fn default() -> Self {
        SolveLimits {
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
        }
    }
}

impl SolveLimits {
    /// The limits of the count before an analysis: the caller's deadline when there is one (the
    /// time the caller allowed, reported as such), else the default node budget.
    pub fn until(deadline: Option<Instant>) -> SolveLimits {
        match deadline {
            Some(_) => SolveLimits {
                max_nodes: u64::MAX,
                deadline,
            },
            None => SolveLimits::default(),
        }
    }

    /// No limit at all (the search of [`solve`] and [`count`]).
    pub const NONE: SolveLimits = SolveLimits {
        max_nodes: u64::MAX,
        deadline: None,
    };
}

/// Why a search stopped before its answer: the answer is unknown, not "no solution".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The node budget ran out.
    Nodes,
    /// The deadline passed.
    Deadline,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Nodes => "the solver's node budget ran out",
            Stop::Deadline => "the time limit passed",
        })
    }
}

/// The solutions of a grid, counted up to two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Grid),
    /// Two or more; the first one found.
    Multiple(Grid),
}

impl Solutions {
    /// 0, 1 or 2 (several).
    pub fn count(&self) -> u8 {
        match self {
            Solutions::None => 0,
            Solutions::Unique(_) => 1,
            Solutions::Multiple(_) => 2,
        }
    }
}

/// Counts the solutions of `grid` (a candidate grid), up to two, without a limit: a hostile
/// candidate grid can take long (see [`solve_within`]).
pub fn solve(grid: &Grid) -> Solutions {
    match solve_within(grid, SolveLimits::NONE) {
        Ok(s) => s,
        // Unreachable without limits; "several" would be as wrong as "none".
        Err(_) => Solutions::None,
    }
}

/// Counts the solutions of `grid` (a candidate grid), up to two, within `limits`.
pub fn solve_within(grid: &Grid, limits: SolveLimits) -> Result<Solutions, Stop> {
    let search = search(grid, 2, 1, limits);
    if let Some(stop) = search.stopped {
        return Err(stop);
    }
    Ok(match (search.found, search.kept.into_iter().next()) {
        (1, Some(s)) => Solutions::Unique(s),
        (n, Some(s)) if n > 1 => Solutions::Multiple(s),
        _ => Solutions::None,
    })
}

/// The first `cap` solutions of `grid` (a candidate grid) in the search's order, within
/// `limits`: fewer when it has fewer. A limit reached first gives [`Stop`], never a partial list
/// passed off as complete.
pub fn solutions_within(grid: &Grid, cap: usize, limits: SolveLimits) -> Result<Vec<Grid>, Stop> {
    let search = search(grid, cap, cap, limits);
    match search.stopped {
        Some(stop) => Err(stop),
        None => Ok(search.kept),
    }
}

/// Counts the solutions of `grid` (a candidate grid), stopping at `cap`, without a limit.
pub fn count(grid: &Grid, cap: usize) -> usize {
    search(grid, cap, 0, SolveLimits::NONE).found
}

/// Counts the solutions of `grid` (a candidate grid), stopping at `cap`, within `limits`.
pub fn count_within(grid: &Grid, cap: usize, limits: SolveLimits) -> Result<usize, Stop> {
    let search = search(grid, cap, 0, limits);
    match search.stopped {
        Some(stop) => Err(stop),
        None => Ok(search.found),
    }
}

/// Runs the search on `grid` until `cap` solutions are found (none for a cap of 0) or a limit
/// is hit, keeping the first `keep` solutions.
fn search(grid: &Grid, cap: usize, keep: usize, limits: SolveLimits) -> Search {
    let mut search = Search {
        found: 0,
        cap,
        kept: Vec::new(),
        keep,
        nodes: 0,
        next_check: limits.max_nodes,
        limits,
        stopped: None,
    };
    if limits.deadline.is_some() {
        search.next_check = search.next_check.min(DEADLINE_EVERY);
    }
    if cap > 0 {
        if let Some(mut state) = State::from_grid(grid) {
            search.run(&mut state);
        }
    }
    search
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The boxes a 9-bit row meets, as 3 bits.
static ROW_BOXES: [u8; 512] = row_boxes_table();
/// The band rule: for the nine triplets (row × box) a digit meets in a band, as a 9-bit set
/// (bit `3 * row + box`), the cells of the triplets of the permutations (row → box) they
/// contain; 0 when they contain none.
static BAND_KEEP: [u32; 512] = band_keep_table();
/// The stack rule: for the columns a digit meets in a stack, as a 9-bit set (bit
/// `3 * band + column`), those of the permutations (band → column) they contain, each at bit
/// `9 * band + column` (the layout of a column signature, [`State::stacked`]); 0 when they contain none.
static STACK_KEEP: [u32; 512] = stack_keep_table();
/// A 9-bit row if it has exactly one cell, else 0.
static SINGLE: [u16; 512] = single_table();
/// For every cell, its peers (row, column, box; not itself) in each band.
static PEERS: [[u32; 3]; 81] = peers_table();

/// For a 9-bit set of triplets (bit `3 * row + box`), their 27 cells.
const fn expand_table() -> [u32; 512] {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 9 {
            if m >> k & 1 != 0 {
                t[m] |= 7 << (9 * (k / 3) + 3 * (k % 3));
            }
            k += 1;
        }
        m += 1;
    }
    t
}

const fn row_boxes_table() -> [u8; 512] {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            if m >> (3 * k) & 7 != 0 {
                t[m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
}

const fn single_table() -> [u16; 512] {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        if (m as u16).count_ones() == 1 {
            t[m] = m as u16;
        }
        m += 1;
    }
    t
}

const fn band_keep_table() -> [u32; 512] {
    let (expand, perms) = (expand_table(), perms_table());
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = expand[perms[m] as usize];
        m += 1;
    }
    t
}

const fn stack_keep_table() -> [u32; 512] {
    let perms = perms_table();
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 9 {
            if perms[m] >> k & 1 != 0 {
                t[m] |= 1 << (9 * (k / 3) + k % 3);
            }
            k += 1;
        }
        m += 1;
    }
    t
}

/// For a 9-bit set of triplets, the union of the permutations (row → box) it contains.
const fn perms_table() -> [u16; 512] {
    const P: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let p = 1 << P[i][0] | 1 << (3 + P[i][1]) | 1 << (6 + P[i][2]);
            if m & p == p {
                t[m] |= p as u16;
            }
            i += 1;
        }
        m += 1;
    }
    t
}

const fn peers_table() -> [[u32; 3]; 81] {
    let mut t = [[0; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let mut p = 0;
        while p < 81 {
            let (r, k, cr, ck) = (c / 9, c % 9, p / 9, p % 9);
            let same_box = r / 3 == cr / 3 && k / 3 == ck / 3;
            if p != c && (r == cr || k == ck || same_box) {
                t[c][p / 27] |= 1 << (p % 27);
            }
            p += 1;
        }
        c += 1;
    }
    t
}

/// The cells of `b` that are alone in their row of the band.
#[inline(always)]
fn row_singles(b: u32) -> u32 {
    SINGLE[(b & 0x1ff) as usize] as u32
        | (SINGLE[(b >> 9 & 0x1ff) as usize] as u32) << 9
        | (SINGLE[(b >> 18) as usize] as u32) << 18
}

/// The 9 columns met by a band board.
#[inline(always)]
fn columns(b: u32) -> u32 {
    (b | b >> 9 | b >> 18) & 0x1ff
}

/// A 9-bit column set repeated over the three rows of a band.
#[inline(always)]
fn column_cells(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// A contradiction found by propagation.
struct Contradiction;

/// The search state: the possible cells of each digit, by band, and the unsolved cells.
#[derive(Clone, Copy)]
struct State {
    /// `cand[b][d]`: the cells of band `b` where digit `d + 1` may go (placed ones included).
    /// Band-major, so that a change to every digit of a band is a vector operation.
    cand: [[u32; 9]; 3],
    /// The value of `cand` at the last band update; a different value needs an update.
    seen: [[u32; 9]; 3],
    /// `stacked[d]`: the columns of digit `d + 1` in each band (band `b` at bits `9 * b`, from
    /// [`columns`]) at its last
    /// stack update. The stack rule reads only these columns and is idempotent, so while they
    /// are unchanged it would remove nothing.
    stacked: [u32; 9],
    /// The cells not yet solved, by band.
    unsolved: [u32; 3],
}

impl State {
    /// The state of a candidate grid, its single-candidate cells placed; `None` on a clash.
    fn from_grid(grid: &Grid) -> Option<State> {
        let mut s = State {
            cand: [[0; 9]; 3],
            seen: [[u32::MAX; 9]; 3],
            // Every band of every digit is updated first (`seen`), which replaces this.
            stacked: [0; 9],
            unsolved: [BAND; 3],
        };
        let cells = grid.cells();
        // Full cells (most of them) go to every digit at once.
        let mut full = [0; 3];
        for (i, c) in cells.iter().enumerate() {
            let (b, bit) = (i / 27, 1 << (i % 27));
            let mut bits = c.bits() & 0x1ff;
            if bits == 0x1ff {
                full[b] |= bit;
                continue;
            }
            if bits == 0 {
                return None;
            }
            while bits != 0 {
                s.cand[b][bits.trailing_zeros() as usize] |= bit;
                bits &= bits - 1;
            }
        }
        for (band, f) in s.cand.iter_mut().zip(full) {
            for x in band {
                *x |= f;
            }
        }
        for (i, c) in cells.iter().enumerate() {
            if let Some(d) = c.single_value() {
                if s.cand[i / 27][d.index()] & 1 << (i % 27) == 0 {
                    return None;
                }
                s.assign(d.index(), i);
            }
        }
        Some(s)
    }

    /// Places digit `d` (0-based) in `cell`: clears the cell from the other digits and the
    /// peers from `d`.
    #[inline(always)]
    fn assign(&mut self, d: usize, cell: usize) {
        let (b, bit) = (cell / 27, 1 << (cell % 27));
        for x in &mut self.cand[b] {
            *x &= !bit;
        }
        self.clear_peers(d, cell);
        self.cand[b][d] |= bit;
        self.unsolved[b] &= !bit;
    }

    /// Removes digit `d` (0-based) from the peers of `cell`.
    #[inline(always)]
    fn clear_peers(&mut self, d: usize, cell: usize) {
        let peers = &PEERS[cell];
        self.cand[0][d] &= !peers[0];
        self.cand[1][d] &= !peers[1];
        self.cand[2][d] &= !peers[2];
    }

    /// The band rule for digit `d` in band `b` (see the module documentation).
    #[inline(always)]
    /// `Ok` with the cells it placed (which it cleared from the other digits).
    fn update(&mut self, d: usize, b: usize) -> Result<u32, Contradiction> {
        let mut x = self.cand[b][d];
        let triplets = ROW_BOXES[(x & 0x1ff) as usize] as usize
            | (ROW_BOXES[(x >> 9 & 0x1ff) as usize] as usize) << 3
            | (ROW_BOXES[(x >> 18) as usize] as usize) << 6;
        let keep = BAND_KEEP[triplets];
        if keep == 0 {
            return Err(Contradiction);
        }
        x &= keep;
        self.seen[b][d] = x;
        let new = row_singles(x) & self.unsolved[b];
        self.unsolved[b] &= !new;
        for y in &mut self.cand[b] {
            *y &= !new;
        }
        self.cand[b][d] = x;
        Ok(new)
    }

    /// The permutation rule on the stacks of digit `d`, whose columns are `sig`
    /// ([`State::stacked`]): in each stack, the digit takes one column per band and one band per
    /// column. `Ok(true)` when it removed cells.
    #[inline(always)]
    fn stack_update(&mut self, d: usize, sig: u32) -> Result<bool, Contradiction> {
        let mut allowed = 0;
        for s in 0..3 {
            let t = (sig >> (3 * s) & 7)
                | (sig >> (9 + 3 * s) & 7) << 3
                | (sig >> (18 + 3 * s) & 7) << 6;
            let keep = STACK_KEEP[t as usize];
            if keep == 0 {
                return Err(Contradiction);
            }
            allowed |= keep << (3 * s);
        }
        // A subset of `sig`: the permutations keep a subset of the columns.
        self.stacked[d] = allowed;
        self.cand[0][d] &= column_cells(allowed & 0x1ff);
        self.cand[1][d] &= column_cells(allowed >> 9 & 0x1ff);
        self.cand[2][d] &= column_cells(allowed >> 18);
        Ok(allowed != sig)
    }

    /// Propagates to a fixpoint; `Err` on a contradiction.
    fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            loop {
                // The cells placed in this pass. Only they change digits other than the one
                // updated; without them, every digit is at its fixpoint after the pass.
                let mut placed = 0;
                for d in 0..9 {
                    let (c, s) = (&self.cand, &self.seen);
                    if (c[0][d] ^ s[0][d]) | (c[1][d] ^ s[1][d]) | (c[2][d] ^ s[2][d]) == 0 {
                        continue;
                    }
                    loop {
                        // The digit's columns: those of its last stack update, except in the
                        // bands updated now (in the others, the board is the one of that
                        // update, or of a stack update that removed no column there).
                        let mut sig = self.stacked[d];
                        for b in 0..3 {
                            if self.cand[b][d] != self.seen[b][d] {
                                placed |= self.update(d, b)?;
                                sig =
                                    sig & !(0x1ff << (9 * b)) | columns(self.cand[b][d]) << (9 * b);
                            }
                        }
                        if sig == self.stacked[d] || !self.stack_update(d, sig)? {
                            break;
                        }
                    }
                }
                if placed == 0 {
                    break;
                }
            }
            if !self.naked_singles()? {
                return Ok(());
            }
        }
    }

    /// Places the cells with exactly one digit left; `Ok(false)` when there is none.
    fn naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut placed = false;
        for b in 0..3 {
            let (mut ones, mut twos) = (0, 0);
            for &x in &self.cand[b] {
                twos |= ones & x;
                ones |= x;
            }
            if ones != BAND {
                return Err(Contradiction);
            }
            let singles = ones & !twos & self.unsolved[b];
            if singles == 0 {
                continue;
            }
            placed = true;
            self.unsolved[b] &= !singles;
            for d in 0..9 {
                let mut mine = singles & self.cand[b][d];
                while mine != 0 {
                    let i = mine.trailing_zeros() as usize;
                    let bit = 1 << i;
                    mine &= !bit;
                    // An earlier single of the same digit took this cell's last candidate.
                    if self.cand[b][d] & bit == 0 {
                        return Err(Contradiction);
                    }
                    self.clear_peers(d, b * 27 + i);
                }
            }
        }
        Ok(placed)
    }

    /// The branching cell and its digits: among the cells with two candidates, the one with the
    /// most unsolved peers (its branches propagate furthest; this halves the search tree of
    /// magictour-top1465 against the first such cell); else a cell with the fewest candidates.
    fn branch_cell(&self) -> (usize, u16) {
        let mut pick: Option<(usize, u32)> = None;
        for b in 0..3 {
            let (mut ones, mut twos, mut threes) = (0, 0, 0);
            for &x in &self.cand[b] {
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let mut pairs = twos & !threes & self.unsolved[b];
            while pairs != 0 {
                let cell = b * 27 + pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let p = &PEERS[cell];
                let score = (p[0] & self.unsolved[0]).count_ones()
                    + (p[1] & self.unsolved[1]).count_ones()
                    + (p[2] & self.unsolved[2]).count_ones();
                if pick.map_or(true, |(_, s)| score > s) {
                    pick = Some((cell, score));
                }
            }
        }
        if let Some((cell, _)) = pick {
            return (cell, self.digits(cell));
        }
        // No two-candidate cell (rare): any unsolved cell with the fewest candidates. There is
        // one, as the caller checked; `(0, 0)` would only end the branch.
        let (mut best, mut len) = ((0, 0), u32::MAX);
        for cell in 0..81 {
            if self.unsolved[cell / 27] >> (cell % 27) & 1 != 0 {
                let digits = self.digits(cell);
                if digits.count_ones() < len {
                    (best, len) = ((cell, digits), digits.count_ones());
                }
            }
        }
        best
    }

    /// The digits (bit `d`) still possible in `cell`.
    fn digits(&self, cell: usize) -> u16 {
        let (b, i) = (cell / 27, cell % 27);
        let mut out = 0;
        for (d, &x) in self.cand[b].iter().enumerate() {
            out |= ((x >> i & 1) as u16) << d;
        }
        out
    }

    /// The grid of a solved state.
    fn solution_grid(&self) -> Grid {
        let mut bits = [0u16; 81];
        for (b, band) in self.cand.iter().enumerate() {
            for (d, &x) in band.iter().enumerate() {
                let mut x = x;
                while x != 0 {
                    bits[b * 27 + x.trailing_zeros() as usize] |= 1 << d;
                    x &= x - 1;
                }
            }
        }
        let mut g = Grid::empty();
        for cell in Cell::all() {
            g.set(cell, Candidates::from_bits(bits[cell.index()]));
        }
        g
    }
}

struct Search {
    found: usize,
    cap: usize,
    /// The first `keep` solutions found.
    kept: Vec<Grid>,
    keep: usize,
    /// Nodes visited.
    nodes: u64,
    /// The node count at which to check the limits next.
    next_check: u64,
    limits: SolveLimits,
    /// The limit hit, if one was.
    stopped: Option<Stop>,
}

impl Search {
    /// Checks the limits at `next_check` nodes. When one is hit, records it in `stopped` and
    /// lowers the cap to the solutions found, which ends the search as reaching the cap does
    /// (the hot loop checks nothing else); otherwise sets the next check.
    #[cold]
    fn check_limits(&mut self) {
        if self.nodes >= self.limits.max_nodes {
            self.stopped = Some(Stop::Nodes);
            self.cap = self.found;
            return;
        }
        if let Some(deadline) = self.limits.deadline {
            if Instant::now() >= deadline {
                self.stopped = Some(Stop::Deadline);
                self.cap = self.found;
                return;
            }
            self.next_check = self
                .limits
                .max_nodes
                .min(self.nodes.saturating_add(DEADLINE_EVERY));
        }
    }

    /// Depth-first search below `state` (not yet propagated).
    fn run(&mut self, state: &mut State) {
        if self.nodes >= self.next_check {
            self.check_limits();
            if self.stopped.is_some() {
                return;
            }
        }
        self.nodes += 1;
        if state.propagate().is_err() {
            return;
        }
        if state.unsolved == [0; 3] {
            self.found += 1;
            if self.kept.len() < self.keep {
                self.kept.push(state.solution_grid());
            }
            return;
        }
        let (cell, mut digits) = state.branch_cell();
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                state.assign(d, cell);
                self.run(state);
                return;
            }
            let mut next = *state;
            next.assign(d, cell);
            self.run(&mut next);
            if self.found >= self.cap {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::tests::grid;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    const INKALA_SOLUTION: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    #[test]
    fn inkala_is_unique() {
        assert_eq!(
            solve(&grid(INKALA)),
            Solutions::Unique(grid(INKALA_SOLUTION))
        );
    }

    #[test]
    fn empty_grid_has_many_and_a_valid_first() {
        match solve(&Grid::empty()) {
            Solutions::Multiple(g) => assert!(g.is_valid_solution()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn solutions_within_lists_distinct_solutions_of_the_puzzle() {
        // Inkala's puzzle without A1: 292 solutions.
        let mut line = INKALA.to_string();
        line.replace_range(0..1, ".");
        let g = grid(&line);
        let total = count(&g, 1000);
        assert!((2..1000).contains(&total), "{total}");
        let all = solutions_within(&g, 1000, SolveLimits::NONE).unwrap();
        assert_eq!(all.len(), total);
        for (i, s) in all.iter().enumerate() {
            assert!(s.is_valid_solution());
            assert!(g.admits(s));
            assert!(all[..i].iter().all(|t| t != s));
        }
        // A smaller cap keeps a prefix; a unique puzzle gives its solution.
        assert_eq!(
            solutions_within(&g, 1, SolveLimits::NONE).unwrap(),
            all[..1]
        );
        assert_eq!(
            solutions_within(&grid(INKALA), 5, SolveLimits::NONE).unwrap(),
            vec![grid(INKALA_SOLUTION)]
        );
        assert_eq!(
            solutions_within(
                &Grid::empty(),
                3,
                SolveLimits {
                    max_nodes: 1,
                    deadline: None
                }
            ),
            Err(Stop::Nodes)
        );
    }

    #[test]
    fn clashing_givens_have_none() {
        let mut bad = INKALA.to_string();
        bad.replace_range(1..2, "8");
        assert_eq!(solve(&grid(&bad)), Solutions::None);
    }

    #[test]
    fn candidate_restrictions_are_respected() {
        let sol = grid(INKALA_SOLUTION);
        let mut g = grid(INKALA);
        let a1 = Cell::new(1).unwrap(); // B1, solution 1
                                        // Allow the true value and one other: still unique.
        g.set(
            a1,
            sol.get(a1) | Candidates::single(crate::Digit::new(9).unwrap()),
        );
        assert_eq!(solve(&g), Solutions::Unique(sol));
        // Rule the true value out: no solution.
        g.set(a1, Candidates::single(crate::Digit::new(9).unwrap()));
        assert_eq!(solve(&g), Solutions::None);
        // An empty cell: no solution.
        g.set(a1, Candidates::NONE);
        assert_eq!(solve(&g), Solutions::None);
    }

    /// An empty grid with a context that has no solution, which plain backtracking takes tens of
    /// seconds to refute (issue 10).
    fn hostile() -> Grid {
        let context = crate::format::parse_context(
            "C1: 5,7,8,9 + G2: 1,2,3,6,9 + I2: 1,3,4,6 + A3: 1,4,6,9 + G3: 1,2,3,4,5,6,7,8 + \
             H3: 1,9 + B5: 1,3,5,9 + C5: 1,3,5,9 + D5: 1,3,5,9 + E5: 1,3,5,9 + F5: 1,3,5,9",
        )
        .unwrap();
        let mut g = Grid::empty();
        for s in &context {
            s.apply(&mut g);
        }
        g
    }

    #[test]
    fn limits_stop_the_search_and_say_so() {
        let g = grid(INKALA);
        let unique = Ok(Solutions::Unique(grid(INKALA_SOLUTION)));
        assert_eq!(solve_within(&g, SolveLimits::default()), unique);
        let none = SolveLimits {
            max_nodes: 0,
            deadline: None,
        };
        assert_eq!(solve_within(&g, none), Err(Stop::Nodes));
        assert_eq!(count_within(&g, 2, none), Err(Stop::Nodes));
        // A budget of exactly the nodes needed is enough; one less is not.
        let needed = search(&g, 2, 0, SolveLimits::NONE).nodes;
        let exact = SolveLimits {
            max_nodes: needed,
            deadline: None,
        };
        assert_eq!(solve_within(&g, exact), unique);
        let short = SolveLimits {
            max_nodes: needed - 1,
            deadline: None,
        };
        assert_eq!(solve_within(&g, short), Err(Stop::Nodes));
        // A deadline that has passed is seen within DEADLINE_EVERY nodes.
        let past = SolveLimits {
            max_nodes: u64::MAX,
            deadline: Some(Instant::now()),
        };
        let s = search(&hostile(), 2, 0, past);
        assert_eq!(s.stopped, Some(Stop::Deadline));
        assert!(s.nodes <= DEADLINE_EVERY + 1, "{}", s.nodes);
        let budget = SolveLimits {
            max_nodes: 1000,
            deadline: None,
        };
        assert_eq!(solve_within(&hostile(), budget), Err(Stop::Nodes));
    }

    #[test]
    fn removing_givens_makes_several() {
        // Inkala's puzzle minus two givens has several solutions.
        let mut line = INKALA.to_string();
        line.replace_range(0..1, ".");
        line.replace_range(11..12, ".");
        match solve(&grid(&line)) {
            Solutions::Multiple(g) => {
                assert!(g.is_valid_solution() && grid(&line).admits(&g))
            }
            other => panic!("{other:?}"),
        }
    }
}
