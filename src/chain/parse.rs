//! Parsing the chain notation, with errors that name the line and column.

use super::{Chain, ChainLine, Context, Count, LineResult, Marker};
use crate::error::{ParseError, ParseErrorKind};
use crate::statement::Statement;
use std::str::FromStr;

fn bad(column: usize, text: &str, reason: &str) -> ParseError {
    ParseError::new(
        1,
        column,
        ParseErrorKind::BadStatement {
            text: text.to_string(),
            reason: reason.to_string(),
        },
    )
}

/// Parses a context such as `I8: 2,7 + G7: 3,9 # A8: 3,4,6`; `offset` is the 0-based byte
/// position of `text` inside its line, for error columns.
fn context_at(text: &str, offset: usize) -> Result<Context, ParseError> {
    let mut levels: Vec<Vec<Statement>> = vec![Vec::new()];
    let mut pos = 0;
    // Split on '#' and '+' while keeping track of positions.
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut pending_level = false;
    let flush = |part: &str, at: usize, levels: &mut Vec<Vec<Statement>>, new_level: bool| {
        let trimmed = part.trim();
        if trimmed.is_empty() {
            if new_level {
                return Err(bad(
                    offset + at + 1,
                    text.trim(),
                    "expected a statement after '#'",
                ));
            }
            return Err(bad(offset + at + 1, text.trim(), "expected a statement"));
        }
        let lead = part.len() - part.trim_start().len();
        let s: Statement = trimmed
            .parse()
            .map_err(|e: ParseError| e.shifted(offset + at + lead))?;
        if new_level {
            levels.push(vec![s]);
        } else if let Some(last) = levels.last_mut() {
            last.push(s);
        }
        Ok(())
    };
    // A leading '#' opens the first hypothesis level with no top-level facts.
    let trimmed_start = text.len() - text.trim_start().len();
    if text[trimmed_start..].starts_with('#') {
        pending_level = true;
        start = trimmed_start + 1;
        pos = start;
    }
    while pos < bytes.len() {
        let b = bytes[pos];
        if b == b'#' || b == b'+' {
            flush(&text[start..pos], start, &mut levels, pending_level)?;
            pending_level = b == b'#';
            start = pos + 1;
        }
        pos += 1;
    }
    if !text[start..].trim().is_empty() || pending_level || start > 0 {
        flush(&text[start..], start, &mut levels, pending_level)?;
    }
    Ok(Context { levels })
}

/// Parses a context given on its own (`--given "I8: 2,7 + G7: 3,9"`).
pub fn parse_context(text: &str) -> Result<Context, ParseError> {
    context_at(text, 0)
}

impl FromStr for Context {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Context, ParseError> {
        parse_context(s)
    }
}

impl FromStr for ChainLine {
    type Err = ParseError;

    /// Parses one line of the notation (columns in errors are 1-based within the line).
    fn from_str(line: &str) -> Result<ChainLine, ParseError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let lead = line.len() - line.trim_start().len();
        let body = &line[lead..];
        let (body, position) = match body.find(" @ ") {
            Some(i) => {
                let p = body[i + 3..].trim();
                if p.chars().count() != 81 || !p.chars().all(|c| c == '.' || c.is_ascii_digit()) {
                    return Err(bad(
                        lead + i + 4,
                        p,
                        "expected an 81-character position after '@'",
                    ));
                }
                (&body[..i], Some(p.to_string()))
            }
            None => (body, None),
        };
        let (body, reason) = match body.find(" ; ") {
            Some(i) => {
                let r = body[i + 3..].trim();
                let reason = r
                    .parse()
                    .map_err(|_| bad(lead + i + 4, r, "expected a reason after ';'"))?;
                (&body[..i], Some(reason))
            }
            None => (body, None),
        };
        let marker = match body.get(..3) {
            Some("STA") => Marker::Sta,
            Some("HYP") => Marker::Hyp,
            Some("INC") => Marker::Inc,
            Some("DIS") => Marker::Dis,
            Some("PRF") => Marker::Prf,
            _ => {
                return Err(bad(
                    lead + 1,
                    body,
                    "expected a marker STA, HYP, INC, DIS or PRF",
                ))
            }
        };
        let rest = &body[3..];
        if !rest.is_empty() && !rest.starts_with(' ') {
            return Err(bad(lead + 4, body, "expected a space after the marker"));
        }
        let mut parts = rest.split("=>");
        let ctx_text = parts.next().unwrap_or("");
        let context = if ctx_text.trim().is_empty() {
            Context::default()
        } else {
            context_at(ctx_text, lead + 3)?
        };
        let mut col = lead + 3 + ctx_text.len() + 2;
        let result = match parts.next().map(str::trim) {
            None => None,
            Some("CTR") => {
                let then = parts.next();
                col += rest[ctx_text.len() + 2..].find("=>").unwrap_or(0) + 2;
                match then {
                    None => Some(LineResult::Ctr(None)),
                    Some(t) => {
                        let lead_t = t.len() - t.trim_start().len();
                        let s: Statement = t
                            .trim()
                            .parse()
                            .map_err(|e: ParseError| e.shifted(col + lead_t))?;
                        Some(LineResult::Ctr(Some(s)))
                    }
                }
            }
            Some("SOL") => Some(LineResult::Sol),
            Some("UNS") => Some(LineResult::Uns),
            Some(other) => {
                return Err(bad(col + 1, other, "expected CTR, SOL or UNS after '=>'"));
            }
        };
        if parts.next().is_some() {
            return Err(bad(lead + 1, body, "too many '=>'"));
        }
        Ok(ChainLine {
            marker,
            context,
            result,
            position,
            reason,
        })
    }
}

impl FromStr for Count {
    type Err = ParseError;
    fn from_str(line: &str) -> Result<Count, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["CNT", n, "HDP", "CHAINS", "/", m, "HYP", "OPENED"] => match (n.parse(), m.parse()) {
                (Ok(chains), Ok(hypotheses)) => Ok(Count { chains, hypotheses }),
                _ => Err(bad(5, line, "expected numbers in the count line")),
            },
            _ => Err(bad(1, line, "expected CNT n HDP CHAINS / m HYP OPENED")),
        }
    }
}

impl FromStr for Chain {
    type Err = ParseError;

    /// Parses a whole chain; blank lines and `#` comment lines are skipped, every other line
    /// must be a chain line or the count line.
    fn from_str(text: &str) -> Result<Chain, ParseError> {
        let mut chain = Chain::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            // Blank lines, `#` comments (a chain line always starts with its marker) and the
            // indented lines of a line's derivation (`hdp chain --explain`).
            if line.trim().is_empty()
                || line.trim_start().starts_with('#')
                || is_derivation_text(line)
            {
                continue;
            }
            if line.trim_start().starts_with("CNT") {
                chain.count = Some(
                    line.trim()
                        .parse()
                        .map_err(|e: ParseError| e.at_line(i + 1))?,
                );
                continue;
            }
            chain
                .lines
                .push(line.parse().map_err(|e: ParseError| e.at_line(i + 1))?);
        }
        Ok(chain)
    }
}

/// Whether a line of text belongs to a derivation (`hdp chain --explain`), which a chain parser
/// skips; here rather than in `derivation` so that the chain does not depend on it: indented,
/// then a move number, `assume`, `with`, `contradiction:`, `refuted` or `solution:`.
pub fn is_derivation_text(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("  ") else {
        return false;
    };
    let rest = rest.trim_start();
    rest.starts_with(|c: char| c.is_ascii_digit())
        || [
            "assume ",
            "with ",
            "contradiction: ",
            "refuted ",
            "solution: ",
            "cut: ",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
}
