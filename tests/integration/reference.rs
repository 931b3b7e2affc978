//! Propagation against a plain reference: every rule of spec §3 written the obvious way (every
//! unit, every combination, every rule, repeated until nothing changes). The fixpoint is unique,
//! so `propagate` and `propagate_from` must reach exactly the reference's grid, or both a
//! contradiction, under any profile, on real puzzles and on the restricted states the engine makes.

use crate::common::data;
use hdp::propagate::{
    propagate, propagate_changed, propagate_changed_eager, propagate_from, Outcome, Profile, Rule,
};
use hdp::{Candidates, Cell, Grid, Unit};
use proptest::prelude::*;
use std::sync::OnceLock;

type Cells = [u16; 81];

fn unit_cells(u: usize) -> [usize; 9] {
    let cells = Unit::new(u).unwrap().cells();
    std::array::from_fn(|k| cells[k].index())
}

fn single(m: u16) -> bool {
    m.count_ones() == 1
}

/// A cell with no value, a value with no place in a unit, or two equal singles in a unit.
fn contradictory(c: &Cells) -> bool {
    if c.contains(&0) {
        return true;
    }
    (0..27).any(|u| {
        let cells = unit_cells(u);
        let all = cells.iter().fold(0, |a, &i| a | c[i]);
        let singles: Vec<u16> = cells.iter().map(|&i| c[i]).filter(|&m| single(m)).collect();
        let distinct = singles.iter().fold(0u16, |a, &m| a | m).count_ones() as usize;
        all != 0x1ff || distinct != singles.len()
    })
}

