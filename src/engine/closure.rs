//! `test` and `closure` (spec §5), breadth-first with restart, and the depth-first comparison
//! walk.

use super::trace::{node, Trace};
use super::{Analysis, Limit, Options, Proof, Recording, Status, Walk};
use crate::decision::{generate, Decision, DecisionKinds};
use crate::grid::Grid;
use crate::propagate::{propagate, propagate_from, Outcome};
use crate::statement::Statement;
use crate::tree::{EdgeKind, NodeKind, NodeOutcome, Tree};
use petgraph::graph::NodeIndex;
use std::time::Instant;

/// The result of a test or a closure.
#[derive(Clone, Copy, Debug)]
enum Res {
    Solved(Grid),
    Contradiction,
    Open(u8),
}

/// Why the work stopped early.
#[derive(Clone, Copy, Debug)]
struct Abort(Limit);

struct Engine<'o> {
    opts: &'o Options,
    counters: super::Counters,
    trace: Option<Trace>,
    /// Decision lists and pair counts, one per nesting level, reused to avoid allocation.
    decisions: Vec<Vec<Decision>>,
    pairs: Vec<Vec<u8>>,
    orders: Vec<Vec<usize>>,
    /// The deepest `j` used at top level.
    top_depth: u8,
    /// Whether passes sweep on after a fact (see `passes`).
    sweep: bool,
    /// The final position of the last branch test that ended open.
    last_open: Grid,
    /// Known-open buffers, one per nesting level.
    known: Vec<Option<Box<KnownOpen>>>,
}

/// Runs the analysis of `a.puzzle` and fills in `a`.
pub(super) fn analyse(a: &mut Analysis) {
    let opts = a.options;
    let mut state = a.puzzle;
    let outcome = propagate(&mut state, &opts.profile);
    a.start = state;
    let tree = match opts.recording {
        Recording::ChainAndTree => Some(Tree::new(state.pair_count() as u8, opts.max_tree_nodes)),
        _ => None,
    };
    let trace = match opts.recording {
        Recording::Off => None,
        _ => Some(Trace::new(&a.given, tree)),
    };
    let mut engine = Engine {
        opts: &opts,
        counters: super::Counters::default(),
        trace,
        decisions: Vec::new(),
        pairs: Vec::new(),
        orders: Vec::new(),
        top_depth: 0,
        sweep: false,
        last_open: Grid::empty(),
        known: Vec::new(),
    };
    engine.sweep = engine.trace.is_none() && opts.decisions == DecisionKinds::CANDIDATE;
    if let Some(t) = engine.trace.as_mut() {
        let ctx = crate::chain::Context {
            levels: t.path.clone(),
        };
        t.push_line(crate::chain::Marker::Sta, ctx, None, &state, false);
    }
    let result = match outcome {
        Outcome::Solved => {
            if let Some(t) = engine.trace.as_mut() {
                let ctx = crate::chain::Context {
                    levels: t.path.clone(),
                };
                t.push_line(
                    crate::chain::Marker::Prf,
                    ctx,
                    Some(crate::chain::LineResult::Sol),
                    &state,
                    true,
                );
            }
            Ok(Res::Solved(state))
        }
        Outcome::Contradiction(_) => Ok(Res::Contradiction),
        Outcome::Open => match opts.walk {
            Walk::BreadthFirst => engine.closure(&mut state, opts.max_depth, 0),
            Walk::DepthFirst => engine.depth_first(&mut state, opts.max_depth, 0),
        },
    };
    a.status = match result {
        Ok(Res::Solved(g)) => {
            state = g;
            a.depth = Some(engine.top_depth);
            Status::Solved
        }
        Ok(Res::Contradiction) => Status::NoSolution,
        Ok(Res::Open(_)) => Status::Unsolved(Limit::Depth),
        Err(Abort(limit)) => Status::Unsolved(limit),
    };
    a.end = state;
    a.counters = engine.counters;
    if let Some(t) = engine.trace {
        a.facts = t
            .path
            .first()
            .map(|l| l[a.given.len().min(l.len())..].to_vec())
            .unwrap_or_default();
        a.lines = t.lines;
        a.tree = t.tree;
    }
}

