//! `hdp._hdp`, the native half of the Python package `hdp`: a thin layer over the hdp library.
//!
//! It reads Python values into the library's types (settings through `hdp::settings`, the same
//! checks and messages as the CLI), runs the library without the GIL, and hands results back as
//! Python objects made from the library's serializable records (`pythonize`). It holds no analysis
//! logic of its own; the Python half (`python/hdp/__init__.py`) adds result classes, pandas and
//! the notebook pictures.

use hdp::canon::{canonical_of_grid, SymmetryRecord};
use hdp::classify::{ClassifyOptions, Level, Record};
use hdp::engine::{Analysis, Options, Recording, Status};
use hdp::format::{apply_context, parse_context, parse_puzzles, InputFormat, Puzzle};
use hdp::generate::run::{
    found_text, proof_lines, run, End, Event, GeneratedRecord, Limits, SHIPPED_SEEDS,
};
use hdp::generate::{Minimality, Pattern, Settings, Target};
use hdp::hint::{HintError, Reveal};
use hdp::records::{Propagation, SolveRecord};
use hdp::render::grid::{grid_svg, GridStyle};
use hdp::render::tree::{tree_svg, TreeStyle};
use hdp::settings::{self, EngineSettings};
use hdp::solver::{solve_within, SolveLimits};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyString};
use pythonize::pythonize;
use serde::Serialize;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most worker threads of a batch, as `hdp classify --jobs` allows.
const MAX_JOBS: usize = 1024;

/// The message of an input without a puzzle, as the command writes it.
const NO_PUZZLE: &str =
    "no puzzle found (the input is empty or holds only blank and comment lines)";

/// How often a batch waiting for its workers looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// How many items a batch reads ahead per worker: bounds memory whatever the input's length.
const CHUNK_PER_JOB: usize = 64;

fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

fn to_python<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    pythonize(py, value)
        .map(Bound::unbind)
        .map_err(|e| value_error(e.to_string()))
}

/// The engine settings of a keyword-argument dict (`None` values mean "the default").
fn engine_settings(engine: Option<&Bound<'_, PyDict>>) -> PyResult<EngineSettings> {
    let mut s = EngineSettings::default();
    let Some(engine) = engine else {
        return Ok(s);
    };
    for (key, value) in engine.iter() {
        let key: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        let named = |e: String| value_error(format!("{key}: {e}"));
        match key.as_str() {
            "max_depth" => {
                s.max_depth = Some(settings::max_depth(value.extract()?).map_err(named)?)
            }
            "decisions" => {
                s.decisions = settings::decisions(&value.extract::<String>()?).map_err(named)?
            }
            "schedule" => {
                s.schedule = settings::schedule(&value.extract::<String>()?).map_err(named)?
            }
            "profile" => {
                s.profile = settings::profile(&value.extract::<String>()?).map_err(named)?
            }
            "proof" => s.proof = settings::proof(&value.extract::<String>()?).map_err(named)?,
            "walk" => s.walk = settings::walk(&value.extract::<String>()?).map_err(named)?,
            "budget" => {
                let n: i64 = value.extract()?;
                s.budget = Some(settings::budget(&n.to_string()).map_err(named)?);
            }
            "timeout" => {
                let t: f64 = value.extract()?;
                s.timeout = Some(settings::timeout(&t.to_string()).map_err(named)?);
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword argument {key:?}"
                )))
            }
        }
    }
    Ok(s)
}

/// The settings trial and error fixes, refused when typed with `te=True` (as `--te` does).
const FIXED_BY_TE: [&str; 4] = ["decisions", "profile", "proof", "walk"];

fn classify_settings(te: bool, engine: Option<&Bound<'_, PyDict>>) -> PyResult<ClassifyOptions> {
    if let (true, Some(engine)) = (te, engine) {
        for key in FIXED_BY_TE {
            if engine.get_item(key)?.is_some_and(|v| !v.is_none()) {
                return Err(value_error(format!(
                    "{key} cannot be used with te=True (trial and error fixes decisions, \
                     profile, proof and walk)"
                )));
            }
        }
    }
    Ok(engine_settings(engine)?.classify_options(te))
}

