//! The engine (spec §5, §6): breadth-first, lookahead-1 pair reduction with restart.
//!
//! [`Analysis::run`] checks the solution count with the exact solver, propagates the puzzle and
//! runs `closure(·, max_depth)`, recording the chain lines and, if asked, the decision tree. The
//! engine does no I/O; its only contact with the clock is the optional deadline it is given.

mod boards;
mod end_pool;
mod json;
mod keys;
mod known_open;
mod memo;
mod pair_analysis;
mod pair_table;
mod reuse;
mod search;
mod shared;
mod shortcuts;
mod spares;
mod trace;

pub use json::{AnalysisRecord, OptionsRecord};
pub use pair_analysis::{pair_analysis_tree, BranchOutcome, DecisionResult, PairAnalysis};
pub(crate) use shared::Shared;
pub use shortcuts::Shortcuts;
pub(crate) use spares::Spare;
pub use trace::TracedLine;

use crate::chain::{Chain, ChainLine, Context, Count, LineResult, Marker};
use crate::decision::DecisionKinds;
use crate::grid::Grid;
use crate::propagate::{propagate, Outcome, Profile};
use crate::solver::{solve_within, Solutions, SolveLimits, Stop};
use crate::statement::Statement;
use crate::tree::Tree;
use serde::Serialize;
use std::fmt;
use std::time::Instant;

/// What counts as proof (spec §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Proof {
    /// A branch that reaches the solution proves it (the HDP method).
    #[default]
    Solution,
    /// Only contradictions prove anything (trial and error of the literature).
    Contradiction,
}

/// How hypotheses are walked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Walk {
    /// Breadth-first with lookahead 1 and restart (the method).
    #[default]
    BreadthFirst,
    /// Follow each hypothesis down before trying the others (the comparison walk).
    DepthFirst,
}

/// When the facts found in a pass are applied (spec §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// A pass tests every decision against the same state, then applies all the facts it
    /// found and restarts: the result is a property of the puzzle, the same in every
    /// orientation and labelling of the grid.
    #[default]
    Synchronous,
    /// The first fact found is applied at once and the pass restarts (the source's own tool);
    /// the depth can depend on the grid's orientation.
    Sequential,
}

impl Schedule {
    /// The schedule's name.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Synchronous => "synchronous",
            Schedule::Sequential => "sequential",
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the engine records while it works.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Recording {
    /// Nothing but the counters and the result (fastest; for classification).
    Off,
    /// The chain lines with their positions.
    #[default]
    Chain,
    /// The chain lines and the decision tree.
    ChainAndTree,
}

/// Limits on the work of one analysis. Exceeding one ends the analysis with `UNS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The most branch tests.
    pub max_tests: Option<u64>,
    /// The moment to give up.
    pub deadline: Option<Instant>,
}

/// The engine's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The deepest test (`k` of `closure`); 3 by default.
    pub max_depth: u8,
    /// Which decisions are tried.
    pub decisions: DecisionKinds,
    /// The propagation rules.
    pub profile: Profile,
    /// What counts as proof.
    pub proof: Proof,
    /// Breadth-first or depth-first.
    pub walk: Walk,
    /// When the facts of a pass are applied.
    pub schedule: Schedule,
    /// Work limits.
    pub budget: Budget,
    /// What is recorded.
    pub recording: Recording,
    /// The most tree nodes recorded (the analysis goes on past it; the tree is marked truncated).
    pub max_tree_nodes: usize,
    /// The caches and shortcuts the search may take (a recorded run keeps only those it can
    /// show, see [`Shortcuts::for_recording`]); they change no result.
    pub shortcuts: Shortcuts,
}

/// The default depth limit of an analysis (spec §5).
pub const DEFAULT_MAX_DEPTH: u8 = 3;

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: DEFAULT_MAX_DEPTH,
            decisions: DecisionKinds::BOTH,
            profile: Profile::DEFAULT,
            proof: Proof::Solution,
            walk: Walk::BreadthFirst,
            schedule: Schedule::Synchronous,
            budget: Budget::default(),
            recording: Recording::Chain,
            max_tree_nodes: 200_000,
            shortcuts: Shortcuts::ALL,
        }
    }
}

impl Options {
    /// The trial-and-error setting of the literature (spec §5): candidate decisions, singles,
    /// only contradictions prove.
    pub fn trial_and_error() -> Options {
        Options {
            decisions: DecisionKinds::CANDIDATE,
            profile: Profile::SINGLES,
            proof: Proof::Contradiction,
            ..Options::default()
        }
    }
}

