//! Reading puzzles from the command line's INPUT arguments: an 81-character puzzle, a file, or
//! `-` for standard input; with none, the built-in example (or, for `classify`, standard input).
//!
//! One puzzle source for every command: [`Puzzles`], an iterator that streams. Line-oriented
//! inputs (one puzzle per line, TSV/CSV tables read with the `csv` crate) are read a line or a
//! row at a time, so memory stays bounded whatever the input's size (a line longer than
//! [`MAX_LINE`] is cut, and reported by the parser). The format is detected from the first
//! [`HEAD`] bytes only. 9-line grids, `.ss` and `.sdk` are read a line at a time too (through
//! [`GridReader`]); a pencil-mark grid, one puzzle per input, is read whole, up to
//! [`MAX_WHOLE`] bytes. A missing or unreadable input is reported in its place and the others
//! are still read; [`Puzzles::exit_code`] counts them in the exit code.

use clap::Args;
use hdp::format::{
    detect_layout, is_cell_char, parse_puzzles, GridReader, InputFormat, Layout, Puzzle, Table,
};
use hdp::ParseError;
use std::fmt;
use std::io::{BufRead, BufReader, Cursor, IsTerminal, Read};

/// Arto Inkala's puzzle (spec §8; "Arto Inkala 2012" in famous.tsv): the built-in example.
pub const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// How many bytes of an input format detection looks at, at most.
pub const HEAD: usize = 8 << 10;
/// The longest line kept; the rest of a longer line is skipped (the parser reports its length).
pub const MAX_LINE: usize = 64 << 10;
/// The largest pencil-mark input read (it is read whole).
pub const MAX_WHOLE: u64 = 64 << 20;

/// The error of an input that holds no puzzle, the same in every command (an error item at
/// line 1, column 1: exit code 1, and an error record where the command writes records).
pub const NO_PUZZLE: &str =
    "no puzzle found (the input is empty or holds only blank and comment lines)";

/// Where puzzles come from.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// An 81-character puzzle, a file path, or - for standard input (default: Inkala's puzzle).
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How inputs are read (shared by every command, `classify` included).
#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// Input format: auto, line, grid, sdk, ss, pencil, tsv, csv (default: detected).
    #[arg(long, default_value = "auto", value_parser = super::input_format_parser())]
    pub input_format: InputFormat,
    /// The puzzle column of a TSV/CSV table: a header name or a 1-based number (default: the
    /// column named puzzle, grid, sudoku or givens, or the one holding 81-character puzzles).
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
}

/// What went wrong with one item of input.
#[derive(Debug, Clone)]
pub enum ReadError {
    /// The puzzle did not parse.
    Parse(ParseError),
    /// The input could not be opened or read (the message names it).
    Input(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Parse(e) => write!(f, "{e}"),
            ReadError::Input(e) => f.write_str(e),
        }
    }
}

impl ReadError {
    /// The error on stderr: `SOURCE: line L, column C: …` for a parse error, the message alone
    /// for an input error (it names the input).
    pub fn report(&self, source: &str) {
        match self {
            ReadError::Parse(e) => super::output::error(format_args!("{source}: {e}")),
            ReadError::Input(e) => super::output::error(format_args!("{e}")),
        }
    }
}

/// One puzzle read, or the error for its line, with the name of where it came from.
pub struct Read1 {
    /// `-`, a file name, or `argument N`.
    pub source: String,
    /// The physical line (1-based) where the puzzle or the error is; 0 for an input error.
    pub line: usize,
    /// The first 81 characters of the puzzle text (for error records).
    pub raw: String,
    /// The puzzle or its error.
    pub puzzle: Result<Puzzle, ReadError>,
    /// A table row's first non-empty field other than the puzzle, as it is: the name
    /// `report --index` gives the puzzle (the label joins every other field).
    pub title: Option<String>,
    /// A table row's other columns, in order: the header's name (or the 1-based column number
    /// without a header) and the value, empty ones included; none outside tables.
    pub columns: Vec<(String, String)>,
}

