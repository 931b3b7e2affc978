//! Canonical-form benchmarks (§11): the minlex form of every puzzle of a corpus on one core.
//! Run with `cargo bench --bench canon`; figures in BENCHMARKS.md.
//!
//! With `HDP_CANON_PASS=FILE` in the environment, the benchmark binary instead computes the form
//! of every puzzle of FILE (a corpus name under `../shared/corpora/`) once, three times over, and
//! prints the best pass's puzzles per second to stderr.

use hdp::canon::{canonical, givens_of};

mod common;

use common::corpus;

fn main() {
    if let Ok(name) = std::env::var("HDP_CANON_PASS") {
        let puzzles: Vec<[u8; 81]> = corpus(&name, usize::MAX).iter().map(givens_of).collect();
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let forms = puzzles.iter().filter(|p| canonical(p).form[0] == 0).count();
            best = best.min(start.elapsed().as_secs_f64());
            divan::black_box(forms);
        }
        eprintln!(
            "{name}: {} puzzles in {:.3} s, {:.0} puzzles/s",
            puzzles.len(),
            best,
            puzzles.len() as f64 / best
        );
        return;
    }
    divan::main();
}

fn forms(puzzles: &[[u8; 81]]) -> usize {
    puzzles.iter().filter(|p| canonical(p).form[0] == 0).count()
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn canon_sudoku17(bencher: divan::Bencher) {
    let puzzles: Vec<[u8; 81]> = corpus("sudoku17.txt", usize::MAX)
        .iter()
        .map(givens_of)
        .collect();
    bencher.bench(|| forms(&puzzles));
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn canon_forum_hardest_1106(bencher: divan::Bencher) {
    let puzzles: Vec<[u8; 81]> = corpus("forum-hardest-1106.txt", usize::MAX)
        .iter()
        .map(givens_of)
        .collect();
    bencher.bench(|| forms(&puzzles));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn canon_forum_hardest_1905(bencher: divan::Bencher) {
    let puzzles: Vec<[u8; 81]> = corpus("forum-hardest-1905-11plus.txt", usize::MAX)
        .iter()
        .map(givens_of)
        .collect();
    bencher.bench(|| forms(&puzzles));
}