/// Every `k`-element subset of `items`.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for (i, &x) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// One pass of every switched-on rule over the whole grid; `Err` for a contradiction.
fn pass(c: &mut Cells, p: &Profile) -> Result<(), ()> {
    for u in 0..27 {
        let cells = unit_cells(u);
        if p.has(Rule::NakedSingle) {
            for &i in &cells {
                if single(c[i]) {
                    let v = c[i];
                    for &j in &cells {
                        if j != i {
                            c[j] &= !v;
                        }
                    }
                }
            }
        }
        if p.has(Rule::HiddenSingle) {
            for d in 0..9 {
                let bit = 1u16 << d;
                let places: Vec<usize> =
                    cells.iter().copied().filter(|&i| c[i] & bit != 0).collect();
                if places.len() == 1 {
                    c[places[0]] &= bit;
                }
            }
        }
        // Subsets over all nine cells and all nine values: k cells holding fewer than k values
        // between them, or k values with fewer than k places, are a contradiction.
        for (k, naked, hidden) in [
            (2, Rule::NakedPair, Rule::HiddenPair),
            (3, Rule::NakedTriple, Rule::HiddenTriple),
            (4, Rule::NakedQuad, Rule::HiddenQuad),
        ] {
            if p.has(naked) {
                for set in combinations(&cells, k) {
                    let values = set.iter().fold(0u16, |a, &i| a | c[i]);
                    if (values.count_ones() as usize) < k {
                        return Err(());
                    }
                    if values.count_ones() as usize == k {
                        for &j in cells.iter().filter(|j| !set.contains(j)) {
                            c[j] &= !values;
                        }
                    }
                }
            }
            if p.has(hidden) {
                let digits: Vec<usize> = (0..9).collect();
                for set in combinations(&digits, k) {
                    let values = set.iter().fold(0u16, |a, &d| a | 1 << d);
                    let places: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&i| c[i] & values != 0)
                        .collect();
                    if places.len() < k {
                        return Err(());
                    }
                    if places.len() == k {
                        for &j in &places {
                            c[j] &= values;
                        }
                    }
                }
            }
        }
    }
    // Locked candidates: every block against every line through it.
    for b in 0..9 {
        let block = unit_cells(b);
        for line in (9..27).map(unit_cells) {
            let shared: Vec<usize> = block.iter().copied().filter(|i| line.contains(i)).collect();
            if shared.is_empty() {
                continue;
            }
            for d in 0..9 {
                let bit = 1u16 << d;
                let has = |c: &Cells, cells: &[usize]| cells.iter().any(|&i| c[i] & bit != 0);
                let block_rest: Vec<usize> = block
                    .iter()
                    .copied()
                    .filter(|i| !shared.contains(i))
                    .collect();
                let line_rest: Vec<usize> = line
                    .iter()
                    .copied()
                    .filter(|i| !shared.contains(i))
                    .collect();
                if p.has(Rule::LockedPointing) && has(c, &shared) && !has(c, &block_rest) {
                    for &j in &line_rest {
                        c[j] &= !bit;
                    }
                }
                if p.has(Rule::LockedClaiming) && has(c, &shared) && !has(c, &line_rest) {
                    for &j in &block_rest {
                        c[j] &= !bit;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The reference fixpoint: `None` for a contradiction.
fn reference(g: &Grid, p: &Profile) -> Option<Cells> {
    let mut c: Cells = std::array::from_fn(|i| g.cells()[i].bits());
    loop {
        if contradictory(&c) {
            return None;
        }
        let before = c;
        if pass(&mut c, p).is_err() {
            return None;
        }
        if c == before {
            return Some(c);
        }
    }
}

fn agrees(ours: Outcome, g: &Grid, expected: Option<Cells>) -> Result<(), String> {
    let got: Cells = std::array::from_fn(|i| g.cells()[i].bits());
    match (ours, expected) {
        (Outcome::Contradiction(_), None) => Ok(()),
        (Outcome::Solved, Some(e)) if e == got && e.iter().all(|&m| single(m)) => Ok(()),
        (Outcome::Open, Some(e)) if e == got && !e.iter().all(|&m| single(m)) => Ok(()),
        (o, None) => Err(format!("ours {o:?}, reference: contradiction")),
        (o, Some(e)) => {
            let diff: Vec<String> = (0..81)
                .filter(|&i| e[i] != got[i])
                .map(|i| {
                    let name = Cell::new(i).unwrap();
                    format!("{name} ours {:09b} reference {:09b}", got[i], e[i])
                })
                .collect();
            Err(format!("ours {o:?}; differing cells: {}", diff.join(", ")))
        }
    }
}

fn puzzles() -> &'static Vec<Grid> {
    static P: OnceLock<Vec<Grid>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = data("top95.txt");
        v.extend(data("forum-hardest-1106.txt").into_iter().take(100));
        v.extend(data("easy50.txt").into_iter().take(20));
        v
    })
}

fn profile(bits: u16) -> Profile {
    Rule::ALL
        .iter()
        .enumerate()
        .filter(|(k, _)| bits & (1 << k) != 0)
        .fold(Profile::NONE, |p, (_, &r)| p.with(r))
}

fn profiles() -> impl Strategy<Value = Profile> {
    prop_oneof![
        3 => Just(Profile::DEFAULT),
        1 => Just(Profile::SINGLES),
        4 => (0u16..1024).prop_map(profile),
    ]
}

/// Restricts the `pick`-th open cell (in cell order) to the values of `keep` it holds, if any.
fn restrict(g: &mut Grid, pick: usize, keep: u16) -> Option<Cell> {
    let open: Vec<Cell> = Cell::all().filter(|&c| g.get(c).len() > 1).collect();
    let cell = *open.get(pick % open.len().max(1))?;
    let bits = g.get(cell).bits() & keep;
    let bits = if bits == 0 || bits == g.get(cell).bits() {
        g.get(cell).bits() & (g.get(cell).bits() - 1)
    } else {
        bits
    };
    g.set(cell, Candidates::from_bits(bits));
    Some(cell)
}

/// Every branch test of a few hard positions (each value of each open cell, and each value
/// removed), with the default profile: thousands of propagations from one position, in which the
/// same unit contents recur, as in the engine (this is what `subsets`' table of units without a
/// subset serves).
#[test]
fn branch_tests_of_hard_positions_reach_the_reference_fixpoint() {
    let mut checked = 0;
    for g in puzzles().iter().skip(100).take(2) {
        let mut start = *g;
        if propagate(&mut start, &Profile::DEFAULT) != Outcome::Open {
            continue;
        }
        for cell in Cell::all().filter(|&c| start.get(c).len() > 1) {
            for d in start.get(cell).iter() {
                for keep in [
                    Candidates::single(d),
                    start.get(cell) - Candidates::single(d),
                ] {
                    let mut g = start;
                    g.set(cell, keep);
                    let expected = reference(&g, &Profile::DEFAULT);
                    // The engine's unrecorded order too (locked candidates and subsets stop at
                    // their first change).
                    let mut eager = g;
                    let one = [cell].into_iter().collect();
                    let eager_outcome = propagate_changed_eager(&mut eager, one, &Profile::DEFAULT);
                    let outcome = propagate_from(&mut g, cell, &Profile::DEFAULT);
                    if let Err(e) = agrees(outcome, &g, expected) {
                        panic!("{cell}: {keep} from {start:?}: {e}");
                    }
                    if let Err(e) = agrees(eager_outcome, &eager, expected) {
                        panic!("eager, {cell}: {keep} from {start:?}: {e}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

/// The `--te` re-test: a candidate branch's end position `R` (singles profile) intersected with
/// a smaller state `S'` (a fact found since) and propagated from the changed cells, as the
/// engine's `Reuse` does, must reach the reference fixpoint of `S'` with the branch applied.
#[test]
fn te_retests_from_an_end_position_reach_the_reference_fixpoint() {
    let p = Profile::SINGLES;
    let mut checked = 0;
    for g in puzzles().iter().skip(95).take(3) {
        let mut start = *g;
        if propagate(&mut start, &p) != Outcome::Open {
            continue;
        }
        let open: Vec<Cell> = Cell::all().filter(|&c| start.get(c).len() > 1).collect();
        // Smaller states: one value of a few open cells removed, still open.
        for &fact_cell in open.iter().step_by(7) {
            let mut smaller = start;
            let first = start.get(fact_cell).iter().next().unwrap();
            smaller.set(fact_cell, start.get(fact_cell) - Candidates::single(first));
            if propagate_from(&mut smaller, fact_cell, &p) != Outcome::Open {
                continue;
            }
            for &cell in &open {
                for d in start.get(cell).iter() {
                    for keep in [
                        Candidates::single(d),
                        start.get(cell) - Candidates::single(d),
                    ] {
                        let mut end = start;
                        end.set(cell, keep);
                        if propagate_from(&mut end, cell, &p) != Outcome::Open {
                            continue;
                        }
                        let mut direct = smaller;
                        direct.set(cell, direct.get(cell) & keep);
                        let expected = reference(&direct, &p);
                        let mut ours = end;
                        let (changed, emptied) = ours.intersect(&smaller);
                        let outcome = if !emptied.is_empty() {
                            Outcome::Contradiction(hdp::propagate::Contradiction::NoValue {
                                cell: emptied.iter().next().unwrap(),
                            })
                        } else {
                            propagate_changed(&mut ours, changed, &p)
                        };
                        if let Err(e) = agrees(outcome, &ours, expected) {
                            panic!("{cell}: {keep} after {fact_cell} lost {first}: {e}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn propagate_reaches_the_reference_fixpoint(i in 0usize..215, p in profiles(),
                                                 cuts in proptest::collection::vec((0usize..81, 1u16..511), 0..4)) {
        // A puzzle, propagated with the singles, then a few cells restricted: the kind of state
        // a branch test propagates, often contradictory.
        let mut g = puzzles()[i % puzzles().len()];
        if !cuts.is_empty() {
            propagate(&mut g, &Profile::SINGLES);
            for &(pick, keep) in &cuts {
                restrict(&mut g, pick, keep);
            }
        }
        let expected = reference(&g, &p);
        let mut ours = g;
        let outcome = propagate(&mut ours, &p);
        prop_assert!(agrees(outcome, &ours, expected).is_ok(), "{}", agrees(outcome, &ours, expected).unwrap_err());
    }

    #[test]
    fn propagate_from_reaches_the_reference_fixpoint(i in 0usize..215, p in profiles(),
                                                      pick in 0usize..81, keep in 1u16..511) {
        // A fixpoint, then one cell restricted: the engine's branch test.
        let mut g = puzzles()[i % puzzles().len()];
        prop_assume!(propagate(&mut g, &p) == Outcome::Open);
        let cell = restrict(&mut g, pick, keep).unwrap();
        let expected = reference(&g, &p);
        let mut ours = g;
        let outcome = propagate_from(&mut ours, cell, &p);
        prop_assert!(agrees(outcome, &ours, expected).is_ok(), "{}", agrees(outcome, &ours, expected).unwrap_err());
        // The unrecorded engine's order (locked candidates and subsets stop at their first
        // change), under the same profile.
        let mut eager = g;
        let outcome = propagate_changed_eager(&mut eager, [cell].into_iter().collect(), &p);
        prop_assert!(agrees(outcome, &eager, expected).is_ok(), "eager: {}", agrees(outcome, &eager, expected).unwrap_err());
    }
}

/// Issue 13's reasons, by a plain reading of their definition: rounds that apply every rule to
/// the same position, and the first conflict (empty cell, values without a place, a value as the
/// single of two cells, open cells with too few values) in the order cells, then units.
mod rounds {
    use super::{combinations, unit_cells, Cells};
    use hdp::explain::{Conflict, Reason};
    use hdp::propagate::{Profile, Rule};
    use hdp::{Candidates, Cell, CellSet, Unit};

    fn conflict(c: &Cells) -> Option<Conflict> {
        if let Some(i) = (0..81).find(|&i| c[i] == 0) {
            return Some(Conflict::NoValue {
                cell: Cell::new(i).unwrap(),
            });
        }
        let unit = |u: usize| Unit::all().nth(u).unwrap();
        for u in 0..27 {
            let cells = unit_cells(u);
            let all = cells.iter().fold(0u16, |a, &i| a | c[i]);
            if all != 0x1ff {
                return Some(Conflict::NoPlace {
                    values: Candidates::from_bits(!all & 0x1ff),
                    unit: unit(u),
                });
            }
            let twice = (0..9)
                .map(|d| 1u16 << d)
                .filter(|&bit| cells.iter().filter(|&&i| c[i] == bit).count() >= 2)
                .fold(0, |a, b| a | b);
            if twice != 0 {
                return Some(Conflict::Twice {
                    values: Candidates::from_bits(twice),
                    unit: unit(u),
                });
            }
        }
        for u in 0..27 {
            let open: Vec<usize> = unit_cells(u)
                .into_iter()
                .filter(|&i| c[i].count_ones() > 1)
                .collect();
            // In the order of the bit masks over the open cells, as a counter would list them.
            let mut sets: Vec<Vec<usize>> = (2..=4.min(open.len()))
                .flat_map(|k| combinations(&open, k))
                .collect();
            let rank = |s: &Vec<usize>| {
                s.iter()
                    .map(|i| 1u32 << open.iter().position(|o| o == i).unwrap())
                    .sum::<u32>()
            };
            sets.sort_by_key(rank);
            for set in sets {
                let values = set.iter().fold(0u16, |a, &i| a | c[i]);
                if (values.count_ones() as usize) < set.len() {
                    return Some(Conflict::TooFewValues {
                        cells: set
                            .iter()
                            .map(|&i| Cell::new(i).unwrap())
                            .collect::<CellSet>(),
                        values: Candidates::from_bits(values),
                        unit: unit(u),
                    });
                }
            }
        }
        None
    }

    fn round(a: &Cells, p: &Profile) -> Cells {
        let mut b = *a;
        for u in 0..27 {
            let cells = unit_cells(u);
            for &i in &cells {
                if p.has(Rule::NakedSingle) && a[i].count_ones() == 1 {
                    for &j in cells.iter().filter(|&&j| j != i) {
                        b[j] &= !a[i];
                    }
                }
            }
            for d in 0..9 {
                let places: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&i| a[i] >> d & 1 == 1)
                    .collect();
                if p.has(Rule::HiddenSingle) && places.len() == 1 {
                    b[places[0]] &= 1 << d;
                }
            }
            let open: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&i| a[i].count_ones() > 1)
                .collect();
            let unplaced: Vec<usize> = (0..9)
                .filter(|&d| cells.iter().filter(|&&i| a[i] >> d & 1 == 1).count() > 1)
                .collect();
            for (k, naked, hidden) in [
                (2, Rule::NakedPair, Rule::HiddenPair),
                (3, Rule::NakedTriple, Rule::HiddenTriple),
                (4, Rule::NakedQuad, Rule::HiddenQuad),
            ] {
                if p.has(naked) {
                    for set in combinations(&open, k) {
                        let values = set.iter().fold(0u16, |x, &i| x | a[i]);
                        if values.count_ones() as usize == k {
                            for &j in open.iter().filter(|j| !set.contains(j)) {
                                b[j] &= !values;
                            }
                        }
                    }
                }
                if p.has(hidden) {
                    for set in combinations(&unplaced, k) {
                        let values = set.iter().fold(0u16, |x, &d| x | 1 << d);
                        let at: Vec<usize> = cells
                            .iter()
                            .copied()
                            .filter(|&i| a[i] & values != 0)
                            .collect();
                        if at.len() == k {
                            for &j in &at {
                                b[j] &= values;
                            }
                        }
                    }
                }
            }
        }
        for blk in 0..9 {
            let block = unit_cells(blk);
            for line in (9..27).map(unit_cells) {
                let shared: Vec<usize> =
                    block.iter().copied().filter(|i| line.contains(i)).collect();
                if shared.is_empty() {
                    continue;
                }
                for d in 0..9 {
                    let has = |cells: &[usize], outside: bool| {
                        cells
                            .iter()
                            .filter(|i| shared.contains(i) != outside)
                            .any(|&i| a[i] >> d & 1 == 1)
                    };
                    let in_shared = has(&shared, false);
                    let block_rest = has(&block, true);
                    let line_rest = has(&line, true);
                    if p.has(Rule::LockedPointing) && in_shared && !block_rest {
                        for &j in line.iter().filter(|i| !shared.contains(i)) {
                            b[j] &= !(1 << d);
                        }
                    }
                    if p.has(Rule::LockedClaiming) && in_shared && !line_rest {
                        for &j in block.iter().filter(|i| !shared.contains(i)) {
                            b[j] &= !(1 << d);
                        }
                    }
                }
            }
        }
        b
    }

    /// The first conflict the rounds show, with their number.
    pub fn explain(g: &hdp::Grid, p: &Profile) -> Option<Reason> {
        let mut c: Cells = std::array::from_fn(|i| g.cells()[i].bits());
        for rounds in 0.. {
            if let Some(conflict) = conflict(&c) {
                return Some(Reason { conflict, rounds });
            }
            let next = round(&c, p);
            if next == c {
                return None;
            }
            c = next;
        }
        None
    }
}

/// Issue 13: the reason of every CTR line is what this plain reading finds after applying the
/// line's hypothesis to the position its context propagates to.
#[test]
fn every_reason_is_the_plain_readings() {
    use hdp::engine::{Analysis, Options};
    let mut checked = 0;
    for p in puzzles().iter().rev().step_by(5).take(10) {
        let opts = Options {
            decisions: hdp::decision::DecisionKinds::PAIRS,
            ..Options::default()
        };
        let a = Analysis::run(p, &opts);
        for l in &a.lines {
            let Some(reason) = &l.line.reason else {
                continue;
            };
            // The position the hypothesis was tested in: the puzzle and every other statement
            // of the context, propagated (by the reference) to its fixpoint.
            let hyp = *l.line.context.last_hypothesis().unwrap();
            let mut g = *p;
            for s in l.line.context.statements().filter(|&&s| s != hyp) {
                s.apply(&mut g);
            }
            let fixpoint = reference(&g, &Profile::DEFAULT).expect("a consistent context");
            let mut g = Grid::empty();
            for (i, cell) in hdp::Cell::all().enumerate() {
                g.set(cell, hdp::Candidates::from_bits(fixpoint[i]));
            }
            hyp.apply(&mut g);
            assert!(reference(&g, &Profile::DEFAULT).is_none(), "{:#}", l.line);
            assert_eq!(
                Some(*reason),
                rounds::explain(&g, &Profile::DEFAULT),
                "{:#}",
                l.line
            );
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} reasons");
}
