//! `test` and `closure` (spec §5): breadth-first with restart under the synchronous or the
//! sequential schedule, and the depth-first comparison walk.
//!
//! The search is written once, generic over a [`Recorder`]: with [`NoRecord`] (classification)
//! every hook compiles to nothing, with [`Trace`] it writes the chain and the tree. Nothing the
//! recorder keeps is read back, so recording never changes a result or an effort figure.

use super::boards::Prop;
use super::end_pool::{EndPool, Inside};
use super::keys::{branch_key, Side};
use super::known_open::KnownOpen;
use super::memo::{Memo, MemoKey};
use super::pair_table::PairTable;
use super::reuse::{Outer, Reuse};
use super::shared::{Shared, SharedPlace};
use super::shortcuts::Shortcuts;
use super::spares::Spare;
use super::trace::{End, NoRecord, Recorder, Trace};
use super::{Analysis, Limit, Options, Proof, Recording, Schedule, Status, Walk};
use crate::decision::{generate, Decision, DecisionKinds, Origin};
use crate::grid::{CellSet, Grid};
use crate::propagate::{propagate_changed, Outcome, SinglesBases};
use crate::statement::Statement;
use crate::tree::Tree;
use std::cell::RefCell;
use std::time::Instant;

/// Nesting levels (bit `l` = level `l`, 0 at top) at which a constraint-pair decision decided
/// something on the way to a result.
pub(super) type Via = u16;

/// The result of a test or a closure (small: the solved grid itself is kept in
/// [`Engine::solved`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Res {
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

/// Where a pass or a test runs: the depth `j` of its pass and its nesting level (0 at top).
#[derive(Clone, Copy, Debug)]
struct At {
    j: u8,
    level: usize,
}

/// How a pass treats its branches, fixed when it starts (see [`Engine::start_pass`]).
#[derive(Clone, Copy)]
struct PassMode {
    at: At,
    /// The facts are gathered and applied together when the pass ends (the synchronous
    /// schedule, outside a sweep); otherwise the first one is applied at once.
    synchronous: bool,
    /// Branches known to be open are answered without a test.
    skip: bool,
    /// Pair decisions' notes are kept per cell and asked about (`skip` outside a sweep).
    watch: bool,
}

/// The recorder's marks a decision's lines are kept or dropped by: where the pass's droppable
/// lines start, and where the decision's own start.
#[derive(Clone, Copy)]
struct Marks {
    pass: usize,
    decision: usize,
}

/// What a pass learns from testing both branches of one decision.
enum Verdict {
    /// Both open, with the larger of their pair counts.
    Open(u8),
    /// One branch is a contradiction: the other is a fact (with the levels that decided it).
    Fact(Statement, Via),
    /// A solution or two contradictions: the closure is over.
    Done(Res),
}