/// One puzzle from any format the library reads (a line, a 9-line grid, a pencil-mark grid...).
fn one_puzzle(text: &str) -> PyResult<Puzzle> {
    let mut all = parse_puzzles(text, InputFormat::Auto).into_iter();
    match (all.next(), all.next()) {
        (None, _) => Err(value_error("no puzzle found")),
        (Some(Err(e)), _) => Err(value_error(e.to_string())),
        (Some(Ok(_)), Some(_)) => Err(value_error(
            "several puzzles found; pass one puzzle (use classify for a collection)",
        )),
        (Some(Ok(p)), None) => Ok(p),
    }
}

/// An item of a batch: a text line, or something that is not text (a missing value of a frame).
enum Item {
    Text(usize, String),
    NotText(usize, String),
}

impl Item {
    fn line(&self) -> usize {
        match self {
            Item::Text(line, _) | Item::NotText(line, _) => *line,
        }
    }
}

/// The record of one batch item, as `hdp classify` makes it.
fn record_of(item: &Item, options: &ClassifyOptions, timeout: Option<f64>, timing: bool) -> Record {
    match item {
        Item::NotText(line, type_name) => {
            let mut r = Record::empty(*line, options);
            r.error = Some(format!(
                "line {line}: expected a puzzle string, found {type_name}"
            ));
            r
        }
        Item::Text(line, text) => match hdp::format::parse_line(text, *line) {
            Err(e) => Record::bad(*line, text.chars().take(81).collect(), &e, options),
            Ok(puzzle) => {
                let start = Instant::now();
                let mut o = *options;
                o.engine.budget.deadline = settings::deadline_after(start, timeout);
                let mut r = Record::of(*line, &puzzle, &o);
                if timing {
                    r.micros = Some(start.elapsed().as_micros() as u64);
                }
                r
            }
        },
    }
}

/// Worker threads that live as long as one batch, so that their per-thread caches (propagation's
/// table of units without a subset, the engine's spare buffers) stay warm from chunk to chunk.
struct Pool {
    work: Sender<(usize, Item)>,
    done: Mutex<Receiver<(usize, Option<Record>)>>,
    stop: Arc<AtomicBool>,
}

