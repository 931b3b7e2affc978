//! Pencil-mark grids: 81 groups of candidate digits, with or without separators, as HoDoKu and
//! Sudoku Explainer print them.

use super::{numbered_lines, Puzzle};
use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Candidates, Cell, Digit, Grid};

/// The groups of digits 1-9 in `text` (outside `#` lines), with line and column.
fn groups(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (n, line) in numbered_lines(text) {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut current = String::new();
        let mut col = 0;
        for (i, c) in line.chars().chain(std::iter::once(' ')).enumerate() {
            if ('1'..='9').contains(&c) {
                if current.is_empty() {
                    col = i + 1;
                }
                current.push(c);
            } else if !current.is_empty() {
                out.push((std::mem::take(&mut current), n, col));
            }
            if out.len() > 81 {
                return out;
            }
        }
    }
    out
}

/// Whether `text` looks like a pencil-mark grid: about 81 digit groups (a few missing or too
/// many, so that the reader names the row), some with several digits. (Givens rarely make 60
/// groups: a 9-line grid of a puzzle has far fewer.)
pub(super) fn looks_like_pencil(text: &str) -> bool {
    let g = groups(text);
    (72..=82).contains(&g.len()) && g.iter().filter(|(s, _, _)| s.len() > 1).count() >= 9
}

/// Where a pencil-mark grid's groups are not 9 per row: the line of the first row that holds
/// another number, its row number and its count, when the groups lie on 9 lines.
fn short_row(g: &[(String, usize, usize)]) -> Option<(usize, usize, usize)> {
    let mut rows: Vec<(usize, usize)> = Vec::new();
    for (_, line, _) in g {
        match rows.last_mut() {
            Some((l, n)) if l == line => *n += 1,
            _ => rows.push((*line, 1)),
        }
    }
    if rows.len() != 9 {
        return None;
    }
    rows.iter()
        .enumerate()
        .find(|(_, (_, n))| *n != 9)
        .map(|(r, &(line, n))| (line, r + 1, n))
}

/// Reads a pencil-mark grid.
pub(super) fn parse_pencil(text: &str) -> Result<Puzzle, ParseError> {
    let g = groups(text);
    if let Some((line, row, n)) = short_row(&g).filter(|_| g.len() != 81) {
        return Err(ParseError::new(
            line,
            1,
            ParseErrorKind::Other(format!(
                "a pencil-mark grid needs 9 groups of candidates in each row: row {row} has {n}"
            )),
        ));
    }
    if g.len() != 81 {
        let (line, column) = g.get(81).map_or((1, 1), |(_, l, c)| (*l, *c));
        return Err(ParseError::new(
            line,
            column,
            ParseErrorKind::Other(format!(
                "a pencil-mark grid needs 81 groups of candidates, found {}",
                if g.len() > 81 {
                    "more".to_string()
                } else {
                    g.len().to_string()
                }
            )),
        ));
    }
    let mut grid = Grid::empty();
    for (cell, (digits, line, column)) in Cell::all().zip(&g) {
        let mut c = Candidates::NONE;
        for ch in digits.chars() {
            let d = Digit::from_char(ch).ok_or_else(|| {
                ParseError::new(
                    *line,
                    *column,
                    ParseErrorKind::BadCharacter {
                        found: ch,
                        expected: "a digit 1-9",
                    },
                )
            })?;
            if c.contains(d) {
                return Err(ParseError::new(
                    *line,
                    *column,
                    ParseErrorKind::Other(format!("candidate {d} listed twice for {cell}")),
                ));
            }
            c |= Candidates::single(d);
        }
        grid.set(cell, c);
    }
    Ok(Puzzle {
        grid,
        label: None,
        line: g.first().map_or(1, |(_, l, _)| *l),
    })
}

/// The pencil-mark grid of `grid`: each cell's candidates, columns padded per grid column, `|`
/// between boxes, a rule between bands. An empty cell prints as `-` (read back as no group, so
/// such a grid does not round-trip).
pub fn to_pencil(grid: &Grid) -> String {
    let text = |c: Cell| {
        let s = grid.get(c).to_digit_string();
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    };
    let widths: Vec<usize> = (0..9)
        .map(|col| {
            (0..9)
                .map(|row| text(Cell::from_row_col(row, col)).len())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let mut rule = String::new();
    for b in 0..3 {
        if b > 0 {
            rule.push('+');
        }
        let w: usize = widths[b * 3..b * 3 + 3].iter().sum::<usize>() + 4;
        rule.push_str(&"-".repeat(w));
    }
    let mut out = String::new();
    for row in 0..9 {
        if row == 3 || row == 6 {
            out.push_str(&rule);
            out.push('\n');
        }
        let mut line = String::new();
        for (col, width) in widths.iter().enumerate() {
            if col == 3 || col == 6 {
                line.push_str("| ");
            } else if col == 0 {
                line.push(' ');
            }
            let s = text(Cell::from_row_col(row, col));
            line.push_str(&format!("{s:<width$} "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
