//! Tree pictures legible at any size (issue 14): over trees of many sizes, up to the 50k-node
//! tree of line 358 of `forum-hardest-1106`, and every `--expand` choice: no two boxes (or row
//! labels) overlap, the width stays within its bound, every recorded node is in a box or counted
//! by a folded one, every restart row is labelled, and the notes about folded and left-out nodes
//! appear exactly when something is folded or left out.

use crate::common::{data, data_text};
use hdp::engine::{Analysis, Options, Recording};
use hdp::render::{layout_view, tree_svg_view, Expand, Layout, TreeView};
use hdp::tree::{NodeKind, NodeOutcome, Tree};
use hdp::Grid;
use petgraph::graph::NodeIndex;
use std::collections::{BTreeSet, HashSet};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn tree_of(g: &Grid) -> Tree {
    let options = Options {
        recording: Recording::ChainAndTree,
        ..Options::default()
    };
    Analysis::run(g, &options).tree.expect("a tree")
}

/// A dozen puzzles of several levels and Inkala's.
fn trees() -> Vec<Tree> {
    let mut grids: Vec<Grid> = data("hardest.txt").into_iter().take(6).collect();
    grids.extend(data("top95.txt").into_iter().step_by(16).take(6));
    grids.push(INKALA.parse().unwrap());
    grids.iter().map(tree_of).collect()
}

fn line_358() -> Tree {
    let text = data_text("forum-hardest-1106.txt");
    let line = text.lines().nth(357).unwrap();
    tree_of(&line[..81].parse().unwrap())
}

/// A rectangle: x, y, w, h, and its panel.
type Rect = (f64, f64, f64, f64, Option<usize>);

fn rects(l: &Layout) -> Vec<Rect> {
    let mut r: Vec<Rect> = l
        .boxes
        .iter()
        .map(|b| (b.x, b.y, b.w, b.h, b.panel))
        .collect();
    // A label's text: from its baseline 12 px up, 16 px high, 7.3 px a character.
    r.extend(l.labels.iter().map(|t| {
        let w = t.text.chars().count() as f64 * 7.3;
        (t.x, t.y - 12.0, w, 16.0, t.panel)
    }));
    r
}

fn overlap(l: &Layout) -> Option<(Rect, Rect)> {
    let mut r = rects(l);
    r.sort_by(|a, b| (a.4, a.0).partial_cmp(&(b.4, b.0)).unwrap());
    for i in 0..r.len() {
        for j in i + 1..r.len() {
            let (a, b) = (r[i], r[j]);
            if a.4 != b.4 || b.0 >= a.0 + a.2 - 1e-6 {
                break;
            }
            let apart = a.1 + a.3 <= b.1 + 1e-6 || b.1 + b.3 <= a.1 + 1e-6;
            if !apart {
                return Some((a, b));
            }
        }
    }
    None
}

/// The states whose children the picture lays out: the tree parents of the drawn boxes.
fn restarts_drawn(tree: &Tree, l: &Layout) -> usize {
    let mut parent = vec![None; tree.graph.node_count()];
    for e in tree.graph.raw_edges() {
        parent[e.target().index()] = Some(e.source());
    }
    let states: HashSet<NodeIndex> = l
        .boxes
        .iter()
        .filter_map(|b| parent[b.node.index()])
        .filter(|&s| tree.graph[s].kind != NodeKind::Decision)
        .collect();
    states
        .iter()
        .map(|&s| {
            let kinds: Vec<NodeKind> = tree
                .children(s)
                .into_iter()
                .map(|c| tree.graph[c].kind)
                .collect();
            kinds
                .windows(2)
                .filter(|w| w[0] == NodeKind::Fact && w[1] == NodeKind::Decision)
                .count()
        })
        .sum()
}

