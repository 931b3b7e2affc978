//! `hdp classify`: stream a collection, classify every puzzle in parallel, write one record per
//! puzzle line in input order (TSV or JSON Lines), optionally a summary.
//!
//! Three kinds of thread: a reader pulls items from the puzzle source ([`Puzzles`]) and hands
//! them out, numbered, to the workers through a channel; the workers classify; the main thread
//! puts results in a reorder buffer and writes each record as soon as it and every record before
//! it are done, flushing whenever it has nothing more to write at once. The reader stays at most
//! [`WINDOW`] items ahead of the writer, so memory is bounded however slow one puzzle is.
//!
//! SIGINT or SIGTERM stop the hand-out: queued items are dropped, puzzles being classified
//! finish, every finished record that follows the written ones without a gap is written, the
//! summary so far goes to stderr and the exit code is [`EXIT_INTERRUPTED`]. A second signal
//! exits at once. A write error (a closed pipe) stops the hand-out the same way and ends the run.

use super::input::{Puzzles, ReadArgs, ReadError};
use super::output::{plain_text, tsv_header, tsv_line};
use super::{EngineArgs, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::classify::{ClassifyOptions, Level, Record};
use hdp::format::Puzzle;
use hdp::ParseError;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Exit code after SIGINT or SIGTERM (the records written so far are whole and in order).
pub const EXIT_INTERRUPTED: i32 = 130;

/// How many items the reader may hand out beyond the last record written, per worker.
const WINDOW: usize = 64;

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
            timeout, or solver: the exact solver's node budget, `solutions` then empty)
Columns: `constraint_levels` lists the nesting levels (1 = the outermost decisions) at which
constraint pairs decided something; `pairs_tests` counts the level run's branch tests. `depth`
is the depth with the configured --decisions (default: cell and constraint pairs in every
state); `tests`, `hypotheses` and `facts` are that run's effort, the same figures `hdp chain`
prints with the same options: a test applies one branch and propagates (or is answered open
without it: from an earlier open end, or with --te because the branch holds the solution), a
hypothesis is a test at depth 2 or more (a closure inside a branch), a fact is a branch
established because its opposite led to a contradiction, at any nesting level. Defaults: --max-depth 4 and --budget
1000000 tests per run. With --te, `depth` is the trial-and-error depth of the literature
(T&E(0..3)), `depth_pairs` is empty and `level` maps T&E depth 0..3 to trivial, medium, hard,
deep.

Records are written as soon as they and every record before them are done. SIGINT (Ctrl-C) or
SIGTERM stop the run: the finished records are written whole and in order, the summary so far
goes to stderr; resume with --skip N, N being the number of records written (lines of the TSV
output less its header). A second Ctrl-C exits at once.

Exit codes: 0 success, 1 some line was bad or a puzzle had no unique solution, 2 usage or I/O
error (including output that cannot be written; an unreadable input is reported in its place, the
others are still classified), 130 interrupted by SIGINT or SIGTERM, 141 standard output was closed
early (e.g. by `head`).";

/// `classify --max-depth`: its own default.
const CLASSIFY_MAX_DEPTH: &str = "How many hypotheses one test may nest (1 = pair reduction, 2 = \
deep, 3 = very deep, 4 and more = extreme); each level costs far more time. Default 4.";

/// Record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecordFormat {
    /// Tab-separated values with a header line.
    Tsv,
    /// One JSON object per line (alias: json).
    #[value(alias = "json")]
    Jsonl,
    /// The input line (puzzle and label as read) with the level and the depth appended, each
    /// after a tab, as rating tools' batch modes print (`error` and `-` for a bad line).
    Line,
    /// The depth alone, one number per line (`-` when there is none).
    Depth,
}

