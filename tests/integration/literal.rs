//! A literal reference engine: `test` and `closure` of spec §4–§5 written the obvious way, with
//! no cache, no value boards and no incremental propagation (every test copies the state, applies
//! the branch and runs the library's plain `propagate` from scratch). It is slow and short, so
//! that a reader can check it against the method line by line; `shortcuts.rs` compares the real
//! engine with it under every combination of shortcuts.
//!
//! It follows the method as hdp defines its effort figures:
//! - a pass at `j = 1` tests the decisions in canonical order; deeper passes order them by the
//!   larger pair count of their two branches' `j = 1` ends (most first, ties canonical);
//! - both branches of a decision are always tested; one reaching the solution ends the closure
//!   (when the solution proves), both contradicted ends it as a contradiction, one contradicted
//!   makes the other branch a fact;
//! - synchronous schedule: the facts of a pass are applied together at its end, in canonical
//!   order; sequential: the first fact is applied at once and the closure restarts; candidate
//!   decisions (trial and error) sweep: a fact is applied at once and the pass goes on with the
//!   decisions still possible;
//! - with `--proof contradiction` and a known solution, a top-level branch holding the solution
//!   is open without being tested, counted as one test (in a `j = 1` pass or a sweep).

use hdp::decision::{generate, Decision, DecisionKinds};
use hdp::engine::{Counters, Options, Proof, Schedule};
use hdp::propagate::{propagate, Outcome};
use hdp::{Grid, Statement};

/// How a reference analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Solved,
    Contradiction,
    Open,
}

/// What the reference engine finds for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub end: End,
    /// The deepest `j` of a top-level pass (the depth, when solved).
    pub depth: u8,
    /// The top-level facts, in the order applied.
    pub facts: Vec<Statement>,
    pub counters: Counters,
}

/// The result of a test or a closure.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Solved,
    Contradiction,
    Open,
}

/// How a pass ended.
enum Pass {
    Nothing,
    Facts,
    Done(Res),
}

struct Reference<'a> {
    opts: &'a Options,
    solution: Option<Grid>,
    counters: Counters,
    depth: u8,
    facts: Vec<Statement>,
    /// Candidate decisions sweep (see the module doc).
    sweep: bool,
}

/// Analyses `puzzle` as the method reads, with `solution` its unique solution when known.
pub fn analyse(puzzle: &Grid, opts: &Options, solution: Option<&Grid>) -> Literal {
    let mut r = Reference {
        opts,
        solution: solution
            .filter(|_| opts.proof == Proof::Contradiction)
            .copied(),
        counters: Counters::default(),
        depth: 0,
        facts: Vec::new(),
        sweep: opts.decisions == DecisionKinds::CANDIDATE,
    };
    let mut state = *puzzle;
    let res = match propagate(&mut state, &opts.profile) {
        Outcome::Solved => Res::Solved,
        Outcome::Contradiction(_) => Res::Contradiction,
        Outcome::Open => r.closure(&mut state, opts.max_depth, 0),
    };
    Literal {
        end: match res {
            Res::Solved => End::Solved,
            Res::Contradiction => End::Contradiction,
            Res::Open => End::Open,
        },
        depth: r.depth,
        facts: r.facts,
        counters: r.counters,
    }
}