impl Engine<'_> {
    /// Counts one branch test and enforces the budget.
    #[inline]
    fn tick(&mut self) -> Result<(), Abort> {
        self.counters.tests += 1;
        let b = &self.opts.budget;
        if let Some(max) = b.max_tests {
            if self.counters.tests > max {
                return Err(Abort(Limit::Budget));
            }
        }
        if let Some(deadline) = b.deadline {
            if self.counters.tests % 64 == 0 && Instant::now() >= deadline {
                return Err(Abort(Limit::Timeout));
            }
        }
        Ok(())
    }

    fn buffers(&mut self, level: usize) {
        while self.decisions.len() <= level {
            self.decisions.push(Vec::new());
            self.pairs.push(Vec::new());
            self.orders.push(Vec::new());
            self.known.push(Some(KnownOpen::new()));
        }
    }

    /// [`Engine::test`], unless `known` (when given) already shows the branch open; an open
    /// result is noted in `known`.
    fn tested(
        &mut self,
        state: &Grid,
        [b, other]: [Statement; 2],
        (k, level): (u8, usize),
        under: (Option<NodeIndex>, EdgeKind),
        known: Option<&mut KnownOpen>,
    ) -> Result<Res, Abort> {
        let Some(known) = known else {
            return self.test(state, b, other, k, level, under);
        };
        if known.covers(state, b) {
            return Ok(Res::Open(0));
        }
        let r = self.test(state, b, other, k, level, under)?;
        if let Res::Open(_) = r {
            known.note(state, &self.last_open);
        }
        Ok(r)
    }

    /// `test(state, branch, k)`: apply, propagate; at `k > 1` run the closure inside.
    fn test(
        &mut self,
        state: &Grid,
        b: Statement,
        other: Statement,
        k: u8,
        level: usize,
        under: (Option<NodeIndex>, EdgeKind),
    ) -> Result<Res, Abort> {
        self.tick()?;
        let mut g = *state;
        b.apply(&mut g);
        let outcome = propagate_from(&mut g, b.cell, &self.opts.profile);
        let solution_proves = self.opts.proof == Proof::Solution;
        let n = self.trace.as_mut().and_then(|t| {
            t.node_under(under.0, node(NodeKind::Branch, Some(b), k, level), under.1)
        });
        match outcome {
            Outcome::Contradiction(_) => {
                if let Some(t) = self.trace.as_mut() {
                    t.set_outcome(n, NodeOutcome::Ctr, 0);
                    t.refuted(b, Some(other), &g);
                }
                return Ok(Res::Contradiction);
            }
            Outcome::Solved if solution_proves => {
                if let Some(t) = self.trace.as_mut() {
                    t.set_outcome(n, NodeOutcome::Sol, 0);
                    t.solved_by(b, &g);
                }
                return Ok(Res::Solved(g));
            }
            Outcome::Solved => {
                if let Some(t) = self.trace.as_mut() {
                    t.set_outcome(n, NodeOutcome::Open, 0);
                }
                self.last_open = g;
                return Ok(Res::Open(0));
            }
            Outcome::Open => {}
        }
        if k == 1 {
            let pairs = g.pair_count() as u8;
            if let Some(t) = self.trace.as_mut() {
                t.set_outcome(n, NodeOutcome::Open, pairs);
            }
            self.last_open = g;
            return Ok(Res::Open(pairs));
        }
        // A hypothesis: the closure inside the branch.
        self.counters.hypotheses += 1;
        let mark = self.trace.as_mut().map(|t| {
            t.parents.push(n);
            t.open(b, &g)
        });
        let inner = match self.opts.walk {
            Walk::BreadthFirst => self.closure(&mut g, k - 1, level + 1),
            Walk::DepthFirst => self.depth_first(&mut g, k - 1, level + 1),
        };
        let inner = match inner {
            Ok(r) => r,
            Err(e) => {
                if let Some(t) = self.trace.as_mut() {
                    t.parents.pop();
                }
                return Err(e);
            }
        };
        let res = match inner {
            Res::Solved(s) if solution_proves => Res::Solved(s),
            Res::Solved(_) => Res::Open(0),
            other => other,
        };
        if let Some(t) = self.trace.as_mut() {
            t.parents.pop();
            match res {
                Res::Contradiction => {
                    t.set_outcome(n, NodeOutcome::Ctr, 0);
                    t.close_refuted(Some(other), &g);
                }
                Res::Solved(_) => {
                    t.set_outcome(n, NodeOutcome::Sol, 0);
                    t.close_solved();
                }
                Res::Open(_) => {
                    t.set_outcome(n, NodeOutcome::Open, g.pair_count() as u8);
                    t.close_open(mark.unwrap_or(0), &g);
                }
            }
        }
        Ok(match res {
            Res::Open(_) => {
                // The position after the facts found inside the hypothesis.
                self.last_open = g;
                Res::Open(g.pair_count() as u8)
            }
            r => r,
        })
    }

    /// Applies fact `f` to `state` and propagates; records it.
    fn fact(&mut self, state: &mut Grid, f: Statement, level: usize) -> Res {
        self.counters.facts += 1;
        if level == 0 {
            self.counters.top_facts += 1;
        }
        f.apply(state);
        let outcome = propagate_from(state, f.cell, &self.opts.profile);
        let solved = outcome == Outcome::Solved;
        if let Some(t) = self.trace.as_mut() {
            let n = t.node(node(NodeKind::Fact, Some(f), 0, level), EdgeKind::Inside);
            let o = match outcome {
                Outcome::Solved => NodeOutcome::Sol,
                Outcome::Contradiction(_) => NodeOutcome::Ctr,
                Outcome::Open => NodeOutcome::Open,
            };
            t.set_outcome(n, o, state.pair_count() as u8);
            t.fact(f, state, solved);
        }
        match outcome {
            Outcome::Solved => Res::Solved(*state),
            Outcome::Contradiction(_) => Res::Contradiction,
            Outcome::Open => Res::Open(state.pair_count() as u8),
        }
    }

    fn decision_node(&mut self, d: &Decision, j: u8, level: usize) -> Option<NodeIndex> {
        let t = self.trace.as_mut()?;
        let mut n = node(NodeKind::Decision, Some(d.branch(0)), j, level);
        n.decision = Some(*d);
        t.node(n, EdgeKind::Inside)
    }

    /// `closure(state, k)` (spec §5): passes at `j = 1..=k` over every decision, restarting at
    /// `j = 1` after every new fact. `state` is an open, propagated position; facts found are
    /// applied to it.
    fn closure(&mut self, state: &mut Grid, k: u8, level: usize) -> Result<Res, Abort> {
        self.buffers(level);
        'restart: loop {
            let mut decisions = std::mem::take(&mut self.decisions[level]);
            let mut pairs = std::mem::take(&mut self.pairs[level]);
            let mut order = std::mem::take(&mut self.orders[level]);
            generate(state, self.opts.decisions, &mut decisions);
            pairs.clear();
            pairs.resize(decisions.len(), 0);
            order.clear();
            order.extend(0..decisions.len());
            let result = self.passes(state, k, level, &decisions, &mut pairs, &mut order);
            self.decisions[level] = decisions;
            self.pairs[level] = pairs;
            self.orders[level] = order;
            match result? {
                Pass::Restart => continue 'restart,
                Pass::Done(r) => return Ok(r),
            }
        }
    }

    /// The passes of `closure` over one state, with this level's known-open buffer.
    fn passes(
        &mut self,
        state: &mut Grid,
        k: u8,
        level: usize,
        decisions: &[Decision],
        pairs: &mut [u8],
        order: &mut [usize],
    ) -> Result<Pass, Abort> {
        let mut known = self.known[level].take().unwrap_or_else(KnownOpen::new);
        let result = self.passes_with(state, k, level, decisions, pairs, order, &mut known);
        self.known[level] = Some(known);
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn passes_with(
        &mut self,
        state: &mut Grid,
        k: u8,
        level: usize,
        decisions: &[Decision],
        pairs: &mut [u8],
        order: &mut [usize],
        known: &mut KnownOpen,
    ) -> Result<Pass, Abort> {
        // With single-candidate decisions only and nothing recorded (trial-and-error
        // classification), a pass goes on after a fact and restarts at j = 1 only at its end.
        // Tests are monotone (a branch that is CTR or SOL stays so in any state with fewer
        // candidates) and so is the set of candidate decisions, so the closure reaches the same
        // fixpoint, result and depth with far fewer repeated tests. Pair decisions are not
        // monotone (a source pair that gets solved takes its decisions with it), so there the
        // restart after every fact of spec §5 is followed literally.
        let sweep = self.sweep;
        for j in 1..=k {
            let mut found = false;
            known.reset(!sweep);
            // Skipping known-open branches is exact where tests are monotone and no pair counts
            // are needed for a later ordering: every pass of a sweep, and the depth-1 pass of a
            // depth-1 closure (the inside of a depth-2 hypothesis), when nothing is recorded.
            let skip = self.trace.is_none() && (sweep || k == 1);
            if level == 0 {
                self.top_depth = self.top_depth.max(j);
            }
            if j == 2 {
                // Most promising first: the larger pair count of the two branches at j = 1.
                order.sort_by_key(|&i| std::cmp::Reverse(pairs[i]));
            }
            for &i in order.iter() {
                let d = decisions[i];
                if found {
                    // The cell may have lost values since the list was made.
                    let now = state.get(d.cell);
                    if (now & d.first).is_empty() || (now & d.rest).is_empty() {
                        continue;
                    }
                }
                let dn = self.decision_node(&d, j, level);
                let [b1, b2] = d.branches();
                let at = (j, level);
                let first = (dn, EdgeKind::First);
                let r1 = self.tested(state, [b1, b2], at, first, skip.then_some(&mut *known))?;
                if let Res::Solved(g) = r1 {
                    return Ok(Pass::Done(Res::Solved(g)));
                }
                let second = (dn, EdgeKind::Second);
                let r2 = self.tested(state, [b2, b1], at, second, skip.then_some(&mut *known))?;
                let fact = match (r1, r2) {
                    (_, Res::Solved(g)) => return Ok(Pass::Done(Res::Solved(g))),
                    (Res::Contradiction, Res::Contradiction) => {
                        if let Some(t) = self.trace.as_mut() {
                            if let Some(l) = t.path.last_mut() {
                                l.push(b2);
                            }
                            if level == 0 {
                                t.close_top_contradiction(state);
                            }
                        }
                        return Ok(Pass::Done(Res::Contradiction));
                    }
                    (Res::Contradiction, _) => b2,
                    (_, Res::Contradiction) => b1,
                    (r1, r2) => {
                        if j == 1 {
                            pairs[i] = open_pairs(r1).max(open_pairs(r2));
                        }
                        continue;
                    }
                };
                match self.fact(state, fact, level) {
                    Res::Open(_) if sweep => {
                        found = true;
                        known.reset(false);
                    }
                    Res::Open(_) => return Ok(Pass::Restart),
                    r => return Ok(Pass::Done(r)),
                }
            }
            if found {
                return Ok(Pass::Restart);
            }
        }
        Ok(Pass::Done(Res::Open(state.pair_count() as u8)))
    }

    /// The depth-first comparison walk: each branch is followed down to `k` before the next one.
    fn depth_first(&mut self, state: &mut Grid, k: u8, level: usize) -> Result<Res, Abort> {
        self.buffers(level);
        'restart: loop {
            let mut decisions = std::mem::take(&mut self.decisions[level]);
            generate(state, self.opts.decisions, &mut decisions);
            let mut found = None;
            'search: for &d in decisions.iter() {
                if level == 0 {
                    self.top_depth = self.top_depth.max(k);
                }
                let dn = self.decision_node(&d, k, level);
                for (which, edge) in [(0, EdgeKind::First), (1, EdgeKind::Second)] {
                    let (b, other) = (d.branch(which), d.branch(1 - which));
                    match self.test(state, b, other, k, level, (dn, edge)) {
                        Err(e) => {
                            self.decisions[level] = decisions;
                            return Err(e);
                        }
                        Ok(Res::Solved(g)) => {
                            found = Some(Res::Solved(g));
                            break 'search;
                        }
                        Ok(Res::Contradiction) => {
                            found = Some(self.fact(state, other, level));
                            break 'search;
                        }
                        Ok(Res::Open(_)) => {}
                    }
                }
            }
            self.decisions[level] = decisions;
            match found {
                Some(Res::Open(_)) => continue 'restart,
                Some(r) => return Ok(r),
                None => return Ok(Res::Open(state.pair_count() as u8)),
            }
        }
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
    single: [u16; 81],
    removed: [u16; 81],
    masks: [[u16; 4]; 81],
    len: [u8; 81],
}

