//! # hdp — why is this Sudoku hard?
//!
//! `hdp` finds a Hypothesis/Disproof/Proof (HDP) chain for a puzzle with a breadth-first,
//! lookahead-1 pair-reduction engine, classifies puzzles by the reduction depth they need, and
//! draws decision trees and grids. The method is specified in `hdp-method.md`; module docs cite
//! its sections.
#![warn(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod chain;
pub mod classify;
pub mod decision;
pub mod engine;
pub mod error;
pub mod format;
pub mod grid;
pub mod propagate;
pub mod solver;
pub mod statement;
pub mod tree;

pub use error::{ParseError, ParseErrorKind};
pub use grid::{Candidates, Cell, CellSet, Digit, Grid, Unit, UnitKind};
pub use statement::Statement;
