//! `test` and `closure` (spec §5): breadth-first with restart under the synchronous or the
//! sequential schedule, and the depth-first comparison walk.
//!
//! The search is written once, generic over a [`Recorder`]: with [`NoRecord`] (classification)
//! every hook compiles to nothing, with [`Trace`] it writes the chain and the tree. Nothing the
//! recorder keeps is read back, so recording never changes a result or an effort figure.

use super::trace::{End, NoRecord, Recorder, Trace};
use super::{Analysis, Limit, Options, Proof, Recording, Schedule, Status, Walk};
use crate::decision::{generate, Decision, DecisionKinds, Origin};
use crate::grid::{each_bit, Candidates, Cell, CellSet, Grid};
use crate::propagate::{
    propagate_bare, propagate_bare_from_end, propagate_bare_meet, propagate_changed,
    propagate_changed_eager, propagate_from, Contradiction, Outcome, Profile, SinglesBases,
};
use crate::statement::Statement;
use crate::tree::{EdgeKind, Tree};
use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// Nesting levels (bit `l` = level `l`, 0 at top) at which a constraint-pair decision decided
/// something on the way to a result.
type Via = u16;

/// The result of a test or a closure (small: the solved grid itself is kept in
/// [`Engine::solved`]).
#[derive(Clone, Copy, Debug)]
enum Res {
    Solved(Via),
    Contradiction(Via),
    Open(u8),
}

impl Res {
    /// The same result, with the levels of `via` added.
    fn with_via(self, via: Via) -> Res {
        match self {
            Res::Solved(v) => Res::Solved(v | via),
            Res::Contradiction(v) => Res::Contradiction(v | via),
            open => open,
        }
    }
}

/// How a pass ended.
enum Pass {
    /// Nothing found: go one level deeper.
    Nothing,
    /// Facts were applied (with the levels that decided them): restart at `j = 1`.
    Facts(Via),
    /// The closure is over.
    Done(Res),
}

/// Why the work stopped early.
#[derive(Clone, Copy, Debug)]
struct Abort(Limit);

/// The working buffers of one nesting level, reused from closure to closure.
#[derive(Default)]
struct Level {
    /// The decisions of the current state, in canonical order.
    decisions: Vec<Decision>,
    /// The larger pair count of each decision's two branches at `j = 1`.
    pairs: Vec<u8>,
    /// The order of this pass (canonical at `j = 1`, by pair count after).
    order: Vec<usize>,
    /// Facts found in a synchronous pass: (canonical index, fact, deciding levels).
    found: Vec<(usize, Statement, Via)>,
    /// The recorded line segment of each decision of a synchronous pass.
    segments: Vec<(usize, usize, usize)>,
    /// The facts of a pass, in canonical order, as applied.
    facts: Vec<Statement>,
    /// Branches known to be open in the current state.
    known: Box<KnownOpen>,
    /// End positions of depth-1 branches already tested in this closure.
    reuse: Reuse,
    /// Branch-pair results shared between the hypotheses of a pass at `j >= 2`.
    table: PairTable,
    /// The end pool's ends inside this closure's state (see [`EndPool::find_inside`]).
    inside: Inside,
}

/// The engine's state for one analysis.
struct Engine<'o, R> {
    opts: &'o Options,
    /// Depth-1 results shared with another analysis of the same puzzle (unrecorded runs).
    shared: Option<&'o mut Shared>,
    /// The current `j = 1` pass's state in `shared`, when kept there, and whether it was new
    /// (no results kept for it but those of this pass).
    shared_state: Option<(u32, bool)>,
    rec: R,
    counters: super::Counters,
    /// Top-level facts, in the order applied.
    top_facts: Vec<Statement>,
    /// Spare level buffers: a closure takes one and gives it back (no allocation after the
    /// deepest nesting has been reached once).
    levels: Vec<Level>,
    /// The deepest `j` used at top level.
    top_depth: u8,
    /// Whether passes sweep on after a fact (see [`Engine::pass`]).
    sweep: bool,
    /// The final position of the last branch test that ended open.
    last_open: Grid,
    /// The position of the last result that reached the solution.
    solved: Grid,
    /// The value boards of the recent test starts, for the bare `singles` fixpoint.
    bases: RefCell<SinglesBases>,
    /// The solution, when known and only contradictions prove (`--proof contradiction`): a
    /// top-level branch that holds it cannot be disproved, so it is open without a test.
    witness: Option<Grid>,
    /// Above 0 while a recorded run shows such a branch's test without counting it.
    shown: u32,
    /// Tests made while showing, for the deadline's checks.
    shown_tests: u64,
    /// Hypotheses already worked out in this analysis (unrecorded runs only).
    memo: Memo,
    /// Open depth-1 ends found inside the hypotheses of the passes at `j >= 2` under way
    /// (unrecorded runs only): known-open answers for the closures right below each.
    pool: EndPool,
    /// Whether the open results of the current `j = 1` pass need their pair counts: only a
    /// `j = 2` pass to come reads them (or a recording). Other pair counts are only recorded.
    /// Set before every pass; a `j = 1` test opens no closure, so nothing nested changes it
    /// while the pass reads it.
    count_pairs: bool,
    /// The test count from which [`Engine::tick`] next checks the budget and the deadline.
    check_at: u64,
}

/// The first test count above `tests` at which the budget `b` can stop the search: past its
/// test budget, or (with a deadline) a multiple of 64, when the clock is read.
fn next_check(b: &super::Budget, tests: u64) -> u64 {
    let past = b.max_tests.map_or(u64::MAX, |max| max.saturating_add(1));
    let clock = b.deadline.map_or(u64::MAX, |_| (tests / 64 + 1) * 64);
    past.min(clock)
}

/// Runs the analysis of `a.puzzle` and fills in `a`.
///
/// `solution` is the puzzle's unique solution when the caller knows it: with `--proof
/// contradiction` a top-level branch that holds it is answered open without a test (nothing
/// true is ever disproved, and reaching the solution proves nothing then).
pub(super) fn analyse(a: &mut Analysis, solution: Option<&Grid>, shared: Option<&mut Shared>) {
    // The propagated start: the search's first state and the tree's root.
    let (start, outcome) = super::autosolve(&a.puzzle, &a.options);
    a.start = start;
    match a.options.recording {
        Recording::Off => {
            // Another analysis' results apply only under the same propagation profile.
            let shared = shared.map(|s| s.for_profile(a.options.profile));
            run(a, outcome, NoRecord, solution, shared);
        }
        recording => {
            let tree = (recording == Recording::ChainAndTree)
                .then(|| Tree::new(a.start.pair_count() as u8, a.options.max_tree_nodes));
            let trace = run(
                a,
                outcome,
                Trace::new(&a.given.clone(), tree, a.options.profile),
                solution,
                None,
            );
            (a.lines, a.tree) = trace.finish(a.options.budget.deadline);
        }
    }
}

/// The search from `a.start`, which propagating the puzzle gave with `outcome`.
fn run<R: Recorder>(
    a: &mut Analysis,
    outcome: Outcome,
    rec: R,
    solution: Option<&Grid>,
    shared: Option<&mut Shared>,
) -> R {
    let opts = a.options;
    let mut state = a.start;
    let mut engine = Engine {
        opts: &opts,
        rec,
        counters: super::Counters::default(),
        top_facts: Vec::new(),
        levels: Vec::new(),
        top_depth: 0,
        // Candidate decisions are monotone as a set and as tests, so every schedule reaches
        // the same facts and depth; sweeping is the cheapest (see `pass`).
        sweep: opts.decisions == DecisionKinds::CANDIDATE,
        last_open: Grid::empty(),
        solved: state,
        bases: RefCell::default(),
        witness: solution
            .filter(|_| opts.proof == Proof::Contradiction)
            .copied(),
        shown: 0,
        shown_tests: 0,
        memo: Memo::spare(),
        pool: EndPool::spare(),
        shared,
        shared_state: None,
        count_pairs: true,
        check_at: next_check(&opts.budget, 0),
    };
    engine.rec.start(&state, outcome == Outcome::Solved);
    let result = match outcome {
        Outcome::Solved => Ok(Res::Solved(0)),
        Outcome::Contradiction(_) => Ok(Res::Contradiction(0)),
        Outcome::Open => match opts.walk {
            Walk::BreadthFirst => engine.closure(&mut state, opts.max_depth, 0, None),
            Walk::DepthFirst => engine.depth_first(&mut state, opts.max_depth, 0),
        },
    };
    a.status = match result {
        Ok(Res::Solved(via)) => {
            state = engine.solved;
            a.depth = Some(engine.top_depth);
            a.constraint_levels = (0..16u8)
                .filter(|l| via >> l & 1 != 0)
                .map(|l| l + 1)
                .collect();
            Status::Solved
        }
        Ok(Res::Contradiction(_)) => Status::NoSolution,
        Ok(Res::Open(_)) => Status::Unsolved(Limit::Depth),
        Err(Abort(limit)) => Status::Unsolved(limit),
    };
    a.end = state;
    a.counters = engine.counters;
    a.facts = engine.top_facts;
    engine.memo.give_back();
    engine.pool.give_back();
    engine.rec
}

