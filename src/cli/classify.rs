//! `hdp classify`: stream a collection, classify every puzzle in parallel, write one record per
//! puzzle line in input order (TSV or JSON Lines), optionally a summary.

use super::{EngineArgs, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::classify::{classify, ClassifyOptions, Level};
use hdp::engine::Limit;
use hdp::format::parse_line;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

const LEVELS_HELP: &str = "\
Levels, from `depth_pairs`: the reduction depth with the source's method (cell pairs, and
constraint pairs in a state with no cell pair left) under the synchronous schedule, which makes
the level the same in every orientation and labelling of the grid:
  trivial   naked and hidden singles alone solve it
  easy      the full propagation profile solves it (depth 0)
  medium    pair reduction solves it (depth 1)
  hard      deep pair reduction is needed: one hypothesis inside another (depth 2)
  deep      very deep pair reduction is needed (depth 3)
  extreme   depth 4 or more
  unsolved  a limit stopped the analysis first; the column `limit` says which (depth, budget,
            timeout)
Columns: `constraint_levels` lists the nesting levels (1 = the outermost decisions) at which
constraint pairs decided something; `pairs_tests` counts the level run's branch tests. `depth`
is the depth with the configured --decisions (default: cell and constraint pairs in every
state); `tests`, `hypotheses` and `facts` are that run's effort, the same figures `hdp chain`
prints with the same options: a test applies one branch and propagates, a hypothesis is a test
at depth 2 or more (a closure inside a branch), a fact is a branch established because its
opposite led to a contradiction, at any nesting level. Defaults: --max-depth 4 and --budget
1000000 tests per run. With --te, `depth` is the trial-and-error depth of the literature
(T&E(0..3)), `depth_pairs` is empty and `level` maps T&E depth 0..3 to trivial, medium, hard,
deep.

Exit codes: 0 success, 1 some line was bad or a puzzle had no unique solution, 2 usage or I/O error
(including output that cannot be written), 141 standard output was closed early (e.g. by `head`).";

/// Record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecordFormat {
    /// Tab-separated values with a header line.
    Tsv,
    /// One JSON object per line (alias: json).
    #[value(alias = "json")]
    Jsonl,
}

/// `hdp classify`.
#[derive(Args, Debug)]
#[command(after_help = LEVELS_HELP)]
pub struct ClassifyArgs {
    /// Files with one puzzle per line, or - for standard input (default: standard input).
    pub files: Vec<String>,
    /// Record format.
    #[arg(long, value_enum, default_value_t = RecordFormat::Tsv)]
    pub format: RecordFormat,
    /// The engine settings of the `depth` run (the level uses cell pairs with the same settings).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Trial-and-error depth of the literature: candidate decisions, singles, contradictions only
    /// (so it cannot be combined with --decisions, --profile, --proof or --walk).
    #[arg(long, conflicts_with_all = ["decisions", "profile", "proof", "walk"])]
    pub te: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 'j', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
    /// Process every N-th puzzle line starting at I (0-based), written I/N.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Print a histogram of levels and effort percentiles to stderr at the end.
    #[arg(long)]
    pub summary: bool,
    /// Print only the summary, to stdout (instead of --summary's records plus summary on stderr).
    #[arg(long, conflicts_with = "summary")]
    pub summary_only: bool,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N like 0/4, got {s:?}"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index {i:?}"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count {n:?}"))?;
    if n == 0 || i >= n {
        return Err(format!("shard I/N needs 0 <= I < N, got {s}"));
    }
    Ok((i, n))
}

/// One output record; the field names are the documented column and key names.
#[derive(Debug, Serialize)]
pub struct Record {
    pub line: usize,
    pub puzzle: String,
    pub label: String,
    pub solutions: Option<u8>,
    pub level: Option<Level>,
    pub depth_pairs: Option<u8>,
    pub constraint_levels: String,
    pub pairs_tests: u64,
    pub depth: Option<u8>,
    pub decisions: String,
    pub profile: String,
    pub schedule: String,
    pub tests: u64,
    pub hypotheses: u64,
    pub facts: u64,
    pub limit: Option<Limit>,
    pub micros: u64,
    pub error: Option<String>,
}

const COLUMNS: [&str; 18] = [
    "line",
    "puzzle",
    "label",
    "solutions",
    "level",
    "depth_pairs",
    "constraint_levels",
    "pairs_tests",
    "depth",
    "decisions",
    "profile",
    "schedule",
    "tests",
    "hypotheses",
    "facts",
    "limit",
    "micros",
    "error",
];

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(|x| x.to_string()).unwrap_or_default()
}

