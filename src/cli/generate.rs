//! `hdp generate`: puzzles at a chosen level, streamed as they are found.
//!
//! Worker threads take attempt numbers in turn and run them ([`hdp::generate::attempt`]); the
//! main thread puts their results back in attempt order, drops repeated canonical forms and
//! isomorphs of the seeds ([`Distinct`]), and prints each puzzle as soon as every attempt
//! before it is done. So the puzzles printed are the same, in the same order, whatever
//! `--jobs` is; only how fast they come changes. The run ends at `--count` puzzles, at
//! `--timeout`, after `--budget` attempts, on SIGINT or SIGTERM (exit 130: what was printed
//! stays) or when standard output is closed (`| head -1`).

use super::classify::{JsonRecord, EXIT_INTERRUPTED};
use super::output::error;
use super::{Output, EXIT_OK, EXIT_PUZZLE, EXIT_USAGE};
use clap::{Args, ValueEnum};
use hdp::classify::{Level, Record};
use hdp::engine::{Analysis, Budget, Options, Recording};
use hdp::format::{parse_puzzles, InputFormat};
use hdp::generate::{attempt, Attempt, Distinct, Found, Minimality, Pattern, Settings, Target};
use hdp::Grid;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The seeds of the vicinity search when `--from` is not given (sources in `data/README.md`).
const SEEDS: &str = include_str!("../../data/generate-seeds.txt");

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

/// A JSON Lines record: classify's, plus the canonical form and the proof.
#[derive(Serialize)]
struct GeneratedRecord<'a> {
    #[serde(flatten)]
    record: JsonRecord<'a>,
    /// The canonical (minlex) form.
    canonical: &'a str,
    /// The minimal proof's lines, with --proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<Vec<String>>,
}

static STOP: AtomicBool = AtomicBool::new(false);

fn on_signal() {
    if STOP.swap(true, Ordering::SeqCst) {
        std::process::exit(EXIT_INTERRUPTED);
    }
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

/// The minimal proof of `puzzle`, as lines of the notation; an explanation when there is none.
fn proof(puzzle: &Grid, deadline: Option<Instant>) -> Result<Vec<String>, String> {
    let options = Options {
        recording: Recording::Chain,
        max_depth: hdp::classify::DEFAULT_MAX_DEPTH,
        budget: Budget {
            max_tests: Some(hdp::classify::DEFAULT_BUDGET),
            deadline,
        },
        ..Options::default()
    };
    let analysis = Analysis::run(puzzle, &options);
    let m = hdp::minimal::minimal(&analysis).map_err(|e| e.to_string())?;
    Ok(m.proof_lines().map(|l| l.to_string()).collect())
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
        seeds: seeds.clone(),
        steps: a.steps,
    });
    let start = Instant::now();
    let deadline = a
        .timeout
        .map(|t| start + Duration::from_secs_f64(t.min(1e9)));
    let threads = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let budget = a.budget.unwrap_or(u64::MAX);
    let _ = ctrlc::set_handler(on_signal);

    let next = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<(u64, Attempt)>();
    for _ in 0..threads {
        let (settings, next, done, tx) = (settings.clone(), next.clone(), done.clone(), tx.clone());
        std::thread::spawn(move || loop {
            if done.load(Ordering::SeqCst) || STOP.load(Ordering::SeqCst) {
                return;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= budget || deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
            if tx.send((i, attempt(&settings, i, deadline))).is_err() {
                return;
            }
        });
    }
    drop(tx);

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
    let mut distinct = Distinct::new(&seeds);
    let mut pending: BTreeMap<u64, Attempt> = BTreeMap::new();
    let (mut expected, mut printed, mut rated) = (0u64, 0u64, 0u64);
    let finish = |code: i32| {
        done.store(true, Ordering::SeqCst);
        code
    };
    loop {
        if STOP.load(Ordering::SeqCst) {
            bar.finish_and_clear();
            error(format_args!(
                "interrupted: {printed} of {} puzzles printed",
                a.count
            ));
            return Ok(finish(EXIT_INTERRUPTED));
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok((i, result)) => {
                pending.insert(i, result);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        }
        while let Some(result) = pending.remove(&expected) {
            expected += 1;
            rated += result.rated;
            bar.set_message(format!("{expected} attempts, {rated} rated"));
            for found in result.found {
                if !distinct.admit(&found) {
                    continue;
                }
                printed += 1;
                write_found(out, a, printed, &found, deadline)?;
                out.flush()?;
                bar.inc(1);
                if printed >= a.count {
                    bar.finish_and_clear();
                    return Ok(finish(EXIT_OK));
                }
            }
        }
    }
    bar.finish_and_clear();
    if STOP.load(Ordering::SeqCst) {
        // The workers saw the signal first and stopped: an interruption, not a limit.
        error(format_args!(
            "interrupted: {printed} of {} puzzles printed",
            a.count
        ));
        return Ok(finish(EXIT_INTERRUPTED));
    }
    let why = if deadline.is_some_and(|d| Instant::now() >= d) {
        "the time limit passed"
    } else {
        "the attempt budget ran out"
    };
    error(format_args!(
        "{why}: {printed} of {} puzzles found in {expected} attempts ({rated} puzzles rated, {:.1} s)",
        a.count,
        start.elapsed().as_secs_f64()
    ));
    Ok(finish(EXIT_PUZZLE))
}

/// Prints one puzzle (number `n` of the run).
fn write_found(
    out: &mut Output,
    a: &GenerateArgs,
    n: u64,
    found: &Found,
    deadline: Option<Instant>,
) -> anyhow::Result<()> {
    let c = &found.classification;
    let proof = a.proof.then(|| proof(&found.puzzle, deadline));
    match a.format {
        GenerateFormat::Text => {
            let level = c.level.map_or("-", Level::name);
            let depth = match a.target() {
                Target::Level(_) => c.depth_pairs,
                _ => c.depth,
            };
            let depth = depth.map_or("-".to_string(), |d| d.to_string());
            writeln!(
                out,
                "{} # {level} {depth} {}",
                found.puzzle.to_line(),
                found.canonical
            )?;
            match proof {
                Some(Ok(lines)) => {
                    for l in lines {
                        writeln!(out, "#   {l}")?;
                    }
                }
                Some(Err(e)) => writeln!(out, "#   no proof: {e}")?,
                None => {}
            }
        }
        GenerateFormat::Jsonl => {
            let mut record =
                Record::classified(n as usize, &found.puzzle, c, &a.target().classify_options());
            let (proof, proof_error) = match proof {
                Some(Ok(lines)) => (Some(lines), None),
                Some(Err(e)) => (None, Some(e)),
                None => (None, None),
            };
            if let Some(e) = proof_error {
                record.error = Some(format!("no proof: {e}"));
            }
            let body = GeneratedRecord {
                record: JsonRecord {
                    schema: super::output::SCHEMA,
                    source: "generate",
                    record: &record,
                },
                canonical: &found.canonical,
                proof,
            };
            out.json_line(&body)?;
        }
    }
    Ok(())
}