/// Every property of one picture; returns its layout.
fn check(tree: &Tree, view: &TreeView) -> Layout {
    let l = layout_view(tree, view);
    let what = format!("{view:?}, {} nodes", tree.graph.node_count());
    // No overlaps, in the picture and in each panel.
    assert_eq!(overlap(&l), None, "{what}");
    // Width within the bound.
    assert!(l.width <= view.max_width, "{what}: {} wide", l.width);
    for b in l.boxes.iter().filter(|b| b.panel.is_none()) {
        assert!(
            b.x >= 0.0 && b.y >= 0.0 && b.x + b.w <= l.width + 1e-6,
            "{what}"
        );
    }
    for (i, p) in l.panels.iter().enumerate() {
        assert!(p.w <= view.max_width, "{what}: panel {i} {} wide", p.w);
        assert_eq!(l.boxes[p.opener].opens, Some(i), "{what}");
        for b in l.boxes.iter().filter(|b| b.panel == Some(i)) {
            assert!(
                b.x >= 0.0 && b.y >= 0.0 && b.x + b.w <= p.w + 1e-6,
                "{what}"
            );
            assert!(b.y + b.h <= p.h + 1e-6, "{what}");
        }
    }
    // Every recorded node in one box, or counted by a folded box that opens no panel.
    let real: Vec<usize> = l
        .boxes
        .iter()
        .filter(|b| b.class != "fold")
        .map(|b| b.node.index())
        .collect();
    let distinct: BTreeSet<usize> = real.iter().copied().collect();
    assert_eq!(distinct.len(), real.len(), "{what}: a node drawn twice");
    let uncounted: usize = l
        .boxes
        .iter()
        .filter(|b| b.opens.is_none())
        .map(|b| b.hides)
        .sum();
    assert_eq!(uncounted, l.left_out, "{what}");
    assert_eq!(
        real.len() + l.left_out + l.off_proof,
        tree.graph.node_count(),
        "{what}"
    );
    assert_eq!(
        l.off_proof > 0,
        view.expand == Expand::ProofOnly && l.off_proof > 0
    );
    // The SVG: a group per box, within the width, a label per restart, the notes when due.
    let svg = tree_svg_view(tree, view);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let top = doc.root_element();
    let width: f64 = top.attribute("width").unwrap().parse().unwrap();
    assert!(width <= view.max_width, "{what}");
    let groups = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class").is_some())
        .count();
    assert_eq!(groups, l.boxes.len(), "{what}");
    // A folded box whose panel is left out says so when pointed at.
    let left_out_titles = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter(|n| {
            n.text()
                .is_some_and(|t| t.contains("not in this picture: raise --max-nodes"))
        })
        .count();
    let left_out_boxes = l.boxes.iter().filter(|b| b.hides > 0 && b.opens.is_none());
    assert_eq!(left_out_titles, left_out_boxes.count(), "{what}");
    let restarts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-restart").is_some())
        .filter_map(|n| n.text().map(str::trim))
        .collect();
    // Drawn proof first, a state keeps only the restart rows that hold part of the proof.
    match view.expand {
        Expand::Proof | Expand::ProofOnly => {
            assert!(restarts.len() <= restarts_drawn(tree, &l), "{what}")
        }
        _ => assert_eq!(restarts.len(), restarts_drawn(tree, &l), "{what}"),
    }
    assert!(restarts
        .iter()
        .all(|t| t.starts_with("restart at j = 1 after facts: ")));
    let notes: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-note").is_some())
        .filter_map(|n| n.text().map(str::trim))
        .collect();
    let left_out = notes.iter().any(|n| {
        n.starts_with(&format!("Left out: {} of ", l.left_out)) && n.contains("--max-nodes")
    });
    assert_eq!(left_out, l.left_out > 0, "{what}: {notes:?}");
    let folded = notes
        .iter()
        .any(|n| n.starts_with("Folded: ") && n.contains("--expand all"));
    assert_eq!(folded, l.boxes.iter().any(|b| b.hides > 0), "{what}");
    let off_proof = notes
        .iter()
        .any(|n| n.starts_with(&format!("Proof only: {} recorded node", l.off_proof)));
    assert_eq!(off_proof, l.off_proof > 0, "{what}: {notes:?}");
    l
}

fn views(max_nodes: &[usize]) -> Vec<TreeView> {
    let mut out = Vec::new();
    for expand in [Expand::Proof, Expand::ProofOnly, Expand::All, Expand::None] {
        for max_width in [700.0, 1600.0] {
            for &max_nodes in max_nodes {
                out.push(TreeView {
                    expand,
                    max_width,
                    max_nodes,
                    ..TreeView::default()
                });
            }
        }
    }
    out
}

#[test]
fn tree_layouts_hold_over_many_sizes() {
    let mut restarts = 0;
    let mut left_out = 0;
    for tree in trees() {
        for view in views(&[40, 5_000]) {
            let l = check(&tree, &view);
            restarts += l.labels.iter().filter(|r| r.restart).count();
            left_out += usize::from(l.left_out > 0);
        }
        // Everything open and nothing capped: every node has its own box, no panel.
        let all = TreeView {
            expand: Expand::All,
            max_nodes: usize::MAX,
            ..TreeView::default()
        };
        let l = check(&tree, &all);
        assert_eq!(l.boxes.len(), tree.graph.node_count());
        assert!(l.panels.is_empty() && l.left_out == 0);
    }
    // The checks saw restarts and caps.
    assert!(restarts >= 10, "{restarts}");
    assert!(left_out >= 10, "{left_out}");
}

/// The 50k-node tree of line 358: bounded, and the picture says what it leaves out.
#[test]
fn the_largest_tree_stays_within_bounds() {
    let tree = line_358();
    assert!(tree.graph.node_count() > 30_000);
    for view in views(&[5_000]) {
        let l = check(&tree, &view);
        assert!(l.left_out > 0);
        assert!(l.boxes.len() <= view.max_nodes + 100, "{}", l.boxes.len());
    }
}

const INKALA_2010: &str =
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";

/// The proof's path: from the root, the decision with a SOL branch, that branch, and on inside
/// it while it is a hypothesis, down to the branch that reaches the solution.
fn winning_path(tree: &Tree) -> Vec<NodeIndex> {
    let mut path = vec![tree.root];
    let mut state = tree.root;
    while let Some(d) = tree.children(state).into_iter().find(|&d| {
        tree.children(d)
            .into_iter()
            .any(|b| tree.graph[b].outcome == Some(NodeOutcome::Sol))
    }) {
        let sol = tree
            .children(d)
            .into_iter()
            .find(|&b| tree.graph[b].outcome == Some(NodeOutcome::Sol))
            .unwrap();
        path.extend([d, sol]);
        state = sol;
    }
    path
}