impl Read1 {
    /// The puzzle, or `None` after reporting its error on stderr.
    pub fn ok_or_report(self) -> Option<Puzzle> {
        match self.puzzle {
            Ok(p) => Some(p),
            Err(ReadError::Parse(e)) => {
                super::output::error(format_args!("{}: {e}", self.source));
                None
            }
            Err(ReadError::Input(e)) => {
                super::output::error(format_args!("{e}"));
                None
            }
        }
    }
}

/// Whether a command-line argument that names no existing file was meant as a puzzle: its first
/// word has at least 60 characters, at least 90 % of them cell characters (`1-9 . 0 * _`), and
/// it holds no path separator. Such an argument gets the puzzle parser's error (with its column)
/// instead of "cannot read": `12x4...` or an 80-character puzzle is a typo, not a file name.
pub fn looks_like_puzzle(arg: &str) -> bool {
    let Some(word) = arg.split_whitespace().next() else {
        return false;
    };
    let n = word.chars().count();
    let cells = word.chars().filter(|&c| is_cell_char(c)).count();
    n >= 60 && !word.contains(['/', '\\']) && cells * 10 >= n * 9
}

impl InputArgs {
    /// Every puzzle of every input, in order, streamed (Inkala's puzzle when there is no input).
    pub fn puzzles(&self) -> Puzzles {
        let inputs = if self.inputs.is_empty() {
            vec![INKALA.to_string()]
        } else {
            self.inputs.clone()
        };
        Puzzles::new(inputs, &self.read)
    }
}

type Source = Box<dyn BufRead + Send>;

/// An input read a line at a time: each line cut at [`MAX_LINE`] bytes, read lossily as UTF-8,
/// without a byte-order mark or its line break, and numbered.
struct LineReader {
    r: Source,
    line_no: usize,
    buf: Vec<u8>,
}

impl LineReader {
    fn new(r: Source) -> LineReader {
        LineReader {
            r,
            line_no: 0,
            buf: Vec::new(),
        }
    }

    /// The next line and its 1-based number; `None` at the end of the input.
    fn next_line(&mut self) -> std::io::Result<Option<(usize, String)>> {
        self.buf.clear();
        if !read_capped_line(self.r.as_mut(), &mut self.buf, MAX_LINE)? {
            return Ok(None);
        }
        self.line_no += 1;
        let text = String::from_utf8_lossy(&self.buf);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        Ok(Some((
            self.line_no,
            text.trim_end_matches(['\r', '\n']).to_string(),
        )))
    }
}

/// An input with every line break that is a CR alone (old Mac files) made LF; CRLF is kept.
/// So every reader, and the line numbers it counts, sees such files as they are meant.
struct LoneCr<R> {
    inner: R,
    /// Bytes translated and not yet read, from `pos`.
    buf: Vec<u8>,
    pos: usize,
    /// A CR was read last: a line break of its own unless an LF follows.
    held_cr: bool,
    /// The inner input ended.
    done: bool,
}

impl<R: Read> LoneCr<R> {
    fn new(inner: R) -> LoneCr<R> {
        LoneCr {
            inner,
            buf: Vec::new(),
            pos: 0,
            held_cr: false,
            done: false,
        }
    }
}

