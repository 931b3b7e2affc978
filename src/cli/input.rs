//! Reading puzzles from the command line's INPUT arguments: an 81-character puzzle, a file, or
//! `-` for standard input; with none, the built-in example.

use clap::Args;
use hdp::format::{parse_puzzles, InputFormat, Puzzle};
use hdp::ParseError;
use std::io::Read;

/// Arto Inkala's puzzle (spec §8; "Arto Inkala 2012" in famous.tsv): the built-in example.
pub const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Where puzzles come from.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// An 81-character puzzle, a file path, or - for standard input (default: Inkala's puzzle).
    pub inputs: Vec<String>,
    /// Input format (default: detected).
    #[arg(long, default_value = "auto", value_parser = super::input_format_parser())]
    pub input_format: InputFormat,
}

/// One puzzle read, or the error for its line, with the name of where it came from.
pub struct Read1 {
    /// `-`, a file name, or `argument N`.
    pub source: String,
    /// The puzzle or its error.
    pub puzzle: Result<Puzzle, ParseError>,
}

impl Read1 {
    /// The puzzle, or `None` after reporting its error on stderr.
    pub fn ok_or_report(self) -> Option<Puzzle> {
        match self.puzzle {
            Ok(p) => Some(p),
            Err(e) => {
                super::output::error(format_args!("{}: {e}", self.source));
                None
            }
        }
    }
}

fn looks_like_puzzle(s: &str) -> bool {
    let t = s.trim();
    t.chars().count() >= 81
        && !t.contains('/')
        && !std::path::Path::new(t).exists()
        && t.chars()
            .take(81)
            .all(|c| c.is_ascii_digit() || ".*_".contains(c))
}

impl InputArgs {
    /// Every puzzle of every input, in order. I/O errors are returned as `Err`.
    pub fn read_all(&self) -> anyhow::Result<Vec<Read1>> {
        let mut out = Vec::new();
        let inputs: Vec<String> = if self.inputs.is_empty() {
            vec![INKALA.to_string()]
        } else {
            self.inputs.clone()
        };
        for (i, input) in inputs.iter().enumerate() {
            let (source, text) = if input == "-" {
                let mut buf = Vec::new();
                std::io::stdin().read_to_end(&mut buf)?;
                ("-".to_string(), String::from_utf8_lossy(&buf).into_owned())
            } else if looks_like_puzzle(input) {
                (format!("argument {}", i + 1), input.clone())
            } else {
                let bytes = std::fs::read(input)
                    .map_err(|e| anyhow::anyhow!("cannot read {input}: {e}"))?;
                (input.clone(), String::from_utf8_lossy(&bytes).into_owned())
            };
            let mut puzzles = parse_puzzles(&text, self.input_format);
            if puzzles.is_empty() {
                puzzles.push(Err(ParseError::new(1, 1, hdp::ParseErrorKind::Empty)));
            }
            for puzzle in puzzles {
                out.push(Read1 {
                    source: source.clone(),
                    puzzle,
                });
            }
        }
        Ok(out)
    }
}
