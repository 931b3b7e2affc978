//! Test data and corpus access, and the soundness check shared by the tests.

use hdp::chain::{ChainLine, LineResult, Marker};
use hdp::engine::{Analysis, Status};
use hdp::solver::{solve, Solutions};
use hdp::{Digit, Grid};

/// Parses one puzzle a line (the first word of each non-empty line).
fn grids(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

/// A path for test files named `name`, in Cargo's scratch directory for integration tests
/// (`target/tmp`, one folder per build profile, which debug and release test runs at the same
/// time do not share): test runs leave nothing in the system's temporary directory, and each
/// run reuses the last one's names instead of adding new ones.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(profile)
        .join(name)
}

/// A committed test data file, `<repo>/tests/data/NAME` (see its README): small slices of the
/// corpora, so that a fresh clone passes its default tests on its own.
pub fn data_text(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The puzzles of a committed test data file.
pub fn data(name: &str) -> Vec<Grid> {
    grids(&data_text(name))
}

/// Every `step`-th puzzle of a committed test data file, at most `n`.
pub fn data_slice(name: &str, n: usize) -> Vec<Grid> {
    let all = data(name);
    let step = (all.len() / n.max(1)).max(1);
    all.into_iter().step_by(step).take(n).collect()
}

/// A full corpus beside the project, `<repo>/../shared/corpora/NAME`, for the heavy `#[ignore]`d
/// runs; `None` when it is absent (a clone on its own), after saying so on stderr. Use as
/// `let Some(text) = shared_text("x.txt") else { return };`.
pub fn shared_text(name: &str) -> Option<String> {
    let path = format!("{}/../shared/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipped: {path} absent (../shared/corpora is not beside the checkout)");
            None
        }
        Err(e) => panic!("{path}: {e}"),
    }
}

/// The puzzles of a full corpus beside the project; `None` (after a message) when absent.
pub fn shared_corpus(name: &str) -> Option<Vec<Grid>> {
    shared_text(name).map(|t| grids(&t))
}

pub fn solution(g: &Grid) -> Grid {
    match solve(g) {
        Solutions::Unique(s) => s,
        other => panic!("corpus puzzle without a unique solution: {other:?}"),
    }
}

/// Spec §7.1 for one line: when every statement before the last `#` is true, the last `#`
/// statement is false and the conclusion is true; a PRF line's context is consistent with the
/// solution; no line claims a contradiction of true statements.
pub fn check_line(line: &ChainLine, sol: &Grid, puzzle: &Grid) {
    let levels = &line.context.levels;
    let before_true = |upto: usize| levels[..upto].iter().flatten().all(|s| s.holds_in(sol));
    match (line.marker, line.result) {
        (Marker::Dis, Some(LineResult::Ctr(conclusion))) => {
            let hyp = line
                .context
                .last_hypothesis()
                .unwrap_or_else(|| panic!("DIS without hypothesis in {puzzle:?}: {line}"));
            if before_true(levels.len() - 1) {
                assert!(
                    !hyp.holds_in(sol),
                    "{puzzle:?}: refuted a true hypothesis: {line}"
                );
                let c = conclusion.unwrap_or_else(|| panic!("no conclusion: {line}"));
                assert!(c.holds_in(sol), "{puzzle:?}: false conclusion: {line}");
                assert_eq!(c.cell, hyp.cell, "{line}");
                assert!((c.values & hyp.values).is_empty(), "{line}");
            }
        }
        (Marker::Dis, other) => panic!("DIS line without CTR result {other:?}: {line}"),
        (Marker::Prf, Some(LineResult::Sol)) => {
            // A proof from true facts; hypotheses on the way are true too (they reached SOL).
            assert!(
                line.context.statements().all(|s| s.holds_in(sol)),
                "{puzzle:?}: PRF with a false statement: {line}"
            );
        }
        _ => {}
    }
}

/// Spec §7.1 and §7.2 for a whole analysis.
pub fn check_analysis(a: &Analysis, puzzle: &Grid) {
    let sol = solution(puzzle);
    for l in &a.lines {
        check_line(&l.line, &sol, puzzle);
    }
    for f in &a.facts {
        assert!(f.holds_in(&sol), "{puzzle:?}: false fact {f}");
    }
    for line in a.summary().lines.iter().chain(a.steps().lines.iter()) {
        // The notation, and the notation with the reasons (`--why`), both read back.
        let text = line.to_string();
        let back: ChainLine = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let plain = ChainLine {
            reason: None,
            ..line.clone()
        };
        assert_eq!(back, plain, "round trip of {text}");
        let why = format!("{line:#}");
        let back: ChainLine = why.parse().unwrap_or_else(|e| panic!("{why}: {e}"));
        assert_eq!(&back, line, "round trip of {why}");
    }
    match a.status {
        Status::Solved => assert_eq!(a.end, sol, "{puzzle:?}: final grid is not the solution"),
        Status::Unsolved(_) => assert!(a.end.admits(&sol), "{puzzle:?}: lost the solution"),
        other => panic!("{puzzle:?}: {other:?}"),
    }
}

/// A digit permutation from a seed (a tiny LCG, deterministic).
pub fn permutation(seed: u64) -> [Digit; 9] {
    let mut digits: Vec<u8> = (1..=9).collect();
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for i in (1..9).rev() {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (x >> 33) as usize % (i + 1);
        digits.swap(i, j);
    }
    let mut out = [Digit::new(1).unwrap(); 9];
    for (o, d) in out.iter_mut().zip(digits) {
        *o = Digit::new(d).unwrap();
    }
    out
}

/// Sends SIGINT to `child`, reads the rest of its standard output from `stdout` into `out`, and
/// gives its exit code and standard error.
pub fn interrupt_and_finish(
    mut child: std::process::Child,
    stdout: &mut impl std::io::Read,
    out: &mut String,
) -> (Option<i32>, String) {
    use std::io::Read;
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    stdout.read_to_string(out).unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}
