//! Decision trees as SVG, legible at any size: the proof's path open and at the top (in each
//! state on it, the decision that ends the state's search first, then the decisions that found
//! something, in the search's order), everything else folded after it per hypothesis (or per
//! row of decisions that found nothing), in a layout whose width is
//! bounded (children that do not fit beside each other wrap into rows under their parent, joined
//! by a bus on the left; each pass of the search starts a labelled row, restarts after facts
//! included), with the folded parts inside the SVG as hidden panels that its own script opens on
//! click, beside zoom, pan and a search by cell.
//!
//! Why panels: a folded node opens as a panel drawn over the picture just below it, so the
//! static layout never re-flows and reserves no empty space; without JavaScript the picture is
//! complete as drawn (each folded node says how many nodes and tests it hides and its outcome).

use super::grid::shorten;
use super::{colours, svg_document, text_width, COLOURS};
use crate::tree::{NodeKind, NodeOutcome, Tree, TreeNode};
use petgraph::graph::NodeIndex;
use svg::node::element::{Group, Path, Rectangle, Script, Style, Text, Title};
use svg::node::Blob;

/// How a tree is drawn (the settings the report uses; [`TreeView`] has every setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStyle {
    /// Open only the proof's path ([`Expand::Proof`]); otherwise open everything
    /// ([`Expand::All`]) up to `max_nodes`.
    pub only_productive: bool,
    /// The most boxes drawn, open or in panels; past it folded nodes keep their counts and the
    /// picture says how many nodes it leaves out.
    pub max_nodes: usize,
    /// The most subtrees side by side in one row; more wrap into further rows.
    pub row_width: usize,
}

impl Default for TreeStyle {
    fn default() -> Self {
        TreeStyle {
            only_productive: false,
            max_nodes: 2_000,
            row_width: 8,
        }
    }
}

/// Which hypotheses are drawn open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Expand {
    /// The proof's path: hypotheses that end in CTR or SOL are open (while the picture has
    /// fewer than [`PROOF_BOXES`] boxes, or a quarter of the cap when that is less; later ones
    /// are folded), the others folded, and runs of decisions with no CTR or SOL branch folded
    /// into one node.
    #[default]
    Proof,
    /// Everything, up to the node cap (past it, hypotheses and runs are folded).
    All,
    /// Only the top level: every hypothesis folded, runs of decisions that found nothing folded.
    None,
    /// The proof's path alone, drawn as with [`Expand::Proof`]; the decisions that found
    /// nothing are not drawn at all (the picture says how many nodes it leaves out that way).
    ProofOnly,
}

impl Expand {
    /// Whether the proof's path is drawn first, open, with the rest of each state after it.
    fn proof_first(self) -> bool {
        matches!(self, Expand::Proof | Expand::ProofOnly)
    }
}

/// Every setting of a tree picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeView {
    /// Which hypotheses are open.
    pub expand: Expand,
    /// The width of the picture, at most (the layout wraps to stay within it).
    pub max_width: f64,
    /// The most boxes drawn, open or in panels (see [`TreeStyle::max_nodes`]).
    pub max_nodes: usize,
    /// The most subtrees side by side in one row.
    pub row_width: usize,
}

/// With [`Expand::Proof`], the most boxes the picture uses before it folds the later
/// hypotheses of the proof too (each opens on click).
pub const PROOF_BOXES: usize = 500;

/// With [`Expand::Proof`], the most recorded nodes a refuted (CTR) hypothesis holds to be drawn
/// open; larger ones are folded (each opens on click), so that the proof's path stays short.
pub const OPEN_CTR_NODES: usize = 60;

/// The default bound on a tree picture's width, in pixels.
pub const MAX_WIDTH: f64 = 1_600.0;

impl Default for TreeView {
    fn default() -> Self {
        TreeView {
            expand: Expand::Proof,
            max_width: MAX_WIDTH,
            max_nodes: 5_000,
            row_width: 8,
        }
    }
}

impl From<&TreeStyle> for TreeView {
    fn from(s: &TreeStyle) -> Self {
        TreeView {
            expand: if s.only_productive {
                Expand::Proof
            } else {
                Expand::All
            },
            max_width: MAX_WIDTH,
            max_nodes: s.max_nodes,
            row_width: s.row_width,
        }
    }
}

/// One drawn node: its tree node, box and label lines.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBox {
    /// The node in the tree (for a folded run: its first decision).
    pub node: NodeIndex,
    /// Left edge (in its panel's coordinates when `panel` is set).
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// The label, one string per line.
    pub lines: Vec<String>,
    /// The colour class: `ctr`, `sol`, `open`, `decision`, `fact`, `root`, or `fold` (a run of
    /// decisions folded into one box).
    pub class: &'static str,
    /// The panel the box is drawn in; `None` for the picture itself.
    pub panel: Option<usize>,
    /// Recorded nodes folded under this box (not counting the box's own node).
    pub hides: usize,
    /// The panel that shows what this box folds, when it was drawn.
    pub opens: Option<usize>,
}

