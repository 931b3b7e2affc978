//! Moves per explained line and per minimal contradiction proof (issue 26), one markdown table
//! row: `cargo run --release --example proof_size -- NAME FILE [COUNT]` (the first COUNT
//! puzzles; a `.tsv` file's puzzle is its last column). Each puzzle's minimal proof by
//! contradiction is found at default settings, then its lines are derived, timed; the row gives
//! the moves of the derivations of `DIS` lines (median, 90th percentile, maximum), the plain count
//! of every move rounds make before the contradiction on the same lines, each proof's median
//! line (their median), the moves per proof, and the time to explain a whole proof (median,
//! maximum). Used by `analyses/proof-size.sh`.
use hdp::chain::{ChainLine, Marker};
use hdp::derivation::{derive_lines, plain_moves, Limits};
use hdp::engine::{Analysis, Options, Proof};
use hdp::minimal::minimal;
use hdp::propagate::Profile;
use hdp::Grid;
use std::time::Instant;

/// The `q` quantile of `v` (nearest rank), 0 when empty.
fn pct(v: &mut [usize], q: f64) -> usize {
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n => v[((n - 1) as f64 * q).round() as usize],
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: proof_size NAME FILE [COUNT]");
        std::process::exit(2)
    };
    let (Some(name), Some(file)) = (args.get(1), args.get(2)) else {
        usage()
    };
    let count: usize = match args.get(3).map(|c| c.parse()) {
        None => usize::MAX,
        Some(Ok(c)) => c,
        Some(Err(_)) => usage(),
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("proof_size: {file}: {e}");
        std::process::exit(2)
    });
    let puzzles: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.split('\t').next_back()?.trim().parse().ok())
        .take(count)
        .collect();
    let options = Options {
        proof: Proof::Contradiction,
        ..Options::default()
    };
    let (mut per_line, mut plain, mut per_proof, mut plain_proof, mut micros) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut median_line = vec![];
    for p in &puzzles {
        let analysis = Analysis::run(p, &options);
        let Ok(m) = minimal(&analysis) else { continue };
        let lines: Vec<ChainLine> = m.proof_lines().cloned().collect();
        let t = Instant::now();
        let all = derive_lines(
            &analysis.puzzle,
            &lines,
            &Profile::DEFAULT,
            &Limits::default(),
        );
        micros.push(t.elapsed().as_micros() as usize);
        let (mut moves, mut rounds, mut mine) = (0, 0, vec![]);
        for (l, d) in lines.iter().zip(&all) {
            let Some(d) = d.as_ref().filter(|d| d.contradiction().is_some()) else {
                continue;
            };
            if l.marker == Marker::Dis {
                let n = plain_moves(&d.assumed(), &Profile::DEFAULT);
                per_line.push(d.moves.len());
                mine.push(d.moves.len());
                plain.push(n);
                moves += d.moves.len();
                rounds += n;
            }
        }
        median_line.push(pct(&mut mine, 0.5));
        per_proof.push(moves);
        plain_proof.push(rounds);
    }
    println!(
        "| {name} | {} | {} | {} / {} / {} | {} / {} / {} | {} | {} / {} / {} | {} | {:.0} / {:.0} |",
        per_proof.len(),
        per_line.len(),
        pct(&mut per_line, 0.5),
        pct(&mut per_line, 0.9),
        pct(&mut per_line, 1.0),
        pct(&mut plain, 0.5),
        pct(&mut plain, 0.9),
        pct(&mut plain, 1.0),
        pct(&mut median_line, 0.5),
        pct(&mut per_proof, 0.5),
        pct(&mut per_proof, 0.9),
        pct(&mut per_proof, 1.0),
        pct(&mut plain_proof, 0.5),
        pct(&mut micros, 0.5) as f64 / 1000.0,
        pct(&mut micros, 1.0) as f64 / 1000.0,
    );
}