/// The proof's path is drawn open at the top: every node of the way to the solution has its
/// own box in the picture, and every folded box (a folded hypothesis or a run of decisions
/// that found nothing) lies below the branch that reaches the solution, except the other
/// branches of the path's decisions; on Inkala 2010, Inkala 2012 and line 358, where the
/// winning branch used to be a folded box at the very bottom of the picture. `--expand
/// proof-only` draws the same path and no folded run.
#[test]
fn the_proof_path_is_drawn_first() {
    let trees = [
        ("Inkala 2010", tree_of(&INKALA_2010.parse().unwrap())),
        ("Inkala 2012", tree_of(&INKALA.parse().unwrap())),
        ("line 358", line_358()),
    ];
    for (name, tree) in &trees {
        let path = winning_path(tree);
        assert!(path.len() >= 5, "{name}: a SOL inside a hypothesis");
        for expand in [Expand::Proof, Expand::ProofOnly] {
            let view = TreeView {
                expand,
                ..TreeView::default()
            };
            let l = check(tree, &view);
            let main: Vec<_> = l.boxes.iter().filter(|b| b.panel.is_none()).collect();
            let drawn = |n: NodeIndex| {
                main.iter()
                    .find(|b| b.node == n && b.class != "fold")
                    .unwrap_or_else(|| panic!("{name} {expand:?}: {} not drawn", tree.graph[n]))
            };
            let ys: Vec<f64> = path.iter().map(|&n| drawn(n).y).collect();
            assert!(ys.windows(2).all(|w| w[0] < w[1]), "{name}: {ys:?}");
            let last = drawn(*path.last().unwrap());
            assert_eq!(last.hides, 0, "{name}: the winning branch is open");
            let sides: Vec<NodeIndex> = path
                .iter()
                .filter(|&&n| tree.graph[n].kind == NodeKind::Decision)
                .flat_map(|&d| tree.children(d))
                .collect();
            let folded: Vec<_> = main
                .iter()
                .filter(|b| b.hides > 0 && !sides.contains(&b.node))
                .collect();
            assert!(!folded.is_empty() || expand == Expand::ProofOnly, "{name}");
            for b in &folded {
                assert!(
                    b.y > last.y,
                    "{name} {expand:?}: a folded box ({:?}) at y {} above the solution at {}",
                    b.lines,
                    b.y,
                    last.y
                );
            }
            if expand == Expand::ProofOnly {
                assert!(main.iter().all(|b| b.class != "fold"), "{name}");
                assert!(l.off_proof > 0, "{name}");
            }
            eprintln!(
                "{name} {expand:?}: {} px high, the solution at y {}",
                l.height, last.y
            );
        }
    }
}

/// `render tree --expand`, `--max-width` and `--max-nodes` reach the picture: the width bound
/// holds, `none` folds every hypothesis, and a small cap says what it leaves out.
#[cfg(feature = "cli")]
#[test]
fn render_tree_options_reach_the_picture() {
    let svg = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("hdp")
            .unwrap()
            .args(["render", "tree", INKALA, "-o", "-"])
            .args(args)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let width = |text: &str| -> f64 {
        let doc = roxmltree::Document::parse(text).unwrap();
        doc.root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap()
    };
    let notes = |text: &str| {
        let doc = roxmltree::Document::parse(text).unwrap();
        let n = doc
            .descendants()
            .filter(|n| n.attribute("data-note").is_some());
        n.count()
    };
    let default = svg(&[]);
    assert!(width(&default) <= 1600.0);
    assert!(width(&svg(&["--max-width", "800"])) <= 800.0);
    // Inkala's tree: folded parts, nothing left out under the default cap.
    assert_eq!(notes(&default), 1);
    assert!(!default.contains("Left out: "));
    let proof_only = svg(&["--expand", "proof-only"]);
    assert!(proof_only.contains("Proof only: ") && !default.contains("Proof only: "));
    let all = svg(&["--expand", "all"]);
    assert_eq!(all, svg(&["--all"]));
    assert_eq!(notes(&all), 0, "everything open: nothing to note");
    let capped = svg(&["--max-nodes", "20"]);
    assert!(capped.contains("Left out: ") && capped.contains("(its cap of 20 boxes)"));
    // none: no hypothesis has its inside on the picture (only in panels).
    let none = svg(&["--expand", "none"]);
    let tree = tree_of(&INKALA.parse().unwrap());
    let l = layout_view(
        &tree,
        &TreeView {
            expand: Expand::None,
            ..TreeView::default()
        },
    );
    assert!(l
        .boxes
        .iter()
        .filter(|b| b.panel.is_none() && b.class != "fold")
        .all(|b| tree.graph[b.node].level == 0));
    let doc = roxmltree::Document::parse(&none).unwrap();
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("data-opens").is_some())
            .count(),
        l.boxes.iter().filter(|b| b.opens.is_some()).count()
    );
}
