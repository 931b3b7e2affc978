//! `hdp generate`: puzzles at a chosen level, streamed as they are found.
//!
//! The run itself is the library's ([`hdp::generate::run::run`]: parallel attempts put back in
//! order, so the puzzles printed are the same, in the same order, whatever `--jobs` is); this
//! file reads the options, handles the signals, shows progress and prints each puzzle. The run ends at `--count` puzzles, at
//! `--timeout`, after `--budget` attempts, on SIGINT or SIGTERM (exit 130: what was printed
//! stays) or when standard output is closed (`| head -1`).

use super::classify::EXIT_INTERRUPTED;
use super::output::error;
use super::{Output, EXIT_OK, EXIT_PUZZLE, EXIT_USAGE};
use clap::{Args, ValueEnum};
use hdp::classify::Level;
use hdp::format::{parse_puzzles, InputFormat};
use hdp::generate::run::{found_text, proof_lines, End, Event, GeneratedRecord, Limits};
use hdp::generate::{Found, Minimality, Pattern, Settings, Target};
use hdp::settings::deadline_after;
use hdp::Grid;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use hdp::generate::run::SHIPPED_SEEDS as SEEDS;

/// `--level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Naked and hidden singles alone solve it.
    Trivial,
    /// The full propagation profile solves it (depth 0).
    Easy,
    /// Pair reduction solves it (depth 1).
    Medium,
    /// Deep pair reduction is needed (depth 2).
    Hard,
    /// Very deep pair reduction is needed (depth 3).
    Deep,
    /// Depth 4 or more.
    Extreme,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// One puzzle per line, with `# level depth canonical-form` after it.
    Text,
    /// JSON Lines: the record `hdp classify` writes, plus `canonical` (alias: json).
    #[value(alias = "json")]
    Jsonl,
}

/// `hdp generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The level of every puzzle, as `hdp classify` rates it (default: medium).
    #[arg(long, value_enum, conflicts_with_all = ["depth", "te"])]
    pub level: Option<LevelArg>,
    /// The reduction depth of every puzzle with classify's default decisions (its `depth`
    /// column), 0 to 4.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=4), conflicts_with = "te")]
    pub depth: Option<u8>,
    /// The trial-and-error depth of every puzzle (`classify --te`), 0 to 3.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub te: Option<u8>,
    /// How many puzzles to print.
    #[arg(long, short = 'n', default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Only minimal puzzles: no given can be removed without losing uniqueness.
    #[arg(long)]
    pub minimal: bool,
    /// The symmetry of the givens.
    #[arg(long, default_value = "none", value_parser = parse_pattern)]
    pub symmetry: Pattern,
    /// How many givens, MIN..MAX (e.g. 20..26; either end may be left out).
    #[arg(long, value_parser = parse_givens, value_name = "MIN..MAX")]
    pub givens: Option<(usize, usize)>,
    /// The seed of the random numbers: the same seed and options give the same puzzles,
    /// whatever --jobs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Known hard puzzles to search near for hard and above (default: the set shipped with hdp).
    /// No puzzle printed is one of them or an isomorph of one.
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
    /// Steps of one vicinity walk.
    #[arg(long, default_value_t = hdp::generate::DEFAULT_STEPS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub steps: usize,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 'j', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
    /// The most seconds for the whole run (a number above 0).
    #[arg(long, value_parser = super::parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<f64>,
    /// The most attempts for the whole run (an attempt is one random puzzle, or one vicinity
    /// walk of --steps puzzles).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Text)]
    pub format: GenerateFormat,
    /// Add each puzzle's minimal proof (text: as comment lines after it).
    #[arg(long)]
    pub proof: bool,
}

fn parse_pattern(s: &str) -> Result<Pattern, String> {
    s.parse()
}

/// `--givens MIN..MAX`.
fn parse_givens(s: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("expected MIN..MAX like 20..26, got {s:?}"))?;
    let end = |t: &str, default: usize| -> Result<usize, String> {
        if t.trim().is_empty() {
            return Ok(default);
        }
        t.trim()
            .parse()
            .map_err(|_| format!("bad number of givens {t:?} in {s:?}"))
    };
    let (lo, hi) = (end(lo, 17)?, end(hi, 81)?);
    if lo > hi || hi > 81 {
        return Err(format!("need MIN <= MAX <= 81, got {s}"));
    }
    Ok((lo, hi))
}