impl Pool {
    fn new(
        jobs: usize,
        options: ClassifyOptions,
        timeout: Option<f64>,
        timing: bool,
    ) -> PyResult<Pool> {
        let (work, work_rx) = channel::<(usize, Item)>();
        let (done_tx, done) = channel();
        let work_rx = Arc::new(Mutex::new(work_rx));
        let stop = Arc::new(AtomicBool::new(false));
        for _ in 0..jobs {
            let (work_rx, done_tx, stop) = (work_rx.clone(), done_tx.clone(), stop.clone());
            std::thread::Builder::new()
                .spawn(move || loop {
                    let next = work_rx.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((i, item)) = next else { break };
                    // After Ctrl-C the queued items are answered without work.
                    let record = (!stop.load(Ordering::SeqCst)).then(|| {
                        // A panic is one error record, not a batch that waits forever.
                        catch_unwind(AssertUnwindSafe(|| {
                            record_of(&item, &options, timeout, timing)
                        }))
                        .unwrap_or_else(|_| {
                            let mut r = Record::empty(item.line(), &options);
                            r.error = Some("internal error: the analysis failed".into());
                            r
                        })
                    });
                    if done_tx.send((i, record)).is_err() {
                        break;
                    }
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker: {e}")))?;
        }
        Ok(Pool {
            work,
            done: Mutex::new(done),
            stop,
        })
    }

    /// Classifies `items` without the GIL; the records come back in input order. Ctrl-C stops
    /// the chunk: the puzzles being classified finish, nothing is returned, and the
    /// `KeyboardInterrupt` is raised.
    fn run(&self, py: Python<'_>, items: Vec<Item>) -> PyResult<Vec<Record>> {
        let n = items.len();
        let results: PyResult<Vec<Option<Record>>> = py.detach(|| {
            let done = self
                .done
                .lock()
                .map_err(|_| PyRuntimeError::new_err("a worker of this batch failed"))?;
            for (i, item) in items.into_iter().enumerate() {
                if self.work.send((i, item)).is_err() {
                    return Err(PyRuntimeError::new_err("the workers of this batch ended"));
                }
            }
            let mut results: Vec<Option<Record>> = Vec::new();
            results.resize_with(n, || None);
            let (mut received, mut signal) = (0, Ok(()));
            while received < n {
                match done.recv_timeout(SIGNAL_POLL) {
                    Ok((i, r)) => {
                        results[i] = r;
                        received += 1;
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            // The batch ends here: the puzzles under way finish on their own
                            // and their records are dropped with the pool.
                            self.stop.store(true, Ordering::SeqCst);
                            signal = Err(e);
                            break;
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(PyRuntimeError::new_err("the workers of this batch ended"))
                    }
                }
            }
            signal.map(|()| results)
        });
        Ok(results?.into_iter().flatten().collect())
    }
}

fn jobs_or_cores(jobs: Option<usize>) -> PyResult<usize> {
    match jobs {
        Some(n @ 1..=MAX_JOBS) => Ok(n),
        Some(n) => Err(value_error(format!(
            "jobs: must be between 1 and {MAX_JOBS}, got {n}"
        ))),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The records of an iterable of puzzle lines, classified in parallel a chunk at a time and
/// yielded in input order (`hdp.classify_iter`).
#[pyclass(module = "hdp._hdp")]
struct ClassifyIter {
    source: Py<PyIterator>,
    pool: Pool,
    jobs: usize,
    line: usize,
    ready: VecDeque<Record>,
    exhausted: bool,
    /// Whether a record was yielded (an input without any gets `no_puzzle`).
    yielded: bool,
    no_puzzle: Record,
    /// An error of the source, raised once the records read before it are yielded.
    failed: Option<PyErr>,
}

#[pymethods]
impl ClassifyIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            if let Some(r) = self.ready.pop_front() {
                self.yielded = true;
                return to_python(py, &r).map(Some);
            }
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            if self.exhausted {
                if !self.yielded {
                    // An input with no puzzle is one error record, as `hdp classify` writes it.
                    self.yielded = true;
                    return to_python(py, &self.no_puzzle).map(Some);
                }
                return Ok(None);
            }
            let mut items = Vec::new();
            let mut source = self.source.bind(py).clone();
            while items.len() < CHUNK_PER_JOB * self.jobs {
                let Some(item) = source.next() else {
                    self.exhausted = true;
                    break;
                };
                let item = match item {
                    Ok(item) => item,
                    Err(e) => {
                        // The source failed: what was read before it is still classified and
                        // yielded; the error is raised after it, and the batch ends.
                        self.failed = Some(e);
                        self.exhausted = true;
                        break;
                    }
                };
                self.line += 1;
                let line = self.line;
                match item.cast::<PyString>() {
                    Ok(s) => {
                        let text = s.to_string_lossy().into_owned();
                        // As a file's line: without a byte-order mark or its line ending.
                        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
                        let text = text.trim_end_matches(['\r', '\n']).to_string();
                        let t = text.trim_start();
                        // Blank lines and comments have no record, as in a file.
                        if !(t.is_empty() || t.starts_with('#')) {
                            items.push(Item::Text(line, text));
                        }
                    }
                    Err(_) => {
                        let name = item.get_type().name()?.to_string();
                        items.push(Item::NotText(line, name));
                    }
                }
            }
            match self.pool.run(py, items) {
                Ok(records) => self.ready.extend(records),
                Err(e) => {
                    // An interrupted batch ends: its chunk is lost, nothing half-made is kept.
                    (self.exhausted, self.yielded) = (true, true);
                    return Err(e);
                }
            }
        }
    }
}

/// `hdp.classify_iter(puzzles, ...)`: the records of an iterable of puzzle lines, streamed.
#[pyfunction]
#[pyo3(signature = (puzzles, *, jobs=None, te=false, timing=true, engine=None))]
fn classify_iter(
    puzzles: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    te: bool,
    timing: bool,
    engine: Option<&Bound<'_, PyDict>>,
) -> PyResult<ClassifyIter> {
    if puzzles.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "puzzles must be an iterable of puzzle strings, not one string (wrap it in a list)",
        ));
    }
    let timeout = engine_settings(engine)?.timeout;
    let options = classify_settings(te, engine)?;
    let jobs = jobs_or_cores(jobs)?;
    Ok(ClassifyIter {
        source: puzzles.try_iter()?.unbind(),
        pool: Pool::new(jobs, options, timeout, timing)?,
        jobs,
        line: 0,
        ready: VecDeque::new(),
        exhausted: false,
        yielded: false,
        no_puzzle: {
            let mut r = Record::empty(1, &options);
            r.error = Some(format!("line 1, column 1: {NO_PUZZLE}"));
            r
        },
        failed: None,
    })
}

