//! Exact-solver benchmarks: uniqueness checks over whole corpora. Run with
//! `cargo bench --bench solver`; figures in BENCHMARKS.md.

use hdp::Grid;

mod common;

use common::corpus;

fn main() {
    divan::main();
}

fn unique_count(puzzles: &[Grid]) -> usize {
    puzzles
        .iter()
        .filter(|g| hdp::solver::solve(g).count() == 1)
        .count()
}

/// Uniqueness check of all 1,465 puzzles of magictour-top1465.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn solve_magictour_top1465(bencher: divan::Bencher) {
    let p = corpus("magictour-top1465.txt", usize::MAX);
    bencher.bench_local(|| unique_count(&p));
}

/// Uniqueness check of the 375 puzzles of forum-hardest-1106.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn solve_forum_hardest_1106(bencher: divan::Bencher) {
    let p = corpus("forum-hardest-1106.txt", usize::MAX);
    bencher.bench_local(|| unique_count(&p));
}

/// Uniqueness check of the 95 puzzles of top95.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn solve_top95(bencher: divan::Bencher) {
    let p = corpus("top95.txt", usize::MAX);
    bencher.bench_local(|| unique_count(&p));
}

/// Uniqueness check of the first 2,000 17-clue puzzles.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn solve_sudoku17_first_2000(bencher: divan::Bencher) {
    let p = corpus("sudoku17.txt", 2000);
    bencher.bench_local(|| unique_count(&p));
}
