//! The engine on arbitrary candidate grids with a small budget: no panic, no hang, and every
//! status is one of the documented ones.
#![no_main]
use hdp::engine::{Analysis, Budget, Options};
use hdp::{Candidates, Cell, Grid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut grid = Grid::empty();
    for (cell, pair) in Cell::all().zip(data.chunks(2)) {
        let bits = u16::from(pair[0]) | (u16::from(*pair.get(1).unwrap_or(&0xff)) << 8);
        grid.set(cell, Candidates::from_bits(bits));
    }
    let options = Options {
        budget: Budget { max_tests: Some(2_000), deadline: None },
        ..Options::default()
    };
    let a = Analysis::run(&grid, &options);
    let _ = a.summary().to_string();
});
