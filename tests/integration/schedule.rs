//! The synchronous schedule and the `pairs` level (spec §4–§7): invariance under every symmetry
//! of the grid, the sequential schedule's order dependence, soundness under both schedules, the
//! share of hardest puzzles left unsolved at default limits, and one set of effort figures.

use crate::common::{check_analysis, data, data_slice, permutation, shared_corpus};
use hdp::classify::{classify, ClassifyOptions, Level};
use hdp::decision::DecisionKinds;
use hdp::engine::{Analysis, Options, Recording, Schedule};
use hdp::{Cell, Digit, Grid, Statement};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A symmetry of the grid: rows and columns permuted (inside their bands and stacks, and the
/// bands and stacks themselves), optionally transposed, digits relabelled.
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    rows: [usize; 9],
    cols: [usize; 9],
    transpose: bool,
    digits: [Digit; 9],
}

/// A permutation of 0..9 that keeps the groups of three: bands (or stacks) permuted, and the
/// lines inside each.
fn line_permutation(x: &mut u64) -> [usize; 9] {
    let mut next = |n: usize| {
        *x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*x >> 33) as usize % n
    };
    let mut groups = [0, 1, 2];
    for i in (1..3).rev() {
        groups.swap(i, next(i + 1));
    }
    let mut out = [0; 9];
    for (g, &band) in groups.iter().enumerate() {
        let mut inner = [0, 1, 2];
        for i in (1..3).rev() {
            inner.swap(i, next(i + 1));
        }
        for (k, &line) in inner.iter().enumerate() {
            out[g * 3 + k] = band * 3 + line;
        }
    }
    out
}

impl Symmetry {
    fn from_seed(seed: u64) -> Symmetry {
        let mut x = seed ^ 0x5DEE_CE66_D1CE_4E5B;
        Symmetry {
            rows: line_permutation(&mut x),
            cols: line_permutation(&mut x),
            transpose: seed & 1 == 1,
            digits: permutation(seed.rotate_left(17)),
        }
    }

    /// Where the symmetry sends `cell`.
    fn cell(&self, cell: Cell) -> Cell {
        let (r, c) = (self.rows[cell.row()], self.cols[cell.col()]);
        let (r, c) = if self.transpose { (c, r) } else { (r, c) };
        Cell::from_row_col(r, c)
    }

    fn grid(&self, g: &Grid) -> Grid {
        let mut out = Grid::empty();
        for cell in Cell::all() {
            out.set(self.cell(cell), g.get(cell).relabel(&self.digits));
        }
        out
    }

    fn statement(&self, s: Statement) -> Statement {
        Statement::new(self.cell(s.cell), s.values.relabel(&self.digits))
    }
}

fn pairs_options(schedule: Schedule) -> Options {
    Options {
        decisions: DecisionKinds::PAIRS,
        schedule,
        recording: Recording::Off,
        max_depth: 4,
        ..Options::default()
    }
}

/// Puzzles of every level the corpora give: medium and hard ones from top95, deep ones (some
/// needing the constraint-pair fallback) from the forum's hardest list, and "Cheese".
fn puzzles_of_every_level() -> Vec<Grid> {
    let mut out = data_slice("top95.txt", 12);
    out.extend(data_slice("forum-hardest-1106.txt", 8));
    out.extend(data("hardest.txt").into_iter().take(4));
    out
}

