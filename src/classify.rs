//! Classification by reduction depth (spec §6): solution count, the level (from the depth with
//! the source's method, `pairs`, which is invariant under every symmetry of the grid with the
//! synchronous schedule), the depth with the configured decisions beside it, and the effort
//! figures of each run.

use crate::decision::DecisionKinds;
use crate::engine::{Analysis, Budget, Limit, Options, Recording, Shared, Spare, Status};
use crate::format::Puzzle;
use crate::grid::Grid;
use crate::propagate::{propagate, Outcome, Profile};
use crate::solver::{solve_within, Solutions, SolveLimits, Stop};
use crate::ParseError;
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
    /// Pair reduction solves it (depth 1).
    Medium,
    /// Deep pair reduction is needed (depth 2).
    Hard,
    /// Very deep pair reduction is needed (depth 3).
    Deep,
    /// Depth 4 or more.
    Extreme,
    /// A limit (depth, budget, time) stopped the analysis first.
    Unsolved,
}

impl Level {
    /// All levels, easiest first.
    pub const ALL: [Level; 7] = [
        Level::Trivial,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Deep,
        Level::Extreme,
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
            Level::Extreme => "extreme",
            Level::Unsolved => "unsolved",
        }
    }

    /// The level of a puzzle whose depth is `depth` (`None`: unsolved); `singles_solve` says
    /// whether naked and hidden singles alone solve it.
    pub fn from_depth(depth: Option<u8>, singles_solve: bool) -> Level {
        match depth {
            Some(0) if singles_solve => Level::Trivial,
            Some(0) => Level::Easy,
            Some(1) => Level::Medium,
            Some(2) => Level::Hard,
            Some(3) => Level::Deep,
            Some(_) => Level::Extreme,
            None => Level::Unsolved,
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
    /// The engine settings of the `depth` run (decisions, profile, proof, schedule, depth limit,
    /// budget). The level run uses the same settings with `pairs` decisions.
    pub engine: Options,
    /// Derive the level from a run with the source's method (`pairs`, spec §6); off for the
    /// trial-and-error depth, whose level comes from `depth`.
    pub level_from_pairs: bool,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions {
            engine: Options {
                recording: Recording::Off,
                max_depth: DEFAULT_MAX_DEPTH,
                budget: Budget {
                    max_tests: Some(DEFAULT_BUDGET),
                    deadline: None,
                },
                ..Options::default()
            },
            level_from_pairs: true,
        }
    }
}

/// The default depth limit of classification, chosen by measurement (`analyses/levels.md`): no
/// puzzle of the hardest collections needs more than 4, and the few that need 4 (`extreme`)
/// cost a few thousand tests.
pub const DEFAULT_MAX_DEPTH: u8 = 4;

/// The default branch-test budget of one classification run: 50 times the most any puzzle of
/// the hardest collections needed (18,400), so that no input can run for long.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

impl ClassifyOptions {
    /// The trial-and-error depth of the literature (`--te`): candidate decisions, singles,
    /// contradictions only; the level comes from that depth.
    pub fn trial_and_error() -> ClassifyOptions {
        ClassifyOptions {
            engine: Options {
                recording: Recording::Off,
                ..Options::trial_and_error()
            },
            level_from_pairs: false,
        }
    }
}

/// The effort of one engine run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Effort {
    /// Branch tests made.
    pub tests: u64,
    /// Hypotheses opened.
    pub hypotheses: u64,
    /// Facts found, at every level.
    pub facts: u64,
}

/// The classification of one puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Classification {
    /// 0, 1, or 2 (several); `None` when the solver stopped at a limit before it knew (`limit`
    /// says which, the level is `unsolved`).
    pub solutions: Option<u8>,
    /// The level: from `depth_pairs` (or, for trial and error, from `depth`).
    pub level: Option<Level>,
    /// Reduction depth with the source's method (`pairs`); `None` if not solved within the
    /// limits or not computed.
    pub depth_pairs: Option<u8>,
    /// In the `pairs` run: the nesting levels (1 = top-level decisions) at which constraint
    /// pairs were needed because no cell pair was left.
    pub constraint_levels: Vec<u8>,
    /// The effort of the `pairs` run (zero when it is the same run as `depth`'s).
    pub pairs_effort: Effort,
    /// Reduction depth with the configured decisions; `None` if not solved within the limits.
    pub depth: Option<u8>,
    /// The effort of the `depth` run: the same figures `hdp chain` reports with the same options.
    pub effort: Effort,
    /// Which limit stopped a run, if one did (the level is then `unsolved` if it was the level's).
    pub limit: Option<Limit>,
}