impl<R: Recorder> Engine<'_, R> {
    /// Counts one branch test and enforces the budget.
    #[inline]
    fn tick(&mut self) -> Result<(), Abort> {
        self.counters.tests += 1;
        if self.shown > 0 {
            let b = &self.opts.budget;
            // Shown only (see `tested`): not counted, so only the deadline applies.
            self.shown_tests += 1;
            return match b.deadline {
                Some(deadline) if self.shown_tests % 64 == 0 && Instant::now() >= deadline => {
                    Err(Abort(Limit::Timeout))
                }
                _ => Ok(()),
            };
        }
        if self.counters.tests < self.check_at {
            return Ok(());
        }
        self.check_budget()
    }

    /// The budget's and the deadline's checks of [`Engine::tick`], made only from the count
    /// `check_at` on: the test past the budget, or one whose count is a multiple of 64 with a
    /// deadline, cannot come sooner (counts only grow, a remembered hypothesis' effort never
    /// crosses the budget).
    #[inline(never)]
    fn check_budget(&mut self) -> Result<(), Abort> {
        let b = &self.opts.budget;
        let tests = self.counters.tests;
        if let Some(max) = b.max_tests.filter(|&max| tests > max) {
            // The test that crossed the budget is not made: `--budget N` allows N tests.
            self.counters.tests = max;
            return Err(Abort(Limit::Budget));
        }
        if let Some(deadline) = b.deadline {
            if tests % 64 == 0 && Instant::now() >= deadline {
                return Err(Abort(Limit::Timeout));
            }
        }
        self.check_at = next_check(b, tests);
        Ok(())
    }

    /// `closure(state, k)` (spec §5) at nesting `level`: passes at `j = 1..=k` over every
    /// decision, restarting at `j = 1` after new facts. `state` is an open, propagated position;
    /// the facts found are applied to it.
    ///
    /// `outer` holds the depth-1 results of the enclosing closure, whose states all contain
    /// this one's: a valid start for this closure's depth-1 tests too.
    fn closure(
        &mut self,
        state: &mut Grid,
        k: u8,
        level: usize,
        outer: Option<Outer<'_>>,
    ) -> Result<Res, Abort> {
        let mut lv = self.levels.pop().unwrap_or_default();
        lv.reuse.clear();
        lv.inside.clear();
        let result = self.closure_in(state, k, level, &mut lv, outer);
        self.levels.push(lv);
        result
    }

    fn closure_in(
        &mut self,
        state: &mut Grid,
        k: u8,
        level: usize,
        lv: &mut Level,
        mut outer: Option<Outer<'_>>,
    ) -> Result<Res, Abort> {
        let mut via = 0;
        loop {
            generate(state, self.opts.decisions, &mut lv.decisions);
            let n = lv.decisions.len();
            lv.pairs.clear();
            lv.pairs.resize(n, 0);
            lv.order.clear();
            lv.order.extend(0..n);
            let mut pass = Pass::Nothing;
            for j in 1..=k {
                if level == 0 {
                    self.top_depth = self.top_depth.max(j);
                }
                if j == 2 {
                    // Most promising first: the larger pair count of the two branches at
                    // j = 1; ties in canonical order (the sort is stable).
                    self.count_skipped_pairs(state, lv, outer.as_mut());
                    let pairs = &lv.pairs;
                    lv.order.sort_by_key(|&i| std::cmp::Reverse(pairs[i]));
                }
                self.count_pairs = k >= 2;
                let pooled = j >= 2 && !R::RECORDS && !self.sweep;
                if pooled {
                    self.pool.open();
                }
                let result = self.pass(state, (j, level), lv, outer.as_mut());
                if pooled {
                    self.pool.close();
                }
                // Only the `j = 1` tests of the pass that set it may read it.
                self.shared_state = None;
                pass = result?;
                if !matches!(pass, Pass::Nothing) {
                    break;
                }
            }
            match pass {
                Pass::Nothing => return Ok(Res::Open(Self::pairs(state, false))),
                Pass::Facts(v) => {
                    via |= v;
                    // The state is no longer where the hypothesis' own test ended.
                    if let Some(o) = outer.as_mut() {
                        o.pairs = None;
                    }
                }
                Pass::Done(r) => return Ok(r.with_via(via)),
            }
        }
    }

    /// One pass at depth `j` over the decisions of `state`, acting on the table of spec §5.
    ///
    /// Synchronous schedule: every decision is tested against the same state; the facts found
    /// are applied together at the end, in canonical order. Sequential schedule: the first fact
    /// is applied at once and the pass ends. Candidate decisions (trial and error) sweep: a fact
    /// is applied at once and the pass goes on; it restarts at `j = 1` at its end. Candidate
    /// tests and the set of candidate decisions are monotone, so the sweep reaches the same
    /// fixpoint and depth as the other schedules with far fewer tests.
    fn pass(
        &mut self,
        state: &mut Grid,
        (j, level): (u8, usize),
        lv: &mut Level,
        mut outer: Option<&mut Outer<'_>>,
    ) -> Result<Pass, Abort> {
        let synchronous = self.opts.schedule == Schedule::Synchronous && !self.sweep;
        // Answering branches known to be open without propagating is exact where tests are
        // monotone: at j = 1, and in every pass of a sweep. The pair counts that j = 2 orders by
        // are then computed only if a j = 2 pass comes (see `count_skipped_pairs`).
        let skip = self.sweep || j == 1;
        lv.known.reset(!self.sweep);
        // Pair decisions' notes (kept per cell) are only asked about in a pass that skips.
        let watch = skip && !self.sweep;
        if watch {
            lv.known.watch(&lv.decisions);
        }
        self.shared_state = match self.shared.as_deref_mut() {
            Some(shared) if j == 1 && !self.sweep => shared.state(state),
            _ => None,
        };
        if watch && !R::RECORDS {
            // Open ends found elsewhere below the enclosing pass's state that lie inside this
            // state answer this pass's branches as well as its own ends do.
            self.pool.find_inside(state, &mut lv.inside);
        }
        // Hypotheses of one pass start from one state (a sweep changes it as it goes).
        let share = j >= 2 && !self.sweep;
        lv.table
            .reset(share.then_some(&lv.order), &lv.decisions, !R::RECORDS);
        lv.found.clear();
        lv.segments.clear();
        // Lines from here on are dropped when the pass ends before applying their facts; a
        // sweep moves it past each fact it applies, whose lines the chain needs.
        let mut pass_mark = self.rec.mark();
        let mut swept: Option<Via> = None;
        for oi in 0..lv.order.len() {
            let i = lv.order[oi];
            let d = lv.decisions[i];
            if swept.is_some() {
                // The cell may have lost values since the list was made.
                let now = state.get(d.cell);
                if (now & d.first).is_empty() || (now & d.rest).is_empty() {
                    continue;
                }
            }
            let seg = self.rec.mark();
            let dn = self.rec.decision(&d, j, level);
            // Both branches are tested even when the first reaches the solution: which branch
            // comes first can depend on the digits' names (a two-valued cell), the effort and
            // the chain must not.
            let r1 = self.tested(
                state,
                (&d, 0),
                (j, level),
                (dn, skip),
                lv,
                outer.as_deref_mut(),
            )?;
            // The first branch's solution, which the second's test may replace.
            let solved1 = matches!(r1, Res::Solved(..)).then_some(self.solved);
            let mid = self.rec.mark();
            if watch {
                // Only later decisions' branches are asked about from here on.
                lv.known.asked(d.cell);
            }
            let r2 = self.tested(
                state,
                (&d, 1),
                (j, level),
                (dn, skip),
                lv,
                outer.as_deref_mut(),
            )?;
            let found = match (r1, r2) {
                (Res::Solved(..), _) | (_, Res::Solved(..)) => {
                    // Only the solving branch's lines stay.
                    let (keep, r) = match r1 {
                        Res::Solved(..) => {
                            self.solved = solved1.unwrap_or(self.solved);
                            ((seg, mid), r1)
                        }
                        _ => ((mid, self.rec.mark()), r2),
                    };
                    let end = self.rec.mark();
                    self.rec.discard(keep.1, end);
                    self.rec.discard(seg, keep.0);
                    self.rec.discard(pass_mark, seg);
                    return Ok(Pass::Done(r));
                }
                (Res::Contradiction(a), Res::Contradiction(b)) => {
                    self.rec.discard(pass_mark, seg);
                    self.rec.contradiction(d.branch(1), level, state);
                    return Ok(Pass::Done(Res::Contradiction(a | b)));
                }
                (Res::Contradiction(v), _) => Some((d.branch(1), v)),
                (_, Res::Contradiction(v)) => Some((d.branch(0), v)),
                (r1, r2) => {
                    if j == 1 {
                        lv.pairs[i] = open_pairs(r1).max(open_pairs(r2));
                    }
                    None
                }
            };
            if synchronous {
                let end = self.rec.mark();
                if end > seg {
                    lv.segments.push((i, seg, end));
                }
                if let Some((fact, v)) = found {
                    lv.found.push((i, fact, v));
                }
                continue;
            }
            let Some((fact, v)) = found else {
                continue;
            };
            match self.apply_facts(state, &[fact], level) {
                Res::Open(_) if self.sweep => {
                    swept = Some(swept.unwrap_or(0) | v);
                    lv.known.reset(false);
                    pass_mark = self.rec.mark();
                }
                Res::Open(_) => return Ok(Pass::Facts(v)),
                r => return Ok(Pass::Done(r.with_via(v))),
            }
        }
        if !lv.found.is_empty() {
            self.rec.reorder(pass_mark, &mut lv.segments);
            lv.found.sort_by_key(|f| f.0);
            lv.facts.clear();
            lv.facts.extend(lv.found.iter().map(|f| f.1));
            let v = lv.found.iter().fold(0, |a, f| a | f.2);
            return Ok(match self.apply_facts(state, &lv.facts, level) {
                Res::Open(_) => Pass::Facts(v),
                r => Pass::Done(r.with_via(v)),
            });
        }
        Ok(swept.map_or(Pass::Nothing, Pass::Facts))
    }

    /// [`Engine::test`], unless `skip` is on and `lv.known` or the end pool's ends inside the
    /// state (`lv.inside`) already show the branch open; an open result is then noted in
    /// `lv.known` and, when nothing records, kept in the end pool.
    // Inlined into `pass`'s two calls per decision: their call overhead was measured at about
    // 0.6 % of a classification's instructions.
    #[inline(always)]
    fn tested(
        &mut self,
        state: &Grid,
        (d, which): (&Decision, usize),
        at: (u8, usize),
        (dn, skip): (R::Node, bool),
        lv: &mut Level,
        outer: Option<&mut Outer<'_>>,
    ) -> Result<Res, Abort> {
        let b = d.branch(which);
        let known = skip
            && (lv.known.covers(state, b)
                || !R::RECORDS && !self.sweep && self.pool.covers(&mut lv.inside, b));
        let holds_solution = skip
            && at.1 == 0
            && self
                .witness
                .is_some_and(|w| !(w.get(b.cell) & b.values).is_empty());
        // Open, as unrecorded; but a chain or tree that left out exactly the branches holding
        // the solution would give it away: there they are tested and shown, counted as one test.
        let shown = holds_solution && !known && R::RECORDS;
        if (known || holds_solution) && !shown {
            // Open without propagating; still a test of the method (and of the budget).
            self.tick()?;
            let edge = [EdgeKind::First, EdgeKind::Second][which];
            let n = self.rec.branch(dn, edge, b, at.0, at.1);
            self.rec
                .branch_ended(n, b, d.branch(1 - which), End::Open(0), [state, state]);
            return Ok(Res::Open(UNKNOWN_PAIRS));
        }
        let counted = self.counters;
        self.shown += u32::from(shown);
        let r = self.test(
            state,
            (d, which),
            at,
            dn,
            (&mut lv.reuse, &mut lv.table, outer),
        );
        if shown {
            // Not counted, and not noted: the unrecorded run knows nothing of it.
            self.shown -= 1;
            self.counters = counted;
            let r = r?;
            self.tick()?;
            return Ok(r);
        }
        let r = r?;
        if skip && matches!(r, Res::Open(_)) {
            lv.known.note(state, &self.last_open);
            if !R::RECORDS && !self.sweep {
                self.pool.add(&self.last_open);
            }
        }
        Ok(r)
    }

    /// `test(state, branch, j)` (spec §5): apply branch `which` of `d`, propagate; at `j > 1`
    /// run the closure inside (a hypothesis). `at` is `(j, level)`.
    // Inlined into `tested` and `depth_first_in`, for the same reason as `tested` (measured
    // at about 1.3 %).
    #[inline(always)]
    fn test(
        &mut self,
        state: &Grid,
        (d, which): (&Decision, usize),
        (j, level): (u8, usize),
        dn: R::Node,
        (reuse, table, outer): (&mut Reuse, &mut PairTable, Option<&mut Outer<'_>>),
    ) -> Result<Res, Abort> {
        self.tick()?;
        let (b, other) = (d.branch(which), d.branch(1 - which));
        let edge = [EdgeKind::First, EdgeKind::Second][which];
        let n = self.rec.branch(dn, edge, b, j, level);
        let bit: Via = match d.origin {
            Origin::ConstraintPair { .. } => 1 << level.min(15),
            _ => 0,
        };
        // The branch's position is worked on in `last_open` (no copy out for the usual open
        // result of a depth-1 test).
        let prop = Prop::new(self.opts, &self.bases, R::RECORDS);
        let g = &mut self.last_open;
        let outcome = if j == 1 {
            let shared = self.shared.as_deref_mut().zip(self.shared_state);
            reuse.propagate_sharing(state, (d, which), outer, prop, g, shared)
        } else if !R::RECORDS {
            // The branch's last end in this closure (its j = 1 test in this state, or in a
            // larger one after a sweep's facts or in the depth-first walk), intersected with the
            // state, is a valid start: the same open result. A contradiction found that way can
            // leave another position, which only a recorded chain would show.
            reuse.propagate(state, (d, which), None, prop, g)
        } else {
            *g = *state;
            b.apply(g);
            prop.from(g, b.cell, state)
        };
        let solution_proves = self.opts.proof == Proof::Solution;
        let g = &self.last_open;
        match outcome {
            Outcome::Contradiction(_) => {
                self.rec.branch_ended(n, b, other, End::Ctr, [state, g]);
                return Ok(Res::Contradiction(bit));
            }
            Outcome::Solved if solution_proves => {
                self.rec.branch_ended(n, b, other, End::Sol, [state, g]);
                self.solved = *g;
                return Ok(Res::Solved(bit));
            }
            Outcome::Solved => {
                self.rec.branch_ended(n, b, other, End::Open(0), [state, g]);
                return Ok(Res::Open(0));
            }
            Outcome::Open => {}
        }
        if j == 1 {
            let pairs = Self::pairs(g, self.count_pairs);
            self.rec
                .branch_ended(n, b, other, End::Open(pairs), [state, g]);
            return Ok(Res::Open(pairs));
        }
        let mut g = *g;
        self.counters.hypotheses += 1;
        let mark = self.rec.open(n, b, &g);
        let key = MemoKey::new(g, j, level as u8);
        let remembered = if R::RECORDS {
            None
        } else {
            self.memo.recall(&key, self.counters, &self.opts.budget)
        };
        let inner = match remembered {
            Some(w) => {
                // The same position at the same depth and level has been worked out before:
                // the same result and, counted as if made again, the same effort.
                self.counters.tests += w.tests;
                self.counters.hypotheses += w.hypotheses;
                self.counters.facts += w.facts;
                // Where the closure ended is read even after a solution when only
                // contradictions prove (the branch is open then, and its end is noted).
                g = w.end;
                if let Res::Solved(_) = w.res {
                    self.solved = w.solved;
                }
                w.res
            }
            None => {
                let before = self.counters;
                let inner = match self.opts.walk {
                    Walk::BreadthFirst => {
                        let outer = Outer {
                            reuse,
                            pairs: table.on().then_some((table, branch_key(d, which))),
                        };
                        self.closure(&mut g, j - 1, level + 1, Some(outer))?
                    }
                    Walk::DepthFirst => self.depth_first(&mut g, j - 1, level + 1)?,
                };
                if !R::RECORDS {
                    self.memo
                        .keep(key, inner, (g, self.solved), before, self.counters);
                }
                inner
            }
        };
        let res = match inner {
            Res::Solved(v) if solution_proves => Res::Solved(v | bit),
            Res::Solved(..) => Res::Open(0),
            Res::Contradiction(v) => Res::Contradiction(v | bit),
            open => open,
        };
        let pairs = Self::pairs(&g, false);
        let end = match res {
            Res::Contradiction(_) => End::Ctr,
            Res::Solved(..) => End::Sol,
            Res::Open(_) => End::Open(pairs),
        };
        self.rec.close(n, mark, other, end, &g);
        Ok(match res {
            Res::Open(_) => {
                // The position after the facts found inside the hypothesis.
                self.last_open = g;
                Res::Open(pairs)
            }
            r => r,
        })
    }

    /// Fills in the pair counts of the decisions whose branches a j = 1 pass answered open
    /// without propagating; they are propagated now (counted as tests already, and the
    /// results are the same as if they had been propagated then).
    fn count_skipped_pairs(
        &mut self,
        state: &Grid,
        lv: &mut Level,
        mut outer: Option<&mut Outer<'_>>,
    ) {
        let prop = Prop::new(self.opts, &self.bases, R::RECORDS);
        for i in 0..lv.decisions.len() {
            if lv.pairs[i] != UNKNOWN_PAIRS {
                continue;
            }
            let d = lv.decisions[i];
            let mut most = 0;
            for which in 0..2 {
                let mut g = Grid::empty();
                let outcome =
                    lv.reuse
                        .propagate(state, (&d, which), outer.as_deref_mut(), prop, &mut g);
                if outcome == Outcome::Open {
                    most = most.max(g.pair_count() as u8);
                }
            }
            lv.pairs[i] = most;
        }
    }

    /// Applies `facts` (found at `level`) to `state` together and propagates.
    fn apply_facts(&mut self, state: &mut Grid, facts: &[Statement], level: usize) -> Res {
        let mut changed = CellSet::EMPTY;
        let mut empty = false;
        // The pass's state, an open fixpoint: where an unrecorded run propagates from.
        let base = *state;
        for f in facts {
            self.counters.facts += 1;
            if level == 0 {
                self.counters.top_facts += 1;
                self.top_facts.push(*f);
            }
            let before = state.get(f.cell);
            f.apply(state);
            let now = state.get(f.cell);
            empty |= now.is_empty();
            if now != before {
                changed.insert(f.cell);
            }
        }
        let outcome = if empty {
            None
        } else if R::RECORDS {
            Some(propagate_changed(state, changed, &self.opts.profile))
        } else {
            // The same fixpoint, found as branch tests find theirs.
            Some(Prop::new(self.opts, &self.bases, false).changed(state, changed, &base))
        };
        let (res, end) = match outcome {
            Some(Outcome::Solved) => {
                self.solved = *state;
                (Res::Solved(0), End::Sol)
            }
            Some(Outcome::Open) => {
                let pairs = Self::pairs(state, false);
                (Res::Open(pairs), End::Open(pairs))
            }
            _ => (Res::Contradiction(0), End::Ctr),
        };
        self.rec.facts(facts, level, end, state);
        res
    }

    /// The depth-first comparison walk: each branch is followed down to `k` before the next one.
    fn depth_first(&mut self, state: &mut Grid, k: u8, level: usize) -> Result<Res, Abort> {
        let mut lv = self.levels.pop().unwrap_or_default();
        lv.reuse.clear();
        let result = self.depth_first_in(state, k, level, &mut lv);
        self.levels.push(lv);
        result
    }

    fn depth_first_in(
        &mut self,
        state: &mut Grid,
        k: u8,
        level: usize,
        lv: &mut Level,
    ) -> Result<Res, Abort> {
        let mut via = 0;
        'restart: loop {
            generate(state, self.opts.decisions, &mut lv.decisions);
            if level == 0 {
                self.top_depth = self.top_depth.max(k);
            }
            for i in 0..lv.decisions.len() {
                let d = lv.decisions[i];
                let dn = self.rec.decision(&d, k, level);
                for which in 0..2 {
                    let parts = (&mut lv.reuse, &mut lv.table, None);
                    match self.test(state, (&d, which), (k, level), dn, parts)? {
                        Res::Open(_) => {}
                        Res::Contradiction(v) => {
                            let fact = d.branch(1 - which);
                            match self.apply_facts(state, &[fact], level) {
                                Res::Open(_) => {
                                    via |= v;
                                    continue 'restart;
                                }
                                r => return Ok(r.with_via(v | via)),
                            }
                        }
                        solved => return Ok(solved.with_via(via)),
                    }
                }
            }
            return Ok(Res::Open(Self::pairs(state, false)));
        }
    }

    /// The pair count of `g` when it is read: in a recorded run, or when `wanted`; else 0.
    #[inline]
    fn pairs(g: &Grid, wanted: bool) -> u8 {
        if R::RECORDS || wanted {
            g.pair_count() as u8
        } else {
            0
        }
    }
}

