//! What a report shows about one puzzle, computed once: propagation, the solution, the pair
//! reduction analysis, the classification and the chain of each variant (PR, DPR, VDPR, …) with
//! its decision tree, and the minimal proof. The renderers (`render::report`) read a [`ReportInput`] and run nothing.

use crate::chain::Marker;
use crate::classify::Classification;
use crate::derivation::{derive_lines, Derivation, Limits};
use crate::engine::{Analysis, Options, PairAnalysis, Proof, Recording, Status, TracedLine};
use crate::grid::Grid;
use crate::minimal::{MinimalError, MinimalProof};
use crate::propagate::Outcome;
use crate::solver::{Solutions, SolveLimits, Stop};

/// What a report shows.
pub struct ReportInput {
    /// The page title (the puzzle's name).
    pub title: String,
    /// The puzzle.
    pub puzzle: Grid,
    /// The classification, when known.
    pub classification: Option<Classification>,
    /// The puzzle after propagation with the analysis profile.
    pub propagated: Grid,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<Grid>,
    /// How many solutions the puzzle has: none, one, or several (the report says so instead of
    /// drawing a solved grid); or the limit that stopped the solver before it knew.
    pub solutions: Result<Solutions, Stop>,
    /// The first-level pair reduction analysis.
    pub pair: PairAnalysis,
    /// Each variant that ran, e.g. `("PR", analysis at depth 1)`, the last one the full analysis
    /// (recorded with its tree).
    pub variants: Vec<(String, Analysis)>,
    /// The minimal proof of the full analysis (`hdp chain --minimal`), when it solved the
    /// puzzle: its lines with the positions their pictures draw and their derivations; or why
    /// there is none. Its last line reaches the solution (`--proof solution`).
    pub minimal: Option<Result<Vec<ExplainedLine>, MinimalError>>,
    /// The minimal proof by contradiction (`hdp chain --minimal --proof contradiction`), every
    /// line with its derivation (the moves a person can check), when the analysis that only
    /// counts contradictions solved the puzzle; or why there is none.
    pub contradiction: Option<Result<Vec<ExplainedLine>, MinimalError>>,
}

/// A line of a minimal proof: the line as traced (its position for the picture) and its
/// derivation, when one was found.
pub struct ExplainedLine {
    /// The line with the position its picture draws.
    pub traced: TracedLine,
    /// The moves from its hypothesis to its end.
    pub derivation: Option<Derivation>,
}

impl ReportInput {
    /// Runs what a report shows: propagation, the solver, the pair analysis, the classification,
    /// then closure at depth 1, 2, … up to the depth that solves the puzzle (or
    /// `options.max_depth`), the last with its decision tree.
    pub fn analyse(title: &str, puzzle: &Grid, options: &Options) -> ReportInput {
        let mut propagated = *puzzle;
        let outcome = crate::propagate::propagate(&mut propagated, &options.profile);
        let solutions = count_solutions(puzzle, &outcome, options);
        let solution = match solutions {
            Ok(Solutions::Unique(s)) => Some(s),
            _ => None,
        };
        if solution.is_none() {
            return ReportInput::unsolvable(title, puzzle, propagated, solutions, options);
        }
        let pair = PairAnalysis::run(puzzle, options);
        let classification = Some(crate::classify::classify(
            puzzle,
            &crate::classify::ClassifyOptions {
                engine: Options {
                    recording: Recording::Off,
                    ..*options
                },
                level_from_pairs: true,
            },
        ));
        let mut variants = Vec::new();
        for k in 1..=options.max_depth.max(1) {
            let opts = Options {
                max_depth: k,
                recording: Recording::ChainAndTree,
                ..*options
            };
            let a = Analysis::run(puzzle, &opts);
            let done = a.is_solved()
                || k == options.max_depth
                || !matches!(
                    a.status,
                    crate::engine::Status::Solved
                        | crate::engine::Status::Unsolved(crate::engine::Limit::Depth)
                );
            let name = variant_name(k);
            variants.push((name, a));
            if done {
                break;
            }
        }
        let minimal = variants
            .last()
            .filter(|(_, a)| a.is_solved())
            .map(|(_, a)| crate::minimal::minimal(a).map(|m| explained(a, &m)));
        let contradiction = if matches!(solutions, Ok(Solutions::Unique(_))) {
            contradiction_proof(puzzle, options)
        } else {
            None
        };
        ReportInput {
            contradiction,
            minimal,
            title: title.to_string(),
            puzzle: *puzzle,
            propagated,
            solution,
            solutions,
            classification,
            pair,
            variants,
        }
    }

    /// The report of a puzzle without exactly one solution, or whose count a limit stopped:
    /// nothing else runs (an analysis would count the solutions again), the one variant says
    /// how it ended.
    fn unsolvable(
        title: &str,
        puzzle: &Grid,
        propagated: Grid,
        solutions: Result<Solutions, Stop>,
        options: &Options,
    ) -> ReportInput {
        let status = match &solutions {
            Ok(Solutions::Multiple(_)) => Status::MultipleSolutions,
            Ok(_) => Status::NoSolution,
            Err(stop) => Status::Unsolved((*stop).into()),
        };
        let classification = Classification::without_analysis(&solutions);
        let analysis = Analysis::not_run(puzzle, options, status);
        ReportInput {
            title: title.to_string(),
            puzzle: *puzzle,
            classification: Some(classification),
            propagated,
            solution: None,
            solutions,
            pair: PairAnalysis::run(puzzle, options),
            variants: vec![(variant_name(1), analysis)],
            minimal: None,
            contradiction: None,
        }
    }
}

