//! Statements: a cell and the values it may hold, written `A2: 5,9` (spec §1).

use crate::error::{ParseError, ParseErrorKind};
use crate::grid::{Candidates, Cell, Digit, Grid};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A cell restricted to a set of values: `G1: 3,9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Statement {
    /// The cell.
    pub cell: Cell,
    /// The values it may hold (never empty in a parsed statement).
    pub values: Candidates,
}

impl Statement {
    /// The statement `cell: values`.
    pub fn new(cell: Cell, values: Candidates) -> Self {
        Statement { cell, values }
    }

    /// Applies the statement to `grid`: intersects the cell's candidates with the values.
    pub fn apply(&self, grid: &mut Grid) {
        grid.restrict(self.cell, self.values);
    }

    /// Whether the statement is true for `solution` (the solution's value is in the list).
    pub fn holds_in(&self, solution: &Grid) -> bool {
        solution.get(self.cell).is_subset_of(self.values)
    }

    /// The same statement with the digits renamed (`map[d-1]` is the new name of `d`).
    pub fn relabel(&self, map: &[Digit; 9]) -> Statement {
        Statement::new(self.cell, self.values.relabel(map))
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.cell, self.values)
    }
}

impl FromStr for Statement {
    type Err = ParseError;

    /// Parses `A2: 5,9` (spaces around `:` and `,` are tolerated). Columns in errors are
    /// 1-based within `s`.
    fn from_str(s: &str) -> Result<Statement, ParseError> {
        let bad = |column: usize, reason: &str| {
            ParseError::new(
                1,
                column,
                ParseErrorKind::BadStatement {
                    text: s.trim().to_string(),
                    reason: reason.to_string(),
                },
            )
        };
        let lead = s.len() - s.trim_start().len();
        let Some((name, list)) = s.split_once(':') else {
            return Err(bad(lead + 1, "expected CELL: VALUES, like A2: 5,9"));
        };
        let cell: Cell = name
            .trim()
            .parse()
            .map_err(|_| bad(lead + 1, "expected a cell name A1..I9 before ':'"))?;
        let mut values = Candidates::NONE;
        let mut offset = name.len() + 1;
        for part in list.split(',') {
            let trimmed = part.trim();
            let col = offset + (part.len() - part.trim_start().len()) + 1;
            let mut chars = trimmed.chars();
            let digit = match (chars.next(), chars.next()) {
                (Some(c), None) => Digit::from_char(c),
                _ => None,
            };
            let Some(d) = digit else {
                return Err(bad(col, "expected values 1-9 separated by commas"));
            };
            if values.contains(d) {
                return Err(bad(col, "value listed twice"));
            }
            values |= Candidates::single(d);
            offset += part.len() + 1;
        }
        Ok(Statement::new(cell, values))
    }
}

impl Serialize for Statement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Statement {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for text in ["A2: 5,9", "B1: 6", "G1: 1,5,6", "I9: 1,2,3,4,5,6,7,8,9"] {
            let s: Statement = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
        }
    }

    #[test]
    fn values_are_sorted_when_printed() {
        let s: Statement = "A2: 9,3".parse().unwrap();
        assert_eq!(s.to_string(), "A2: 3,9");
    }

    #[test]
    fn errors_name_the_column() {
        let e = "A2: 5,x".parse::<Statement>().unwrap_err();
        assert_eq!(e.column, 7);
        let e = "Z2: 5".parse::<Statement>().unwrap_err();
        assert_eq!(e.column, 1);
        assert!("A2 5".parse::<Statement>().is_err());
        assert!("A2: 5,5".parse::<Statement>().is_err());
        assert!("A2:".parse::<Statement>().is_err());
    }
}
