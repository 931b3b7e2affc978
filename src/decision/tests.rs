//! The decisions of Inkala's autosolve position against the source's pair reduction analysis.

use super::*;
use crate::propagate::{propagate, tests::grid, Profile};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn autosolved() -> Grid {
    let mut g = grid(INKALA);
    propagate(&mut g, &Profile::DEFAULT);
    g
}

#[test]
fn inkala_cell_pair_decisions_match_the_source() {
    // The source lists, for PAIR G8: 3,9: block G7, I8; row F8; column G1 (in that order).
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::CELL, &mut out);
    let text: Vec<String> = out.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        text,
        [
            "G7: 3,9 | G7: 5",
            "I8: 3,9 | I8: 2,7",
            "F8: 3,9 | F8: 2,4,6",
            "G1: 3,9 | G1: 1,5,6",
        ]
    );
}

#[test]
fn constraint_pairs_are_unique_and_split_real_cells() {
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::BOTH, &mut out);
    assert!(out.len() > 4);
    for (i, d) in out.iter().enumerate() {
        assert!(!d.first.is_empty() && !d.rest.is_empty(), "{d}");
        assert_eq!(d.first | d.rest, g.get(d.cell));
        assert!(
            !out[..i].iter().any(|e| e.same_split(d.cell, d.first)),
            "dup {d}"
        );
    }
}

#[test]
fn candidate_decisions_cover_every_value() {
    let g = autosolved();
    let mut out = Vec::new();
    generate(&g, DecisionKinds::CANDIDATE, &mut out);
    let expected: u32 = g
        .cells()
        .iter()
        .map(|c| match c.len() {
            0 | 1 => 0,
            2 => 1,
            n => n,
        })
        .sum();
    assert_eq!(out.len() as u32, expected);
}

#[test]
fn candidate_decisions_alone_are_the_deduplicated_list() {
    // Alone, candidate decisions skip the duplicate search; the list must be the one it gives.
    let g = autosolved();
    let (mut fast, mut searched) = (Vec::new(), Vec::new());
    generate(&g, DecisionKinds::CANDIDATE, &mut fast);
    for cell in crate::grid::Cell::all() {
        for d in g.get(cell).iter().filter(|_| g.get(cell).len() >= 2) {
            reference::push_unique(
                &mut searched,
                &g,
                cell,
                Candidates::single(d),
                Origin::Candidate,
            );
        }
    }
    assert_eq!(fast, searched);
}

#[test]
fn kinds_parse() {
    assert_eq!(
        "cell".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::CELL
    );
    assert_eq!(
        "cell,constraint".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::BOTH
    );
    assert_eq!(
        "pairs".parse::<DecisionKinds>().unwrap(),
        DecisionKinds::PAIRS
    );
    for k in [
        DecisionKinds::BOTH,
        DecisionKinds::PAIRS,
        DecisionKinds::CELL,
        DecisionKinds::CANDIDATE,
    ] {
        assert_eq!(k.to_string().parse::<DecisionKinds>().unwrap(), k);
    }
    assert!("bogus".parse::<DecisionKinds>().is_err());
    assert!("".parse::<DecisionKinds>().is_err());
}

#[test]
fn pairs_fall_back_to_constraint_pairs_only_without_cell_pairs() {
    // Inkala's autosolve position has cell pairs: `pairs` is `cell` there.
    let g = autosolved();
    let (mut cell, mut pairs, mut constraint) = (Vec::new(), Vec::new(), Vec::new());
    assert!(!generate(&g, DecisionKinds::CELL, &mut cell));
    assert!(!generate(&g, DecisionKinds::PAIRS, &mut pairs));
    assert_eq!(cell, pairs);
    // A state with no cell-pair decision: the autosolve position of line 5 of the forum's
    // hardest list.
    let mut raw =
        grid("..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8");
    propagate(&mut raw, &Profile::DEFAULT);
    assert!(!generate(&raw, DecisionKinds::CELL, &mut cell));
    assert!(cell.is_empty());
    let kinds = DecisionKinds {
        cell: false,
        constraint: true,
        constraint_fallback: false,
        candidate: false,
    };
    generate(&raw, kinds, &mut constraint);
    assert!(!constraint.is_empty());
    assert!(generate(&raw, DecisionKinds::PAIRS, &mut pairs));
    assert_eq!(pairs, constraint);
}

/// The generators as first written, cell by cell: the definitions the faster ones must match.
mod reference {
    use super::super::{Decision, Origin};
    use crate::grid::{Candidates, Cell, Digit, Grid, Unit};

