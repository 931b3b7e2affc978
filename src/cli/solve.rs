//! `hdp solve` and `hdp propagate`.

use super::{InputArgs, OutputFormat, EXIT_OK, EXIT_PUZZLE};
use clap::Args;
use hdp::format::{to_pencil, to_pretty, GridJson};
use hdp::propagate::{propagate_counting, Outcome, Profile, Stats};
use hdp::solver::{solve, Solutions};

/// `hdp solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the number of solutions (capped at 2) instead of the solution.
    #[arg(long)]
    pub count: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
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
    /// Print how often each rule applied (to stderr; in JSON, a `rules` object).
    #[arg(long)]
    pub stats: bool,
    /// Propagation profile: default or singles (or a rule list).
    #[arg(long, default_value = "default")]
    pub profile: Profile,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

pub fn run_solve(a: &SolveArgs) -> anyhow::Result<i32> {
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    for r in &mut puzzles {
        let Some(p) = r.ok_or_report() else {
            println!("error");
            code = EXIT_PUZZLE;
            continue;
        };
        let s = solve(&p.grid);
        let (count, text) = match &s {
            Solutions::None => (0, "no solution".to_string()),
            Solutions::Unique(g) => (1, g.to_line()),
            Solutions::Multiple(_) => (2, "multiple solutions".to_string()),
        };
        if count != 1 {
            code = EXIT_PUZZLE;
        }
        match a.format {
            OutputFormat::Json => {
                let solution = match &s {
                    Solutions::Unique(g) => Some(g.to_line()),
                    _ => None,
                };
                let v = serde_json::json!({
                    "line": p.line,
                    "puzzle": p.grid.to_line(),
                    "solutions": count,
                    "solution": solution,
                });
                println!("{v}");
            }
            _ if a.count => println!("{count}"),
            _ => println!("{text}"),
        }
    }
    Ok(puzzles.exit_code(code))
}

pub fn run_propagate(a: &PropagateArgs) -> anyhow::Result<i32> {
    let mut code = EXIT_OK;
    let mut puzzles = a.input.puzzles();
    for r in &mut puzzles {
        let Some(p) = r.ok_or_report() else {
            println!("error");
            code = EXIT_PUZZLE;
            continue;
        };
        let mut g = p.grid;
        let mut stats = Stats::default();
        let outcome = propagate_counting(&mut g, &a.profile, &mut stats);
        if a.stats && a.format != OutputFormat::Json {
            let counts: Vec<String> = stats.iter().map(|(r, n)| format!("{r} {n}")).collect();
            eprintln!("line {}: {}", p.line, counts.join(", "));
        }
        let status = match outcome {
            Outcome::Solved => "solved".to_string(),
            Outcome::Open => "open".to_string(),
            Outcome::Contradiction(c) => {
                code = EXIT_PUZZLE;
                format!("contradiction: {c}")
            }
        };
        match a.format {
            OutputFormat::Json => {
                let rules: serde_json::Map<String, serde_json::Value> = stats
                    .iter()
                    .map(|(r, n)| (r.name().to_string(), n.into()))
                    .collect();
                let v = serde_json::json!({
                    "line": p.line,
                    "puzzle": p.grid.to_line(),
                    "status": status,
                    "pairs": g.pair_count(),
                    "grid": GridJson::from_grid(&g),
                    "rules": rules,
                });
                println!("{v}");
            }
            _ if a.pretty => print!("{}", to_pretty(&g)),
            _ if a.candidates => {
                print!("{}", to_pencil(&g));
                if !matches!(outcome, Outcome::Open | Outcome::Solved) {
                    println!("{status}");
                }
            }
            _ => {
                if let Outcome::Contradiction(c) = outcome {
                    println!("contradiction: {c}");
                } else {
                    println!("{}", g.to_line());
                }
            }
        }
    }
    Ok(puzzles.exit_code(code))
}
