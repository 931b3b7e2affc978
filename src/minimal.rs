//! Minimal proofs (issue 13): from a solved analysis, only the lines and the context statements
//! the final proof needs.
//!
//! The chain the engine prints is what the search found. [`minimal`] turns it into an
//! **irredundant** proof in the same notation, where every line is checked on its own:
//!
//! * a `DIS` line holds when its statements, applied to the puzzle and propagated (the engine's
//!   own test, with the analysis's profile), give a contradiction; a `PRF` line when they give
//!   the solution;
//! * every fact in a line's context (a statement that is not a `#` hypothesis) is the conclusion
//!   of an **earlier** `DIS` line under the same hypotheses: a top-level fact is concluded by a
//!   line with one `#`, a fact inside `# h` by a line `… # h … # x => CTR => fact`.
//!
//! This is sound by induction along the chain (spec §7.1): if a line's hypotheses hold, so do
//! the facts under them (their lines come earlier), and propagation never contradicts the
//! solution, so the last hypothesis of a `DIS` line is false.
//!
//! Working backwards from the `PRF` line, each needed line's context is shrunk (a fact is
//! dropped when the line still holds without it: one propagation), then the lines that
//! conclude its remaining facts are marked needed; a line nobody needs is dropped. Propagation
//! is monotone, so one sweep leaves every fact necessary, and each kept line concludes a fact
//! some later line uses and no other kept line concludes: removing any single line or context
//! statement breaks the proof. Nested hypotheses are minimised the same way, since their inner
//! lines are lines of the chain. Nothing depends on the digits' names, so a relabelled puzzle
//! gives the relabelled minimal proof.

use crate::chain::{Chain, ChainLine, Context, Count, LineResult, Marker};
use crate::engine::{Analysis, Budget, Limit, Status, TracedLine};
use crate::explain::{explain, explain_at};
use crate::grid::Grid;
use crate::propagate::{propagate, Outcome, Profile};
use crate::statement::Statement;
use std::collections::HashSet;
use std::time::Instant;

/// Why no minimal proof was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MinimalError {
    /// The analysis did not reach the solution: there is no proof to minimise.
    #[error("no proof to minimise: {0}")]
    NotSolved(Status),
    /// The budget or the deadline of the analysis ran out while minimising.
    #[error("minimising stopped: {0}")]
    Limit(Limit),
    /// A line of the engine's chain could not be checked on its own: a fact of its context
    /// that no earlier line concludes, or no contradiction (solution) by propagation. Reported,
    /// never a panic.
    #[error(
        "line {0} of the chain does not hold on its own (a fact no earlier line concludes, or \
         no contradiction by propagation)"
    )]
    Unverified(usize),
}

/// A minimal proof and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinimalProof {
    /// The proof: its `DIS` and `PRF` lines (each `CTR` with its reason), the final `STA` (the
    /// context of the proof) and the count line.
    pub chain: Chain,
    /// Propagations made while minimising.
    pub tests: u64,
}

impl MinimalProof {
    /// The proof's `DIS` and `PRF` lines.
    pub fn proof_lines(&self) -> impl Iterator<Item = &ChainLine> {
        self.chain
            .lines
            .iter()
            .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
    }

    /// The first step of the proof: its lines up to the first that establishes a top-level
    /// fact (a `DIS` line with one `#`), or the whole proof when it has no such line. Its last
    /// line is the next fact to look for; the lines before it are the ones it rests on.
    pub fn first_step(&self) -> Vec<ChainLine> {
        let lines: Vec<&ChainLine> = self.proof_lines().collect();
        let end = lines
            .iter()
            .position(|l| l.marker == Marker::Dis && l.depth() == 1)
            .map_or(lines.len(), |i| i + 1);
        let mut step: Vec<ChainLine> = lines[..end].iter().map(|&l| l.clone()).collect();
        // Keep only the lines the fact rests on.
        let mut needed = vec![false; step.len()];
        if let Some(last) = needed.last_mut() {
            *last = true;
        }
        for x in (0..step.len()).rev() {
            if !needed[x] {
                continue;
            }
            let line = &step[x];
            for (level, s) in facts(&line.context) {
                if let Some(y) = support(&step[..x], &line.context, level, s) {
                    needed[y] = true;
                }
            }
        }
        let mut keep = needed.iter();
        step.retain(|_| keep.next().copied().unwrap_or(false));
        step
    }

