//! Derivations (spec §10): how a line of a chain holds, as a list of elementary moves of §3 that
//! a person can check one at a time on a pencil-mark grid.
//!
//! A `DIS` line says that its last `#` statement fails; its [`Derivation`] starts from the
//! line's start position (the puzzle with the line's outer levels applied and propagated), applies
//! the hypothesis (and the facts the line's last level names beside it), and lists the moves
//! that lead to a contradiction: each a rule, the cells, unit and values of its pattern, the
//! candidates it removes and the earlier moves its pattern rests on. A line refuted one level
//! down names the decision and the two lines that refute it; a `PRF` line lists the placements
//! that propagation makes up to the full grid (its text shows the first ones and sums up the
//! rest). A derivation that the limits stop (the run's deadline, the moves seen) ends in
//! [`End::Cut`]: it is never shown as complete.
//!
//! The moves are found by **rounds** (every rule applied to the same position, as
//! [`crate::explain`] does), keeping for every removed candidate the cheapest way found to
//! remove it; the cheapest contradiction is walked back to the moves it needs, and the list is
//! then pruned until every move is needed (dropping any one makes a later pattern or the
//! contradiction fail). [`check`] replays a derivation from its start and says whether it holds.
//! Nothing here runs in the engine's search: derivations are made only for lines that are shown.

mod keys;
mod line;
mod search;
mod size;
mod text;

#[cfg(test)]
mod tests;

pub use line::{derive_line, derive_lines, line_start};
pub use search::{derive, plain_moves, DeriveError, Limits};
pub use size::{proof_size, ProofSize};
pub use text::{
    is_derivation_text, parse_derivation, ParsedDerivation, ParsedEnd, SHOWN_PLACEMENTS,
};

use crate::chain::ChainLine;
use crate::grid::{Candidates, Cell, Digit, Grid, Unit};
use crate::statement::Statement;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The derivation of one chain line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Derivation {
    /// The position before the hypothesis: the puzzle with the line's outer levels applied and
    /// propagated (written as 81 candidate sets).
    #[serde(serialize_with = "ser_grid")]
    pub start: Grid,
    /// The line's last `#` statement (none for a `PRF` line without `#`).
    pub hypothesis: Option<Statement>,
    /// The facts the line's last level names after its hypothesis, applied with it.
    pub facts: Vec<Statement>,
    /// The moves, in order; a move's number is its index plus one.
    pub moves: Vec<Move>,
    /// How the derivation ends (in JSON a `contradiction`, `refuted` or `solution` field).
    #[serde(flatten)]
    pub end: End,
}

/// One elementary move of §3.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The rule.
    pub rule: Rule,
    /// The unit of the pattern: a hidden single's or a subset's unit, the unit a locked value is
    /// confined in (the block when pointing, the line when claiming); none for a naked single.
    #[serde(with = "opt_unit")]
    pub unit: Option<Unit>,
    /// The unit a locked value leaves (the line when pointing, the block when claiming).
    #[serde(with = "opt_unit", default, skip_serializing_if = "Option::is_none")]
    pub leaves: Option<Unit>,
    /// The cells of the pattern: the single's cell, a locked value's places, a subset's cells.
    pub cells: Vec<Cell>,
    /// The values of the pattern: the single's value, the locked value, a subset's values.
    #[serde(with = "cands")]
    pub values: Candidates,
    /// The candidates removed, by cell.
    #[serde(with = "removals")]
    pub removes: Vec<(Cell, Candidates)>,
    /// The earlier moves (1-based numbers) that removed candidates the pattern needs gone.
    pub uses: Vec<usize>,
}

/// The rules of §3, as a person names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A cell holds one value: it leaves the cell's peers.
    NakedSingle,
    /// A value has one place in a unit: the cell keeps only it.
    HiddenSingle,
    /// In a block, a value lies on one line only: it leaves the rest of the line.
    LockedPointing,
    /// In a line, a value lies in one block only: it leaves the rest of the block.
    LockedClaiming,
    /// `k` cells of a unit hold only `k` values between them: the values leave the unit's other
    /// cells.
    NakedSubset,
    /// `k` values of a unit have only `k` places between them: the other values leave those
    /// cells.
    HiddenSubset,
}

/// What a derivation ends in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A contradiction in the position the moves reach.
    Contradiction(Contradiction),
    /// The hypothesis fails both ways of a decision one level down: the two branches and the
    /// chain's lines that refute each.
    Refuted {
        /// The decision's two branches.
        decision: [Statement; 2],
        /// The lines refuting branch 1 and branch 2.
        lines: Box<[ChainLine; 2]>,
    },
    /// Propagation reaches the full grid: the values placed, in the order rounds place them.
    Solution {
        /// Each open cell of the position with its value.
        placements: Vec<(Cell, Digit)>,
    },
    /// A limit stopped the derivation before it was complete: it shows no moves and proves
    /// nothing by itself (the chain line still holds; only its explanation is missing).
    Cut(Cut),
}

