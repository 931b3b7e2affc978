use hdp::classify::{classify, ClassifyOptions};
use hdp::Grid;
fn main() {
    let text = std::fs::read_to_string("../shared/corpora/te-depth/shc-examples-342.tsv").unwrap();
    let t = std::time::Instant::now();
    let (mut ok, mut bad, mut n) = (0, 0, 0);
    let mut confusion = std::collections::BTreeMap::new();
    for line in text.lines() {
        let mut f = line.split('\t');
        let (Some(p), Some(d)) = (f.next(), f.next()) else {
            continue;
        };
        let Ok(g) = p.parse::<Grid>() else { continue };
        let Ok(d) = d.trim().parse::<u8>() else {
            continue;
        };
        n += 1;
        let c = classify(&g, &ClassifyOptions::trial_and_error());
        *confusion.entry((d, c.depth)).or_insert(0) += 1;
        if c.depth == Some(d) {
            ok += 1
        } else {
            bad += 1
        }
        if std::env::var_os("V").is_some() {
            println!("{d} {} {}", c.tests, c.hypotheses);
        }
    }
    println!("{n} puzzles: {ok} match, {bad} differ, {:?}", t.elapsed());
    println!("{confusion:?}");
}
