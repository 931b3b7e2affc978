//! The serializable record of an analysis (`--format json`): a deliberate boundary, so the JSON
//! schema does not follow every internal change.

use super::{Analysis, Counters, Limit, Status, TracedLine};
use crate::chain::ChainLine;
use crate::statement::Statement;
use serde::Serialize;

/// The settings an analysis ran with, as names.
#[derive(Clone, Debug, Serialize)]
pub struct OptionsRecord {
    /// Deepest test allowed.
    pub max_depth: u8,
    /// Decision kinds, e.g. `cell,constraint`.
    pub decisions: String,
    /// Propagation profile, e.g. `default`.
    pub profile: String,
    /// `solution` or `contradiction`.
    pub proof: super::Proof,
    /// `breadth-first` or `depth-first`.
    pub walk: super::Walk,
}

/// Everything an analysis found, for JSON output.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisRecord {
    /// The puzzle (context applied), 81 characters.
    pub puzzle: String,
    /// The propagated start position.
    pub start: String,
    /// The final position (the solution when solved).
    pub end: String,
    /// `solved`, `unsolved`, `no_solution` or `multiple_solutions`.
    pub status: &'static str,
    /// Why it stopped unsolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// Reduction depth when solved.
    pub depth: Option<u8>,
    /// The deepest summary line.
    pub max_line_depth: usize,
    /// The starting context.
    pub given: Vec<Statement>,
    /// Top-level facts found.
    pub facts: Vec<Statement>,
    /// The summary chain, one string per line.
    pub summary: Vec<String>,
    /// Every recorded line with its position and summary flag.
    pub steps: Vec<TracedLine>,
    /// Effort figures.
    pub counters: Counters,
    /// The settings used.
    pub options: OptionsRecord,
}

impl Analysis {
    /// The record written by `--format json`.
    pub fn record(&self) -> AnalysisRecord {
        let (status, limit) = match self.status {
            Status::Solved => ("solved", None),
            Status::Unsolved(l) => ("unsolved", Some(l)),
            Status::NoSolution => ("no_solution", None),
            Status::MultipleSolutions => ("multiple_solutions", None),
        };
        let summary = self.summary();
        let mut lines: Vec<String> = summary.lines.iter().map(ChainLine::to_string).collect();
        if let Some(c) = summary.count {
            lines.push(c.to_string());
        }
        AnalysisRecord {
            puzzle: self.puzzle.to_line(),
            start: self.start.to_line(),
            end: self.end.to_line(),
            status,
            limit,
            depth: self.depth,
            max_line_depth: self.max_line_depth(),
            given: self.given.clone(),
            facts: self.facts.clone(),
            summary: lines,
            steps: self.lines.clone(),
            counters: self.counters,
            options: OptionsRecord {
                max_depth: self.options.max_depth,
                decisions: self.options.decisions.to_string(),
                profile: self.options.profile.to_string(),
                proof: self.options.proof,
                walk: self.options.walk,
            },
        }
    }
}