impl Classification {
    /// The classification of a puzzle that is not analysed, from its solution count: none or
    /// several solutions (no level), or a count that `stop` interrupted (unknown count, level
    /// `unsolved`, the limit says which). With one solution, the start of a classification.
    pub fn without_analysis(count: &Result<Solutions, Stop>) -> Classification {
        let mut c = Classification {
            solutions: count.as_ref().ok().map(Solutions::count),
            level: None,
            depth_pairs: None,
            constraint_levels: Vec::new(),
            pairs_effort: Effort::default(),
            depth: None,
            effort: Effort::default(),
            limit: None,
        };
        if let Err(stop) = count {
            c.limit = Some((*stop).into());
            c.level = Some(Level::Unsolved);
        }
        c
    }
}

fn depth_of(a: &Analysis) -> Option<u8> {
    match a.status {
        Status::Solved => a.depth,
        _ => None,
    }
}

fn effort(a: &Analysis) -> Effort {
    Effort {
        tests: a.counters.tests,
        hypotheses: a.counters.hypotheses,
        facts: a.counters.facts,
    }
}

fn limit(a: &Analysis) -> Option<Limit> {
    match a.status {
        Status::Unsolved(l) => Some(l),
        _ => None,
    }
}

/// Classifies `grid`. Puzzles without exactly one solution get no depth and no level.
pub fn classify(grid: &Grid, options: &ClassifyOptions) -> Classification {
    let count = solve_within(grid, SolveLimits::until(options.engine.budget.deadline));
    let mut c = Classification::without_analysis(&count);
    let Ok(Solutions::Unique(solution)) = count else {
        return c;
    };
    let mut singles = *grid;
    let singles_solve = propagate(&mut singles, &Profile::SINGLES) == Outcome::Solved;
    // The two runs share their depth-1 results (see `Shared`), in this thread's buffers.
    let mut shared = Shared::spare();
    let main = Analysis::run_unique(grid, &solution, &options.engine, &mut shared);
    c.depth = depth_of(&main);
    c.effort = effort(&main);
    c.limit = limit(&main);
    let level_depth = if !options.level_from_pairs {
        c.depth
    } else if options.engine.decisions == DecisionKinds::PAIRS {
        c.depth_pairs = c.depth;
        c.constraint_levels = main.constraint_levels;
        c.depth
    } else if c.depth == Some(0) {
        c.depth_pairs = Some(0);
        c.depth
    } else {
        let pairs = Analysis::run_unique(
            grid,
            &solution,
            &Options {
                decisions: DecisionKinds::PAIRS,
                ..options.engine
            },
            &mut shared,
        );
        c.depth_pairs = depth_of(&pairs);
        c.constraint_levels = pairs.constraint_levels.clone();
        c.pairs_effort = effort(&pairs);
        if let Some(l) = limit(&pairs) {
            c.limit = Some(l);
        }
        c.depth_pairs
    };
    c.level = Some(Level::from_depth(level_depth, singles_solve));
    shared.give_back();
    c
}

