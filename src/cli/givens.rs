//! `hdp givens`: the redundant givens of each puzzle and whether it is minimal.

use super::input::{Read1, ReadError};
use super::output::error;
use super::{InputArgs, Output, ResultFormat, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
use hdp::givens::check_givens;
use hdp::solver::SolveLimits;
use hdp::Cell;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// `hdp givens`.
#[derive(Args, Debug)]
pub struct GivensArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
    /// The most seconds per puzzle (a number above 0); without it each solver run stops after
    /// its default node budget.
    #[arg(long, value_parser = super::parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<f64>,
}

/// A `givens --format json` record (after `schema`, `line`, `source`).
#[derive(Serialize)]
struct GivensRecord {
    /// The puzzle, 81 characters.
    puzzle: String,
    /// How many givens it has.
    givens: usize,
    /// The redundant givens (A1..I9), row by row.
    redundant: Vec<String>,
    /// Whether none is redundant.
    minimal: bool,
}

pub fn run(a: &GivensArgs, out: &mut Output) -> anyhow::Result<i32> {
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    for Read1 { source, puzzle, .. } in &mut puzzles {
        let p = match puzzle {
            Ok(p) => p,
            Err(e) => {
                let (line, msg) = match &e {
                    ReadError::Parse(p) => (p.line, format!("{source}: {p}")),
                    ReadError::Input(_) => (0, e.to_string()),
                };
                error(format_args!("{msg}"));
                match a.format {
                    ResultFormat::Json => out.error_record(&source, line, &e.to_string())?,
                    ResultFormat::Text => writeln!(out, "error")?,
                }
                code = EXIT_PUZZLE;
                continue;
            }
        };
        let deadline = hdp::settings::deadline_after(Instant::now(), a.timeout);
        match check_givens(&p.grid, SolveLimits::until(deadline)) {
            Ok(check) => {
                let names: Vec<String> = check.redundant.iter().map(Cell::to_string).collect();
                match a.format {
                    ResultFormat::Json => out.record(
                        &source,
                        p.line,
                        &GivensRecord {
                            puzzle: p.grid.to_line(),
                            givens: check.givens.len(),
                            redundant: names,
                            minimal: check.is_minimal(),
                        },
                    )?,
                    ResultFormat::Text if check.is_minimal() => writeln!(
                        out,
                        "minimal: none of the {} givens can be removed",
                        check.givens.len()
                    )?,
                    ResultFormat::Text => writeln!(
                        out,
                        "not minimal: {} of the {} givens can each be removed alone: {}",
                        names.len(),
                        check.givens.len(),
                        names.join(" ")
                    )?,
                }
            }
            Err(e) => {
                error(format_args!("{source} line {}: {e}", p.line));
                code = EXIT_PUZZLE;
                match a.format {
                    ResultFormat::Json => out.error_record(&source, p.line, &e.to_string())?,
                    ResultFormat::Text => writeln!(out, "{e}")?,
                }
            }
        }
    }
    Ok(puzzles.exit_code(code))
}
