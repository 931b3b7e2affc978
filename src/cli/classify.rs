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

use super::input::{Puzzles, ReadArgs, ReadError, WhenEmpty};
use super::{EngineArgs, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::classify::{classify, ClassifyOptions, Level};
use hdp::format::Puzzle;
use hdp::ParseError;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Exit code after SIGINT or SIGTERM (the records written so far are whole and in order).
pub const EXIT_INTERRUPTED: i32 = 130;

/// How many items the reader may hand out beyond the last record written, per worker.
const WINDOW: usize = 64;

const LEVELS_HELP: &str = "\
Levels (from the depth with cell-pair decisions only, the source author's pair reduction):
  trivial   naked and hidden singles alone solve it
  easy      the full propagation profile solves it (depth 0)
  medium    pair reduction solves it (depth 1)
  hard      deep pair reduction is needed (depth 2)
  deep      very deep pair reduction is needed (depth 3)
  unsolved  not solved within --max-depth, --budget or --timeout
The column `depth` is the depth with the configured decisions (default: cell and constraint
pairs); `depth_cell` the depth with cell pairs only. With --te, `depth` is the trial-and-error
depth of the literature (T&E(0..3)), `depth_cell` is empty and `level` maps T&E depth 0..3 to
trivial, medium, hard, deep.

Records are written as soon as they and every record before them are done. SIGINT (Ctrl-C) or
SIGTERM stop the run: the finished records are written whole and in order, the summary so far
goes to stderr; resume with --skip N, N being the number of records written (lines of the TSV
output less its header). A second Ctrl-C exits at once.

Exit codes: 0 success, 1 some line was bad or a puzzle had no unique solution, 2 usage or I/O
error (an unreadable input is reported in its place, the others are still classified), 130
interrupted by SIGINT or SIGTERM.";

/// Record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecordFormat {
    /// Tab-separated values with a header line.
    Tsv,
    /// One JSON object per line.
    Jsonl,
}

/// `hdp classify`.
#[derive(Args, Debug)]
#[command(after_help = LEVELS_HELP)]
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
    /// (overrides --decisions, --profile and --proof).
    #[arg(long)]
    pub te: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
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
    /// Print only the summary, to stdout.
    #[arg(long)]
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
    pub depth: Option<u8>,
    pub depth_cell: Option<u8>,
    pub level: Option<Level>,
    pub decisions: String,
    pub profile: String,
    pub tests: u64,
    pub hypotheses: u64,
    pub facts: u64,
    pub micros: u64,
    pub error: Option<String>,
}

const COLUMNS: [&str; 14] = [
    "line",
    "puzzle",
    "label",
    "solutions",
    "depth",
    "depth_cell",
    "level",
    "decisions",
    "profile",
    "tests",
    "hypotheses",
    "facts",
    "micros",
    "error",
];

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(|x| x.to_string()).unwrap_or_default()
}

/// A TSV field: tabs and line breaks become spaces, other control characters (NUL, ESC, DEL,
/// C1) are written as `\xNN` / `\u{NNNN}`, so that a record is one line of plain text.
fn tsv_field(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x100 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

impl Record {
    fn tsv(&self) -> String {
        [
            self.line.to_string(),
            tsv_field(&self.puzzle),
            tsv_field(&self.label),
            opt(&self.solutions),
            opt(&self.depth),
            opt(&self.depth_cell),
            opt(&self.level),
            self.decisions.clone(),
            self.profile.clone(),
            self.tests.to_string(),
            self.hypotheses.to_string(),
            self.facts.to_string(),
            self.micros.to_string(),
            tsv_field(self.error.as_deref().unwrap_or("")),
        ]
        .join("\t")
    }
}

/// One item handed to a worker.
enum Work {
    /// A puzzle to classify.
    Puzzle { line: usize, puzzle: Puzzle },
    /// A line that did not parse: its record is made without the engine.
    Bad {
        source: String,
        line: usize,
        raw: String,
        error: ParseError,
    },
}

/// What comes back, in the slot of its item.
enum Done {
    /// A record, with the stderr message of a bad line.
    Record(Record, Option<String>),
    /// An input that could not be read (reported in its place).
    InputError(String),
    /// Dropped after an interruption.
    Dropped,
}

fn empty_record(line: usize, options: &ClassifyOptions) -> Record {
    Record {
        line,
        puzzle: String::new(),
        label: String::new(),
        solutions: None,
        depth: None,
        depth_cell: None,
        level: None,
        decisions: options.engine.decisions.to_string(),
        profile: options.engine.profile.to_string(),
        tests: 0,
        hypotheses: 0,
        facts: 0,
        micros: 0,
        error: None,
    }
}

/// The record of one item, with the stderr message of a bad line.
fn finish(work: Work, options: &ClassifyOptions, timeout: Option<f64>) -> Done {
    let message = match &work {
        Work::Bad { source, error, .. } => Some(format!("{source}: {error}")),
        Work::Puzzle { .. } => None,
    };
    Done::Record(classify_one(work, options, timeout), message)
}

fn classify_one(work: Work, options: &ClassifyOptions, timeout: Option<f64>) -> Record {
    let (line, puzzle) = match work {
        Work::Bad {
            line, raw, error, ..
        } => {
            let mut record = empty_record(line, options);
            record.puzzle = raw;
            record.error = Some(error.to_string());
            return record;
        }
        Work::Puzzle { line, puzzle } => (line, puzzle),
    };
    let mut record = empty_record(line, options);
    let mut opts = *options;
    record.puzzle = puzzle.grid.to_line();
    record.label = puzzle.label.unwrap_or_default();
    let start = Instant::now();
    opts.engine.budget.deadline = timeout
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| start + Duration::from_secs_f64(t.min(1e9)));
    let c = classify(&puzzle.grid, &opts);
    record.micros = start.elapsed().as_micros() as u64;
    record.solutions = Some(c.solutions);
    record.depth = c.depth;
    record.depth_cell = c.depth_cell;
    record.level = c.level;
    record.tests = c.tests;
    record.hypotheses = c.hypotheses;
    record.facts = c.facts;
    match c.solutions {
        0 => record.error = Some("no solution".into()),
        2 => record.error = Some("multiple solutions".into()),
        _ => {}
    }
    record
}

