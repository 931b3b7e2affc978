//! The text form of a derivation: indented lines under their chain line, one move a line,
//! numbered and readable aloud, parsed back to the same moves.
//!
//! ```text
//!   assume C3: 5,6
//!   1. naked single: H8 holds only 2 → 2 leaves G8, H3
//!   2. hidden single: 7 has one place in row 4, D4 → D4 keeps only 7 (1,2 leave) [uses 1]
//!   3. locked candidates (pointing): in block 5, 7 lies only in row 4 (D4, E4) → 7 leaves A4 [uses 2]
//!   4. naked pair: D4, E4 hold only 1,7 in row 4 → 1,7 leave A4; 7 leaves B4 [uses 3]
//!   contradiction: D5 has no value [uses 3, 4]
//! ```
//!
//! A chain parser skips these lines ([`is_derivation_text`]); [`parse_derivation`] reads them.

use super::{candidates_named, unit_named, Contradiction, ContradictionKind, Derivation, End};
use super::{Cut, Move, Rule};
use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Candidates, Cell, Digit, Unit};
use crate::statement::Statement;
use std::fmt;

/// `D4, E4`.
pub(super) fn cells(list: &[Cell]) -> String {
    list.iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn leave(v: Candidates) -> &'static str {
    if v.len() == 1 {
        "leaves"
    } else {
        "leave"
    }
}

/// `1,7 leave A4; 7 leaves B4, C4`: the removals grouped by values, in the order of their first
/// cell.
fn effect(removes: &[(Cell, Candidates)]) -> String {
    let mut groups: Vec<(Candidates, Vec<Cell>)> = Vec::new();
    for &(c, v) in removes {
        match groups.iter_mut().find(|(w, _)| *w == v) {
            Some((_, list)) => list.push(c),
            None => groups.push((v, vec![c])),
        }
    }
    groups
        .iter()
        .map(|(v, list)| format!("{v} {} {}", leave(*v), cells(list)))
        .collect::<Vec<_>>()
        .join("; ")
}

fn uses(list: &[usize]) -> String {
    if list.is_empty() {
        String::new()
    } else {
        let n: Vec<String> = list.iter().map(usize::to_string).collect();
        format!(" [uses {}]", n.join(", "))
    }
}

impl fmt::Display for Move {
    /// The move in words, without its number: pattern, `→`, effect, premises.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = self.unit.map(|u| u.to_string()).unwrap_or_default();
        let leaves = self.leaves.map(|u| u.to_string()).unwrap_or_default();
        let list = cells(&self.cells);
        let v = self.values;
        write!(f, "{}: ", self.rule.words(self.cells.len()))?;
        match self.rule {
            Rule::NakedSingle => write!(f, "{list} holds only {v}")?,
            Rule::HiddenSingle => write!(f, "{v} has one place in {unit}, {list}")?,
            Rule::LockedPointing | Rule::LockedClaiming => {
                write!(f, "in {unit}, {v} lies only in {leaves} ({list})")?;
            }
            Rule::NakedSubset => write!(f, "{list} hold only {v} in {unit}")?,
            Rule::HiddenSubset => write!(f, "{v} have only the places {list} in {unit}")?,
        }
        f.write_str(" → ")?;
        match (self.rule, &self.removes[..]) {
            (Rule::HiddenSingle, [(c, gone)]) => {
                write!(f, "{c} keeps only {v} ({gone} {})", leave(*gone))?;
            }
            _ => f.write_str(&effect(&self.removes))?,
        }
        f.write_str(&uses(&self.uses))
    }
}

fn statements(list: &[Statement]) -> String {
    list.iter()
        .map(Statement::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

impl fmt::Display for Derivation {
    /// The derivation's lines, each indented by two spaces and ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.hypothesis, self.facts.is_empty()) {
            (Some(h), true) => writeln!(f, "  assume {h}")?,
            (Some(h), false) => writeln!(f, "  assume {h} with {}", statements(&self.facts))?,
            (None, false) => writeln!(f, "  with {}", statements(&self.facts))?,
            (None, true) => {}
        }
        for (i, m) in self.moves.iter().enumerate() {
            writeln!(f, "  {}. {m}", i + 1)?;
        }
        match &self.end {
            End::Contradiction(c) => writeln!(f, "  contradiction: {c}{}", uses(&c.uses)),
            End::Refuted { decision, .. } => writeln!(
                f,
                "  refuted one level down: {} and {} both fail (the lines above)",
                decision[0], decision[1]
            ),
            End::Solution { placements } => {
                let shown = placements.len().min(SHOWN_PLACEMENTS);
                let list: Vec<String> = placements[..shown]
                    .iter()
                    .map(|(c, d)| format!("{c}={d}"))
                    .collect();
                write!(
                    f,
                    "  solution: {} placements: {}",
                    placements.len(),
                    list.join(", ")
                )?;
                match placements.len() - shown {
                    0 => writeln!(f),
                    more => writeln!(f, " … and {more} more fill the grid"),
                }
            }
            End::Cut(cut) => writeln!(f, "  cut: {}", cut.words()),
        }
    }
}

