//! Reading and writing puzzles: 81-character lines, 9-line grids (forum style, Simple Sudoku
//! `.ss`, SadMan `.sdk`), pencil-mark grids, JSON; and HDP contexts for `--given`.
//!
//! Readers take text and return values; they never panic, and every error names its 1-based line
//! and column. [`parse_puzzles`] detects the format unless told.

mod grid9;
mod line;
mod pencil;
mod table;

pub use grid9::GridReader;
pub use line::parse_line;
pub use pencil::to_pencil;
pub use table::{split_fields, Table, PUZZLE_COLUMN_NAMES};

use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Cell, Grid, Unit};
use crate::propagate::{propagate, Profile};
use crate::statement::Statement;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A puzzle read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The grid (givens, or candidates for a pencil-mark grid).
    pub grid: Grid,
    /// The comment or rating after an 81-character line (or an `.sdk` name), if any.
    pub label: Option<String>,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
}

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// Detect the format.
    Auto,
    /// One 81-character puzzle per line.
    Line,
    /// 9-line grids, with or without separators.
    Grid,
    /// SadMan Software `.sdk`.
    Sdk,
    /// Simple Sudoku `.ss`.
    Ss,
    /// A pencil-mark grid (81 groups of candidates).
    Pencil,
    /// Tab-separated values with a puzzle column (see [`Table`]).
    Tsv,
    /// Comma-separated values with a puzzle column (see [`Table`]).
    Csv,
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InputFormat::Auto => "auto",
            InputFormat::Line => "line",
            InputFormat::Grid => "grid",
            InputFormat::Sdk => "sdk",
            InputFormat::Ss => "ss",
            InputFormat::Pencil => "pencil",
            InputFormat::Tsv => "tsv",
            InputFormat::Csv => "csv",
        })
    }
}

impl FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "auto" => InputFormat::Auto,
            "line" => InputFormat::Line,
            "grid" => InputFormat::Grid,
            "sdk" => InputFormat::Sdk,
            "ss" => InputFormat::Ss,
            "pencil" => InputFormat::Pencil,
            "tsv" => InputFormat::Tsv,
            "csv" => InputFormat::Csv,
            _ => {
                return Err(format!(
                    "unknown input format {s:?}: expected auto, line, grid, sdk, ss, pencil, tsv or csv"
                ))
            }
        })
    }
}

/// Whether `c` marks an empty cell.
pub(crate) fn is_empty_mark(c: char) -> bool {
    matches!(c, '.' | '0' | '*' | '_')
}

/// Whether `c` is a cell character (a given or an empty mark).
pub fn is_cell_char(c: char) -> bool {
    c.is_ascii_digit() || is_empty_mark(c)
}

/// Lines of the text without a leading byte-order mark or trailing `\r`, numbered from 1.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .map(|(i, l)| (i + 1, l))
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// Reads every puzzle of `text`. Each puzzle, or the error that replaced it, comes in input
/// order; one bad puzzle does not hide the others. Table rows are split by [`split_fields`]
/// (the binary reads tables with a CSV reader instead, which also allows quoted line breaks).
pub fn parse_puzzles(text: &str, format: InputFormat) -> Vec<Result<Puzzle, ParseError>> {
    let lines = || {
        numbered_lines(text)
            .filter(|(_, l)| !is_comment(l))
            .map(|(n, l)| parse_line(l, n))
            .collect()
    };
    match detect_layout(text, format, None).unwrap_or(Layout::Lines) {
        Layout::Lines => lines(),
        Layout::Table(table) => {
            let mut rows = numbered_lines(text).filter(|(_, l)| !is_comment(l));
            if table.header.is_some() {
                rows.next();
            }
            rows.map(|(n, l)| {
                let fields = table::split_fields(l, table.delimiter);
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                table.puzzle(&fields, n)
            })
            .collect()
        }
        Layout::Whole(InputFormat::Grid | InputFormat::Ss) => grid9::parse_grids(text, false),
        Layout::Whole(InputFormat::Sdk) => grid9::parse_grids(text, true),
        Layout::Whole(InputFormat::Pencil) => vec![pencil::parse_pencil(text)],
        Layout::Whole(_) => lines(),
    }
}

