//! Reading puzzles from the command line's INPUT arguments: an 81-character puzzle, a file, or
//! `-` for standard input; with none, the built-in example.

use clap::Args;
use hdp::format::{is_cell_char, parse_puzzles, InputFormat, Puzzle};
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
    #[arg(long, default_value = "auto")]
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
                eprintln!("hdp: {}: {e}", self.source);
                None
            }
        }
    }
}

/// Whether a command-line argument that names no existing file was meant as a puzzle: its first
/// word has at least 60 characters, at least 90 % of them cell characters (`1-9 . 0 * _`), and
/// it holds no path separator. Such an argument gets the puzzle parser's error (with its column)
/// instead of "cannot read": `12x4...` or an 80-character puzzle is a typo, not a file name.
pub fn looks_like_puzzle(arg: &str) -> bool {
    let Some(word) = arg.split_whitespace().next() else {
        return false;
    };
    let n = word.chars().count();
    let cells = word.chars().filter(|&c| is_cell_char(c)).count();
    n >= 60 && !word.contains(['/', '\\']) && cells * 10 >= n * 9
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
            } else if !std::path::Path::new(input).exists() && looks_like_puzzle(input) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_like_arguments() {
        let inkala = INKALA;
        assert!(looks_like_puzzle(inkala));
        assert!(looks_like_puzzle(&format!("{inkala} a comment")));
        let mut typo = inkala.to_string();
        typo.replace_range(2..3, "x");
        assert!(looks_like_puzzle(&typo), "one bad character");
        assert!(looks_like_puzzle(&inkala[..80]), "80 characters");
        assert!(looks_like_puzzle(&inkala[..60]));
        assert!(!looks_like_puzzle(&inkala[..59]), "too short");
        assert!(!looks_like_puzzle(&format!("dir/{inkala}")), "a path");
        assert!(!looks_like_puzzle("puzzles.txt"));
        assert!(!looks_like_puzzle(""));
        let mostly_letters: String = inkala
            .chars()
            .map(|c| if c == '.' { 'a' } else { c })
            .collect();
        assert!(!looks_like_puzzle(&mostly_letters));
        // 90 % is the threshold: 8 bad characters in 81 pass, 9 do not.
        let mut eight = inkala.to_string();
        eight.replace_range(0..8, "xxxxxxxx");
        assert!(looks_like_puzzle(&eight));
        let mut nine = inkala.to_string();
        nine.replace_range(0..9, "xxxxxxxxx");
        assert!(!looks_like_puzzle(&nine));
    }
}
