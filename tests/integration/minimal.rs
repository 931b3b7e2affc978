//! Minimal proofs (issue 13): sound (spec §7.1), ending on the solution, never longer than the
//! full chain, irredundant, and commuting with digit relabelling. The chain is checked here by
//! its own plain reading, not the library's `verify`.

use crate::common::{check_line, data, data_slice, permutation, solution};
use hdp::chain::{ChainLine, LineResult, Marker};
use hdp::engine::{Analysis, Options};
use hdp::minimal::{minimal, MinimalProof};
use hdp::propagate::{propagate, Outcome, Profile};
use hdp::{Grid, Statement};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Inkala's puzzle, a slice of top95, the hardest list and a few forum-hardest lines.
fn slice() -> Vec<Grid> {
    let mut puzzles = vec![INKALA.parse().unwrap()];
    puzzles.extend(data_slice("top95.txt", 12));
    puzzles.extend(data("hardest.txt").into_iter().take(4));
    puzzles.extend(data_slice("forum-hardest-1106.txt", 4));
    puzzles
}

fn proof_of(p: &Grid) -> Option<(Analysis, MinimalProof)> {
    let a = Analysis::run(p, &Options::default());
    if !a.is_solved() {
        return None;
    }
    let m = minimal(&a).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    Some((a, m))
}

fn proof_lines(m: &MinimalProof) -> Vec<ChainLine> {
    m.proof_lines().cloned().collect()
}

/// The hypotheses of a context's levels `1..=upto`.
fn hyps(l: &ChainLine, upto: usize) -> Vec<Statement> {
    l.context.levels[1..=upto].iter().map(|v| v[0]).collect()
}

/// Whether `fact` at `level` of line `x` is concluded by an earlier DIS line under the same
/// hypotheses.
fn supported(lines: &[ChainLine], x: usize, level: usize, fact: &Statement) -> bool {
    lines[..x].iter().any(|y| {
        y.marker == Marker::Dis
            && y.result == Some(LineResult::Ctr(Some(*fact)))
            && y.context.levels.len() == level + 2
            && hyps(y, level) == hyps(&lines[x], level)
    })
}

/// Whether line `x` holds on its own: facts supported, and its statements propagate to its
/// result.
fn line_holds(puzzle: &Grid, lines: &[ChainLine], x: usize) -> bool {
    let l = &lines[x];
    for (i, level) in l.context.levels.iter().enumerate() {
        let facts = if i == 0 { &level[..] } else { &level[1..] };
        if !facts.iter().all(|f| supported(lines, x, i, f)) {
            return false;
        }
    }
    let mut g = *puzzle;
    for s in l.context.statements() {
        s.apply(&mut g);
    }
    let outcome = if g.has_empty_cell() {
        None
    } else {
        Some(propagate(&mut g, &Profile::DEFAULT))
    };
    match l.marker {
        Marker::Dis => outcome.map_or(true, Outcome::is_contradiction),
        Marker::Prf => outcome == Some(Outcome::Solved),
        _ => false,
    }
}

fn chain_holds(puzzle: &Grid, lines: &[ChainLine]) -> bool {
    lines.last().map(|l| l.marker) == Some(Marker::Prf)
        && (0..lines.len()).all(|x| line_holds(puzzle, lines, x))
}

fn statements(lines: &[ChainLine]) -> usize {
    lines.iter().map(|l| l.context.statements().count()).sum()
}

#[test]
fn minimal_proofs_are_sound_end_on_the_solution_and_are_never_longer() {
    let mut solved = 0;
    for p in slice() {
        let Some((a, m)) = proof_of(&p) else {
            continue;
        };
        solved += 1;
        let sol = solution(&p);
        let lines = proof_lines(&m);
        for l in &lines {
            check_line(l, &sol, &p);
        }
        assert!(chain_holds(&p, &lines), "{p:?}:\n{}", m.chain);
        // The proof's context propagates to the solution.
        let prf = lines.last().unwrap();
        let mut g = p;
        for s in prf.context.statements() {
            s.apply(&mut g);
        }
        assert_eq!(propagate(&mut g, &Profile::DEFAULT), Outcome::Solved);
        assert_eq!(g, sol, "{p:?}");
        // Never longer than the full chain.
        let full: Vec<ChainLine> = a
            .summary()
            .lines
            .into_iter()
            .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
            .collect();
        assert!(lines.len() <= full.len(), "{p:?}");
        assert!(statements(&lines) <= statements(&full), "{p:?}");
        assert!(
            m.chain.to_string().len() <= a.summary().to_string().len(),
            "{p:?}"
        );
        // The printed proof reads back, with and without its reasons.
        for l in &m.chain.lines {
            let why = format!("{l:#}");
            assert_eq!(&why.parse::<ChainLine>().unwrap(), l, "{why}");
        }
    }
    assert!(solved >= 15, "only {solved} solved");
}

