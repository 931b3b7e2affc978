//! The engine over real puzzles: soundness of every line (spec §7.1–7.2), round trips (§7.5),
//! digit relabelling (§7.3), the depth-first walk, and limits.

use crate::common::{check_analysis, data, data_slice, permutation, shared_corpus};
use hdp::decision::DecisionKinds;
use hdp::engine::{Analysis, Budget, Limit, Options, Status, Walk};
use hdp::Grid;
use std::time::{Duration, Instant};

fn soundness_over(puzzles: &[Grid], options: &Options) -> (usize, usize) {
    let mut solved = 0;
    for p in puzzles {
        let a = Analysis::run(p, options);
        check_analysis(&a, p);
        solved += a.is_solved() as usize;
    }
    (solved, puzzles.len())
}

#[test]
fn soundness_fast_slice_of_four_collections() {
    let mut puzzles = data("top95.txt");
    puzzles.extend(data("hardest.txt"));
    puzzles.extend(data_slice("magictour-top1465-every5.txt", 70));
    puzzles.extend(data_slice("forum-hardest-1106.txt", 30));
    assert!(puzzles.len() >= 200);
    let (solved, n) = soundness_over(&puzzles, &Options::default());
    assert!(solved * 10 >= n * 8, "only {solved} of {n} solved");
}

#[test]
fn soundness_with_cell_pairs_only_and_singles() {
    let puzzles = data_slice("top95.txt", 30);
    soundness_over(
        &puzzles,
        &Options {
            decisions: DecisionKinds::CELL,
            ..Options::default()
        },
    );
    soundness_over(&puzzles, &Options::trial_and_error());
}

#[test]
#[ignore = "whole collections; run by .ci/run"]
fn soundness_whole_collections() {
    for name in [
        "top95.txt",
        "hardest.txt",
        "magictour-top1465.txt",
        "forum-hardest-1106.txt",
    ] {
        let Some(puzzles) = shared_corpus(name) else {
            return;
        };
        let (solved, n) = soundness_over(&puzzles, &Options::default());
        eprintln!("{name}: {solved} of {n} solved");
    }
}

#[test]
fn depth_first_chains_are_sound_too() {
    let puzzles = data_slice("top95.txt", 25);
    let options = Options {
        walk: Walk::DepthFirst,
        max_depth: 2,
        ..Options::default()
    };
    soundness_over(&puzzles, &options);
}

#[test]
fn relabelling_the_digits_relabels_the_chain() {
    let mut puzzles = data_slice("top95.txt", 20);
    puzzles.extend(data("hardest.txt"));
    for (i, p) in puzzles.iter().enumerate() {
        let map = permutation(i as u64 + 7);
        let a = Analysis::run(p, &Options::default());
        let b = Analysis::run(&p.relabel(&map), &Options::default());
        assert_eq!(a.status, b.status);
        assert_eq!(a.depth, b.depth);
        assert_eq!(a.counters, b.counters, "{p:?}");
        // A contradiction's position is the grid when propagation stopped, which depends on the
        // order values are visited; fixpoint positions (STA, HYP, INC, PRF) do not.
        let strip = |mut l: hdp::chain::ChainLine| {
            if l.marker == hdp::chain::Marker::Dis {
                l.position = None;
            }
            l
        };
        let expected: Vec<_> = a
            .lines
            .iter()
            .map(|l| strip(l.line.relabel(&map)))
            .collect();
        let got: Vec<_> = b.lines.iter().map(|l| strip(l.line.clone())).collect();
        assert_eq!(expected.len(), got.len(), "{p:?}");
        for (e, g) in expected.iter().zip(&got) {
            assert_eq!(e, g, "{p:?}");
        }
    }
}

#[test]
fn budget_and_timeout_end_hard_work_with_uns_quickly() {
    // A hard puzzle at depth 3 with a tiny budget, and with an immediate deadline.
    let hard = data("forum-hardest-1106.txt")[9];
    let t = Instant::now();
    let a = Analysis::run(
        &hard,
        &Options {
            budget: Budget {
                max_tests: Some(100),
                deadline: None,
            },
            ..Options::default()
        },
    );
    assert_eq!(a.status, Status::Unsolved(Limit::Budget));
    let a = Analysis::run(
        &hard,
        &Options {
            budget: Budget {
                max_tests: None,
                deadline: Some(Instant::now()),
            },
            ..Options::default()
        },
    );
    assert_eq!(a.status, Status::Unsolved(Limit::Timeout));
    assert!(t.elapsed() < Duration::from_secs(5));
    assert!(a.summary().to_string().contains("=> UNS"));
}

