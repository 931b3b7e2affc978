//! `hdp hint` (the next fact a person should look for: the first step of the minimal proof
//! from the position) and the minimal proof of `hdp chain --minimal`, in text and JSON.

use super::input::ReadError;
use super::output::error;
use super::{status_problem, EngineArgs, InputArgs, Output, ResultFormat, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::chain::{ChainLine, LineResult, Marker};
use hdp::engine::{Analysis, AnalysisRecord, Recording};
use hdp::format::apply_context;
use hdp::minimal::{minimal, MinimalError, MinimalProof};
use serde::Serialize;
use std::io::Write;

/// `hdp hint`.
#[derive(Args, Debug, Clone)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The position reached so far, as a context, e.g. "I8: 2,7 + G7: 3,9".
    #[arg(long)]
    pub given: Option<String>,
    /// Output format: text (the lines of the step, with their reasons) or json.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
    /// How much to show: where (the cell to look at), fact (the fact), moves (the fact with
    /// every line of its proof and each line's moves).
    #[arg(long, value_enum, default_value_t = Reveal::Moves)]
    pub reveal: Reveal,
}

/// `hint --reveal`: how much of the next step a solver sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reveal {
    /// The cell the next fact is about.
    Where,
    /// The fact.
    Fact,
    /// The fact, the lines that prove it and every line's derivation.
    Moves,
}

/// The minimal proof in a JSON record.
#[derive(Serialize)]
struct MinimalBody<'a> {
    /// The proof in the notation, one string per line, the count line last.
    summary: Vec<String>,
    /// The proof's lines, each CTR with its reason.
    lines: &'a [ChainLine],
    /// Propagations made while minimising.
    tests: u64,
    /// With `--explain`: each line with its derivation.
    #[serde(skip_serializing_if = "Option::is_none")]
    explained: Option<Vec<super::chain::ExplainedLine<'a>>>,
}

impl<'a> MinimalBody<'a> {
    fn new(m: &'a MinimalProof) -> MinimalBody<'a> {
        let mut summary: Vec<String> = m.chain.lines.iter().map(ChainLine::to_string).collect();
        if let Some(c) = m.chain.count {
            summary.push(c.to_string());
        }
        MinimalBody {
            summary,
            lines: &m.chain.lines,
            tests: m.tests,
            explained: None,
        }
    }
}

/// `chain --minimal --format json`: the analysis record with the minimal proof (or why there is
/// none).
#[derive(Serialize)]
struct MinimalRecord<'a> {
    #[serde(flatten)]
    analysis: AnalysisRecord,
    minimal: Option<MinimalBody<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal_error: Option<String>,
}

/// How `chain --minimal` writes its proof.
#[derive(Clone, Copy, Debug)]
pub struct Shown {
    /// JSON rather than text.
    pub json: bool,
    /// Each CTR's reason (text).
    pub why: bool,
    /// Each line's derivation.
    pub explain: bool,
}

/// Writes the minimal proof of a finished `analysis` for `hdp chain --minimal` (text, with the
/// reasons and derivations as `shown` asks, or JSON). Returns whether there was a proof; when
/// not, the reason has been printed on stderr (the caller already reported an unsolved analysis).
pub fn write_minimal(
    out: &mut Output,
    (source, line): (&str, usize),
    analysis: &Analysis,
    shown: Shown,
) -> anyhow::Result<bool> {
    let Shown { json, why, explain } = shown;
    let result = minimal(analysis);
    let derivations = match (&result, explain) {
        (Ok(m), true) => super::chain::explain_lines(analysis, &m.chain.lines),
        _ => Vec::new(),
    };
    if let Err(e @ (MinimalError::Limit(_) | MinimalError::Unverified(_))) = &result {
        error(format_args!("{source}: line {line}: {e}"));
    }
    if json {
        let (minimal, minimal_error) = match &result {
            Ok(m) => {
                let mut body = MinimalBody::new(m);
                if explain {
                    body.explained = Some(super::chain::explained(&m.chain.lines, &derivations));
                }
                (Some(body), None)
            }
            Err(e) => (None, Some(e.to_string())),
        };
        let record = MinimalRecord {
            analysis: analysis.record(),
            minimal,
            minimal_error,
        };
        out.record(source, line, &record)?;
        return Ok(result.is_ok());
    }
    let Ok(m) = result else {
        return Ok(false);
    };
    if explain {
        super::chain::write_explained(out, &m.chain, &derivations, why)?;
    } else if why {
        write!(out, "{:#}", m.chain)?;
    } else {
        write!(out, "{}", m.chain)?;
    }
    let full = analysis
        .summary()
        .lines
        .iter()
        .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
        .count();
    let depth = analysis.depth.map_or("-".to_string(), |d| d.to_string());
    writeln!(
        out,
        "# minimal proof: {} of {full} lines; {}, depth {depth}, {} tests, {} hypotheses; {} \
         propagations to minimise",
        m.chain.count.map_or(0, |c| c.chains),
        analysis.status,
        analysis.counters.tests,
        analysis.counters.hypotheses,
        m.tests
    )?;
    Ok(true)
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

/// `1 line`, `3 lines`.
fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".into()
    } else {
        format!("{n} lines")
    }
}