/// End positions of the depth-1 branches tested so far in one closure, for re-tests after new
/// facts. Tests are monotone and propagation is a closure operator: if branch `b` ended open in
/// `R` from state `S`, then from any smaller state `S'` it ends where propagating `R ∩ S'` ends;
/// when `R` lies inside `S'` that is `R` itself, with no work at all.
#[derive(Default)]
struct Reuse {
    ends: HashMap<u32, Grid, BuildHasherDefault<KeyHasher>>,
}

impl Reuse {
    fn clear(&mut self) {
        self.ends.clear();
    }

    /// [`Reuse::propagate`], unless `shared` (another analysis' results, with the state's
    /// place there) holds the branch's result; a result found here is added to it.
    // Inlined into `test`, its only caller (measured: 0.4 % fewer instructions).
    #[inline(always)]
    fn propagate_sharing(
        &mut self,
        state: &Grid,
        (d, which): (&Decision, usize),
        outer: Option<&mut Outer<'_>>,
        prop: Prop<'_>,
        g: &mut Grid,
        shared: Option<(&mut Shared, (u32, bool))>,
    ) -> Outcome {
        let Some((shared, (id, new))) = shared else {
            return self.propagate(state, (d, which), outer, prop, g);
        };
        let b = d.branch(which);
        // A new state's results are this pass's own, of other branches (a branch repeated in
        // the pass finds its own end in `self` instead, the same one).
        if let Some((end, outcome)) = (!new).then(|| shared.get(id, b)).flatten() {
            // Taken as this closure's end of the branch, as if propagated here.
            *g = *end;
            let key = branch_key(d, which);
            if outcome.is_contradiction() {
                self.ends.remove(&key);
            } else {
                self.ends.insert(key, *g);
            }
            return outcome;
        }
        let outcome = self.propagate(state, (d, which), outer, prop, g);
        shared.put(id, b, g, outcome);
        outcome
    }

