//! The shortcut matrix (in the manner of ripgrep's `SearcherTester`): the engine under every
//! shortcut on, every one off, each one alone and each one left out gives the literal reference
//! engine's (`literal.rs`) status, depth, top-level facts and effort figures, on slices of
//! `tests/data`, under the classification settings, trial and error, the sequential schedule and
//! `--proof contradiction`; recorded chains are the same under every shortcut a recording keeps.
//!
//! The documented differences (see `src/engine/shortcuts.rs`):
//! - under trial and error, `known_open` answers a hypothesis known to be open with one test, so
//!   the effort can be lower than the reference's (never higher; status, depth and facts equal);
//! - under `reuse`, the position drawn with a `CTR` line can be another partial grid.

use super::common::data_slice;
use super::literal::{self, End, Literal};
use hdp::classify::{classify, ClassifyOptions, Effort};
use hdp::engine::{Analysis, Counters, Options, Proof, Recording, Schedule, Shortcuts, Status};
use hdp::solver::{solve, Solutions};
use hdp::Grid;

/// Every setting of the matrix: all on, all off, each alone, each left out.
fn settings() -> Vec<(String, Shortcuts)> {
    let mut out = vec![
        ("all".to_string(), Shortcuts::ALL),
        ("none".to_string(), Shortcuts::NONE),
    ];
    for (name, _) in Shortcuts::ALL.named() {
        out.push((format!("only {name}"), Shortcuts::only(name).unwrap()));
        out.push((format!("all but {name}"), Shortcuts::all_but(name).unwrap()));
    }
    out
}

/// The puzzles of the matrix: easy to hard, a few of each file (solved at depths 0 to 3).
fn puzzles() -> Vec<Grid> {
    let mut out = data_slice("top95.txt", 5);
    out.extend(data_slice("hardest.txt", 4));
    out.extend(data_slice("easy50.txt", 2));
    out.extend(data_slice("forum-hardest-1106.txt", 2));
    out
}

fn solution(g: &Grid) -> Grid {
    match solve(g) {
        Solutions::Unique(s) => s,
        other => panic!("not unique: {other:?}"),
    }
}

/// The reference's figures as the engine's effort record.
fn effort(c: &Counters) -> Effort {
    Effort {
        tests: c.tests,
        hypotheses: c.hypotheses,
        facts: c.facts,
    }
}

fn status(r: &Literal) -> Status {
    match r.end {
        End::Solved => Status::Solved,
        End::Contradiction => Status::NoSolution,
        End::Open => Status::Unsolved(hdp::engine::Limit::Depth),
    }
}

/// Whether `setting` may lower the effort under `opts` (the documented difference).
fn may_save_effort(opts: &Options, setting: Shortcuts) -> bool {
    opts.decisions == hdp::decision::DecisionKinds::CANDIDATE && setting.known_open
}

/// Compares one analysis with the reference: equal, or within the documented difference.
fn check(what: &str, a: &Analysis, r: &Literal, save: bool) {
    assert_eq!(a.status, status(r), "{what}: status");
    let depth = (a.status == Status::Solved).then_some(r.depth);
    assert_eq!(a.depth, depth, "{what}: depth");
    assert_eq!(a.facts, r.facts, "{what}: top-level facts");
    if save {
        let (got, want) = (a.counters, r.counters);
        assert!(
            got.tests <= want.tests && got.hypotheses <= want.hypotheses,
            "{what}: {got:?} above the reference's {want:?}"
        );
        assert_eq!(got.top_facts, want.top_facts, "{what}: top-level facts");
    } else {
        assert_eq!(a.counters, r.counters, "{what}: effort");
    }
}

