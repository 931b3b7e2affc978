//! `hdp canon`: the canonical (minlex) form of each puzzle (§11), one per line in input order.
//!
//! A reader thread streams the puzzles into a bounded channel; the main thread takes whatever
//! has arrived (at least one item, at most [`BATCH`]), splits a large batch across worker
//! threads, writes the results in order and flushes, so that a puzzle typed on standard input
//! gets its form at once and a large file uses every core.

use super::input::{Puzzles, Read1, ReadArgs, ReadError};
use super::output::error;
use super::{Output, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, ValueEnum};
use hdp::canon::{canonical_of_grid, Canonical, SymmetryRecord};
use serde::Serialize;
use std::collections::HashSet;
use std::io::Write;
use std::sync::mpsc::{sync_channel, Receiver, TryRecvError};

/// The most items taken from the reader at once.
const BATCH: usize = 4096;
/// Below this many items a batch is done on the main thread.
const PARALLEL_FROM: usize = 256;

/// `canon --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CanonFormat {
    /// The form alone: 81 characters, `0` for an empty cell.
    Line,
    /// JSON Lines: the puzzle, its form and the symmetry that maps one to the other (alias: json).
    #[value(alias = "json")]
    Jsonl,
}

const CANON_HELP: &str = "\
The canonical form is the smallest of the puzzle's isomorphs (transposition, band, row, stack
and column permutations, digit renaming) written as 81 digits with 0 for an empty cell: two
puzzles are the same puzzle exactly when their forms are equal.

JSON Lines records: schema, line, source, puzzle (as read), label, canonical, and symmetry:
{\"transposed\": bool, \"rows\": \"213456789\", \"columns\": \"BACDEFGHI\", \"digits\": \"123456789\"}:
row r of the form is input row rows[r] (after the transposition when transposed), column c is
input column columns[c], and input digit d is written digits[d]. A line that is not a puzzle of
givens (it did not parse, repeats a digit in a unit, or is a pencil-mark position) gives a
record with `error` (an `error` line in the line format, unless --unique) and exit code 1.";

/// `hdp canon`.
#[derive(Args, Debug)]
#[command(after_help = CANON_HELP)]
pub struct CanonArgs {
    /// Files (one puzzle per line, TSV/CSV with a puzzle column, grids), 81-character puzzles,
    /// or - for standard input (default: standard input).
    pub files: Vec<String>,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CanonFormat::Line)]
    pub format: CanonFormat,
    /// Keep only the first puzzle of each class (the first with a given form).
    #[arg(long)]
    pub unique: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, short = 'j', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
}

/// A `canon --format jsonl` record (after `schema`, `line`, `source`).
#[derive(Serialize)]
struct CanonRecord<'a> {
    puzzle: String,
    label: &'a str,
    canonical: String,
    symmetry: SymmetryRecord,
}

/// One item's result: the puzzle read, or the message for its line.
type Outcome = (Read1, Result<Canonical, String>);

fn compute(item: Read1) -> Outcome {
    let result = match &item.puzzle {
        Ok(p) => canonical_of_grid(&p.grid).map_err(|e| format!("line {}: {e}", p.line)),
        Err(ReadError::Parse(e)) => Err(e.to_string()),
        Err(ReadError::Input(e)) => Err(e.clone()),
    };
    (item, result)
}

/// The results of a batch, in order, over `threads` threads.
fn compute_all(batch: Vec<Read1>, threads: usize) -> Vec<Outcome> {
    if threads <= 1 || batch.len() < PARALLEL_FROM {
        return batch.into_iter().map(compute).collect();
    }
    let size = batch.len().div_ceil(threads);
    let mut chunks: Vec<Vec<Read1>> = Vec::new();
    let mut items = batch.into_iter();
    loop {
        let chunk: Vec<Read1> = items.by_ref().take(size).collect();
        if chunk.is_empty() {
            break;
        }
        chunks.push(chunk);
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| s.spawn(move || chunk.into_iter().map(compute).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The next batch: blocks for one item, then takes what has already arrived.
fn next_batch(rx: &Receiver<Read1>) -> Option<Vec<Read1>> {
    let first = rx.recv().ok()?;
    let mut batch = vec![first];
    while batch.len() < BATCH {
        match rx.try_recv() {
            Ok(item) => batch.push(item),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
        }
    }
    Some(batch)
}

pub fn run(a: &CanonArgs, out: &mut Output) -> anyhow::Result<i32> {
    let threads = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let files: Vec<String> = if a.files.is_empty() {
        vec!["-".into()]
    } else {
        a.files.clone()
    };
    let (tx, rx) = sync_channel::<Read1>(BATCH);
    let read = a.read.clone();
    let reader = std::thread::spawn(move || {
        let mut puzzles = Puzzles::new(files, &read);
        for item in &mut puzzles {
            if tx.send(item).is_err() {
                break;
            }
        }
        puzzles.exit_code(EXIT_OK)
    });
    let mut code = EXIT_OK;
    let mut seen: HashSet<[u8; 81]> = HashSet::new();
    while let Some(batch) = next_batch(&rx) {
        for (item, result) in compute_all(batch, threads) {
            let c = match result {
                Ok(c) => c,
                Err(e) => {
                    let source = &item.source;
                    match &item.puzzle {
                        Err(ReadError::Input(_)) => error(format_args!("{e}")),
                        _ => error(format_args!("{source}: {e}")),
                    }
                    code = EXIT_PUZZLE;
                    match a.format {
                        CanonFormat::Jsonl => out.error_record(source, item.line, &e)?,
                        CanonFormat::Line if !a.unique => writeln!(out, "error")?,
                        CanonFormat::Line => {}
                    }
                    continue;
                }
            };
            if a.unique && !seen.insert(c.form) {
                continue;
            }
            match a.format {
                CanonFormat::Line => writeln!(out, "{}", c.to_line())?,
                CanonFormat::Jsonl => {
                    let (puzzle, label) = match &item.puzzle {
                        Ok(p) => (p.grid.to_line(), p.label.as_deref().unwrap_or("")),
                        Err(_) => (String::new(), ""),
                    };
                    out.record(
                        &item.source,
                        item.line,
                        &CanonRecord {
                            puzzle,
                            label,
                            canonical: c.to_line(),
                            symmetry: SymmetryRecord::from(&c.symmetry),
                        },
                    )?
                }
            }
        }
        out.flush()?;
    }
    let read_code = reader.join().unwrap_or(super::EXIT_USAGE);
    Ok(code.max(read_code))
}