/// A row label: the start of a pass of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct RowLabel {
    /// Left of the text.
    pub x: f64,
    /// Baseline.
    pub y: f64,
    /// The text.
    pub text: String,
    /// The panel it is drawn in.
    pub panel: Option<usize>,
    /// Whether the row is a restart at `j = 1` after facts.
    pub restart: bool,
}

/// A hidden panel: what a folded box hides, laid out on its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// The box that opens it.
    pub opener: usize,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// A computed layout: boxes, edges between box indices, and the size.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The boxes: the picture's first (root first), then each panel's in panel order.
    pub boxes: Vec<NodeBox>,
    /// Parent → child, as indices into `boxes`; `true` for edges drawn through a row bus.
    pub edges: Vec<(usize, usize, bool)>,
    /// Row labels.
    pub labels: Vec<RowLabel>,
    /// The hidden panels.
    pub panels: Vec<Panel>,
    /// Total width of the picture (without panels).
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Whether recording stopped at its node limit before the analysis ended.
    pub truncated: bool,
    /// Recorded nodes in no box and no panel (past `max_nodes`), counted by folded boxes.
    pub left_out: usize,
    /// The cap that left them out.
    pub max_nodes: usize,
    /// Recorded nodes [`Expand::ProofOnly`] does not draw: the decisions off the proof's path
    /// and everything under them.
    pub off_proof: usize,
}

const GAP_X: f64 = 14.0;
const GAP_Y: f64 = 34.0;
const GAP_ROW: f64 = 16.0;
const BUS: f64 = 16.0;
const GUTTER: f64 = 14.0;
const LABEL_H: f64 = 18.0;
const MARGIN: f64 = 24.0;
const LINE_H: f64 = 15.0;
const PAD: f64 = 10.0;

fn label(n: &TreeNode) -> (Vec<String>, &'static str) {
    let statement = n.statement.map(|s| s.to_string()).unwrap_or_default();
    match n.kind {
        NodeKind::Root => (vec!["start".into(), count(n.pairs.into(), "pair")], "root"),
        NodeKind::Fact => (vec![format!("fact {statement}")], "fact"),
        NodeKind::Decision => {
            let text = match n.decision {
                Some(d) => format!("{}: {} | {}", d.cell, d.first, d.rest),
                None => statement,
            };
            (vec![text], "decision")
        }
        NodeKind::Branch => {
            let (second, class) = match n.outcome {
                Some(NodeOutcome::Ctr) => ("CTR".to_string(), "ctr"),
                Some(NodeOutcome::Sol) => ("SOL".to_string(), "sol"),
                _ => (count(n.pairs.into(), "pair"), "open"),
            };
            let depth = if n.depth > 1 {
                format!(" (depth {})", n.depth)
            } else {
                String::new()
            };
            (vec![format!("{statement}{depth}"), second], class)
        }
    }
}

/// The tooltip of a CTR branch: why it fails (a hypothesis: because a decision inside it does).
fn ctr_title(n: &TreeNode) -> Option<String> {
    if n.kind != NodeKind::Branch || n.outcome != Some(NodeOutcome::Ctr) {
        return None;
    }
    let statement = n.statement.map(|s| s.to_string()).unwrap_or_default();
    Some(match n.reason {
        Some(r) => format!("{statement} => CTR: {r}"),
        None if n.depth > 1 => format!("{statement} => CTR: a decision inside fails both ways"),
        None => format!("{statement} => CTR"),
    })
}

/// `1 node`, `3 nodes`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A laid-out piece, in its own coordinates; box 0 is its top node when it has one.
#[derive(Default)]
struct Block {
    boxes: Vec<NodeBox>,
    edges: Vec<(usize, usize, bool)>,
    labels: Vec<RowLabel>,
    w: f64,
    h: f64,
}

impl Block {
    /// Moves `other` by (dx, dy) into `self`; returns the index its box 0 got.
    fn append(&mut self, other: Block, dx: f64, dy: f64) -> usize {
        let off = self.boxes.len();
        self.boxes.extend(other.boxes.into_iter().map(|mut b| {
            b.x += dx;
            b.y += dy;
            b
        }));
        self.edges.extend(
            other
                .edges
                .into_iter()
                .map(|(p, c, bus)| (p + off, c + off, bus)),
        );
        self.labels.extend(other.labels.into_iter().map(|mut l| {
            l.x += dx;
            l.y += dy;
            l
        }));
        off
    }
}

/// A row of a state's children: its label (with whether it is a restart) and what it holds.
type Row<T> = (Option<(String, bool)>, Vec<T>);

/// What a row of a state's children holds.
enum Item {
    /// A node drawn as itself.
    Node(NodeIndex),
    /// A run of decisions folded into one box, with the row it comes from when it is drawn
    /// away from that row (after the proof's path).
    Run(Vec<NodeIndex>, Option<String>),
}

