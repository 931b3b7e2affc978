//! What the engine records while it works: the current context by level, the chain lines, and
//! the decision tree.

use crate::chain::{ChainLine, Context, LineResult, Marker};
use crate::decision::Decision;
use crate::explain::explain_at;
use crate::grid::Grid;
use crate::propagate::Profile;
use crate::statement::Statement;
use crate::tree::{EdgeKind, NodeKind, NodeOutcome, Tree, TreeNode};
use petgraph::graph::NodeIndex;
use serde::Serialize;
use std::time::Instant;

/// How many reasons [`Trace::finish`] works out between two readings of the clock.
const REASONS_PER_CLOCK: usize = 16;

/// A recorded chain line, flagged when it belongs to the summary rendering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TracedLine {
    /// The line, with its position.
    pub line: ChainLine,
    /// Whether the summary shows it (DIS and PRF lines that changed the state).
    pub summary: bool,
    /// The position the line shows, with every cell's candidates (for pictures).
    #[serde(skip)]
    pub grid: Grid,
    /// For a CTR found by propagation alone: the position with the hypothesis applied, whose
    /// reason is worked out once the analysis is over (only for the lines that stay).
    #[serde(skip)]
    pub(crate) tested: Option<Grid>,
    /// For a line with a reason: the position where the reason shows (the rounds of
    /// propagation from the hypothesis), which its picture draws and marks.
    #[serde(skip)]
    pub conflict: Option<Grid>,
}

/// What the engine tells whoever records its work. The search in `closure.rs` calls these hooks
/// and never looks at what they keep, so recording cannot change a result: classification runs
/// the same search with [`NoRecord`].
pub(super) trait Recorder {
    /// A handle on a recorded tree node (nothing when no tree is kept).
    type Node: Copy;
    /// Whether anything is recorded: the pair counts of the positions are then worked out for
    /// the recorder, and with `--proof contradiction` a branch holding the solution is tested
    /// and shown (not counted) rather than answered open unseen. Which shortcuts the search
    /// takes is decided by `Options::shortcuts`, not by the recorder.
    const RECORDS: bool = true;

    /// The propagated start position; `solved` when propagation alone solves it.
    fn start(&mut self, at: &Grid, solved: bool);
    /// A decision about to be tested at depth `j`, nesting `level`.
    fn decision(&mut self, d: &Decision, j: u8, level: usize) -> Self::Node;
    /// A branch about to be tested under decision node `under`.
    fn branch(
        &mut self,
        under: Self::Node,
        edge: EdgeKind,
        b: Statement,
        j: u8,
        level: usize,
    ) -> Self::Node;
    /// Branch `b` (opposite: `other`), applied to `from`, ended by propagation alone in `at`.
    fn branch_ended(
        &mut self,
        n: Self::Node,
        b: Statement,
        other: Statement,
        end: End,
        from_at: [&Grid; 2],
    );
    /// Branch `b` opens a hypothesis in position `at`; returns a mark for closing it.
    fn open(&mut self, n: Self::Node, b: Statement, at: &Grid) -> usize;
    /// The hypothesis opened at `mark` ended (`other` is the opposite branch), in position `at`.
    fn close(&mut self, n: Self::Node, mark: usize, other: Statement, end: End, at: &Grid);
    /// Facts applied at `level` (in canonical order), then propagation ended in `at`.
    fn facts(&mut self, facts: &[Statement], level: usize, end: End, at: &Grid);
    /// Both branches of a decision at `level` failed: the position itself is contradictory;
    /// `last` is the branch tested last (it joins the context, which closes with `DIS`).
    fn contradiction(&mut self, last: Statement, level: usize, at: &Grid);
    /// Drops the lines recorded in `from..to` (found in a pass that ended before applying them).
    fn discard(&mut self, from: usize, to: usize);
    /// How many lines are recorded so far (a mark for [`Recorder::reorder`]).
    fn mark(&self) -> usize;
    /// Puts the line segments recorded since `from` (`(key, start, end)`, contiguous, in the
    /// order they were recorded) in order of `key`.
    fn reorder(&mut self, from: usize, segments: &mut [(usize, usize, usize)]);
}

