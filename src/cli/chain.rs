//! `hdp chain`: the HDP chain, the pair reduction analysis, or the decision tree of each puzzle.

use super::input::ReadError;
use super::output::error;
use super::{status_problem, ChainFormat, EngineArgs, InputArgs, Output, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
use hdp::engine::pair_analysis_tree;
use hdp::engine::{Analysis, AnalysisRecord, PairAnalysis, Recording, Status};
use hdp::format::apply_context;
use hdp::hint::{explain_lines, explained, explained_text, ExplainedLine, Why};
use hdp::settings::Variant;
use serde::Serialize;
use std::io::Write;
use std::time::Instant;

/// `hdp chain`.
#[derive(Args, Debug, Clone)]
pub struct ChainArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Which analysis to run.
    #[arg(long, value_enum, default_value_t = Variant::Full)]
    pub variant: Variant,
    /// Print every step (STA after each fact, HYP, INC) with its 81-character position (text
    /// format; JSON always holds the steps).
    #[arg(long)]
    pub steps: bool,
    /// Start from this context, e.g. "I8: 2,7 + G7: 3,9".
    #[arg(long)]
    pub given: Option<String>,
    /// Write why each CTR holds after its line (` ; B3 has no value after 4 rounds`); the
    /// chain still parses.
    #[arg(long)]
    pub why: bool,
    /// Write each DIS and PRF line's derivation under it: the moves from its hypothesis to the
    /// contradiction, numbered, one a line (text; JSON adds `explained`); the chain still parses.
    #[arg(long)]
    pub explain: bool,
    /// Print the minimal proof instead of the search: only the lines and context statements
    /// the final proof needs (text, --why, json; solved puzzles only).
    #[arg(long)]
    pub minimal: bool,
    /// Output format: text (the notation), json (the whole analysis), dot (the decision tree).
    #[arg(long, value_enum, default_value_t = ChainFormat::Text)]
    pub format: ChainFormat,
}

impl ChainArgs {
    /// Value combinations that would be ignored.
    pub fn check(&self, given: &dyn Fn(&str) -> bool) -> Result<(), String> {
        super::check_variant(self.variant, given)?;
        if self.steps && self.format != ChainFormat::Text {
            return Err(
                "--steps applies to --format text (the JSON record always holds the steps)".into(),
            );
        }
        if self.minimal && (self.steps || self.variant == Variant::Analysis) {
            return Err("--minimal cannot be used with --steps or --variant analysis".into());
        }
        if self.minimal && self.format == ChainFormat::Dot {
            return Err("--minimal applies to --format text and json".into());
        }
        if self.explain && (self.steps || self.variant == Variant::Analysis) {
            return Err("--explain cannot be used with --steps or --variant analysis".into());
        }
        if self.explain && self.format == ChainFormat::Dot {
            return Err("--explain applies to --format text and json".into());
        }
        if self.steps && self.variant == Variant::Analysis {
            return Err("--steps cannot be used with --variant analysis (it has no steps)".into());
        }
        Ok(())
    }

    /// The command run by `hdp` with no arguments: the chain of the built-in example.
    pub fn builtin_example() -> ChainArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            a: ChainArgs,
        }
        // The source's own method on its own example.
        match Wrap::try_parse_from(["hdp", "--decisions", "pairs"]) {
            Ok(w) => w.a,
            Err(e) => e.exit(),
        }
    }
}

pub fn run(a: &ChainArgs, out: &mut Output) -> anyhow::Result<i32> {
    let given = super::given_context(a.given.as_deref())?;
    let recording = if a.format == ChainFormat::Dot {
        Recording::ChainAndTree
    } else {
        Recording::Chain
    };
    let mut options = a.engine.analysis_options(a.variant, recording);
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    let (first, second) = (puzzles.next(), puzzles.next());
    let many = second.is_some();
    let reads = first.into_iter().chain(second).chain(&mut puzzles);
    for (i, r) in reads.enumerate() {
        let source = r.source.clone();
        let p = match r.puzzle {
            Ok(p) => p,
            Err(e) => {
                e.report(&source);
                if let (ReadError::Parse(e), ChainFormat::Json) = (&e, a.format) {
                    out.error_record(&source, e.line, &e.to_string())?;
                }
                code = EXIT_PUZZLE;
                continue;
            }
        };
        if let Err(e) = apply_context(&p.grid, &given) {
            error(format_args!("{source}: line {}: --given: {e}", p.line));
            if a.format == ChainFormat::Json {
                out.error_record(&source, p.line, &format!("--given: {e}"))?;
            }
            code = EXIT_PUZZLE;
            continue;
        }
        if many && a.format == ChainFormat::Text {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "# {source} line {}: {}", p.line, p.grid.to_line())?;
        }
        if a.variant == Variant::Analysis {
            let mut g = p.grid;
            for s in &given {
                s.apply(&mut g);
            }
            let pa = PairAnalysis::run(&g, &options);
            match a.format {
                ChainFormat::Json => out.record(&source, p.line, &pa)?,
                ChainFormat::Dot => write!(out, "{}", pair_analysis_tree(&pa).to_dot())?,
                ChainFormat::Text => write!(out, "{pa}")?,
            }
            out.flush()?;
            continue;
        }
        options.budget.deadline = a.engine.deadline();
        let analysis = Analysis::run_from(&p.grid, &given, &options);
        if let Some(problem) = status_problem(&analysis.status) {
            // With a context, "no solution" is the context's doing as much as the puzzle's.
            let problem = match (&analysis.status, a.given.as_deref()) {
                (Status::NoSolution, Some(text)) if !given.is_empty() => {
                    format!(
                        "the puzzle has no solution with --given \"{}\"",
                        text.trim()
                    )
                }
                _ => problem,
            };
            error(format_args!("{source}: line {}: {problem}", p.line));
            code = EXIT_PUZZLE;
        }
        if a.minimal {
            let json = a.format == ChainFormat::Json;
            if (analysis.is_solved() || json)
                && !super::hint::write_minimal(
                    out,
                    (&source, p.line),
                    &analysis,
                    super::hint::Shown {
                        json,
                        why: a.why,
                        explain: a.explain,
                    },
                )?
            {
                code = EXIT_PUZZLE;
            }
            out.flush()?;
            continue;
        }
        // Writing stops at the analysis's deadline too (at the start of a line), so that a
        // large chain or tree cannot run far past --timeout.
        let mut bounded = Bounded::new(out, options.budget.deadline);
        let result = write_result(&mut bounded, a, &source, p.line, &analysis);
        let written = bounded.lines;
        match result {
            Err(e) if is_past_deadline(&e) => {
                writeln!(
                    out,
                    "# output stopped at the deadline (--timeout) after {written} lines"
                )?;
                error(format_args!(
                    "{source}: line {}: output stopped at the deadline (--timeout) after \
                     {written} lines",
                    p.line
                ));
                code = EXIT_PUZZLE;
            }
            r => r?,
        }
        // An analysis takes a while: deliver each puzzle's result as soon as it is known.
        out.flush()?;
    }
    Ok(puzzles.exit_code(code))
}

