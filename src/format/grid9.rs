//! 9-line grids as people paste them: rows of 9 cells with or without `|`, `-`, `+`, spaces or
//! box-drawing separators; Simple Sudoku `.ss`; SadMan `.sdk` (`#` metadata, `[Puzzle]`).
//!
//! Empty cells are normally written `.`, `0`, `*` or `_`. Grids copied from a web page or a
//! forum often leave them blank instead, and spreadsheet copies leave them as empty fields
//! between tabs. Those are read too wherever the row's layout fixes each cell's place: a row
//! cut by `|` into 9 cells, or into 3 boxes of the same width (a cell's place in its box is
//! then its position across the box), or 9 tab-separated fields. Anywhere else a short row is
//! an error that asks for `.` or `0` in empty cells.

use super::{check_givens, is_cell_char, is_empty_mark, numbered_lines, Puzzle};
use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Digit, Grid};

pub(super) fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(c, '|' | '-' | '+' | '=' | ':' | '!')
        || ('\u{2500}'..='\u{257f}').contains(&c)
}

/// What one line of a grid holds.
enum Row {
    /// Nothing but separators (or a border such as `*-----------*`).
    Rule,
    /// Nine cells, with the column of each.
    Cells([(char, usize); 9]),
    /// Something else: the error.
    Bad(ParseError),
}

/// Whether `line` is a row of nine cells of a 9-line grid (for format detection).
pub(super) fn is_grid_row(line: &str) -> bool {
    matches!(read_row(line, 1), Row::Cells(_))
}

/// The vertical separators that can bound blank cells.
fn is_vertical(c: char) -> bool {
    matches!(c, '|' | '!' | '\u{2502}' | '\u{2503}' | '\u{2551}')
}

/// The cells of a row whose empty cells may be blank, placed by the row's layout: 9
/// tab-separated fields, or the parts between vertical separators (9 cells, or 3 boxes of
/// equal width, each cell placed by its position across its box). `None` when the layout does
/// not fix every cell's place.
fn positional_row(line: &str) -> Option<[(char, usize); 9]> {
    let chars: Vec<char> = line.chars().collect();
    // The parts of the row: (first column, characters), 0-based.
    let mut parts: Vec<(usize, &[char])> = Vec::new();
    if chars.contains(&'\t') {
        let mut start = 0;
        for (i, &c) in chars.iter().enumerate().chain([(chars.len(), &'\t')]) {
            if c == '\t' {
                parts.push((start, &chars[start..i]));
                start = i + 1;
            }
        }
    } else {
        let bars: Vec<usize> = (0..chars.len())
            .filter(|&i| is_vertical(chars[i]))
            .collect();
        let (&first, &last) = (bars.first()?, bars.last()?);
        let blank = |s: &[char]| s.iter().all(|c| c.is_whitespace());
        if !blank(&chars[..first]) {
            parts.push((0, &chars[..first]));
        }
        for w in bars.windows(2) {
            parts.push((w[0] + 1, &chars[w[0] + 1..w[1]]));
        }
        if !blank(&chars[last + 1..]) {
            parts.push((last + 1, &chars[last + 1..]));
        }
    }
    let mut out = [(' ', 0); 9];
    let mut seen = [false; 9];
    let per_part = match parts.len() {
        9 => 1,
        3 => 3,
        _ => return None,
    };
    let width = parts[0].1.len();
    if per_part == 3 && (width < 3 || parts.iter().any(|(_, p)| p.len() != width)) {
        return None;
    }
    for (k, (start, part)) in parts.iter().enumerate() {
        for (slot, c) in out[k * per_part..(k + 1) * per_part].iter_mut().enumerate() {
            // A blank cell's column: where its share of the part begins.
            *c = ('.', start + slot * part.len() / per_part + 1);
        }
        for (i, &c) in part.iter().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            if !is_cell_char(c) {
                return None;
            }
            let cell = k * per_part + i * per_part / part.len();
            if std::mem::replace(&mut seen[cell], true) {
                return None;
            }
            out[cell] = (c, start + i + 1);
        }
    }
    Some(out)
}

fn read_row(line: &str, line_no: usize) -> Row {
    match scan_row(line, line_no) {
        // Fewer than 9 cells, or none on a line with vertical separators and no rule: blank
        // cells where the layout places them, else an error that says how to write them.
        Row::Bad(e) if matches!(e.kind, ParseErrorKind::WrongLength { .. }) => {
            match positional_row(line) {
                Some(cells) => Row::Cells(cells),
                None => {
                    let ParseErrorKind::WrongLength { found } = e.kind else {
                        return Row::Bad(e);
                    };
                    Row::Bad(ParseError::new(
                        e.line,
                        e.column,
                        ParseErrorKind::Other(format!(
                            "a grid row needs 9 cells, found {found}: write empty cells as . or 0 \
                             (blank cells are read only between | separators or tabs that fix \
                             each cell's place)"
                        )),
                    ))
                }
            }
        }
        Row::Rule
            if line.contains(is_vertical)
                && !line.contains(|c: char| {
                    matches!(c, '-' | '=')
                        || (('\u{2500}'..='\u{257f}').contains(&c) && !is_vertical(c))
                })
                || line.contains('\t') =>
        {
            positional_row(line).map_or(Row::Rule, Row::Cells)
        }
        row => row,
    }
}