pub use crate::chain::is_derivation_text;

/// The placements a `PRF` line's text names before it sums up the rest (`… and 40 more fill the
/// grid`); the JSON form carries them all.
pub const SHOWN_PLACEMENTS: usize = 12;

/// A derivation read back from text: everything but the start position, which the chain line
/// and the puzzle give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedDerivation {
    /// The hypothesis.
    pub hypothesis: Option<Statement>,
    /// The facts applied with it.
    pub facts: Vec<Statement>,
    /// The moves.
    pub moves: Vec<Move>,
    /// How it ends.
    pub end: ParsedEnd,
}

/// How a derivation read back ends: [`End`] without the refuting lines (the chain has them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedEnd {
    /// A contradiction.
    Contradiction(Contradiction),
    /// A decision one level down fails both ways.
    Refuted {
        /// The two branches.
        decision: [Statement; 2],
    },
    /// The placements to the full grid: the first ones the text shows, and how many more.
    Solution {
        /// Each cell with its value, at most [`SHOWN_PLACEMENTS`] of them.
        placements: Vec<(Cell, Digit)>,
        /// The placements summed up after them.
        more: usize,
    },
    /// A limit cut the derivation short.
    Cut(Cut),
}

impl ParsedDerivation {
    /// What `d` reads back as.
    pub fn of(d: &Derivation) -> ParsedDerivation {
        ParsedDerivation {
            hypothesis: d.hypothesis,
            facts: d.facts.clone(),
            moves: d.moves.clone(),
            end: match &d.end {
                End::Contradiction(c) => ParsedEnd::Contradiction(c.clone()),
                End::Refuted { decision, .. } => ParsedEnd::Refuted {
                    decision: *decision,
                },
                End::Solution { placements } => {
                    let shown = placements.len().min(SHOWN_PLACEMENTS);
                    ParsedEnd::Solution {
                        placements: placements[..shown].to_vec(),
                        more: placements.len() - shown,
                    }
                }
                End::Cut(cut) => ParsedEnd::Cut(*cut),
            },
        }
    }
}

fn bad(line: usize, text: &str, reason: &str) -> ParseError {
    ParseError::new(
        line,
        3,
        ParseErrorKind::BadStatement {
            text: text.trim().to_string(),
            reason: reason.to_string(),
        },
    )
}

fn cells_named(s: &str) -> Option<Vec<Cell>> {
    s.split(", ").map(|c| c.trim().parse().ok()).collect()
}

fn values_named(s: &str) -> Option<Candidates> {
    candidates_named(s).filter(|v| !v.is_empty() && v.to_string() == s)
}

fn statements_named(s: &str) -> Option<Vec<Statement>> {
    s.split(" + ").map(|t| t.trim().parse().ok()).collect()
}

/// `[uses 1, 2]` at the end of `s`: the text before it and the numbers.
fn split_uses(s: &str) -> Option<(&str, Vec<usize>)> {
    match s.strip_suffix(']').and_then(|t| t.rsplit_once(" [uses ")) {
        Some((body, list)) => {
            let n: Option<Vec<usize>> = list.split(", ").map(|x| x.parse().ok()).collect();
            Some((body, n?))
        }
        None => Some((s, Vec::new())),
    }
}

/// `1,7 leave A4; 7 leaves B4, C4` → the removals by cell.
fn effect_named(s: &str) -> Option<Vec<(Cell, Candidates)>> {
    let mut out: Vec<(Cell, Candidates)> = Vec::new();
    for part in s.split("; ") {
        let (v, list) = part
            .split_once(" leaves ")
            .or_else(|| part.split_once(" leave "))?;
        let v = values_named(v)?;
        for c in cells_named(list)? {
            out.push((c, v));
        }
    }
    out.sort_by_key(|(c, _)| *c);
    Some(out)
}

fn unit_of(s: &str) -> Option<Unit> {
    unit_named(s)
}