/// `hdp classify`.
#[derive(Args, Debug)]
#[command(after_help = LEVELS_HELP)]
#[command(mut_arg("max_depth", |a| a.help(CLASSIFY_MAX_DEPTH)))]
pub struct ClassifyArgs {
    /// Files (one puzzle per line, TSV/CSV with a puzzle column, grids), 81-character puzzles,
    /// or - for standard input (default: standard input).
    pub files: Vec<String>,
    #[command(flatten)]
    pub read: ReadArgs,
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
    /// Skip the first N puzzles this run would classify (after --shard): resumes a run that
    /// wrote N records.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: usize,
    /// Print a histogram of levels and effort percentiles to stderr at the end.
    #[arg(long)]
    pub summary: bool,
    /// Leave out the timing fields (`micros`, and the summary's times), so that two runs can be
    /// compared byte for byte.
    #[arg(long)]
    pub no_timing: bool,
    /// Print only the summary, to stdout (instead of --summary's records plus summary on stderr).
    #[arg(long, conflicts_with = "summary")]
    pub summary_only: bool,
    /// Add the columns proof_moves and proof_lines: the size of the minimal proof that only
    /// contradictions prove, in moves of its derivations and in lines (slower: one more analysis).
    #[arg(long)]
    pub proof_size: bool,
    /// Keep only the first puzzle of each class (the same canonical form, `hdp canon`): later
    /// isomorphs get no record and are not counted by --shard or --skip.
    #[arg(long)]
    pub dedupe: bool,
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

/// A JSON Lines record: the JSON-only `schema` and `source`, then the fields of [`Record`].
#[derive(Serialize)]
pub struct JsonRecord<'a> {
    /// The version of the JSON Lines schema.
    pub schema: u32,
    /// Where the puzzle came from: a file name, `-`, or `argument N`.
    pub source: &'a str,
    /// The fields shared with TSV.
    #[serde(flatten)]
    pub record: &'a Record,
}

/// `classify`'s JSON Lines record: a [`JsonRecord`], then a table row's other columns.
#[derive(Serialize)]
struct RowRecord<'a> {
    #[serde(flatten)]
    record: JsonRecord<'a>,
    /// A table row's other columns, by the input's header names (in TSV: the `input.NAME`
    /// columns after hdp's).
    #[serde(skip_serializing_if = "Columns::is_empty")]
    input: &'a Columns,
}

/// A table row's other columns in their order: (name, value); a JSON object.
#[derive(Debug, Default)]
pub struct Columns(pub Vec<(String, String)>);

impl Columns {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The values under `names` (the first table's), empty where this row has no such column.
    fn values(&self, names: &[String]) -> Vec<String> {
        names
            .iter()
            .map(|n| {
                self.0
                    .iter()
                    .find(|(k, _)| k == n)
                    .map_or_else(String::new, |(_, v)| plain_text(v))
            })
            .collect()
    }
}

impl Serialize for Columns {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The record with its text fields made one line of plain text, for TSV.
fn into_plain(mut record: Record) -> Record {
    for field in [&mut record.puzzle, &mut record.label] {
        *field = plain_text(field);
    }
    record.error = record.error.map(|e| plain_text(&e));
    record
}

/// One item handed to a worker.
enum Work {
    /// A puzzle to classify.
    Puzzle {
        source: String,
        line: usize,
        puzzle: Puzzle,
        columns: Columns,
    },
    /// A line that did not parse: its record is made without the engine.
    Bad {
        source: String,
        line: usize,
        raw: String,
        error: ParseError,
        columns: Columns,
    },
}

/// What comes back, in the slot of its item.
enum Done {
    /// A record, with its source and the stderr message of a bad line.
    Record {
        source: String,
        record: Box<Record>,
        message: Option<String>,
        columns: Columns,
    },
    /// An input that could not be read (reported in its place).
    InputError(String),
    /// Dropped after an interruption.
    Dropped,
}

/// What a worker needs beside the options: the timeout and whether to size proofs.
#[derive(Clone, Copy)]
struct Extra {
    timeout: Option<f64>,
    proof_size: bool,
}

/// The record of one item, with the stderr message of a bad line.
fn finish(work: Work, options: &ClassifyOptions, extra: Extra) -> Done {
    let message = match &work {
        Work::Bad { source, error, .. } => Some(format!("{source}: {error}")),
        Work::Puzzle { .. } => None,
    };
    let (source, record, columns) = classify_one(work, options, extra);
    Done::Record {
        source,
        record: Box::new(record),
        message,
        columns,
    }
}

fn classify_one(work: Work, options: &ClassifyOptions, extra: Extra) -> (String, Record, Columns) {
    match work {
        Work::Bad {
            source,
            line,
            raw,
            error,
            columns,
        } => {
            let mut record = Record::bad(line, raw, &error, options);
            if extra.proof_size {
                (record.proof_moves, record.proof_lines) = (Some(None), Some(None));
            }
            (source, record, columns)
        }
        Work::Puzzle {
            source,
            line,
            puzzle,
            columns,
        } => {
            let start = Instant::now();
            let mut opts = *options;
            opts.engine.budget.deadline = hdp::settings::deadline_after(start, extra.timeout);
            let mut record = Record::of(line, &puzzle, &opts);
            if extra.proof_size {
                record = record.with_proof_size(&puzzle.grid, &opts);
            }
            record.micros = Some(start.elapsed().as_micros() as u64);
            (source, record, columns)
        }
    }
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
            self.micros.extend(r.micros);
        }
    }

