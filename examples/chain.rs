//! Analyse a puzzle and print its HDP chain: `cargo run --example chain [PUZZLE]`.
use hdp::engine::{Analysis, Options};
use hdp::Grid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let line = std::env::args().nth(1).unwrap_or_else(|| {
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..".into()
    });
    let puzzle: Grid = line.parse()?;
    let kinds = std::env::args()
        .nth(2)
        .unwrap_or("cell,constraint".into())
        .parse()?;
    let analysis = Analysis::run(
        &puzzle,
        &Options {
            decisions: kinds,
            ..Options::default()
        },
    );
    print!("{}", analysis.summary());
    println!(
        "status: {}, depth: {:?}, tests: {}",
        analysis.status, analysis.depth, analysis.counters.tests
    );
    Ok(())
}