/// How a test, a hypothesis or a propagation ended, for the recorder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// A contradiction.
    Ctr,
    /// The solution (or, when only contradictions prove, a full grid taken as open).
    Sol,
    /// Neither, with the pair count of the position.
    Open(u8),
}

/// Records nothing (classification).
pub(super) struct NoRecord;

impl Recorder for NoRecord {
    const RECORDS: bool = false;
    type Node = ();
    fn start(&mut self, _: &Grid, _: bool) {}
    fn decision(&mut self, _: &Decision, _: u8, _: usize) {}
    fn branch(&mut self, _: (), _: EdgeKind, _: Statement, _: u8, _: usize) {}
    fn branch_ended(&mut self, _: (), _: Statement, _: Statement, _: End, _: [&Grid; 2]) {}
    fn open(&mut self, _: (), _: Statement, _: &Grid) -> usize {
        0
    }
    fn close(&mut self, _: (), _: usize, _: Statement, _: End, _: &Grid) {}
    fn facts(&mut self, _: &[Statement], _: usize, _: End, _: &Grid) {}
    fn contradiction(&mut self, _: Statement, _: usize, _: &Grid) {}
    fn discard(&mut self, _: usize, _: usize) {}
    fn mark(&self) -> usize {
        0
    }
    fn reorder(&mut self, _: usize, _: &mut [(usize, usize, usize)]) {}
}

/// Records the chain lines, the context by level and, when asked, the decision tree.
pub(super) struct Trace {
    /// The context by level: facts at top level, then each open hypothesis and its facts.
    pub path: Vec<Vec<Statement>>,
    pub lines: Vec<TracedLine>,
    pub tree: Option<Tree>,
    /// The node under which decisions and facts are recorded, per level (None past the limit).
    parents: Vec<Option<NodeIndex>>,
    /// The propagation rules, to explain contradictions.
    profile: Profile,
}

impl Trace {
    pub fn new(given: &[Statement], tree: Option<Tree>, profile: Profile) -> Trace {
        let root = tree.as_ref().map(|t| t.root);
        Trace {
            path: vec![given.to_vec()],
            lines: Vec::new(),
            tree,
            parents: vec![root],
            profile,
        }
    }

    fn context(&self) -> Context {
        Context {
            levels: self.path.clone(),
        }
    }

    fn context_with(&self, hypothesis: Statement) -> Context {
        let mut levels = self.path.clone();
        levels.push(vec![hypothesis]);
        Context { levels }
    }

    fn push_line(
        &mut self,
        marker: Marker,
        context: Context,
        result: Option<LineResult>,
        position: &Grid,
        summary: bool,
    ) {
        self.lines.push(TracedLine {
            line: ChainLine {
                marker,
                context,
                result,
                position: Some(position.to_line()),
                reason: None,
            },
            summary,
            grid: *position,
            tested: None,
            conflict: None,
        });
    }

    /// Adds a node under the current parent.
    fn node(&mut self, node: TreeNode, edge: EdgeKind) -> Option<NodeIndex> {
        let parent = (*self.parents.last()?)?;
        self.tree.as_mut()?.add(parent, node, edge)
    }

    /// Sets the outcome and pair count of a recorded node.
    fn set_outcome(&mut self, n: Option<NodeIndex>, end: End) {
        let (outcome, pairs) = match end {
            End::Ctr => (NodeOutcome::Ctr, 0),
            End::Sol => (NodeOutcome::Sol, 0),
            End::Open(p) => (NodeOutcome::Open, p),
        };
        if let (Some(t), Some(n)) = (self.tree.as_mut(), n) {
            if let Some(w) = t.graph.node_weight_mut(n) {
                w.outcome = Some(outcome);
                w.pairs = pairs;
            }
        }
    }
}

