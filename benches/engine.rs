//! Engine benchmarks: propagation, full analysis per depth class, classification throughput on
//! the corpora, and explaining a minimal proof. Run with `cargo bench --bench engine`; figures
//! in BENCHMARKS.md.

use hdp::chain::ChainLine;
use hdp::classify::{classify, ClassifyOptions};
use hdp::derivation::{derive_lines, Limits};
use hdp::engine::{Analysis, Options, Proof, Recording};
use hdp::propagate::{propagate, Profile};
use hdp::Grid;
use std::sync::OnceLock;

mod common;

use common::corpus;

fn main() {
    divan::main();
}

/// top95 and hardest, split by reduction depth (both decision kinds).
fn by_depth() -> &'static [Vec<Grid>; 4] {
    static D: OnceLock<[Vec<Grid>; 4]> = OnceLock::new();
    D.get_or_init(|| {
        let mut out: [Vec<Grid>; 4] = Default::default();
        let mut all = corpus("top95.txt", usize::MAX);
        all.extend(corpus("hardest.txt", usize::MAX));
        all.extend(corpus("forum-hardest-1106.txt", 60));
        let opts = Options {
            recording: Recording::Off,
            ..Options::default()
        };
        for g in all {
            if let Some(d) = Analysis::run(&g, &opts).depth {
                out[d as usize].push(g);
            }
        }
        out
    })
}

#[divan::bench(args = [0, 1, 2, 3], sample_count = 20, sample_size = 1)]
fn analysis_chain_per_depth(bencher: divan::Bencher, depth: usize) {
    let puzzles = &by_depth()[depth];
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % puzzles.len().max(1);
        puzzles
            .get(i)
            .map(|g| Analysis::run(g, &Options::default()).counters.tests)
    });
}

/// Each famous puzzle's minimal proof by contradiction (the lines `chain --minimal --proof
/// contradiction` prints), found once.
fn famous_proofs() -> &'static [(Grid, Vec<ChainLine>)] {
    static P: OnceLock<Vec<(Grid, Vec<ChainLine>)>> = OnceLock::new();
    P.get_or_init(|| {
        let options = Options {
            proof: Proof::Contradiction,
            ..Options::default()
        };
        corpus("famous.tsv", usize::MAX)
            .into_iter()
            .filter_map(|g| {
                let a = Analysis::run(&g, &options);
                let m = hdp::minimal::minimal(&a).ok()?;
                Some((a.puzzle, m.proof_lines().cloned().collect()))
            })
            .collect()
    })
}

/// Explaining a whole minimal proof (every line's derivation, `chain --minimal --explain`), one
/// famous puzzle a sample, each puzzle twice: the median sample is about the median puzzle's.
#[divan::bench(sample_count = 54, sample_size = 1)]
fn explain_minimal_proof_famous(bencher: divan::Bencher) {
    let proofs = famous_proofs();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % proofs.len();
        let (puzzle, lines) = &proofs[i];
        derive_lines(puzzle, lines, &Profile::DEFAULT, &Limits::default()).len()
    });
}

#[divan::bench(sample_count = 50)]
fn propagate_default_from_scratch(bencher: divan::Bencher) {
    let puzzles = corpus("forum-hardest-1106.txt", usize::MAX);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % puzzles.len();
        let mut g = puzzles[i];
        propagate(&mut g, &Profile::DEFAULT)
    });
}

#[divan::bench(sample_count = 50)]
fn propagate_singles_from_scratch(bencher: divan::Bencher) {
    let puzzles = corpus("forum-hardest-1106.txt", usize::MAX);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % puzzles.len();
        let mut g = puzzles[i];
        propagate(&mut g, &Profile::SINGLES)
    });
}

fn classify_all(puzzles: &[Grid], options: &ClassifyOptions) -> usize {
    puzzles
        .iter()
        .filter(|g| classify(g, options).level.is_some())
        .count()
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn classify_top95(bencher: divan::Bencher) {
    let p = corpus("top95.txt", usize::MAX);
    bencher.bench_local(|| classify_all(&p, &ClassifyOptions::default()));
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn classify_forum_hardest_1106(bencher: divan::Bencher) {
    let p = corpus("forum-hardest-1106.txt", usize::MAX);
    bencher.bench_local(|| classify_all(&p, &ClassifyOptions::default()));
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn classify_forum_hardest_1905_first_2000(bencher: divan::Bencher) {
    let p = corpus("forum-hardest-1905-11plus.txt", 2000);
    bencher.bench_local(|| classify_all(&p, &ClassifyOptions::default()));
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn classify_te_shc_examples_342(bencher: divan::Bencher) {
    let path = format!(
        "{}/../shared/corpora/te-depth/shc-examples-342.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let p: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .collect();
    bencher.bench_local(|| classify_all(&p, &ClassifyOptions::trial_and_error()));
}
