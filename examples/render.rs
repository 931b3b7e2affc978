//! Write the decision tree of a puzzle as SVG:
//! `cargo run --release --example render -- [PUZZLE] [OUT.svg]`.
use hdp::engine::{Analysis, Options, Recording};
use hdp::render::{tree_svg, TreeStyle};
use hdp::Grid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let line = args.next().unwrap_or_else(|| {
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..".into()
    });
    let out = args.next().unwrap_or_else(|| "tree.svg".into());
    let puzzle: Grid = line.parse()?;
    let options = Options {
        recording: Recording::ChainAndTree,
        ..Options::default()
    };
    let analysis = Analysis::run(&puzzle, &options);
    let tree = analysis.tree.ok_or("no tree was recorded")?;
    let style = TreeStyle {
        only_productive: true,
        ..TreeStyle::default()
    };
    std::fs::write(&out, tree_svg(&tree, &style))?;
    println!(
        "{out}: {} nodes, {} branch tests",
        tree.graph.node_count(),
        tree.branch_count()
    );
    Ok(())
}
