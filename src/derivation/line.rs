//! Derivations of chain lines: each line's start position and how it ends.

use super::search::{moves_in_rounds, search};
use super::{Cut, Derivation, DeriveError, End, Limits};
use crate::chain::{ChainLine, Context, Marker};
use crate::grid::{Cell, Digit, Grid};
use crate::propagate::{propagate, Outcome, Profile};
use crate::statement::Statement;

/// A line's start position (spec §10): `puzzle` with every level of `context` but the last
/// applied and propagated (the puzzle propagated when the line has no `#`); with the last `#`
/// statement and the facts after it in its level. `None` for an empty context.
pub fn line_start(
    puzzle: &Grid,
    context: &Context,
    profile: &Profile,
) -> Option<(Grid, Option<Statement>, Vec<Statement>)> {
    let (last, before) = context.levels.split_last()?;
    let mut g = *puzzle;
    for s in before.iter().flatten() {
        s.apply(&mut g);
    }
    if !g.has_empty_cell() {
        propagate(&mut g, profile);
    }
    if before.is_empty() {
        return Some((g, None, last.clone()));
    }
    let (hypothesis, facts) = last.split_first()?;
    Some((g, Some(*hypothesis), facts.to_vec()))
}

/// The derivation of `line` of a chain of `puzzle` under `profile`: for a `DIS` line the moves
/// from its hypothesis to a contradiction, for a `PRF` line the placements to the full grid.
/// A `DIS` line that propagation does not refute needs the lines before it: see
/// [`derive_lines`].
///
/// Returns an error when the line is neither, or propagation does not give its result.
pub fn derive_line(
    puzzle: &Grid,
    line: &ChainLine,
    profile: &Profile,
    limits: &Limits,
) -> Result<Derivation, DeriveError> {
    let (start, hypothesis, facts) =
        line_start(puzzle, &line.context, profile).ok_or(DeriveError::NoContradiction)?;
    let mut assumed = start;
    for s in hypothesis.iter().chain(&facts) {
        s.apply(&mut assumed);
    }
    match line.marker {
        Marker::Dis => {
            let (moves, contradiction) = search(&assumed, profile, limits)?;
            Ok(Derivation {
                start,
                hypothesis,
                facts,
                moves,
                end: End::Contradiction(contradiction),
            })
        }
        Marker::Prf => {
            let placements = placements(&assumed, profile).ok_or(DeriveError::NoContradiction)?;
            Ok(Derivation {
                start,
                hypothesis,
                facts,
                moves: Vec::new(),
                end: End::Solution { placements },
            })
        }
        _ => Err(DeriveError::NoContradiction),
    }
}

/// The derivation of every `DIS` and `PRF` line of `lines` (a chain of `puzzle`), `None` for the
/// other lines and where none is found. A `DIS` line whose hypothesis propagation does not
/// refute, because it fails both ways of a decision one level down, ends in that decision and
/// the two earlier lines, under the same hypotheses, that refute its branches. A line the
/// limits stop (its own search, or the deadline passed before it) ends in [`End::Cut`], with
/// no moves.
pub fn derive_lines(
    puzzle: &Grid,
    lines: &[ChainLine],
    profile: &Profile,
    limits: &Limits,
) -> Vec<Option<Derivation>> {
    (0..lines.len())
        .map(|x| {
            let line = &lines[x];
            if !matches!(line.marker, Marker::Dis | Marker::Prf) {
                return None;
            }
            let cut = |why: Cut| {
                let (start, hypothesis, facts) = line_start(puzzle, &line.context, profile)?;
                Some(Derivation {
                    start,
                    hypothesis,
                    facts,
                    moves: Vec::new(),
                    end: End::Cut(why),
                })
            };
            if limits.expired() {
                return cut(Cut::Deadline);
            }
            match derive_line(puzzle, line, profile, limits) {
                Ok(d) => Some(d),
                Err(e @ (DeriveError::Deadline | DeriveError::Limit)) => cut(Cut::of(e)?),
                Err(DeriveError::NoContradiction) if line.marker == Marker::Dis => {
                    refuted(puzzle, &lines[..x], line, profile)
                }
                Err(_) => None,
            }
        })
        .collect()
}

/// The hypotheses of levels `1..=upto` of a context.
fn path(context: &Context, upto: usize) -> Vec<Option<Statement>> {
    (1..=upto)
        .map(|i| context.levels.get(i).and_then(|l| l.first()).copied())
        .collect()
}

/// The decision one level below `line`'s hypothesis whose two branches `earlier` lines refute.
fn refuted(
    puzzle: &Grid,
    earlier: &[ChainLine],
    line: &ChainLine,
    profile: &Profile,
) -> Option<Derivation> {
    let depth = line.depth();
    let here = path(&line.context, depth);
    let below: Vec<&ChainLine> = earlier
        .iter()
        .filter(|y| {
            y.marker == Marker::Dis && y.depth() == depth + 1 && path(&y.context, depth) == here
        })
        .collect();
    let (start, hypothesis, facts) = line_start(puzzle, &line.context, profile)?;
    for (i, a) in below.iter().enumerate().rev() {
        let ha = a.context.last_hypothesis()?;
        for b in below[..i].iter().rev() {
            let hb = b.context.last_hypothesis()?;
            if ha.cell == hb.cell && (ha.values & hb.values).is_empty() {
                return Some(Derivation {
                    start,
                    hypothesis,
                    facts,
                    moves: Vec::new(),
                    end: End::Refuted {
                        decision: [*hb, *ha],
                        lines: Box::new([(*b).clone(), (*a).clone()]),
                    },
                });
            }
        }
    }
    None
}

/// The values propagation places from `assumed` up to the solution, in the order rounds of
/// the profile's rules place them (by cell inside a round); `None` if it is not reached.
fn placements(assumed: &Grid, profile: &Profile) -> Option<Vec<(Cell, Digit)>> {
    let mut solved = *assumed;
    if solved.has_empty_cell() || propagate(&mut solved, profile) != Outcome::Solved {
        return None;
    }
    let mut out: Vec<(Cell, Digit)> = Vec::new();
    let mut placed = [false; 81];
    let mut note = |g: &Grid, out: &mut Vec<(Cell, Digit)>| {
        for c in Cell::all() {
            if !placed[c.index()] && g.get(c).len() == 1 && assumed.get(c).len() > 1 {
                if let Some(d) = solved.value(c) {
                    placed[c.index()] = true;
                    out.push((c, d));
                }
            }
        }
    };
    for g in moves_in_rounds(assumed, profile) {
        note(&g, &mut out);
    }
    note(&solved, &mut out);
    Some(out)
}