/// Writes the result of `analysis` (the puzzle of `source`, `line`) in the chosen format.
fn write_result(
    out: &mut Bounded<'_>,
    a: &ChainArgs,
    source: &str,
    line: usize,
    analysis: &Analysis,
) -> anyhow::Result<()> {
    match a.format {
        ChainFormat::Json if a.explain => {
            let summary = analysis.summary();
            let derivations = explain_lines(analysis, &summary.lines);
            let record = ExplainedRecord {
                analysis: analysis.record(),
                explained: explained(&summary.lines, &derivations),
            };
            out.out.record(source, line, &record)?;
        }
        ChainFormat::Json => out.out.record(source, line, &analysis.record())?,
        ChainFormat::Dot => match &analysis.tree {
            // Line by line, so that the deadline can stop a large tree.
            Some(t) => {
                for line in t.to_dot().lines() {
                    writeln!(out, "{line}")?;
                }
            }
            None => writeln!(out, "digraph {{}}")?,
        },
        ChainFormat::Text => {
            if matches!(
                analysis.status,
                Status::NoSolution | Status::MultipleSolutions
            ) {
                return Ok(());
            }
            let chain = if a.steps {
                analysis.steps()
            } else {
                analysis.summary()
            };
            if a.explain {
                let derivations = explain_lines(analysis, &chain.lines);
                let why = if a.why { Why::Shown } else { Why::Hidden };
                // Line by line, so that the deadline can stop it between lines.
                for l in explained_text(&chain, &derivations, why).split_inclusive('\n') {
                    out.write_all(l.as_bytes())?;
                }
            } else if a.why {
                write!(out, "{chain:#}")?;
            } else {
                write!(out, "{chain}")?;
            }
            let depth = analysis.depth.map_or("-".to_string(), |d| d.to_string());
            writeln!(
                out,
                "# {}, depth {depth}, {} tests, {} hypotheses",
                analysis.status, analysis.counters.tests, analysis.counters.hypotheses
            )?;
        }
    }
    Ok(())
}

/// The output of one puzzle, which refuses to start a line past `deadline`: a chain or a tree
/// written after the analysis stops where its time is up (JSON records are written whole).
struct Bounded<'a> {
    out: &'a mut Output,
    deadline: Option<Instant>,
    /// The next byte starts a line.
    line_start: bool,
    /// The lines written whole.
    lines: usize,
}

/// The error [`Bounded`] stops with.
#[derive(Debug)]
struct PastDeadline;

impl std::fmt::Display for PastDeadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("output stopped at the deadline")
    }
}

impl std::error::Error for PastDeadline {}

/// Whether `e` is [`Bounded`]'s stop.
fn is_past_deadline(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .and_then(|e| e.get_ref())
        .is_some_and(|inner| inner.is::<PastDeadline>())
}

impl<'a> Bounded<'a> {
    fn new(out: &'a mut Output, deadline: Option<Instant>) -> Bounded<'a> {
        Bounded {
            out,
            deadline,
            line_start: true,
            lines: 0,
        }
    }
}

impl Write for Bounded<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.line_start && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(std::io::Error::other(PastDeadline));
        }
        let n = self.out.write(buf)?;
        self.lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
        if n > 0 {
            self.line_start = buf[n - 1] == b'\n';
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// `chain --explain --format json`: the analysis record with each summary line explained.
#[derive(Serialize)]
struct ExplainedRecord<'a> {
    #[serde(flatten)]
    analysis: AnalysisRecord,
    explained: Vec<ExplainedLine<'a>>,
}