/// The limit that cut a derivation short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// The run's deadline (`--timeout`) passed.
    Deadline,
    /// The search saw more moves than [`Limits::max_moves_seen`].
    Moves,
}

impl Cut {
    /// The limit's reason in words, as the text form writes it after `cut: `.
    pub fn words(self) -> &'static str {
        match self {
            Cut::Deadline => "the time limit passed before this line was explained",
            Cut::Moves => "the search saw too many moves before this line was explained",
        }
    }

    /// The limit of a derivation error, if it is one.
    pub fn of(e: DeriveError) -> Option<Cut> {
        match e {
            DeriveError::Deadline => Some(Cut::Deadline),
            DeriveError::Limit => Some(Cut::Moves),
            _ => None,
        }
    }
}

/// A contradiction of §3 that the moves reach.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contradiction {
    /// Its kind.
    pub kind: ContradictionKind,
    /// The cells it names: the empty cell, the two cells holding the same single value, the
    /// cells with too few values; none for a value without a place.
    pub cells: Vec<Cell>,
    /// The unit (none for an empty cell).
    #[serde(with = "opt_unit")]
    pub unit: Option<Unit>,
    /// The value without a place, the value held twice, or the values the cells hold.
    #[serde(with = "cands")]
    pub values: Candidates,
    /// The moves (1-based numbers) it rests on.
    pub uses: Vec<usize>,
}

/// The kinds of contradiction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContradictionKind {
    /// A cell has no value left.
    NoValue,
    /// A value has no place left in a unit.
    NoPlace,
    /// Two cells of a unit hold the same single value.
    Twice,
    /// `k` cells of a unit hold fewer than `k` values between them (2 to 4 cells, where the
    /// profile's naked subsets of that size are on).
    TooFewValues,
}

impl Rule {
    /// The rule's name in words, as the text form writes it (`naked pair` for a naked subset of
    /// two cells).
    pub fn words(self, size: usize) -> &'static str {
        match (self, size) {
            (Rule::NakedSingle, _) => "naked single",
            (Rule::HiddenSingle, _) => "hidden single",
            (Rule::LockedPointing, _) => "locked candidates (pointing)",
            (Rule::LockedClaiming, _) => "locked candidates (claiming)",
            (Rule::NakedSubset, 2) => "naked pair",
            (Rule::NakedSubset, 3) => "naked triple",
            (Rule::NakedSubset, _) => "naked quad",
            (Rule::HiddenSubset, 2) => "hidden pair",
            (Rule::HiddenSubset, 3) => "hidden triple",
            (Rule::HiddenSubset, _) => "hidden quad",
        }
    }

    /// Whether the rule places or confines a single value (cheaper to check than a subset).
    fn rank(self) -> u8 {
        match self {
            Rule::NakedSingle => 0,
            Rule::HiddenSingle => 1,
            Rule::LockedPointing | Rule::LockedClaiming => 2,
            Rule::NakedSubset | Rule::HiddenSubset => 3,
        }
    }
}

impl Move {
    /// The move with the digits renamed (`map[d-1]` is the new name of `d`).
    pub fn relabel(&self, map: &[Digit; 9]) -> Move {
        Move {
            values: self.values.relabel(map),
            removes: self
                .removes
                .iter()
                .map(|&(c, v)| (c, v.relabel(map)))
                .collect(),
            ..self.clone()
        }
    }

    /// The number of candidates the move removes.
    pub fn removed(&self) -> u32 {
        self.removes.iter().map(|(_, v)| v.len()).sum()
    }
}

impl Contradiction {
    /// The contradiction with the digits renamed.
    pub fn relabel(&self, map: &[Digit; 9]) -> Contradiction {
        Contradiction {
            values: self.values.relabel(map),
            ..self.clone()
        }
    }
}

impl Derivation {
    /// The derivation with the digits renamed: the relabelled puzzle's derivation of the
    /// relabelled line.
    pub fn relabel(&self, map: &[Digit; 9]) -> Derivation {
        Derivation {
            start: self.start.relabel(map),
            hypothesis: self.hypothesis.map(|s| s.relabel(map)),
            facts: self.facts.iter().map(|s| s.relabel(map)).collect(),
            moves: self.moves.iter().map(|m| m.relabel(map)).collect(),
            end: match &self.end {
                End::Contradiction(c) => End::Contradiction(c.relabel(map)),
                End::Refuted { decision, lines } => End::Refuted {
                    decision: decision.map(|s| s.relabel(map)),
                    lines: Box::new([lines[0].relabel(map), lines[1].relabel(map)]),
                },
                End::Solution { placements } => End::Solution {
                    placements: placements
                        .iter()
                        .map(|&(c, d)| (c, map[d.index()]))
                        .collect(),
                },
                End::Cut(cut) => End::Cut(*cut),
            },
        }
    }

    /// The position the hypothesis (and the facts beside it) makes of the start: where the
    /// first move is read.
    pub fn assumed(&self) -> Grid {
        let mut g = self.start;
        for s in self.hypothesis.iter().chain(&self.facts) {
            s.apply(&mut g);
        }
        g
    }

