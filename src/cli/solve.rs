//! `hdp solve` and `hdp propagate`.

use super::input::{Read1, ReadError};
use super::output::{error, stderr_line};
use super::{InputArgs, Output, ResultFormat, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
use hdp::format::{to_pencil, to_pretty, Puzzle};
use hdp::propagate::{Outcome, Profile};
use hdp::records::{stop_words, Propagation, SolutionsRecord, SolveRecord};
use hdp::settings::deadline_after;
use hdp::solver::{solutions_within, solve_within, Solutions, SolveLimits};
use std::io::Write;
use std::time::Instant;

/// `hdp solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the number of solutions (capped at 2) instead of the solution (text format; JSON
    /// always holds the count).
    #[arg(long)]
    pub count: bool,
    /// Print up to N solutions of each puzzle (1 to 10000), then the cells where two of them
    /// differ: shows why a puzzle with several solutions is not one.
    #[arg(long, value_name = "N", conflicts_with = "count",
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub solutions: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
    /// The most seconds per puzzle (a number above 0); without it the search stops after
    /// 2,000,000 nodes (the hardest known puzzles need under 1,500). A puzzle stopped by either
    /// limit is reported as such, never as "no solution".
    #[arg(long, value_parser = super::parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<f64>,
}

/// `hdp propagate`.
#[derive(Args, Debug)]
pub struct PropagateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the pencil-mark grid of the reduced position.
    #[arg(long)]
    pub candidates: bool,
    /// Print the reduced position as a 9-line grid.
    #[arg(long, conflicts_with = "candidates")]
    pub pretty: bool,
    /// Print how often each rule applied, to stderr (text format; JSON always holds a `rules`
    /// object).
    #[arg(long)]
    pub stats: bool,
    /// Propagation profile: a comma-separated list of profiles (default, singles, none) and
    /// rules, a leading - switching one off, e.g. default,-naked-quad or
    /// naked-single,hidden-single. Rules: naked-single, hidden-single, locked-pointing,
    /// locked-claiming, naked-pair, naked-triple, naked-quad, hidden-pair, hidden-triple,
    /// hidden-quad.
    #[arg(long, default_value = "default")]
    pub profile: Profile,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

impl SolveArgs {
    /// Value combinations that would be ignored.
    pub fn check(&self) -> Result<(), String> {
        if self.count && self.format != ResultFormat::Text {
            return Err("--count applies to --format text (JSON always holds `solutions`)".into());
        }
        Ok(())
    }
}

impl PropagateArgs {
    /// Value combinations that would be ignored.
    pub fn check(&self) -> Result<(), String> {
        if self.format == ResultFormat::Text {
            return Ok(());
        }
        for (given, name) in [
            (self.pretty, "--pretty"),
            (self.candidates, "--candidates"),
            (self.stats, "--stats"),
        ] {
            if given {
                return Err(format!(
                    "{name} applies to --format text (JSON always holds the grid and the rules)"
                ));
            }
        }
        Ok(())
    }
}

/// The puzzle of one read, or `None` after reporting its error: on stderr, and on stdout as an
/// error record (JSON) or an `error` line (text, so that output lines match input lines).
fn puzzle_or_report(
    r: Read1,
    format: ResultFormat,
    out: &mut Output,
) -> std::io::Result<Option<Puzzle>> {
    match r.puzzle {
        Ok(p) => Ok(Some(p)),
        Err(ReadError::Parse(e)) => {
            error(format_args!("{}: {e}", r.source));
            match format {
                ResultFormat::Json => out.error_record(&r.source, e.line, &e.to_string())?,
                ResultFormat::Text => writeln!(out, "error")?,
            }
            Ok(None)
        }
        // An input that cannot be read stands in its place too (line 0: it has no lines).
        Err(e @ ReadError::Input(_)) => {
            error(format_args!("{e}"));
            match format {
                ResultFormat::Json => out.error_record(&r.source, 0, &e.to_string())?,
                ResultFormat::Text => writeln!(out, "error")?,
            }
            Ok(None)
        }
    }
}