impl<R: Read> Read for LoneCr<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let mut chunk = [0u8; 8192];
        while self.pos == self.buf.len() {
            if self.done {
                return Ok(0);
            }
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.buf.clear();
            self.pos = 0;
            if n == 0 {
                self.done = true;
                if std::mem::take(&mut self.held_cr) {
                    self.buf.push(b'\n');
                }
                continue;
            }
            for &b in &chunk[..n] {
                if std::mem::take(&mut self.held_cr) {
                    self.buf.push(if b == b'\n' { b'\r' } else { b'\n' });
                }
                if b == b'\r' {
                    self.held_cr = true;
                } else {
                    self.buf.push(b);
                }
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// A table's bytes as the `csv` crate is given them, and the physical line of each row.
///
/// The crate's line numbers run one short per CRLF line break (rust-csv issue 395) and leave out
/// blank and comment lines, and the offsets it gives rows after such lines are not their first
/// bytes. So the crate is given the table without blank lines or `#` comment lines and with
/// every CRLF made LF (no lone CR reaches it: [`LoneCr`] made each LF): then a row starts right after the line break before
/// it, and the physical line where each line given starts, noted here, is the row's. Only the
/// lines not yet passed by a row are kept (those in the crate's buffer), so memory stays
/// bounded. A line break inside a quoted field is LF too, an empty line inside one is left out,
/// and a `#` that starts a line inside one starts a comment.
struct TableBytes {
    inner: Source,
    /// Bytes ready for the crate.
    ready: std::collections::VecDeque<u8>,
    /// A CR was read; whether it is kept depends on the next byte.
    held_cr: bool,
    /// The next byte starts a line.
    line_start: bool,
    /// Inside a comment line.
    comment: bool,
    /// The physical line (1-based) of the next byte read.
    physical: usize,
    /// How many bytes the crate was given.
    given: u64,
    /// The lines given and not yet passed: where each starts in what the crate was given, and
    /// its physical line.
    starts: std::collections::VecDeque<(u64, usize)>,
    /// The physical line of the last row asked about.
    current: usize,
}

impl TableBytes {
    fn new(inner: Source) -> TableBytes {
        TableBytes {
            inner,
            ready: std::collections::VecDeque::new(),
            held_cr: false,
            line_start: true,
            comment: false,
            physical: 1,
            given: 0,
            starts: std::collections::VecDeque::new(),
            current: 1,
        }
    }

    /// The physical line of a row the crate says starts at `offset` (asked in increasing order).
    fn line_at(&mut self, offset: u64) -> usize {
        while let Some(&(start, line)) = self.starts.front() {
            if start > offset {
                break;
            }
            self.current = line;
            self.starts.pop_front();
        }
        self.current
    }

    /// One byte read, after CRLF was made LF.
    fn take(&mut self, b: u8) {
        if b == b'\n' {
            self.physical += 1;
            let drop = self.comment || self.line_start;
            self.comment = false;
            self.line_start = true;
            if drop {
                return;
            }
        } else if self.comment {
            return;
        } else if self.line_start {
            self.line_start = false;
            if b == b'#' {
                self.comment = true;
                return;
            }
            self.starts.push_back((self.given, self.physical));
        }
        self.ready.push_back(b);
        self.given += 1;
    }
}

impl Read for TableBytes {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut chunk = [0u8; 8192];
        while self.ready.is_empty() {
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                if std::mem::take(&mut self.held_cr) {
                    self.take(b'\r');
                    continue;
                }
                return Ok(0);
            }
            for &b in &chunk[..n] {
                if std::mem::take(&mut self.held_cr) && b != b'\n' {
                    self.take(b'\r');
                }
                if b == b'\r' {
                    self.held_cr = true;
                } else {
                    self.take(b);
                }
            }
        }
        let n = buf.len().min(self.ready.len());
        for (slot, b) in buf.iter_mut().zip(self.ready.drain(..n)) {
            *slot = b;
        }
        Ok(n)
    }
}

enum Reader {
    Lines(LineReader),
    Table {
        r: Box<csv::Reader<TableBytes>>,
        table: Table,
        skip_header: bool,
    },
    Grids {
        lines: LineReader,
        grids: GridReader,
    },
    Buffered(std::vec::IntoIter<Result<Puzzle, ParseError>>),
}

/// The puzzle source: every puzzle of every input, in order (see the module docs).
pub struct Puzzles {
    inputs: std::iter::Enumerate<std::vec::IntoIter<String>>,
    read: ReadArgs,
    current: Option<(String, Reader, usize)>,
    input_errors: usize,
}

impl Puzzles {
    /// The source over `inputs` (`-` is standard input).
    pub fn new(inputs: Vec<String>, read: &ReadArgs) -> Puzzles {
        Puzzles {
            inputs: inputs.into_iter().enumerate(),
            read: read.clone(),
            current: None,
            input_errors: 0,
        }
    }

    /// `code`, raised to the I/O exit code when an input could not be read.
    pub fn exit_code(&self, code: i32) -> i32 {
        if self.input_errors > 0 {
            code.max(super::EXIT_USAGE)
        } else {
            code
        }
    }

    fn input_error(&mut self, message: String) -> Read1 {
        self.input_errors += 1;
        Read1 {
            source: String::new(),
            line: 0,
            raw: String::new(),
            puzzle: Err(ReadError::Input(message)),
            title: None,
            columns: Vec::new(),
        }
    }