impl Trace {
    /// The recorded lines, each propagation CTR with its reason (worked out here, once, for the
    /// lines that stayed: most tested branches end inside hypotheses whose lines are dropped).
    /// The reasons are part of the analysis's work: once `deadline` has passed, the remaining
    /// lines keep no reason (the clock is read every [`REASONS_PER_CLOCK`] reasons).
    pub fn finish(mut self, deadline: Option<Instant>) -> (Vec<TracedLine>, Option<Tree>) {
        let mut explained = 0usize;
        for l in &mut self.lines {
            let Some(g) = l.tested else { continue };
            if explained % REASONS_PER_CLOCK == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            explained += 1;
            if let Some((reason, at)) = explain_at(&g, &self.profile) {
                l.line.reason = Some(reason);
                l.conflict = Some(at);
            }
        }
        (self.lines, self.tree)
    }
}

impl Recorder for Trace {
    type Node = Option<NodeIndex>;

    fn start(&mut self, at: &Grid, solved: bool) {
        let ctx = self.context();
        self.push_line(Marker::Sta, ctx, None, at, false);
        if solved {
            let ctx = self.context();
            self.push_line(Marker::Prf, ctx, Some(LineResult::Sol), at, true);
        }
    }

    fn decision(&mut self, d: &Decision, j: u8, level: usize) -> Option<NodeIndex> {
        self.tree.as_ref()?;
        let mut n = node(NodeKind::Decision, Some(d.branch(0)), j, level);
        n.decision = Some(*d);
        self.node(n, EdgeKind::Inside)
    }

    fn branch(
        &mut self,
        under: Option<NodeIndex>,
        edge: EdgeKind,
        b: Statement,
        j: u8,
        level: usize,
    ) -> Option<NodeIndex> {
        let n = node(NodeKind::Branch, Some(b), j, level);
        self.tree.as_mut()?.add(under?, n, edge)
    }

    /// `DIS path # b => CTR => other` or `PRF path # b => SOL`.
    fn branch_ended(
        &mut self,
        n: Option<NodeIndex>,
        b: Statement,
        other: Statement,
        end: End,
        [from, at]: [&Grid; 2],
    ) {
        self.set_outcome(n, end);
        let result = match end {
            End::Ctr => (Marker::Dis, LineResult::Ctr(Some(other))),
            End::Sol => (Marker::Prf, LineResult::Sol),
            End::Open(_) => return,
        };
        let ctx = self.context_with(b);
        self.push_line(result.0, ctx, Some(result.1), at, true);
        if end == End::Ctr {
            let mut g = *from;
            b.apply(&mut g);
            if let Some(l) = self.lines.last_mut() {
                l.tested = Some(g);
            }
            // Only with a tree (rendering): every CTR node gets its reason at once.
            if let (Some(t), Some(n)) = (self.tree.as_mut(), n) {
                if let Some(w) = t.graph.node_weight_mut(n) {
                    w.reason = explain_at(&g, &self.profile).map(|(r, _)| r);
                }
            }
        }
    }

    /// A new level and a HYP line (steps only).
    fn open(&mut self, n: Option<NodeIndex>, b: Statement, at: &Grid) -> usize {
        self.parents.push(n);
        let mark = self.lines.len();
        self.path.push(vec![b]);
        let ctx = self.context();
        self.push_line(Marker::Hyp, ctx, None, at, false);
        mark
    }