fn tsv_field(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl Record {
    fn tsv(&self) -> String {
        [
            self.line.to_string(),
            tsv_field(&self.puzzle),
            tsv_field(&self.label),
            opt(&self.solutions),
            opt(&self.level),
            opt(&self.depth_pairs),
            self.constraint_levels.clone(),
            self.pairs_tests.to_string(),
            opt(&self.depth),
            self.decisions.clone(),
            self.profile.clone(),
            self.schedule.clone(),
            self.tests.to_string(),
            self.hypotheses.to_string(),
            self.facts.to_string(),
            self.limit.map(|l| l.name().to_string()).unwrap_or_default(),
            self.micros.to_string(),
            tsv_field(self.error.as_deref().unwrap_or("")),
        ]
        .join("\t")
    }
}

struct Job {
    line: usize,
    text: String,
}

fn classify_one(job: &Job, options: &ClassifyOptions, timeout: Option<f64>) -> Record {
    let mut opts = *options;
    let (decisions, profile) = (
        opts.engine.decisions.to_string(),
        opts.engine.profile.to_string(),
    );
    let mut record = Record {
        line: job.line,
        puzzle: String::new(),
        label: String::new(),
        solutions: None,
        level: None,
        depth_pairs: None,
        constraint_levels: String::new(),
        pairs_tests: 0,
        depth: None,
        decisions,
        profile,
        schedule: opts.engine.schedule.to_string(),
        tests: 0,
        hypotheses: 0,
        facts: 0,
        limit: None,
        micros: 0,
        error: None,
    };
    let puzzle = match parse_line(&job.text, job.line) {
        Ok(p) => p,
        Err(e) => {
            record.puzzle = job.text.chars().take(81).collect();
            record.error = Some(e.to_string());
            return record;
        }
    };
    record.puzzle = puzzle.grid.to_line();
    record.label = puzzle.label.unwrap_or_default();
    let start = Instant::now();
    opts.engine.budget.deadline = timeout
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| start + Duration::from_secs_f64(t.min(1e9)));
    let c = classify(&puzzle.grid, &opts);
    record.micros = start.elapsed().as_micros() as u64;
    record.solutions = Some(c.solutions);
    record.level = c.level;
    record.depth_pairs = c.depth_pairs;
    record.constraint_levels = c
        .constraint_levels
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",");
    record.pairs_tests = c.pairs_effort.tests;
    record.depth = c.depth;
    record.tests = c.effort.tests;
    record.hypotheses = c.effort.hypotheses;
    record.facts = c.effort.facts;
    record.limit = c.limit;
    match c.solutions {
        0 => record.error = Some("no solution".into()),
        2 => record.error = Some("multiple solutions".into()),
        _ => {}
    }
    record
}

#[derive(Default)]
struct Summary {
    levels: [usize; 7],
    errors: usize,
    tests: Vec<u64>,
    micros: Vec<u64>,
}

impl Summary {
    fn add(&mut self, r: &Record) {
        if r.error.is_some() {
            self.errors += 1;
        }
        if let Some(l) = r.level {
            self.levels[l as usize] += 1;
            self.tests.push(r.tests);
            self.micros.push(r.micros);
        }
    }

    fn render(&mut self, elapsed: Duration) -> String {
        let total: usize = self.levels.iter().sum();
        let mut out = String::new();
        out.push_str("level     puzzles  share\n");
        for l in Level::ALL {
            let n = self.levels[l as usize];
            let share = if total > 0 {
                100.0 * n as f64 / total as f64
            } else {
                0.0
            };
            out.push_str(&format!("{:<9} {n:>7}  {share:5.1}%\n", l.name()));
        }
        out.push_str(&format!("{:<9} {total:>7}\n", "total"));
        if self.errors > 0 {
            out.push_str(&format!("{:<9} {:>7}\n", "errors", self.errors));
        }
        self.tests.sort_unstable();
        self.micros.sort_unstable();
        let pct = |v: &[u64], p: f64| -> u64 {
            if v.is_empty() {
                0
            } else {
                v[((v.len() - 1) as f64 * p).round() as usize]
            }
        };
        for (name, v) in [("tests", &self.tests), ("micros", &self.micros)] {
            out.push_str(&format!(
                "{name:<9} p50 {} p90 {} p99 {} max {}\n",
                pct(v, 0.5),
                pct(v, 0.9),
                pct(v, 0.99),
                pct(v, 1.0)
            ));
        }
        out.push_str(&format!("elapsed   {:.2?}\n", elapsed));
        out
    }
}

