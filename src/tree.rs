//! The decision tree of an analysis, as a petgraph graph of plain data.
//!
//! The engine records a node per tested branch (with its statement, depth, outcome and pair
//! count), a node per decision with edges to its two branches, a node per fact found, and edges
//! from a hypothesis to the decisions tested inside it. Chains and pictures are derived from this
//! record; renderers read it and never run the engine.

use crate::decision::Decision;
use crate::explain::Reason;
use crate::statement::Statement;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use std::fmt;

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// The analysed position (the propagated puzzle).
    Root,
    /// A binary decision; its two children are the branches.
    Decision,
    /// A tested branch; when it was tested at depth 2 or more it is a hypothesis and the tests
    /// made inside it are its descendants.
    Branch,
    /// A fact found (a branch whose other side was disproved), applied to the state.
    Fact,
}

/// The outcome of a branch test or of the state after a fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum NodeOutcome {
    /// Contradiction.
    Ctr,
    /// Solution.
    Sol,
    /// Neither (the node's `pairs` gives the pair count).
    Open,
}

impl fmt::Display for NodeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeOutcome::Ctr => "CTR",
            NodeOutcome::Sol => "SOL",
            NodeOutcome::Open => "OPEN",
        })
    }
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TreeNode {
    /// What the node stands for.
    pub kind: NodeKind,
    /// The branch statement (Branch), the fact (Fact), branch 1 (Decision); none for the root.
    pub statement: Option<Statement>,
    /// The decision (Decision nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The test depth `j` (Branch nodes), 0 otherwise.
    pub depth: u8,
    /// The nesting level: 0 at top level, 1 inside a hypothesis, …
    pub level: u8,
    /// The outcome (Branch and Fact nodes, and the root).
    pub outcome: Option<NodeOutcome>,
    /// Two-valued cells of the resulting state.
    pub pairs: u8,
    /// Why a CTR branch fails, when propagation alone shows it (worked out only when a tree is
    /// recorded; a refuted hypothesis has none: a decision inside it fails both ways).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
}

impl fmt::Display for TreeNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.statement, self.outcome) {
            (Some(s), Some(NodeOutcome::Open)) => write!(f, "{s} [{}]", pairs(self.pairs)),
            (Some(s), Some(o)) => write!(f, "{s} [{o}]"),
            (Some(s), None) => write!(f, "{s}"),
            (None, _) => write!(f, "start [{}]", pairs(self.pairs)),
        }
    }
}

/// `1 pair`, `3 pairs`.
fn pairs(n: u8) -> String {
    if n == 1 {
        "1 pair".into()
    } else {
        format!("{n} pairs")
    }
}

/// The label of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// From a decision to its branch 1.
    First,
    /// From a decision to its branch 2.
    Second,
    /// From a state or hypothesis to a decision tested in it, or to a fact found in it.
    Inside,
}

impl fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EdgeKind::First => "1",
            EdgeKind::Second => "2",
            EdgeKind::Inside => "",
        })
    }
}

/// The decision tree of one analysis. Serialized (JSON) as `{"root", "truncated", "nodes",
/// "edges"}`: the nodes in index order, each edge as `{"from", "to", "kind"}` (node indices).
#[derive(Clone, Debug)]
pub struct Tree {
    /// The graph; node indices grow in the order the engine made the tests.
    pub graph: DiGraph<TreeNode, EdgeKind>,
    /// The root node.
    pub root: NodeIndex,
    /// Whether recording stopped at the node limit before the analysis ended.
    pub truncated: bool,
    limit: usize,
}

impl Tree {
    /// A tree with a root node for a position with `pairs` two-valued cells, recording at most
    /// `limit` nodes.
    pub fn new(pairs: u8, limit: usize) -> Tree {
        let mut graph = DiGraph::new();
        let root = graph.add_node(TreeNode {
            kind: NodeKind::Root,
            statement: None,
            decision: None,
            depth: 0,
            level: 0,
            outcome: Some(NodeOutcome::Open),
            pairs,
            reason: None,
        });
        Tree {
            graph,
            root,
            truncated: false,
            limit: limit.max(1),
        }
    }

    /// Adds `node` under `parent`; `None` once the node limit is reached.
    pub fn add(&mut self, parent: NodeIndex, node: TreeNode, edge: EdgeKind) -> Option<NodeIndex> {
        if self.graph.node_count() >= self.limit {
            self.truncated = true;
            return None;
        }
        let n = self.graph.add_node(node);
        self.graph.add_edge(parent, n, edge);
        Some(n)
    }

