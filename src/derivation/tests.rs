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

#[test]
fn a_passed_deadline_cuts_every_derivation_and_says_so() {
    let (puzzle, lines) = proof_lines(INKALA_2012, Profile::DEFAULT);
    let passed = Limits::until(Some(std::time::Instant::now()));
    let all = derive_lines(&puzzle, &lines, &Profile::DEFAULT, &passed);
    let mut seen = 0;
    for (line, d) in lines.iter().zip(&all) {
        let Some(d) = d else { continue };
        seen += 1;
        assert_eq!(d.end, End::Cut(Cut::Deadline), "{line}");
        assert!(d.is_cut() && d.moves.is_empty() && d.contradiction().is_none());
        // Marked as cut in text and JSON, never as complete.
        let text = d.to_string();
        assert!(text.contains("  cut: the time limit passed"), "{text}");
        assert!(!text.contains("contradiction: ") && !text.contains("solution: "));
        let json = serde_json::to_value(d).unwrap();
        assert_eq!(json["cut"], "deadline", "{json}");
        assert!(json.get("contradiction").is_none());
        let parts: Vec<&str> = text.lines().collect();
        assert!(parts.iter().all(|l| is_derivation_text(l)), "{text}");
        assert_eq!(
            parse_derivation(&parts, 1).unwrap(),
            ParsedDerivation::of(d)
        );
    }
    assert!(seen > 5);
    // One line alone stops at the deadline too.
    let dis = lines.iter().find(|l| l.marker == crate::chain::Marker::Dis);
    let e = derive_line(&puzzle, dis.unwrap(), &Profile::DEFAULT, &passed);
    assert_eq!(e, Err(DeriveError::Deadline));
    // Without a deadline the same lines are explained in full.
    let unlimited = Limits::until(None);
    let all = derive_lines(&puzzle, &lines, &Profile::DEFAULT, &unlimited);
    assert!(all.iter().flatten().all(|d| !d.is_cut()));
}

#[test]
fn a_long_path_to_the_solution_is_summed_up_and_reads_back() {
    let grid: crate::Grid = INKALA_2012.parse().unwrap();
    let analysis = Analysis::run(&grid, &Options::default());
    let lines = analysis.summary().lines;
    let all = derive_lines(
        &analysis.puzzle,
        &lines,
        &Profile::DEFAULT,
        &Limits::default(),
    );
    let (d, placements) = all
        .iter()
        .flatten()
        .find_map(|d| match &d.end {
            End::Solution { placements } if placements.len() > SHOWN_PLACEMENTS => {
                Some((d, placements))
            }
            _ => None,
        })
        .expect("a PRF line with a long path");
    let text = d.to_string();
    let more = placements.len() - SHOWN_PLACEMENTS;
    let last = text.lines().last().unwrap();
    assert!(
        last.ends_with(&format!(" … and {more} more fill the grid")),
        "{text}"
    );
    let (c, v) = placements[SHOWN_PLACEMENTS - 1];
    assert!(last.contains(&format!("{c}={v} …")), "{text}");
    let parts: Vec<&str> = text.lines().collect();
    let back = parse_derivation(&parts, 1).unwrap();
    assert_eq!(back, ParsedDerivation::of(d));
    assert_eq!(
        back.end,
        ParsedEnd::Solution {
            placements: placements[..SHOWN_PLACEMENTS].to_vec(),
            more
        }
    );
    // A wrong count or a short list does not read.
    let wrong = last.replace(
        &format!("and {more} more"),
        &format!("and {} more", more + 1),
    );
    assert!(parse_derivation(&[&wrong], 1).is_err());
    // The JSON form keeps every placement.
    let json = serde_json::to_value(d).unwrap();
    let n = json["solution"]["placements"].as_array().unwrap().len();
    assert_eq!(n, placements.len());
}
