//! Decision trees as SVG: a tidy layout computed from the labels (subtree widths bottom-up,
//! parents centred over their children, one y level per depth), with wide first levels wrapped
//! into rows.

use super::{svg_document, text_width, COLOURS};
use crate::tree::{NodeKind, NodeOutcome, Tree, TreeNode};
use petgraph::graph::NodeIndex;
use svg::node::element::{Group, Rectangle, Text, Title};

/// How a tree is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStyle {
    /// Keep only decisions with a CTR or SOL branch (and the hypotheses leading to them) and the
    /// facts: the part of the tree the chain comes from.
    pub only_productive: bool,
    /// The most nodes drawn (breadth-first from the root); the rest is left out.
    pub max_nodes: usize,
    /// The most subtrees of the root in one row; more are wrapped into further rows.
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

/// One drawn node: its tree node, box and label lines.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBox {
    /// The node in the tree.
    pub node: NodeIndex,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// The label, one string per line.
    pub lines: Vec<String>,
    /// The colour class: `ctr`, `sol`, `open`, `decision`, `fact` or `root`.
    pub class: &'static str,
}

/// A computed layout: boxes, edges between box indices, and the size.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The boxes, root first.
    pub boxes: Vec<NodeBox>,
    /// Parent → child, as indices into `boxes`; `true` for edges drawn through a row bus.
    pub edges: Vec<(usize, usize, bool)>,
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Whether nodes were left out (`max_nodes`).
    pub truncated: bool,
}

const GAP_X: f64 = 14.0;
const GAP_Y: f64 = 34.0;
const MARGIN: f64 = 24.0;
const LINE_H: f64 = 15.0;

