//! # hdp — why is this Sudoku hard?
//!
//! `hdp` finds a Hypothesis/Disproof/Proof (HDP) chain for a puzzle with a breadth-first,
//! lookahead-1 pair-reduction engine, classifies puzzles by the reduction depth they need, and
//! draws decision trees and grids. The method is specified in `hdp-method.md`; module docs cite
//! its sections.
//!
//! # Quick start
//!
//! ```
//! use hdp::engine::{Analysis, Options, Status};
//! use hdp::Grid;
//!
//! let puzzle: Grid =
//!     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
//!         .parse()?;
//! let analysis = Analysis::run(&puzzle, &Options::default());
//! assert_eq!(analysis.status, Status::Solved);
//! assert_eq!(analysis.depth, Some(2)); // deep pair reduction
//! print!("{}", analysis.summary()); // DIS # I8: 3,9 # B1: 1,2 => CTR => B1: 6 ...
//! # Ok::<(), hdp::ParseError>(())
//! ```
//!
//! Classify with [`classify::classify`], read other formats with [`format::parse_puzzles`],
//! parse chains back with `str::parse::<chain::Chain>()`, and get the decision tree (petgraph)
//! with [`engine::Recording::ChainAndTree`].
//!
//! # Features
//!
//! `render` (default) adds the `render` module (SVG pictures and HTML reports, with askama and
//! svg); `cli` (default) builds the `hdp` binary. Without default features the library needs only
//! petgraph, serde and thiserror.
#![warn(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub(crate) mod bits;
pub mod canon;
pub mod chain;
pub mod classify;
pub mod decision;
pub mod derivation;
pub mod engine;
pub mod error;
pub mod explain;
pub mod format;
pub mod generate;
pub mod givens;
pub mod grid;
pub mod hint;
pub mod minimal;
pub mod propagate;
pub mod records;
#[cfg(feature = "render")]
pub mod render;
pub mod settings;
pub mod solver;
pub mod statement;
pub mod study;
pub mod tree;

#[cfg(test)]
mod testing;

pub use error::{ParseError, ParseErrorKind};
pub use grid::{Candidates, Cell, CellSet, Digit, Grid, Unit, UnitKind};
pub use statement::Statement;
