//! The exact solver over corpora: valid, consistent with the givens, unique; crafted non-unique
//! and invalid puzzles; digit relabelling; agreement with a naive reference counter on random
//! candidate grids (proptest).

use crate::common::{data, data_slice, permutation, shared_corpus};
use hdp::solver::{count, count_within, solve, solve_within, Solutions, SolveLimits, Stop};
use hdp::{Candidates, Cell, Digit, Grid};
use proptest::prelude::*;
use std::sync::OnceLock;

fn check_unique(g: &Grid) -> Grid {
    match solve(g) {
        Solutions::Unique(s) => {
            assert!(s.is_valid_solution(), "{g:?}");
            assert!(g.admits(&s), "{g:?}: solution ignores a given");
            s
        }
        other => panic!("{g:?}: {other:?}"),
    }
}

#[test]
fn corpus_puzzles_solve_uniquely() {
    let mut puzzles = data("top95.txt");
    puzzles.extend(data("hardest.txt"));
    puzzles.extend(data("sudoku17-every163.txt"));
    for g in &puzzles {
        check_unique(g);
    }
}

#[test]
#[ignore = "whole 17-clue collection; run by .ci/run"]
fn all_17_clue_puzzles_solve_uniquely() {
    let Some(puzzles) = shared_corpus("sudoku17.txt") else {
        return;
    };
    for g in &puzzles {
        check_unique(g);
    }
}

#[test]
fn sixteen_clue_puzzles_have_several_solutions() {
    // Any 17-clue puzzle minus one clue: 16 clues are never enough (McGuire et al.).
    for g in data_slice("sudoku17-every163.txt", 40) {
        let given = hdp::Cell::all().find(|&c| g.value(c).is_some()).unwrap();
        let mut h = g;
        h.set(given, Candidates::ALL);
        match solve(&h) {
            Solutions::Multiple(s) => assert!(s.is_valid_solution() && h.admits(&s)),
            other => panic!("{h:?}: {other:?}"),
        }
    }
}

#[test]
fn invalid_puzzles_have_no_solution() {
    for g in data("hardest.txt") {
        let sol = check_unique(&g);
        // Rule out the true value of an empty cell.
        let cell = hdp::Cell::all().find(|&c| g.value(c).is_none()).unwrap();
        let mut h = g;
        h.set(cell, Candidates::ALL - sol.get(cell));
        assert_eq!(solve(&h), Solutions::None, "{h:?}");
        // Two equal givens in a row.
        let mut line = g.to_line();
        let d = line.chars().find(|c| c.is_ascii_digit()).unwrap();
        let pos = line.find(d).unwrap();
        let row_start = pos / 9 * 9;
        let free = (row_start..row_start + 9)
            .find(|&i| line.as_bytes()[i] == b'.')
            .unwrap();
        line.replace_range(free..free + 1, &d.to_string());
        if let Ok(bad) = line.parse::<Grid>() {
            assert_eq!(solve(&bad), Solutions::None, "{line}");
        }
    }
}

#[test]
fn relabelled_puzzles_have_relabelled_solutions() {
    for (i, g) in data_slice("magictour-top1465-every5.txt", 60)
        .iter()
        .enumerate()
    {
        let map: [Digit; 9] = permutation(i as u64 * 31 + 5);
        let s = check_unique(g);
        assert_eq!(check_unique(&g.relabel(&map)), s.relabel(&map));
    }
}

#[test]
fn magictour_top1465_slice_solves_uniquely() {
    for g in &data("magictour-top1465-every5.txt") {
        check_unique(g);
        assert_eq!(count(g, 5), 1, "{g:?}");
    }
}

#[test]
#[ignore = "the whole magictour-top1465 from ../shared; run by .ci/run"]
fn magictour_top1465_solve_uniquely() {
    let Some(puzzles) = shared_corpus("magictour-top1465.txt") else {
        return;
    };
    for g in &puzzles {
        check_unique(g);
        assert_eq!(count(g, 5), 1, "{g:?}");
    }
}

#[test]
fn count_respects_its_cap() {
    for cap in 0..5 {
        assert_eq!(count(&Grid::empty(), cap), cap);
    }
    let g = data_slice("top95.txt", 1)[0];
    assert_eq!(count(&g, 0), 0);
    assert_eq!(count(&g, 1), 1);
    assert_eq!(count(&g, 2), 1);
}