/// `{rate}`: puzzles per second with sensible precision (`42.1/s`, `3120/s`).
fn with_rate(style: ProgressStyle) -> ProgressStyle {
    style.with_key(
        "rate",
        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let r = state.per_sec();
            let _ = if r >= 100.0 {
                write!(w, "{r:.0}/s")
            } else {
                write!(w, "{r:.1}/s")
            };
        },
    )
}

fn progress(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() || super::output::quiet() {
        return ProgressBar::hidden();
    }
    match total {
        Some(n) => {
            let bar = ProgressBar::new(n);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles  {rate}  eta {eta}")
                    .map(with_rate)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {pos} puzzles  {rate}")
                    .map(with_rate)
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        }
    }
}

pub fn run(a: &ClassifyArgs, out: &mut super::Output) -> anyhow::Result<i32> {
    let mut options = if a.te {
        ClassifyOptions::trial_and_error()
    } else {
        ClassifyOptions::default()
    };
    let engine = a.engine.options(options.engine.max_depth);
    options.engine.max_depth = engine.max_depth;
    if engine.budget.max_tests.is_some() {
        options.engine.budget.max_tests = engine.budget.max_tests;
    }
    options.engine.schedule = engine.schedule;
    if !a.te {
        options.engine.decisions = engine.decisions;
        options.engine.profile = engine.profile;
        options.engine.proof = engine.proof;
        options.engine.walk = engine.walk;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()?;
    let files: Vec<String> = if a.files.is_empty() {
        vec!["-".into()]
    } else {
        a.files.clone()
    };
    // A total for the progress bar when every input is a file (a cheap line count).
    let total = if std::io::stderr().is_terminal() && files.iter().all(|f| f != "-") {
        let mut n = 0u64;
        for f in &files {
            n += std::fs::read(f).map(|b| bytecount(&b)).unwrap_or(0);
        }
        Some(n)
    } else {
        None
    };
    let bar = progress(total);
    if !a.summary_only && a.format == RecordFormat::Tsv {
        writeln!(out, "{}", COLUMNS.join("\t"))?;
    }
    let mut summary = Summary::default();
    let mut code = EXIT_OK;
    let started = Instant::now();
    let chunk = 256 * pool.current_num_threads().max(1);
    let mut puzzle_index = 0usize;
    for file in &files {
        let reader: Box<dyn BufRead> = if file == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(file)
                    .map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?,
            ))
        };
        let mut lines = reader.split(b'\n');
        let mut line_no = 0usize;
        loop {
            let mut jobs = Vec::with_capacity(chunk);
            while jobs.len() < chunk {
                let Some(bytes) = lines.next() else { break };
                let bytes = bytes.map_err(|e| anyhow::anyhow!("reading {file}: {e}"))?;
                line_no += 1;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let trimmed = text.trim_start_matches('\u{feff}').trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    bar.inc(1);
                    continue;
                }
                let index = puzzle_index;
                puzzle_index += 1;
                if let Some((i, n)) = a.shard {
                    if index % n != i {
                        bar.inc(1);
                        continue;
                    }
                }
                jobs.push(Job {
                    line: line_no,
                    text,
                });
            }
            if jobs.is_empty() {
                break;
            }
            let timeout = a.engine.timeout;
            let records: Vec<Record> = pool.install(|| {
                jobs.par_iter()
                    .map(|j| {
                        let r = classify_one(j, &options, timeout);
                        bar.inc(1);
                        r
                    })
                    .collect()
            });
            for r in &records {
                if let Some(e) = &r.error {
                    if r.solutions.is_none() {
                        bar.suspend(|| super::output::error(format_args!("{file}: {e}")));
                    }
                    code = EXIT_PUZZLE;
                }
                summary.add(r);
                if a.summary_only {
                    continue;
                }
                match a.format {
                    RecordFormat::Tsv => writeln!(out, "{}", r.tsv())?,
                    RecordFormat::Jsonl => writeln!(out, "{}", serde_json::to_string(r)?)?,
                }
            }
        }
    }
    bar.finish_and_clear();
    out.flush()?;
    let text = summary.render(started.elapsed());
    if a.summary_only {
        write!(out, "{text}")?;
        out.flush()?;
    } else if a.summary {
        super::output::stderr_text(&text);
    }
    Ok(code)
}

fn bytecount(b: &[u8]) -> u64 {
    b.iter().filter(|&&c| c == b'\n').count() as u64
}