#[test]
fn budget_and_timeout_end_the_engine_on_the_empty_grid_quickly() {
    let t = Instant::now();
    let empty = Grid::empty();
    // No two-valued cell and no value with two places: the pair engine has nothing to decide.
    let a = Analysis::run_unchecked(&empty, &Options::default());
    assert_eq!(a.status, Status::Unsolved(Limit::Depth));
    // Candidate decisions have plenty: the budget and the deadline end the search.
    let a = Analysis::run_unchecked(
        &empty,
        &Options {
            budget: Budget {
                max_tests: Some(2_000),
                deadline: None,
            },
            ..Options::trial_and_error()
        },
    );
    assert_eq!(a.status, Status::Unsolved(Limit::Budget));
    assert!(a.counters.tests <= 2_001);
    let a = Analysis::run_unchecked(
        &empty,
        &Options {
            budget: Budget {
                max_tests: None,
                deadline: Some(Instant::now() + Duration::from_millis(200)),
            },
            ..Options::trial_and_error()
        },
    );
    assert_eq!(a.status, Status::Unsolved(Limit::Timeout));
    assert!(a.summary().to_string().contains("=> UNS"));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // Through the public entry point the empty grid is answered at once.
    assert_eq!(
        Analysis::run(&empty, &Options::default()).status,
        Status::MultipleSolutions
    );
}

/// With `--proof contradiction` the engine answers top-level branches that hold the solution
/// open without testing them (when it knows the solution, as `Analysis::run` does). That may
/// only save work: the same status, depth and top-level facts in the same order as an analysis
/// that does not know the solution, under trial and error and under the source's decisions.
#[test]
fn knowing_the_solution_changes_only_the_effort() {
    use crate::common::data_text;
    use hdp::engine::Proof;
    let mut puzzles: Vec<Grid> = data_text("shc-examples-342-every9.tsv")
        .lines()
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .step_by(2)
        .collect();
    puzzles.extend(data_slice("forum-hardest-1106.txt", 4));
    let settings = [
        Options::trial_and_error(),
        Options {
            proof: Proof::Contradiction,
            max_depth: 2,
            ..Options::default()
        },
    ];
    let (mut with, mut without) = (0, 0);
    for options in &settings {
        for p in &puzzles {
            let known = Analysis::run(p, options);
            let unknown = Analysis::run_unchecked(p, options);
            assert_eq!(known.status, unknown.status, "{p:?}");
            assert_eq!(known.depth, unknown.depth, "{p:?}");
            assert_eq!(known.facts, unknown.facts, "{p:?}");
            assert!(known.counters.hypotheses <= unknown.counters.hypotheses);
            with += known.counters.hypotheses;
            without += unknown.counters.hypotheses;
        }
    }
    // The shortcut is in use: trial and error opens far fewer hypotheses with it.
    assert!(
        with * 4 < without * 3,
        "{with} hypotheses with the solution, {without} without"
    );
}

/// Without the solution (`run_unchecked`), a hypothesis inside trial and error can reach it,
/// which only contradictions prove: its final position then decides which later branches are
/// known to be open. An analysis that remembers hypotheses (unrecorded) must count what one
/// that works every one out (recorded) counts.
#[test]
fn remembered_hypotheses_count_as_the_recorded_run_does() {
    use hdp::engine::Recording;
    let options = Options {
        max_depth: 3,
        recording: Recording::Off,
        ..Options::trial_and_error()
    };
    let recorded = Options {
        recording: Recording::Chain,
        ..options
    };
    // Two puzzles where a remembered hypothesis had reached the solution (found in review).
    let mut puzzles: Vec<Grid> = [
        "98.76.5..5....8.....7.5....4......3...8..79.5..6..98...2......9..5..62.....2....1",
        "9.......6.5...3.1...2...4...8..31.......2.......5.7.8.6.4...2...3.1...5...5.....9",
    ]
    .iter()
    .map(|p| p.parse().unwrap())
    .collect();
    puzzles.extend(data_slice("hardest.txt", 11));
    for p in puzzles {
        let plain = Analysis::run_unchecked(&p, &options);
        let chain = Analysis::run_unchecked(&p, &recorded);
        let (a, b) = (&plain.counters, &chain.counters);
        assert_eq!(
            (a.tests, a.hypotheses, a.facts),
            (b.tests, b.hypotheses, b.facts),
            "{p:?}"
        );
        assert_eq!(plain.depth, chain.depth, "{p:?}");
    }
}

/// The shortcut must not give the solution away: a recorded chain still shows the top-level
/// hypotheses that hold it (tested for display, not counted), not only those that exclude it.
#[test]
fn recorded_chains_still_show_the_branches_holding_the_solution() {
    use crate::common::data_text;
    use hdp::engine::Recording;
    use hdp::solver::{solve, Solutions};
    let mut shown = 0;
    for line in data_text("shc-examples-342-every9.tsv")
        .lines()
        .skip(20)
        .take(6)
    {
        let Some(Ok(p)) = line.split('\t').next().map(str::parse::<Grid>) else {
            continue;
        };
        let Solutions::Unique(solution) = solve(&p) else {
            panic!("{line}");
        };
        let options = Options {
            recording: Recording::ChainAndTree,
            ..Options::trial_and_error()
        };
        let a = Analysis::run(&p, &options);
        for l in &a.lines {
            let Some(h) = l.line.context.levels.get(1).and_then(|h| h.first()) else {
                continue;
            };
            shown += usize::from(!(h.values & solution.get(h.cell)).is_empty());
        }
    }
    assert!(shown > 0, "no hypothesis holding the solution is shown");
}