    /// Applies branch `which` of `d` to `state` and propagates, into `g`, starting from the end
    /// of an earlier test of the same branch in this closure or, failing that, in the enclosing
    /// one.
    fn propagate(
        &mut self,
        state: &Grid,
        (d, which): (&Decision, usize),
        outer: Option<&mut Outer<'_>>,
        prop: Prop<'_>,
        g: &mut Grid,
    ) -> Outcome {
        let key = branch_key(d, which);
        let (outer, mut pairs) = match outer {
            Some(o) => (Some(o.reuse), o.pairs.as_mut()),
            None => (None, None),
        };
        if let Some((table, hypothesis)) = pairs.as_mut() {
            if let Some((end, ctr)) = table.take(key, *hypothesis) {
                *g = end;
                if ctr {
                    self.ends.remove(&key);
                    let c = Contradiction::NoValue { cell: d.cell };
                    return Outcome::Contradiction(c);
                }
                self.ends.insert(key, end);
                return Outcome::Open;
            }
        }
        let slot = self.ends.entry(key);
        let (outcome, moved) = match &slot {
            Entry::Occupied(own) => from_end(g, (own.get(), true), state, prop),
            Entry::Vacant(_) => match outer.and_then(|o| o.ends.get(&key)) {
                Some(end) => from_end(g, (end, false), state, prop),
                None => {
                    *g = *state;
                    d.branch(which).apply(g);
                    (prop.from(g, d.cell, state), true)
                }
            },
        };
        if !moved {
            return outcome;
        }
        if let Some((table, hypothesis)) = pairs {
            table.offer(*hypothesis, key, g, outcome);
        }
        match slot {
            Entry::Occupied(own) if outcome.is_contradiction() => {
                own.remove();
            }
            Entry::Occupied(mut own) => *own.get_mut() = *g,
            Entry::Vacant(slot) if !outcome.is_contradiction() => {
                slot.insert(*g);
            }
            Entry::Vacant(_) => {}
        }
        outcome
    }
}