fn label(n: &TreeNode) -> (Vec<String>, &'static str) {
    let statement = n.statement.map(|s| s.to_string()).unwrap_or_default();
    match n.kind {
        NodeKind::Root => (vec!["start".into(), format!("{} pairs", n.pairs)], "root"),
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
                _ => (format!("{} pairs", n.pairs), "open"),
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

/// Whether `n` leads to something the chain uses: a CTR or SOL branch or a fact.
fn productive(tree: &Tree, n: NodeIndex, memo: &mut Vec<Option<bool>>) -> bool {
    if let Some(v) = memo[n.index()] {
        return v;
    }
    let node = &tree.graph[n];
    let own = match node.kind {
        NodeKind::Fact | NodeKind::Root => true,
        NodeKind::Branch => matches!(node.outcome, Some(NodeOutcome::Ctr | NodeOutcome::Sol)),
        NodeKind::Decision => false,
    };
    let v = own
        || tree
            .children(n)
            .into_iter()
            .any(|c| productive(tree, c, memo));
    memo[n.index()] = Some(v);
    v
}

/// The drawn children of `n`.
fn visible_children(
    tree: &Tree,
    n: NodeIndex,
    style: &TreeStyle,
    memo: &mut Vec<Option<bool>>,
) -> Vec<NodeIndex> {
    let children = tree.children(n);
    if !style.only_productive {
        return children;
    }
    if tree.graph[n].kind == NodeKind::Decision {
        // A kept decision shows both its branches.
        return children;
    }
    children
        .into_iter()
        .filter(|&c| productive(tree, c, memo))
        .collect()
}

struct Sub {
    node: NodeIndex,
    w: f64,
    h: f64,
    lines: Vec<String>,
    class: &'static str,
    children: Vec<Sub>,
    /// Width of the whole subtree.
    span: f64,
}

fn build(
    tree: &Tree,
    n: NodeIndex,
    style: &TreeStyle,
    memo: &mut Vec<Option<bool>>,
    budget: &mut usize,
    truncated: &mut bool,
) -> Sub {
    let (lines, class) = label(&tree.graph[n]);
    let w = lines.iter().map(|l| text_width(l)).fold(0.0, f64::max) + 16.0;
    let h = lines.len() as f64 * LINE_H + 10.0;
    let mut children = Vec::new();
    for c in visible_children(tree, n, style, memo) {
        if *budget == 0 {
            *truncated = true;
            break;
        }
        *budget -= 1;
        children.push(build(tree, c, style, memo, budget, truncated));
    }
    let kids: f64 = children.iter().map(|c| c.span).sum::<f64>()
        + GAP_X * children.len().saturating_sub(1) as f64;
    Sub {
        node: n,
        w,
        h,
        lines,
        class,
        span: w.max(kids),
        children,
    }
}

/// Heights of each depth level below a set of subtrees.
fn level_heights(subs: &[&Sub], out: &mut Vec<f64>, depth: usize) {
    for s in subs {
        if out.len() <= depth {
            out.push(0.0);
        }
        out[depth] = out[depth].max(s.h);
        let kids: Vec<&Sub> = s.children.iter().collect();
        level_heights(&kids, out, depth + 1);
    }
}

/// Places `s` with its subtree starting at `left`, top of its level at `tops[depth]`; returns the
/// index of its box.
fn place(s: &Sub, left: f64, depth: usize, tops: &[f64], out: &mut Layout) -> usize {
    let mut child_boxes = Vec::new();
    let kids: f64 = s.children.iter().map(|c| c.span).sum::<f64>()
        + GAP_X * s.children.len().saturating_sub(1) as f64;
    let mut x = left + (s.span - kids) / 2.0;
    for c in &s.children {
        child_boxes.push(place(c, x, depth + 1, tops, out));
        x += c.span + GAP_X;
    }
    let centre = match (child_boxes.first(), child_boxes.last()) {
        (Some(&a), Some(&b)) => {
            let ca = out.boxes[a].x + out.boxes[a].w / 2.0;
            let cb = out.boxes[b].x + out.boxes[b].w / 2.0;
            (ca + cb) / 2.0
        }
        _ => left + s.span / 2.0,
    };
    let idx = out.boxes.len();
    out.boxes.push(NodeBox {
        node: s.node,
        x: centre - s.w / 2.0,
        y: tops.get(depth).copied().unwrap_or(0.0),
        w: s.w,
        h: s.h,
        lines: s.lines.clone(),
        class: s.class,
    });
    for c in child_boxes {
        out.edges.push((idx, c, false));
    }
    idx
}

/// Computes the layout of `tree`.
pub fn layout(tree: &Tree, style: &TreeStyle) -> Layout {
    let mut memo = vec![None; tree.graph.node_count()];
    let mut budget = style.max_nodes.max(1) - 1;
    let mut truncated = tree.truncated;
    let root = build(
        tree,
        tree.root,
        style,
        &mut memo,
        &mut budget,
        &mut truncated,
    );
    let mut out = Layout {
        boxes: Vec::new(),
        edges: Vec::new(),
        width: 0.0,
        height: 0.0,
        truncated,
    };
    let row_width = style.row_width.max(1);
    if root.children.len() <= row_width {
        let mut heights = Vec::new();
        level_heights(&[&root], &mut heights, 0);
        let tops = tops_from(&heights, MARGIN);
        place(&root, MARGIN, 0, &tops, &mut out);
        out.width = root.span + 2.0 * MARGIN;
        out.height = tops.last().copied().unwrap_or(MARGIN)
            + heights.last().copied().unwrap_or(0.0)
            + MARGIN;
        // The root is placed last by `place`; move it to the front.
        let root_idx = out.boxes.len() - 1;
        reorder_root_first(&mut out, root_idx);
        return out;
    }
    // Wrapped: the root on top, its subtrees in rows joined by a bus on the left margin.
    let left = MARGIN + 2.0 * GAP_X;
    out.boxes.push(NodeBox {
        node: root.node,
        x: left,
        y: MARGIN,
        w: root.w,
        h: root.h,
        lines: root.lines.clone(),
        class: root.class,
    });
    let mut top = MARGIN + root.h + GAP_Y;
    let mut width: f64 = left + root.w;
    for row in root.children.chunks(row_width) {
        let refs: Vec<&Sub> = row.iter().collect();
        let mut heights = Vec::new();
        level_heights(&refs, &mut heights, 0);
        let tops = tops_from(&heights, top);
        let mut x = left;
        for sub in row {
            let idx = place(sub, x, 0, &tops, &mut out);
            out.edges.push((0, idx, true));
            x += sub.span + GAP_X;
        }
        width = width.max(x - GAP_X);
        top = tops.last().copied().unwrap_or(top) + heights.last().copied().unwrap_or(0.0) + GAP_Y;
    }
    out.width = width + MARGIN;
    out.height = top - GAP_Y + MARGIN;
    out
}

fn tops_from(heights: &[f64], start: f64) -> Vec<f64> {
    let mut tops = Vec::with_capacity(heights.len());
    let mut y = start;
    for h in heights {
        tops.push(y);
        y += h + GAP_Y;
    }
    tops
}

fn reorder_root_first(out: &mut Layout, root_idx: usize) {
    let n = out.boxes.len();
    let map = |i: usize| {
        if i == root_idx {
            0
        } else if i < root_idx {
            i + 1
        } else {
            i
        }
    };
    let root = out.boxes.remove(root_idx);
    out.boxes.insert(0, root);
    for e in &mut out.edges {
        e.0 = map(e.0);
        e.1 = map(e.1);
    }
    debug_assert_eq!(out.boxes.len(), n);
}

/// Draws `tree` as an SVG document.
pub fn tree_svg(tree: &Tree, style: &TreeStyle) -> String {
    draw(&layout(tree, style), tree)
}

fn draw(l: &Layout, tree: &Tree) -> String {
    let legend_h = 30.0;
    let width = l.width.max(560.0);
    let height = l.height + legend_h;
    let mut edges = Group::new()
        .set("stroke", "#8a8f98")
        .set("stroke-width", 1.2)
        .set("fill", "none");
    for &(p, c, bus) in &l.edges {
        let (pb, cb) = (&l.boxes[p], &l.boxes[c]);
        let (cx, cy) = (cb.x + cb.w / 2.0, cb.y);
        if bus {
            // Down the left margin, across above the child's row, down to the child.
            let bus_x = MARGIN;
            let above = cy - GAP_Y / 2.0;
            let d = format!(
                "M {} {} H {bus_x} V {above} H {cx} V {cy}",
                pb.x,
                pb.y + pb.h / 2.0
            );
            edges = edges.add(svg::node::element::Path::new().set("d", d));
        } else {
            let (px, py) = (pb.x + pb.w / 2.0, pb.y + pb.h);
            let mid = (py + cy) / 2.0;
            let d = format!("M {px} {py} V {mid} H {cx} V {cy}");
            edges = edges.add(svg::node::element::Path::new().set("d", d));
        }
    }
    let mut nodes = Group::new()
        .set(
            "font-family",
            "DejaVu Sans Mono, Menlo, Consolas, monospace",
        )
        .set("font-size", 12);
    for b in &l.boxes {
        let (fill, stroke) = COLOURS
            .iter()
            .find(|(class, _, _)| *class == b.class)
            .map_or(("#ffffff", "#333333"), |(_, f, s)| (*f, *s));
        let mut g = Group::new().set("class", b.class);
        if let Some(title) = tree.graph.node_weight(b.node).and_then(ctr_title) {
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
        nodes = nodes.add(g);
    }
    let mut legend = Group::new()
        .set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
        .set("font-size", 12);
    let mut x = MARGIN;
    let y = l.height + 4.0;
    for (class, fill, stroke) in COLOURS {
        let name = match *class {
            "ctr" => "contradiction (CTR)",
            "sol" => "solution (SOL)",
            "open" => "open: pairs left",
            "decision" => "decision",
            "fact" => "fact found",
            _ => "start",
        };
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
        x += 19.0 + text_width(name) * 0.85 + 22.0;
    }
    if l.truncated {
        legend = legend.add(
            Text::new(format!(
                "(tree cut: {} of {} nodes drawn)",
                l.boxes.len(),
                tree.graph.node_count()
            ))
            .set("x", x)
            .set("y", y + 11.0),
        );
    }
    svg_document(width, height)
        .add(edges)
        .add(nodes)
        .add(legend)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Analysis, Options, PairAnalysis, Recording};
    use crate::tree::pair_analysis_tree;
    use crate::Grid;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn overlaps(l: &Layout) -> Option<(usize, usize)> {
        for i in 0..l.boxes.len() {
            for j in i + 1..l.boxes.len() {
                let (a, b) = (&l.boxes[i], &l.boxes[j]);
                let apart = a.x + a.w <= b.x + 1e-6
                    || b.x + b.w <= a.x + 1e-6
                    || a.y + a.h <= b.y + 1e-6
                    || b.y + b.h <= a.y + 1e-6;
                if !apart {
                    return Some((i, j));
                }
            }
        }
        None
    }

    fn check(l: &Layout, wrapped_root: bool) {
        assert_eq!(overlaps(l), None, "overlapping boxes");
        for b in &l.boxes {
            assert!(
                b.x >= 0.0
                    && b.y >= 0.0
                    && b.x + b.w <= l.width + 1e-6
                    && b.y + b.h <= l.height + 1e-6
            );
        }
        // Parents centred over their children; siblings on one level.
        let mut children: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for &(p, c, _) in &l.edges {
            children.entry(p).or_default().push(c);
        }
        for (p, cs) in children {
            if p == 0 && wrapped_root {
                continue;
            }
            let pb = &l.boxes[p];
            let first = &l.boxes[*cs.first().unwrap()];
            let last = &l.boxes[*cs.last().unwrap()];
            let mid = (first.x + first.w / 2.0 + last.x + last.w / 2.0) / 2.0;
            assert!((pb.x + pb.w / 2.0 - mid).abs() < 1e-6, "parent not centred");
            assert!(cs.iter().all(|&c| (l.boxes[c].y - first.y).abs() < 1e-6));
            assert!(first.y > pb.y + pb.h);
        }
    }

    fn trees() -> Vec<Tree> {
        let corpus = include_str!("../../tests/data/top95.txt");
        let mut out = Vec::new();
        let opts = Options {
            recording: Recording::ChainAndTree,
            max_depth: 2,
            ..Options::default()
        };
        for line in std::iter::once(INKALA).chain(corpus.lines().take(6)) {
            let g: Grid = line.parse().unwrap();
            let a = Analysis::run(&g, &opts);
            assert_eq!(
                a.tree.as_ref().unwrap().branch_count() as u64,
                a.counters.tests
            );
            out.push(a.tree.unwrap());
            out.push(pair_analysis_tree(&PairAnalysis::run(
                &g,
                &Options::default(),
            )));
        }
        out
    }

    #[test]
    fn layouts_never_overlap_and_centre_parents() {
        for tree in trees() {
            for only_productive in [false, true] {
                for row_width in [4, 8, 1000] {
                    let style = TreeStyle {
                        only_productive,
                        max_nodes: 600,
                        row_width,
                    };
                    let l = layout(&tree, &style);
                    let wrapped = tree.children(tree.root).len() > row_width;
                    check(&l, wrapped);
                }
            }
        }
    }

    #[test]
    fn every_branch_test_gets_a_box() {
        let g: Grid = INKALA.parse().unwrap();
        let a = Analysis::run(
            &g,
            &Options {
                recording: Recording::ChainAndTree,
                ..Options::default()
            },
        );
        let tree = a.tree.unwrap();
        let l = layout(
            &tree,
            &TreeStyle {
                max_nodes: usize::MAX,
                ..TreeStyle::default()
            },
        );
        let branches = l
            .boxes
            .iter()
            .filter(|b| tree.graph[b.node].kind == NodeKind::Branch)
            .count();
        assert_eq!(branches as u64, a.counters.tests);
        assert_eq!(l.boxes.len(), tree.graph.node_count());
    }

    #[test]
    fn svg_is_well_formed() {
        for tree in trees().into_iter().take(4) {
            let text = tree_svg(&tree, &TreeStyle::default());
            let doc = roxmltree::Document::parse(&text).unwrap();
            assert!(doc.root_element().attribute("viewBox").is_some());
        }
    }
}
