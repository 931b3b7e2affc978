//! TEMPORARY stub, replaced by the format branch.
#![allow(missing_docs, clippy::all)]
use crate::{Grid, ParseError, Statement};
use serde::Serialize;
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    Auto,
}
impl std::str::FromStr for InputFormat {
    type Err = String;
    fn from_str(_: &str) -> Result<Self, String> {
        Ok(InputFormat::Auto)
    }
}
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub grid: Grid,
    pub label: Option<String>,
    pub line: usize,
}
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, ParseError> {
    let mut parts = text.trim().splitn(2, char::is_whitespace);
    let g: Grid = parts
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|e: ParseError| e.at_line(line))?;
    Ok(Puzzle {
        grid: g,
        label: parts.next().map(|s| s.trim().to_string()),
        line,
    })
}
pub fn parse_puzzles(text: &str, _f: InputFormat) -> Vec<Result<Puzzle, ParseError>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_line(l, i + 1))
        .collect()
}
pub fn parse_context(text: &str) -> Result<Vec<Statement>, ParseError> {
    Ok(crate::chain::parse_context(text)?
        .statements()
        .copied()
        .collect())
}
pub fn apply_context(grid: &Grid, ctx: &[Statement]) -> Result<Grid, String> {
    let mut g = *grid;
    for s in ctx {
        s.apply(&mut g);
    }
    Ok(g)
}
pub fn to_pencil(g: &Grid) -> String {
    format!("{g:?}\n")
}
#[derive(Serialize)]
pub struct GridJson {
    line: String,
}
impl GridJson {
    pub fn from_grid(g: &Grid) -> Self {
        GridJson { line: g.to_line() }
    }
}