pub fn run_solve(a: &SolveArgs, out: &mut Output) -> anyhow::Result<i32> {
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    for r in &mut puzzles {
        let source = r.source.clone();
        let Some(p) = puzzle_or_report(r, a.format, out)? else {
            code = EXIT_PUZZLE;
            continue;
        };
        let deadline = deadline_after(Instant::now(), a.timeout);
        if let Some(n) = a.solutions {
            if !list_solutions(&source, &p, n as usize, deadline, a.format, out)? {
                code = EXIT_PUZZLE;
            }
            continue;
        }
        let result = solve_within(&p.grid, SolveLimits::until(deadline));
        let s = match &result {
            Ok(s) => s,
            Err(stop) => {
                let why = stop_words(*stop);
                error(format_args!("{source}: line {}: unsolved: {why}", p.line));
                code = EXIT_PUZZLE;
                match a.format {
                    ResultFormat::Json => {
                        out.record(&source, p.line, &SolveRecord::new(&p.grid, &result))?
                    }
                    ResultFormat::Text => writeln!(out, "unsolved: {why}")?,
                }
                continue;
            }
        };
        let count = s.count();
        if count != 1 {
            let problem = if count == 0 {
                "no solution"
            } else {
                "several solutions"
            };
            error(format_args!(
                "{source}: line {}: the puzzle has {problem}",
                p.line
            ));
            code = EXIT_PUZZLE;
        }
        match a.format {
            ResultFormat::Json => {
                out.record(&source, p.line, &SolveRecord::new(&p.grid, &result))?
            }
            // No solution string with --count.
            ResultFormat::Text if a.count => writeln!(out, "{count}")?,
            ResultFormat::Text => match s {
                Solutions::None => writeln!(out, "no solution")?,
                Solutions::Unique(g) => writeln!(out, "{}", g.to_line())?,
                Solutions::Multiple(_) => writeln!(out, "multiple solutions")?,
            },
        }
    }
    Ok(puzzles.exit_code(code))
}

/// `solve --solutions N` for one puzzle: up to `n` solutions, whether there are more, and the
/// cells where two differ. Returns whether the puzzle has exactly one solution.
fn list_solutions(
    source: &str,
    p: &Puzzle,
    n: usize,
    deadline: Option<Instant>,
    format: ResultFormat,
    out: &mut Output,
) -> std::io::Result<bool> {
    // One more than asked tells whether the list is all of them.
    let mut grids = match solutions_within(&p.grid, n + 1, SolveLimits::until(deadline)) {
        Ok(g) => g,
        Err(stop) => {
            let why = stop_words(stop);
            error(format_args!("{source} line {}: unsolved: {why}", p.line));
            match format {
                ResultFormat::Json => {
                    out.record(source, p.line, &SolveRecord::new(&p.grid, &Err(stop)))?
                }
                ResultFormat::Text => writeln!(out, "unsolved: {why}")?,
            }
            return Ok(false);
        }
    };
    let more = grids.len() > n;
    grids.truncate(n);
    let record = SolutionsRecord::new(&p.grid, &grids, more);
    let unique = grids.len() == 1 && !more;
    if !unique {
        let problem = if grids.is_empty() {
            "no solution"
        } else {
            "several solutions"
        };
        error(format_args!(
            "{source} line {}: the puzzle has {problem}",
            p.line
        ));
    }
    match format {
        ResultFormat::Json => out.record(source, p.line, &record)?,
        ResultFormat::Text => {
            let count = match (grids.len(), more) {
                (0, _) => "no solution".to_string(),
                (1, false) => "1 solution (unique)".to_string(),
                (k, false) => format!("{k} solutions"),
                (k, true) => format!("more than {k} solutions, the first {k}"),
            };
            writeln!(out, "# line {}: {count}", p.line)?;
            for g in &grids {
                writeln!(out, "{}", g.to_line())?;
            }
            if grids.len() > 1 {
                let names = &record.differ;
                writeln!(out, "# {} cells differ: {}", names.len(), names.join(" "))?;
            }
        }
    }
    Ok(unique)
}

pub fn run_propagate(a: &PropagateArgs, out: &mut Output) -> anyhow::Result<i32> {
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    for r in &mut puzzles {
        let source = r.source.clone();
        let Some(p) = puzzle_or_report(r, a.format, out)? else {
            code = EXIT_PUZZLE;
            continue;
        };
        let run = Propagation::run(&p.grid, &a.profile);
        let (g, outcome) = (run.grid, run.outcome);
        if a.stats {
            let counts: Vec<String> = run.stats.iter().map(|(r, n)| format!("{r} {n}")).collect();
            stderr_line(format_args!("line {}: {}", p.line, counts.join(", ")));
        }
        let status = run.status();
        if let Outcome::Contradiction(c) = outcome {
            error(format_args!(
                "{source}: line {}: propagation reached a contradiction (the puzzle has no solution): {c}",
                p.line
            ));
            code = EXIT_PUZZLE;
        }
        match a.format {
            ResultFormat::Json => out.record(&source, p.line, &run.record())?,
            ResultFormat::Text if a.pretty => write!(out, "{}", to_pretty(&g))?,
            ResultFormat::Text if a.candidates => {
                write!(out, "{}", to_pencil(&g))?;
                if !matches!(outcome, Outcome::Open | Outcome::Solved) {
                    writeln!(out, "{status}")?;
                }
            }
            ResultFormat::Text => writeln!(
                out,
                "{}",
                if matches!(outcome, Outcome::Contradiction(_)) {
                    status
                } else {
                    g.to_line()
                }
            )?,
        }
    }
    Ok(puzzles.exit_code(code))
}
