//! What the benchmarks share: reading a corpus from `../shared/corpora/`.

use hdp::Grid;

/// The first `limit` puzzles of a corpus (the first field of each line that parses).
pub fn corpus(name: &str, limit: usize) -> Vec<Grid> {
    let path = format!("{}/../shared/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|l| l.parse().ok())
        .take(limit)
        .collect()
}