/// A naive reference, independent of the solver: backtracking on the unassigned cell with the
/// fewest candidates not taken by an assigned cell of its row, column or box (no other
/// inference), counting up to `cap`. Returns the count and the first solution; a count of
/// `usize::MAX` when the search gave up after `budget` nodes (naive backtracking can take very
/// long on an edited 17-clue grid without a solution).
fn reference(g: &Grid, cap: usize, budget: u64) -> (usize, Option<Grid>) {
    struct Ref {
        nodes: u64,
        budget: u64,
        allowed: [u16; 81],
        value: [u8; 81],
        /// Digits used per row, column and box (bit `d - 1`).
        used: [[u16; 9]; 3],
        cap: usize,
        found: usize,
        first: Option<Grid>,
    }
    fn units(c: usize) -> [usize; 3] {
        [c / 9, c % 9, c / 27 * 3 + c % 9 / 3]
    }
    impl Ref {
        fn go(&mut self) {
            self.nodes += 1;
            if self.nodes > self.budget {
                self.found = self.cap;
                return;
            }
            let mut best: Option<(usize, u16)> = None;
            for c in 0..81 {
                if self.value[c] != 0 {
                    continue;
                }
                let [r, k, b] = units(c);
                let m = self.allowed[c] & !(self.used[0][r] | self.used[1][k] | self.used[2][b]);
                if m == 0 {
                    return;
                }
                if best.map_or(true, |(_, x)| m.count_ones() < x.count_ones()) {
                    best = Some((c, m));
                }
            }
            let Some((c, m)) = best else {
                self.found += 1;
                if self.first.is_none() {
                    self.first = Some(Grid::from_values(&self.value.map(Digit::new)));
                }
                return;
            };
            let [r, k, b] = units(c);
            for d in 1..=9u8 {
                let bit = 1 << (d - 1);
                if m & bit != 0 {
                    self.value[c] = d;
                    self.used[0][r] |= bit;
                    self.used[1][k] |= bit;
                    self.used[2][b] |= bit;
                    self.go();
                    self.value[c] = 0;
                    self.used[0][r] &= !bit;
                    self.used[1][k] &= !bit;
                    self.used[2][b] &= !bit;
                    if self.found >= self.cap {
                        return;
                    }
                }
            }
        }
    }
    let mut r = Ref {
        nodes: 0,
        budget,
        allowed: g.cells().map(|c| c.bits()),
        value: [0; 81],
        used: [[0; 9]; 3],
        cap,
        found: 0,
        first: None,
    };
    if cap > 0 {
        r.go();
    }
    if r.nodes > budget {
        return (usize::MAX, None);
    }
    (r.found, r.first)
}

#[test]
fn reference_agrees_on_top95() {
    for g in &data("top95.txt") {
        let (n, first) = reference(g, 2, u64::MAX);
        assert_eq!(n, 1, "{g:?}");
        assert_eq!(solve(g), Solutions::Unique(first.unwrap()), "{g:?}");
    }
}

fn mixed_puzzles() -> &'static Vec<Grid> {
    static P: OnceLock<Vec<Grid>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = data("top95.txt");
        v.extend(data_slice("magictour-top1465-every5.txt", 200));
        v.extend(data_slice("sudoku17-every163.txt", 200));
        v
    })
}

/// One random change to a candidate grid.
#[derive(Clone, Debug)]
enum Edit {
    /// Clears the `n`-th given (modulo the number of givens): often several solutions.
    RemoveGiven(usize),
    /// Intersects a cell's candidates with a mask (possibly empty): often no solution.
    Restrict(usize, u16),
    /// Copies the `n`-th given onto one of its peers: a clash, no solution.
    Clash(usize, usize),
    /// Sets a cell to a single value, right or wrong.
    Give(usize, u8),
    /// Replaces a cell's candidates with arbitrary pencil marks (possibly none).
    Marks(usize, u16),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (0usize..81).prop_map(Edit::RemoveGiven),
        2 => (0usize..81, 0u16..512).prop_map(|(c, m)| Edit::Restrict(c, m)),
        1 => (0usize..81, 0usize..20).prop_map(|(n, p)| Edit::Clash(n, p)),
        1 => (0usize..81, 1u8..10).prop_map(|(c, d)| Edit::Give(c, d)),
        1 => (0usize..81, 0u16..512).prop_map(|(c, m)| Edit::Marks(c, m)),
    ]
}

