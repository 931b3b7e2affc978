use super::*;
use crate::engine::Options;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn inkala() -> (Grid, Analysis) {
    let puzzle: Grid = INKALA.parse().unwrap();
    let a = Analysis::run(&puzzle, &Options::default());
    (puzzle, a)
}

#[test]
fn inkala_minimal_proof_is_shorter_and_checks() {
    let (puzzle, a) = inkala();
    let m = minimal(&a).unwrap();
    let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
    assert!(verify(&puzzle, &lines, &a.options.profile).is_ok());
    let full = a.summary().lines.len();
    assert!(
        m.chain.lines.len() < full,
        "{} vs {full}",
        m.chain.lines.len()
    );
    assert_eq!(lines.last().map(|l| l.marker), Some(Marker::Prf));
    // Every DIS line of Inkala's proof fails by propagation: each has its reason.
    assert!(lines
        .iter()
        .filter(|l| l.marker == Marker::Dis)
        .all(|l| l.reason.is_some()));
}

#[test]
fn dropping_a_line_is_caught_by_verify() {
    let (puzzle, a) = inkala();
    let m = minimal(&a).unwrap();
    let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
    for i in 0..lines.len() {
        let mut fewer = lines.clone();
        fewer.remove(i);
        assert!(
            verify(&puzzle, &fewer, &a.options.profile).is_err(),
            "line {i}"
        );
    }
}

#[test]
fn unsolved_and_limits_are_errors() {
    let puzzle: Grid = INKALA.parse().unwrap();
    let opts = Options {
        max_depth: 1,
        ..Options::default()
    };
    let a = Analysis::run(&puzzle, &opts);
    assert!(matches!(minimal(&a), Err(MinimalError::NotSolved(_))));
    let (_, mut a) = inkala();
    a.options.budget.max_tests = Some(3);
    assert_eq!(minimal(&a), Err(MinimalError::Limit(Limit::Budget)));
}

#[test]
fn first_step_ends_on_a_top_level_fact_or_the_proof() {
    // With both decision kinds, Inkala's proof is one hypothesis that reaches the solution.
    let (_, a) = inkala();
    let m = minimal(&a).unwrap();
    assert_eq!(m.first_step(), m.proof_lines().cloned().collect::<Vec<_>>());
    // With the source's method it starts with `I8: 2,7` (spec §8), inside `# I8: 3,9`.
    let puzzle: Grid = INKALA.parse().unwrap();
    let opts = Options {
        decisions: crate::decision::DecisionKinds::PAIRS,
        ..Options::default()
    };
    let m = minimal(&Analysis::run(&puzzle, &opts)).unwrap();
    let step = m.first_step();
    let last = step.last().unwrap();
    assert_eq!(last.marker, Marker::Dis);
    assert_eq!(last.depth(), 1);
    assert_eq!(
        last.result,
        Some(LineResult::Ctr(Some("I8: 2,7".parse().unwrap())))
    );
    assert!(step.len() > 1, "{step:?}");
}