fn rule_named(s: &str) -> Option<(Rule, usize)> {
    Some(match s {
        "naked single" => (Rule::NakedSingle, 1),
        "hidden single" => (Rule::HiddenSingle, 1),
        "locked candidates (pointing)" => (Rule::LockedPointing, 0),
        "locked candidates (claiming)" => (Rule::LockedClaiming, 0),
        "naked pair" => (Rule::NakedSubset, 2),
        "naked triple" => (Rule::NakedSubset, 3),
        "naked quad" => (Rule::NakedSubset, 4),
        "hidden pair" => (Rule::HiddenSubset, 2),
        "hidden triple" => (Rule::HiddenSubset, 3),
        "hidden quad" => (Rule::HiddenSubset, 4),
        _ => return None,
    })
}

/// One move's words (after its number).
fn move_named(s: &str) -> Option<Move> {
    let (body, uses) = split_uses(s)?;
    let (name, rest) = body.split_once(": ")?;
    let (rule, size) = rule_named(name)?;
    let (pattern, effect) = rest.split_once(" → ")?;
    let mut m = Move {
        rule,
        unit: None,
        leaves: None,
        cells: Vec::new(),
        values: Candidates::NONE,
        removes: Vec::new(),
        uses,
    };
    match rule {
        Rule::NakedSingle => {
            let (c, v) = pattern.split_once(" holds only ")?;
            m.cells = vec![c.parse().ok()?];
            m.values = values_named(v)?;
        }
        Rule::HiddenSingle => {
            let (v, rest) = pattern.split_once(" has one place in ")?;
            let (u, c) = rest.rsplit_once(", ")?;
            m.values = values_named(v)?;
            m.unit = Some(unit_of(u)?);
            m.cells = vec![c.parse().ok()?];
        }
        Rule::LockedPointing | Rule::LockedClaiming => {
            let rest = pattern.strip_prefix("in ")?;
            let (u, rest) = rest.split_once(", ")?;
            let (v, rest) = rest.split_once(" lies only in ")?;
            let (l, list) = rest.strip_suffix(')')?.split_once(" (")?;
            m.unit = Some(unit_of(u)?);
            m.values = values_named(v)?;
            m.leaves = Some(unit_of(l)?);
            m.cells = cells_named(list)?;
        }
        Rule::NakedSubset => {
            let (list, rest) = pattern.split_once(" hold only ")?;
            let (v, u) = rest.split_once(" in ")?;
            m.cells = cells_named(list)?;
            m.values = values_named(v)?;
            m.unit = Some(unit_of(u)?);
        }
        Rule::HiddenSubset => {
            let (v, rest) = pattern.split_once(" have only the places ")?;
            let (list, u) = rest.split_once(" in ")?;
            m.values = values_named(v)?;
            m.cells = cells_named(list)?;
            m.unit = Some(unit_of(u)?);
        }
    }
    if size > 0 && m.cells.len() != size {
        return None;
    }
    m.removes = match (rule, effect.split_once(" keeps only ")) {
        (Rule::HiddenSingle, Some((c, rest))) => {
            let (v, gone) = rest.split_once(" (")?;
            if values_named(v)? != m.values {
                return None;
            }
            let gone = gone
                .strip_suffix(" leaves)")
                .or_else(|| gone.strip_suffix(" leave)"))?;
            vec![(c.parse().ok()?, values_named(gone)?)]
        }
        _ => effect_named(effect)?,
    };
    Some(m)
}

fn contradiction_named(s: &str) -> Option<Contradiction> {
    let (body, uses) = split_uses(s)?;
    let mut c = Contradiction {
        kind: ContradictionKind::NoValue,
        cells: Vec::new(),
        unit: None,
        values: Candidates::NONE,
        uses,
    };
    if let Some(cell) = body.strip_suffix(" has no value") {
        c.cells = vec![cell.parse().ok()?];
    } else if let Some((v, u)) = body.split_once(" has no place in ") {
        c.kind = ContradictionKind::NoPlace;
        c.values = values_named(v)?;
        c.unit = Some(unit_of(u)?);
    } else if let Some((v, rest)) = body.split_once(" twice in ") {
        let (u, list) = rest.split_once(": ")?;
        c.kind = ContradictionKind::Twice;
        c.values = values_named(v)?;
        c.unit = Some(unit_of(u)?);
        c.cells = cells_named(list)?;
    } else {
        let (list, rest) = body.split_once(" hold only ")?;
        let (v, u) = rest.split_once(" in ")?;
        c.kind = ContradictionKind::TooFewValues;
        c.cells = cells_named(list)?;
        c.values = values_named(v)?;
        c.unit = Some(unit_of(u)?);
    }
    Some(c)
}