/// The solution count of a report: a contradiction that propagation finds needs no search;
/// otherwise the exact solver, within the analysis deadline and the solver's default node
/// budget (a hostile candidate grid can take it hours).
fn count_solutions(puzzle: &Grid, outcome: &Outcome, options: &Options) -> Result<Solutions, Stop> {
    if let Outcome::Contradiction(_) = outcome {
        return Ok(Solutions::None);
    }
    crate::solver::solve_within(
        puzzle,
        SolveLimits {
            deadline: options.budget.deadline,
            ..SolveLimits::default()
        },
    )
}

/// The name of the variant at depth `k`.
fn variant_name(k: u8) -> String {
    match k {
        1 => "PR (pair reduction, depth 1)".to_string(),
        2 => "DPR (deep pair reduction, depth 2)".to_string(),
        3 => "VDPR (very deep pair reduction, depth 3)".to_string(),
        k => format!("depth {k}"),
    }
}

/// The minimal proof by contradiction of `puzzle` with each line's derivation: an analysis in
/// which only contradictions prove (up to `options.max_depth`), minimised, its lines derived.
/// `None` when that analysis does not solve the puzzle within its limits.
fn contradiction_proof(
    puzzle: &Grid,
    options: &Options,
) -> Option<Result<Vec<ExplainedLine>, MinimalError>> {
    let opts = Options {
        proof: Proof::Contradiction,
        recording: Recording::Chain,
        ..*options
    };
    let a = Analysis::run(puzzle, &opts);
    if !a.is_solved() {
        return None;
    }
    Some(crate::minimal::minimal(&a).map(|m| explained(&a, &m)))
}

/// The lines of the minimal proof `m` of `a`, each traced (with the position its picture draws)
/// and derived.
fn explained(a: &Analysis, m: &MinimalProof) -> Vec<ExplainedLine> {
    let lines = &m.chain.lines;
    let derivations = derive_lines(
        &a.puzzle,
        lines,
        &a.options.profile,
        &Limits::until(a.options.budget.deadline),
    );
    // `traced` follows the proof's lines, `DIS` and `PRF`, in order.
    let proof = lines
        .iter()
        .zip(derivations)
        .filter(|(l, _)| matches!(l.marker, Marker::Dis | Marker::Prf))
        .map(|(_, d)| d);
    m.traced(a)
        .into_iter()
        .zip(proof)
        .map(|(traced, derivation)| ExplainedLine { traced, derivation })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Level;
    use crate::engine::Limit;
    use crate::propagate::Profile;

    /// Issue 10's context on an empty grid: no solution; five cells of row 5 share four values.
    fn hostile() -> Grid {
        let context = crate::format::parse_context(
            "C1: 5,7,8,9 + G2: 1,2,3,6,9 + I2: 1,3,4,6 + A3: 1,4,6,9 + G3: 1,2,3,4,5,6,7,8 + \
             H3: 1,9 + B5: 1,3,5,9 + C5: 1,3,5,9 + D5: 1,3,5,9 + E5: 1,3,5,9 + F5: 1,3,5,9",
        )
        .unwrap();
        let mut g = Grid::empty();
        for s in &context {
            s.apply(&mut g);
        }
        g
    }

    #[test]
    fn a_contradiction_found_by_propagation_needs_no_solver() {
        let input = ReportInput::analyse("hostile", &hostile(), &Options::default());
        assert_eq!(input.solutions, Ok(Solutions::None));
        assert_eq!(input.variants.len(), 1);
        assert_eq!(input.variants[0].1.status, Status::NoSolution);
        assert_eq!(input.variants[0].1.counters.tests, 0);
        let c = input.classification.unwrap();
        assert_eq!((c.solutions, c.level, c.limit), (Some(0), None, None));
    }

    #[test]
    fn a_solver_stopped_by_its_node_budget_is_a_limit() {
        // Singles do not see the contradiction: the solver's node budget ends the count.
        let options = Options {
            profile: Profile::SINGLES,
            ..Options::default()
        };
        let input = ReportInput::analyse("hostile", &hostile(), &options);
        assert_eq!(input.solutions, Err(Stop::Nodes));
        assert_eq!(input.variants[0].1.status, Status::Unsolved(Limit::Solver));
        let c = input.classification.unwrap();
        assert_eq!(
            (c.solutions, c.level, c.limit),
            (None, Some(Level::Unsolved), Some(Limit::Solver))
        );
    }

    #[test]
    fn inkala_runs_every_variant_up_to_the_solving_depth() {
        let g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let input = ReportInput::analyse("Arto Inkala 2012", &g, &Options::default());
        let names: Vec<&str> = input.variants.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "PR (pair reduction, depth 1)",
                "DPR (deep pair reduction, depth 2)"
            ]
        );
        let (_, full) = &input.variants[1];
        assert!(full.is_solved() && full.tree.is_some());
        assert_eq!(
            input.solution.map(|s| s.to_line()),
            Some(full.end.to_line())
        );
        assert_eq!(
            input.classification.and_then(|c| c.level),
            Some(Level::Hard)
        );
        assert_eq!(input.pair.position, input.propagated.to_line());
    }
}
