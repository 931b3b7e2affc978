//! Compare the chains of the breadth-first method with the depth-first walk (spec §5) over a
//! collection: `cargo run --release --example walks -- FILE [LIMIT]`.
use hdp::engine::{Analysis, Options, Walk};
use hdp::Grid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "../shared/corpora/top95.txt".into());
    let limit: usize = args.next().map_or(Ok(usize::MAX), |s| s.parse())?;
    let text = std::fs::read_to_string(&path)?;
    let (mut n, mut both, mut bf_lines, mut df_lines, mut bf_depth, mut df_depth) =
        (0, 0, 0, 0, 0, 0);
    let (mut bf_tests, mut df_tests) = (0u64, 0u64);
    for line in text.lines().take(limit) {
        let g: Grid = line.split_whitespace().next().unwrap_or("").parse()?;
        let bf = Analysis::run(
            &g,
            &Options {
                max_depth: 2,
                ..Options::default()
            },
        );
        let df = Analysis::run(
            &g,
            &Options {
                max_depth: 2,
                walk: Walk::DepthFirst,
                ..Options::default()
            },
        );
        n += 1;
        if bf.is_solved() && df.is_solved() {
            both += 1;
            bf_lines += bf.summary().lines.len();
            df_lines += df.summary().lines.len();
            bf_depth += bf.max_line_depth();
            df_depth += df.max_line_depth();
            bf_tests += bf.counters.tests;
            df_tests += df.counters.tests;
        }
    }
    let avg = |x: usize| x as f64 / both.max(1) as f64;
    println!("{path}: {n} puzzles, {both} solved by both walks at depth <= 2");
    println!("| walk | summary lines (mean) | deepest line (mean) | branch tests (mean) |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| breadth-first | {:.1} | {:.2} | {:.0} |",
        avg(bf_lines),
        avg(bf_depth),
        bf_tests as f64 / both.max(1) as f64
    );
    println!(
        "| depth-first | {:.1} | {:.2} | {:.0} |",
        avg(df_lines),
        avg(df_depth),
        df_tests as f64 / both.max(1) as f64
    );
    Ok(())
}