/// What a panel shows.
enum Content {
    /// The inside of a folded hypothesis.
    Inside(NodeIndex),
    /// The decisions of a folded run.
    Run(Vec<NodeIndex>),
}

struct Builder<'a> {
    tree: &'a Tree,
    view: &'a TreeView,
    /// Recorded nodes below each node.
    below: Vec<usize>,
    /// Branch tests below each node (itself included).
    tests: Vec<usize>,
    budget: usize,
    queue: Vec<Content>,
    /// Nodes left off the picture by [`Expand::ProofOnly`].
    off_proof: usize,
}

impl Builder<'_> {
    fn counts(tree: &Tree) -> (Vec<usize>, Vec<usize>) {
        let n = tree.graph.node_count();
        let (mut below, mut tests) = (vec![0; n], vec![0; n]);
        // Children are recorded after their parents: one reverse pass sums the subtrees.
        for i in (0..n).rev() {
            let node = NodeIndex::new(i);
            tests[i] += usize::from(tree.graph[node].kind == NodeKind::Branch);
            for c in tree.children(node) {
                below[i] += below[c.index()] + 1;
                tests[i] += tests[c.index()];
            }
        }
        (below, tests)
    }

    fn is_hypothesis(&self, n: NodeIndex) -> bool {
        self.tree.graph[n].kind == NodeKind::Branch && self.below[n.index()] > 0
    }

    fn productive(&self, d: NodeIndex) -> bool {
        self.tree.children(d).into_iter().any(|b| {
            matches!(
                self.tree.graph[b].outcome,
                Some(NodeOutcome::Ctr | NodeOutcome::Sol)
            )
        })
    }

    /// Whether decision `d` ends the search of its state: a branch reaches the solution, or
    /// both branches fail.
    fn deciding(&self, d: NodeIndex) -> bool {
        let outcomes: Vec<Option<NodeOutcome>> = self
            .tree
            .children(d)
            .into_iter()
            .map(|b| self.tree.graph[b].outcome)
            .collect();
        outcomes.contains(&Some(NodeOutcome::Sol))
            || (outcomes.len() == 2 && outcomes.iter().all(|o| *o == Some(NodeOutcome::Ctr)))
    }

    fn open(&self, h: NodeIndex, in_panel: bool) -> bool {
        if in_panel {
            return false;
        }
        match self.view.expand {
            Expand::All => self.below[h.index()] <= self.budget,
            // The picture itself opens hypotheses up to its share of the boxes; the panels
            // take the rest.
            // The winning branch opens while any box is left; a refuted one when it is small
            // and while the picture has its share.
            Expand::Proof | Expand::ProofOnly => match self.tree.graph[h].outcome {
                Some(NodeOutcome::Sol) => self.budget > 0,
                Some(NodeOutcome::Ctr) => {
                    self.below[h.index()] <= OPEN_CTR_NODES
                        && self.budget
                            > self.view.max_nodes - (self.view.max_nodes / 4).min(PROOF_BOXES)
                }
                _ => false,
            },
            Expand::None => false,
        }
    }

    fn folds(&self, d: NodeIndex, in_panel: bool) -> bool {
        self.budget == 0
            || ((self.view.expand != Expand::All || in_panel) && !self.productive(d))
                && self.tree.children(d).len() == 2
    }

    fn new_box(&mut self, n: NodeIndex, lines: Vec<String>, class: &'static str) -> NodeBox {
        self.budget = self.budget.saturating_sub(1);
        let w = lines.iter().map(|l| text_width(l)).fold(0.0, f64::max) + 16.0;
        let h = lines.len() as f64 * LINE_H + 10.0;
        NodeBox {
            node: n,
            x: 0.0,
            y: 0.0,
            w,
            h,
            lines,
            class,
            panel: None,
            hides: 0,
            opens: None,
        }
    }

    fn queue(&mut self, c: Content) -> usize {
        self.queue.push(c);
        self.queue.len() - 1
    }

    /// The rows of a state's children: each pass of decisions and each set of facts, labelled.
    fn segments(&self, state: NodeIndex, in_panel: bool) -> Vec<Row<Item>> {
        let mut segs: Vec<Row<Item>> = Vec::new();
        let mut last_j = 0u8;
        let mut facts: Vec<String> = Vec::new();
        let mut in_facts = false;
        let labelled = self.tree.graph[state].kind != NodeKind::Decision;
        for c in self.tree.children(state) {
            let node = &self.tree.graph[c];
            match node.kind {
                NodeKind::Fact => {
                    if !in_facts {
                        facts.clear();
                        segs.push((
                            Some((format!("facts found at j = {last_j}"), false)),
                            Vec::new(),
                        ));
                        in_facts = true;
                    }
                    facts.push(node.statement.map(|s| s.to_string()).unwrap_or_default());
                    if let Some(s) = segs.last_mut() {
                        s.1.push(Item::Node(c));
                    }
                }
                NodeKind::Decision if labelled => {
                    let j = node.depth;
                    let label = if segs.is_empty() {
                        Some((format!("tests at j = {j}"), false))
                    } else if in_facts {
                        Some((
                            format!("restart at j = {j} after facts: {}", facts.join(", ")),
                            true,
                        ))
                    } else if j != last_j {
                        Some((
                            format!("nothing found at j = {last_j}: tests at j = {j}"),
                            false,
                        ))
                    } else {
                        None
                    };
                    in_facts = false;
                    last_j = j;
                    if label.is_some() {
                        segs.push((label, Vec::new()));
                    }
                    let fold = self.folds(c, in_panel);
                    if let Some(s) = segs.last_mut() {
                        match (fold, s.1.last_mut()) {
                            (true, Some(Item::Run(run, _))) => run.push(c),
                            (true, _) => s.1.push(Item::Run(vec![c], None)),
                            (false, _) => s.1.push(Item::Node(c)),
                        }
                    }
                }
                _ => {
                    if segs.is_empty() {
                        segs.push((None, Vec::new()));
                    }
                    if let Some(s) = segs.last_mut() {
                        s.1.push(Item::Node(c));
                    }
                }
            }
        }
        // A run of one decision is drawn as itself.
        for s in &mut segs {
            for item in &mut s.1 {
                if let Item::Run(run, _) = item {
                    if run.len() == 1 && self.budget > 0 {
                        *item = Item::Node(run[0]);
                    }
                }
            }
        }
        segs
    }

    fn item(&mut self, item: Item, avail: f64, in_panel: bool) -> Block {
        match item {
            Item::Node(n) => self.node(n, avail, in_panel),
            Item::Run(run, caption) => {
                let hides = run.iter().map(|d| self.below[d.index()] + 1).sum::<usize>();
                let tests = run.iter().map(|d| self.tests[d.index()]).sum::<usize>();
                let first = run[0];
                let mut lines = vec![
                    format!("{} with no CTR/SOL", count(run.len(), "decision")),
                    format!("{}, {}", count(tests, "test"), count(hides, "node")),
                ];
                if let Some(c) = caption {
                    lines.insert(0, shorten(&c, ((avail / 7.3) as usize).saturating_sub(3)));
                }
                let mut b = self.new_box(first, lines, "fold");
                b.hides = hides;
                b.opens = Some(self.queue(Content::Run(run)));
                Block {
                    w: b.w,
                    h: b.h,
                    boxes: vec![b],
                    ..Block::default()
                }
            }
        }
    }

    fn node(&mut self, n: NodeIndex, avail: f64, in_panel: bool) -> Block {
        let (mut lines, class) = label(&self.tree.graph[n]);
        let hypothesis = self.is_hypothesis(n);
        let open = !hypothesis || self.open(n, in_panel);
        let folded = hypothesis && !open;
        if folded {
            lines.push(format!(
                "+ {}, {}",
                count(self.tests[n.index()] - 1, "test"),
                count(self.below[n.index()], "node")
            ));
        }
        let mut b = self.new_box(n, lines, class);
        if folded {
            b.hides = self.below[n.index()];
            b.opens = Some(self.queue(Content::Inside(n)));
            return Block {
                w: b.w,
                h: b.h,
                boxes: vec![b],
                ..Block::default()
            };
        }
        let mut segs = self.segments(n, in_panel);
        if self.view.expand.proof_first() && !in_panel {
            segs = self.proof_first(segs);
        }
        self.arrange(Some(b), segs, avail, in_panel)
    }

    /// The rows of a state on the proof's path: first the rows that hold facts or decisions
    /// with a CTR or SOL branch (the proof), in the search's order and with their own labels,
    /// only those items; then one row with each row's other decisions folded into one box
    /// that names the row, or with [`Expand::ProofOnly`] nothing (counted in `off_proof`).
    fn proof_first(&mut self, segs: Vec<Row<Item>>) -> Vec<Row<Item>> {
        let mut proof: Vec<Row<Item>> = Vec::new();
        let mut deciding = Vec::new();
        let mut rest: Vec<Item> = Vec::new();
        for (label, items) in segs {
            let mut kept = Vec::new();
            let mut folded = Vec::new();
            for item in items {
                match item {
                    Item::Node(n) if self.tree.graph[n].kind != NodeKind::Decision => {
                        kept.push(Item::Node(n))
                    }
                    Item::Node(n) if self.deciding(n) => deciding.push(Item::Node(n)),
                    Item::Node(n) if self.productive(n) => kept.push(Item::Node(n)),
                    Item::Node(n) => folded.push(n),
                    Item::Run(run, _) => folded.extend(run),
                }
            }
            if !folded.is_empty() {
                let name = label.as_ref().map(|(text, _)| text.clone());
                rest.push(Item::Run(folded, name));
            }
            if !kept.is_empty() {
                proof.push((label, kept));
            }
        }
        if !deciding.is_empty() {
            let label = "the decision that ends this search, first; then the search in its order";
            proof.insert(0, (Some((label.to_string(), false)), deciding));
        }
        if self.view.expand == Expand::ProofOnly {
            for item in rest {
                if let Item::Run(run, _) = item {
                    self.off_proof += run.iter().map(|d| self.below[d.index()] + 1).sum::<usize>();
                }
            }
        } else if !rest.is_empty() {
            let label = if proof.is_empty() {
                "no CTR/SOL in this state: each box folds a row of decisions"
            } else {
                "the rest of the search (no CTR/SOL): each box folds a row of decisions"
            };
            proof.push((Some((label.to_string(), false)), rest));
        }
        proof
    }

    /// Places the rows under `parent` (or alone, in a panel): side by side under a centred
    /// parent when they fit one unlabelled row, else wrapped into rows hanging from a bus.
    fn arrange(
        &mut self,
        parent: Option<NodeBox>,
        segs: Vec<Row<Item>>,
        avail: f64,
        in_panel: bool,
    ) -> Block {
        let child_avail = (avail - GUTTER).max(120.0);
        let mut rows: Vec<Row<Block>> = Vec::new();
        for (label, items) in segs {
            let blocks = items
                .into_iter()
                .map(|i| self.item(i, child_avail, in_panel))
                .collect();
            rows.push((label, blocks));
        }
        let mut out = Block::default();
        let row_width = self.view.row_width.max(1);
        if let Some(p) = &parent {
            let one_row = rows.len() == 1 && rows[0].0.is_none();
            let kids = rows.first().map_or(0, |r| r.1.len());
            let total = rows
                .first()
                .map_or(0.0, |r| r.1.iter().map(|b| b.w).sum::<f64>())
                + GAP_X * kids.saturating_sub(1) as f64;
            // Side by side only boxes: a parent over wide subtrees would sit far from them.
            let small = rows
                .first()
                .is_some_and(|r| r.1.iter().all(|b| b.boxes.len() == 1) || r.1.len() == 1);
            if rows.is_empty() || (one_row && small && kids <= row_width && total <= avail) {
                let kids_w = if rows.is_empty() { 0.0 } else { total };
                let w = p.w.max(kids_w);
                let mut x = (w - kids_w) / 2.0;
                let top = p.h + GAP_Y;
                out.boxes.push(p.clone());
                let mut centres = Vec::new();
                for b in rows.into_iter().flat_map(|r| r.1) {
                    let (bw, bh) = (b.w, b.h);
                    let idx = out.append(b, x, top);
                    out.edges.push((0, idx, false));
                    centres.push(out.boxes[idx].x + out.boxes[idx].w / 2.0);
                    out.h = out.h.max(top + bh);
                    x += bw + GAP_X;
                }
                let centre = match (centres.first(), centres.last()) {
                    (Some(a), Some(b)) => (a + b) / 2.0,
                    _ => w / 2.0,
                };
                out.boxes[0].x = (centre - p.w / 2.0).clamp(0.0, w - p.w);
                out.w = w;
                out.h = out.h.max(p.h);
                return out;
            }
        }
        let (x0, mut y) = match &parent {
            Some(p) => {
                out.boxes.push(p.clone());
                out.w = p.w;
                (GUTTER, p.h + GAP_Y / 2.0)
            }
            None => (0.0, 0.0),
        };
        let chars = ((avail - x0) / 7.3).max(12.0) as usize;
        for (label, blocks) in rows {
            if let Some((text, restart)) = label {
                let text = if text.chars().count() > chars {
                    let cut: String = text.chars().take(chars.saturating_sub(1)).collect();
                    format!("{cut}…")
                } else {
                    text
                };
                out.w = out.w.max(x0 + text_width(&text));
                out.labels.push(RowLabel {
                    x: x0,
                    y: y + 12.0,
                    text,
                    panel: None,
                    restart,
                });
                y += LABEL_H;
            }
            let mut row: Vec<Block> = Vec::new();
            let mut row_w = 0.0;
            let mut blocks = blocks.into_iter().peekable();
            while let Some(b) = blocks.next() {
                row_w += b.w + if row.is_empty() { 0.0 } else { GAP_X };
                row.push(b);
                let full = match blocks.peek() {
                    Some(next) => row.len() >= row_width || row_w + GAP_X + next.w > avail - x0,
                    None => true,
                };
                if full {
                    let top = y + BUS;
                    let mut x = x0;
                    let mut row_h: f64 = 0.0;
                    for b in row.drain(..) {
                        let (bw, bh) = (b.w, b.h);
                        let idx = out.append(b, x, top);
                        if parent.is_some() {
                            out.edges.push((0, idx, true));
                        }
                        x += bw + GAP_X;
                        row_h = row_h.max(bh);
                    }
                    out.w = out.w.max(x - GAP_X);
                    y = top + row_h + GAP_ROW;
                    row_w = 0.0;
                }
            }
        }
        out.h = (y - GAP_ROW).max(out.boxes.first().map_or(0.0, |b| b.h));
        out
    }
}