    /// The current input failed while being read: it ends, with its error item.
    fn input_failed(&mut self, message: String) -> Read1 {
        self.current = None;
        self.input_error(message)
    }

    /// Opens the next input: its name and reader, or the message of the input error.
    fn open(&mut self, index: usize, input: &str) -> Result<(String, Reader), String> {
        let (source, mut r, format): (String, Source, InputFormat) = if input == "-" {
            if std::io::stdin().is_terminal() && !super::output::quiet() {
                super::output::stderr_line(format_args!(
                    "hdp: reading puzzles from standard input… (end with Ctrl-D)"
                ));
            }
            (
                "-".into(),
                Box::new(BufReader::with_capacity(64 << 10, std::io::stdin())),
                self.read.input_format,
            )
        } else if !std::path::Path::new(input).exists() && looks_like_puzzle(input) {
            let format = match self.read.input_format {
                InputFormat::Auto | InputFormat::Tsv | InputFormat::Csv => InputFormat::Line,
                f => f,
            };
            (
                format!("argument {}", index + 1),
                Box::new(Cursor::new(input.as_bytes().to_vec())),
                format,
            )
        } else {
            match std::fs::File::open(input) {
                Ok(f) => (
                    input.to_string(),
                    Box::new(BufReader::with_capacity(64 << 10, f)),
                    self.read.input_format,
                ),
                Err(e) => return Err(format!("cannot read {input}: {}", io_text(&e))),
            }
        };
        // Old Mac line endings (a CR alone) become LF before anything else reads the input.
        r = Box::new(BufReader::with_capacity(64 << 10, LoneCr::new(r)));
        let cannot = |e: std::io::Error| format!("cannot read {source}: {}", io_text(&e));
        let head = match read_head(&mut r) {
            Ok(h) => h,
            Err(e) => return Err(cannot(e)),
        };
        let complete = match head.iter().rposition(|&b| b == b'\n') {
            Some(i) => &head[..=i],
            None => &head[..],
        };
        let layout = detect_layout(
            &String::from_utf8_lossy(complete),
            format,
            self.read.column.as_deref(),
        );
        let layout = match layout {
            Ok(l) => l,
            Err(e) => return Err(format!("{source}: {e}")),
        };
        let r: Source = Box::new(BufReader::new(Cursor::new(head).chain(r)));
        let reader = match layout {
            Layout::Lines => Reader::Lines(LineReader::new(r)),
            Layout::Table(table) => {
                let csv = csv::ReaderBuilder::new()
                    .delimiter(table.delimiter)
                    .has_headers(false)
                    .flexible(true)
                    .quoting(table.delimiter == b',')
                    .from_reader(TableBytes::new(r));
                Reader::Table {
                    r: Box::new(csv),
                    skip_header: table.header.is_some(),
                    table,
                }
            }
            Layout::Whole(f @ (InputFormat::Grid | InputFormat::Ss | InputFormat::Sdk)) => {
                Reader::Grids {
                    lines: LineReader::new(r),
                    grids: GridReader::new(f == InputFormat::Sdk),
                }
            }
            Layout::Whole(f) => {
                let mut bytes = Vec::new();
                if let Err(e) = r.take(MAX_WHOLE + 1).read_to_end(&mut bytes) {
                    return Err(cannot(e));
                }
                if bytes.len() as u64 > MAX_WHOLE {
                    return Err(format!(
                        "{source}: a {f} input larger than {} MB; convert it to one puzzle per line",
                        MAX_WHOLE >> 20
                    ));
                }
                Reader::Buffered(parse_puzzles(&String::from_utf8_lossy(&bytes), f).into_iter())
            }
        };
        Ok((source, reader))
    }

