//! Classify every puzzle of a file (one 81-character puzzle per line) and print a level histogram:
//! `cargo run --release --example classify -- ../shared/corpora/top95.txt`.
use hdp::classify::{classify, ClassifyOptions, Level};
use hdp::Grid;
use std::collections::BTreeMap;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpora/top95.txt".into());
    let te = std::env::args().any(|a| a == "--te");
    let options = if te {
        ClassifyOptions::trial_and_error()
    } else {
        ClassifyOptions::default()
    };
    let text = std::fs::read_to_string(&path)?;
    let mut levels: BTreeMap<Level, usize> = BTreeMap::new();
    let start = std::time::Instant::now();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let puzzle: Grid = line.split_whitespace().next().unwrap_or("").parse()?;
        let t = std::time::Instant::now();
        let c = classify(&puzzle, &options);
        if std::env::var_os("VERBOSE").is_some() {
            println!(
                "{line}\t{:?}\t{:?}\t{:?}\t{}\t{:?}",
                c.depth,
                c.depth_pairs,
                c.level,
                c.effort.tests,
                t.elapsed()
            );
        }
        *levels
            .entry(c.level.unwrap_or(Level::Unsolved))
            .or_default() += 1;
        n += 1;
    }
    for (level, count) in &levels {
        println!("{level:<9} {count}");
    }
    println!("{n} puzzles in {:.2?}", start.elapsed());
    Ok(())
}