/// Propagates into `g` the intersection of `state` with `end`, an earlier open end of the same
/// branch (`own`: in this closure). Also returns whether `g` moved from `end` (when not, `end`
/// lies inside `state` and is the answer, found with no work at all).
#[inline]
fn from_end(
    g: &mut Grid,
    (end, own): (&Grid, bool),
    state: &Grid,
    prop: Prop<'_>,
) -> (Outcome, bool) {
    let (changed, emptied) = g.set_intersection(end, state);
    if changed.is_empty() {
        let outcome = if g.is_complete() {
            Outcome::Solved
        } else {
            Outcome::Open
        };
        return (outcome, false);
    }
    let outcome = match emptied.iter().next() {
        Some(cell) => Outcome::Contradiction(Contradiction::NoValue { cell }),
        None if own && changed.len() < 6 => prop.changed_from_end(g, changed, end, state),
        None => prop.meet(g, changed, state),
    };
    (outcome, true)
}

/// How branch tests propagate: by `profile` in the recorded order, or, when nothing records (so
/// no rule count, contradiction reason or contradiction position is read), on value boards kept
/// in `bare` when the profile has both singles (the bare fixpoint), or else in the eager order.
#[derive(Clone, Copy)]
struct Prop<'p> {
    profile: &'p Profile,
    bare: Option<&'p RefCell<SinglesBases>>,
    /// Nothing records: any order of the rules will do.
    eager: bool,
}

impl<'p> Prop<'p> {
    /// With the engine's options and boards; `records`: whether anything is recorded.
    #[inline]
    fn new(opts: &'p Options, bases: &'p RefCell<SinglesBases>, records: bool) -> Self {
        Prop {
            profile: &opts.profile,
            bare: (!records && Profile::SINGLES.is_subset_of(&opts.profile)).then_some(bases),
            eager: !records,
        }
    }

    /// [`propagate_changed`] of `g`, restricted from the pass's `state` (an open fixpoint).
    #[inline]
    fn changed(self, g: &mut Grid, changed: CellSet, state: &Grid) -> Outcome {
        match self.bare {
            Some(bases) => propagate_bare(g, state, &mut bases.borrow_mut(), self.profile),
            None if self.eager => propagate_changed_eager(g, changed, self.profile),
            None => propagate_changed(g, changed, self.profile),
        }
    }

    /// [`Prop::changed`] of `g`, which also lies inside `end`, an earlier open end of the same
    /// branch (the value boards then start from `end`: less work).
    #[inline]
    fn changed_from_end(self, g: &mut Grid, changed: CellSet, end: &Grid, state: &Grid) -> Outcome {
        match self.bare {
            Some(bases) => {
                propagate_bare_from_end(g, end, state, &mut bases.borrow_mut(), self.profile)
            }
            None => self.changed(g, changed, state),
        }
    }

    /// [`Prop::changed`] of `g`, the intersection of the state with an earlier open end of the
    /// same branch, from which it differs in `changed`.
    #[inline]
    fn meet(self, g: &mut Grid, changed: CellSet, state: &Grid) -> Outcome {
        match self.bare {
            Some(bases) => {
                propagate_bare_meet(g, changed, state, &mut bases.borrow_mut(), self.profile)
            }
            None => self.changed(g, changed, state),
        }
    }

    /// [`propagate_from`] of `g`, restricted from the pass's `state` (an open fixpoint).
    #[inline]
    fn from(self, g: &mut Grid, cell: crate::grid::Cell, state: &Grid) -> Outcome {
        // `bare` is only kept when nothing records, so `eager` covers it.
        if self.eager {
            self.changed(g, [cell].into_iter().collect(), state)
        } else {
            propagate_from(g, cell, self.profile)
        }
    }
}

/// A branch as a restriction that means the same in every smaller state: branch 2 is
/// "not `first`".
#[inline]
fn branch_key(d: &Decision, which: usize) -> u32 {
    d.cell.index() as u32 | u32::from(d.first.bits()) << 7 | (which as u32) << 16
}

/// The hypotheses worked out so far in one analysis, by where they start. A hypothesis'
/// closure depends only on its start position, its depth and its nesting level (the options
/// are the analysis'; the buffers it reuses change its speed, never its result), so a second
/// hypothesis starting from the same position (two branches can propagate to the same place)
/// ends the same way: the same result, final position and solution reached, with the same
/// effort. Only unrecorded runs keep results: a recorded one must write every line.
///
/// The map holds small entries (a key's fingerprint → its place in `kept`), so growing it moves
/// no grids. A key whose fingerprint is taken by another is not kept: a lost shortcut only.
#[derive(Default)]
struct Memo {
    places: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    kept: Vec<(MemoKey, Worked)>,
}

/// Where a hypothesis starts (its branch test's position), its depth `j` and nesting level.
#[derive(Clone, Copy, PartialEq, Eq)]
struct MemoKey {
    start: Grid,
    j: u8,
    level: u8,
    /// A hash of the rest, computed once.
    fingerprint: u64,
}

impl MemoKey {
    fn new(start: Grid, j: u8, level: u8) -> MemoKey {
        let fingerprint = fingerprint(&start, u64::from(j) << 8 | u64::from(level));
        MemoKey {
            start,
            j,
            level,
            fingerprint,
        }
    }
}