/// Unrecorded analyses under the schedules and proofs a classification does not use.
#[test]
fn every_shortcut_setting_finds_what_the_literal_engine_finds() {
    let base = Options {
        recording: Recording::Off,
        ..Options::default()
    };
    let profiles = [
        (
            "sequential",
            Options {
                schedule: Schedule::Sequential,
                ..base
            },
        ),
        (
            "contradiction",
            Options {
                proof: Proof::Contradiction,
                max_depth: 2,
                ..base
            },
        ),
        (
            "trial and error",
            Options {
                recording: Recording::Off,
                ..Options::trial_and_error()
            },
        ),
    ];
    for g in puzzles() {
        let s = solution(&g);
        for (profile, opts) in &profiles {
            let reference = literal::analyse(&g, opts, Some(&s));
            for (name, setting) in settings() {
                let o = Options {
                    shortcuts: setting,
                    ..*opts
                };
                let a = Analysis::run(&g, &o);
                let what = format!("{profile}, {name}, {}", g.to_line());
                check(&what, &a, &reference, may_save_effort(opts, setting));
            }
        }
    }
}

/// Classification (its two runs share depth-1 results through `shared`) and `--te`: the depth
/// and effort of each run are the reference's.
#[test]
fn classification_under_every_shortcut_setting_matches_the_literal_engine() {
    let profiles = [
        ("classification", ClassifyOptions::default()),
        ("--te", ClassifyOptions::trial_and_error()),
    ];
    for g in puzzles() {
        let s = solution(&g);
        for (profile, base) in &profiles {
            let depth_run = literal::analyse(&g, &base.engine, Some(&s));
            let pairs_opts = Options {
                decisions: hdp::decision::DecisionKinds::PAIRS,
                ..base.engine
            };
            let pairs_run = literal::analyse(&g, &pairs_opts, Some(&s));
            for (name, setting) in settings() {
                let mut o = *base;
                o.engine.shortcuts = setting;
                let c = classify(&g, &o);
                let what = format!("{profile}, {name}, {}", g.to_line());
                assert_eq!(c.depth, Some(depth_run.depth), "{what}: depth");
                let save = may_save_effort(&base.engine, setting);
                let want = effort(&depth_run.counters);
                if save {
                    assert!(c.effort.tests <= want.tests, "{what}: {:?}", c.effort);
                } else {
                    assert_eq!(c.effort, want, "{what}: effort");
                }
                if base.level_from_pairs && c.depth != Some(0) {
                    assert_eq!(c.depth_pairs, Some(pairs_run.depth), "{what}: pairs depth");
                    assert_eq!(
                        c.pairs_effort,
                        effort(&pairs_run.counters),
                        "{what}: pairs effort"
                    );
                }
            }
        }
    }
}

/// What a chain shows: every line's text and summary flag, and the position of each line that
/// is not a contradiction's (that one is illustrative under `reuse`, printed or drawn).
fn shown(a: &Analysis) -> Vec<(String, bool, Option<Grid>)> {
    a.lines
        .iter()
        .map(|l| {
            let mut text = l.line.to_string();
            let ctr = text.contains("=> CTR");
            if ctr {
                // The position printed after ` @ ` is illustrative.
                text.truncate(text.find(" @ ").unwrap_or(text.len()));
            }
            (text, l.summary, (!ctr).then_some(l.grid))
        })
        .collect()
}

/// Recorded chains: the same lines, effort and tree size under every setting, and the effort
/// and facts of the reference.
#[test]
fn recorded_chains_do_not_depend_on_the_shortcuts() {
    for g in puzzles() {
        let s = solution(&g);
        let opts = Options {
            recording: Recording::ChainAndTree,
            ..Options::default()
        };
        let reference = literal::analyse(&g, &opts, Some(&s));
        let plain = Analysis::run(
            &g,
            &Options {
                shortcuts: Shortcuts::NONE,
                ..opts
            },
        );
        check(&format!("none, {}", g.to_line()), &plain, &reference, false);
        let nodes = plain.tree.as_ref().map(|t| t.graph.node_count());
        for (name, setting) in settings() {
            let a = Analysis::run(
                &g,
                &Options {
                    shortcuts: setting,
                    ..opts
                },
            );
            let what = format!("recorded, {name}, {}", g.to_line());
            check(&what, &a, &reference, false);
            assert_eq!(shown(&a), shown(&plain), "{what}: chain");
            assert_eq!(
                a.tree.as_ref().map(|t| t.graph.node_count()),
                nodes,
                "{what}: tree"
            );
        }
    }
}
