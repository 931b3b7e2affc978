//! The decisions of Inkala's autosolve position against the source's pair reduction analysis.

use super::*;
use crate::propagate::{propagate, tests::grid, Profile};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn autosolved() -> Grid {
    let mut g = grid(INKALA);
    propagate(&mut g, &Profile::DEFAULT);
    g
}

#[test]
fn inkala_cell_pair_decisions_match_the_source() {
    // The source lists, for PAIR G8: 3,9: block G7, I8; row F8; column G1 (in that order).
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::CELL, &mut out);
    let text: Vec<String> = out.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        text,
        [
            "G7: 3,9 | G7: 5",
            "I8: 3,9 | I8: 2,7",
            "F8: 3,9 | F8: 2,4,6",
            "G1: 3,9 | G1: 1,5,6",
        ]
    );
}

#[test]
fn constraint_pairs_are_unique_and_split_real_cells() {
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::BOTH, &mut out);
    assert!(out.len() > 4);
    for (i, d) in out.iter().enumerate() {
        assert!(!d.first.is_empty() && !d.rest.is_empty(), "{d}");
        assert_eq!(d.first | d.rest, g.get(d.cell));
        assert!(
            !out[..i].iter().any(|e| e.same_split(d.cell, d.first)),
            "dup {d}"
        );
    }
}

#[test]
fn candidate_decisions_cover_every_value() {
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::CANDIDATE, &mut out);
    let expected: u32 = g
        .cells()
        .iter()
        .map(|c| match c.len() {
            0 | 1 => 0,
            2 => 1,
            n => n,
        })
        .sum();
    assert_eq!(out.len() as u32, expected);
}

#[test]
fn candidate_decisions_alone_are_the_deduplicated_list() {
    // Alone, candidate decisions skip the duplicate search; the list must be the one it gives.
    let g = autosolved();
    let (mut fast, mut searched) = (Vec::new(), Vec::new());
    generate(&g, DecisionKinds::CANDIDATE, &mut fast);
    for cell in crate::grid::Cell::all() {
        for d in g.get(cell).iter().filter(|_| g.get(cell).len() >= 2) {
            push_unique(
                &mut searched,
                &g,
                cell,
                Candidates::single(d),
                Origin::Candidate,
            );
        }
    }
    assert_eq!(fast, searched);
}

#[test]
fn kinds_parse() {
    assert_eq!(
        "cell".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::CELL
    );
    assert_eq!(
        "cell,constraint".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::BOTH
    );
    assert_eq!(
        "pairs".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::PAIRS
    );
    for k in [
        DecisionKinds::BOTH,
        DecisionKinds::PAIRS,
        DecisionKinds::CELL,
        DecisionKinds::CANDIDATE,
    ] {
        assert_eq!(k.to_string().parse::<DecisionKinds>().unwrap(), k);
    }
    assert!("bogus".parse::<DecisionKinds>().is_err());
    assert!("".parse::<DecisionKinds>().is_err());
}

#[test]
fn pairs_fall_back_to_constraint_pairs_only_without_cell_pairs() {
    // Inkala's autosolve position has cell pairs: `pairs` is `cell` there.
    let g = autosolved();
    let (mut cell, mut pairs, mut constraint) = (Vec::new(), Vec::new(), Vec::new());
    assert!(!generate(&g, DecisionKinds::CELL, &mut cell));
    assert!(!generate(&g, DecisionKinds::PAIRS, &mut pairs));
    assert_eq!(cell, pairs);
    // A state with no cell-pair decision: the autosolve position of line 5 of the forum's
    // hardest list.
    let mut raw =
        grid("..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8");
    propagate(&mut raw, &Profile::DEFAULT);
    assert!(!generate(&raw, DecisionKinds::CELL, &mut cell));
    assert!(cell.is_empty());
    let kinds = DecisionKinds {
        cell: false,
        constraint: true,
        constraint_fallback: false,
        candidate: false,
    };
    generate(&raw, kinds, &mut constraint);
    assert!(!constraint.is_empty());
    assert!(generate(&raw, DecisionKinds::PAIRS, &mut pairs));
    assert_eq!(pairs, constraint);
}