fn apply(g: &mut Grid, e: &Edit) {
    let givens: Vec<Cell> = Cell::all().filter(|&c| g.value(c).is_some()).collect();
    let cell = |i: usize| Cell::new(i).unwrap();
    match *e {
        Edit::RemoveGiven(n) if !givens.is_empty() => {
            g.set(givens[n % givens.len()], Candidates::ALL)
        }
        Edit::Restrict(c, m) => g.set(cell(c), g.get(cell(c)) & Candidates::from_bits(m)),
        Edit::Clash(n, p) if !givens.is_empty() => {
            let from = givens[n % givens.len()];
            g.set(from.peers()[p], g.get(from));
        }
        Edit::Give(c, d) => g.set(cell(c), Candidates::single(Digit::new(d).unwrap())),
        Edit::Marks(c, m) => g.set(cell(c), Candidates::from_bits(m)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn solver_agrees_with_the_naive_reference(
        i in 0usize..495,
        edits in prop::collection::vec(edit(), 0..6),
    ) {
        let mut g = mixed_puzzles()[i % mixed_puzzles().len()];
        for e in &edits {
            apply(&mut g, e);
        }
        let (n, first) = reference(&g, 2, 300_000);
        prop_assume!(n != usize::MAX, "the reference gave up");
        let got = solve(&g);
        prop_assert_eq!(got.count() as usize, n, "{:?}", g);
        match got {
            Solutions::None => {}
            Solutions::Unique(s) => prop_assert_eq!(Some(s), first),
            Solutions::Multiple(s) => {
                prop_assert!(s.is_valid_solution() && g.admits(&s), "{:?}", g);
            }
        }
        let n3 = reference(&g, 3, 300_000).0;
        if n3 != usize::MAX {
            prop_assert_eq!(count(&g, 3), n3, "{:?}", g);
        }
    }
}

/// Issue 10: an empty grid with a context that has no solution, which the exact solver takes
/// tens of seconds to refute without a limit.
const HOSTILE_CONTEXT: &str = "C1: 5,7,8,9 + G2: 1,2,3,6,9 + I2: 1,3,4,6 + A3: 1,4,6,9 + \
    G3: 1,2,3,4,5,6,7,8 + H3: 1,9 + B5: 1,3,5,9 + C5: 1,3,5,9 + D5: 1,3,5,9 + E5: 1,3,5,9 + \
    F5: 1,3,5,9";

#[test]
fn the_solver_before_an_analysis_keeps_to_the_deadline() {
    use hdp::engine::{Analysis, Budget, Limit, Options, Status};
    use std::time::{Duration, Instant};
    let given = hdp::format::parse_context(HOSTILE_CONTEXT).unwrap();
    let t = Instant::now();
    let a = Analysis::run_from(
        &Grid::empty(),
        &given,
        &Options {
            budget: Budget {
                max_tests: Some(10),
                deadline: Some(Instant::now() + Duration::from_secs(1)),
            },
            ..Options::default()
        },
    );
    // The deadline the caller gave; never "no solution", which the solver has not established.
    assert_eq!(a.status, Status::Unsolved(Limit::Timeout));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(
        a.summary().to_string().contains("=> UNS"),
        "{}",
        a.summary()
    );

    // Without a deadline, the solver's default node budget ends it.
    let a = Analysis::run_from(&Grid::empty(), &given, &Options::default());
    assert_eq!(a.status, Status::Unsolved(Limit::Solver));

    // Through the solver alone: a node budget of 1000 ends it, and so does a deadline.
    let mut g = Grid::empty();
    for s in &given {
        s.apply(&mut g);
    }
    let nodes = SolveLimits {
        max_nodes: 1000,
        deadline: None,
    };
    assert_eq!(solve_within(&g, nodes), Err(Stop::Nodes));
    assert_eq!(count_within(&g, 1, nodes), Err(Stop::Nodes));
    let t = Instant::now();
    let soon = SolveLimits {
        max_nodes: u64::MAX,
        deadline: Some(Instant::now() + Duration::from_millis(200)),
    };
    assert_eq!(solve_within(&g, soon), Err(Stop::Deadline));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn default_limits_give_the_unlimited_answers_on_the_corpus_slices() {
    let mut puzzles = data("top95.txt");
    puzzles.extend(data("forum-hardest-1106.txt"));
    for g in &puzzles {
        assert_eq!(
            solve_within(g, SolveLimits::default()),
            Ok(solve(g)),
            "{g:?}"
        );
        let mut h = *g;
        let given = Cell::all().find(|&c| g.value(c).is_some()).unwrap();
        h.set(given, Candidates::ALL);
        assert_eq!(
            solve_within(&h, SolveLimits::default()),
            Ok(solve(&h)),
            "{h:?}"
        );
    }
}
