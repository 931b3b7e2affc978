//! What the engine records while it works: the current context by level, the chain lines, and
//! the decision tree.

use crate::chain::{ChainLine, Context, LineResult, Marker};
use crate::grid::Grid;
use crate::statement::Statement;
use crate::tree::{EdgeKind, NodeKind, NodeOutcome, Tree, TreeNode};
use petgraph::graph::NodeIndex;
use serde::Serialize;

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
}

pub(super) struct Trace {
    /// The context by level: facts at top level, then each open hypothesis and its facts.
    pub path: Vec<Vec<Statement>>,
    pub lines: Vec<TracedLine>,
    pub tree: Option<Tree>,
    /// The node under which decisions and facts are recorded, per level (None past the limit).
    pub parents: Vec<Option<NodeIndex>>,
}

impl Trace {
    pub fn new(given: &[Statement], tree: Option<Tree>) -> Trace {
        let root = tree.as_ref().map(|t| t.root);
        Trace {
            path: vec![given.to_vec()],
            lines: Vec::new(),
            tree,
            parents: vec![root],
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

    pub fn push_line(
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
            },
            summary,
            grid: *position,
        });
    }

    /// `DIS path # b => CTR => other`, for a branch refuted by propagation alone.
    pub fn refuted(&mut self, b: Statement, other: Option<Statement>, at: &Grid) {
        let ctx = self.context_with(b);
        self.push_line(Marker::Dis, ctx, Some(LineResult::Ctr(other)), at, true);
    }

    /// `PRF path # b => SOL`, for a branch solved by propagation alone.
    pub fn solved_by(&mut self, b: Statement, at: &Grid) {
        let ctx = self.context_with(b);
        self.push_line(Marker::Prf, ctx, Some(LineResult::Sol), at, true);
    }

    /// Opens hypothesis `b`: a new level, a HYP line (steps only). Returns the line mark.
    pub fn open(&mut self, b: Statement, at: &Grid) -> usize {
        let mark = self.lines.len();
        self.path.push(vec![b]);
        let ctx = self.context();
        self.push_line(Marker::Hyp, ctx, None, at, false);
        mark
    }

    /// Closes the innermost hypothesis, refuted: `DIS path => CTR => other`.
    pub fn close_refuted(&mut self, other: Option<Statement>, at: &Grid) {
        let ctx = self.context();
        self.push_line(Marker::Dis, ctx, Some(LineResult::Ctr(other)), at, true);
        self.path.pop();
    }

    /// Closes the innermost hypothesis as inconclusive: its inner lines are dropped, and when it
    /// found facts an INC line (steps only) says what it found.
    pub fn close_open(&mut self, mark: usize, at: &Grid) {
        self.lines.truncate(mark);
        if self.path.last().is_some_and(|l| l.len() > 1) {
            let ctx = self.context();
            self.push_line(Marker::Inc, ctx, None, at, false);
        }
        self.path.pop();
    }

    /// Closes the innermost hypothesis, solved (its PRF line was written inside).
    pub fn close_solved(&mut self) {
        self.path.pop();
    }

    /// Records fact `f` at the innermost level: the STA line (steps only), and a PRF line when the
    /// fact solves the puzzle.
    pub fn fact(&mut self, f: Statement, state: &Grid, solved: bool) {
        if let Some(level) = self.path.last_mut() {
            level.push(f);
        }
        if solved {
            let ctx = self.context();
            self.push_line(Marker::Prf, ctx, Some(LineResult::Sol), state, true);
        }
        let ctx = self.context();
        self.push_line(Marker::Sta, ctx, None, state, false);
    }

    /// Adds a node under the current parent.
    pub fn node(&mut self, node: TreeNode, edge: EdgeKind) -> Option<NodeIndex> {
        let parent = (*self.parents.last()?)?;
        self.tree.as_mut()?.add(parent, node, edge)
    }

    /// Adds a node under `parent`.
    pub fn node_under(
        &mut self,
        parent: Option<NodeIndex>,
        node: TreeNode,
        edge: EdgeKind,
    ) -> Option<NodeIndex> {
        self.tree.as_mut()?.add(parent?, node, edge)
    }

    /// Sets the outcome and pair count of a recorded node.
    pub fn set_outcome(&mut self, n: Option<NodeIndex>, outcome: NodeOutcome, pairs: u8) {
        if let (Some(t), Some(n)) = (self.tree.as_mut(), n) {
            if let Some(w) = t.graph.node_weight_mut(n) {
                w.outcome = Some(outcome);
                w.pairs = pairs;
            }
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
    }
}