    /// The next item of the current input; `None` at its end. I/O errors end the input.
    fn next_in_current(&mut self) -> Option<Read1> {
        let (source, reader, _) = self.current.as_mut()?;
        let item = |line: usize, raw: &str, puzzle: Result<Puzzle, ParseError>| Read1 {
            source: source.clone(),
            line,
            raw: raw.chars().take(81).collect(),
            puzzle: puzzle.map_err(ReadError::Parse),
            title: None,
            columns: Vec::new(),
        };
        match reader {
            Reader::Lines(lines) => loop {
                let (line_no, text) = match lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => return None,
                    Err(e) => {
                        let message = format!("cannot read {source}: {}", io_text(&e));
                        return Some(self.input_failed(message));
                    }
                };
                let t = text.trim_start();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                return Some(item(
                    line_no,
                    &text,
                    hdp::format::parse_line(&text, line_no),
                ));
            },
            Reader::Table {
                r,
                table,
                skip_header,
            } => {
                let mut record = csv::ByteRecord::new();
                loop {
                    match r.read_byte_record(&mut record) {
                        Ok(false) => return None,
                        Ok(true) => {}
                        Err(e) => {
                            let message = format!(
                                "cannot read {source}: {}",
                                io_text(&std::io::Error::from(e))
                            );
                            return Some(self.input_failed(message));
                        }
                    }
                    let line = match record.position() {
                        Some(p) => r.get_mut().line_at(p.byte()),
                        None => 0,
                    };
                    if std::mem::take(skip_header) {
                        continue;
                    }
                    // Invalid UTF-8 is read lossily, as in puzzle lines.
                    let fields: Vec<std::borrow::Cow<str>> =
                        record.iter().map(String::from_utf8_lossy).collect();
                    let fields: Vec<&str> = fields.iter().map(|f| f.as_ref()).collect();
                    if fields.iter().all(|f| f.trim().is_empty()) {
                        continue;
                    }
                    let raw = fields.get(table.column).copied().unwrap_or("");
                    let title = fields
                        .iter()
                        .enumerate()
                        .map(|(k, f)| (k, f.trim()))
                        .find(|&(k, f)| k != table.column && !f.is_empty())
                        .map(|(_, f)| f.to_string());
                    let columns = fields
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| k != table.column)
                        .map(|(k, f)| {
                            let name = table.header.as_ref().and_then(|h| h.get(k));
                            let name = name
                                .filter(|n| !n.is_empty())
                                .map_or_else(|| (k + 1).to_string(), String::clone);
                            (name, f.trim().to_string())
                        })
                        .collect();
                    return Some(Read1 {
                        title,
                        columns,
                        ..item(line, raw, table.puzzle(&fields, line))
                    });
                }
            }
            Reader::Grids { lines, grids } => loop {
                let (line_no, text) = match lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        let p = grids.end()?;
                        return Some(item(lines.line_no, "", p));
                    }
                    Err(e) => {
                        let message = format!("cannot read {source}: {}", io_text(&e));
                        return Some(self.input_failed(message));
                    }
                };
                if let Some(p) = grids.push(line_no, &text) {
                    let line = p.as_ref().map_or_else(|e| e.line, |p| p.line);
                    let raw = p.as_ref().map(|p| p.grid.to_line()).unwrap_or_default();
                    return Some(item(line, &raw, p));
                }
            },
            Reader::Buffered(it) => {
                let p = it.next()?;
                let line = match &p {
                    Ok(p) => p.line,
                    Err(e) => e.line,
                };
                let raw = p.as_ref().map(|p| p.grid.to_line()).unwrap_or_default();
                Some(item(line, &raw, p))
            }
        }
    }
}

impl Iterator for Puzzles {
    type Item = Read1;

    fn next(&mut self) -> Option<Read1> {
        loop {
            if self.current.is_some() {
                if let Some(item) = self.next_in_current() {
                    if let Some((_, _, n)) = self.current.as_mut() {
                        *n += 1;
                    }
                    return Some(item);
                }
                // An input without a puzzle is, in every command, one bad item at its line 1.
                if let Some((source, _, 0)) = self.current.take() {
                    return Some(Read1 {
                        source,
                        line: 1,
                        raw: String::new(),
                        puzzle: Err(ReadError::Parse(ParseError::new(
                            1,
                            1,
                            hdp::ParseErrorKind::Other(NO_PUZZLE.into()),
                        ))),
                        title: None,
                        columns: Vec::new(),
                    });
                }
                continue;
            }
            let (index, input) = self.inputs.next()?;
            match self.open(index, &input) {
                Ok((source, reader)) => self.current = Some((source, reader, 0)),
                Err(message) => return Some(self.input_error(message)),
            }
        }
    }
}