/// Computes the layout of `tree` with the settings of `style`.
pub fn layout(tree: &Tree, style: &TreeStyle) -> Layout {
    layout_view(tree, &TreeView::from(style))
}

/// Computes the layout of `tree`: the picture and its hidden panels.
pub fn layout_view(tree: &Tree, view: &TreeView) -> Layout {
    let (below, tests) = Builder::counts(tree);
    let mut b = Builder {
        tree,
        view,
        below,
        tests,
        budget: view.max_nodes.max(1),
        queue: Vec::new(),
        off_proof: 0,
    };
    let avail = (view.max_width - 2.0 * MARGIN).max(200.0);
    let main = b.node(tree.root, avail, false);
    let mut out = Layout {
        boxes: Vec::new(),
        edges: Vec::new(),
        labels: Vec::new(),
        panels: Vec::new(),
        width: main.w + 2.0 * MARGIN,
        height: main.h + 2.0 * MARGIN,
        truncated: tree.truncated,
        left_out: 0,
        max_nodes: view.max_nodes,
        off_proof: b.off_proof,
    };
    let mut dummy = Block::default();
    dummy.append(main, MARGIN, MARGIN);
    out.boxes = dummy.boxes;
    out.edges = dummy.edges;
    out.labels = dummy.labels;
    // The panels, in the order their folded boxes were made, while the budget lasts.
    let panel_avail = avail - 2.0 * PAD;
    let mut done = 0;
    while done < b.queue.len() {
        if b.budget == 0 {
            break;
        }
        let content = std::mem::replace(&mut b.queue[done], Content::Run(Vec::new()));
        let segs = match content {
            Content::Inside(h) => b.segments(h, true),
            Content::Run(run) => {
                let items = run.into_iter().map(Item::Node).collect();
                vec![(None, items)]
            }
        };
        let block = b.arrange(None, segs, panel_avail, true);
        let id = out.panels.len();
        let (w, h) = (block.w + 2.0 * PAD, block.h + 2.0 * PAD);
        let off = out.boxes.len();
        out.boxes.extend(block.boxes.into_iter().map(|mut x| {
            x.x += PAD;
            x.y += PAD;
            x.panel = Some(id);
            x
        }));
        out.edges.extend(
            block
                .edges
                .into_iter()
                .map(|(p, c, bus)| (p + off, c + off, bus)),
        );
        out.labels.extend(block.labels.into_iter().map(|mut l| {
            l.x += PAD;
            l.y += PAD;
            l.panel = Some(id);
            l
        }));
        out.panels.push(Panel { opener: 0, w, h });
        done += 1;
    }
    // Openers: a panel that was not drawn leaves its nodes out, counted by its box.
    for i in 0..out.boxes.len() {
        match out.boxes[i].opens {
            Some(p) if p < out.panels.len() => out.panels[p].opener = i,
            Some(_) => {
                out.boxes[i].opens = None;
                out.left_out += out.boxes[i].hides;
            }
            None => {}
        }
    }
    out
}