    /// Whether a limit cut the derivation short ([`End::Cut`]).
    pub fn is_cut(&self) -> bool {
        matches!(self.end, End::Cut(_))
    }

    /// The contradiction the derivation ends in, if it ends in one.
    pub fn contradiction(&self) -> Option<&Contradiction> {
        match &self.end {
            End::Contradiction(c) => Some(c),
            _ => None,
        }
    }
}

/// Why a move or a contradiction does not hold when replayed ([`check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// Move `n` (1-based): its pattern does not hold, or it removes a candidate its rule does not
    /// remove or that is not there.
    #[error("move {0} does not hold")]
    Move(usize),
    /// The contradiction does not hold in the position the moves reach.
    #[error("the contradiction does not hold")]
    Contradiction,
    /// A move's or the contradiction's `uses` are not the moves that removed what it needs.
    #[error("move {0} names the wrong premises")]
    Uses(usize),
}

/// Replays `moves` from `assumed` (the start with the hypothesis applied) and checks each move's
/// pattern and effect, then `contradiction`, against the position reached; also that the
/// premises named are those the replay finds.
///
/// Returns the first failure.
pub fn check(
    assumed: &Grid,
    moves: &[Move],
    contradiction: &Contradiction,
) -> Result<(), CheckError> {
    let mut g = *assumed;
    let start = keys::Keys::of(assumed);
    let mut removed_by: Vec<Option<usize>> = vec![None; 729];
    for (i, m) in moves.iter().enumerate() {
        if !search::pattern_holds(&g, m) {
            return Err(CheckError::Move(i + 1));
        }
        if search::uses_of(&removed_by, &search::premises_of_move(&start, m)) != m.uses {
            return Err(CheckError::Uses(i + 1));
        }
        for &(c, v) in &m.removes {
            for d in v.iter() {
                removed_by[keys::key(c, d)] = Some(i + 1);
            }
            g.set(c, g.get(c) - v);
        }
    }
    if !search::contradiction_holds(&g, contradiction) {
        return Err(CheckError::Contradiction);
    }
    let premises = search::premises_of_contradiction(&start, contradiction);
    if search::uses_of(&removed_by, &premises) != contradiction.uses {
        return Err(CheckError::Uses(moves.len() + 1));
    }
    Ok(())
}

fn ser_grid<S: Serializer>(g: &Grid, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(Cell::all().map(|c| g.get(c).to_digit_string()))
}

fn unit_named(s: &str) -> Option<Unit> {
    Unit::all().find(|u| u.to_string() == s)
}

fn candidates_named(s: &str) -> Option<Candidates> {
    let mut v = Candidates::NONE;
    for part in s.split(',') {
        let d = part.trim().parse::<u8>().ok().and_then(Digit::new)?;
        v |= Candidates::single(d);
    }
    Some(v)
}

mod opt_unit {
    use super::*;
    pub fn serialize<S: Serializer>(u: &Option<Unit>, s: S) -> Result<S::Ok, S::Error> {
        match u {
            Some(u) => s.collect_str(u),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Unit>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| {
            unit_named(&t).ok_or_else(|| serde::de::Error::custom(format!("not a unit: {t:?}")))
        })
        .transpose()
    }
}

mod cands {
    use super::*;
    pub fn serialize<S: Serializer>(v: &Candidates, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Candidates, D::Error> {
        let text = String::deserialize(d)?;
        candidates_named(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not values: {text:?}")))
    }
}

mod removals {
    use super::*;
    pub fn serialize<S: Serializer>(r: &[(Cell, Candidates)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(r.iter().map(|(c, v)| (c.to_string(), v.to_string())))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(Cell, Candidates)>, D::Error> {
        let pairs: Vec<(String, String)> = Vec::deserialize(d)?;
        pairs
            .into_iter()
            .map(|(c, v)| {
                let cell = c.parse().map_err(serde::de::Error::custom)?;
                let values = candidates_named(&v)
                    .ok_or_else(|| serde::de::Error::custom(format!("not values: {v:?}")))?;
                Ok((cell, values))
            })
            .collect()
    }
}

impl fmt::Display for Contradiction {
    /// `D5 has no value`, `7 has no place in row 4`, `7 twice in row 4: D4, E4`, `D4, E4, F4
    /// hold only 1,7 in row 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = self.unit.map(|u| u.to_string()).unwrap_or_default();
        match self.kind {
            ContradictionKind::NoValue => write!(f, "{} has no value", text::cells(&self.cells)),
            ContradictionKind::NoPlace => write!(f, "{} has no place in {unit}", self.values),
            ContradictionKind::Twice => write!(
                f,
                "{} twice in {unit}: {}",
                self.values,
                text::cells(&self.cells)
            ),
            ContradictionKind::TooFewValues => write!(
                f,
                "{} hold only {} in {unit}",
                text::cells(&self.cells),
                self.values
            ),
        }
    }
}
