//! Property tests (proptest) over real puzzles: propagation commutes with digit relabelling and
//! transposition, and the default profile removes at least what `singles` removes.

use crate::common::{data, solution};
use hdp::propagate::{propagate, Profile};
use hdp::{Digit, Grid};
use proptest::prelude::*;
use std::sync::OnceLock;

fn puzzles() -> &'static Vec<Grid> {
    static P: OnceLock<Vec<Grid>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = data("top95.txt");
        v.extend(data("magictour-top1465-every5.txt"));
        v
    })
}

fn perm() -> impl Strategy<Value = [Digit; 9]> {
    Just((1..=9u8).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(|v| {
            let mut out = [Digit::new(1).unwrap(); 9];
            for (o, d) in out.iter_mut().zip(v) {
                *o = Digit::new(d).unwrap();
            }
            out
        })
}

fn profiles() -> impl Strategy<Value = Profile> {
    prop_oneof![Just(Profile::DEFAULT), Just(Profile::SINGLES)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn propagation_commutes_with_relabelling(i in 0usize..395, map in perm(), p in profiles()) {
        let g = puzzles()[i % puzzles().len()];
        let mut a = g;
        let oa = propagate(&mut a, &p);
        let mut b = g.relabel(&map);
        let ob = propagate(&mut b, &p);
        prop_assert_eq!(oa.is_contradiction(), ob.is_contradiction());
        prop_assert_eq!(a.relabel(&map), b);
    }

    #[test]
    fn propagation_commutes_with_transposition(i in 0usize..395, p in profiles()) {
        let g = puzzles()[i % puzzles().len()];
        let mut a = g;
        propagate(&mut a, &p);
        let mut b = g.transpose();
        propagate(&mut b, &p);
        prop_assert_eq!(a.transpose(), b);
    }

    #[test]
    fn default_removes_at_least_what_singles_removes(i in 0usize..395) {
        let g = puzzles()[i % puzzles().len()];
        let mut d = g;
        propagate(&mut d, &Profile::DEFAULT);
        let mut s = g;
        propagate(&mut s, &Profile::SINGLES);
        prop_assert!(s.admits(&d), "default kept a candidate singles removed");
    }

    #[test]
    fn propagation_never_removes_the_solution(i in 0usize..395, p in profiles()) {
        let g = puzzles()[i % puzzles().len()];
        let sol = solution(&g);
        let mut a = g;
        propagate(&mut a, &p);
        prop_assert!(a.admits(&sol));
    }
}