#[test]
fn minimal_proofs_are_irredundant() {
    for p in slice().iter().take(10) {
        let Some((_, m)) = proof_of(p) else {
            continue;
        };
        let lines = proof_lines(&m);
        // Any one line dropped, with the fact it concludes taken out of every later context:
        // some line no longer holds.
        for y in 0..lines.len() {
            let mut fewer = lines.clone();
            let gone = fewer.remove(y);
            if let Some(LineResult::Ctr(Some(fact))) = gone.result {
                for l in &mut fewer[y..] {
                    let depth = gone.depth() - 1;
                    if l.depth() >= depth && hyps(l, depth) == hyps(&gone, depth) {
                        let skip = usize::from(depth > 0);
                        let level = &mut l.context.levels[depth];
                        if let Some(at) = level.iter().skip(skip).position(|s| *s == fact) {
                            level.remove(at + skip);
                        }
                    }
                }
            }
            assert!(!chain_holds(p, &fewer), "{p:?}: line {y} is redundant");
            // Dropped alone, its fact is left unsupported.
            let mut without = lines.clone();
            without.remove(y);
            assert!(!chain_holds(p, &without), "{p:?}: line {y}");
        }
        // Any one fact dropped from any context: that line no longer holds.
        for x in 0..lines.len() {
            for i in 0..lines[x].context.levels.len() {
                for k in usize::from(i > 0)..lines[x].context.levels[i].len() {
                    let mut fewer = lines.clone();
                    fewer[x].context.levels[i].remove(k);
                    assert!(
                        !line_holds(p, &fewer, x),
                        "{p:?}: statement {k} of level {i} of line {x} is redundant"
                    );
                }
            }
        }
    }
}

#[test]
fn relabelling_the_digits_relabels_the_minimal_proof() {
    for (i, p) in slice().iter().enumerate() {
        let map = permutation(i as u64 + 3);
        let Some((_, m)) = proof_of(p) else {
            continue;
        };
        let (_, r) = proof_of(&p.relabel(&map)).unwrap();
        let expected: Vec<ChainLine> = m.chain.lines.iter().map(|l| l.relabel(&map)).collect();
        assert_eq!(expected, r.chain.lines, "{p:?}");
        assert_eq!(m.chain.count, r.chain.count);
    }
}

// The command line: `hdp chain --minimal` and `hdp hint`.

fn hdp() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("hdp").unwrap()
}

