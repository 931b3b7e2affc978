//! The 81-character line: `1-9` givens, `.` `0` `*` `_` empty, then optionally whitespace and a
//! comment or rating (kept as the label). A 729-character word is a pencil-mark line instead
//! (`pencil::parse_pencil_line`).

use super::pencil::{parse_pencil_line, PENCIL_LINE_LEN};
use super::{check_givens, is_empty_mark, Puzzle};
use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Cell, Digit, Grid};

/// The longest label kept (a longer comment is cut).
const MAX_LABEL: usize = 1000;

/// Parses an 81-character puzzle line (`1-9` givens; `.`, `0`, `*`, `_` empty), as
/// [`parse_line`] does. (Here, beside the parser, so that `grid` needs no format.)
impl std::str::FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Grid, Self::Err> {
        parse_line(s, 1).map(|p| p.grid)
    }
}

/// Reads one puzzle line; `line_no` (1-based) goes into the puzzle and into errors.
pub fn parse_line(text: &str, line_no: usize) -> Result<Puzzle, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.trim_end_matches(['\r', '\n']);
    let lead = text.chars().take_while(|c| c.is_whitespace()).count();
    // A word of 729 characters is a pencil-mark line.
    if text
        .chars()
        .skip(lead)
        .take_while(|c| !c.is_whitespace())
        .take(PENCIL_LINE_LEN + 1)
        .count()
        == PENCIL_LINE_LEN
    {
        return parse_pencil_line(text, line_no);
    }
    let mut values = [None; 81];
    let mut n = 0;
    let mut rest_start = None;
    for (i, c) in text.chars().enumerate().skip(lead) {
        let column = i + 1;
        if c.is_whitespace() {
            rest_start = Some(i);
            break;
        }
        if n == 81 {
            return Err(ParseError::new(
                line_no,
                column,
                ParseErrorKind::WrongLength {
                    found: 81
                        + text
                            .chars()
                            .skip(i)
                            .take_while(|c| !c.is_whitespace())
                            .count(),
                },
            ));
        }
        values[n] = if is_empty_mark(c) {
            None
        } else if let Some(d) = Digit::from_char(c) {
            Some(d)
        } else {
            return Err(ParseError::new(
                line_no,
                column,
                ParseErrorKind::BadCharacter {
                    found: c,
                    expected: "a digit 1-9 or an empty-cell mark . 0 * _",
                },
            ));
        };
        n += 1;
    }
    if n == 0 {
        return Err(ParseError::new(line_no, lead + 1, ParseErrorKind::Empty));
    }
    if n < 81 {
        return Err(ParseError::new(
            line_no,
            lead + n + 1,
            ParseErrorKind::WrongLength { found: n },
        ));
    }
    let grid = Grid::from_values(&values);
    if let Err(kind) = check_givens(&grid) {
        let column = match &kind {
            ParseErrorKind::DuplicateGiven { second, .. } => second
                .parse::<Cell>()
                .map(|c| lead + c.index() + 1)
                .unwrap_or(lead + 1),
            _ => lead + 1,
        };
        return Err(ParseError::new(line_no, column, kind));
    }
    let label = rest_start.and_then(|i| {
        let rest: String = text.chars().skip(i).take(MAX_LABEL + 64).collect();
        let rest = rest.trim();
        (!rest.is_empty()).then(|| rest.chars().take(MAX_LABEL).collect())
    });
    Ok(Puzzle {
        grid,
        label,
        line: line_no,
    })
}
