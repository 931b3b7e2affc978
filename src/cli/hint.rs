//! `hdp hint` (the next fact a person should look for: the first step of the minimal proof
//! from the position) and the minimal proof of `hdp chain --minimal`, in text and JSON.

use super::input::ReadError;
use super::output::error;
use super::{EngineArgs, InputArgs, Output, ResultFormat, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
use hdp::chain::{ChainLine, Marker};
use hdp::engine::{Analysis, AnalysisRecord, Proof, Recording};
use hdp::format::apply_context;
use hdp::hint::{
    explain_lines, explained, explained_text, hint, ExplainedLine, HintError, Reveal, Why,
};
use hdp::minimal::{minimal, MinimalError, MinimalProof};
use hdp::settings::Variant;
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
    explained: Option<Vec<ExplainedLine<'a>>>,
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
        (Ok(m), true) => explain_lines(analysis, &m.chain.lines),
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
                    body.explained = Some(explained(&m.chain.lines, &derivations));
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
        let why = if why { Why::Shown } else { Why::Hidden };
        write!(out, "{}", explained_text(&m.chain, &derivations, why))?;
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

/// `hdp hint`: reads the puzzles and prints each one's hint ([`hdp::hint::hint`]).
pub fn run(a: &HintArgs, out: &mut Output) -> anyhow::Result<i32> {
    let given = super::given_context(a.given.as_deref())?;
    let json = a.format == ResultFormat::Json;
    let mut options = a.engine.analysis_options(Variant::Full, Recording::Chain);
    // A hint deduces: only contradictions prove, unless the solver asks for --proof solution.
    if a.engine.proof.is_none() {
        options.proof = Proof::Contradiction;
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
        if let Err(e) = apply_context(&p.grid, &given) {
            fail(out, p.line, &format!("--given: {e}"))?;
            continue;
        }
        if many && !json {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "# {source} line {}: {}", p.line, p.grid.to_line())?;
        }
        options.budget.deadline = a.engine.deadline();
        match hint(&p.grid, &given, &options, a.reveal) {
            Ok(h) if json => out.record(&source, p.line, &h.record())?,
            Ok(h) => write!(out, "{}", h.text())?,
            Err(HintError::Context(e)) => fail(out, p.line, &format!("--given: {e}"))?,
            Err(e) => fail(out, p.line, &e.to_string())?,
        }
        out.flush()?;
    }
    Ok(puzzles.exit_code(code))
}