    /// The children of `n` in the order they were recorded.
    pub fn children(&self, n: NodeIndex) -> Vec<NodeIndex> {
        let mut c: Vec<NodeIndex> = self.graph.edges(n).map(|e| e.target()).collect();
        c.sort_unstable();
        c
    }

    /// The number of branch tests recorded.
    pub fn branch_count(&self) -> usize {
        self.graph
            .node_weights()
            .filter(|n| n.kind == NodeKind::Branch)
            .count()
    }

    /// The tree in Graphviz DOT: a CTR node with a reason has it as its `tooltip`; a node's
    /// children wrap into rows of [`DOT_ROW`] (invisible edges put each row a rank below the
    /// one before, so the picture grows down rather than across); a legend cluster names the
    /// colours.
    pub fn to_dot(&self) -> String {
        use fmt::Write;
        let mut dot = String::from(
            "digraph tree {\n  node [shape=box style=filled fontname=\"sans-serif\"];\n",
        );
        for i in self.graph.node_indices() {
            let n = &self.graph[i];
            let tooltip = match &n.reason {
                Some(r) => format!(" tooltip=\"{}\"", dot_text(&r.to_string())),
                None => String::new(),
            };
            let _ = writeln!(
                dot,
                "  {} [label=\"{}\" fillcolor=\"{}\"{tooltip}];",
                i.index(),
                dot_text(&n.to_string()),
                dot_colour(n)
            );
        }
        for e in self.graph.edge_references() {
            let label = match e.weight() {
                EdgeKind::Inside => String::new(),
                k => format!(" [label=\"{k}\"]"),
            };
            let _ = writeln!(
                dot,
                "  {} -> {}{label};",
                e.source().index(),
                e.target().index()
            );
        }
        // Wrapping: a node's children past the first DOT_ROW hang, DOT_ROW at a time, one rank
        // below the row before (invisible edges), instead of one strip as wide as all of them.
        for i in self.graph.node_indices() {
            let mut children: Vec<usize> =
                self.graph.edges(i).map(|e| e.target().index()).collect();
            children.sort_unstable();
            for k in DOT_ROW..children.len() {
                let _ = writeln!(
                    dot,
                    "  {} -> {} [style=invis];",
                    children[k - DOT_ROW],
                    children[k]
                );
            }
        }
        dot.push_str("  subgraph cluster_legend {\n    label=\"Legend\";\n");
        for (id, colour, text) in DOT_LEGEND {
            let _ = writeln!(
                dot,
                "    legend_{id} [label=\"{text}\" fillcolor=\"{colour}\"];"
            );
        }
        let _ = writeln!(
            dot,
            "    legend_rows [shape=plaintext style=\"\" label=\"more than {DOT_ROW} children \
             of a node wrap into rows, one below the other; edge labels 1 and 2 are a \
             decision's two branches\"];"
        );
        dot.push_str("  }\n}\n");
        dot
    }
}

/// The most children of one node side by side in the DOT export; more wrap into rows.
pub const DOT_ROW: usize = 4;

/// The DOT legend: node id, colour, meaning.
const DOT_LEGEND: [(&str, &str, &str); 5] = [
    ("ctr", "#d9534f", "contradiction (CTR)"),
    ("sol", "#5cb85c", "solution (SOL)"),
    ("decision", "#cccccc", "decision"),
    ("open", "#5bc0de", "branch or fact, open: pairs left"),
    ("start", "#5bc0de", "start: the position and its pairs"),
];

/// The fill colour of a node in DOT (those of [`DOT_LEGEND`]).
fn dot_colour(n: &TreeNode) -> &'static str {
    match n.outcome {
        Some(NodeOutcome::Ctr) => "#d9534f",
        Some(NodeOutcome::Sol) => "#5cb85c",
        _ if n.kind == NodeKind::Decision => "#cccccc",
        _ => "#5bc0de",
    }
}

/// Text for a quoted DOT string: backslashes and quotes escaped, line breaks as `\n`.
fn dot_text(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// An edge of the serialized tree.
#[derive(Serialize)]
struct EdgeRecord {
    from: usize,
    to: usize,
    kind: EdgeKind,
}

impl Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let nodes: Vec<&TreeNode> = self.graph.node_weights().collect();
        let edges: Vec<EdgeRecord> = self
            .graph
            .edge_references()
            .map(|e| EdgeRecord {
                from: e.source().index(),
                to: e.target().index(),
                kind: *e.weight(),
            })
            .collect();
        let mut st = s.serialize_struct("Tree", 4)?;
        st.serialize_field("root", &self.root.index())?;
        st.serialize_field("truncated", &self.truncated)?;
        st.serialize_field("nodes", &nodes)?;
        st.serialize_field("edges", &edges)?;
        st.end()
    }
}