impl KnownOpen {
    fn new() -> Box<KnownOpen> {
        Box::new(KnownOpen {
            general: false,
            any: false,
            single: [0; 81],
            removed: [0; 81],
            masks: [[0; 4]; 81],
            len: [0; 81],
        })
    }

    /// Forgets everything (a new pass, or a new state).
    fn reset(&mut self, general: bool) {
        if self.any {
            self.single = [0; 81];
            self.removed = [0; 81];
            self.len = [0; 81];
        }
        self.any = false;
        self.general = general;
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
        for (i, (s, r)) in state.cells().iter().zip(r.cells()).enumerate() {
            if s.len() < 2 || r == s {
                continue;
            }
            let r = r.bits();
            let n = self.len[i] as usize;
            let masks = &mut self.masks[i];
            // A kept mask inside `r` already covers everything `r` would.
            if masks[..n].iter().any(|m| m & !r == 0) {
                continue;
            }
            // Drop the masks that contain `r`; then keep `r`.
            let mut k = 0;
            for j in 0..n {
                if r & !masks[j] != 0 {
                    masks[k] = masks[j];
                    k += 1;
                }
            }
            if k < 4 {
                masks[k] = r;
                k += 1;
            }
            self.len[i] = k as u8;
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
            return self.masks[i][..self.len[i] as usize]
                .iter()
                .any(|m| m & !b.values.bits() == 0);
        }
        let now = state.get(b.cell).bits();
        let values = b.values.bits() & now;
        let outside = now & !values;
        (values.count_ones() == 1 && self.single[i] & values != 0)
            || (outside.count_ones() == 1 && self.removed[i] & outside != 0)
    }
}

enum Pass {
    Restart,
    Done(Res),
}

/// The pair count of an open result (0 otherwise).
#[inline]
fn open_pairs(r: Res) -> u8 {
    match r {
        Res::Open(p) => p,
        _ => 0,
    }
}

impl Trace {
    /// At top level both branches of a decision fail: the position itself is contradictory.
    fn close_top_contradiction(&mut self, at: &Grid) {
        let ctx = crate::chain::Context {
            levels: self.path.clone(),
        };
        self.push_line(
            crate::chain::Marker::Dis,
            ctx,
            Some(crate::chain::LineResult::Ctr(None)),
            at,
            true,
        );
    }
}