/// The position a chain or picture starts from: the puzzle with a `given` context applied.
fn with_context(puzzle: &Puzzle, given: Option<&str>) -> PyResult<Vec<hdp::Statement>> {
    let context = match given {
        Some(t) => parse_context(t)
            .map_err(|e| value_error(format!("given: column {}: {}", e.column, e.kind)))?,
        None => Vec::new(),
    };
    apply_context(&puzzle.grid, &context).map_err(|e| value_error(format!("given: {e}")))?;
    Ok(context)
}

/// `hdp.chain`: the analysis record (as `hdp chain --format json` writes it), the chain's text
/// (as `hdp chain` prints it), and the decision tree's SVG when asked for.
#[pyfunction]
#[pyo3(signature = (puzzle, *, given=None, steps=false, tree=false, engine=None))]
fn chain(
    py: Python<'_>,
    puzzle: &str,
    given: Option<&str>,
    steps: bool,
    tree: bool,
    engine: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Py<PyAny>, String, Option<String>)> {
    let p = one_puzzle(puzzle)?;
    let context = with_context(&p, given)?;
    let s = engine_settings(engine)?;
    let recording = if tree {
        Recording::ChainAndTree
    } else {
        Recording::Chain
    };
    let (analysis, text, svg) = py.detach(|| {
        let options = Options {
            recording,
            ..s.options(
                hdp::engine::DEFAULT_MAX_DEPTH,
                settings::deadline_after(Instant::now(), s.timeout),
            )
        };
        let analysis = Analysis::run_from(&p.grid, &context, &options);
        let chain = if steps {
            analysis.steps()
        } else {
            analysis.summary()
        };
        let depth = analysis.depth.map_or("-".to_string(), |d| d.to_string());
        // As `hdp chain`: no chain for a puzzle without exactly one solution.
        let text = match analysis.status {
            Status::NoSolution | Status::MultipleSolutions => String::new(),
            _ => format!(
                "{chain}# {}, depth {depth}, {} tests, {} hypotheses\n",
                analysis.status, analysis.counters.tests, analysis.counters.hypotheses
            ),
        };
        let svg = analysis
            .tree
            .as_ref()
            .map(|t| tree_svg(t, &TreeStyle::default()));
        (analysis.record(), text, svg)
    });
    Ok((to_python(py, &analysis)?, text, svg))
}

/// The record of `hdp.minimal`: the minimal proof's lines, or why there is none.
#[derive(Serialize)]
struct MinimalRecord {
    puzzle: String,
    status: String,
    lines: Vec<String>,
    error: Option<String>,
}

