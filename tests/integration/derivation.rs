//! Derivations (spec §10): every move of every derivation of the minimal contradiction proofs,
//! replayed by a checker written apart from the engine from the JSON form (candidates as plain
//! sets, each rule checked from its definition); irredundance; relabelling; text and JSON read
//! back; `hdp hint` gives a true fact with a contradiction proof.

use crate::common::{data_slice, data_text};
use hdp::chain::{ChainLine, Marker};
use hdp::derivation::{derive_lines, line_start, Derivation, End, Limits, ParsedDerivation};
use hdp::engine::{Analysis, Options, Proof};
use hdp::minimal::minimal;
use hdp::propagate::Profile;
use hdp::{Digit, Grid};
use serde_json::Value;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// The checker: plain sets, cells by name, every rule from its definition. It reads only the JSON
// of a derivation and the chain line's notation.

type Cands = Vec<BTreeSet<u8>>;

/// `D4` → index 0..81 (column letter, row digit).
fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "cell name {name}");
    let col = (b[0] - b'A') as usize;
    let row = (b[1] - b'1') as usize;
    assert!(col < 9 && row < 9, "cell name {name}");
    row * 9 + col
}

/// `row 4`, `column A`, `block 5` → its nine cells.
fn unit(name: &str) -> Vec<usize> {
    let (kind, n) = name.split_once(' ').expect("unit name");
    match kind {
        "row" => {
            let r = n.parse::<usize>().unwrap() - 1;
            (0..9).map(|c| r * 9 + c).collect()
        }
        "column" => {
            let c = (n.as_bytes()[0] - b'A') as usize;
            (0..9).map(|r| r * 9 + c).collect()
        }
        "block" => {
            let b = n.parse::<usize>().unwrap() - 1;
            let (r0, c0) = (b / 3 * 3, b % 3 * 3);
            (0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect()
        }
        _ => panic!("unit {name}"),
    }
}

fn is_block(name: &str) -> bool {
    name.starts_with("block ")
}

fn peers(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

/// `1,7` → {1, 7}.
fn values(text: &str) -> BTreeSet<u8> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect()
}

/// `C3: 5,6` → (cell, values).
fn statement(text: &str) -> (usize, BTreeSet<u8>) {
    let (c, v) = text.split_once(':').unwrap();
    (cell(c.trim()), values(v.trim()))
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// A move as plain data.
#[derive(Clone, Debug)]
struct PlainMove {
    rule: String,
    unit: Option<String>,
    leaves: Option<String>,
    cells: Vec<usize>,
    values: BTreeSet<u8>,
    removes: Vec<(usize, BTreeSet<u8>)>,
    uses: Vec<usize>,
}

#[derive(Clone, Debug)]
struct PlainContradiction {
    kind: String,
    cells: Vec<usize>,
    unit: Option<String>,
    values: BTreeSet<u8>,
    uses: Vec<usize>,
}

fn plain_move(m: &Value) -> PlainMove {
    PlainMove {
        rule: m["rule"].as_str().unwrap().to_string(),
        unit: m["unit"].as_str().map(str::to_string),
        leaves: m.get("leaves").and_then(|l| l.as_str()).map(str::to_string),
        cells: strs(&m["cells"]).iter().map(|c| cell(c)).collect(),
        values: values(m["values"].as_str().unwrap()),
        removes: m["removes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (cell(p[0].as_str().unwrap()), values(p[1].as_str().unwrap())))
            .collect(),
        uses: m["uses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap() as usize)
            .collect(),
    }
}

fn plain_contradiction(c: &Value) -> PlainContradiction {
    PlainContradiction {
        kind: c["kind"].as_str().unwrap().to_string(),
        cells: strs(&c["cells"]).iter().map(|x| cell(x)).collect(),
        unit: c["unit"].as_str().map(str::to_string),
        values: values(c["values"].as_str().unwrap()),
        uses: c["uses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap() as usize)
            .collect(),
    }
}

/// The cells of `cells` holding `v`.
fn places(g: &Cands, cells: &[usize], v: u8) -> Vec<usize> {
    cells
        .iter()
        .copied()
        .filter(|&c| g[c].contains(&v))
        .collect()
}

fn distinct(cells: &[usize]) -> bool {
    cells.iter().collect::<BTreeSet<_>>().len() == cells.len()
}

/// Whether the pattern of `m` holds in `g` (not its removals), from the rules' definitions.
fn pattern(g: &Cands, m: &PlainMove, singles_only: bool) -> bool {
    let k = m.cells.len();
    let one = m.values.len() == 1;
    let v = m.values.iter().next().copied().unwrap_or(0);
    if singles_only && !matches!(m.rule.as_str(), "naked_single" | "hidden_single") {
        return false;
    }
    match m.rule.as_str() {
        "naked_single" => k == 1 && g[m.cells[0]] == m.values,
        "hidden_single" => {
            let u = unit(m.unit.as_deref().unwrap());
            one && k == 1 && places(g, &u, v) == m.cells
        }
        "locked_pointing" | "locked_claiming" => {
            let (u, l) = (m.unit.as_deref().unwrap(), m.leaves.as_deref().unwrap());
            let kinds = if m.rule == "locked_pointing" {
                is_block(u) && !is_block(l)
            } else {
                !is_block(u) && is_block(l)
            };
            let (u, l) = (unit(u), unit(l));
            let p = places(g, &u, v);
            kinds && one && !p.is_empty() && p.iter().all(|c| l.contains(c))
        }
        "naked_subset" => {
            let u = unit(m.unit.as_deref().unwrap());
            let union: BTreeSet<u8> = m.cells.iter().flat_map(|&c| g[c].clone()).collect();
            (2..=4).contains(&k)
                && distinct(&m.cells)
                && m.cells.iter().all(|c| u.contains(c))
                && m.values.len() == k
                && union == m.values
        }
        "hidden_subset" => {
            let u = unit(m.unit.as_deref().unwrap());
            let mut union = BTreeSet::new();
            let mut ok = (2..=4).contains(&k)
                && distinct(&m.cells)
                && m.cells.iter().all(|c| u.contains(c))
                && m.values.len() == k;
            for &d in &m.values {
                let p = places(g, &u, d);
                ok &= !p.is_empty() && p.iter().all(|c| m.cells.contains(c));
                union.extend(p);
            }
            ok && union.len() == k
        }
        _ => false,
    }
}

/// Whether each removal is a candidate present and one the rule removes.
fn removals_allowed(g: &Cands, m: &PlainMove) -> bool {
    let v = m.values.iter().next().copied().unwrap_or(0);
    !m.removes.is_empty()
        && m.removes.iter().all(|(c, vals)| {
            let here = !vals.is_empty() && vals.is_subset(&g[*c]);
            let allowed = match m.rule.as_str() {
                "naked_single" => peers(m.cells[0], *c) && *vals == m.values,
                "hidden_single" => *c == m.cells[0] && !vals.contains(&v),
                "locked_pointing" | "locked_claiming" => {
                    unit(m.leaves.as_deref().unwrap()).contains(c)
                        && !unit(m.unit.as_deref().unwrap()).contains(c)
                        && *vals == m.values
                }
                "naked_subset" => {
                    unit(m.unit.as_deref().unwrap()).contains(c)
                        && !m.cells.contains(c)
                        && vals.is_subset(&m.values)
                }
                "hidden_subset" => m.cells.contains(c) && vals.is_disjoint(&m.values),
                _ => false,
            };
            here && allowed
        })
}

fn contradiction(g: &Cands, c: &PlainContradiction) -> bool {
    let v = c.values.iter().next().copied().unwrap_or(0);
    match c.kind.as_str() {
        "no_value" => c.cells.len() == 1 && g[c.cells[0]].is_empty(),
        "no_place" => {
            let u = unit(c.unit.as_deref().unwrap());
            c.values.len() == 1 && places(g, &u, v).is_empty()
        }
        "twice" => {
            let u = unit(c.unit.as_deref().unwrap());
            c.cells.len() == 2
                && distinct(&c.cells)
                && c.cells.iter().all(|x| u.contains(x) && g[*x] == c.values)
        }
        "too_few_values" => {
            let u = unit(c.unit.as_deref().unwrap());
            let union: BTreeSet<u8> = c.cells.iter().flat_map(|&x| g[x].clone()).collect();
            (2..=4).contains(&c.cells.len())
                && distinct(&c.cells)
                && c.cells.iter().all(|x| u.contains(x))
                && union.is_subset(&c.values)
                && c.values.len() < c.cells.len()
        }
        _ => false,
    }
}

/// The earlier moves that removed a candidate whose return alone would break `holds`.
fn premises(
    g: &Cands,
    removed_by: &[[Option<usize>; 10]],
    holds: impl Fn(&Cands) -> bool,
) -> Vec<usize> {
    let mut uses = BTreeSet::new();
    for c in 0..81 {
        for d in 1..=9u8 {
            if let Some(n) = removed_by[c][d as usize] {
                let mut back = g.clone();
                back[c].insert(d);
                if !holds(&back) {
                    uses.insert(n);
                }
            }
        }
    }
    uses.into_iter().collect()
}

/// Replays `moves` from `g` (`skip`: a move left out) and says what fails first.
fn replay(
    start: &Cands,
    moves: &[PlainMove],
    end: &PlainContradiction,
    skip: Option<usize>,
    singles_only: bool,
) -> Result<(), String> {
    let mut g = start.clone();
    let mut removed_by = vec![[None; 10]; 81];
    for (i, m) in moves.iter().enumerate() {
        if skip == Some(i) {
            continue;
        }
        if !pattern(&g, m, singles_only) {
            return Err(format!("move {}: pattern fails", i + 1));
        }
        if !removals_allowed(&g, m) {
            return Err(format!("move {}: removes what it may not", i + 1));
        }
        if skip.is_none() {
            let uses = premises(&g, &removed_by, |h| pattern(h, m, singles_only));
            if uses != m.uses {
                return Err(format!("move {}: uses {:?}, not {:?}", i + 1, m.uses, uses));
            }
        }
        for (c, vals) in &m.removes {
            for d in vals {
                g[*c].remove(d);
                removed_by[*c][*d as usize] = Some(i + 1);
            }
        }
    }
    if !contradiction(&g, end) {
        return Err("the contradiction does not hold".into());
    }
    if skip.is_none() {
        let uses = premises(&g, &removed_by, |h| contradiction(h, end));
        if uses != end.uses {
            return Err(format!("contradiction: uses {:?}, not {uses:?}", end.uses));
        }
    }
    Ok(())
}

/// Checks one derivation, given as JSON: valid, ending in its contradiction, irredundant.
fn check_json(d: &Value, singles_only: bool) -> Result<usize, String> {
    let mut g: Cands = strs(&d["start"])
        .iter()
        .map(|s| s.chars().map(|c| c.to_digit(10).unwrap() as u8).collect())
        .collect();
    assert_eq!(g.len(), 81);
    let mut assumed: Vec<String> = d["hypothesis"]
        .as_str()
        .into_iter()
        .map(String::from)
        .collect();
    assumed.extend(strs(&d["facts"]));
    for s in &assumed {
        let (c, vals) = statement(s);
        g[c] = g[c].intersection(&vals).copied().collect();
    }
    let moves: Vec<PlainMove> = d["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(plain_move)
        .collect();
    let end = plain_contradiction(&d["contradiction"]);
    replay(&g, &moves, &end, None, singles_only)?;
    for i in 0..moves.len() {
        if replay(&g, &moves, &end, Some(i), singles_only).is_ok() {
            return Err(format!("move {} is not needed", i + 1));
        }
    }
    Ok(moves.len())
}

// ---------------------------------------------------------------------------------------------

fn famous() -> Vec<Grid> {
    data_text("famous.tsv")
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .map(|p| p.parse().unwrap())
        .collect()
}

fn contradiction_options(profile: Profile) -> Options {
    Options {
        proof: Proof::Contradiction,
        profile,
        ..Options::default()
    }
}

/// The minimal contradiction proof's lines and their derivations.
fn explained(
    p: &Grid,
    profile: Profile,
) -> Option<(Grid, Vec<ChainLine>, Vec<Option<Derivation>>)> {
    let analysis = Analysis::run(p, &contradiction_options(profile));
    let m = minimal(&analysis).ok()?;
    let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
    let d = derive_lines(&analysis.puzzle, &lines, &profile, &Limits::default());
    Some((analysis.puzzle, lines, d))
}

fn check_all(puzzles: &[Grid], profile: Profile) -> (usize, usize) {
    let singles_only = profile == Profile::SINGLES;
    let (mut lines_seen, mut moves) = (0, 0);
    for p in puzzles {
        let Some((puzzle, lines, all)) = explained(p, profile) else {
            continue;
        };
        for (line, d) in lines.iter().zip(&all) {
            let d = d
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no derivation for {line}", p.to_line()));
            // The start is the line's own.
            let (start, hyp, _) = line_start(&puzzle, &line.context, &profile).unwrap();
            assert_eq!(d.start, start);
            assert_eq!(d.hypothesis, hyp);
            let json = serde_json::to_value(d).unwrap();
            match (line.marker, &d.end) {
                (Marker::Dis, End::Contradiction(_)) => {
                    moves += check_json(&json, singles_only)
                        .unwrap_or_else(|e| panic!("{}\n{line}\n{d}{e}", p.to_line()));
                    lines_seen += 1;
                }
                (Marker::Prf, End::Solution { placements }) => {
                    let mut g = d.assumed();
                    for &(c, v) in placements {
                        g.set(c, hdp::Candidates::single(v));
                    }
                    assert!(g.is_complete() && g.is_valid_solution(), "{line}");
                }
                _ => panic!("{line}: unexpected end {d}"),
            }
        }
    }
    (lines_seen, moves)
}

#[test]
fn derivations_of_famous_minimal_proofs_replay_under_the_default_profile() {
    let (lines, moves) = check_all(&famous(), Profile::DEFAULT);
    assert!(lines > 200, "{lines} lines");
    eprintln!("{lines} lines, {moves} moves");
}

#[test]
fn derivations_replay_under_singles_and_on_corpus_slices() {
    let mut puzzles = famous();
    puzzles.truncate(8);
    let (lines, _) = check_all(&puzzles, Profile::SINGLES);
    assert!(lines > 20);
    let mut slices = data_slice("top95.txt", 6);
    slices.extend(data_slice("forum-hardest-1106.txt", 4));
    slices.extend(data_slice("magictour-top1465-every5.txt", 4));
    let (lines, _) = check_all(&slices, Profile::DEFAULT);
    assert!(lines > 20);
    let (lines, _) = check_all(&data_slice("top95.txt", 4), Profile::SINGLES);
    assert!(lines > 4);
}

/// The checker catches a broken move, a redundant move and wrong premises.
#[test]
fn the_checker_rejects_broken_derivations() {
    let (_, _, all) = explained(&famous()[0], Profile::DEFAULT).unwrap();
    let d = all
        .iter()
        .flatten()
        .find(|d| d.moves.len() >= 3 && d.contradiction().is_some())
        .unwrap();
    let json = serde_json::to_value(d).unwrap();
    assert!(check_json(&json, false).is_ok());
    // A move that removes a candidate its rule does not remove.
    let mut broken = json.clone();
    let m = &mut broken["moves"][1]["removes"][0][1];
    *m = Value::String("1,2,3,4,5,6,7,8,9".into());
    assert!(check_json(&broken, false).is_err());
    // A move left out.
    let mut broken = json.clone();
    broken["moves"].as_array_mut().unwrap().remove(0);
    assert!(check_json(&broken, false).is_err());
    // A move repeated at the end is redundant.
    let mut broken = json.clone();
    let first = broken["moves"][0].clone();
    let moves = broken["moves"].as_array_mut().unwrap();
    let last = moves.len();
    moves.insert(last, first);
    assert!(check_json(&broken, false).is_err());
    // Wrong premises.
    let mut broken = json.clone();
    broken["contradiction"]["uses"] = Value::Array(vec![]);
    assert!(check_json(&broken, false).is_err());
    // Subsets are not singles.
    if d.moves.iter().any(|m| {
        m.rule != hdp::derivation::Rule::NakedSingle
            && m.rule != hdp::derivation::Rule::HiddenSingle
    }) {
        assert!(check_json(&json, true).is_err());
    }
}

/// The hypotheses of levels 1 to `upto` of a line.
fn path(line: &ChainLine, upto: usize) -> Vec<hdp::Statement> {
    line.context.levels[1..=upto]
        .iter()
        .map(|level| level[0])
        .collect()
}

/// A line refuted one level down names its decision and the two lines that refute it: both are
/// earlier lines of the chain, under the line's own hypotheses and one branch each, and the
/// checker accepts their derivations. (Minimal proofs of famous.tsv have no such line; the
/// chains `chain --explain` shows do.)
#[test]
fn a_line_refuted_one_level_down_names_its_decision_and_both_refuting_lines() {
    let mut found = 0;
    for p in famous() {
        if found > 0 {
            break;
        }
        let analysis = Analysis::run(&p, &contradiction_options(Profile::DEFAULT));
        let lines = analysis.summary().lines;
        let puzzle = analysis.puzzle;
        let all = derive_lines(&puzzle, &lines, &Profile::DEFAULT, &Limits::default());
        for (x, (line, d)) in lines.iter().zip(&all).enumerate() {
            let Some(End::Refuted {
                decision,
                lines: refuting,
            }) = d.as_ref().map(|d| &d.end)
            else {
                continue;
            };
            found += 1;
            let d = d.as_ref().unwrap();
            assert_eq!(line.marker, Marker::Dis);
            assert!(d.moves.is_empty());
            // The decision splits one cell's values, as propagation leaves them, in two.
            let [a, b] = decision;
            assert_eq!(a.cell, b.cell, "{line}");
            assert!((a.values & b.values).is_empty(), "{line}");
            let mut g = d.assumed();
            hdp::propagate::propagate(&mut g, &Profile::DEFAULT);
            assert!(g.get(a.cell).is_subset_of(a.values | b.values), "{line}");
            for (branch, r) in decision.iter().zip(refuting.iter()) {
                // An earlier line of the proof, one level down, under the same hypotheses.
                let at = lines[..x]
                    .iter()
                    .position(|l| l == r)
                    .unwrap_or_else(|| panic!("{r} is not a line before {line}"));
                assert_eq!(r.marker, Marker::Dis);
                assert_eq!(r.depth(), line.depth() + 1, "{r}");
                assert_eq!(r.context.last_hypothesis(), Some(branch), "{r}");
                assert_eq!(path(r, line.depth()), path(line, line.depth()), "{r}");
                // Its derivation holds for the checker (or it is refuted one level further).
                let rd = all[at].as_ref().unwrap();
                match &rd.end {
                    End::Contradiction(_) => {
                        check_json(&serde_json::to_value(rd).unwrap(), false)
                            .unwrap_or_else(|e| panic!("{}\n{r}\n{rd}{e}", puzzle.to_line()));
                    }
                    End::Refuted { .. } => {}
                    _ => panic!("{r}: {rd}"),
                }
            }
            // The text names the decision.
            let text = d.to_string();
            assert!(
                text.contains(&format!("refuted one level down: {a} and {b}")),
                "{text}"
            );
        }
    }
    assert!(found > 0, "no line of famous.tsv is refuted one level down");
    eprintln!("{found} lines refuted one level down");
}

#[test]
fn relabelling_the_digits_relabels_every_derivation() {
    let map: [Digit; 9] = [4, 7, 1, 9, 2, 5, 8, 3, 6].map(|d| Digit::new(d).unwrap());
    for p in famous().iter().take(10) {
        let Some((_, _, a)) = explained(p, Profile::DEFAULT) else {
            continue;
        };
        let (_, _, b) = explained(&p.relabel(&map), Profile::DEFAULT).unwrap();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            let (x, y) = (x.as_ref().unwrap().relabel(&map), y.as_ref().unwrap());
            // The same moves (two moves that differ only in their values, read in the same
            // round, may come in either order) and the same end.
            assert_eq!(x.moves.len(), y.moves.len(), "{}", p.to_line());
            let plain = |d: &Derivation| {
                let mut m: Vec<String> = d
                    .moves
                    .iter()
                    .map(|m| {
                        format!(
                            "{:?}",
                            hdp::derivation::Move {
                                uses: vec![],
                                ..m.clone()
                            }
                        )
                    })
                    .collect();
                m.sort();
                m
            };
            assert_eq!(plain(&x), plain(y), "{}", p.to_line());
            assert_eq!(x.start, y.start);
            assert_eq!(
                x.contradiction()
                    .map(|c| (c.kind, c.unit, c.cells.clone(), c.values)),
                y.contradiction()
                    .map(|c| (c.kind, c.unit, c.cells.clone(), c.values))
            );
        }
    }
}

#[test]
fn text_and_json_read_back_to_the_same_moves() {
    for p in famous().iter().take(6) {
        let (_, _, all) = explained(p, Profile::DEFAULT).unwrap();
        for d in all.iter().flatten() {
            let text = d.to_string();
            let lines: Vec<&str> = text.lines().collect();
            let back = hdp::derivation::parse_derivation(&lines, 1).unwrap();
            assert_eq!(back, ParsedDerivation::of(d));
            let mut again = String::new();
            // Print → parse → print: the same text.
            let reprinted = Derivation {
                start: d.start,
                hypothesis: back.hypothesis,
                facts: back.facts.clone(),
                moves: back.moves.clone(),
                end: d.end.clone(),
            };
            again.push_str(&reprinted.to_string());
            assert_eq!(again, text);
            let json = serde_json::to_string(d).unwrap();
            let v: Value = serde_json::from_str(&json).unwrap();
            let moves: Vec<hdp::derivation::Move> =
                serde_json::from_value(v["moves"].clone()).unwrap();
            assert_eq!(moves, d.moves);
        }
    }
}

#[cfg(feature = "cli")]
mod hint {
    use super::*;
    use hdp::solver::{solve, Solutions};

    fn hdp() -> assert_cmd::Command {
        assert_cmd::Command::cargo_bin("hdp").unwrap()
    }

    /// `hdp hint --format json` on `puzzles`: each record's position and fact.
    fn hints(puzzles: &[Grid], extra: &[&str]) -> Vec<Value> {
        let input: String = puzzles.iter().map(|p| p.to_line() + "\n").collect();
        let out = hdp()
            .args(["hint", "--format", "json"])
            .args(extra)
            .arg("-")
            .write_stdin(input)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The hint's fact holds in the solution and never comes from reaching it.
    #[test]
    fn hint_facts_are_true_and_deduced_on_famous_and_forum_hardest() {
        let mut puzzles = famous();
        puzzles.extend(data_slice("forum-hardest-1106.txt", 12));
        let records = hints(&puzzles, &[]);
        assert_eq!(records.len(), puzzles.len());
        for (p, r) in puzzles.iter().zip(&records) {
            let fact = r["fact"].as_str().unwrap_or_else(|| panic!("{r}"));
            assert!(!fact.contains("leads to the solution"), "{fact}");
            let Solutions::Unique(solution) = solve(p) else {
                panic!("{}", p.to_line())
            };
            if fact == "the solution (propagation alone reaches it)" {
                let mut g = *p;
                let outcome = hdp::propagate::propagate(&mut g, &Profile::DEFAULT);
                assert_eq!(outcome, hdp::propagate::Outcome::Solved, "{}", p.to_line());
                continue;
            }
            let s: hdp::Statement = fact.parse().unwrap_or_else(|e| panic!("{fact}: {e}"));
            assert!(s.holds_in(&solution), "{}: {fact}", p.to_line());
            // Every line of the step is a DIS line with its derivation.
            for l in r["explained"].as_array().unwrap() {
                assert_eq!(l["marker"], "DIS", "{l}");
                assert!(l["derivation"]["contradiction"].is_object(), "{l}");
                let line: ChainLine = l["text"].as_str().unwrap().parse().unwrap();
                assert_eq!(line.marker, Marker::Dis);
            }
            assert!(!r.to_string().contains("PRF #"), "{r}");
        }
        // The text form says the same, with the moves under each line.
        let out = hdp()
            .args(["hint", &puzzles[0].to_line()])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("  1. "), "{text}");
        assert!(text.contains("  contradiction: "), "{text}");
        assert!(!text.contains("leads to the solution"), "{text}");
        let chain: hdp::chain::Chain = text.parse().unwrap();
        assert!(!chain.lines.is_empty());
    }

    /// `--reveal` shows less; `--proof solution` is the only way to a guessed value.
    #[test]
    fn reveal_levels_and_the_solution_proof_on_request() {
        let p = famous()[0].to_line();
        let run = |args: &[&str]| {
            let out = hdp().arg("hint").args(args).arg(&p).output().unwrap();
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap()
        };
        let moves = run(&[]);
        let fact = run(&["--reveal", "fact"]);
        let at = run(&["--reveal", "where"]);
        let next = moves.lines().last().unwrap();
        let fact_text = next
            .strip_prefix("# next: ")
            .unwrap()
            .split(';')
            .next()
            .unwrap();
        assert_eq!(fact.lines().count(), 1, "{fact}");
        assert!(fact.starts_with(&format!("# next: {fact_text};")), "{fact}");
        let cell = fact_text.split(':').next().unwrap();
        assert_eq!(at.lines().count(), 1, "{at}");
        assert!(at.starts_with(&format!("# next: look at {cell};")), "{at}");
        assert!(!at.contains(fact_text), "{at}");
        let json = hints(&[famous()[0]], &["--reveal", "where"]);
        assert!(json[0].get("fact").is_none() && json[0]["where"] == cell);
        // Asked for, the solution proof may reveal a value.
        let solution = run(&["--proof", "solution"]);
        assert!(solution.contains("# next: "), "{solution}");
    }
}

/// The figures for BENCHMARKS (not a timed test): moves per explained line and per minimal
/// proof against the plain count of every move rounds make before the contradiction, and the
/// time to explain a minimal proof. `cargo test --release --test integration derivation_figures
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn derivation_figures() {
    use std::time::Instant;
    let pct = |v: &mut Vec<usize>, q: f64| {
        v.sort_unstable();
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    let mut forum = data_slice("forum-hardest-1106.txt", 375);
    forum.truncate(100);
    for (name, puzzles) in [
        ("famous", famous()),
        ("forum-hardest-1106 first 100", forum),
    ] {
        let (mut per_line, mut plain, mut per_proof, mut median_line_of_proof) =
            (vec![], vec![], vec![], vec![]);
        let mut micros = vec![];
        for p in &puzzles {
            let analysis = Analysis::run(p, &contradiction_options(Profile::DEFAULT));
            let Ok(m) = minimal(&analysis) else { continue };
            let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
            let t = Instant::now();
            let all = derive_lines(
                &analysis.puzzle,
                &lines,
                &Profile::DEFAULT,
                &Limits::default(),
            );
            micros.push(t.elapsed().as_micros() as usize);
            let mut these = vec![];
            for d in all.iter().flatten() {
                if d.contradiction().is_some() {
                    these.push(d.moves.len());
                    plain.push(hdp::derivation::plain_moves(
                        &d.assumed(),
                        &Profile::DEFAULT,
                    ));
                }
            }
            per_proof.push(these.iter().sum());
            per_line.extend(these.iter().copied());
            if !these.is_empty() {
                median_line_of_proof.push(pct(&mut these, 0.5));
            }
        }
        eprintln!(
            "{name}: {} proofs, {} lines; moves per line median {} p90 {} max {}; plain moves \
             per line median {} p90 {} max {}; moves per proof median {} p90 {} max {}; median \
             line of a proof: median {} max {}; explain a proof: median {} ms, max {} ms",
            per_proof.len(),
            per_line.len(),
            pct(&mut per_line, 0.5),
            pct(&mut per_line, 0.9),
            pct(&mut per_line, 1.0),
            pct(&mut plain, 0.5),
            pct(&mut plain, 0.9),
            pct(&mut plain, 1.0),
            pct(&mut per_proof, 0.5),
            pct(&mut per_proof, 0.9),
            pct(&mut per_proof, 1.0),
            pct(&mut median_line_of_proof, 0.5),
            pct(&mut median_line_of_proof, 1.0),
            pct(&mut micros, 0.5) / 1000,
            pct(&mut micros, 1.0) / 1000,
        );
    }
}