/// The caches a branch test reads: the closure's ends for reuse, the pass's pair table, and
/// the enclosing closure's ends (depth-1 tests only).
struct Caches<'a, 'o> {
    reuse: &'a mut Reuse,
    table: &'a mut PairTable,
    outer: Option<&'a mut Outer<'o>>,
}

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
    /// The shortcuts this run takes (the options', as far as the recording allows).
    sc: Shortcuts,
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
            let shared = shared
                .filter(|_| a.options.shortcuts.shared)
                .map(|s| s.for_profile(a.options.profile));
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
        sc: opts.shortcuts.for_recording(opts.recording),
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
        lv.reuse.reset(self.sc.reuse);
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
                let pooled = j >= 2 && self.pooling();
                if pooled {
                    self.pool.open();
                }
                let result = self.pass(state, At { j, level }, lv, outer.as_mut());
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

    /// One pass at depth `at.j` over the decisions of `state`, acting on the table of spec §5:
    /// a decision with one contradicted branch gives a fact (the other branch), one with two
    /// ends the closure, and so does a branch that reaches the solution.
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
        at: At,
        lv: &mut Level,
        mut outer: Option<&mut Outer<'_>>,
    ) -> Result<Pass, Abort> {
        let mode = self.start_pass(state, at, lv);
        // Lines from here on are dropped when the pass ends before applying their facts; a
        // sweep moves it past each fact it applies, whose lines the chain needs.
        let mut pass_mark = self.rec.mark();
        let mut swept: Option<Via> = None;
        for oi in 0..lv.order.len() {
            let i = lv.order[oi];
            let d = lv.decisions[i];
            if swept.is_some() && !both_branches_open(state, &d) {
                // The cell lost values since the list was made.
                continue;
            }
            let marks = Marks {
                pass: pass_mark,
                decision: self.rec.mark(),
            };
            let found = match self.decide(state, &d, mode, marks, lv, outer.as_deref_mut())? {
                Verdict::Done(r) => return Ok(Pass::Done(r)),
                Verdict::Fact(fact, v) => Some((fact, v)),
                Verdict::Open(pairs) => {
                    if at.j == 1 {
                        lv.pairs[i] = pairs;
                    }
                    None
                }
            };
            if mode.synchronous {
                let end = self.rec.mark();
                if end > marks.decision {
                    lv.segments.push((i, marks.decision, end));
                }
                lv.found.extend(found.map(|(fact, v)| (i, fact, v)));
                continue;
            }
            let Some((fact, v)) = found else {
                continue;
            };
            match self.apply_facts(state, &[fact], at.level) {
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
            return Ok(self.apply_found(state, at.level, lv, pass_mark));
        }
        Ok(swept.map_or(Pass::Nothing, Pass::Facts))
    }

    /// Sets a pass up at `at` in `state`: its mode, the known-open notes, the depth-1 results
    /// shared with another analysis, the end pool's ends inside `state`, and the pair table.
    fn start_pass(&mut self, state: &Grid, at: At, lv: &mut Level) -> PassMode {
        let synchronous = self.opts.schedule == Schedule::Synchronous && !self.sweep;
        // Answering branches known to be open without propagating is exact where tests are
        // monotone: at j = 1, and in every pass of a sweep. The pair counts that j = 2 orders by
        // are then computed only if a j = 2 pass comes (see `count_skipped_pairs`).
        let skip = self.sweep || at.j == 1;
        lv.known.reset(!self.sweep);
        // Pair decisions' notes (kept per cell) are only asked about in a pass that skips.
        let watch = skip && !self.sweep;
        if watch {
            lv.known.watch(&lv.decisions);
        }
        self.shared_state = match self.shared.as_deref_mut() {
            Some(shared) if at.j == 1 && !self.sweep => shared.state(state),
            _ => None,
        };
        if watch && self.pooling() {
            // Open ends found elsewhere below the enclosing pass's state that lie inside this
            // state answer this pass's branches as well as its own ends do.
            self.pool.find_inside(state, &mut lv.inside);
        }
        // Hypotheses of one pass start from one state (a sweep changes it as it goes).
        let share = at.j >= 2 && !self.sweep && self.sc.pair_table;
        let contradictions = self.sc.pair_table_contradictions;
        lv.table
            .reset(share.then_some(&lv.order), &lv.decisions, contradictions);
        lv.found.clear();
        lv.segments.clear();
        PassMode {
            at,
            synchronous,
            skip,
            watch,
        }
    }

    /// Tests both branches of `d` in `state` and reads the row of spec §5's table they give.
    /// Of the lines recorded since `marks.pass`, only those the verdict needs stay when it ends
    /// the closure.
    fn decide(
        &mut self,
        state: &Grid,
        d: &Decision,
        mode: PassMode,
        marks: Marks,
        lv: &mut Level,
        mut outer: Option<&mut Outer<'_>>,
    ) -> Result<Verdict, Abort> {
        let dn = self.rec.decision(d, mode.at.j, mode.at.level);
        // Both branches are tested even when the first reaches the solution: which branch
        // comes first can depend on the digits' names (a two-valued cell), the effort and
        // the chain must not.
        let first = Side {
            decision: d,
            which: 0,
        };
        let r1 = self.tested(state, first, mode, dn, lv, outer.as_deref_mut())?;
        // The first branch's solution, which the second's test may replace.
        let solved1 = matches!(r1, Res::Solved(..)).then_some(self.solved);
        let mid = self.rec.mark();
        if mode.watch {
            // Only later decisions' branches are asked about from here on.
            lv.known.asked(d.cell);
        }
        let second = Side {
            decision: d,
            which: 1,
        };
        let r2 = self.tested(state, second, mode, dn, lv, outer)?;
        Ok(match (r1, r2) {
            (Res::Solved(..), _) | (_, Res::Solved(..)) => {
                // Only the solving branch's lines stay.
                let (keep, r) = match r1 {
                    Res::Solved(..) => {
                        self.solved = solved1.unwrap_or(self.solved);
                        ((marks.decision, mid), r1)
                    }
                    _ => ((mid, self.rec.mark()), r2),
                };
                let end = self.rec.mark();
                self.rec.discard(keep.1, end);
                self.rec.discard(marks.decision, keep.0);
                self.rec.discard(marks.pass, marks.decision);
                Verdict::Done(r)
            }
            (Res::Contradiction(a), Res::Contradiction(b)) => {
                self.rec.discard(marks.pass, marks.decision);
                self.rec.contradiction(d.branch(1), mode.at.level, state);
                Verdict::Done(Res::Contradiction(a | b))
            }
            (Res::Contradiction(v), _) => Verdict::Fact(d.branch(1), v),
            (_, Res::Contradiction(v)) => Verdict::Fact(d.branch(0), v),
            (r1, r2) => Verdict::Open(open_pairs(r1).max(open_pairs(r2))),
        })
    }

    /// Ends a synchronous pass: its facts (`lv.found`) applied together in canonical order,
    /// their lines moved into that order.
    fn apply_found(
        &mut self,
        state: &mut Grid,
        level: usize,
        lv: &mut Level,
        pass_mark: usize,
    ) -> Pass {
        self.rec.reorder(pass_mark, &mut lv.segments);
        lv.found.sort_by_key(|f| f.0);
        lv.facts.clear();
        lv.facts.extend(lv.found.iter().map(|f| f.1));
        let v = lv.found.iter().fold(0, |a, f| a | f.2);
        match self.apply_facts(state, &lv.facts, level) {
            Res::Open(_) => Pass::Facts(v),
            r => Pass::Done(r.with_via(v)),
        }
    }

    /// [`Engine::test`], unless `mode.skip` is on and `lv.known` or the end pool's ends inside
    /// the state (`lv.inside`) already show the branch open; an open result is then noted in
    /// `lv.known` and, when nothing records, kept in the end pool.
    // Inlined into `decide`'s two calls: on the hot path.
    #[inline(always)]
    fn tested(
        &mut self,
        state: &Grid,
        side: Side<'_>,
        mode: PassMode,
        dn: R::Node,
        lv: &mut Level,
        outer: Option<&mut Outer<'_>>,
    ) -> Result<Res, Abort> {
        let (b, at) = (side.branch(), mode.at);
        let known = mode.skip
            && (self.sc.known_open && lv.known.covers(state, b)
                || self.pooling() && self.pool.covers(&mut lv.inside, b));
        let holds_solution = mode.skip
            && at.level == 0
            && self
                .witness
                .is_some_and(|w| !(w.get(b.cell) & b.values).is_empty());
        // Open, as unrecorded; but a chain or tree that left out exactly the branches holding
        // the solution would give it away: there they are tested and shown, counted as one test.
        let shown = holds_solution && !known && R::RECORDS;
        if (known || holds_solution) && !shown {
            // Open without propagating; still a test of the method (and of the budget).
            self.tick()?;
            let n = self.rec.branch(dn, side.edge(), b, at.j, at.level);
            self.rec
                .branch_ended(n, b, side.other(), End::Open(0), [state, state]);
            return Ok(Res::Open(UNKNOWN_PAIRS));
        }
        let counted = self.counters;
        self.shown += u32::from(shown);
        let caches = Caches {
            reuse: &mut lv.reuse,
            table: &mut lv.table,
            outer,
        };
        let r = self.test(state, side, at, dn, caches);
        if shown {
            // Not counted, and not noted: the unrecorded run knows nothing of it.
            self.shown -= 1;
            self.counters = counted;
            let r = r?;
            self.tick()?;
            return Ok(r);
        }
        let r = r?;
        if mode.skip && matches!(r, Res::Open(_)) {
            if self.sc.known_open {
                lv.known.note(state, &self.last_open);
            }
            if self.pooling() {
                self.pool.add(&self.last_open);
            }
        }
        Ok(r)
    }

    /// `test(state, branch, j)` (spec §5): apply the branch and propagate; an open end at
    /// `j > 1` is a hypothesis, whose closure at `j - 1` decides the result.
    // Inlined into `tested` and `depth_first_in`: on the hot path.
    #[inline(always)]
    fn test(
        &mut self,
        state: &Grid,
        side: Side<'_>,
        at: At,
        dn: R::Node,
        mut caches: Caches<'_, '_>,
    ) -> Result<Res, Abort> {
        self.tick()?;
        let (b, other) = (side.branch(), side.other());
        let n = self.rec.branch(dn, side.edge(), b, at.j, at.level);
        let bit: Via = match side.decision.origin {
            Origin::ConstraintPair { .. } => 1 << at.level.min(15),
            _ => 0,
        };
        let outcome = self.propagate_branch(state, side, at.j, &mut caches);
        let g = &self.last_open;
        let (end, res) = match outcome {
            Outcome::Contradiction(_) => (End::Ctr, Res::Contradiction(bit)),
            Outcome::Solved if self.opts.proof == Proof::Solution => {
                self.solved = *g;
                (End::Sol, Res::Solved(bit))
            }
            Outcome::Solved => (End::Open(0), Res::Open(0)),
            Outcome::Open if at.j == 1 => {
                let pairs = Self::pairs(g, self.count_pairs);
                (End::Open(pairs), Res::Open(pairs))
            }
            Outcome::Open => return self.hypothesis(side, at, n, bit, caches),
        };
        self.rec.branch_ended(n, b, other, end, [state, g]);
        Ok(res)
    }

    /// Applies the branch of `side` to `state` and propagates, into `self.last_open` (no copy
    /// out for the usual open result of a depth-1 test), from a cached end where one is valid.
    #[inline(always)]
    fn propagate_branch(
        &mut self,
        state: &Grid,
        side: Side<'_>,
        j: u8,
        caches: &mut Caches<'_, '_>,
    ) -> Outcome {
        let prop = Prop::new(self.opts, &self.bases, self.sc.value_boards);
        let g = &mut self.last_open;
        if j == 1 {
            let shared = self
                .shared
                .as_deref_mut()
                .zip(self.shared_state)
                .map(|(shared, (id, new))| SharedPlace { shared, id, new });
            let outer = caches.outer.as_deref_mut();
            caches
                .reuse
                .propagate_sharing(state, side, outer, prop, g, shared)
        } else if self.sc.reuse_hypotheses {
            // The branch's last end in this closure (its j = 1 test in this state, or in a
            // larger one after a sweep's facts or in the depth-first walk), intersected with the
            // state, is a valid start: the same open result. A contradiction found that way can
            // leave another position, which only a recorded chain would show.
            caches.reuse.propagate(state, side, None, prop, g)
        } else {
            let b = side.branch();
            *g = *state;
            b.apply(g);
            prop.from(g, b.cell, state)
        }
    }

    /// A hypothesis (spec §5, `j > 1`): the branch's open end, `self.last_open`, worked out by
    /// the closure at `j - 1` one level deeper. Its result, with the constraint-pair level
    /// `bit`; an open one leaves the position after the facts found inside in `last_open`.
    fn hypothesis(
        &mut self,
        side: Side<'_>,
        at: At,
        n: R::Node,
        bit: Via,
        caches: Caches<'_, '_>,
    ) -> Result<Res, Abort> {
        let mut g = self.last_open;
        self.counters.hypotheses += 1;
        let mark = self.rec.open(n, side.branch(), &g);
        let res = match self.closure_inside(&mut g, side, at, caches)? {
            Res::Solved(v) if self.opts.proof == Proof::Solution => Res::Solved(v | bit),
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
        self.rec.close(n, mark, side.other(), end, &g);
        Ok(match res {
            Res::Open(_) => {
                self.last_open = g;
                Res::Open(pairs)
            }
            r => r,
        })
    }

    /// The closure at `at.j - 1` inside a hypothesis' start `g` (left where it ends), or the
    /// memo's record of the same position at the same depth and level: the same result and,
    /// counted as if made again, the same effort.
    fn closure_inside(
        &mut self,
        g: &mut Grid,
        side: Side<'_>,
        at: At,
        caches: Caches<'_, '_>,
    ) -> Result<Res, Abort> {
        let key = MemoKey::new(*g, at.j, at.level as u8);
        let remembered = if self.sc.memo {
            self.memo.recall(&key, self.counters, &self.opts.budget)
        } else {
            None
        };
        if let Some(w) = remembered {
            self.counters.tests += w.tests;
            self.counters.hypotheses += w.hypotheses;
            self.counters.facts += w.facts;
            // Where the closure ended is read even after a solution when only
            // contradictions prove (the branch is open then, and its end is noted).
            *g = w.end;
            if let Res::Solved(_) = w.res {
                self.solved = w.solved;
            }
            return Ok(w.res);
        }
        let before = self.counters;
        let (k, level) = (at.j - 1, at.level + 1);
        let inner = match self.opts.walk {
            Walk::BreadthFirst => {
                let table = caches.table;
                let key = branch_key(side.decision, side.which);
                let outer = Outer {
                    reuse: caches.reuse,
                    pairs: table.on().then_some((table, key)),
                };
                self.closure(g, k, level, Some(outer))?
            }
            Walk::DepthFirst => self.depth_first(g, k, level)?,
        };
        if self.sc.memo {
            self.memo
                .keep(key, inner, g, &self.solved, before, self.counters);
        }
        Ok(inner)
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
        let prop = Prop::new(self.opts, &self.bases, self.sc.value_boards);
        for i in 0..lv.decisions.len() {
            if lv.pairs[i] != UNKNOWN_PAIRS {
                continue;
            }
            let d = lv.decisions[i];
            let mut most = 0;
            for which in 0..2 {
                let mut g = Grid::empty();
                let outcome = lv.reuse.propagate(
                    state,
                    Side {
                        decision: &d,
                        which,
                    },
                    outer.as_deref_mut(),
                    prop,
                    &mut g,
                );
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
        } else if self.sc.value_boards {
            // The same fixpoint, found as branch tests find theirs.
            Some(Prop::new(self.opts, &self.bases, true).changed(state, changed, &base))
        } else {
            Some(propagate_changed(state, changed, &self.opts.profile))
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
        lv.reuse.reset(self.sc.reuse);
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
                    let side = Side {
                        decision: &d,
                        which,
                    };
                    let caches = Caches {
                        reuse: &mut lv.reuse,
                        table: &mut lv.table,
                        outer: None,
                    };
                    match self.test(state, side, At { j: k, level }, dn, caches)? {
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

    /// Whether the end pool answers branches: a shortcut, exact only where tests are not
    /// monotone-swept (a sweep changes the state within a pass).
    #[inline]
    fn pooling(&self) -> bool {
        self.sc.end_pool && !self.sweep
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

/// Whether both branches of `d` still leave a value in its cell in `state`.
#[inline]
fn both_branches_open(state: &Grid, d: &Decision) -> bool {
    let now = state.get(d.cell);
    !(now & d.first).is_empty() && !(now & d.rest).is_empty()
}
