//! `hdp chain`: the HDP chain, the pair reduction analysis, or the decision tree of each puzzle.

use super::{EngineArgs, InputArgs, OutputFormat, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::engine::{Analysis, PairAnalysis, Recording, Status};
use hdp::format::{apply_context, parse_context};

/// Which analysis to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Variant {
    /// The pair reduction analysis: every first-level decision and both outcomes, nothing applied.
    Analysis,
    /// Pair reduction: closure at depth 1.
    Pr,
    /// Deep pair reduction: closure at depth 2.
    Dpr,
    /// Very deep pair reduction: closure at depth 3.
    Vdpr,
    /// The full analysis up to --max-depth.
    Full,
}

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
    /// Print every step (STA after each fact, HYP, INC) with its 81-character position.
    #[arg(long)]
    pub steps: bool,
    /// Start from this context, e.g. "I8: 2,7 + G7: 3,9".
    #[arg(long)]
    pub given: Option<String>,
    /// Output format: text (the notation), json (the whole analysis), dot (the decision tree).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

impl ChainArgs {
    /// The command run by `hdp` with no arguments: the chain of the built-in example.
    pub fn builtin_example() -> ChainArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            a: ChainArgs,
        }
        match Wrap::try_parse_from(["hdp"]) {
            Ok(w) => w.a,
            Err(e) => e.exit(),
        }
    }
}

pub fn run(a: &ChainArgs) -> anyhow::Result<i32> {
    let given = match &a.given {
        Some(text) => parse_context(text)
            .map_err(|e| anyhow::anyhow!("--given: column {}: {}", e.column, e.kind))?,
        None => Vec::new(),
    };
    let mut options = a.engine.options();
    options.max_depth = match a.variant {
        Variant::Pr => 1,
        Variant::Dpr => 2,
        Variant::Vdpr => 3,
        _ => options.max_depth,
    };
    options.recording = if a.format == OutputFormat::Dot {
        Recording::ChainAndTree
    } else {
        Recording::Chain
    };
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    let (first, second) = (puzzles.next(), puzzles.next());
    let many = second.is_some();
    let reads = first.into_iter().chain(second).chain(&mut puzzles);
    for (i, r) in reads.enumerate() {
        let source = r.source.clone();
        let Some(p) = r.ok_or_report() else {
            code = EXIT_PUZZLE;
            continue;
        };
        if let Err(e) = apply_context(&p.grid, &given) {
            eprintln!("hdp: --given: {e}");
            code = EXIT_PUZZLE;
            continue;
        }
        if many && a.format == OutputFormat::Text {
            if i > 0 {
                println!();
            }
            println!("# {source} line {}: {}", p.line, p.grid.to_line());
        }
        if a.variant == Variant::Analysis {
            let mut g = p.grid;
            for s in &given {
                s.apply(&mut g);
            }
            let pa = PairAnalysis::run(&g, &options);
            match a.format {
                OutputFormat::Json => println!("{}", serde_json::to_string(&pa)?),
                _ => print!("{pa}"),
            }
            continue;
        }
        options.budget.deadline = a.engine.deadline();
        let analysis = Analysis::run_from(&p.grid, &given, &options);
        match analysis.status {
            Status::Solved => {}
            Status::NoSolution => {
                eprintln!(
                    "hdp: {} line {}: the puzzle has no solution",
                    source, p.line
                );
                code = EXIT_PUZZLE;
            }
            Status::MultipleSolutions => {
                eprintln!(
                    "hdp: {} line {}: the puzzle has several solutions",
                    source, p.line
                );
                code = EXIT_PUZZLE;
            }
            Status::Unsolved(limit) => {
                eprintln!("hdp: {source} line {}: unsolved: {limit}", p.line);
                code = EXIT_PUZZLE;
            }
        }
        match a.format {
            OutputFormat::Json => println!("{}", serde_json::to_string(&analysis.record())?),
            OutputFormat::Dot => match &analysis.tree {
                Some(t) => print!("{}", t.to_dot()),
                None => println!("digraph {{}}"),
            },
            OutputFormat::Text => {
                if matches!(
                    analysis.status,
                    Status::NoSolution | Status::MultipleSolutions
                ) {
                    continue;
                }
                if a.steps {
                    print!("{}", analysis.steps());
                } else {
                    print!("{}", analysis.summary());
                }
                let depth = analysis.depth.map_or("-".to_string(), |d| d.to_string());
                println!(
                    "# {}, depth {depth}, {} tests, {} hypotheses",
                    analysis.status, analysis.counters.tests, analysis.counters.hypotheses
                );
            }
        }
    }
    Ok(puzzles.exit_code(code))
}