/// `hdp.minimal`: the shortest proof the library finds (as `hdp chain --minimal`), and its text.
#[pyfunction]
#[pyo3(signature = (puzzle, *, engine=None))]
fn minimal(
    py: Python<'_>,
    puzzle: &str,
    engine: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Py<PyAny>, String)> {
    let p = one_puzzle(puzzle)?;
    let s = engine_settings(engine)?;
    let record = py.detach(|| {
        let options = s.options(
            hdp::engine::DEFAULT_MAX_DEPTH,
            settings::deadline_after(Instant::now(), s.timeout),
        );
        let analysis = Analysis::run(&p.grid, &options);
        let (lines, error) = match hdp::minimal::minimal(&analysis) {
            Ok(m) => (m.proof_lines().map(|l| l.to_string()).collect(), None),
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        MinimalRecord {
            puzzle: p.grid.to_line(),
            status: analysis.status.to_string(),
            lines,
            error,
        }
    });
    let text: String = record.lines.iter().map(|l| format!("{l}\n")).collect();
    Ok((to_python(py, &record)?, text))
}

/// `hdp.solve`: how many solutions (0, 1, 2 for several) and the solution when unique, as
/// `hdp solve --format json` writes it (after `schema`, `source`, `line`).
#[pyfunction]
#[pyo3(signature = (puzzle, *, timeout=None))]
fn solve(py: Python<'_>, puzzle: &str, timeout: Option<f64>) -> PyResult<Py<PyAny>> {
    let p = one_puzzle(puzzle)?;
    let timeout = timeout
        .map(|t| settings::timeout(&t.to_string()))
        .transpose()
        .map_err(|e| value_error(format!("timeout: {e}")))?;
    let result = py.detach(|| {
        solve_within(
            &p.grid,
            SolveLimits::until(settings::deadline_after(Instant::now(), timeout)),
        )
    });
    to_python(py, &SolveRecord::new(&p.grid, &result))
}

/// `hdp.propagate`: the position propagation reaches, its record (as `hdp propagate --format
/// json` writes it), and its picture.
#[pyfunction]
#[pyo3(signature = (puzzle, *, profile=None))]
fn propagate(py: Python<'_>, puzzle: &str, profile: Option<&str>) -> PyResult<(Py<PyAny>, String)> {
    let p = one_puzzle(puzzle)?;
    let profile = match profile {
        Some(t) => settings::profile(t).map_err(|e| value_error(format!("profile: {e}")))?,
        None => hdp::propagate::Profile::DEFAULT,
    };
    let run = Propagation::run(&p.grid, &profile);
    let svg = grid_svg(
        &run.grid,
        &GridStyle {
            givens: Some(p.grid),
            ..GridStyle::default()
        },
    );
    Ok((to_python(py, &run.record())?, svg))
}

/// `hdp.hint`: the next step from a position (as `hdp hint`): its JSON record and its text.
/// Without a `proof` setting only contradictions prove (a hint deduces), as in the command.
#[pyfunction]
#[pyo3(signature = (puzzle, *, given=None, reveal="moves", engine=None))]
fn hint(
    py: Python<'_>,
    puzzle: &str,
    given: Option<&str>,
    reveal: &str,
    engine: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Py<PyAny>, String)> {
    let p = one_puzzle(puzzle)?;
    let context = with_context(&p, given)?;
    let reveal: Reveal = reveal
        .parse()
        .map_err(|e: String| value_error(format!("reveal: {e}")))?;
    let mut s = engine_settings(engine)?;
    let proof_given = match engine {
        Some(e) => e.get_item("proof")?.is_some_and(|v| !v.is_none()),
        None => false,
    };
    if !proof_given {
        s.proof = hdp::engine::Proof::Contradiction;
    }
    let result = py.detach(|| {
        let options = Options {
            recording: Recording::Chain,
            ..s.options(
                hdp::engine::DEFAULT_MAX_DEPTH,
                settings::deadline_after(Instant::now(), s.timeout),
            )
        };
        hdp::hint::hint(&p.grid, &context, &options, reveal)
    });
    match result {
        Ok(h) => Ok((to_python(py, &h.record())?, h.text())),
        Err(HintError::Context(e)) => Err(value_error(format!("given: {e}"))),
        Err(e) => Err(value_error(format!("line {}: {e}", p.line))),
    }
}

/// What the thread of a generation run sends: a puzzle's record and text, or the end.
enum Generated {
    Puzzle(Box<GeneratedRecord>, String),
    End(End),
}

/// The puzzles of `hdp.generate`, yielded as they are found (in the same order for the same
/// settings, whatever `jobs`). Dropping it, or Ctrl-C while it waits, stops the run.
#[pyclass(module = "hdp._hdp")]
struct GenerateIter {
    found: Mutex<Receiver<Generated>>,
    stop: Arc<AtomicBool>,
    /// Why the run ended short of its count (`None` while running or when complete).
    #[pyo3(get)]
    shortfall: Option<String>,
    finished: bool,
}

impl Drop for GenerateIter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

#[pymethods]
impl GenerateIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next puzzle as `(record, text)`: the record of `hdp generate --format jsonl` without
    /// `schema` and `source`, and the line `hdp generate` prints.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<(Py<PyAny>, String)>> {
        if self.finished {
            return Ok(None);
        }
        let next = py.detach(|| {
            let found = self
                .found
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the generation run failed"))?;
            loop {
                match found.recv_timeout(SIGNAL_POLL) {
                    Ok(g) => return Ok(Some(g)),
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            self.stop.store(true, Ordering::SeqCst);
                            return Err(e);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(None),
                }
            }
        });
        match next {
            Ok(Some(Generated::Puzzle(record, text))) => Ok(Some((to_python(py, &*record)?, text))),
            Ok(Some(Generated::End(end))) => {
                self.finished = true;
                self.shortfall = end.shortfall().map(String::from);
                Ok(None)
            }
            Ok(None) => {
                self.finished = true;
                Err(PyRuntimeError::new_err(
                    "the generation run ended without a result",
                ))
            }
            Err(e) => {
                self.finished = true;
                Err(e)
            }
        }
    }
}