    /// The proof's lines with the positions their pictures draw (`hdp render steps
    /// --minimal`): the puzzle of `analysis` with each line's statements applied and
    /// propagated; for a `DIS` line the position where its contradiction shows, with its reason.
    pub fn traced(&self, analysis: &Analysis) -> Vec<TracedLine> {
        let profile = analysis.options.profile;
        self.proof_lines()
            .map(|l| {
                let tested = tested(&analysis.puzzle, &l.context, &profile);
                let mut grid = tested.unwrap_or(analysis.puzzle);
                if !grid.has_empty_cell() {
                    propagate(&mut grid, &profile);
                }
                let at = tested
                    .filter(|_| l.marker == Marker::Dis)
                    .and_then(|g| explain_at(&g, &profile));
                let mut line = l.clone();
                if let Some((reason, _)) = at {
                    line.reason = Some(reason);
                }
                TracedLine {
                    line,
                    summary: true,
                    grid,
                    tested: None,
                    conflict: at.map(|(_, g)| g),
                }
            })
            .collect()
    }
}

/// The position a line's last level is tested in: `puzzle` with the line's outer levels applied
/// and propagated, then its last level applied (as the engine tests a branch).
fn tested(puzzle: &Grid, context: &Context, profile: &Profile) -> Option<Grid> {
    let mut g = *puzzle;
    let (last, before) = context.levels.split_last()?;
    for s in before.iter().flatten() {
        s.apply(&mut g);
    }
    if !g.has_empty_cell() {
        propagate(&mut g, profile);
    }
    for s in last {
        s.apply(&mut g);
    }
    Some(g)
}

/// The minimal proof of a solved `analysis` (see the module docs), within the analysis's
/// budget: its test budget again for the propagations of the minimisation, and its deadline.
///
/// Returns an error when the analysis is not solved or a limit stops the work.
///
/// Complexity: one propagation per line to check it, and one per context statement of each
/// needed line to try dropping it.
pub fn minimal(analysis: &Analysis) -> Result<MinimalProof, MinimalError> {
    if analysis.status != Status::Solved {
        return Err(MinimalError::NotSolved(analysis.status));
    }
    let summary = analysis.summary();
    let end = summary
        .lines
        .iter()
        .rposition(|l| l.marker == Marker::Prf)
        .ok_or(MinimalError::Unverified(summary.lines.len()))?;
    let mut lines: Vec<ChainLine> = summary.lines[..=end]
        .iter()
        .filter(|l| matches!(l.marker, Marker::Dis | Marker::Prf))
        .map(|l| ChainLine::new(l.marker, l.context.clone(), l.result))
        .collect();
    let mut m = Minimiser {
        puzzle: analysis.puzzle,
        profile: analysis.options.profile,
        budget: analysis.options.budget,
        tests: 0,
    };
    // The given context is already applied to the puzzle: lines need not repeat it.
    let given: HashSet<Statement> = analysis.given.iter().copied().collect();
    for l in &mut lines {
        if let Some(top) = l.context.levels.first_mut() {
            top.retain(|s| !given.contains(s));
        }
    }
    m.check_all(&mut lines)?;
    let lines = m.shrink(lines)?;
    Ok(m.finish(lines))
}

