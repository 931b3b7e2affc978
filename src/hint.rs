//! The next step a person should look for (`hdp hint`, `hdp.hint` in Python): the first fact of
//! the minimal proof from a position, the chain lines that establish it, and each line's moves.
//! How much of it is shown is a [`Reveal`] level. Also the chain lines paired with their
//! derivations that `hdp chain --explain` and `--minimal` write.
//!
//! Everything here computes; nothing prints. [`Hint::text`] and [`Hint::record`] give the words
//! and the JSON record the front ends write as they are.

use crate::chain::{Chain, ChainLine, LineResult, Marker};
use crate::derivation::{derive_lines, Derivation, Limits};
use crate::engine::{Analysis, Options, Status};
use crate::error::ParseErrorKind;
use crate::format::apply_context;
use crate::grid::{Cell, Grid};
use crate::minimal::{minimal, MinimalError};
use crate::statement::Statement;
use serde::Serialize;
use std::fmt::Write as _;

/// How much of the next step a solver sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Reveal {
    /// The cell the next fact is about.
    Where,
    /// The fact.
    Fact,
    /// The fact, the lines that prove it and every line's derivation.
    Moves,
}

impl std::str::FromStr for Reveal {
    type Err = String;
    fn from_str(s: &str) -> Result<Reveal, String> {
        match s {
            "where" => Ok(Reveal::Where),
            "fact" => Ok(Reveal::Fact),
            "moves" => Ok(Reveal::Moves),
            _ => Err(format!(
                "unknown reveal {s:?} (expected where, fact or moves)"
            )),
        }
    }
}

/// Why there is no hint.
#[derive(Debug, thiserror::Error)]
pub enum HintError {
    /// The context refuses the puzzle (a statement leaves a cell without a value).
    #[error("{0}")]
    Context(ParseErrorKind),
    /// The position is already the solution.
    #[error("already solved: no fact is left to find")]
    Solved,
    /// The analysis did not solve the position.
    #[error("{}", status_problem(.0).unwrap_or_default())]
    Unsolved(Status),
    /// No minimal proof was found.
    #[error("{0}")]
    Minimal(MinimalError),
}

/// Why an analysis ending in `status` gives no proof, in words; `None` when it is solved.
pub fn status_problem(status: &Status) -> Option<String> {
    match status {
        Status::Solved => None,
        Status::NoSolution => Some("the puzzle has no solution".into()),
        Status::MultipleSolutions => Some("the puzzle has several solutions".into()),
        Status::Unsolved(limit) => Some(format!("unsolved: {limit}")),
    }
}

/// The next step from a position.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The position: the puzzle with the context applied.
    pub position: Grid,
    /// How much is shown.
    pub reveal: Reveal,
    /// The cell the step's fact is about (none when propagation alone solves the position).
    pub at: Option<Cell>,
    /// What the step establishes, in words: a statement, or the solution.
    pub fact: String,
    /// The step's lines: the first fact of the minimal proof with the lines it needs.
    pub step: Vec<ChainLine>,
    /// Each step line's derivation (computed for [`Reveal::Moves`] only, else empty).
    pub derivations: Vec<Option<Derivation>>,
    /// The number of DIS and PRF lines of the whole minimal proof.
    pub proof_lines: usize,
    /// The reduction depth of the position.
    pub depth: Option<u8>,
}

/// The next step of `puzzle` with the `given` context, analysed with `options` (a hint deduces:
/// callers usually ask for [`crate::engine::Proof::Contradiction`]); the derivations only when
/// `reveal` shows the moves.
pub fn hint(
    puzzle: &Grid,
    given: &[Statement],
    options: &Options,
    reveal: Reveal,
) -> Result<Hint, HintError> {
    let position = apply_context(puzzle, given).map_err(HintError::Context)?;
    if position.is_complete() && position.is_valid_solution() {
        return Err(HintError::Solved);
    }
    let analysis = Analysis::run_from(puzzle, given, options);
    if analysis.status != Status::Solved {
        return Err(HintError::Unsolved(analysis.status));
    }
    let m = minimal(&analysis).map_err(HintError::Minimal)?;
    let step = m.first_step();
    let derivations = match reveal {
        Reveal::Moves => explain_lines(&analysis, &step),
        Reveal::Where | Reveal::Fact => Vec::new(),
    };
    Ok(Hint {
        position: analysis.puzzle,
        reveal,
        at: where_of(step.last()),
        fact: fact_of(step.last()),
        derivations,
        proof_lines: m.proof_lines().count(),
        depth: analysis.depth,
        step,
    })
}