/// Draws `tree` as an SVG document with the settings of `style`.
pub fn tree_svg(tree: &Tree, style: &TreeStyle) -> String {
    tree_svg_view(tree, &TreeView::from(style))
}

/// Draws `tree` as an SVG document.
pub fn tree_svg_view(tree: &Tree, view: &TreeView) -> String {
    draw(&layout_view(tree, view), tree)
}

/// The script of the picture: open and close folded nodes, zoom, pan, find by cell.
const SCRIPT: &str = include_str!("tree.js");

const STYLE: &str = "[data-opens]{cursor:pointer}[data-opens] rect{stroke-dasharray:5 3}\
.hit>rect{stroke:#e8590c;stroke-width:4}.inside>rect{stroke:#e8590c;stroke-width:3}\
[data-act]{cursor:pointer}";

fn edge_path(l: &Layout, p: usize, c: usize, bus: bool) -> Path {
    let (pb, cb) = (&l.boxes[p], &l.boxes[c]);
    let (cx, cy) = (cb.x + cb.w / 2.0, cb.y);
    let d = if bus {
        let bx = pb.x + GUTTER / 2.0;
        format!("M {bx} {} V {} H {cx} V {cy}", pb.y + pb.h, cy - BUS / 2.0)
    } else {
        let (px, py) = (pb.x + pb.w / 2.0, pb.y + pb.h);
        format!("M {px} {py} V {} H {cx} V {cy}", (py + cy) / 2.0)
    };
    Path::new().set("d", d)
}