/// Why an analysis stopped without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// No clue was found at the deepest allowed test.
    Depth,
    /// The branch-test budget ran out.
    Budget,
    /// The deadline passed.
    Timeout,
    /// The exact solver's node budget ran out before it counted the solutions (no test ran).
    Solver,
}

impl Limit {
    /// The limit's short name: `depth`, `budget` or `timeout`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Depth => "depth",
            Limit::Budget => "budget",
            Limit::Timeout => "timeout",
            Limit::Solver => "solver",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Depth => "no further clue within the depth limit",
            Limit::Budget => "the branch-test budget ran out",
            Limit::Timeout => "the time limit passed",
            Limit::Solver => {
                "the exact solver's node budget ran out before it counted the solutions"
            }
        })
    }
}

impl From<Stop> for Limit {
    /// For an analysis: the node budget is the solver's limit, the deadline the timeout.
    fn from(stop: Stop) -> Limit {
        match stop {
            Stop::Nodes => Limit::Solver,
            Stop::Deadline => Limit::Timeout,
        }
    }
}

/// How an analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "status", content = "limit", rename_all = "snake_case")]
pub enum Status {
    /// The chain reaches the solution.
    Solved,
    /// Not solved within the limits.
    Unsolved(Limit),
    /// The puzzle (with its context) has no solution; not analysed.
    NoSolution,
    /// The puzzle has several solutions; not analysed.
    MultipleSolutions,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Solved => f.write_str("solved"),
            Status::Unsolved(l) => write!(f, "unsolved: {l}"),
            Status::NoSolution => f.write_str("no solution"),
            Status::MultipleSolutions => f.write_str("multiple solutions"),
        }
    }
}

/// Effort figures of one analysis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Branch tests made (apply a branch, propagate).
    pub tests: u64,
    /// Hypotheses opened (branch tests at depth 2 or more that ran a closure).
    pub hypotheses: u64,
    /// Facts found, at every level.
    pub facts: u64,
    /// Facts found at top level.
    pub top_facts: u64,
}

/// The result of analysing one puzzle.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The puzzle as given (with the context applied).
    pub puzzle: Grid,
    /// The position after propagating the puzzle.
    pub start: Grid,
    /// The position at the end: the solution when solved.
    pub end: Grid,
    /// How it ended.
    pub status: Status,
    /// The reduction depth (spec §6) when solved: the deepest top-level test used.
    pub depth: Option<u8>,
    /// The context the analysis started from (`--given`).
    pub given: Vec<Statement>,
    /// Top-level facts found, in order.
    pub facts: Vec<Statement>,
    /// When solved: the nesting levels (1 = the top-level decisions, 2 = inside their
    /// hypotheses, …) at which a constraint-pair decision decided something the proof used.
    /// With `--decisions pairs` these are the levels where the fallback was needed: the source's
    /// "1 level of constraint pair reduction and 2 levels of cell pair reduction" is `[1]` at
    /// depth 3.
    pub constraint_levels: Vec<u8>,
    /// Every recorded line (the steps rendering), with summary flags.
    pub lines: Vec<TracedLine>,
    /// The decision tree, when recorded.
    pub tree: Option<Tree>,
    /// Effort figures.
    pub counters: Counters,
    /// The settings used.
    pub options: Options,
}

impl Analysis {
    /// Analyses `puzzle` (a candidate grid) from scratch.
    pub fn run(puzzle: &Grid, options: &Options) -> Analysis {
        Analysis::run_from(puzzle, &[], options)
    }

    /// Analyses `puzzle` restricted first by the statements of `given` (an HDP context).
    ///
    /// The solution count comes first, from the exact solver within the budget's deadline, or
    /// without one its default node budget ([`SolveLimits::until`]); a limit it hits ends the
    /// analysis unsolved (`Timeout`, or `Solver` for the node budget), not "no solution".
    pub fn run_from(puzzle: &Grid, given: &[Statement], options: &Options) -> Analysis {
        let mut grid = *puzzle;
        for s in given {
            s.apply(&mut grid);
        }
        let mut analysis = Analysis::unstarted(grid, given, options);
        match solve_within(&grid, SolveLimits::until(options.budget.deadline)) {
            Ok(Solutions::None) => return analysis,
            Ok(Solutions::Multiple(_)) => {
                analysis.status = Status::MultipleSolutions;
                return analysis;
            }
            Ok(Solutions::Unique(solution)) => {
                search::analyse(&mut analysis, Some(&solution), None);
            }
            Err(stop) => analysis.status = Status::Unsolved(stop.into()),
        }
        analysis
    }

