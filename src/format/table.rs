//! Tables with a puzzle column (TSV or CSV, with or without a header row): which column holds
//! the puzzle, and the label made of the other columns. The fields of each row come from the
//! caller (the binary reads them with the `csv` crate); this module only decides.

use super::{is_cell_char, line::parse_line, Puzzle};
use crate::error::{ParseError, ParseErrorKind};

/// Header names (compared without case) that mark the puzzle column.
pub const PUZZLE_COLUMN_NAMES: [&str; 5] = ["puzzle", "puzzles", "grid", "sudoku", "givens"];

/// The longest label kept (a longer one is cut).
const MAX_LABEL: usize = 1000;

/// How a table is read: its delimiter, its header (when the first row is one) and the puzzle
/// column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// `\t` or `,`.
    pub delimiter: u8,
    /// The column names, when the first row is a header.
    pub header: Option<Vec<String>>,
    /// The 0-based puzzle column.
    pub column: usize,
}

fn clean(field: &str) -> &str {
    let t = field.trim();
    t.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(t)
}

fn is_puzzle_field(field: &str) -> bool {
    let t = clean(field);
    t.chars().count() == 81 && t.chars().all(is_cell_char)
}

/// The fields of one table line: split at `delimiter`; for `,`, double-quoted fields (with `""`
/// for a quote) may hold commas.
pub fn split_fields(line: &str, delimiter: u8) -> Vec<String> {
    let d = delimiter as char;
    if d != ',' {
        return line.split(d).map(str::to_string).collect();
    }
    let mut out = Vec::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    let mut field = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' if quoted || field.trim().is_empty() => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

impl Table {
    /// Detects a table in `head`, the first complete lines of an input.
    ///
    /// A table's first content line holds a tab (TSV) or a comma (CSV). Its puzzle column is
    /// the one named `column` (a header name, or a 1-based number), else the first header
    /// field named like [`PUZZLE_COLUMN_NAMES`], else the column whose values in the following
    /// lines are 81-character puzzles (then the first line is a header unless it holds a puzzle
    /// there too). Tab-separated lines with the puzzle first and no header are not a table:
    /// [`parse_line`] reads them, the rest of the line being the label.
    ///
    /// Returns `Ok(None)` for no table, `Err` when `column` names no column.
    pub fn detect(head: &str, column: Option<&str>) -> Result<Option<Table>, String> {
        Self::detect_with(head, column, None)
    }

    /// [`Table::detect`] with the delimiter given (`--input-format tsv|csv`): always a table,
    /// column 0 when nothing else is found.
    pub fn detect_with(
        head: &str,
        column: Option<&str>,
        delimiter: Option<u8>,
    ) -> Result<Option<Table>, String> {
        let head = head.strip_prefix('\u{feff}').unwrap_or(head);
        let lines: Vec<&str> = head
            .lines()
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .take(20)
            .collect();
        let Some(first) = lines.first() else {
            return Ok(delimiter.map(|delimiter| Table {
                delimiter,
                header: None,
                column: 0,
            }));
        };
        let forced = delimiter.is_some();
        let delimiter = match delimiter {
            Some(d) => d,
            None if first.contains('\t') => b'\t',
            None if first.contains(',') => b',',
            None if column.is_some() => {
                return Err(
                    "--column: the input is not a table (no tab or comma in its first line)".into(),
                )
            }
            None => return Ok(None),
        };
        let split = |l: &str| -> Vec<String> {
            split_fields(l, delimiter)
                .iter()
                .map(|f| clean(f).to_string())
                .collect()
        };
        let names = split(first);
        let named = |want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
        if let Some(want) = column {
            if let Some(k) = named(want) {
                return Ok(Some(Table {
                    delimiter,
                    header: Some(names),
                    column: k,
                }));
            }
            return match want.parse::<usize>() {
                Ok(k) if k >= 1 => {
                    let header =
                        (!is_puzzle_field(names.get(k - 1).map_or("", |s| s))).then_some(names);
                    Ok(Some(Table {
                        delimiter,
                        header,
                        column: k - 1,
                    }))
                }
                _ => Err(format!(
                    "--column {want}: no such column (the first line has: {})",
                    names.join(", ")
                )),
            };
        }
        if let Some(k) = PUZZLE_COLUMN_NAMES.iter().find_map(|n| named(n)) {
            return Ok(Some(Table {
                delimiter,
                header: Some(names),
                column: k,
            }));
        }
        let rows: Vec<Vec<String>> = lines.iter().map(|l| split(l)).collect();
        let data = if rows.len() > 1 {
            &rows[1..]
        } else {
            &rows[..]
        };
        let width = data.iter().map(Vec::len).max().unwrap_or(0);
        let found = (0..width).find(|&k| {
            let hits = data
                .iter()
                .filter(|r| r.get(k).is_some_and(|f| is_puzzle_field(f)))
                .count();
            hits > 0 && hits * 2 >= data.len()
        });
        let header_row = |k: usize| {
            let puzzle_first = rows[0].get(k).is_some_and(|f| is_puzzle_field(f));
            (!puzzle_first).then(|| names.clone())
        };
        match found {
            Some(0) if delimiter == b'\t' && !forced && header_row(0).is_none() => Ok(None),
            Some(k) => Ok(Some(Table {
                delimiter,
                header: header_row(k),
                column: k,
            })),
            None if forced => Ok(Some(Table {
                delimiter,
                header: None,
                column: 0,
            })),
            None => Ok(None),
        }
    }

    /// The puzzle of one data row, at physical line `line_no`.
    ///
    /// Errors name the column in the line, counted over the unquoted fields before the puzzle
    /// (exact for TSV and for CSV without quotes). The label is the other non-empty columns:
    /// `name=value` pairs joined by `; ` when there is a header, else the values joined by `; `
    /// (after a comment that followed the puzzle in its own field, if any).
    pub fn puzzle(&self, fields: &[&str], line_no: usize) -> Result<Puzzle, ParseError> {
        let offset: usize = fields
            .iter()
            .take(self.column)
            .map(|f| f.chars().count() + 1)
            .sum();
        let Some(field) = fields.get(self.column) else {
            return Err(ParseError::new(
                line_no,
                offset + 1,
                ParseErrorKind::Other(format!(
                    "no puzzle column: the row has {} fields, the puzzle is field {}",
                    fields.len(),
                    self.column + 1
                )),
            ));
        };
        let mut puzzle = parse_line(field, line_no).map_err(|e| e.shifted(offset))?;
        let mut parts: Vec<String> = puzzle.label.take().into_iter().collect();
        for (k, f) in fields.iter().enumerate() {
            let f = f.trim();
            if k == self.column || f.is_empty() {
                continue;
            }
            match self.header.as_ref().and_then(|h| h.get(k)) {
                Some(name) if !name.is_empty() => parts.push(format!("{name}={f}")),
                _ => parts.push(f.to_string()),
            }
        }
        let label = parts.join("; ");
        puzzle.label = (!label.is_empty()).then(|| label.chars().take(MAX_LABEL).collect());
        Ok(puzzle)
    }
}
