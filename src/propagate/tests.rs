//! Worked examples for each rule, and the order-independence of the fixpoint.

use super::*;
use crate::grid::{Candidates, Digit};

pub(crate) fn grid(line: &str) -> Grid {
    let mut values = [None; 81];
    for (i, ch) in line.chars().take(81).enumerate() {
        values[i] = Digit::from_char(ch);
    }
    Grid::from_values(&values)
}

fn cands(s: &str) -> Candidates {
    s.chars().filter_map(Digit::from_char).collect()
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

#[test]
fn inkala_autosolve_keeps_the_solution_and_finds_the_source_pair() {
    let solution = grid(INKALA_SOLUTION);
    for profile in [Profile::SINGLES, Profile::DEFAULT] {
        let mut g = grid(INKALA);
        assert_eq!(propagate(&mut g, &profile), Outcome::Open);
        assert!(g.admits(&solution), "{profile}: removed a solution value");
    }
    // The source's autosolve position has exactly one pair, G8: 3,9.
    let mut g = grid(INKALA);
    propagate(&mut g, &Profile::DEFAULT);
    let pairs: Vec<String> = Cell::all()
        .filter(|&c| g.get(c).len() == 2)
        .map(|c| format!("{c}: {}", g.get(c)))
        .collect();
    assert_eq!(pairs, ["G8: 3,9"]);
    assert_eq!(g.get(cell("G1")), cands("1356 9"));
    assert_eq!(g.get(cell("I8")), cands("2379"));
}

#[test]
fn solution_propagates_to_solved_and_a_clash_to_contradiction() {
    let mut g = grid(INKALA_SOLUTION);
    assert_eq!(propagate(&mut g, &Profile::DEFAULT), Outcome::Solved);
    let mut bad = INKALA_SOLUTION.to_string();
    bad.replace_range(0..2, "88");
    let mut g = grid(&bad);
    assert!(propagate(&mut g, &Profile::SINGLES).is_contradiction());
    // Without any rule the duplicate is still seen.
    let mut g = grid(&bad);
    assert!(matches!(
        propagate(&mut g, &Profile::NONE),
        Outcome::Contradiction(Contradiction::Duplicate { .. })
    ));
}

#[test]
fn naked_single_removes_from_peers() {
    let mut g = Grid::empty();
    g.set(cell("E5"), cands("4"));
    let mut stats = Stats::default();
    let out = propagate_counting(&mut g, &Profile::NONE.with(Rule::NakedSingle), &mut stats);
    assert_eq!(out, Outcome::Open);
    for p in cell("E5").peers() {
        assert!(!g.get(*p).contains(Digit::new(4).unwrap()));
    }
    assert_eq!(g.get(cell("A1")), Candidates::ALL);
    // A single of the grid as given is applied, not found: no naked single is counted.
    assert_eq!(stats.get(Rule::NakedSingle), 0);
}

#[test]
fn hidden_single_places_the_value() {
    let mut g = Grid::empty();
    // 7 is excluded from all of row 1 but A1.
    for c in 1..9 {
        g.set(Cell::from_row_col(0, c), Candidates::ALL - cands("7"));
    }
    let p = Profile::NONE.with(Rule::HiddenSingle);
    assert_eq!(propagate(&mut g, &p), Outcome::Open);
    assert_eq!(g.get(cell("A1")), cands("7"));
}

#[test]
fn no_place_is_a_contradiction() {
    let mut g = Grid::empty();
    for c in 0..9 {
        g.set(Cell::from_row_col(2, c), Candidates::ALL - cands("4"));
    }
    assert_eq!(
        propagate(&mut g, &Profile::NONE),
        Outcome::Contradiction(Contradiction::NoPlace {
            digit: Digit::new(4).unwrap(),
            unit: Unit::row(2)
        })
    );
}

#[test]
fn naked_pair_and_hidden_pair() {
    let mut g = Grid::empty();
    g.set(cell("A1"), cands("12"));
    g.set(cell("B1"), cands("12"));
    let p = Profile::NONE.with(Rule::NakedPair);
    propagate(&mut g, &p);
    assert!(!g.get(cell("I1")).contains(Digit::new(1).unwrap()));
    assert!(
        !g.get(cell("C2")).contains(Digit::new(2).unwrap()),
        "block too"
    );
    assert!(
        g.get(cell("A9")).contains(Digit::new(1).unwrap()),
        "column A untouched"
    );

    // Hidden pair: 5 and 6 only in A1 and B1 of row 1.
    let mut g = Grid::empty();
    for c in 2..9 {
        g.set(Cell::from_row_col(0, c), Candidates::ALL - cands("56"));
    }
    let p = Profile::NONE.with(Rule::HiddenPair);
    propagate(&mut g, &p);
    assert_eq!(g.get(cell("A1")), cands("56"));
    assert_eq!(g.get(cell("B1")), cands("56"));
}

#[test]
fn naked_triple_and_hidden_quad() {
    let mut g = Grid::empty();
    g.set(cell("A1"), cands("12"));
    g.set(cell("A2"), cands("23"));
    g.set(cell("A3"), cands("13"));
    propagate(&mut g, &Profile::NONE.with(Rule::NakedTriple));
    assert_eq!(g.get(cell("A9")), cands("456789"));
    assert_eq!(g.get(cell("B2")), cands("456789"), "block 1 too");

    let mut g = Grid::empty();
    for r in 4..9 {
        g.set(Cell::from_row_col(r, 0), Candidates::ALL - cands("1234"));
    }
    propagate(&mut g, &Profile::NONE.with(Rule::HiddenQuad));
    for r in 0..4 {
        assert_eq!(g.get(Cell::from_row_col(r, 0)), cands("1234"));
    }
}

#[test]
fn locked_candidates_pointing_and_claiming() {
    // Pointing: in block 1, 9 only in row 1 -> removed from the rest of row 1.
    let mut g = Grid::empty();
    for name in ["A2", "B2", "C2", "A3", "B3", "C3"] {
        g.set(cell(name), Candidates::ALL - cands("9"));
    }
    propagate(&mut g, &Profile::NONE.with(Rule::LockedPointing));
    assert!(!g.get(cell("D1")).contains(Digit::new(9).unwrap()));
    assert!(g.get(cell("A1")).contains(Digit::new(9).unwrap()));

    // Claiming: in row 1, 9 only in block 1 -> removed from the rest of block 1.
    let mut g = Grid::empty();
    for c in 3..9 {
        g.set(Cell::from_row_col(0, c), Candidates::ALL - cands("9"));
    }
    propagate(&mut g, &Profile::NONE.with(Rule::LockedClaiming));
    assert!(!g.get(cell("B2")).contains(Digit::new(9).unwrap()));
    assert!(g.get(cell("B4")).contains(Digit::new(9).unwrap()));
}

#[test]
fn profile_switches_rules_off() {
    // Project Euler 96, grid 1: singles solve it.
    let mut g =
        grid("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..");
    let mut stats = Stats::default();
    propagate_counting(&mut g, &Profile::SINGLES, &mut stats);
    assert_eq!(stats.get(Rule::NakedPair), 0);
    assert_eq!(stats.get(Rule::LockedPointing), 0);
    assert!(stats.get(Rule::NakedSingle) > 0);
}

#[test]
fn crowded_cells_and_values_are_contradictions() {
    // Three cells of block 1 holding only 1 and 2, with only the naked-triple rule on.
    let mut g = Grid::empty();
    for name in ["A1", "B1", "C1"] {
        g.set(cell(name), cands("12"));
    }
    let out = propagate(&mut g, &Profile::NONE.with(Rule::NakedTriple));
    assert_eq!(
        out,
        Outcome::Contradiction(Contradiction::TooFewValues {
            unit: Unit::block(0),
            cells: 3,
            values: 2
        })
    );
    assert_eq!(describe(out), "3 cells of block 1 hold only 2 values");

    // Values 1, 2 and 3 confined to two cells of block 1, with only the hidden-triple rule on.
    let mut g = Grid::empty();
    for name in ["C1", "A2", "B2", "C2", "A3", "B3", "C3"] {
        g.set(cell(name), cands("456789"));
    }
    let out = propagate(&mut g, &Profile::NONE.with(Rule::HiddenTriple));
    assert_eq!(
        out,
        Outcome::Contradiction(Contradiction::TooFewPlaces {
            unit: Unit::block(0),
            values: 3,
            places: 2
        })
    );
    assert_eq!(describe(out), "3 values of block 1 have only 2 places");
}

fn describe(out: Outcome) -> String {
    match out {
        Outcome::Contradiction(c) => c.to_string(),
        other => format!("{other:?}"),
    }
}
