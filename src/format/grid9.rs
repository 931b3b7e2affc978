//! 9-line grids as people paste them: rows of 9 cells with or without `|`, `-`, `+`, spaces or
//! box-drawing separators; Simple Sudoku `.ss`; SadMan `.sdk` (`#` metadata, `[Puzzle]`).

use super::{check_givens, is_cell_char, is_empty_mark, numbered_lines, Puzzle};
use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Digit, Grid};

fn is_separator(c: char) -> bool {
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

fn read_row(line: &str, line_no: usize) -> Row {
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
        n => Row::Bad(ParseError::new(
            line_no,
            cells.last().map_or(1, |(_, col)| col + 1),
            ParseErrorKind::Other(format!("a grid row needs 9 cells, found {n}")),
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
        match read_row(line, n) {
            Row::Rule => None,
            Row::Bad(e) => {
                self.rows.clear();
                Some(Err(e))
            }
            Row::Cells(cells) => {
                if self.rows.is_empty() {
                    self.start = n;
                }
                self.rows.push(cells);
                if self.rows.len() < 9 {
                    return None;
                }
                let done = finish(&self.rows, self.start, self.label.take());
                self.rows.clear();
                Some(done)
            }
        }
    }

    /// The error of an unfinished grid at the end of the input, if any.
    pub fn end(&mut self) -> Option<Result<Puzzle, ParseError>> {
        if self.rows.is_empty() {
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
