use super::*;
use crate::chain::Chain;
use crate::engine::{Analysis, Options, Proof};
use crate::minimal::minimal;
use crate::propagate::Profile;

const INKALA_2012: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn proof_lines(puzzle: &str, profile: Profile) -> (crate::Grid, Vec<crate::chain::ChainLine>) {
    let grid: crate::Grid = puzzle.parse().unwrap();
    let options = Options {
        proof: Proof::Contradiction,
        profile,
        ..Options::default()
    };
    let analysis = Analysis::run(&grid, &options);
    let m = minimal(&analysis).unwrap();
    (analysis.puzzle, m.proof_lines().cloned().collect())
}

#[test]
fn every_line_of_a_minimal_proof_has_a_derivation_that_replays() {
    for profile in [Profile::DEFAULT, Profile::SINGLES] {
        let (puzzle, lines) = proof_lines(INKALA_2012, profile);
        let all = derive_lines(&puzzle, &lines, &profile, &Limits::default());
        for (line, d) in lines.iter().zip(&all) {
            let d = d
                .as_ref()
                .unwrap_or_else(|| panic!("no derivation for {line}"));
            if let Some(c) = d.contradiction() {
                check(&d.assumed(), &d.moves, c).unwrap_or_else(|e| panic!("{line}: {e}\n{d}"));
            }
        }
    }
}

#[test]
fn text_reads_back_to_the_same_moves() {
    let (puzzle, lines) = proof_lines(INKALA_2012, Profile::DEFAULT);
    for d in derive_lines(&puzzle, &lines, &Profile::DEFAULT, &Limits::default())
        .into_iter()
        .flatten()
    {
        let text = d.to_string();
        let parts: Vec<&str> = text.lines().collect();
        assert!(parts.iter().all(|l| is_derivation_text(l)), "{text}");
        let back = parse_derivation(&parts, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, ParsedDerivation::of(&d), "{text}");
    }
}

#[test]
fn a_chain_with_derivations_still_parses() {
    let (puzzle, lines) = proof_lines(INKALA_2012, Profile::DEFAULT);
    let all = derive_lines(&puzzle, &lines, &Profile::DEFAULT, &Limits::default());
    let mut text = String::new();
    for (l, d) in lines.iter().zip(&all) {
        text.push_str(&format!("{l:#}\n"));
        if let Some(d) = d {
            text.push_str(&d.to_string());
        }
    }
    let chain: Chain = text.parse().unwrap();
    assert_eq!(chain.lines.len(), lines.len());
}
