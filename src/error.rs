//! Parse errors that name the line and column of the offending input.

use std::fmt;

/// What was wrong with a piece of input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A puzzle had the wrong number of cells.
    #[error("expected 81 cells, found {found}")]
    WrongLength {
        /// How many cells were found.
        found: usize,
    },
    /// A character that is neither a value, an empty-cell mark nor a separator.
    #[error("unexpected character {found:?}, expected {expected}")]
    BadCharacter {
        /// The character found.
        found: char,
        /// What would have been accepted there.
        expected: &'static str,
    },
    /// Two equal givens in one unit.
    #[error("duplicate given {digit} in {unit} (cells {first} and {second})")]
    DuplicateGiven {
        /// The repeated digit.
        digit: u8,
        /// The unit, e.g. `row 3`.
        unit: String,
        /// The first cell holding it.
        first: String,
        /// The second cell holding it.
        second: String,
    },
    /// A statement, context or chain line that does not follow the notation.
    #[error("bad statement {text:?}: {reason}")]
    BadStatement {
        /// The offending text.
        text: String,
        /// What was expected.
        reason: String,
    },
    /// The input held no puzzle at all.
    #[error("no puzzle found")]
    Empty,
    /// Anything else, described in words.
    #[error("{0}")]
    Other(String),
}

/// A parse error at a 1-based line and column of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// An error of `kind` at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize, kind: ParseErrorKind) -> Self {
        ParseError { line, column, kind }
    }

    /// The same error moved to another line (for text parsed out of a larger input).
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }

    /// The same error shifted right by `offset` columns.
    pub fn shifted(mut self, offset: usize) -> Self {
        self.column += offset;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for ParseError {}