    /// Appends `(cell, first)` to `out` unless the same split is already there.
    pub fn push_unique(
        out: &mut Vec<Decision>,
        grid: &Grid,
        cell: Cell,
        first: Candidates,
        origin: Origin,
    ) {
        if out.iter().any(|d| d.same_split(cell, first)) {
            return;
        }
        out.push(Decision {
            cell,
            first,
            rest: grid.get(cell) - first,
            origin,
        });
    }

    /// Candidate decisions listed after others (`--decisions cell,constraint,candidate`).
    pub fn candidates(grid: &Grid, out: &mut Vec<Decision>) {
        for cell in Cell::all() {
            if grid.get(cell).len() < 2 {
                continue;
            }
            for d in grid.get(cell).iter() {
                push_unique(out, grid, cell, Candidates::single(d), Origin::Candidate);
            }
        }
    }

    pub fn cell_pairs(grid: &Grid, out: &mut Vec<Decision>) {
        for block in 0..9 {
            for &pair in Unit::block(block).cells() {
                let values = grid.get(pair);
                if values.len() != 2 {
                    continue;
                }
                for unit in pair.units() {
                    for &y in unit.cells() {
                        let ys = grid.get(y);
                        if y != pair && ys.len() > 2 && values.is_subset_of(ys) {
                            push_unique(out, grid, y, values, Origin::CellPair { pair, unit });
                        }
                    }
                }
            }
        }
    }

    pub fn constraint_pairs(grid: &Grid, out: &mut Vec<Decision>) {
        for unit in Unit::all() {
            let cells = unit.cells();
            let mut places = [0u16; 9];
            let mut solved = Candidates::NONE;
            for (k, &c) in cells.iter().enumerate() {
                let m = grid.get(c);
                if m.len() == 1 {
                    solved |= m;
                    continue;
                }
                for d in m.iter() {
                    places[d.index()] |= 1 << k;
                }
            }
            let mut found = Vec::new();
            for (d, &p) in places.iter().enumerate() {
                if p.count_ones() == 2 && !solved.contains(Digit::from_index(d)) {
                    found.push((p.trailing_zeros() * 9 + (15 - p.leading_zeros()), d));
                }
            }
            found.sort_unstable();
            for (key, d) in found {
                let (first, second) = (key as usize / 9, key as usize % 9);
                let digit = Digit::from_index(d);
                push_unique(
                    out,
                    grid,
                    cells[first],
                    Candidates::single(digit),
                    Origin::ConstraintPair {
                        digit,
                        unit,
                        other: cells[second],
                    },
                );
            }
        }
    }
}

/// The generators list exactly what the cell-by-cell definitions list, in the same order, on
/// positions from the corpora and random restrictions of them (some with empty cells).
#[test]
fn generators_match_their_definitions() {
    let corpora = [
        include_str!("../../tests/data/forum-hardest-1106.txt"),
        include_str!("../../tests/data/top95.txt"),
    ];
    let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next();
    let (mut positions, mut listed) = (0, 0);
    for line in corpora.iter().flat_map(|c| c.lines()) {
        let mut g = grid(line);
        propagate(&mut g, &Profile::SINGLES);
        for _ in 0..4 {
            let (mut got, mut want) = (Vec::new(), Vec::new());
            let mut seen = Listed::new();
            let sets = Sets::new(&g);
            cell_pair::generate(&g, &sets, &mut seen, &mut got);
            constraint_pair::generate(&g, &sets, &mut seen, &mut got);
            reference::cell_pairs(&g, &mut want);
            reference::constraint_pairs(&g, &mut want);
            assert_eq!(got, want, "{g:?}");
            positions += 1;
            listed += got.len();
            // Candidate decisions after them repeat pair splits (a cell pair `X: a,b` of a
            // three-valued cell is not one, `X: a` of a two-valued one is).
            candidate::generate(&g, &mut seen, &mut got);
            reference::candidates(&g, &mut want);
            assert_eq!(got, want, "{g:?}");
            // Remove a few random values for the next round.
            for _ in 0..6 {
                let r = next();
                let cell = crate::grid::Cell::new(r as usize % 81).unwrap();
                let bits = g.get(cell).bits() & !(1 << ((r >> 8) % 9));
                g.set(cell, Candidates::from_bits(bits));
            }
        }
    }
    assert!(positions > 1000 && listed > 30_000, "{positions} {listed}");
}