fn node_group(b: &NodeBox, tree: &Tree) -> Group {
    let (fill, stroke) = if b.class == "fold" {
        ("#f3f4f6", "#6b7280")
    } else {
        colours(b.class)
    };
    let mut g = Group::new().set("class", b.class);
    if let Some(p) = b.opens {
        g = g.set("data-opens", format!("p{p}"));
    }
    let mut title = match b.class {
        "fold" => None,
        _ => tree.graph.node_weight(b.node).and_then(ctr_title),
    };
    if b.hides > 0 && b.opens.is_none() {
        let note = format!(
            "{} not in this picture: raise --max-nodes, or see --format json",
            count(b.hides, "node")
        );
        title = Some(match title {
            Some(t) => format!("{t}\n{note}"),
            None => note,
        });
    }
    if let Some(title) = title {
        g = g.add(Title::new(title));
    }
    g = g.add(
        Rectangle::new()
            .set("x", b.x)
            .set("y", b.y)
            .set("width", b.w)
            .set("height", b.h)
            .set("rx", 4)
            .set("fill", fill)
            .set("stroke", stroke),
    );
    for (i, line) in b.lines.iter().enumerate() {
        g = g.add(
            Text::new(line.clone())
                .set("x", b.x + b.w / 2.0)
                .set("y", b.y + 5.0 + LINE_H * (i as f64 + 0.8))
                .set("text-anchor", "middle"),
        );
    }
    g
}

