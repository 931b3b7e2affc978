//! Reasons: the notation reads back, and the rounds find the contradiction a branch leads to.

use super::*;
use crate::propagate::{propagate, propagate_from, tests::grid, Outcome};
use crate::statement::Statement;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

fn values(s: &str) -> Candidates {
    s.split(',')
        .map(|d| Candidates::single(Digit::new(d.parse().unwrap()).unwrap()))
        .fold(Candidates::NONE, |a, b| a | b)
}

#[test]
fn reasons_print_and_parse_back() {
    let row = Unit::all().find(|u| u.to_string() == "row 3").unwrap();
    let reasons = [
        Conflict::NoValue { cell: cell("B3") },
        Conflict::NoPlace {
            values: values("6"),
            unit: row,
        },
        Conflict::NoPlace {
            values: values("3,7"),
            unit: row,
        },
        Conflict::Twice {
            values: values("5"),
            unit: row,
        },
        Conflict::Twice {
            values: values("1,5"),
            unit: row,
        },
        Conflict::TooFewValues {
            cells: [cell("A3"), cell("B3"), cell("C3")].into_iter().collect(),
            values: values("2,4"),
            unit: row,
        },
    ];
    for (i, conflict) in reasons.into_iter().enumerate() {
        let r = Reason {
            conflict,
            rounds: i as u32,
        };
        let text = r.to_string();
        assert_eq!(text.parse::<Reason>(), Ok(r), "{text}");
    }
    assert_eq!(
        Reason {
            conflict: Conflict::NoPlace {
                values: values("6"),
                unit: row
            },
            rounds: 2
        }
        .to_string(),
        "value 6 has no place in row 3 after 2 rounds"
    );
    for bad in [
        "",
        "B3 has no value",
        "value 3,7 has no place in row 3 after 1 rounds",
        "Z9 has no value after 1 rounds",
        "value 6 has no place in row 10 after 1 rounds",
    ] {
        assert!(bad.parse::<Reason>().is_err(), "{bad}");
    }
}

#[test]
fn every_contradictory_branch_of_inkala_has_a_reason_and_no_open_one_has() {
    let mut start = grid(INKALA);
    propagate(&mut start, &Profile::DEFAULT);
    let mut contradictions = 0;
    for c in Cell::all() {
        let now = start.get(c);
        if now.len() < 2 {
            continue;
        }
        for d in now.iter() {
            let b = Statement::new(c, Candidates::single(d));
            let mut g = start;
            b.apply(&mut g);
            let outcome = propagate_from(&mut g, c, &Profile::DEFAULT);
            let mut h = start;
            b.apply(&mut h);
            let reason = explain(&h, &Profile::DEFAULT);
            match outcome {
                Outcome::Contradiction(_) => {
                    contradictions += 1;
                    assert!(reason.is_some(), "{b}");
                }
                _ => assert_eq!(reason, None, "{b}"),
            }
        }
    }
    assert!(contradictions > 5);
}

#[test]
fn relabelling_relabels_the_reason() {
    let mut start = grid(INKALA);
    propagate(&mut start, &Profile::DEFAULT);
    let map: [Digit; 9] = std::array::from_fn(|i| Digit::new(9 - i as u8).unwrap());
    let relabelled = start.relabel(&map);
    for c in Cell::all() {
        for d in start.get(c).iter().filter(|_| start.get(c).len() > 1) {
            let b = Statement::new(c, Candidates::single(d));
            let (mut g, mut h) = (start, relabelled);
            b.apply(&mut g);
            b.relabel(&map).apply(&mut h);
            let (r, s) = (
                explain(&g, &Profile::DEFAULT),
                explain(&h, &Profile::DEFAULT),
            );
            assert_eq!(r.map(|r| r.relabel(&map)), s, "{b}");
        }
    }
}