#[derive(Default)]
struct Summary {
    levels: [usize; 6],
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

fn progress(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match total {
        Some(n) => {
            let bar = ProgressBar::new(n);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles  {per_sec}  eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {pos} puzzles  {per_sec}")
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

fn on_signal() {
    if STOP.swap(true, Ordering::SeqCst) && INTERRUPTED.load(Ordering::SeqCst) {
        std::process::exit(EXIT_INTERRUPTED);
    }
    INTERRUPTED.store(true, Ordering::SeqCst);
}

pub fn run(a: &ClassifyArgs) -> anyhow::Result<i32> {
    let mut options = if a.te {
        ClassifyOptions::trial_and_error()
    } else {
        ClassifyOptions::default()
    };
    let engine = a.engine.options();
    options.engine.max_depth = engine.max_depth;
    options.engine.budget.max_tests = engine.budget.max_tests;
    if !a.te {
        options.engine.decisions = engine.decisions;
        options.engine.profile = engine.profile;
        options.engine.proof = engine.proof;
        options.engine.walk = engine.walk;
    }
    let threads = match a.jobs {
        Some(0) | None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
    };
    let files: Vec<String> = if a.files.is_empty() {
        vec!["-".into()]
    } else {
        a.files.clone()
    };
    // A total for the progress bar when every input is a file (lines counted while streaming).
    let total = if std::io::stderr().is_terminal() && files.iter().all(|f| f != "-") {
        Some(files.iter().map(|f| count_lines(f)).sum())
    } else {
        None
    };
    let bar = progress(total);
    // Ignore the error of a second registration (only tests run `run` twice in one process).
    let _ = ctrlc::set_handler(on_signal);

    let window = Arc::new(Window {
        written: Mutex::new(0),
        moved: Condvar::new(),
    });
    let width = WINDOW * threads;
    let dispatched = Arc::new(AtomicUsize::new(0));
    let timeout = a.engine.timeout;
    let (work_tx, work_rx) = channel::<(usize, Work)>();
    let (done_tx, done_rx) = channel::<(usize, Done)>();
    {
        let (window, dispatched, done_tx) = (window.clone(), dispatched.clone(), done_tx.clone());
        let read = a.read.clone();
        let (shard, skip) = (a.shard, a.skip);
        std::thread::spawn(move || {
            let puzzles = Puzzles::new(files, &read, WhenEmpty::Nothing);
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
                    },
                    Ok(puzzle) => Work::Puzzle {
                        line: item.line,
                        puzzle,
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
                    Work::Bad { .. } => done_tx
                        .send((index, finish(work, &options, timeout)))
                        .is_ok(),
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
                finish(work, &options, timeout)
            };
            if done_tx.send((index, done)).is_err() {
                break;
            }
        });
    }
    drop(done_tx);
    write_records(a, &done_rx, &window, &dispatched, &bar)
}

/// The writer: reorders, writes, flushes, and ends the run (see the module docs).
fn write_records(
    a: &ClassifyArgs,
    done_rx: &Receiver<(usize, Done)>,
    window: &Window,
    dispatched: &AtomicUsize,
    bar: &ProgressBar,
) -> anyhow::Result<i32> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stop_on_error = |e: std::io::Error| {
        STOP.store(true, Ordering::SeqCst);
        e
    };
    if !a.summary_only && a.format == RecordFormat::Tsv {
        writeln!(out, "{}", COLUMNS.join("\t"))
            .and_then(|()| out.flush())
            .map_err(stop_on_error)?;
    }
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
                    bar.suspend(|| eprintln!("hdp: {e}"));
                    code = code.max(super::EXIT_USAGE);
                }
                Done::Record(r, message) => {
                    if let Some(m) = message {
                        bar.suspend(|| eprintln!("hdp: {m}"));
                    }
                    if r.error.is_some() {
                        code = code.max(EXIT_PUZZLE);
                    }
                    summary.add(&r);
                    bar.inc(1);
                    written += 1;
                    if !a.summary_only {
                        let line = match a.format {
                            RecordFormat::Tsv => r.tsv(),
                            RecordFormat::Jsonl => serde_json::to_string(&r)?,
                        };
                        writeln!(out, "{line}").map_err(stop_on_error)?;
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
    out.flush().map_err(stop_on_error)?;
    let text = summary.render(started.elapsed());
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprint!("{text}");
        eprintln!(
            "hdp: interrupted after {written} records; resume with --skip {}",
            written + a.skip
        );
        return Ok(EXIT_INTERRUPTED);
    }
    if a.summary_only {
        write!(out, "{text}")?;
        out.flush()?;
    } else if a.summary {
        eprint!("{text}");
    }
    Ok(code)
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
