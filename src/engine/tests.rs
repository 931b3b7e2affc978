//! The engine on Inkala's puzzle (spec §8) and on small corpus slices.

use super::*;
use crate::propagate::tests::grid;

pub(crate) const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
pub(crate) const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

#[test]
fn inkala_is_solved_at_depth_two() {
    let a = Analysis::run(&grid(INKALA), &Options::default());
    assert_eq!(a.status, Status::Solved);
    assert_eq!(a.end, grid(INKALA_SOLUTION));
    assert_eq!(a.depth, Some(2));
    assert_eq!(a.max_line_depth(), 2);
    let summary = a.summary();
    let text = summary.to_string();
    assert!(text.contains("=> SOL"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("CNT "), "{text}");
}

#[test]
fn inkala_pair_analysis_matches_the_source() {
    let p = PairAnalysis::run(
        &grid(INKALA),
        &Options {
            decisions: crate::decision::DecisionKinds::CELL,
            ..Options::default()
        },
    );
    assert_eq!(p.pairs.len(), 1);
    let text = p.to_string();
    // The source: G7: 3,9 gives 3 pairs, I8: 3,9 7, F8: 3,9 4, F8: 2,4,6 2, G1: 3,9 6, G1: 1,5,6 1.
    for expected in [
        "G7: 3,9 => 3 PAIRS",
        "I8: 3,9 => 7 PAIRS",
        "F8: 3,9 => 4 PAIRS",
        "F8: 2,4,6 => 2 PAIRS",
        "G1: 3,9 => 6 PAIRS",
        "G1: 1,5,6 => 1 PAIRS",
    ] {
        assert!(text.contains(expected), "missing {expected} in\n{text}");
    }
    assert!(text.contains("UNSOLVED"));
}

#[test]
fn empty_grid_and_invalid_puzzle_are_answered_at_once() {
    let a = Analysis::run(&Grid::empty(), &Options::default());
    assert_eq!(a.status, Status::MultipleSolutions);
    let mut bad = INKALA.to_string();
    bad.replace_range(1..2, "8");
    let a = Analysis::run(&grid(&bad), &Options::default());
    assert_eq!(a.status, Status::NoSolution);
}

#[test]
fn budget_ends_the_analysis_with_uns() {
    let opts = Options {
        budget: Budget {
            max_tests: Some(50),
            deadline: None,
        },
        ..Options::default()
    };
    let a = Analysis::run(&grid(INKALA), &opts);
    assert_eq!(a.status, Status::Unsolved(Limit::Budget));
    assert_eq!(a.counters.tests, 50);
    let text = a.summary().to_string();
    assert!(text.contains("=> UNS"), "{text}");
}

#[test]
fn inkala_calibration_with_cell_pairs() {
    // Spec §9: with cell-pair decisions an independent implementation solves Inkala's puzzle at
    // depth 2 after about 230 branch tests; the source's chain opens `# I8: 3,9` and proves
    // `I8: 2,7 + G7: 3,9 # A8: 3,4,6 ... => SOL`. The source's tool applies each fact at once:
    // the sequential schedule.
    let opts = Options {
        decisions: crate::decision::DecisionKinds::CELL,
        recording: Recording::ChainAndTree,
        schedule: super::Schedule::Sequential,
        ..Options::default()
    };
    let a = Analysis::run(&grid(INKALA), &opts);
    assert_eq!(a.depth, Some(2));
    assert!(
        (180..=300).contains(&a.counters.tests),
        "{} tests",
        a.counters.tests
    );
    let text = a.summary().to_string();
    assert!(
        text.starts_with("DIS # I8: 3,9 # B1: 1,2 => CTR => B1: 6\n"),
        "{text}"
    );
    assert!(text.contains("=> CTR => I8: 2,7\n"), "{text}");
    assert!(
        text.contains("DIS I8: 2,7 # G7: 5 # G4: 6 => CTR => G4: 1,8\n"),
        "{text}"
    );
    assert!(
        text.contains("\nPRF I8: 2,7 + G7: 3,9 # A8: 3,4,6 + "),
        "{text}"
    );
    let tree = a.tree.as_ref().unwrap();
    assert_eq!(tree.branch_count() as u64, a.counters.tests);
    // The synchronous schedule reaches the same depth with a comparable effort.
    let sync = Analysis::run(
        &grid(INKALA),
        &Options {
            schedule: super::Schedule::Synchronous,
            ..opts
        },
    );
    assert_eq!(sync.depth, Some(2));
    assert!((180..=300).contains(&sync.counters.tests));
}