/// The JSON record of a hint; `--reveal` leaves out what it does not show.
#[derive(Serialize)]
struct HintRecord<'a> {
    /// The position (the puzzle with the given context), 81 characters.
    position: String,
    /// How much is shown.
    reveal: Reveal,
    /// The cell the step's fact is about (none when propagation alone solves the position).
    #[serde(rename = "where")]
    at: Option<String>,
    /// What the step establishes: a statement, or the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    fact: Option<String>,
    /// The step in the notation, each line with its reason (as `chain --why`).
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<Vec<String>>,
    /// The step's lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<&'a [ChainLine]>,
    /// The step's lines with their derivations.
    #[serde(skip_serializing_if = "Option::is_none")]
    explained: Option<Vec<super::chain::ExplainedLine<'a>>>,
    /// The number of DIS and PRF lines of the whole minimal proof.
    proof_lines: usize,
    /// The reduction depth of the position.
    depth: Option<u8>,
}

/// The cell the hint's last line is about.
fn where_of(line: Option<&ChainLine>) -> Option<String> {
    match line.map(|l| (l.marker, l.result)) {
        Some((Marker::Dis, Some(LineResult::Ctr(Some(s))))) => Some(s.cell.to_string()),
        _ => line
            .and_then(|l| l.context.levels.get(1))
            .and_then(|v| v.first())
            .map(|s| s.cell.to_string()),
    }
}

/// `hdp hint`.
pub fn run(a: &HintArgs, out: &mut Output) -> anyhow::Result<i32> {
    let given = super::given_context(a.given.as_deref())?;
    let json = a.format == ResultFormat::Json;
    let mut options = a
        .engine
        .analysis_options(super::chain::Variant::Full, Recording::Chain);
    // A hint deduces: only contradictions prove, unless the solver asks for --proof solution.
    if a.engine.proof.is_none() {
        options.proof = hdp::engine::Proof::Contradiction;
    }
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    let (first, second) = (puzzles.next(), puzzles.next());
    let many = second.is_some();
    let reads = first.into_iter().chain(second).chain(&mut puzzles);
    for (i, r) in reads.enumerate() {
        let source = r.source.clone();
        let mut fail = |out: &mut Output, line: usize, msg: &str| -> anyhow::Result<()> {
            error(format_args!("{source}: line {line}: {msg}"));
            if json {
                out.error_record(&source, line, msg)?;
            }
            code = EXIT_PUZZLE;
            Ok(())
        };
        let p = match r.puzzle {
            Ok(p) => p,
            Err(e) => {
                // The parse error names its line and column itself.
                let line = match &e {
                    ReadError::Parse(pe) => pe.line,
                    ReadError::Input(_) => 0,
                };
                e.report(&source);
                if json {
                    out.error_record(&source, line, &e.to_string())?;
                }
                code = EXIT_PUZZLE;
                continue;
            }
        };
        let position = match apply_context(&p.grid, &given) {
            Ok(g) => g,
            Err(e) => {
                fail(out, p.line, &format!("--given: {e}"))?;
                continue;
            }
        };
        if many && !json {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "# {source} line {}: {}", p.line, p.grid.to_line())?;
        }
        if position.is_complete() && position.is_valid_solution() {
            fail(out, p.line, "already solved: no fact is left to find")?;
            continue;
        }
        options.budget.deadline = a.engine.deadline();
        let analysis = Analysis::run_from(&p.grid, &given, &options);
        if let Some(problem) = status_problem(&analysis.status) {
            fail(out, p.line, &problem)?;
            continue;
        }
        let m = match minimal(&analysis) {
            Ok(m) => m,
            Err(e) => {
                fail(out, p.line, &e.to_string())?;
                continue;
            }
        };
        let step = m.first_step();
        let fact = fact_of(step.last());
        let at = where_of(step.last());
        let text: Vec<String> = step.iter().map(|l| format!("{l:#}")).collect();
        let derivations = match a.reveal {
            Reveal::Moves => super::chain::explain_lines(&analysis, &step),
            Reveal::Where | Reveal::Fact => Vec::new(),
        };
        let depth = analysis.depth.map_or("-".to_string(), |d| d.to_string());
        if json {
            let moves = a.reveal == Reveal::Moves;
            let record = HintRecord {
                position: analysis.puzzle.to_line(),
                reveal: a.reveal,
                at: at.clone(),
                fact: (a.reveal != Reveal::Where).then_some(fact),
                text: moves.then_some(text),
                lines: moves.then_some(&step[..]),
                explained: moves.then(|| super::chain::explained(&step, &derivations)),
                proof_lines: m.proof_lines().count(),
                depth: analysis.depth,
            };
            out.record(&source, p.line, &record)?;
        } else {
            match a.reveal {
                Reveal::Where => writeln!(
                    out,
                    "# next: look at {}; depth {depth}",
                    at.as_deref()
                        .unwrap_or("the whole grid (propagation solves it)")
                )?,
                Reveal::Fact => writeln!(out, "# next: {fact}; depth {depth}")?,
                Reveal::Moves => {
                    let chain = hdp::chain::Chain {
                        lines: step.clone(),
                        count: None,
                    };
                    super::chain::write_explained(out, &chain, &derivations, true)?;
                    writeln!(
                        out,
                        "# next: {fact}; a step of {}, a minimal proof of {}, depth {depth}",
                        lines(step.len()),
                        lines(m.proof_lines().count()),
                    )?;
                }
            }
        }
        out.flush()?;
    }
    Ok(puzzles.exit_code(code))
}