/// What the hint's last line establishes, in words.
fn fact_of(line: Option<&ChainLine>) -> String {
    match line {
        Some(l) => match (l.marker, l.result) {
            (Marker::Dis, Some(LineResult::Ctr(Some(s)))) => s.to_string(),
            (Marker::Prf, _) => match l.context.levels.get(1).and_then(|v| v.first()) {
                Some(h) => format!("{h} (it leads to the solution)"),
                None => "the solution (propagation alone reaches it)".into(),
            },
            _ => String::new(),
        },
        None => String::new(),
    }
}

/// The cell the hint's last line is about.
fn where_of(line: Option<&ChainLine>) -> Option<Cell> {
    match line.map(|l| (l.marker, l.result)) {
        Some((Marker::Dis, Some(LineResult::Ctr(Some(s))))) => Some(s.cell),
        _ => line
            .and_then(|l| l.context.levels.get(1))
            .and_then(|v| v.first())
            .map(|s| s.cell),
    }
}

/// `1 line`, `3 lines`.
fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".into()
    } else {
        format!("{n} lines")
    }
}

/// The JSON record of a hint; the reveal level leaves out what it does not show.
#[derive(Serialize)]
pub struct HintRecord<'a> {
    /// The position (the puzzle with the given context), 81 characters.
    pub position: String,
    /// How much is shown.
    pub reveal: Reveal,
    /// The cell the step's fact is about (none when propagation alone solves the position).
    #[serde(rename = "where")]
    pub at: Option<String>,
    /// What the step establishes: a statement, or the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// The step in the notation, each line with its reason (as `chain --why`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Vec<String>>,
    /// The step's lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<&'a [ChainLine]>,
    /// The step's lines with their derivations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explained: Option<Vec<ExplainedLine<'a>>>,
    /// The number of DIS and PRF lines of the whole minimal proof.
    pub proof_lines: usize,
    /// The reduction depth of the position.
    pub depth: Option<u8>,
}

impl Hint {
    /// The JSON record (`hdp hint --format json`, without the source fields).
    pub fn record(&self) -> HintRecord<'_> {
        let moves = self.reveal == Reveal::Moves;
        HintRecord {
            position: self.position.to_line(),
            reveal: self.reveal,
            at: self.at.map(|c| c.to_string()),
            fact: (self.reveal != Reveal::Where).then(|| self.fact.clone()),
            text: moves.then(|| self.step.iter().map(|l| format!("{l:#}")).collect()),
            lines: moves.then_some(&self.step[..]),
            explained: moves.then(|| explained(&self.step, &self.derivations)),
            proof_lines: self.proof_lines,
            depth: self.depth,
        }
    }

    /// The text `hdp hint` prints: one comment line, after the step's lines and moves when they
    /// are revealed.
    pub fn text(&self) -> String {
        let depth = self.depth.map_or("-".to_string(), |d| d.to_string());
        match self.reveal {
            Reveal::Where => format!(
                "# next: look at {}; depth {depth}\n",
                self.at.map_or_else(
                    || "the whole grid (propagation solves it)".to_string(),
                    |c| c.to_string()
                )
            ),
            Reveal::Fact => format!("# next: {}; depth {depth}\n", self.fact),
            Reveal::Moves => {
                let chain = Chain {
                    lines: self.step.clone(),
                    count: None,
                };
                format!(
                    "{}# next: {}; a step of {}, a minimal proof of {}, depth {depth}\n",
                    explained_text(&chain, &self.derivations, Why::Shown),
                    self.fact,
                    lines(self.step.len()),
                    lines(self.proof_lines),
                )
            }
        }
    }
}