impl Reference<'_> {
    /// `closure(state, k)`: passes at `j = 1..=k`, back to `j = 1` after facts.
    fn closure(&mut self, state: &mut Grid, k: u8, level: usize) -> Res {
        loop {
            let mut decisions = Vec::new();
            generate(state, self.opts.decisions, &mut decisions);
            let mut order: Vec<usize> = (0..decisions.len()).collect();
            let mut pass = Pass::Nothing;
            for j in 1..=k {
                if level == 0 {
                    self.depth = self.depth.max(j);
                }
                if j == 2 {
                    let pairs: Vec<usize> = decisions
                        .iter()
                        .map(|d| pairs_at_1(state, d, self.opts))
                        .collect();
                    order.sort_by_key(|&i| std::cmp::Reverse(pairs[i]));
                }
                pass = self.pass(state, &decisions, &order, j, level);
                if !matches!(pass, Pass::Nothing) {
                    break;
                }
            }
            match pass {
                Pass::Nothing => return Res::Open,
                Pass::Facts => continue,
                Pass::Done(r) => return r,
            }
        }
    }

    /// One pass at depth `j` over `decisions` in `order`.
    fn pass(
        &mut self,
        state: &mut Grid,
        decisions: &[Decision],
        order: &[usize],
        j: u8,
        level: usize,
    ) -> Pass {
        let mut found: Vec<(usize, Statement)> = Vec::new();
        let mut swept = false;
        for &i in order {
            let d = decisions[i];
            let now = state.get(d.cell);
            if swept && ((now & d.first).is_empty() || (now & d.rest).is_empty()) {
                continue;
            }
            let r1 = self.test(state, d.branch(0), j, level);
            let r2 = self.test(state, d.branch(1), j, level);
            let fact = match (r1, r2) {
                (Res::Solved, _) | (_, Res::Solved) => return Pass::Done(Res::Solved),
                (Res::Contradiction, Res::Contradiction) => return Pass::Done(Res::Contradiction),
                (Res::Contradiction, _) => d.branch(1),
                (_, Res::Contradiction) => d.branch(0),
                _ => continue,
            };
            if self.opts.schedule == Schedule::Synchronous && !self.sweep {
                found.push((i, fact));
                continue;
            }
            match self.apply(state, &[fact], level) {
                Res::Open if self.sweep => swept = true,
                Res::Open => return Pass::Facts,
                r => return Pass::Done(r),
            }
        }
        if found.is_empty() {
            return if swept { Pass::Facts } else { Pass::Nothing };
        }
        found.sort_by_key(|f| f.0);
        let facts: Vec<Statement> = found.iter().map(|f| f.1).collect();
        match self.apply(state, &facts, level) {
            Res::Open => Pass::Facts,
            r => Pass::Done(r),
        }
    }

    /// `test(state, b, j)`: apply `b`, propagate; at `j > 1` run `closure(·, j - 1)` inside.
    fn test(&mut self, state: &Grid, b: Statement, j: u8, level: usize) -> Res {
        self.counters.tests += 1;
        let holds_solution = self.solution.is_some_and(|s| b.holds_in(&s));
        if level == 0 && (j == 1 || self.sweep) && holds_solution {
            return Res::Open;
        }
        let mut g = *state;
        b.apply(&mut g);
        let proves = self.opts.proof == Proof::Solution;
        match propagate(&mut g, &self.opts.profile) {
            Outcome::Contradiction(_) => return Res::Contradiction,
            Outcome::Solved if proves => return Res::Solved,
            Outcome::Solved => return Res::Open,
            Outcome::Open if j == 1 => return Res::Open,
            Outcome::Open => {}
        }
        self.counters.hypotheses += 1;
        match self.closure(&mut g, j - 1, level + 1) {
            Res::Solved if proves => Res::Solved,
            Res::Solved => Res::Open,
            r => r,
        }
    }

    /// Applies `facts` together to `state` and propagates.
    fn apply(&mut self, state: &mut Grid, facts: &[Statement], level: usize) -> Res {
        for f in facts {
            self.counters.facts += 1;
            if level == 0 {
                self.counters.top_facts += 1;
                self.facts.push(*f);
            }
            f.apply(state);
        }
        match propagate(state, &self.opts.profile) {
            Outcome::Solved => Res::Solved,
            Outcome::Contradiction(_) => Res::Contradiction,
            Outcome::Open => Res::Open,
        }
    }
}

/// The larger pair count of the open `j = 1` ends of `d`'s two branches (0 for a branch that
/// does not end open).
fn pairs_at_1(state: &Grid, d: &Decision, opts: &Options) -> usize {
    (0..2)
        .map(|which| {
            let mut g = *state;
            d.branch(which).apply(&mut g);
            match propagate(&mut g, &opts.profile) {
                Outcome::Open => g.pair_count(),
                _ => 0,
            }
        })
        .max()
        .unwrap_or(0)
}
