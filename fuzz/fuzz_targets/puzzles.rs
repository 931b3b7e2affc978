//! Every puzzle reader, on arbitrary bytes: no panic, and what parses writes back and re-reads.
#![no_main]
use hdp::format::{parse_line, parse_puzzles, InputFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for format in ["auto", "line", "grid", "sdk", "ss", "pencil", "tsv", "csv"] {
        let Ok(f) = format.parse::<InputFormat>() else { continue };
        for p in parse_puzzles(&text, f).into_iter().flatten() {
            let line = p.grid.to_line();
            if p.grid.solved_count() == 81 || p.grid.cells().iter().all(|c| c.len() == 1 || c.len() == 9) {
                let again = parse_line(&line, 1).map(|q| q.grid.to_line());
                assert!(again.is_err() || again.as_deref() == Ok(line.as_str()));
            }
        }
    }
    let _ = parse_line(&text, 1);
    let _ = text.parse::<hdp::Grid>();
});