/// A chain line with its derivation, in JSON.
#[derive(Serialize)]
pub struct ExplainedLine<'a> {
    /// The line in the notation (with its reason).
    pub text: String,
    /// The line.
    #[serde(flatten)]
    pub line: &'a ChainLine,
    /// Its derivation (DIS and PRF lines), if one was found.
    pub derivation: Option<&'a Derivation>,
}

/// The lines with their derivations, for JSON.
pub fn explained<'a>(
    lines: &'a [ChainLine],
    derivations: &'a [Option<Derivation>],
) -> Vec<ExplainedLine<'a>> {
    lines
        .iter()
        .zip(derivations)
        .map(|(line, d)| ExplainedLine {
            text: format!("{line:#}"),
            line,
            derivation: d.as_ref(),
        })
        .collect()
}

/// The derivations of `lines`, lines of a chain of `analysis`.
pub fn explain_lines(analysis: &Analysis, lines: &[ChainLine]) -> Vec<Option<Derivation>> {
    derive_lines(
        &analysis.puzzle,
        lines,
        &analysis.options.profile,
        &Limits::until(analysis.options.budget.deadline),
    )
}

/// Whether a chain's text writes each CTR's reason (`chain --why`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The lines alone.
    Hidden,
    /// Each CTR line with its reason.
    Shown,
}

/// `chain` in the notation with each line's derivation under it (and each reason when `why`
/// shows them), the count line last.
pub fn explained_text(chain: &Chain, derivations: &[Option<Derivation>], why: Why) -> String {
    let mut out = String::new();
    for (line, d) in chain.lines.iter().zip(derivations) {
        // Writing into a String cannot fail.
        let _ = match why {
            Why::Shown => writeln!(out, "{line:#}"),
            Why::Hidden => writeln!(out, "{line}"),
        };
        if let Some(d) = d {
            let _ = write!(out, "{d}");
        }
    }
    if let Some(c) = &chain.count {
        let _ = writeln!(out, "{c}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Proof;

    const PUZZLE: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    /// The hint's fact holds in the solution, and each reveal level gives the same step.
    #[test]
    fn the_hint_fact_holds_in_the_solution() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let solution = match crate::solver::solve_within(&puzzle, Default::default()) {
            Ok(crate::solver::Solutions::Unique(g)) => g,
            other => panic!("{other:?}"),
        };
        let options = Options {
            proof: Proof::Contradiction,
            recording: crate::engine::Recording::Chain,
            ..Options::default()
        };
        let h = hint(&puzzle, &[], &options, Reveal::Moves).unwrap();
        let last = h.step.last().unwrap();
        match (last.marker, last.result) {
            (Marker::Dis, Some(LineResult::Ctr(Some(s)))) => {
                assert!(s.holds_in(&solution), "{s} is false in the solution");
                assert_eq!(h.at, Some(s.cell));
            }
            other => panic!("a contradiction proof ends with a DIS line: {other:?}"),
        }
        assert_eq!(h.derivations.len(), h.step.len());
        let fact = hint(&puzzle, &[], &options, Reveal::Fact).unwrap();
        assert_eq!((fact.at, &fact.fact), (h.at, &h.fact));
        assert!(fact.derivations.is_empty());
        assert!(h.text().ends_with(&format!("depth {}\n", h.depth.unwrap())));
    }

    #[test]
    fn a_solved_position_has_no_hint() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let Ok(crate::solver::Solutions::Unique(solution)) =
            crate::solver::solve_within(&puzzle, Default::default())
        else {
            panic!("unique")
        };
        let e = hint(&solution, &[], &Options::default(), Reveal::Where).unwrap_err();
        assert!(matches!(e, HintError::Solved), "{e}");
    }
}
