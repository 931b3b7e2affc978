//! The exact solver over corpora: valid, consistent with the givens, unique; crafted non-unique
//! and invalid puzzles; digit relabelling.

use crate::common::{corpus, permutation, slice};
use hdp::solver::{solve, Solutions};
use hdp::{Candidates, Digit, Grid};

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
    let mut puzzles = corpus("top95.txt");
    puzzles.extend(corpus("hardest.txt"));
    puzzles.extend(slice("sudoku17.txt", 300));
    for g in &puzzles {
        check_unique(g);
    }
}

#[test]
#[ignore = "whole 17-clue collection; run by .ci/run"]
fn all_17_clue_puzzles_solve_uniquely() {
    for g in &corpus("sudoku17.txt") {
        check_unique(g);
    }
}

#[test]
fn sixteen_clue_puzzles_have_several_solutions() {
    // Any 17-clue puzzle minus one clue: 16 clues are never enough (McGuire et al.).
    for g in slice("sudoku17.txt", 40) {
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
    for g in corpus("hardest.txt") {
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
    for (i, g) in slice("magictour-top1465.txt", 60).iter().enumerate() {
        let map: [Digit; 9] = permutation(i as u64 * 31 + 5);
        let s = check_unique(g);
        assert_eq!(check_unique(&g.relabel(&map)), s.relabel(&map));
    }
}