fn run(args: &[&str]) -> (String, String, i32) {
    let out = hdp().args(args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The notation lines of an output (comments dropped), parsed.
fn chain_of(text: &str) -> hdp::chain::Chain {
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    body.parse().unwrap_or_else(|e| panic!("{body}: {e}"))
}

#[test]
fn chain_minimal_prints_the_library_proof_in_text_why_and_json() {
    let p: Grid = INKALA.parse().unwrap();
    let (_, m) = proof_of(&p).unwrap();
    let (text, err, code) = run(&["chain", "--minimal", INKALA]);
    assert_eq!(code, 0, "{err}");
    let plain: Vec<ChainLine> = m
        .chain
        .lines
        .iter()
        .map(|l| ChainLine {
            reason: None,
            ..l.clone()
        })
        .collect();
    assert_eq!(chain_of(&text).lines, plain);
    assert!(text.contains("# minimal proof: 3 of"), "{text}");
    let (why, _, code) = run(&["chain", "--minimal", "--why", INKALA]);
    assert_eq!(code, 0);
    assert_eq!(chain_of(&why).lines, m.chain.lines);
    let (json, _, code) = run(&["chain", "--minimal", "--format", "json", INKALA]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let summary: Vec<String> = m
        .chain
        .lines
        .iter()
        .map(|l| l.to_string())
        .chain(m.chain.count.map(|c| c.to_string()))
        .collect();
    assert_eq!(v["minimal"]["summary"], serde_json::json!(summary));
    assert_eq!(v["status"], "solved");
    assert!(v["summary"].as_array().unwrap().len() > summary.len());
    // Unsolved within the limits: no proof, exit 1, and in JSON the reason.
    let (text, err, code) = run(&["chain", "--minimal", "--max-depth", "1", INKALA]);
    assert_eq!((text.as_str(), code), ("", 1), "{text}");
    assert!(err.contains("unsolved"), "{err}");
    let (json, _, code) = run(&[
        "chain",
        "--minimal",
        "--max-depth",
        "1",
        "--format",
        "json",
        INKALA,
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(v["minimal"].is_null());
    assert!(v["minimal_error"].as_str().unwrap().contains("unsolved"));
    // Meaningless combinations are usage errors.
    for bad in [
        &["chain", "--minimal", "--steps", INKALA][..],
        &["chain", "--minimal", "--format", "dot", INKALA],
        &["chain", "--minimal", "--variant", "analysis", INKALA],
    ] {
        assert_eq!(run(bad).2, 2, "{bad:?}");
    }
}

#[test]
fn hint_gives_the_first_step_of_the_minimal_proof() {
    // The source's method on Inkala's puzzle: the first fact is I8: 2,7 (spec §8).
    let (text, err, code) = run(&["hint", "--decisions", "pairs", INKALA]);
    assert_eq!(code, 0, "{err}");
    let step = chain_of(&text);
    let last = step.lines.last().unwrap();
    assert_eq!(
        last.result,
        Some(LineResult::Ctr(Some("I8: 2,7".parse().unwrap())))
    );
    assert!(step.lines.iter().all(|l| l.reason.is_some()), "{text}");
    assert!(text.contains("# next: I8: 2,7;"), "{text}");
    // Each line holds on its own.
    let p: Grid = INKALA.parse().unwrap();
    let mut lines = step.lines.clone();
    lines.push(ChainLine::new(
        Marker::Prf,
        Default::default(),
        Some(LineResult::Sol),
    ));
    for x in 0..step.lines.len() {
        assert!(line_holds(&p, &lines, x), "{}", lines[x]);
    }
    // JSON: the same step.
    let (json, _, code) = run(&["hint", "--decisions", "pairs", "--format", "json", INKALA]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["fact"], "I8: 2,7");
    let lines: Vec<String> = step.lines.iter().map(|l| format!("{l:#}")).collect();
    assert_eq!(v["text"], serde_json::json!(lines));
    // From a later position the hint moves on: the fact is no longer I8: 2,7.
    let (text, _, code) = run(&["hint", "--decisions", "pairs", "--given", "I8: 2,7", INKALA]);
    assert_eq!(code, 0);
    assert!(!text.contains("=> I8: 2,7"), "{text}");
    assert!(text.contains("# next: "), "{text}");
}

#[test]
fn hint_errors_exit_1_with_a_message() {
    let solved =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
    let empty = ".".repeat(81);
    let no_solution = format!("88{}", &INKALA[2..]);
    let cases: [(&[&str], &str); 4] = [
        (&["hint", solved], "already solved"),
        (&["hint", &empty], "several solutions"),
        (&["hint", &no_solution], ""),
        (&["hint", "--budget", "20", INKALA], "budget"),
    ];
    for (args, says) in cases {
        let (out, err, code) = run(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains(says) && err.starts_with("hdp: "),
            "{args:?}: {err}"
        );
    }
    // JSON: an error record.
    let (out, _, code) = run(&["hint", "--format", "json", solved]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["error"].as_str().unwrap().contains("already solved"));
}

/// Minimal proofs under the other settings of the engine, over `puzzles`: every solved analysis
/// gives one, sound and holding line by line. Returns how many were solved.
fn minimal_under_every_setting(puzzles: &[Grid]) -> usize {
    use hdp::decision::DecisionKinds;
    use hdp::engine::{Schedule, Walk};
    let settings = [
        Options::default(),
        Options {
            decisions: DecisionKinds::PAIRS,
            ..Options::default()
        },
        Options {
            decisions: DecisionKinds::CELL,
            ..Options::default()
        },
        Options {
            schedule: Schedule::Sequential,
            ..Options::default()
        },
        Options {
            walk: Walk::DepthFirst,
            max_depth: 2,
            ..Options::default()
        },
        // Trial and error (`--decisions candidate`) sweeps: see
        // `trial_and_error_chains_give_a_proof_or_say_why_not`.
    ];
    let mut solved = 0;
    for (k, options) in settings.iter().enumerate() {
        for p in puzzles {
            let a = Analysis::run(p, options);
            if !a.is_solved() {
                continue;
            }
            solved += 1;
            let m = minimal(&a).unwrap_or_else(|e| panic!("setting {k}, {p:?}: {e}"));
            let lines = proof_lines(&m);
            let sol = solution(p);
            for l in &lines {
                check_line(l, &sol, p);
            }
            // The plain checker propagates with the default profile; T&E uses singles.
            if options.profile == Profile::DEFAULT {
                assert!(chain_holds(p, &lines), "setting {k}, {p:?}:\n{}", m.chain);
            }
            assert!(lines.len() <= a.summary().lines.len(), "setting {k}, {p:?}");
        }
    }
    solved
}

/// A sweep applies each fact at once; when its pass then ends on a contradiction or a solution,
/// the lines of the facts it applied stay (the engine once dropped them, and the chain used
/// facts no line concluded: forum-hardest line 1). Every trial-and-error chain minimises.
#[test]
fn trial_and_error_chains_give_a_proof_or_say_why_not() {
    let mut puzzles = data_slice("top95.txt", 8);
    puzzles.push(data("forum-hardest-1106.txt")[0]);
    let (mut proofs, mut refused) = (0, 0);
    for p in &puzzles {
        let a = Analysis::run(p, &Options::trial_and_error());
        match minimal(&a) {
            Ok(m) => {
                let sol = solution(p);
                for l in m.proof_lines() {
                    check_line(l, &sol, p);
                }
                proofs += 1;
            }
            Err(hdp::minimal::MinimalError::Unverified(_)) => refused += 1,
            Err(e) => assert!(!a.is_solved(), "{p:?}: {e}"),
        }
    }
    assert_eq!(refused, 0, "chains with facts no line concludes");
    assert!(proofs >= 8, "{proofs} proofs");
}

#[test]
fn minimal_proofs_under_other_settings() {
    let mut puzzles = data_slice("top95.txt", 8);
    puzzles.extend(data_slice("forum-hardest-1106.txt", 3));
    // Line 162, with `--decisions pairs`: a hypothesis closes because both branches of a
    // decision inside it fail, the second at depth 2, so its closing line needs the other
    // branch's conclusion too.
    puzzles.push(data("forum-hardest-1106.txt")[161]);
    assert!(minimal_under_every_setting(&puzzles) >= 40);
}

#[test]
#[ignore = "whole collections; run by .ci/run"]
fn minimal_proofs_over_whole_collections() {
    for name in ["top95.txt", "hardest.txt", "forum-hardest-1106.txt"] {
        let Some(puzzles) = crate::common::shared_corpus(name) else {
            return;
        };
        let solved = minimal_under_every_setting(&puzzles);
        eprintln!("{name}: {solved} minimal proofs under 5 settings");
    }
}

/// `hdp render steps --minimal` draws one picture per line of the minimal proof, each DIS line
/// marked with the reason `chain --minimal --why` gives it, in the cells the reason names.
#[test]
fn render_steps_minimal_draws_the_proof_with_its_reasons() {
    for decisions in ["cell,constraint", "pairs"] {
        let (text, _, code) = run(&["chain", "--minimal", "--why", "--decisions", decisions]);
        assert_eq!(code, 0);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("DIS") || l.starts_with("PRF"))
            .collect();
        let dir = crate::common::scratch(&format!("steps-minimal-{decisions}"));
        let _ = std::fs::remove_dir_all(&dir);
        let (_, err, code) = run(&[
            "render",
            "steps",
            "--minimal",
            "--decisions",
            decisions,
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), lines.len(), "{decisions}: {files:?}");
        for (file, line) in files.iter().zip(&lines) {
            let svg = std::fs::read_to_string(file).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let marked: Vec<&str> = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("contradiction"))
                .filter_map(|n| n.attribute("data-cell"))
                .collect();
            match line.split_once(" ; ") {
                Some((_, why)) => {
                    // A DIS line is drawn with its derivation, which ends in a contradiction of
                    // its own (the shortest found, not always the search's); other lines show
                    // the search's reason.
                    let shown = svg
                        .split_once("contradiction: ")
                        .map(|(_, rest)| rest.split('<').next().unwrap_or_default().to_string());
                    let why = match &shown {
                        Some(c) => c.as_str(),
                        None => {
                            assert!(svg.contains(&format!("why: {why}")), "{file:?}: {why}");
                            why
                        }
                    };
                    assert!(!marked.is_empty(), "{file:?} marks nothing");
                    // The cells a reason opens with ("B6, E6, F6 hold …") are marked ones.
                    let is_cell = |w: &str| {
                        let b = w.as_bytes();
                        b.len() == 2 && b[0].is_ascii_uppercase() && b[1].is_ascii_digit()
                    };
                    let named = why
                        .split([' ', ','])
                        .filter(|w| !w.is_empty())
                        .take_while(|w| is_cell(w));
                    for cell in named {
                        assert!(marked.contains(&cell), "{file:?}: {cell} of {why}");
                    }
                }
                None => assert!(marked.is_empty(), "{file:?}: {line}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