/// An I/O error in words, without the `(os error N)` suffix (as output errors are printed).
fn io_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_string()
}

/// Reads the first bytes of an input for format detection: up to [`HEAD`] bytes, less when the
/// input ends or when its first lines already look like one puzzle (or table row) per line, so
/// that a slow pipe starts at once.
fn read_head(r: &mut Source) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(head);
        }
        let n = chunk.len().min(HEAD - head.len());
        head.extend_from_slice(&chunk[..n]);
        r.consume(n);
        if head.len() >= HEAD || decided(&head) {
            return Ok(head);
        }
    }
}

/// Whether the complete lines of `head` already settle the format: content lines each with a
/// first word of 60 characters or more (a puzzle line or a table row), or a table header naming
/// the puzzle column first. One such line is enough, so that a pipe fed one puzzle at a time
/// is answered one puzzle at a time.
fn decided(head: &[u8]) -> bool {
    let Some(end) = head.iter().rposition(|&b| b == b'\n') else {
        return false;
    };
    let text = String::from_utf8_lossy(&head[..end]);
    let content: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    !content.is_empty()
        && content.iter().enumerate().all(|(i, l)| {
            l.split_whitespace().next().map_or(0, |w| w.chars().count()) >= 60
                || (i == 0 && Table::detect(l, None).ok().flatten().is_some())
        })
}

/// Reads one line (through `\n`) into `buf`, keeping at most `cap` bytes of it and skipping
/// the rest; `false` at the end of the input.
fn read_capped_line(r: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> std::io::Result<bool> {
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        let (n, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let keep = n.min(cap.saturating_sub(buf.len()));
        buf.extend_from_slice(&chunk[..keep]);
        r.consume(n);
        if done {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads everything through [`LoneCr`], the input handed over `step` bytes at a time.
    fn lone_cr(input: &[u8], step: usize) -> Vec<u8> {
        struct Slow<'a>(&'a [u8], usize);
        impl Read for Slow<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        LoneCr::new(Slow(input, step))
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn a_lone_cr_is_a_line_break_and_crlf_is_kept() {
        let cases: [(&[u8], &[u8]); 6] = [
            (b"a\rb\r", b"a\nb\n"),
            (b"a\r\nb\r\n", b"a\r\nb\r\n"),
            (b"a\r\r\nb", b"a\n\r\nb"),
            (b"a\nb\rc", b"a\nb\nc"),
            (b"\r", b"\n"),
            (b"", b""),
        ];
        for (input, expected) in cases {
            for step in [1, 2, 3, 8192] {
                assert_eq!(lone_cr(input, step), expected, "{input:?} by {step}");
            }
        }
    }

    #[test]
    fn puzzle_like_arguments() {
        let inkala = INKALA;
        assert!(looks_like_puzzle(inkala));
        assert!(looks_like_puzzle(&format!("{inkala} a comment")));
        let mut typo = inkala.to_string();
        typo.replace_range(2..3, "x");
        assert!(looks_like_puzzle(&typo), "one bad character");
        assert!(looks_like_puzzle(&inkala[..80]), "80 characters");
        assert!(looks_like_puzzle(&inkala[..60]));
        assert!(!looks_like_puzzle(&inkala[..59]), "too short");
        assert!(!looks_like_puzzle(&format!("dir/{inkala}")), "a path");
        assert!(!looks_like_puzzle("puzzles.txt"));
        assert!(!looks_like_puzzle(""));
        let mostly_letters: String = inkala
            .chars()
            .map(|c| if c == '.' { 'a' } else { c })
            .collect();
        assert!(!looks_like_puzzle(&mostly_letters));
        // 90 % is the threshold: 8 bad characters in 81 pass, 9 do not.
        let mut eight = inkala.to_string();
        eight.replace_range(0..8, "xxxxxxxx");
        assert!(looks_like_puzzle(&eight));
        let mut nine = inkala.to_string();
        nine.replace_range(0..9, "xxxxxxxxx");
        assert!(!looks_like_puzzle(&nine));
    }
}