    /// Analyses `puzzle` without counting its solutions first: for a caller that already knows
    /// the puzzle is unique, or that wants the engine's behaviour on any grid (on a grid with
    /// several solutions a branch that "reaches the solution" proves nothing). The depth limit,
    /// budget and deadline still bound the work.
    pub fn run_unchecked(puzzle: &Grid, options: &Options) -> Analysis {
        let mut analysis = Analysis::unstarted(*puzzle, &[], options);
        search::analyse(&mut analysis, None, None);
        analysis
    }

    /// Analyses `puzzle`, which the caller has established to have exactly the one `solution`,
    /// taking depth-1 results from `shared` (made by earlier analyses of the same puzzle) and
    /// adding its own: the same analysis as without them, with less work.
    pub(crate) fn run_unique(
        puzzle: &Grid,
        solution: &Grid,
        options: &Options,
        shared: &mut Shared,
    ) -> Analysis {
        let mut analysis = Analysis::unstarted(*puzzle, &[], options);
        search::analyse(&mut analysis, Some(solution), Some(shared));
        analysis
    }

    /// An analysis that does not run because the caller knows how it ends (no solution,
    /// several, or a limit its own solution count hit): no line, no test.
    pub fn not_run(puzzle: &Grid, options: &Options, status: Status) -> Analysis {
        let mut analysis = Analysis::unstarted(*puzzle, &[], options);
        analysis.status = status;
        analysis
    }

    fn unstarted(grid: Grid, given: &[Statement], options: &Options) -> Analysis {
        Analysis {
            puzzle: grid,
            start: grid,
            end: grid,
            status: Status::NoSolution,
            depth: None,
            given: given.to_vec(),
            facts: Vec::new(),
            constraint_levels: Vec::new(),
            lines: Vec::new(),
            tree: None,
            counters: Counters::default(),
            options: *options,
        }
    }

    /// Whether the analysis reached the solution.
    pub fn is_solved(&self) -> bool {
        self.status == Status::Solved
    }

    /// The deepest line of the chain.
    pub fn max_line_depth(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| l.summary)
            .map(|l| l.line.depth())
            .max()
            .unwrap_or(0)
    }

    fn final_context(&self) -> Context {
        let mut facts = self.given.clone();
        facts.extend(self.facts.iter().copied());
        Context::facts(facts)
    }

    /// The summary rendering (spec §2): every DIS and PRF line that changed the state, the final
    /// STA, and the count line.
    pub fn summary(&self) -> Chain {
        let mut lines: Vec<ChainLine> = self
            .lines
            .iter()
            .filter(|l| l.summary)
            .map(|l| ChainLine {
                position: None,
                ..l.line.clone()
            })
            .collect();
        let chains = lines
            .iter()
            .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
            .count();
        if let Status::Unsolved(_) = self.status {
            lines.push(ChainLine::new(
                Marker::Inc,
                self.final_context(),
                Some(LineResult::Uns),
            ));
        }
        if matches!(self.status, Status::Solved | Status::Unsolved(_)) {
            // When solved, the final status is the context of the proof, as in the source.
            let proof = lines
                .iter()
                .rev()
                .find(|l| l.marker == Marker::Prf)
                .map(|l| l.context.clone());
            let context = proof.unwrap_or_else(|| self.final_context());
            lines.push(ChainLine::new(Marker::Sta, context, None));
        }
        Chain {
            lines,
            count: Some(Count {
                chains,
                hypotheses: self.counters.hypotheses as usize,
            }),
        }
    }

    /// The steps rendering (spec §2): every recorded line with its position.
    pub fn steps(&self) -> Chain {
        let mut lines: Vec<ChainLine> = self.lines.iter().map(|l| l.line.clone()).collect();
        if let Status::Unsolved(_) = self.status {
            let mut l = ChainLine::new(Marker::Inc, self.final_context(), Some(LineResult::Uns));
            l.position = Some(self.end.to_line());
            lines.push(l);
        }
        Chain {
            lines,
            count: Some(Count {
                chains: self
                    .lines
                    .iter()
                    .filter(|l| l.summary && matches!(l.line.marker, Marker::Dis | Marker::Prf))
                    .count(),
                hypotheses: self.counters.hypotheses as usize,
            }),
        }
    }
}

/// Propagates `grid` with the profile of `options`: the "autosolve" position.
pub fn autosolve(grid: &Grid, options: &Options) -> (Grid, Outcome) {
    let mut g = *grid;
    let outcome = propagate(&mut g, &options.profile);
    (g, outcome)
}

#[cfg(test)]
mod tests;