    /// Refuted: `DIS path => CTR => other`. Solved: its PRF line was written inside. Open: its
    /// inner lines are dropped, and when it found facts an INC line (steps only) says which.
    fn close(&mut self, n: Option<NodeIndex>, mark: usize, other: Statement, end: End, at: &Grid) {
        self.parents.pop();
        self.set_outcome(n, end);
        match end {
            End::Ctr => {
                let ctx = self.context();
                self.push_line(
                    Marker::Dis,
                    ctx,
                    Some(LineResult::Ctr(Some(other))),
                    at,
                    true,
                );
            }
            End::Sol => {}
            End::Open(_) => {
                self.lines.truncate(mark);
                if self.path.last().is_some_and(|l| l.len() > 1) {
                    let ctx = self.context();
                    self.push_line(Marker::Inc, ctx, None, at, false);
                }
            }
        }
        self.path.pop();
    }

    /// The facts join the innermost level; a PRF line when they solve the puzzle, and the STA
    /// line (steps only).
    fn facts(&mut self, facts: &[Statement], level: usize, end: End, at: &Grid) {
        for &f in facts {
            if let Some(l) = self.path.last_mut() {
                l.push(f);
            }
            if self.tree.is_some() {
                let n = self.node(node(NodeKind::Fact, Some(f), 0, level), EdgeKind::Inside);
                self.set_outcome(n, end);
            }
        }
        if end == End::Sol {
            let ctx = self.context();
            self.push_line(Marker::Prf, ctx, Some(LineResult::Sol), at, true);
        }
        let ctx = self.context();
        self.push_line(Marker::Sta, ctx, None, at, false);
    }

    fn contradiction(&mut self, last: Statement, level: usize, at: &Grid) {
        if let Some(l) = self.path.last_mut() {
            l.push(last);
        }
        if level == 0 {
            let ctx = self.context();
            self.push_line(Marker::Dis, ctx, Some(LineResult::Ctr(None)), at, true);
        }
    }

    fn discard(&mut self, from: usize, to: usize) {
        if from < to && to <= self.lines.len() {
            self.lines.drain(from..to);
        }
    }

    fn mark(&self) -> usize {
        self.lines.len()
    }

    fn reorder(&mut self, from: usize, segments: &mut [(usize, usize, usize)]) {
        if segments.windows(2).all(|w| w[0].0 <= w[1].0) {
            return;
        }
        let tail = self.lines.split_off(from);
        segments.sort_by_key(|s| s.0);
        for &(_, start, end) in segments.iter() {
            self.lines
                .extend_from_slice(&tail[start - from..end - from]);
        }
    }
}

/// A plain node.
pub(super) fn node(
    kind: NodeKind,
    statement: Option<Statement>,
    depth: u8,
    level: usize,
) -> TreeNode {
    TreeNode {
        kind,
        statement,
        decision: None,
        depth,
        level: level.min(u8::MAX as usize) as u8,
        outcome: None,
        pairs: 0,
        reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Candidates, Cell};

    /// A trace holding `n` propagation CTR lines, each tested position with an empty cell.
    fn trace_of_ctrs(n: usize) -> Trace {
        let mut g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        g.set(Cell::all().nth(1).unwrap(), Candidates::NONE);
        let mut trace = Trace::new(&[], None, Profile::DEFAULT);
        for _ in 0..n {
            let ctx = trace.context();
            trace.push_line(Marker::Dis, ctx, Some(LineResult::Ctr(None)), &g, false);
            if let Some(l) = trace.lines.last_mut() {
                l.tested = Some(g);
            }
        }
        trace
    }

    #[test]
    fn reasons_are_worked_out_within_the_deadline() {
        let reasons =
            |lines: &[TracedLine]| lines.iter().filter(|l| l.line.reason.is_some()).count();
        let (lines, _) = trace_of_ctrs(40).finish(None);
        assert_eq!(reasons(&lines), 40);
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        let (lines, _) = trace_of_ctrs(40).finish(Some(later));
        assert_eq!(reasons(&lines), 40);
        // Once the deadline has passed, no reason more: the lines stay, without one.
        let (lines, _) = trace_of_ctrs(40).finish(Some(Instant::now()));
        assert_eq!((lines.len(), reasons(&lines)), (40, 0));
    }
}