/// How an input is read, decided from its first lines by [`detect_layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line ([`parse_line`]), read line by line.
    Lines,
    /// A table with a puzzle column, read row by row.
    Table(Table),
    /// A multi-line format (9-line grids, `.sdk`, `.ss`, pencil marks), read whole by
    /// [`parse_puzzles`].
    Whole(InputFormat),
}

/// Decides how to read an input from `head`, its first complete lines (a few KB are enough),
/// the format asked for and the `--column` asked for.
///
/// Returns an error (a sentence) when `column` names no column of the table.
pub fn detect_layout(
    head: &str,
    format: InputFormat,
    column: Option<&str>,
) -> Result<Layout, String> {
    let table = |d: u8| -> Result<Layout, String> {
        let t = Table::detect_with(head, column, Some(d))?.unwrap_or(Table {
            delimiter: d,
            header: None,
            column: 0,
        });
        Ok(Layout::Table(t))
    };
    match format {
        InputFormat::Tsv => table(b'\t'),
        InputFormat::Csv => table(b','),
        InputFormat::Line => Ok(Layout::Lines),
        InputFormat::Auto => match Table::detect(head, column)? {
            Some(t) => Ok(Layout::Table(t)),
            None => Ok(match detect(head) {
                InputFormat::Line | InputFormat::Auto => Layout::Lines,
                f => Layout::Whole(f),
            }),
        },
        f => Ok(Layout::Whole(f)),
    }
}

/// Detects the format of `text` (see the module docs).
pub fn detect(text: &str) -> InputFormat {
    let content: Vec<&str> = numbered_lines(text)
        .map(|(_, l)| l)
        .filter(|l| !is_comment(l))
        .collect();
    if content.iter().any(|l| l.trim() == "[Puzzle]") {
        return InputFormat::Sdk;
    }
    let long = content
        .iter()
        .filter(|l| l.split_whitespace().next().map_or(0, |t| t.chars().count()) >= 81)
        .count();
    if !content.is_empty() && long * 2 >= content.len() {
        return InputFormat::Line;
    }
    if pencil::looks_like_pencil(text) {
        return InputFormat::Pencil;
    }
    // Rows of a spreadsheet copy can be nothing but tabs: they count as lines of a grid.
    let rows = numbered_lines(text)
        .filter(|(_, l)| !is_comment(l) || l.contains('\t'))
        .count();
    // Lines that are mostly bad puzzle lines, with no grid row among them, are puzzle lines,
    // unless there are 9 or more and each could be a row of a grid with blank cells (nothing but
    // cell characters, separators and at most 9 cells): the grid reader then says how to write
    // empty cells.
    let grid_like = |l: &&str| {
        l.chars().all(|c| is_cell_char(c) || grid9::is_separator(c))
            && l.chars().filter(|&c| is_cell_char(c)).count() <= 9
    };
    let blank_celled = content.len() >= 9 && content.iter().all(grid_like);
    if rows <= 1 || !(blank_celled || content.iter().any(|l| grid9::is_grid_row(l))) {
        return InputFormat::Line;
    }
    InputFormat::Grid
}

/// Two equal single values in one unit, as an error kind (the first clash in canonical order).
pub fn check_givens(grid: &Grid) -> Result<(), ParseErrorKind> {
    for unit in Unit::all() {
        let mut seen: [Option<Cell>; 9] = [None; 9];
        for &c in unit.cells() {
            if let Some(d) = grid.value(c) {
                if let Some(first) = seen[d.index()] {
                    return Err(ParseErrorKind::DuplicateGiven {
                        digit: d.get(),
                        unit: unit.to_string(),
                        first: first.to_string(),
                        second: c.to_string(),
                    });
                }
                seen[d.index()] = Some(c);
            }
        }
    }
    Ok(())
}

/// The grid as 9 lines with box separators; `.` for cells with several candidates.
pub fn to_pretty(grid: &Grid) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for c in 0..9 {
            if c == 3 || c == 6 {
                out.push_str("| ");
            }
            let ch = grid
                .value(Cell::from_row_col(r, c))
                .map_or('.', |d| d.to_char());
            out.push(ch);
            out.push(if c == 8 { '\n' } else { ' ' });
        }
    }
    out
}

