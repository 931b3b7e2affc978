//! Full chain vs minimal proof over a collection (issue 13), one markdown table row:
//! `cargo run --release --example minimal -- NAME FILE [LINES] [pairs]` (the first LINES puzzles
//! only; `pairs`: the source's method, `--decisions pairs`).
//! Used by `analyses/minimal.sh`.
use hdp::chain::{Chain, ChainLine, Marker};
use hdp::engine::{Analysis, Options};
use hdp::format::{parse_puzzles, InputFormat};
use hdp::minimal::minimal;
use std::time::Instant;

/// DIS and PRF lines, their statements, and the characters of the printed chain.
fn size(chain: &Chain) -> [f64; 3] {
    let proof: Vec<&ChainLine> = chain
        .lines
        .iter()
        .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
        .collect();
    let statements: usize = proof.iter().map(|l| l.context.statements().count()).sum();
    [
        proof.len() as f64,
        statements as f64,
        chain.to_string().len() as f64,
    ]
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (name, path) = match (args.get(1), args.get(2)) {
        (Some(n), Some(p)) => (n.clone(), p.clone()),
        _ => ("top95".into(), "../shared/corpora/top95.txt".into()),
    };
    let take: usize = match args.get(3).map(String::as_str) {
        None | Some("" | "all" | "pairs") => usize::MAX,
        Some(n) => n.parse()?,
    };
    let options = Options {
        decisions: if args.iter().any(|a| a == "pairs") {
            hdp::decision::DecisionKinds::PAIRS
        } else {
            hdp::decision::DecisionKinds::BOTH
        },
        ..Options::default()
    };
    let text = std::fs::read_to_string(&path)?;
    let puzzles: Vec<_> = parse_puzzles(&text, InputFormat::Auto)
        .into_iter()
        .filter_map(Result::ok)
        .take(take)
        .collect();
    let (mut full, mut short) = (vec![Vec::new(); 3], vec![Vec::new(); 3]);
    let (mut ratios, mut t_analysis, mut t_minimal) = (Vec::new(), 0.0, 0.0);
    let mut unsolved = 0;
    for p in &puzzles {
        let start = Instant::now();
        let a = Analysis::run(&p.grid, &options);
        let ta = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let m = minimal(&a);
        let tm = start.elapsed().as_secs_f64();
        let Ok(m) = m else {
            unsolved += 1;
            continue;
        };
        for (k, (f, s)) in size(&a.summary())
            .into_iter()
            .zip(size(&m.chain))
            .enumerate()
        {
            full[k].push(f);
            short[k].push(s);
        }
        ratios.push(tm / ta);
        t_analysis += ta;
        t_minimal += tm;
    }
    let mut cells = vec![name, puzzles.len().to_string(), unsolved.to_string()];
    for k in 0..3 {
        let (tf, ts): (f64, f64) = (full[k].iter().sum(), short[k].iter().sum());
        cells.push(format!(
            "{:.0} → {:.0}",
            median(&mut full[k]),
            median(&mut short[k])
        ));
        cells.push(format!("{tf:.0} → {ts:.0} ({:.0} %)", 100.0 * ts / tf));
    }
    let max = ratios.iter().copied().fold(0.0, f64::max);
    cells.push(format!("{:.3}", median(&mut ratios)));
    cells.push(format!("{max:.2}"));
    cells.push(format!("{t_analysis:.2} s / {t_minimal:.3} s"));
    println!("| {} |", cells.join(" | "));
    Ok(())
}