    fn render(&mut self, elapsed: Option<Duration>) -> String {
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
            if v.is_empty() && name == "micros" {
                continue;
            }
            out.push_str(&format!(
                "{name:<9} p50 {} p90 {} p99 {} max {}\n",
                pct(v, 0.5),
                pct(v, 0.9),
                pct(v, 0.99),
                pct(v, 1.0)
            ));
        }
        if let Some(elapsed) = elapsed {
            out.push_str(&format!("elapsed   {elapsed:.2?}\n"));
        }
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

fn progress(total: Option<u64>, typed: bool) -> ProgressBar {
    // Puzzles typed at a terminal get no spinner over what is typed (nor over the Ctrl-D note).
    if !std::io::stderr().is_terminal() || super::output::quiet() || typed {
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

/// Set by SIGINT/SIGTERM or a write error: hand out nothing more.
static STOP: AtomicBool = AtomicBool::new(false);
/// Set by SIGINT/SIGTERM.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The writer's progress, which the reader waits on to stay within the window.
struct Window {
    written: Mutex<usize>,
    moved: Condvar,
}

impl Window {
    fn wait_for(&self, index: usize, width: usize) {
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        while index >= *written + width && !STOP.load(Ordering::SeqCst) {
            written = self
                .moved
                .wait_timeout(written, Duration::from_millis(100))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    fn advance(&self, written: usize) {
        *self.written.lock().unwrap_or_else(|e| e.into_inner()) = written;
        self.moved.notify_all();
    }
}

/// The records on standard output at the writer's last flush (all of them while it waits), and
/// the run's `--skip`: what a second signal reports.
static DELIVERED: AtomicUsize = AtomicUsize::new(0);
static SKIPPED: AtomicUsize = AtomicUsize::new(0);

fn on_signal() {
    if STOP.swap(true, Ordering::SeqCst) && INTERRUPTED.load(Ordering::SeqCst) {
        let n = DELIVERED.load(Ordering::SeqCst);
        super::output::error(format_args!(
            "stopped at once after {n} records; resume with --skip {}",
            n + SKIPPED.load(Ordering::SeqCst)
        ));
        std::process::exit(EXIT_INTERRUPTED);
    }
    INTERRUPTED.store(true, Ordering::SeqCst);
    if !super::output::quiet() {
        super::output::stderr_line(format_args!(
            "hdp: interrupted: finishing the puzzles under way (interrupt again to stop at once)"
        ));
    }
}

pub fn run(a: &ClassifyArgs, out: &mut super::Output) -> anyhow::Result<i32> {
    let options = a.engine.classify_options(a.te);
    let threads = match a.jobs {
        Some(0) | None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
    };
    let files: Vec<String> = if a.files.is_empty() {
        vec!["-".into()]
    } else {
        a.files.clone()
    };
    // A total for the progress bar when every input is a regular file, whose lines can be
    // counted before they are read; a pipe, FIFO or `<(cmd)` can be read only once.
    let regular = |f: &String| std::fs::metadata(f).is_ok_and(|m| m.is_file());
    let total = if std::io::stderr().is_terminal() && files.iter().all(regular) {
        Some(files.iter().map(|f| count_lines(f)).sum())
    } else {
        None
    };
    let typed = files.iter().any(|f| f == "-") && std::io::stdin().is_terminal();
    let bar = progress(total, typed);
    // Ignore the error of a second registration (only tests run `run` twice in one process).
    SKIPPED.store(a.skip, Ordering::SeqCst);
    let _ = ctrlc::set_handler(on_signal);

    let window = Arc::new(Window {
        written: Mutex::new(0),
        moved: Condvar::new(),
    });
    let width = WINDOW * threads;
    let dispatched = Arc::new(AtomicUsize::new(0));
    let extra = Extra {
        timeout: a.engine.timeout,
        proof_size: a.proof_size,
    };
    let (work_tx, work_rx) = channel::<(usize, Work)>();
    let (done_tx, done_rx) = channel::<(usize, Done)>();
    {
        let (window, dispatched, done_tx) = (window.clone(), dispatched.clone(), done_tx.clone());
        let read = a.read.clone();
        let (shard, skip) = (a.shard, a.skip);
        let mut classes = a.dedupe.then(std::collections::HashSet::<[u8; 81]>::new);
        std::thread::spawn(move || {
            let puzzles = Puzzles::new(files, &read);
            let (mut puzzle_index, mut kept, mut index) = (0usize, 0usize, 0usize);
            for item in puzzles {
                if STOP.load(Ordering::SeqCst) {
                    break;
                }
                let work = match item.puzzle {
                    Err(ReadError::Input(e)) => {
                        window.wait_for(index, width);
                        dispatched.fetch_add(1, Ordering::SeqCst);
                        if done_tx.send((index, Done::InputError(e))).is_err() {
                            break;
                        }
                        index += 1;
                        continue;
                    }
                    Err(ReadError::Parse(error)) => Work::Bad {
                        source: item.source,
                        line: item.line,
                        raw: item.raw,
                        error,
                        columns: Columns(item.columns),
                    },
                    Ok(puzzle)
                        if classes.as_mut().is_some_and(|seen| {
                            hdp::canon::canonical_of_grid(&puzzle.grid)
                                .is_ok_and(|c| !seen.insert(c.form))
                        }) =>
                    {
                        continue
                    }
                    Ok(puzzle) => Work::Puzzle {
                        source: item.source,
                        line: item.line,
                        puzzle,
                        columns: Columns(item.columns),
                    },
                };
                let this = puzzle_index;
                puzzle_index += 1;
                if shard.is_some_and(|(i, n)| this % n != i) {
                    continue;
                }
                kept += 1;
                if kept <= skip {
                    continue;
                }
                window.wait_for(index, width);
                if STOP.load(Ordering::SeqCst) {
                    break;
                }
                dispatched.fetch_add(1, Ordering::SeqCst);
                // A bad line needs no engine: its record goes straight to the writer.
                let sent = match work {
                    Work::Bad { .. } => {
                        done_tx.send((index, finish(work, &options, extra))).is_ok()
                    }
                    Work::Puzzle { .. } => work_tx.send((index, work)).is_ok(),
                };
                if !sent {
                    break;
                }
                index += 1;
            }
        });
    }
    let work_rx = Arc::new(Mutex::new(work_rx));
    for _ in 0..threads {
        let (work_rx, done_tx) = (work_rx.clone(), done_tx.clone());
        std::thread::spawn(move || loop {
            let next = work_rx
                .lock()
                .map_err(|_| ())
                .and_then(|rx| rx.recv().map_err(|_| ()));
            let Ok((index, work)) = next else { break };
            let done = if STOP.load(Ordering::SeqCst) {
                Done::Dropped
            } else {
                finish(work, &options, extra)
            };
            if done_tx.send((index, done)).is_err() {
                break;
            }
        });
    }
    drop(done_tx);
    write_records(a, out, &done_rx, &window, &dispatched, &bar)
}

/// The writer: reorders, writes, flushes, and ends the run (see the module docs).
fn write_records(
    a: &ClassifyArgs,
    out: &mut super::Output,
    done_rx: &Receiver<(usize, Done)>,
    window: &Window,
    dispatched: &AtomicUsize,
    bar: &ProgressBar,
) -> anyhow::Result<i32> {
    let stop_on_error = |e: std::io::Error| {
        STOP.store(true, Ordering::SeqCst);
        e
    };
    // The TSV header, written with the first record: a table's other columns follow hdp's as
    // `input.NAME`, named after the first record's (later rows fill the columns of those names).
    let mut template = Record::empty(0, &a.engine.classify_options(a.te));
    if a.proof_size {
        (template.proof_moves, template.proof_lines) = (Some(None), Some(None));
    }
    let mut input_names: Option<Vec<String>> = None;
    let header = |out: &mut super::Output,
                  names_out: &mut Option<Vec<String>>,
                  columns: &Columns|
     -> std::io::Result<()> {
        if a.summary_only || a.format != RecordFormat::Tsv || names_out.is_some() {
            return Ok(());
        }
        let names: Vec<String> = columns.0.iter().map(|(k, _)| k.clone()).collect();
        let mut line = tsv_header(&template)?;
        if !names.is_empty() {
            line.pop();
            line.push(b'\t');
            let prefixed: Vec<String> = names.iter().map(|n| format!("input.{n}")).collect();
            line.extend(tsv_line(&prefixed)?);
        }
        *names_out = Some(names);
        out.write_all(&line).and_then(|()| out.flush())
    };
    let mut summary = Summary::default();
    let mut code = EXIT_OK;
    let started = Instant::now();
    let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
    let (mut next, mut received, mut written) = (0usize, 0usize, 0usize);
    let mut gap = false;
    loop {
        let (index, done) = match done_rx.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                out.flush().map_err(stop_on_error)?;
                DELIVERED.store(written, Ordering::SeqCst);
                match done_rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(m) => m,
                    Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {
                        // After a signal the reader may be blocked on its input: stop once
                        // every item handed out has come back.
                        if STOP.load(Ordering::SeqCst)
                            && received >= dispatched.load(Ordering::SeqCst)
                        {
                            break;
                        }
                        continue;
                    }
                }
            }
        };
        received += 1;
        pending.insert(index, done);
        while !gap {
            let Some(done) = pending.remove(&next) else {
                break;
            };
            next += 1;
            match done {
                Done::Dropped => gap = true,
                Done::InputError(e) => {
                    bar.suspend(|| super::output::error(format_args!("{e}")));
                    code = code.max(super::EXIT_USAGE);
                }
                Done::Record {
                    source,
                    record: mut r,
                    message,
                    columns,
                } => {
                    if a.no_timing {
                        r.micros = None;
                    }
                    if let Some(m) = message {
                        bar.suspend(|| super::output::error(format_args!("{m}")));
                    }
                    if r.error.is_some() || r.level == Some(Level::Unsolved) {
                        code = code.max(EXIT_PUZZLE);
                    }
                    summary.add(&r);
                    bar.inc(1);
                    written += 1;
                    header(out, &mut input_names, &columns).map_err(stop_on_error)?;
                    if !a.summary_only {
                        match a.format {
                            RecordFormat::Tsv => {
                                let mut line = tsv_line(&into_plain(*r))?;
                                let names = input_names.as_deref().unwrap_or_default();
                                if !names.is_empty() {
                                    line.pop();
                                    line.push(b'\t');
                                    line.extend(tsv_line(&columns.values(names))?);
                                }
                                out.write_all(&line)
                            }
                            RecordFormat::Jsonl => out.json_line(&RowRecord {
                                record: JsonRecord {
                                    schema: super::output::SCHEMA,
                                    source: &source,
                                    record: &r,
                                },
                                input: &columns,
                            }),
                            RecordFormat::Line => writeln!(out, "{}", rated_line(&r)),
                            RecordFormat::Depth => match r.depth {
                                Some(d) => writeln!(out, "{d}"),
                                None => writeln!(out, "-"),
                            },
                        }
                        .map_err(stop_on_error)?;
                    }
                }
            }
        }
        window.advance(next);
        if gap {
            pending.clear();
        }
    }
    bar.finish_and_clear();
    header(out, &mut input_names, &Columns::default()).map_err(stop_on_error)?;
    out.flush().map_err(stop_on_error)?;
    let text = summary.render((!a.no_timing).then(|| started.elapsed()));
    if INTERRUPTED.load(Ordering::SeqCst) {
        super::output::stderr_text(&text);
        super::output::error(format_args!(
            "interrupted after {written} records; resume with --skip {}",
            written + a.skip
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    if a.summary_only {
        write!(out, "{text}")?;
        out.flush()?;
    } else if a.summary {
        super::output::stderr_text(&text);
    }
    Ok(code)
}

/// `--format line`: the puzzle and its label as read, a tab, the level, a tab, the depth.
fn rated_line(r: &Record) -> String {
    let mut line = plain_text(&r.puzzle);
    if !r.label.is_empty() {
        line.push(' ');
        line.push_str(&plain_text(&r.label));
    }
    let level = match (r.level, &r.error) {
        (Some(l), _) => l.name().to_string(),
        (None, Some(_)) => "error".to_string(),
        (None, None) => "-".to_string(),
    };
    let depth = r.depth.map_or("-".to_string(), |d| d.to_string());
    format!("{line}\t{level}\t{depth}")
}

/// The number of lines of a file, read in blocks (0 if it cannot be read).
fn count_lines(path: &str) -> u64 {
    let Ok(f) = std::fs::File::open(path) else {
        return 0;
    };
    let mut r = std::io::BufReader::with_capacity(1 << 16, f);
    let mut n = 0u64;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) if !c.is_empty() => c,
            _ => return n,
        };
        n += chunk.iter().filter(|&&c| c == b'\n').count() as u64;
        let len = chunk.len();
        r.consume(len);
    }
}

#[cfg(test)]
mod tests {
    use super::super::output::{tsv_line, SCHEMA};
    use super::*;
    use hdp::engine::Limit;
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

    /// The keys of a JSON object, in order.
    fn keys(json: &str) -> Vec<String> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(keys)
            }
        }
        serde_json::Deserializer::from_str(json)
            .deserialize_map(Keys)
            .unwrap()
    }

    #[test]
    fn the_tsv_header_is_the_json_keys_after_schema_and_source() {
        let record = Record::empty(7, &ClassifyOptions::default());
        let header = String::from_utf8(tsv_header(&record).unwrap()).unwrap();
        let json = serde_json::to_string(&JsonRecord {
            schema: SCHEMA,
            source: "-",
            record: &record,
        })
        .unwrap();
        let keys = keys(&json);
        assert_eq!(keys[..2], ["schema", "source"]);
        let columns: Vec<&str> = header.strip_suffix('\n').unwrap().split('\t').collect();
        assert_eq!(columns, keys[2..]);
        assert_eq!(
            columns.join(" "),
            "line puzzle label solutions level depth_pairs constraint_levels pairs_tests depth \
             decisions profile schedule tests hypotheses facts limit micros error",
            "the documented columns (README)"
        );
    }

    #[test]
    fn a_tsv_record_is_one_line_that_a_csv_reader_reads_back() {
        let mut record = Record::empty(3, &ClassifyOptions::default());
        record.puzzle = "\"12\t3\n".into();
        record.label = "a\tb\r\nc\0d \"q\" \u{1b}[31m\u{85}".into();
        record.error = Some("line 3, column 1: unexpected character '\"'".into());
        record.level = Some(Level::Hard);
        record.limit = Some(Limit::Budget);
        let out = tsv_line(&into_plain(record)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches('\n').count(), 1, "{text:?}");
        assert!(!text.contains(['\0', '\r', '\u{1b}', '\u{85}']), "{text:?}");
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b'\t')
            .has_headers(false)
            .from_reader(text.as_bytes());
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(row.len(), 18);
        assert_eq!(&row[1], "\"12 3 ");
        assert_eq!(&row[2], "a b  c\\x00d \"q\" \\x1b[31m\\x85");
        assert_eq!(&row[4], "hard");
        assert_eq!(&row[15], "budget");
        assert_eq!(&row[17], "line 3, column 1: unexpected character '\"'");
    }
}