fn label_text(r: &RowLabel) -> Text {
    let t = Text::new(r.text.clone())
        .set("x", r.x)
        .set("y", r.y)
        .set("fill", "#374151")
        .set("font-style", "italic");
    if r.restart {
        t.set("data-restart", "1")
    } else {
        t
    }
}

fn draw(l: &Layout, tree: &Tree) -> String {
    let font = "DejaVu Sans Mono, Menlo, Consolas, monospace";
    let sans = "DejaVu Sans, Helvetica, Arial, sans-serif";
    let width = l.width.max(560.0);
    // The picture.
    let mut edges = Group::new()
        .set("stroke", "#8a8f98")
        .set("stroke-width", 1.2)
        .set("fill", "none");
    for &(p, c, bus) in l.edges.iter().filter(|e| l.boxes[e.0].panel.is_none()) {
        edges = edges.add(edge_path(l, p, c, bus));
    }
    let mut nodes = Group::new().set("font-family", font).set("font-size", 12);
    for b in l.boxes.iter().filter(|b| b.panel.is_none()) {
        nodes = nodes.add(node_group(b, tree));
    }
    let mut labels = Group::new().set("font-family", sans).set("font-size", 12);
    for r in l.labels.iter().filter(|r| r.panel.is_none()) {
        labels = labels.add(label_text(r));
    }
    // The panels, hidden until their box is clicked.
    let mut panels = Group::new().set("id", "panels");
    for (id, p) in l.panels.iter().enumerate() {
        let mut g = Group::new()
            .set("id", format!("p{id}"))
            .set("data-panel", "1")
            .set("data-w", p.w)
            .set("display", "none")
            .add(
                Rectangle::new()
                    .set("width", p.w)
                    .set("height", p.h)
                    .set("fill", "#ffffff")
                    .set("stroke", "#e8590c")
                    .set("stroke-width", 2)
                    .set("rx", 6),
            );
        let mut pe = Group::new()
            .set("stroke", "#8a8f98")
            .set("stroke-width", 1.2)
            .set("fill", "none");
        for &(a, c, bus) in l.edges.iter().filter(|e| l.boxes[e.0].panel == Some(id)) {
            pe = pe.add(edge_path(l, a, c, bus));
        }
        g = g.add(pe);
        let mut pl = Group::new().set("font-family", sans).set("font-size", 12);
        for r in l.labels.iter().filter(|r| r.panel == Some(id)) {
            pl = pl.add(label_text(r));
        }
        g = g.add(pl);
        let mut pn = Group::new().set("font-family", font).set("font-size", 12);
        for b in l.boxes.iter().filter(|b| b.panel == Some(id)) {
            pn = pn.add(node_group(b, tree));
        }
        panels = panels.add(g.add(pn));
    }
    // Notes and legend.
    let mut notes = Vec::new();
    let folded: Vec<&NodeBox> = l.boxes.iter().filter(|b| b.hides > 0).collect();
    if !folded.is_empty() {
        let hidden: usize = folded
            .iter()
            .filter(|b| b.panel.is_none())
            .map(|b| b.hides)
            .sum();
        notes.push(format!(
            "Folded: the dashed boxes hide {} in all (their counts); click one to open it, \
             or draw everything open with --expand all.",
            count(hidden, "node")
        ));
    }
    if l.left_out > 0 {
        notes.push(format!(
            "Left out: {} of {} recorded nodes are not in this picture (its cap of {} boxes): \
             raise --max-nodes, or get every node with --format json.",
            l.left_out,
            tree.graph.node_count(),
            l.max_nodes
        ));
    }
    if l.off_proof > 0 {
        notes.push(format!(
            "Proof only: {} off the proof's path are not drawn; --expand proof draws them \
             folded after it.",
            count(l.off_proof, "recorded node")
        ));
    }
    if l.truncated {
        notes.push(format!(
            "Recording stopped at {} nodes before the analysis ended.",
            tree.graph.node_count()
        ));
    }
    let mut legend = Group::new().set("font-family", sans).set("font-size", 12);
    let mut y = l.height + 4.0;
    for n in &notes {
        legend = legend.add(
            Text::new(n.clone())
                .set("x", MARGIN)
                .set("y", y + 11.0)
                .set("data-note", "1"),
        );
        y += 18.0;
    }
    let mut x = MARGIN;
    for (class, fill, stroke) in COLOURS.iter().chain([&("fold", "#f3f4f6", "#6b7280")]) {
        let name = match *class {
            "ctr" => "contradiction (CTR)",
            "sol" => "solution (SOL)",
            "open" => "open: pairs left",
            "decision" => "decision",
            "fact" => "fact found",
            "fold" => "folded (dashed: click)",
            _ => "start",
        };
        let w = 19.0 + text_width(name) * 0.85 + 22.0;
        if x + w > width - MARGIN {
            x = MARGIN;
            y += 20.0;
        }
        legend = legend
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", 14)
                    .set("height", 14)
                    .set("fill", *fill)
                    .set("stroke", *stroke),
            )
            .add(Text::new(name).set("x", x + 19.0).set("y", y + 11.0));
        x += w;
    }
    if !l.labels.is_empty() {
        // The row labels count depths as `j`: say what it is, once, under the legend.
        y += 18.0;
        legend = legend.add(
            Text::new("j: a test's depth (1: a branch propagated; 2 or more: tests inside it)")
                .set("x", MARGIN)
                .set("y", y + 11.0),
        );
    }
    let height = y + 26.0;
    // The toolbar (outside the zoomed view).
    let mut ui = Group::new()
        .set("id", "ui")
        .set("font-family", sans)
        .set("font-size", 12);
    let mut bx = width - MARGIN;
    for (act, text) in [
        ("find", "find cell (/)"),
        ("fit", "1:1"),
        ("out", "−"),
        ("in", "+"),
    ] {
        let w = text_width(text) * 0.85 + 14.0;
        bx -= w + 4.0;
        ui = ui.add(
            Group::new()
                .set("data-act", act)
                .add(
                    Rectangle::new()
                        .set("x", bx)
                        .set("y", 2)
                        .set("width", w)
                        .set("height", 18)
                        .set("rx", 3)
                        .set("fill", "#f9fafb")
                        .set("stroke", "#9ca3af"),
                )
                .add(
                    Text::new(text)
                        .set("x", bx + w / 2.0)
                        .set("y", 15)
                        .set("text-anchor", "middle"),
                ),
        );
    }
    ui = ui.add(
        Text::new("")
            .set("id", "status")
            .set("x", bx - 8.0)
            .set("y", 15)
            .set("text-anchor", "end"),
    );
    let view = Group::new()
        .set("id", "view")
        .add(edges)
        .add(labels)
        .add(nodes)
        .add(legend)
        .add(panels);
    svg_document(width, height)
        .add(Style::new("").add(Blob::new(STYLE)))
        .add(view)
        .add(ui)
        .add(Script::new("").add(Blob::new(format!("<![CDATA[\n{SCRIPT}]]>"))))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pair_analysis_tree;
    use crate::engine::{Analysis, Options, PairAnalysis, Recording};
    use crate::Grid;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn trees() -> Vec<Tree> {
        let g: Grid = INKALA.parse().unwrap();
        let opts = Options {
            recording: Recording::ChainAndTree,
            ..Options::default()
        };
        vec![
            Analysis::run(&g, &opts).tree.unwrap(),
            pair_analysis_tree(&PairAnalysis::run(&g, &Options::default())),
        ]
    }

    /// Well-formed under every setting, down to a cap of one box, with the script and its
    /// panels; the style settings map onto the view.
    #[test]
    fn svg_is_well_formed_with_its_script() {
        for tree in trees() {
            for expand in [Expand::Proof, Expand::ProofOnly, Expand::All, Expand::None] {
                for max_nodes in [1, 3, 100, usize::MAX] {
                    let view = TreeView {
                        expand,
                        max_nodes,
                        ..TreeView::default()
                    };
                    let text = tree_svg_view(&tree, &view);
                    let doc = roxmltree::Document::parse(&text).unwrap();
                    assert!(doc.root_element().attribute("viewBox").is_some());
                    let script = doc.descendants().find(|n| n.has_tag_name("script"));
                    assert!(script
                        .and_then(|s| s.text())
                        .is_some_and(|t| t.contains("toggle")));
                    let panels = doc
                        .descendants()
                        .filter(|n| n.attribute("data-panel").is_some())
                        .count();
                    assert_eq!(panels, layout_view(&tree, &view).panels.len());
                }
            }
        }
        let style = TreeStyle::default();
        assert_eq!(TreeView::from(&style).expand, Expand::All);
        let proof = TreeStyle {
            only_productive: true,
            ..style
        };
        assert_eq!(TreeView::from(&proof).expand, Expand::Proof);
    }
}
