//! Round trips over the source's example lines, and error positions.

use super::*;

const EXAMPLES: &[&str] = &[
    "DIS # I8: 3,9 # B1: 1,2 => CTR => B1: 6",
    "DIS # I8: 3,9 + B1: 6 + A2: 5,9 + B5: 3,8 => CTR => I8: 2,7",
    "DIS I8: 2,7 # G7: 5 # G4: 6 => CTR => G4: 1,8",
    "DIS I8: 2,7 + G7: 3,9 + F8: 2,4,6 # B8: 2,4 => CTR => B8: 3,6",
    "PRF I8: 2,7 + G7: 3,9 + F8: 2,4,6 + B8: 3,6 + B6: 6,8 + D7: 7,9 + F7: 2,4 + B1: 1,6 + A8: 2,4 + A2: 9 + E1: 5 => SOL",
    "STA I8: 2,7 + G7: 3,9 + F8: 2,4,6 + B8: 3,6 + B6: 6,8 + D7: 7,9 + F7: 2,4 + B1: 1,6 + A8: 2,4 + A2: 9 + E1: 5",
    "HYP I8: 2,7 # G7: 5",
    "INC # C4: 2,4",
    "DIS C4: 1,5,6,8 => CTR",
    "STA",
    "PRF => SOL",
    "INC I8: 2,7 => UNS",
];

#[test]
fn source_examples_round_trip() {
    for text in EXAMPLES {
        let line: ChainLine = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&line.to_string(), text);
    }
}

#[test]
fn depths_and_hypotheses() {
    let line: ChainLine = EXAMPLES[0].parse().unwrap();
    assert_eq!(line.depth(), 2);
    assert_eq!(line.context.levels[0].len(), 0);
    assert_eq!(
        line.context.last_hypothesis().unwrap().to_string(),
        "B1: 1,2"
    );
    assert_eq!(
        line.result,
        Some(LineResult::Ctr(Some("B1: 6".parse().unwrap())))
    );
    let line: ChainLine = EXAMPLES[3].parse().unwrap();
    assert_eq!(line.depth(), 1);
    assert_eq!(line.context.levels[0].len(), 3);
}

#[test]
fn positions_and_counts_round_trip() {
    let pos = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let text = format!("STA I8: 2,7 @ {pos}");
    let line: ChainLine = text.parse().unwrap();
    assert_eq!(line.position.as_deref(), Some(pos));
    assert_eq!(line.to_string(), text);
    let chain_text = format!("{}\n{text}\nCNT 3 HDP CHAINS / 7 HYP OPENED\n", EXAMPLES[0]);
    let chain: Chain = chain_text.parse().unwrap();
    assert_eq!(chain.lines.len(), 2);
    assert_eq!(
        chain.count,
        Some(Count {
            chains: 3,
            hypotheses: 7
        })
    );
    assert_eq!(chain.to_string(), chain_text);
}

#[test]
fn errors_name_line_and_column() {
    let e = "DIS # I8: 3,9 # B1: 1,x => CTR"
        .parse::<ChainLine>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (1, 23), "{e}");
    let e = "XYZ I8: 3".parse::<ChainLine>().unwrap_err();
    assert_eq!(e.column, 1);
    let e = "DIS # => CTR".parse::<ChainLine>().unwrap_err();
    assert!(e.to_string().contains("after '#'"), "{e}");
    let e = "DIS I8: 2,7 => WAT".parse::<ChainLine>().unwrap_err();
    assert!(e.to_string().contains("CTR, SOL or UNS"), "{e}");
    let e = "STA\nDIS I8: 2,7 + => CTR\n".parse::<Chain>().unwrap_err();
    assert_eq!(e.line, 2);
    let e = "DIS I8: 2,7 => CTR => Q9: 1"
        .parse::<ChainLine>()
        .unwrap_err();
    assert_eq!(e.column, 23, "{e}");
}

#[test]
fn context_parses_on_its_own() {
    let c = parse_context("I8: 2,7 + G7: 3,9").unwrap();
    assert_eq!(
        c.levels,
        vec![vec!["I8: 2,7".parse().unwrap(), "G7: 3,9".parse().unwrap()]]
    );
    let c = parse_context("# I8: 3,9 + B1: 6").unwrap();
    assert_eq!(c.depth(), 1);
    assert_eq!(c.to_string(), "# I8: 3,9 + B1: 6");
    assert!(parse_context("I8: 2,7 +").is_err());
}