/// A grid in JSON: the 81-character line and every cell's candidates as a digit string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridJson {
    /// The 81-character line (`.` for cells with several candidates).
    pub line: String,
    /// The candidates of the 81 cells, row-major, e.g. `"239"`.
    pub candidates: Vec<String>,
}

impl GridJson {
    /// The JSON form of `grid`.
    pub fn from_grid(grid: &Grid) -> GridJson {
        GridJson {
            line: grid.to_line(),
            candidates: grid.cells().iter().map(|c| c.to_digit_string()).collect(),
        }
    }

    /// The grid back; `None` unless there are 81 digit strings.
    pub fn to_grid(&self) -> Option<Grid> {
        if self.candidates.len() != 81 {
            return None;
        }
        let mut g = Grid::empty();
        for (cell, s) in Cell::all().zip(&self.candidates) {
            let mut c = crate::grid::Candidates::NONE;
            for ch in s.chars() {
                c |= crate::grid::Candidates::single(crate::grid::Digit::from_char(ch)?);
            }
            g.set(cell, c);
        }
        Some(g)
    }
}

/// Parses a `--given` context (`I8: 2,7 + G7: 3,9`, one position: a leading `#` as copied from
/// a chain line is allowed), rejecting a cell named twice and a `#` between statements (a nested
/// hypothesis has no meaning in a context). Columns are 1-based in `text`.
pub fn parse_context(text: &str) -> Result<Vec<Statement>, ParseError> {
    let lead = text.len() - text.trim_start().len();
    let body = text
        .trim_start()
        .strip_prefix('#')
        .map_or(lead, |_| lead + 1);
    if let Some(at) = text[body..].find('#') {
        return Err(ParseError::new(
            1,
            body + at + 1,
            ParseErrorKind::BadStatement {
                text: text.trim().to_string(),
                reason: "'#' opens a nested hypothesis in a chain line; a context is one \
                         position: join its statements with '+'"
                    .into(),
            },
        ));
    }
    let mut out: Vec<Statement> = Vec::new();
    let mut offset = 0;
    for part in text.split(['+', '#']) {
        let lead = part.len() - part.trim_start().len();
        let column = offset + lead + 1;
        offset += part.len() + 1;
        if part.trim().is_empty() {
            if offset == 1 && text.trim_start().starts_with('#') {
                continue; // a leading `#`
            }
            return Err(ParseError::new(
                1,
                column,
                ParseErrorKind::BadStatement {
                    text: text.trim().to_string(),
                    reason: "expected a statement like I8: 2,7 between '+' signs".into(),
                },
            ));
        }
        let s: Statement = part
            .trim()
            .parse()
            .map_err(|e: ParseError| e.shifted(column - 1))?;
        if out.iter().any(|o| o.cell == s.cell) {
            return Err(ParseError::new(
                1,
                column,
                ParseErrorKind::BadStatement {
                    text: part.trim().to_string(),
                    reason: format!("cell {} is named twice", s.cell),
                },
            ));
        }
        out.push(s);
    }
    Ok(out)
}

/// Applies a context to `grid`, refusing a statement that leaves its cell without a value (given
/// the puzzle's propagated candidates).
pub fn apply_context(grid: &Grid, context: &[Statement]) -> Result<Grid, ParseErrorKind> {
    let mut propagated = *grid;
    propagate(&mut propagated, &Profile::DEFAULT);
    let mut g = *grid;
    for s in context {
        let allowed = propagated.get(s.cell);
        if (allowed & s.values).is_empty() {
            return Err(ParseErrorKind::Other(format!(
                "{s}: cell {} cannot hold {} (it allows {})",
                s.cell,
                s.values,
                if allowed.is_empty() {
                    "nothing".to_string()
                } else {
                    allowed.to_string()
                }
            )));
        }
        s.apply(&mut g);
    }
    Ok(g)
}

#[cfg(test)]
mod tests;