/// Reads a derivation's lines (as [`Derivation`]'s `Display` writes them, one string a line);
/// `first_line` is the 1-based number of the first of them in its file, for errors.
///
/// Returns an error naming the line that does not read, or the move numbered out of order.
pub fn parse_derivation(lines: &[&str], first_line: usize) -> Result<ParsedDerivation, ParseError> {
    let mut out = ParsedDerivation {
        hypothesis: None,
        facts: Vec::new(),
        moves: Vec::new(),
        end: ParsedEnd::Solution {
            placements: Vec::new(),
            more: 0,
        },
    };
    let mut ended = false;
    for (i, raw) in lines.iter().enumerate() {
        let n = first_line + i;
        let text = raw.trim();
        let fail = |reason: &str| bad(n, text, reason);
        if ended {
            return Err(fail("a derivation has nothing after its end"));
        }
        if let Some(rest) = text.strip_prefix("assume ") {
            let (h, facts) = match rest.split_once(" with ") {
                Some((h, f)) => (h, statements_named(f)),
                None => (rest, Some(Vec::new())),
            };
            out.hypothesis = Some(h.parse().map_err(|_| fail("expected a statement"))?);
            out.facts = facts.ok_or_else(|| fail("expected statements after 'with'"))?;
        } else if let Some(rest) = text.strip_prefix("with ") {
            out.facts = statements_named(rest).ok_or_else(|| fail("expected statements"))?;
        } else if let Some(rest) = text.strip_prefix("contradiction: ") {
            let c = contradiction_named(rest).ok_or_else(|| fail("expected a contradiction"))?;
            out.end = ParsedEnd::Contradiction(c);
            ended = true;
        } else if let Some(rest) = text.strip_prefix("refuted one level down: ") {
            let both = rest
                .strip_suffix(" both fail (the lines above)")
                .and_then(|r| r.split_once(" and "))
                .and_then(|(a, b)| Some([a.parse().ok()?, b.parse().ok()?]))
                .ok_or_else(|| fail("expected two statements that both fail"))?;
            out.end = ParsedEnd::Refuted { decision: both };
            ended = true;
        } else if let Some(rest) = text.strip_prefix("cut: ") {
            let cut = [Cut::Deadline, Cut::Moves]
                .into_iter()
                .find(|c| c.words() == rest)
                .ok_or_else(|| fail("expected the limit that cut the derivation"))?;
            out.end = ParsedEnd::Cut(cut);
            ended = true;
        } else if let Some(rest) = text.strip_prefix("solution: ") {
            let (count, list) = rest
                .split_once(" placements: ")
                .or_else(|| rest.strip_suffix(" placements:").map(|c| (c, "")))
                .ok_or_else(|| fail("expected the placements"))?;
            let (list, more) = match list.split_once(" … and ") {
                Some((list, tail)) => {
                    let more = tail
                        .strip_suffix(" more fill the grid")
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|&n| n > 0)
                        .ok_or_else(|| fail("expected '… and N more fill the grid'"))?;
                    (list, more)
                }
                None => (list, 0),
            };
            let placements: Option<Vec<(Cell, Digit)>> = list
                .split(", ")
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (c, d) = p.split_once('=')?;
                    Some((c.parse().ok()?, d.parse().ok().and_then(Digit::new)?))
                })
                .collect();
            let placements = placements.ok_or_else(|| fail("expected placements like A1=3"))?;
            if more > 0 && placements.len() != SHOWN_PLACEMENTS {
                return Err(fail("a summed-up list shows its first placements in full"));
            }
            if count.parse() != Ok(placements.len() + more) {
                return Err(fail("the count of placements does not match the list"));
            }
            out.end = ParsedEnd::Solution { placements, more };
            ended = true;
        } else {
            let (number, rest) = text
                .split_once(". ")
                .ok_or_else(|| fail("expected a numbered move"))?;
            if number.parse() != Ok(out.moves.len() + 1) {
                return Err(fail("moves are numbered 1, 2, 3, … in order"));
            }
            out.moves
                .push(move_named(rest).ok_or_else(|| fail("expected a move"))?);
        }
    }
    if !ended {
        return Err(bad(
            first_line + lines.len(),
            "",
            "a derivation ends in a contradiction, a refutation, a solution or a cut",
        ));
    }
    Ok(out)
}