/// A hash of `g`'s cells, started from `seed`: four cells a step, as one word (in memory order,
/// read at once: fewer instructions than a cell a step).
fn fingerprint(g: &Grid, seed: u64) -> u64 {
    let mix = |a: u64, x: u64| (a.rotate_left(7) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let word = |cells: &[Candidates]| {
        (cells.iter().enumerate()).fold(0, |x, (k, c)| x | u64::from(c.bits()) << (16 * k))
    };
    let cells = g.cells().chunks_exact(4);
    let last = word(cells.remainder());
    mix(cells.fold(seed, |a, four| mix(a, word(four))), last)
}

/// A hypothesis' closure result, its final position, the solution it reached (when solved)
/// and the effort made inside it.
#[derive(Clone, Copy)]
struct Worked {
    res: Res,
    end: Grid,
    solved: Grid,
    tests: u64,
    hypotheses: u64,
    facts: u64,
}

/// At most this many results are kept per analysis (about 4.5 MB; the emptied buffers stay with
/// the thread for its next analysis, see [`Spares`]).
const MEMO_LIMIT: usize = 1 << 13;

/// The emptied tables of the last analysis on this thread ([`Memo`], [`EndPool`], [`Shared`]),
/// for the next one: an emptied table is a new one, whose buffers need not grow again (copying
/// the grids they hold).
pub(crate) struct Spares {
    memo: Memo,
    pool: EndPool,
    shared: Shared,
}

thread_local! {
    static SPARES: RefCell<Option<Spares>> = const { RefCell::new(None) };
}

/// A table whose emptied buffers are kept per thread (in [`Spares`]) for the next analysis.
pub(crate) trait Spare: Default {
    /// Its place among the spares.
    fn slot(spares: &mut Spares) -> &mut Self;

    /// Forgets everything, as a new one, keeping the buffers.
    fn clear(&mut self);

    /// An empty table, with the buffers of the last one this thread gave back.
    fn spare() -> Self {
        SPARES.with(|s| {
            s.borrow_mut()
                .as_mut()
                .map(|s| std::mem::take(Self::slot(s)))
                .unwrap_or_default()
        })
    }

    /// Empties this table and keeps it for [`Spare::spare`].
    fn give_back(mut self) {
        self.clear();
        SPARES.with(|s| {
            let mut s = s.borrow_mut();
            let spares = s.get_or_insert_with(|| Spares {
                memo: Memo::default(),
                pool: EndPool::default(),
                shared: Shared::default(),
            });
            *Self::slot(spares) = self;
        });
    }
}

impl Spare for Memo {
    fn slot(spares: &mut Spares) -> &mut Memo {
        &mut spares.memo
    }

    fn clear(&mut self) {
        self.places.clear();
        self.kept.clear();
    }
}

impl Memo {
    /// The result kept for `key`, unless counting its effort would cross the test budget (the
    /// hypothesis is then worked out again, so the analysis stops exactly where it would).
    fn recall(
        &self,
        key: &MemoKey,
        now: super::Counters,
        budget: &super::Budget,
    ) -> Option<Worked> {
        let place = *self.places.get(&key.fingerprint)?;
        let (kept, w) = &self.kept[place as usize];
        let over_budget = budget
            .max_tests
            .is_some_and(|max| now.tests + w.tests > max);
        (kept == key && !over_budget).then_some(*w)
    }

    /// Keeps what the hypothesis of `key` found (its result, its final position and, if solved,
    /// the solution reached), with the effort between `before` and `after`.
    fn keep(
        &mut self,
        key: MemoKey,
        res: Res,
        (end, solved): (Grid, Grid),
        before: super::Counters,
        after: super::Counters,
    ) {
        if self.kept.len() >= MEMO_LIMIT {
            return;
        }
        if let Entry::Vacant(slot) = self.places.entry(key.fingerprint) {
            slot.insert(self.kept.len() as u32);
            let worked = Worked {
                res,
                end,
                solved,
                tests: after.tests - before.tests,
                hypotheses: after.hypotheses - before.hypotheses,
                facts: after.facts - before.facts,
            };
            self.kept.push((key, worked));
        }
    }
}

/// What a closure inside a hypothesis may start its depth-1 tests from.
struct Outer<'a> {
    /// The enclosing closure's depth-1 end positions (its states all contain this one's).
    reuse: &'a Reuse,
    /// While the hypothesis' state is still the position its own test ended in (no fact found
    /// inside yet): the enclosing pass's [`PairTable`] and the hypothesis' branch key.
    pairs: Option<(&'a mut PairTable, u32)>,
}

/// Results shared between the hypotheses of one pass at `j >= 2`. Every hypothesis starts
/// from the pass's state `S`, and propagation is a closure operator, so the first depth-1 test
/// of branch `b` inside hypothesis `a` ends where the test of `a` inside hypothesis `b` does:
/// both propagate `S ∧ a ∧ b`. What hypothesis `a` finds for a branch still to come as a
/// hypothesis is kept for it, and taken (once) when it comes.
#[derive(Default)]
struct PairTable {
    on: bool,
    /// Keep contradictions too (their position is only drawn when something is recorded).
    contradictions: bool,
    /// The place in the pass of each branch that is (or was) a hypothesis.
    order: HashMap<u32, u32, BuildHasherDefault<KeyHasher>>,
    /// `(earlier hypothesis, later one)` → its end position, and whether it was a contradiction.
    results: HashMap<u64, (Grid, bool), BuildHasherDefault<KeyHasher>>,
}

impl PairTable {
    /// Starts a pass: `order` (the pass's test order over `decisions`), or `None` when results
    /// cannot be shared.
    fn reset(&mut self, order: Option<&Vec<usize>>, decisions: &[Decision], contradictions: bool) {
        self.order.clear();
        self.results.clear();
        self.on = order.is_some();
        self.contradictions = contradictions;
        for (place, &i) in order.into_iter().flatten().enumerate() {
            for which in 0..2 {
                let key = branch_key(&decisions[i], which);
                self.order
                    .entry(key)
                    .or_insert(2 * place as u32 + which as u32);
            }
        }
    }

    fn on(&self) -> bool {
        self.on
    }

    /// The result hypothesis `b` found for `a` (branch keys), if kept.
    fn take(&mut self, a: u32, b: u32) -> Option<(Grid, bool)> {
        self.results.remove(&(u64::from(a) << 32 | u64::from(b)))
    }

    /// Hypothesis `a` tested branch `b` to `g`: kept if `b` is a hypothesis still to come.
    fn offer(&mut self, a: u32, b: u32, g: &Grid, outcome: Outcome) {
        let ctr = match outcome {
            Outcome::Open => false,
            Outcome::Contradiction(_) if self.contradictions => true,
            _ => return,
        };
        match (self.order.get(&a), self.order.get(&b)) {
            (Some(pa), Some(pb)) if pb > pa => {
                self.results
                    .insert(u64::from(a) << 32 | u64::from(b), (*g, ctr));
            }
            _ => {}
        }
    }
}

/// A hasher for the small integer keys of [`Reuse`].
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ n >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Branches known to be open in the current state of a pass. If a branch tested open and its
/// final position `R` lies inside branch `b'` (every cell of `b'` has, in `R`, only values `b'`
/// allows), then `b'` is open too at the same depth: its own position contains `R`, and tests
/// are monotone (at depth 1 always; deeper only for candidate decisions).
///
/// For candidate decisions (`X: v` or `X: rest`) two unions per cell suffice: `X: v` is covered
/// when some `R` made `X` single `v`, `X: rest` when some `R` removed `v`. Pair decisions need
/// one `R` inside the whole branch, so per cell the distinct minimal masks of `R` are kept, at
/// most four (forgetting one only loses a skip). One buffer per nesting level is reused.
struct KnownOpen {
    general: bool,
    any: bool,
    /// The cells of the pass's decisions still to be asked about (bit = row-major index).
    /// In two 64-bit halves: clearing one bit is cheaper than in a `u128`.
    watched: [u64; 2],
    /// Per cell, how many of the pass's decisions on it are still to be asked about.
    left: [u8; 81],
    single: [u16; 81],
    removed: [u16; 81],
    /// Per cell, up to four masks in the 16-bit lanes of a word; a free lane holds [`FREE`].
    masks: [u64; 81],
}

/// One in each 16-bit lane.
const LANES: u64 = 0x0001_0001_0001_0001;
/// A free lane of [`KnownOpen::masks`]: bits outside every candidate mask, so it is inside no
/// mask and contains none.
const FREE: u64 = 0xfe00 * LANES;

/// Bit 15 of every lane.
const TOPS: u64 = 0x8000 * LANES;

/// Bit 15 of each lane of `x` that is not zero (no carry crosses a lane).
#[inline]
fn nonzero_lanes(x: u64) -> u64 {
    const LOW: u64 = 0x7fff * LANES;
    (((x & LOW) + LOW) | x) & TOPS
}

impl Default for KnownOpen {
    fn default() -> Self {
        KnownOpen {
            general: false,
            any: false,
            watched: [u64::MAX; 2],
            left: [0; 81],
            single: [0; 81],
            removed: [0; 81],
            masks: [FREE; 81],
        }
    }
}

impl KnownOpen {
    /// Forgets everything (a new pass, or a new state).
    fn reset(&mut self, general: bool) {
        // Only the tables the last mode filled.
        if self.any && self.general {
            self.masks = [FREE; 81];
        } else if self.any {
            self.single = [0; 81];
            self.removed = [0; 81];
        }
        self.any = false;
        self.general = general;
    }

    /// Notes only the cells of `decisions` from now on, with pair decisions (a pass's, all still
    /// to be asked about), each until [`KnownOpen::asked`] has been told of its last one.
    fn watch(&mut self, decisions: &[Decision]) {
        self.left = [0; 81];
        for d in decisions {
            // (`min`: no bounds check, cheaper than `% 81`; a cell's index is below 81.)
            self.left[d.cell.index().min(80)] += 1;
        }
        // The cells counted, eight at a time (the product's top byte gathers the top bits of
        // the eight bytes): fewer instructions than a 128-bit shift per decision.
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let mut cells = u128::from(self.left[80] != 0) << 80;
        for (j, chunk) in self.left.chunks_exact(8).enumerate() {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            let x = u64::from_le_bytes(eight);
            let nonzero = (((x & !HIGH) + !HIGH) | x) & HIGH;
            cells |=
                u128::from((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
        }
        self.watched = [cells as u64, (cells >> 64) as u64];
    }

    /// One decision on `cell` will not be asked about again (both its branches were).
    #[inline]
    fn asked(&mut self, cell: Cell) {
        let i = cell.index().min(80);
        self.left[i] -= 1;
        if self.left[i] == 0 {
            self.watched[i / 64] &= !(1 << (i % 64));
        }
    }

    fn note(&mut self, state: &Grid, r: &Grid) {
        self.any = true;
        if !self.general {
            // Without branches: `r` lies inside `s`, so a solved or unchanged cell adds nothing.
            let cells = state.cells().iter().zip(r.cells());
            for ((single, removed), (s, r)) in
                self.single.iter_mut().zip(&mut self.removed).zip(cells)
            {
                let (s, r) = (s.bits(), r.bits());
                let open = s & s.wrapping_sub(1) != 0;
                let now_single = r & r.wrapping_sub(1) == 0;
                *single |= r & 0u16.wrapping_sub(u16::from(open & now_single));
                *removed |= s & !r;
            }
            return;
        }
        if self.watched == [0; 2] {
            return;
        }
        // Only watched cells that changed (decision cells are open in the state), compared one
        // by one: the watched cells are few, fewer instructions than all 81 at once. The four
        // masks of a cell are compared with `r` at once, without branches.
        let (rc, sc) = (r.cells(), state.cells());
        let watched = u128::from(self.watched[1]) << 64 | u128::from(self.watched[0]);
        let _ = each_bit(watched & CellSet::ALL.bits(), |i| {
            let i = i % 81;
            if rc[i] != sc[i] {
                self.keep(i, rc[i].bits());
            }
            Ok(())
        });
    }

    /// Keeps mask `r` (an open end's) of cell `i` among the minimal masks of the cell.
    #[inline(always)]
    fn keep(&mut self, i: usize, r: u16) {
        let r = u64::from(r) * LANES;
        let kept = self.masks[i];
        // A kept mask inside `r` already covers everything `r` would.
        if nonzero_lanes(kept & !r) != TOPS {
            return;
        }
        // Free the masks that contain `r`; then keep `r` in the first free lane, if any.
        let other = (nonzero_lanes(r & !kept) >> 15) * 0xffff;
        let kept = (kept & other) | (FREE & !other);
        let free = !nonzero_lanes(kept ^ FREE) & TOPS;
        if free != 0 {
            let lane = 0xffff_u64 << (free.trailing_zeros() - 15);
            self.masks[i] = (kept & !lane) | (r & lane);
        } else {
            self.masks[i] = kept;
        }
    }

    /// Whether branch `b` (in the current `state`) is known to be open.
    #[inline]
    fn covers(&self, state: &Grid, b: Statement) -> bool {
        if !self.any {
            return false;
        }
        let i = b.cell.index();
        if self.general {
            let values = u64::from(b.values.bits()) * LANES;
            return nonzero_lanes(self.masks[i] & !values) != TOPS;
        }
        let now = state.get(b.cell).bits();
        let values = b.values.bits() & now;
        let outside = now & !values;
        (values.count_ones() == 1 && self.single[i] & values != 0)
            || (outside.count_ones() == 1 && self.removed[i] & outside != 0)
    }
}

/// The depth-1 results of one analysis, for another analysis of the same puzzle under the same
/// propagation profile: classification runs two (the level's `pairs` and the depth's decision
/// kinds), whose states and branches coincide in part, above all early on. A branch's result
/// depends only on the state it is applied to, the branch and the profile, so the second run
/// takes the first one's instead of propagating again; its counts are unchanged (a test is
/// counted whether or not it propagates).
///
/// States are kept by a fingerprint and compared whole; each result by its state's place and
/// the branch's statement. Bounded: past [`SHARED_LIMIT`] states or results nothing more is kept.
#[derive(Default)]
pub(crate) struct Shared {
    profile: Option<Profile>,
    states: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    grids: Vec<Grid>,
    results: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    ends: Vec<(Grid, Outcome)>,
}

/// At most this many results, and as many states, are kept (at most 0.7 MB; more were measured
/// no better: the runs' states coincide mostly early on).
const SHARED_LIMIT: usize = 1 << 11;

impl Spare for Shared {
    fn slot(spares: &mut Spares) -> &mut Shared {
        &mut spares.shared
    }

    fn clear(&mut self) {
        self.profile = None;
        self.states.clear();
        self.grids.clear();
        self.results.clear();
        self.ends.clear();
    }
}

impl Shared {
    /// These results, emptied first unless they were made under `profile`.
    fn for_profile(&mut self, profile: Profile) -> &mut Shared {
        if self.profile != Some(profile) {
            self.clear();
            self.profile = Some(profile);
        }
        self
    }

    /// The place of `state`, kept now if new and there is room; and whether it is new.
    fn state(&mut self, state: &Grid) -> Option<(u32, bool)> {
        match self.states.entry(fingerprint(state, 0)) {
            Entry::Occupied(place) => {
                let id = *place.get();
                (self.grids[id as usize] == *state).then_some((id, false))
            }
            Entry::Vacant(slot) if self.grids.len().max(self.ends.len()) < SHARED_LIMIT => {
                let id = self.grids.len() as u32;
                slot.insert(id);
                self.grids.push(*state);
                Some((id, true))
            }
            Entry::Vacant(_) => None,
        }
    }

    /// A result's key: its state's place, the branch's cell and values.
    fn key(state: u32, b: Statement) -> u64 {
        u64::from(state) << 16 | b.cell.index() as u64 | u64::from(b.values.bits()) << 7
    }

    /// The result kept for branch `b` of the state kept at `state`.
    fn get(&self, state: u32, b: Statement) -> Option<(&Grid, Outcome)> {
        let place = *self.results.get(&Shared::key(state, b))?;
        let (end, outcome) = &self.ends[place as usize];
        Some((end, *outcome))
    }

    /// Keeps `g`, the result of branch `b` from the state kept at `state`.
    fn put(&mut self, state: u32, b: Statement, g: &Grid, outcome: Outcome) {
        if self.ends.len() >= SHARED_LIMIT {
            return;
        }
        if let Entry::Vacant(slot) = self.results.entry(Shared::key(state, b)) {
            slot.insert(self.ends.len() as u32);
            self.ends.push((*g, outcome));
        }
    }
}

/// Open end positions of depth-1 tests, kept while the passes at `j >= 2` that they were found
/// under run. Every closure inside such a pass works on a state inside the pass's state `Y`, and
/// so does every end found in it. An open, incomplete end `E` is a fixpoint of propagation, so
/// a branch `b` whose position `Z ∧ b` contains `E` propagates to a position that contains `E`
/// too: no contradiction, not complete, open. [`EndPool::find_inside`] finds for a pass at `Z`
/// the ends that lie inside `Z` (found in earlier hypotheses of the enclosing pass, or in
/// earlier passes of this closure), which answer its branches besides its [`KnownOpen`] notes
/// ([`EndPool::covers`]); a branch they answer is still counted as a test.
///
/// One buffer with a start per pass under way: a pass's entries are those from its start on,
/// dropped when it ends.
#[derive(Default)]
struct EndPool {
    ends: Vec<Grid>,
    starts: Vec<usize>,
}

/// The places of the end pool's ends inside a closure's state, for its depth-1 passes. Asked
/// about cell by cell instead of noted in [`KnownOpen`]: most of their cells are never asked
/// about, and none is forgotten. While the closure runs, the innermost pass of the pool is the
/// one its hypothesis belongs to, which only gains ends; and the closure's state only shrinks,
/// so an end outside it once stays outside: a later pass checks only the ends found inside
/// before and those added since.
#[derive(Default)]
struct Inside {
    places: Vec<u32>,
    /// The pool's length when last looked at (0: never).
    seen: usize,
}

impl Inside {
    /// A new closure.
    fn clear(&mut self) {
        self.places.clear();
        self.seen = 0;
    }
}

/// At most this many ends are kept per pass under way (166 KB each; a limit on the whole pool
/// let the outermost pass fill it and left no room for the passes inside it; more were measured
/// no better: most of those that answer a branch come early).
const POOL_LIMIT: usize = 1 << 10;

impl Spare for EndPool {
    fn slot(spares: &mut Spares) -> &mut EndPool {
        &mut spares.pool
    }

    /// All entries and starts (an aborted analysis may leave passes open).
    fn clear(&mut self) {
        self.ends.clear();
        self.starts.clear();
    }
}

impl EndPool {
    /// A pass at `j >= 2` starts.
    fn open(&mut self) {
        self.starts.push(self.ends.len());
    }

    /// The pass ends: its entries go.
    fn close(&mut self) {
        let start = self.starts.pop().unwrap_or(0);
        self.ends.truncate(start);
    }

    /// Keeps `end`, the open end of a depth-1 test, if a pass is under way and has room.
    fn add(&mut self, end: &Grid) {
        let Some(&start) = self.starts.last() else {
            return;
        };
        if self.ends.len() - start >= POOL_LIMIT {
            return;
        }
        if !end.is_complete() {
            self.ends.push(*end);
        }
    }

    /// Updates `inside`, a closure's ends inside its `state`, for a depth-1 pass: the ends of
    /// the innermost pass under way that lie inside `state`.
    fn find_inside(&self, state: &Grid, inside: &mut Inside) {
        let Some(&start) = self.starts.last() else {
            return;
        };
        let from = inside.seen.max(start);
        inside.seen = self.ends.len();
        if inside.places.is_empty() && from == self.ends.len() {
            return;
        }
        inside
            .places
            .retain(|&k| self.ends[k as usize].within(state));
        // A cell where the last end found outside `state` is: most others are outside there too.
        // And another where the one before was (both cell 0 until two are found).
        let mut probes = [(0, !state.cells()[0].bits()); 2];
        for (k, e) in (from as u32..).zip(&self.ends[from..]) {
            if probes
                .iter()
                .any(|&(p, outside)| e.cells()[p].bits() & outside != 0)
            {
                continue;
            }
            // Most ends that pass the probes are inside: all cells at once, then which is not.
            if e.within(state) {
                inside.places.push(k);
            } else if let Some(i) = e.first_outside(state) {
                probes = [(i, !state.cells()[i].bits()), probes[0]];
            }
        }
    }

    /// Whether one of the ends at `inside` (a closure's, inside its state) lies inside branch
    /// `b` (so `b` is open). The end found is moved to the front: an end that answers one branch
    /// often answers the next ones (the order of `inside` changes no answer).
    #[inline]
    fn covers(&self, inside: &mut Inside, b: Statement) -> bool {
        let (i, outside) = (b.cell.index(), !b.values.bits());
        let found = inside
            .places
            .iter()
            .position(|&k| self.ends[k as usize].cells()[i].bits() & outside == 0);
        match found {
            Some(p) => {
                inside.places.swap(0, p);
                true
            }
            None => false,
        }
    }
}

/// The pair count of a branch answered open without propagating.
const UNKNOWN_PAIRS: u8 = u8::MAX;

/// The pair count of an open result (0 otherwise; [`UNKNOWN_PAIRS`] when not propagated).
#[inline]
fn open_pairs(r: Res) -> u8 {
    match r {
        Res::Open(p) => p,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Candidates, Cell};
    use crate::testing::XorShift;

    /// A random restriction of `g`: a few cells lose a random part of their values (never all).
    fn shrunk(g: &Grid, rng: &mut XorShift, cells: usize) -> Grid {
        let mut out = *g;
        for _ in 0..cells {
            let cell = Cell::new(rng.below(81)).unwrap();
            let now = out.get(cell).bits();
            let keep = now & (rng.below(512) as u16 | now & now.wrapping_neg());
            out.set(cell, Candidates::from_bits(keep));
        }
        out
    }

    /// While a closure's state shrinks and the innermost pass gains ends, with passes inside it
    /// opening and closing, the places `find_inside` keeps are exactly the ends of the
    /// innermost pass that lie inside the state.
    #[test]
    fn the_pool_keeps_exactly_the_ends_inside_a_shrinking_state() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let (mut pool, mut inside) = (EndPool::default(), Inside::default());
            let outer = Grid::empty();
            pool.open();
            for _ in 0..rng.below(5) {
                pool.add(&shrunk(&outer, &mut rng, 3));
            }
            // The closure's pass: its ends, then its state, which only shrinks.
            pool.open();
            let mut state = shrunk(&outer, &mut rng, 2);
            for _ in 0..6 {
                for _ in 0..rng.below(8) {
                    // Some ends inside the state, some not.
                    let base = if rng.below(2) == 0 { state } else { outer };
                    pool.add(&shrunk(&base, &mut rng, 4));
                }
                pool.find_inside(&state, &mut inside);
                let start = *pool.starts.last().unwrap();
                let want: Vec<u32> = (start..pool.ends.len())
                    .filter(|&k| pool.ends[k].within(&state))
                    .map(|k| k as u32)
                    .collect();
                let mut got = inside.places.clone();
                got.sort_unstable();
                assert_eq!(got, want);
                // A pass inside the closure comes and goes; the state shrinks.
                pool.open();
                for _ in 0..rng.below(4) {
                    pool.add(&shrunk(&state, &mut rng, 2));
                }
                pool.close();
                state = shrunk(&state, &mut rng, 2);
            }
        }
    }

    /// Depth-1 results kept under one propagation profile are not handed out under another;
    /// under the same one they are, by state and branch.
    #[test]
    fn shared_results_serve_only_their_own_state_branch_and_profile() {
        use crate::grid::Digit;
        let state = Grid::empty();
        let mut other = state;
        let b = Statement::new(
            Cell::from_row_col(0, 0),
            Candidates::single(Digit::new(1).unwrap()),
        );
        b.apply(&mut other);
        let mut shared = Shared::default();
        let s = shared.for_profile(Profile::DEFAULT);
        let (id, _) = s.state(&state).unwrap();
        s.put(id, b, &other, Outcome::Open);
        assert_eq!(s.state(&state), Some((id, false)));
        assert_eq!(s.get(id, b).map(|r| *r.0), Some(other));
        let c = Statement::new(b.cell, Candidates::single(Digit::new(2).unwrap()));
        assert!(s.get(id, c).is_none());
        let (o, _) = s.state(&other).unwrap();
        assert!(o != id && s.get(o, b).is_none());
        let s = shared.for_profile(Profile::DEFAULT);
        assert!(s.get(id, b).is_some());
        let s = shared.for_profile(Profile::SINGLES);
        assert!(s.get(id, b).is_none());
    }

    /// The known-open notes of pair decisions against a plain list per cell with the same
    /// policy: a mask inside a kept one's is not kept; kept masks containing a new one go; at
    /// most four are kept. Random notes and questions on a few cells.
    #[test]
    fn known_open_masks_behave_as_a_list_of_minimal_masks() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next();
        let state = Grid::empty();
        let (mut asked, mut covered) = (0, 0);
        for _ in 0..200 {
            let mut known = KnownOpen::default();
            known.reset(true);
            let mut plain: Vec<Vec<u16>> = vec![Vec::new(); 81];
            for _ in 0..40 {
                let cell = Cell::new(next() as usize % 4).unwrap();
                let r = (next() as u16 & next() as u16 & 0x1ff) | 1 << (next() % 9);
                let mut end = state;
                end.set(cell, Candidates::from_bits(r));
                known.note(&state, &end);
                let kept = &mut plain[cell.index()];
                if !kept.iter().any(|m| m & !r == 0) {
                    kept.retain(|m| r & !m != 0);
                    if kept.len() < 4 {
                        kept.push(r);
                    }
                }
                // A question about a random branch of a random cell.
                let cell = Cell::new(next() as usize % 4).unwrap();
                let values = Candidates::from_bits(next() as u16 & 0x1ff);
                let want = plain[cell.index()].iter().any(|m| m & !values.bits() == 0);
                let b = Statement { cell, values };
                assert_eq!(known.covers(&state, b), want, "{b}");
                asked += 1;
                covered += usize::from(want);
            }
        }
        assert!(
            covered > 500 && asked - covered > 500,
            "{covered} of {asked}"
        );
    }
}
