//! What the benchmarks share: reading a corpus from `../shared/corpora/`.

use hdp::Grid;

/// The first `limit` puzzles of a corpus: on each line, the first whitespace-separated field
/// that parses as a puzzle (so a table's name column and header line are passed over).
pub fn corpus(name: &str, limit: usize) -> Vec<Grid> {
    let path = format!("{}/../shared/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| l.split_whitespace().find_map(|w| w.parse().ok()))
        .take(limit)
        .collect()
}