/// `hdp.generate`: puzzles at a level, as `hdp generate` finds them (same seed and settings,
/// same puzzles), run on `jobs` threads without the GIL.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (*, level=None, depth=None, te=None, count=1, minimal=false, symmetry="none",
    givens=None, seed=0, jobs=None, timeout=None, budget=None, seeds=None, steps=None, proof=false))]
fn generate(
    level: Option<&str>,
    depth: Option<i64>,
    te: Option<i64>,
    count: i64,
    minimal: bool,
    symmetry: &str,
    givens: Option<(i64, i64)>,
    seed: u64,
    jobs: Option<usize>,
    timeout: Option<f64>,
    budget: Option<i64>,
    seeds: Option<Vec<String>>,
    steps: Option<i64>,
    proof: bool,
) -> PyResult<GenerateIter> {
    let target = match (level, depth, te) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => {
            return Err(value_error(
                "level, depth and te exclude one another: give one of them",
            ))
        }
        (_, Some(d), _) => match u8::try_from(d) {
            Ok(d @ 0..=4) => Target::Depth(d),
            _ => {
                return Err(value_error(format!(
                    "depth: must be between 0 and 4, got {d}"
                )))
            }
        },
        (_, _, Some(d)) => match u8::try_from(d) {
            Ok(d @ 0..=3) => Target::TrialAndError(d),
            _ => return Err(value_error(format!("te: must be between 0 and 3, got {d}"))),
        },
        (Some(l), _, _) => match l.parse::<Level>() {
            Ok(Level::Unsolved) | Err(_) => {
                return Err(value_error(format!(
                    "level: unknown level {l:?} (expected trivial, easy, medium, hard, deep or \
                     extreme)"
                )))
            }
            Ok(l) => Target::Level(l),
        },
        (None, None, None) => Target::Level(Level::Medium),
    };
    let count = u64::try_from(count)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| value_error(format!("count: must be at least 1, got {count}")))?;
    let budget = budget
        .map(|b| {
            u64::try_from(b)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| value_error(format!("budget: must be at least 1, got {b}")))
        })
        .transpose()?;
    let timeout = timeout
        .map(|t| settings::timeout(&t.to_string()))
        .transpose()
        .map_err(|e| value_error(format!("timeout: {e}")))?;
    let pattern: Pattern = symmetry
        .parse()
        .map_err(|e: String| value_error(format!("symmetry: {e}")))?;
    let givens = match givens {
        None => 17..=81,
        Some((lo, hi)) if 0 <= lo && lo <= hi && hi <= 81 => lo as usize..=hi as usize,
        Some((lo, hi)) => {
            return Err(value_error(format!(
                "givens: need 0 <= MIN <= MAX <= 81, got ({lo}, {hi})"
            )))
        }
    };
    let steps = match steps {
        None => hdp::generate::DEFAULT_STEPS,
        Some(n @ 1..=100_000) => n as usize,
        Some(n) => {
            return Err(value_error(format!(
                "steps: must be between 1 and 100000, got {n}"
            )))
        }
    };
    let seed_text = match seeds {
        Some(lines) => lines.join("\n"),
        None => SHIPPED_SEEDS.to_string(),
    };
    let mut seed_grids = Vec::new();
    for p in parse_puzzles(&seed_text, InputFormat::Auto) {
        seed_grids.push(p.map_err(|e| value_error(format!("seeds: {e}")))?.grid);
    }
    let settings = Arc::new(Settings {
        target,
        pattern,
        minimality: if minimal {
            Minimality::Minimal
        } else {
            Minimality::Any
        },
        givens,
        seed,
        seeds: seed_grids,
        steps,
    });
    let limits = Limits {
        count,
        budget,
        deadline: settings::deadline_after(Instant::now(), timeout),
        jobs: jobs_or_cores(jobs)?,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let run_stop = stop.clone();
    std::thread::Builder::new()
        .spawn(move || {
            let (end, _) = run(&settings, &limits, &run_stop, |event| {
                let Event::Found { number, found } = event else {
                    return ControlFlow::Continue(());
                };
                let proof = proof.then(|| proof_lines(&found.puzzle, limits.deadline));
                let text = found_text(found, target, proof.as_ref());
                let record = GeneratedRecord::new(number, found, target, proof);
                match tx.send(Generated::Puzzle(Box::new(record), text)) {
                    Ok(()) => ControlFlow::Continue(()),
                    // The iterator is gone: nobody wants more.
                    Err(_) => ControlFlow::Break(()),
                }
            });
            let _ = tx.send(Generated::End(end));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the run: {e}")))?;
    Ok(GenerateIter {
        found: Mutex::new(rx),
        stop,
        shortfall: None,
        finished: false,
    })
}

/// `hdp.Puzzle`'s fields: the puzzle read from any format, its 81-character line, its label and
/// the picture of its grid.
#[pyfunction]
fn read_puzzle(puzzle: &str) -> PyResult<(String, Option<String>, String)> {
    let p = one_puzzle(puzzle)?;
    let svg = grid_svg(
        &p.grid,
        &GridStyle {
            givens: Some(p.grid),
            title: p.label.clone(),
            ..GridStyle::default()
        },
    );
    Ok((p.grid.to_line(), p.label, svg))
}

/// The record of `hdp.canon`, as `hdp canon --format jsonl` writes it.
#[derive(Serialize)]
struct CanonRecord {
    puzzle: String,
    label: String,
    canonical: String,
    symmetry: SymmetryRecord,
}

/// `hdp.canon`: the canonical (minlex) form of one puzzle and the symmetry that maps it there.
#[pyfunction]
fn canon(py: Python<'_>, puzzle: &str) -> PyResult<Py<PyAny>> {
    let p = one_puzzle(puzzle)?;
    let c = canonical_of_grid(&p.grid).map_err(|e| value_error(format!("line {}: {e}", p.line)))?;
    let record = CanonRecord {
        puzzle: p.grid.to_line(),
        label: p.label.clone().unwrap_or_default(),
        canonical: c.to_line(),
        symmetry: SymmetryRecord::from(&c.symmetry),
    };
    to_python(py, &record)
}

/// The native module.
#[pymodule]
fn _hdp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<ClassifyIter>()?;
    m.add_function(wrap_pyfunction!(classify_iter, m)?)?;
    m.add_function(wrap_pyfunction!(chain, m)?)?;
    m.add_function(wrap_pyfunction!(minimal, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(propagate, m)?)?;
    m.add_function(wrap_pyfunction!(read_puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_class::<GenerateIter>()?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}
