//! Classification by reduction depth (spec §6): solution count, depth with both decision kinds,
//! depth with cell pairs only, the level, and the effort figures.

use crate::decision::DecisionKinds;
use crate::engine::{Analysis, Options, Recording, Status};
use crate::grid::Grid;
use crate::propagate::{propagate, Outcome, Profile};
use crate::solver::{solve_within, Solutions, SolveLimits};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A puzzle's level, named after the source author's published analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Naked and hidden singles alone solve it.
    Trivial,
    /// The full propagation profile solves it (depth 0).
    Easy,
    /// Pair reduction solves it (cell-pair depth 1).
    Medium,
    /// Deep pair reduction is needed (cell-pair depth 2).
    Hard,
    /// Very deep pair reduction is needed (cell-pair depth 3).
    Deep,
    /// Not solved within the depth limit or budget.
    Unsolved,
}

impl Level {
    /// All levels, easiest first.
    pub const ALL: [Level; 6] = [
        Level::Trivial,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Deep,
        Level::Unsolved,
    ];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Trivial => "trivial",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Deep => "deep",
            Level::Unsolved => "unsolved",
        }
    }

    /// The level of a puzzle whose cell-pair depth is `depth` (`None`: unsolved); `trivial`
    /// says whether singles alone solve it.
    pub fn from_depth(depth: Option<u8>, singles_solve: bool) -> Level {
        match depth {
            Some(0) if singles_solve => Level::Trivial,
            Some(0) => Level::Easy,
            Some(1) => Level::Medium,
            Some(2) => Level::Hard,
            Some(3) => Level::Deep,
            _ => Level::Unsolved,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .iter()
            .copied()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown level {s:?}"))
    }
}

/// How to classify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifyOptions {
    /// The engine settings for the `depth` run (decisions, profile, proof, depth limit, budget).
    pub engine: Options,
    /// Also compute the cell-pair-only depth and derive the level from it (spec §6).
    pub cell_depth: bool,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions {
            engine: Options {
                recording: Recording::Off,
                ..Options::default()
            },
            cell_depth: true,
        }
    }
}

impl ClassifyOptions {
    /// The trial-and-error depth of the literature (`--te`): candidate decisions, singles,
    /// contradictions only; no cell-pair run.
    pub fn trial_and_error() -> ClassifyOptions {
        ClassifyOptions {
            engine: Options {
                recording: Recording::Off,
                ..Options::trial_and_error()
            },
            cell_depth: false,
        }
    }
}

/// The classification of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Classification {
    /// 0, 1, or 2 (several); 0 too when the solver stopped at a limit (`limit` is set, the
    /// level is `unsolved`).
    pub solutions: u8,
    /// Reduction depth with the configured decisions; `None` if not solved within the limits.
    pub depth: Option<u8>,
    /// Reduction depth with cell pairs only (when computed).
    pub depth_cell: Option<u8>,
    /// The level (from the cell-pair depth, or from `depth` when that was not computed).
    pub level: Option<Level>,
    /// Branch tests made, over all runs.
    pub tests: u64,
    /// Hypotheses opened, over all runs.
    pub hypotheses: u64,
    /// Facts found, over all runs.
    pub facts: u64,
    /// Why a run stopped unsolved, if it did.
    pub limit: Option<crate::engine::Limit>,
}

fn depth_of(a: &Analysis) -> Option<u8> {
    match a.status {
        Status::Solved => a.depth,
        _ => None,
    }
}

/// Classifies `grid`. Puzzles without exactly one solution get no depth and no level.
pub fn classify(grid: &Grid, options: &ClassifyOptions) -> Classification {
    let mut c = Classification {
        solutions: 0,
        depth: None,
        depth_cell: None,
        level: None,
        tests: 0,
        hypotheses: 0,
        facts: 0,
        limit: None,
    };
    match solve_within(grid, SolveLimits::until(options.engine.budget.deadline)) {
        Ok(Solutions::None) => return c,
        Ok(Solutions::Multiple(_)) => {
            c.solutions = 2;
            return c;
        }
        Ok(Solutions::Unique(_)) => c.solutions = 1,
        Err(stop) => {
            // The count is unknown: no depth, level `unsolved`, and the limit says why.
            c.limit = Some(stop.into());
            c.level = Some(Level::Unsolved);
            return c;
        }
    }
    let mut singles = *grid;
    let singles_solve = propagate(&mut singles, &Profile::SINGLES) == Outcome::Solved;
    let add = |c: &mut Classification, a: &Analysis| {
        c.tests += a.counters.tests;
        c.hypotheses += a.counters.hypotheses;
        c.facts += a.counters.facts;
        if let Status::Unsolved(l) = a.status {
            c.limit.get_or_insert(l);
        }
    };
    let main = Analysis::run_unique(grid, &options.engine);
    add(&mut c, &main);
    c.depth = depth_of(&main);
    if options.cell_depth && options.engine.decisions != DecisionKinds::CELL {
        c.depth_cell = if c.depth == Some(0) {
            Some(0)
        } else {
            let cell = Analysis::run_unique(
                grid,
                &Options {
                    decisions: DecisionKinds::CELL,
                    ..options.engine
                },
            );
            add(&mut c, &cell);
            depth_of(&cell)
        };
    } else if options.cell_depth {
        c.depth_cell = c.depth;
    }
    let level_depth = if options.cell_depth {
        c.depth_cell
    } else {
        c.depth
    };
    c.level = Some(Level::from_depth(level_depth, singles_solve));
    c
}
