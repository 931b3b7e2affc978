//! `hdp hint` (the next fact a person should look for: the first step of the minimal proof
//! from the position) and the minimal proof of `hdp chain --minimal`, in text and JSON.

use super::input::ReadError;
use super::output::error;
use super::{status_problem, EngineArgs, InputArgs, Output, ResultFormat, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
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

/// Writes the minimal proof of a finished `analysis` for `hdp chain --minimal` (text, with the
/// reasons when `why`, or JSON). Returns whether there was a proof; when not, the reason has
/// been printed on stderr (the caller already reported an unsolved analysis).
pub fn write_minimal(
    out: &mut Output,
    (source, line): (&str, usize),
    analysis: &Analysis,
    json: bool,
    why: bool,
) -> anyhow::Result<bool> {
    let result = minimal(analysis);
    if let Err(e @ (MinimalError::Limit(_) | MinimalError::Unverified(_))) = &result {
        error(format_args!("{source}: line {line}: {e}"));
    }
    if json {
        let (minimal, minimal_error) = match &result {
            Ok(m) => (Some(MinimalBody::new(m)), None),
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
    if why {
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

/// The JSON record of a hint.
#[derive(Serialize)]
struct HintRecord<'a> {
    /// The position (the puzzle with the given context), 81 characters.
    position: String,
    /// What the step establishes: a statement, or the solution.
    fact: String,
    /// The step in the notation, each line with its reason (as `chain --why`).
    text: Vec<String>,
    /// The step's lines.
    lines: &'a [ChainLine],
    /// The number of DIS and PRF lines of the whole minimal proof.
    proof_lines: usize,
    /// The reduction depth of the position.
    depth: Option<u8>,
}

/// `hdp hint`.
pub fn run(a: &HintArgs, out: &mut Output) -> anyhow::Result<i32> {
    let given = super::given_context(a.given.as_deref())?;
    let json = a.format == ResultFormat::Json;
    let mut options = a
        .engine
        .analysis_options(super::chain::Variant::Full, Recording::Chain);
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
        let text: Vec<String> = step.iter().map(|l| format!("{l:#}")).collect();
        if json {
            let record = HintRecord {
                position: analysis.puzzle.to_line(),
                fact,
                text,
                lines: &step,
                proof_lines: m.proof_lines().count(),
                depth: analysis.depth,
            };
            out.record(&source, p.line, &record)?;
        } else {
            for t in &text {
                writeln!(out, "{t}")?;
            }
            writeln!(
                out,
                "# next: {fact}; a step of {}, a minimal proof of {}, depth {}",
                lines(step.len()),
                lines(m.proof_lines().count()),
                analysis.depth.map_or("-".to_string(), |d| d.to_string())
            )?;
        }
        out.flush()?;
    }
    Ok(puzzles.exit_code(code))
}