/// Checks a proof's `DIS` and `PRF` lines ([`MinimalProof::proof_lines`]), the last of them a
/// `PRF` line, the way [`minimal`] builds them: every `DIS` line propagates to a
/// contradiction and every `PRF` line to the solution from `puzzle` with `profile`, and every
/// fact of a context is concluded by an earlier `DIS` line under the same hypotheses.
///
/// Returns the index of the first line that does not hold (the number of lines when the last
/// is not a `PRF` line).
pub fn verify(puzzle: &Grid, lines: &[ChainLine], profile: &Profile) -> Result<(), usize> {
    if lines.last().map(|l| l.marker) != Some(Marker::Prf) {
        return Err(lines.len());
    }
    for (x, line) in lines.iter().enumerate() {
        let ok = match line.marker {
            Marker::Dis | Marker::Prf => {
                facts(&line.context)
                    .all(|(level, s)| support(&lines[..x], &line.context, level, s).is_some())
                    && holds(puzzle, line, profile)
            }
            _ => true,
        };
        if !ok {
            return Err(x);
        }
    }
    Ok(())
}

/// The facts of a context (every statement but the `#` hypotheses), with their levels.
fn facts(context: &Context) -> impl Iterator<Item = (usize, &Statement)> {
    context
        .levels
        .iter()
        .enumerate()
        .flat_map(|(i, level)| level.iter().skip(usize::from(i > 0)).map(move |s| (i, s)))
}

/// The hypotheses of levels `1..=upto` of a context.
fn hypotheses(context: &Context, upto: usize) -> impl Iterator<Item = Option<&Statement>> {
    (1..=upto).map(|i| context.levels.get(i).and_then(|l| l.first()))
}

/// The earliest of `earlier` that concludes `fact` at `level` of `context`: a `DIS` line with
/// `level + 1` hypotheses, the first `level` of them those of `context`.
fn support(
    earlier: &[ChainLine],
    context: &Context,
    level: usize,
    fact: &Statement,
) -> Option<usize> {
    earlier.iter().position(|y| {
        y.marker == Marker::Dis
            && y.result == Some(LineResult::Ctr(Some(*fact)))
            && y.context.levels.len() == level + 2
            && hypotheses(&y.context, level).eq(hypotheses(context, level))
    })
}

/// Whether `line`'s statements, applied to `puzzle` and propagated, give its result.
fn holds(puzzle: &Grid, line: &ChainLine, profile: &Profile) -> bool {
    let mut g = *puzzle;
    for s in line.context.statements() {
        s.apply(&mut g);
    }
    if g.has_empty_cell() {
        return line.marker == Marker::Dis;
    }
    let outcome = propagate(&mut g, profile);
    match line.marker {
        Marker::Dis => outcome.is_contradiction(),
        Marker::Prf => outcome == Outcome::Solved,
        _ => false,
    }
}

struct Minimiser {
    puzzle: Grid,
    profile: Profile,
    budget: Budget,
    tests: u64,
}

impl Minimiser {
    /// Whether `line` holds, counted against the budget.
    fn test(&mut self, line: &ChainLine) -> Result<bool, MinimalError> {
        self.tests += 1;
        if let Some(max) = self.budget.max_tests {
            if self.tests > max {
                return Err(MinimalError::Limit(Limit::Budget));
            }
        }
        if let Some(deadline) = self.budget.deadline {
            if self.tests % 64 == 0 && Instant::now() >= deadline {
                return Err(MinimalError::Limit(Limit::Timeout));
            }
        }
        Ok(holds(&self.puzzle, line, &self.profile))
    }

    /// Checks every line of the engine's chain. A line that closes a hypothesis because both
    /// branches of a decision inside it failed names one branch as a fact; the other branch,
    /// concluded by an earlier line under the same hypotheses, is added to it.
    fn check_all(&mut self, lines: &mut [ChainLine]) -> Result<(), MinimalError> {
        for x in 0..lines.len() {
            let all_supported = facts(&lines[x].context)
                .all(|(level, s)| support(&lines[..x], &lines[x].context, level, s).is_some());
            if !all_supported {
                return Err(MinimalError::Unverified(x));
            }
            if self.test(&lines[x])? {
                continue;
            }
            let depth = lines[x].depth();
            let extra: Vec<Statement> = lines[..x]
                .iter()
                .filter(|y| {
                    y.marker == Marker::Dis
                        && y.context.levels.len() == depth + 2
                        && hypotheses(&y.context, depth).eq(hypotheses(&lines[x].context, depth))
                })
                .filter_map(|y| match y.result {
                    Some(LineResult::Ctr(Some(s))) => Some(s),
                    _ => None,
                })
                .collect();
            if let Some(last) = lines[x].context.levels.last_mut() {
                for s in extra {
                    if !last.contains(&s) {
                        last.push(s);
                    }
                }
            }
            if !self.test(&lines[x])? {
                return Err(MinimalError::Unverified(x));
            }
        }
        Ok(())
    }

