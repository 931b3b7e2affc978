//! The one way results reach standard output, and diagnostics standard error.
//!
//! Every command writes its results through one [`Output`]: a buffered, locked stdout whose
//! errors are marked as output errors. `cli::run` flushes it at the end and maps any error once
//! ([`failure`]): a closed pipe (`hdp chain FILE | head -1`) ends quietly with
//! [`EXIT_BROKEN_PIPE`](super::EXIT_BROKEN_PIPE), any other write error (a full disk) is one message
//! and [`EXIT_USAGE`](super::EXIT_USAGE). Nothing here panics: diagnostics that cannot be written
//! to stderr are dropped.

use super::{EXIT_BROKEN_PIPE, EXIT_USAGE};
use serde::Serialize;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The version of the JSON Lines records of `chain`, `solve` and `propagate` (the `schema` field):
/// raised when a field changes meaning or goes away, not when one is added.
pub const SCHEMA: u32 = 1;

/// One JSON Lines record: where the puzzle came from, then the command's fields.
#[derive(Serialize)]
struct JsonRecord<'a, T: Serialize> {
    schema: u32,
    /// The 1-based line of the puzzle within its source.
    line: usize,
    /// `-`, a file name, or `argument N`.
    source: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// The fields of a record for input that could not be used.
#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

/// Buffered, locked standard output; every error it returns is an [`OutputError`].
pub struct Output {
    inner: BufWriter<StdoutLock<'static>>,
}

/// A failure to write results: carried inside the `io::Error` an [`Output`] returns, so that it
/// is recognised at the top however it travelled (`?`, `anyhow`, serde_json).
#[derive(Debug)]
pub struct OutputError(io::Error);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // "No space left on device", without the "(os error 28)" suffix.
        let text = self.0.to_string();
        let text = text.split(" (os error").next().unwrap_or(&text);
        write!(f, "cannot write output: {text}")
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

fn mark(e: io::Error) -> io::Error {
    if as_output_error(&e).is_some() {
        return e;
    }
    io::Error::new(e.kind(), OutputError(e))
}

fn as_output_error(e: &io::Error) -> Option<&OutputError> {
    e.get_ref().and_then(|i| i.downcast_ref::<OutputError>())
}

impl Output {
    /// Standard output, locked for the whole run.
    pub fn stdout() -> Output {
        Output {
            inner: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        }
    }

    /// One JSON Lines record: `schema`, `line`, `source`, then the fields of `body`.
    pub fn record<T: Serialize>(&mut self, source: &str, line: usize, body: &T) -> io::Result<()> {
        let record = JsonRecord {
            schema: SCHEMA,
            line,
            source,
            body,
        };
        self.json_line(&record)
    }

    /// Any value as one line of JSON.
    pub fn json_line<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut *self, value).map_err(|e| mark(io::Error::from(e)))?;
        self.write_all(b"\n")
    }

    /// The record for input that could not be used: `schema`, `line`, `source`, `error`.
    pub fn error_record(&mut self, source: &str, line: usize, error: &str) -> io::Result<()> {
        self.record(source, line, &ErrorBody { error })
    }
}

// TSV records are written through the `csv` crate (tab-delimited, quoted only where a field
// holds a `"`), the header made of the field names of the record struct, so that the columns and
// their JSON keys cannot drift apart. Fields are expected to be one line of text already (see
// [`plain_text`]).

fn tsv_writer(header: bool) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .delimiter(b'\t')
        .quote_style(csv::QuoteStyle::Necessary)
        .has_headers(header)
        .buffer_capacity(1024)
        .from_writer(Vec::with_capacity(1024))
}

/// The TSV header line (with its line break) of records like `template`: its field names.
pub fn tsv_header<T: Serialize>(template: &T) -> io::Result<Vec<u8>> {
    let mut csv = tsv_writer(true);
    csv.serialize(template)?;
    let mut bytes = csv.into_inner().map_err(|e| e.into_error())?;
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    bytes.truncate(end);
    Ok(bytes)
}

/// One TSV record as a line (with its line break).
pub fn tsv_line<T: Serialize>(record: &T) -> io::Result<Vec<u8>> {
    let mut csv = tsv_writer(false);
    csv.serialize(record)?;
    csv.into_inner().map_err(|e| e.into_error())
}

/// A text field made one line of plain text for TSV: tabs and line breaks become spaces, other
/// control characters (NUL, ESC, DEL, C1) are written `\xNN`.
pub fn plain_text(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            // `char::is_control` is the category Cc: all below U+00A0.
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(mark)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(mark)
    }
}

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no progress bar and no notes on stderr (errors are still printed).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// An error message on stderr, `hdp: ` first; never panics.
pub fn error(msg: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "hdp: {msg}");
}

/// A line on stderr that was asked for (e.g. `--stats`), kept under `--quiet`; never panics.
pub fn stderr_line(msg: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{msg}");
}

/// Text on stderr that was asked for (e.g. `--summary`), as it is; never panics.
pub fn stderr_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The exit code for an error that ended a command, after printing it once (a closed output
/// pipe is not printed).
pub fn failure(e: &anyhow::Error) -> i32 {
    for cause in e.chain() {
        let found = cause
            .downcast_ref::<io::Error>()
            .and_then(as_output_error)
            .or_else(|| cause.downcast_ref::<OutputError>());
        if let Some(o) = found {
            if o.0.kind() == io::ErrorKind::BrokenPipe {
                return EXIT_BROKEN_PIPE;
            }
            error(format_args!("{o}"));
            return EXIT_USAGE;
        }
    }
    error(format_args!("{e:#}"));
    EXIT_USAGE
}