/// A JSON Lines record: the `schema` and `source` fields, then the library's record.
#[derive(Serialize)]
struct GeneratedLine<'a> {
    schema: u32,
    source: &'static str,
    #[serde(flatten)]
    record: &'a GeneratedRecord,
}

impl GenerateArgs {
    fn target(&self) -> Target {
        match (self.level, self.depth, self.te) {
            (_, Some(d), _) => Target::Depth(d),
            (_, _, Some(d)) => Target::TrialAndError(d),
            (level, _, _) => Target::Level(match level.unwrap_or(LevelArg::Medium) {
                LevelArg::Trivial => Level::Trivial,
                LevelArg::Easy => Level::Easy,
                LevelArg::Medium => Level::Medium,
                LevelArg::Hard => Level::Hard,
                LevelArg::Deep => Level::Deep,
                LevelArg::Extreme => Level::Extreme,
            }),
        }
    }
}

/// The seeds: `--from FILE` or the shipped set. A bad line is an error naming it.
fn seeds(a: &GenerateArgs) -> anyhow::Result<Vec<Grid>> {
    let (name, text) = match &a.from {
        Some(path) => (
            path.as_str(),
            std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("--from {path}: {e}"))?,
        ),
        None => ("the shipped seeds", SEEDS.to_string()),
    };
    let mut out = Vec::new();
    for p in parse_puzzles(&text, InputFormat::Auto) {
        match p {
            Ok(p) => out.push(p.grid),
            Err(e) => anyhow::bail!("--from {name}: {e}"),
        }
    }
    Ok(out)
}

pub fn run(a: &GenerateArgs, out: &mut Output) -> anyhow::Result<i32> {
    let seeds = match seeds(a) {
        Ok(s) => s,
        Err(e) => {
            error(format_args!("{e}"));
            return Ok(EXIT_USAGE);
        }
    };
    let target = a.target();
    let (lo, hi) = a.givens.unwrap_or((17, 81));
    let settings = Arc::new(Settings {
        target,
        pattern: a.symmetry,
        minimality: if a.minimal {
            Minimality::Minimal
        } else {
            Minimality::Any
        },
        givens: lo..=hi,
        seed: a.seed,
        seeds,
        steps: a.steps,
    });
    let start = Instant::now();
    let limits = Limits {
        count: a.count,
        budget: a.budget,
        deadline: deadline_after(start, a.timeout),
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let on_signal = {
        let stop = stop.clone();
        move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(EXIT_INTERRUPTED);
            }
        }
    };
    let _ = ctrlc::set_handler(on_signal);

    let bar = if std::io::stderr().is_terminal() && !super::output::quiet() {
        let bar = ProgressBar::new(a.count);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles  {elapsed}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut failed = None;
    let (end, progress) = hdp::generate::run::run(&settings, &limits, &stop, |event| {
        let written = match event {
            Event::Progress(p) => {
                bar.set_message(format!("{} attempts, {} rated", p.attempts, p.rated));
                Ok(())
            }
            Event::Found { number, found } => write_found(out, a, number, found, limits.deadline)
                .and_then(|()| {
                    bar.inc(1);
                    Ok(out.flush()?)
                }),
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    let printed = progress.found;
    match end {
        End::Count | End::Halted => Ok(EXIT_OK),
        End::Stopped => {
            error(format_args!(
                "interrupted: {printed} of {} puzzles printed",
                a.count
            ));
            Ok(EXIT_INTERRUPTED)
        }
        End::Deadline | End::Budget => {
            error(format_args!(
                "{}: {printed} of {} puzzles found in {} attempts ({} puzzles rated, {:.1} s)",
                end.shortfall().unwrap_or_default(),
                a.count,
                progress.attempts,
                progress.rated,
                start.elapsed().as_secs_f64()
            ));
            Ok(EXIT_PUZZLE)
        }
    }
}

/// Prints puzzle number `n` of the run.
fn write_found(
    out: &mut Output,
    a: &GenerateArgs,
    n: u64,
    found: &Found,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    let proof = a.proof.then(|| proof_lines(&found.puzzle, deadline));
    match a.format {
        GenerateFormat::Text => write!(out, "{}", found_text(found, a.target(), proof.as_ref()))?,
        GenerateFormat::Jsonl => {
            let record = GeneratedRecord::new(n, found, a.target(), proof);
            out.json_line(&GeneratedLine {
                schema: super::output::SCHEMA,
                source: "generate",
                record: &record,
            })?;
        }
    }
    Ok(())
}
