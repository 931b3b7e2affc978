//! Exact-solver benchmarks: uniqueness checks over whole corpora. Run with
//! `cargo bench --bench solver`; figures in BENCHMARKS.md.
//!
//! With `HDP_SOLVER_CPU=FILE[:PASSES]` in the environment, the benchmark binary instead times
//! PASSES (default 20) uniqueness passes over the puzzles of FILE (the first field of each line
//! that parses) by the thread's CPU time, as the tdoku driver of `benches/peers.sh` does, and
//! prints minimum and median microseconds per puzzle to stderr: divan measures wall time only,
//! which machine load inflates. Linux only (`clock_gettime`).

use hdp::Grid;

mod common;

use common::corpus;

fn main() {
    if let Ok(spec) = std::env::var("HDP_SOLVER_CPU") {
        cpu_passes(&spec);
        return;
    }
    divan::main();
}

/// The thread's CPU time in microseconds.
#[cfg(target_os = "linux")]
fn thread_cpu_us() -> f64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec (two 64-bit fields on 64-bit Linux) to `ts`.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    ts.sec as f64 * 1e6 + ts.nsec as f64 / 1e3
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_us() -> f64 {
    panic!("HDP_SOLVER_CPU needs Linux (clock_gettime)")
}

/// `HDP_SOLVER_CPU=FILE[:PASSES]`: see the module documentation.
fn cpu_passes(spec: &str) {
    let (path, passes) = match spec.rsplit_once(':') {
        Some((p, n)) if n.parse::<usize>().is_ok() => (p, n.parse().unwrap()),
        _ => (spec, 20),
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let puzzles: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|l| l.parse().ok())
        .collect();
    assert!(!puzzles.is_empty() && passes > 0, "{path}: no puzzles");
    let n = puzzles.len() as f64;
    let mut cpu = Vec::new();
    let mut unique = 0;
    for _ in 0..passes {
        let t0 = thread_cpu_us();
        unique = unique_count(&puzzles);
        cpu.push((thread_cpu_us() - t0) / n);
    }
    cpu.sort_by(f64::total_cmp);
    let median = if passes % 2 == 1 {
        cpu[passes / 2]
    } else {
        (cpu[passes / 2 - 1] + cpu[passes / 2]) / 2.0
    };
    eprintln!(
        "puzzles {}  unique {unique}  passes {passes}  cpu_us_per_puzzle_min {:.3}  \
         cpu_us_per_puzzle_median {median:.3}",
        puzzles.len(),
        cpu[0]
    );
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