/// The record of one puzzle line, as `hdp classify` writes it and the Python package returns it:
/// its fields, in order, are the TSV columns (the header is their names) and the JSON Lines keys
/// after `schema` and `source`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The puzzle's 1-based line within its source.
    pub line: usize,
    /// The puzzle, 81 characters (for a bad line, its first 81 characters).
    pub puzzle: String,
    /// The label: the line's comment, or a table's other columns.
    pub label: String,
    /// 0, 1, or 2 for two or more; empty when a limit stopped the solver.
    pub solutions: Option<u8>,
    /// The level, from `depth_pairs`.
    pub level: Option<Level>,
    /// The depth with cell pairs (constraint pairs where none is left).
    pub depth_pairs: Option<u8>,
    /// The nesting levels where constraint pairs decided something, comma-separated.
    pub constraint_levels: String,
    /// The branch tests of the level run; empty when it did not run (`--te`, a bad line).
    pub pairs_tests: Option<u64>,
    /// The depth with the configured decisions.
    pub depth: Option<u8>,
    /// The configured decisions.
    pub decisions: String,
    /// The propagation profile.
    pub profile: String,
    /// The schedule.
    pub schedule: String,
    /// The branch tests of the `depth` run.
    pub tests: u64,
    /// The hypotheses (tests at depth 2 or more) of the `depth` run.
    pub hypotheses: u64,
    /// The facts of the `depth` run.
    pub facts: u64,
    /// The limit that stopped the analysis, if one did.
    pub limit: Option<Limit>,
    /// Microseconds spent (left out by `--no-timing`).
    pub micros: Option<u64>,
    /// Why the line has no level: it did not parse, or the puzzle has no unique solution.
    pub error: Option<String>,
    /// Only when asked for (`classify --proof-size`): the moves of all derivations of the
    /// minimal contradiction proof (spec §10), inside: empty when there is none within the limits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_moves: Option<Option<usize>>,
    /// Only when asked for: the lines of that proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_lines: Option<Option<usize>>,
}

impl Record {
    /// A record with no result yet: only the line and the settings' names.
    pub fn empty(line: usize, options: &ClassifyOptions) -> Record {
        Record {
            line,
            puzzle: String::new(),
            label: String::new(),
            solutions: None,
            level: None,
            depth_pairs: None,
            constraint_levels: String::new(),
            pairs_tests: None,
            depth: None,
            decisions: options.engine.decisions.to_string(),
            profile: options.engine.profile.to_string(),
            schedule: options.engine.schedule.to_string(),
            tests: 0,
            hypotheses: 0,
            facts: 0,
            limit: None,
            micros: None,
            error: None,
            proof_moves: None,
            proof_lines: None,
        }
    }

    /// The record with the proof-size fields filled in (`classify --proof-size`): computed for
    /// a puzzle with one solution, present but empty otherwise.
    pub fn with_proof_size(mut self, grid: &crate::Grid, options: &ClassifyOptions) -> Record {
        let size = (self.solutions == Some(1))
            .then(|| crate::derivation::proof_size(grid, &options.engine))
            .flatten();
        self.proof_moves = Some(size.map(|s| s.moves));
        self.proof_lines = Some(size.map(|s| s.lines));
        self
    }

    /// The record of a line that did not parse: `raw` is its text, `error` why.
    pub fn bad(line: usize, raw: String, error: &ParseError, options: &ClassifyOptions) -> Record {
        Record {
            puzzle: raw,
            error: Some(error.to_string()),
            ..Record::empty(line, options)
        }
    }

    /// Classifies `puzzle` (read from `line`) into a record. `micros` stays empty: timing is the
    /// caller's (the library reads no clock).
    pub fn of(line: usize, puzzle: &Puzzle, options: &ClassifyOptions) -> Record {
        let c = classify(&puzzle.grid, options);
        Record {
            label: puzzle.label.clone().unwrap_or_default(),
            ..Record::classified(line, &puzzle.grid, &c, options)
        }
    }

    /// The record of `grid` from its classification `c` (made with `options`), without a label.
    pub fn classified(
        line: usize,
        grid: &Grid,
        c: &Classification,
        options: &ClassifyOptions,
    ) -> Record {
        let mut record = Record {
            puzzle: grid.to_line(),
            solutions: c.solutions,
            level: c.level,
            depth_pairs: c.depth_pairs,
            constraint_levels: c
                .constraint_levels
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(","),
            pairs_tests: (c.depth_pairs.is_some() || c.pairs_effort.tests > 0)
                .then_some(c.pairs_effort.tests),
            depth: c.depth,
            tests: c.effort.tests,
            hypotheses: c.effort.hypotheses,
            facts: c.effort.facts,
            limit: c.limit,
            ..Record::empty(line, options)
        };
        match c.solutions {
            // A solver stopped by a limit is not "no solution": the count stays empty, the
            // record's limit says which.
            Some(0) => record.error = Some("no solution".into()),
            Some(2) => record.error = Some("several solutions".into()),
            _ => {}
        }
        record
    }
}