fn scan_row(line: &str, line_no: usize) -> Row {
    let mut cells = Vec::with_capacity(9);
    let mut border = false;
    for (i, c) in line.chars().enumerate() {
        if is_separator(c) {
            border |= matches!(c, '-' | '=') || ('\u{2500}'..='\u{257f}').contains(&c);
            continue;
        }
        if !is_cell_char(c) {
            return Row::Bad(ParseError::new(
                line_no,
                i + 1,
                ParseErrorKind::BadCharacter {
                    found: c,
                    expected: "a digit 1-9, an empty-cell mark . 0 * _, or a separator | - +",
                },
            ));
        }
        cells.push((c, i + 1));
        if cells.len() > 9 {
            return Row::Bad(ParseError::new(
                line_no,
                i + 1,
                ParseErrorKind::Other("a grid row has more than 9 cells".into()),
            ));
        }
    }
    match cells.len() {
        0 => Row::Rule,
        // `*-----------*` borders of Simple Sudoku: stars on a line of dashes.
        n if border && n < 9 && cells.iter().all(|(c, _)| *c == '*') => Row::Rule,
        9 => {
            let mut out = [(' ', 0); 9];
            out.copy_from_slice(&cells);
            Row::Cells(out)
        }
        // Marked as a length error for `read_row`, which words it.
        n => Row::Bad(ParseError::new(
            line_no,
            cells.last().map_or(1, |(_, col)| col + 1),
            ParseErrorKind::WrongLength { found: n },
        )),
    }
}

/// Reads consecutive 9-row grids. With `sdk`, `#` lines are metadata (`#N` gives the label) and
/// `[...]` lines are section headers; only the `[Puzzle]` section (or text before any section)
/// is read.
pub(super) fn parse_grids(text: &str, sdk: bool) -> Vec<Result<Puzzle, ParseError>> {
    let mut reader = GridReader::new(sdk);
    let mut out: Vec<_> = numbered_lines(text)
        .filter_map(|(n, line)| reader.push(n, line))
        .collect();
    out.extend(reader.end());
    if out.is_empty() {
        out.push(Err(ParseError::new(1, 1, ParseErrorKind::Empty)));
    }
    out
}

/// 9-line grids read a line at a time, so that a reader can stream a collection of them:
/// feed every line to [`GridReader::push`], then call [`GridReader::end`].
#[derive(Debug, Default)]
pub struct GridReader {
    sdk: bool,
    rows: Vec<[(char, usize); 9]>,
    start: usize,
    label: Option<String>,
    in_other_section: bool,
    last_line: usize,
    /// The error of the grid being read, once one of its rows was bad.
    failed: Option<ParseError>,
}

impl GridReader {
    /// A reader of 9-line grids (`sdk`: SadMan `.sdk` metadata and sections).
    pub fn new(sdk: bool) -> GridReader {
        GridReader {
            sdk,
            ..GridReader::default()
        }
    }

    /// Reads line `n` (1-based, without its line break); returns the puzzle (or error) it ends.
    pub fn push(&mut self, n: usize, line: &str) -> Option<Result<Puzzle, ParseError>> {
        self.last_line = n;
        let t = line.trim();
        if t.starts_with('#') {
            if self.sdk {
                if let Some(name) = t.strip_prefix("#N") {
                    self.label = Some(name.trim().to_string()).filter(|s| !s.is_empty());
                }
            }
            return None;
        }
        if t.starts_with('[') && t.ends_with(']') {
            self.in_other_section = t != "[Puzzle]";
            return None;
        }
        if self.in_other_section {
            return None;
        }
        // A title such as `Grid 01` (Project Euler files) names the next grid.
        if self.rows.is_empty() && t.chars().next().is_some_and(|c| c.is_alphabetic()) {
            self.label = Some(t.to_string());
            return None;
        }
        let (cells, error) = match read_row(line, n) {
            Row::Rule => return None,
            // A bad row still takes its place, so that the next grid starts where it should;
            // its grid gives only the first bad row's error.
            Row::Bad(e) => ([(' ', 0); 9], self.failed.is_none().then_some(e)),
            Row::Cells(cells) => (cells, None),
        };
        if self.rows.is_empty() {
            self.start = n;
        }
        self.rows.push(cells);
        if let Some(e) = error {
            self.failed = Some(e.clone());
            return Some(Err(e));
        }
        if self.rows.len() < 9 {
            return None;
        }
        let done = match self.failed.take() {
            Some(_) => None,
            None => Some(finish(&self.rows, self.start, self.label.take())),
        };
        self.rows.clear();
        self.label = None;
        done
    }

    /// The error of an unfinished grid at the end of the input, if any.
    pub fn end(&mut self) -> Option<Result<Puzzle, ParseError>> {
        if self.rows.is_empty() || self.failed.take().is_some() {
            return None;
        }
        let found = std::mem::take(&mut self.rows).len();
        Some(Err(ParseError::new(
            self.last_line,
            1,
            ParseErrorKind::Other(format!(
                "a grid needs 9 rows, found {found} (from line {})",
                self.start
            )),
        )))
    }
}

fn finish(
    rows: &[[(char, usize); 9]],
    start: usize,
    label: Option<String>,
) -> Result<Puzzle, ParseError> {
    let mut values = [None; 81];
    for (r, row) in rows.iter().enumerate() {
        for (c, (ch, _)) in row.iter().enumerate() {
            values[r * 9 + c] = if is_empty_mark(*ch) {
                None
            } else {
                Digit::from_char(*ch)
            };
        }
    }
    let grid = Grid::from_values(&values);
    if let Err(kind) = check_givens(&grid) {
        let (line, column) = match &kind {
            ParseErrorKind::DuplicateGiven { second, .. } => second
                .parse::<crate::grid::Cell>()
                .map(|c| (start + c.row(), rows[c.row()][c.col()].1))
                .unwrap_or((start, 1)),
            _ => (start, 1),
        };
        return Err(ParseError::new(line, column, kind));
    }
    Ok(Puzzle {
        grid,
        label,
        line: start,
    })
}