    /// Backwards from the proof line: shrink each needed line's context, mark the lines that
    /// conclude what is left, drop the rest.
    fn shrink(&mut self, mut lines: Vec<ChainLine>) -> Result<Vec<ChainLine>, MinimalError> {
        let mut needed = vec![false; lines.len()];
        if let Some(last) = needed.last_mut() {
            *last = true;
        }
        for x in (0..lines.len()).rev() {
            if !needed[x] {
                continue;
            }
            // Facts whose lines nobody needs yet are tried first (dropping them may save whole
            // lines), latest first; then the others.
            let mut order: Vec<(usize, usize, bool)> = Vec::new();
            for (i, level) in lines[x].context.levels.iter().enumerate() {
                for (k, s) in level.iter().enumerate().skip(usize::from(i > 0)) {
                    let cheap =
                        support(&lines[..x], &lines[x].context, i, s).is_some_and(|y| needed[y]);
                    order.push((i, k, cheap));
                }
            }
            order.reverse();
            order.sort_by_key(|o| o.2);
            let mut line = lines[x].clone();
            // Positions shift as statements go: a fact is found again by value (never the
            // level's hypothesis).
            for (i, k, _) in order {
                let s = lines[x].context.levels[i][k];
                let mut trial = line.clone();
                let level = &mut trial.context.levels[i];
                let skip = usize::from(i > 0);
                if let Some(at) = level.iter().skip(skip).position(|t| *t == s) {
                    level.remove(at + skip);
                }
                if self.test(&trial)? {
                    line = trial;
                }
            }
            for (level, s) in facts(&line.context) {
                match support(&lines[..x], &line.context, level, s) {
                    Some(y) => needed[y] = true,
                    None => return Err(MinimalError::Unverified(x)),
                }
            }
            lines[x] = line;
        }
        let mut keep = needed.iter();
        lines.retain(|_| keep.next().copied().unwrap_or(false));
        Ok(lines)
    }

    /// The chain: reasons, the final `STA` and the count line.
    fn finish(&self, mut lines: Vec<ChainLine>) -> MinimalProof {
        for l in &mut lines {
            if l.marker == Marker::Dis {
                l.reason = self.reason(&l.context);
            }
        }
        let chains = lines.len();
        let mut opened: Vec<Vec<Statement>> = Vec::new();
        for l in &lines {
            let path: Vec<Statement> = hypotheses(&l.context, l.depth())
                .flatten()
                .copied()
                .collect();
            for n in 1..path.len() {
                if !opened.iter().any(|p| p[..] == path[..n]) {
                    opened.push(path[..n].to_vec());
                }
            }
        }
        if let Some(prf) = lines.last().map(|l| l.context.clone()) {
            lines.push(ChainLine::new(Marker::Sta, prf, None));
        }
        MinimalProof {
            chain: Chain {
                lines,
                count: Some(Count {
                    chains,
                    hypotheses: opened.len(),
                }),
            },
            tests: self.tests,
        }
    }

    /// Why a `DIS` line's context is contradictory: the position before its last level,
    /// propagated, with the last level applied.
    fn reason(&self, context: &Context) -> Option<crate::explain::Reason> {
        explain(
            &tested(&self.puzzle, context, &self.profile)?,
            &self.profile,
        )
    }
}

#[cfg(test)]
mod tests;
