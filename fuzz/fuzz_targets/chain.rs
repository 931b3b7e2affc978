//! Chain lines, contexts and statements on arbitrary text: no panic, and print -> parse -> print
//! is the identity for everything that parses.
#![no_main]
use hdp::chain::{parse_context, Chain, ChainLine};
use hdp::Statement;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(line) = text.parse::<ChainLine>() {
        let printed = line.to_string();
        let again: ChainLine = printed.parse().expect("a printed line parses");
        assert_eq!(again.to_string(), printed);
    }
    if let Ok(chain) = text.parse::<Chain>() {
        let printed = chain.to_string();
        let again: Chain = printed.parse().expect("a printed chain parses");
        assert_eq!(again.to_string(), printed);
    }
    if let Ok(ctx) = parse_context(&text) {
        let printed = ctx.to_string();
        if !printed.is_empty() {
            assert_eq!(parse_context(&printed).expect("printed context parses").to_string(), printed);
        }
    }
    let _ = text.parse::<Statement>();
    let _ = hdp::format::parse_context(&text);
});