fn facts_of(a: &Analysis) -> BTreeSet<String> {
    a.facts.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_sample_covers_every_level_up_to_deep_and_the_fallback() {
    let opts = ClassifyOptions::default();
    let mut levels = BTreeSet::new();
    let mut fallback = false;
    for g in puzzles_of_every_level() {
        let c = classify(&g, &opts);
        levels.insert(c.level.unwrap());
        fallback |= !c.constraint_levels.is_empty();
    }
    for l in [Level::Easy, Level::Medium, Level::Hard, Level::Deep] {
        assert!(
            levels.contains(&l),
            "no {l} puzzle in the sample: {levels:?}"
        );
    }
    assert!(fallback, "no puzzle of the sample needs constraint pairs");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Spec §7.3: under the synchronous schedule a symmetry of the grid (geometry and digits)
    /// leaves the depth, the level and the set of facts unchanged (the facts mapped by it).
    #[test]
    fn synchronous_analysis_is_invariant_under_every_symmetry(seed in any::<u64>()) {
        let puzzles = puzzles_of_every_level();
        let g = puzzles[(seed % puzzles.len() as u64) as usize];
        let sym = Symmetry::from_seed(seed / puzzles.len() as u64);
        let h = sym.grid(&g);
        let opts = pairs_options(Schedule::Synchronous);
        let a = Analysis::run(&g, &opts);
        let b = Analysis::run(&h, &opts);
        prop_assert_eq!(a.status, b.status);
        prop_assert_eq!(a.depth, b.depth);
        let mapped: BTreeSet<String> =
            a.facts.iter().map(|&s| sym.statement(s).to_string()).collect();
        prop_assert_eq!(mapped, facts_of(&b));
        prop_assert_eq!(sym.grid(&a.end), b.end);
        let (ca, cb) = (classify(&g, &ClassifyOptions::default()), classify(&h, &ClassifyOptions::default()));
        prop_assert_eq!((ca.level, ca.depth_pairs, ca.depth), (cb.level, cb.depth_pairs, cb.depth));
    }
}

/// The sequential schedule applies the first fact found, so the order of the cells decides what
/// is found: on this puzzle (forum-hardest-1106, line 2) its depth with cell pairs changes with
/// the orientation, while the synchronous schedule's does not.
#[test]
fn the_sequential_schedule_depends_on_the_orientation() {
    let g: Grid = SEQUENTIAL_WITNESS.parse().unwrap();
    let sym = Symmetry::from_seed(SEQUENTIAL_SEED);
    let h = sym.grid(&g);
    let depth = |g: &Grid, schedule| {
        let opts = Options {
            decisions: DecisionKinds::CELL,
            ..pairs_options(schedule)
        };
        Analysis::run(g, &opts).depth
    };
    assert_ne!(
        depth(&g, Schedule::Sequential),
        depth(&h, Schedule::Sequential)
    );
    assert_eq!(
        depth(&g, Schedule::Synchronous),
        depth(&h, Schedule::Synchronous)
    );
}

const SEQUENTIAL_WITNESS: &str =
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........";
const SEQUENTIAL_SEED: u64 = 0;

#[test]
fn chains_are_sound_under_both_schedules() {
    let mut puzzles = data_slice("top95.txt", 40);
    puzzles.extend(data("hardest.txt"));
    puzzles.extend(data_slice("forum-hardest-1106.txt", 10));
    for schedule in [Schedule::Synchronous, Schedule::Sequential] {
        for decisions in [DecisionKinds::PAIRS, DecisionKinds::BOTH] {
            let opts = Options {
                decisions,
                schedule,
                recording: Recording::Chain,
                ..pairs_options(schedule)
            };
            for p in &puzzles {
                check_analysis(&Analysis::run(p, &opts), p);
            }
        }
    }
}

#[test]
#[ignore = "whole collections under both schedules; run by .ci/run"]
fn chains_are_sound_under_both_schedules_on_whole_collections() {
    for name in [
        "top95.txt",
        "magictour-top1465.txt",
        "forum-hardest-1106.txt",
    ] {
        for schedule in [Schedule::Synchronous, Schedule::Sequential] {
            let opts = Options {
                recording: Recording::Chain,
                ..pairs_options(schedule)
            };
            let Some(puzzles) = shared_corpus(name) else {
                return;
            };
            for p in &puzzles {
                check_analysis(&Analysis::run(p, &opts), p);
            }
        }
    }
}

/// The share of puzzles a default classification leaves `unsolved`, with the count.
fn unsolved_share(puzzles: &[Grid]) -> (usize, f64) {
    let opts = ClassifyOptions::default();
    let n = puzzles
        .iter()
        .filter(|g| classify(g, &opts).level == Some(Level::Unsolved))
        .count();
    (n, n as f64 / puzzles.len().max(1) as f64)
}

#[test]
fn the_hardest_collections_are_rarely_unsolved_at_default_limits() {
    for (name, n) in [
        ("forum-hardest-1106.txt", 25),
        ("forum-hardest-1905-11plus-every1951.txt", 25),
        ("tarek-pearly6000-every240.txt", 25),
    ] {
        let (unsolved, share) = unsolved_share(&data_slice(name, n));
        assert!(share <= 0.01, "{name}: {unsolved} of {n} unsolved");
    }
}

#[test]
#[ignore = "whole hardest collections (a few minutes); run by .ci/run"]
fn the_hardest_collections_are_rarely_unsolved_on_whole_sets() {
    for (name, take) in [
        ("forum-hardest-1106.txt", usize::MAX),
        ("forum-hardest-1905-11plus.txt", 2000),
        ("tarek-pearly6000.txt", usize::MAX),
    ] {
        let Some(all) = shared_corpus(name) else {
            return;
        };
        let puzzles: Vec<Grid> = all.into_iter().take(take).collect();
        let (unsolved, share) = unsolved_share(&puzzles);
        eprintln!("{name}: {unsolved} of {} unsolved", puzzles.len());
        assert!(
            share <= 0.01,
            "{name}: {unsolved} of {} unsolved",
            puzzles.len()
        );
    }
}

/// One engine run per question: the chain (recorded) and the classification (not recorded) of
/// the same options make the same tests, hypotheses and facts. The classification also takes
/// the results of hypotheses that start where an earlier one did from its memo, answers
/// branches from open ends found elsewhere, and runs the level's analysis on the first run's
/// depth-1 results, none of which a recorded run does: this checks that those shortcuts give
/// the results and counts of the tests they stand for.
#[test]
fn chain_and_classify_report_the_same_effort() {
    let mut levels = 0;
    let mut puzzles = data_slice("top95.txt", 20);
    puzzles.extend(data_slice("forum-hardest-1106.txt", 4));
    for schedule in [Schedule::Synchronous, Schedule::Sequential] {
        for decisions in [
            DecisionKinds::BOTH,
            DecisionKinds::PAIRS,
            DecisionKinds::CANDIDATE,
        ] {
            let copts = ClassifyOptions {
                engine: Options {
                    decisions,
                    schedule,
                    ..ClassifyOptions::default().engine
                },
                ..ClassifyOptions::default()
            };
            for g in &puzzles {
                let c = classify(g, &copts);
                let chain = Analysis::run(
                    g,
                    &Options {
                        recording: Recording::ChainAndTree,
                        ..copts.engine
                    },
                );
                let e = (c.effort.tests, c.effort.hypotheses, c.effort.facts);
                let k = &chain.counters;
                assert_eq!(e, (k.tests, k.hypotheses, k.facts), "{g:?} {decisions}");
                assert_eq!(c.depth, chain.depth);
                if c.pairs_effort.tests == 0 {
                    continue;
                }
                // The level's run, second, takes depth-1 results from the first one.
                let level = Analysis::run(
                    g,
                    &Options {
                        recording: Recording::Chain,
                        decisions: DecisionKinds::PAIRS,
                        ..copts.engine
                    },
                );
                let e = &c.pairs_effort;
                let k = &level.counters;
                assert_eq!(
                    (e.tests, e.hypotheses, e.facts),
                    (k.tests, k.hypotheses, k.facts),
                    "{g:?} {decisions}: the level's run"
                );
                assert_eq!(c.depth_pairs, level.depth);
                levels += 1;
            }
        }
    }
    assert!(levels >= 20, "{levels} level runs compared");
    // The depth-first walk, whose hypotheses the memo keeps too.
    let engine = Options {
        walk: hdp::engine::Walk::DepthFirst,
        max_depth: 3,
        recording: Recording::Off,
        ..ClassifyOptions::default().engine
    };
    for g in &puzzles {
        let plain = Analysis::run(g, &engine);
        let chain = Analysis::run(
            g,
            &Options {
                recording: Recording::ChainAndTree,
                ..engine
            },
        );
        let (p, k) = (&plain.counters, &chain.counters);
        assert_eq!(
            (p.tests, p.hypotheses, p.facts),
            (k.tests, k.hypotheses, k.facts),
            "{g:?} depth-first"
        );
        assert_eq!(plain.depth, chain.depth);
    }
    // With `--proof contradiction` both know the solution and skip the same top-level branches.
    for decisions in [DecisionKinds::PAIRS, DecisionKinds::CANDIDATE] {
        let engine = Options {
            decisions,
            proof: hdp::engine::Proof::Contradiction,
            max_depth: 3,
            ..ClassifyOptions::default().engine
        };
        let copts = ClassifyOptions {
            engine,
            ..ClassifyOptions::default()
        };
        for g in puzzles.iter().step_by(2) {
            let c = classify(g, &copts);
            let chain = Analysis::run(
                g,
                &Options {
                    recording: Recording::ChainAndTree,
                    ..engine
                },
            );
            let e = (c.effort.tests, c.effort.hypotheses, c.effort.facts);
            let k = &chain.counters;
            assert_eq!(e, (k.tests, k.hypotheses, k.facts), "{g:?} {decisions}");
            assert_eq!(c.depth, chain.depth);
        }
    }
}

/// Spec §9: a forum-hardest puzzle with no cell-pair decision left (line 10) stays unsolved with
/// cell pairs alone and reaches depth 3 with `pairs` under both schedules, after 2,000–4,500
/// branch tests (synchronous) and 1,700–2,500 (sequential).
#[test]
fn calibration_the_constraint_pair_fallback_reaches_depth_3() {
    let g: Grid =
        ".....5..4.9.....2...6.7.3.....7..8....86.....13..8......3.1.6...2......54......9."
            .parse()
            .unwrap();
    let cell = Analysis::run(
        &g,
        &Options {
            decisions: DecisionKinds::CELL,
            ..pairs_options(Schedule::Synchronous)
        },
    );
    assert_eq!((cell.depth, cell.counters.tests), (None, 0));
    for (schedule, tests) in [
        (Schedule::Synchronous, 2_000..=4_500),
        (Schedule::Sequential, 1_700..=2_500),
    ] {
        let a = Analysis::run(&g, &pairs_options(schedule));
        assert_eq!(a.depth, Some(3), "{schedule}");
        assert!(
            tests.contains(&a.counters.tests),
            "{schedule}: {}",
            a.counters.tests
        );
        assert!(
            a.constraint_levels.contains(&1),
            "{schedule}: {:?}",
            a.constraint_levels
        );
    }
}
