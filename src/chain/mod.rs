//! HDP chains (spec §2): lines of `MARKER CONTEXT [=> RESULT]`, printed and parsed.
//!
//! `Display` writes exactly the notation; `FromStr` reads it back, so print → parse → print is
//! the identity. Steps lines may carry their 81-character position after ` @ `.

mod parse;

use crate::explain::Reason;
use crate::statement::Statement;
use serde::{Deserialize, Serialize};
use std::fmt;

pub use parse::{is_derivation_text, parse_context};

/// The marker that opens a chain line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Marker {
    /// Status: the facts now established.
    Sta,
    /// A hypothesis is opened.
    Hyp,
    /// A hypothesis was examined and is inconclusive.
    Inc,
    /// Disproof: the last `#` statement leads to a contradiction.
    Dis,
    /// Proof: the context leads to the solution.
    Prf,
}

impl Marker {
    /// The three-letter name.
    pub fn as_str(self) -> &'static str {
        match self {
            Marker::Sta => "STA",
            Marker::Hyp => "HYP",
            Marker::Inc => "INC",
            Marker::Dis => "DIS",
            Marker::Prf => "PRF",
        }
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The statements of a line, by level: `levels[0]` holds the top-level facts (possibly none),
/// each further level starts with its `#` hypothesis followed by the facts found inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Context {
    /// The levels; there is always at least one, and every level after the first is non-empty.
    pub levels: Vec<Vec<Statement>>,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            levels: vec![Vec::new()],
        }
    }
}

impl Context {
    /// A context with top-level `facts` only.
    pub fn facts(facts: Vec<Statement>) -> Self {
        Context {
            levels: vec![facts],
        }
    }

    /// Whether the context names no statement.
    pub fn is_empty(&self) -> bool {
        self.levels.iter().all(Vec::is_empty)
    }

    /// The number of `#` in the context: the line's depth.
    pub fn depth(&self) -> usize {
        self.levels.len().saturating_sub(1)
    }

    /// The last `#` statement (the hypothesis a DIS line disproves), if any.
    pub fn last_hypothesis(&self) -> Option<&Statement> {
        if self.levels.len() > 1 {
            self.levels.last().and_then(|l| l.first())
        } else {
            None
        }
    }

    /// Every statement, left to right.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> {
        self.levels.iter().flatten()
    }

    /// The context with the digits renamed.
    pub fn relabel(&self, map: &[crate::grid::Digit; 9]) -> Context {
        Context {
            levels: self
                .levels
                .iter()
                .map(|l| l.iter().map(|s| s.relabel(map)).collect())
                .collect(),
        }
    }
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (i, level) in self.levels.iter().enumerate() {
            if i > 0 {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str("# ")?;
                first = false;
            }
            for (k, s) in level.iter().enumerate() {
                if k > 0 {
                    f.write_str(" + ")?;
                }
                write!(f, "{s}")?;
                first = false;
            }
        }
        Ok(())
    }
}

/// What a line concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", content = "then", rename_all = "UPPERCASE")]
pub enum LineResult {
    /// `=> CTR`, optionally `=> S`: the contradiction and what the cell may still hold.
    Ctr(Option<Statement>),
    /// `=> SOL`.
    Sol,
    /// `=> UNS`: no further clue within the limits.
    Uns,
}

impl fmt::Display for LineResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineResult::Ctr(Some(s)) => write!(f, "=> CTR => {s}"),
            LineResult::Ctr(None) => f.write_str("=> CTR"),
            LineResult::Sol => f.write_str("=> SOL"),
            LineResult::Uns => f.write_str("=> UNS"),
        }
    }
}

/// One chain line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChainLine {
    /// The marker.
    pub marker: Marker,
    /// The statements, by level.
    pub context: Context,
    /// The conclusion, if the line has one.
    pub result: Option<LineResult>,
    /// The 81-character position the line shows (steps rendering only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub position: Option<String>,
    /// Why a `CTR` holds, when propagation alone shows it (written only by `{:#}`, as
    /// ` ; REASON` after the result).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<Reason>,
}

impl ChainLine {
    /// A line without a position.
    pub fn new(marker: Marker, context: Context, result: Option<LineResult>) -> Self {
        ChainLine {
            marker,
            context,
            result,
            position: None,
            reason: None,
        }
    }

    /// The line's depth: the number of `#` in it.
    pub fn depth(&self) -> usize {
        self.context.depth()
    }

    /// The same line with the digits renamed.
    pub fn relabel(&self, map: &[crate::grid::Digit; 9]) -> ChainLine {
        let result = self.result.map(|r| match r {
            LineResult::Ctr(Some(s)) => LineResult::Ctr(Some(s.relabel(map))),
            other => other,
        });
        let position = self.position.as_ref().map(|p| {
            p.chars()
                .map(|c| match crate::grid::Digit::from_char(c) {
                    Some(d) => map[d.index()].to_char(),
                    None => c,
                })
                .collect()
        });
        ChainLine {
            marker: self.marker,
            context: self.context.relabel(map),
            result,
            position,
            reason: self.reason.map(|r| r.relabel(map)),
        }
    }
}

impl fmt::Display for ChainLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.marker.as_str())?;
        if !self.context.is_empty() {
            write!(f, " {}", self.context)?;
        }
        if let Some(r) = &self.result {
            write!(f, " {r}")?;
        }
        if let (Some(r), true) = (&self.reason, f.alternate()) {
            write!(f, " ; {r}")?;
        }
        if let Some(p) = &self.position {
            write!(f, " @ {p}")?;
        }
        Ok(())
    }
}

/// The count line that closes a summary: `CNT n HDP CHAINS / m HYP OPENED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Count {
    /// DIS and PRF lines in the summary.
    pub chains: usize,
    /// Hypotheses opened (branch tests made at depth 2 or more).
    pub hypotheses: usize,
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CNT {} HDP CHAINS / {} HYP OPENED",
            self.chains, self.hypotheses
        )
    }
}

/// A whole chain: its lines and, for a summary, the count line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Chain {
    /// The lines in order.
    pub lines: Vec<ChainLine>,
    /// The closing count line, if any.
    pub count: Option<Count>,
}

impl Chain {
    /// The largest line depth.
    pub fn max_depth(&self) -> usize {
        self.lines.iter().map(ChainLine::depth).max().unwrap_or(0)
    }
}

impl fmt::Display for Chain {
    /// The notation; `{:#}` adds each line's reason (`--why`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.lines {
            if f.alternate() {
                writeln!(f, "{line:#}")?;
            } else {
                writeln!(f, "{line}")?;
            }
        }
        if let Some(c) = &self.count {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
