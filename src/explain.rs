//! Why a position is contradictory (spec §3's kinds of contradiction), as a value a person can
//! check: which cell has no value, which values have no place in which unit, which values two
//! cells of a unit both hold as their only value, or which cells of a unit hold too few values
//! between them.
//!
//! [`explain`] propagates in **rounds**: each round applies every rule of the profile to the same
//! position and all its eliminations together, and the first round after which some unit or
//! cell shows a contradiction gives the reason. Rounds do not depend on the order of cells or
//! digits, so the reason of a relabelled position is the relabelled reason. The engine's own
//! propagation stops at whichever contradiction it meets first; this slower reading is only run
//! for lines that are shown.

use crate::grid::{Candidates, Cell, CellSet, Digit, Grid, Unit};
use crate::propagate::{Profile, Rule};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// What is contradictory in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conflict {
    /// A cell has no value left.
    NoValue {
        /// The empty cell.
        cell: Cell,
    },
    /// Some values have no place left in a unit.
    NoPlace {
        /// The values.
        values: Candidates,
        /// The unit.
        unit: Unit,
    },
    /// Two cells of a unit both hold each of these values as their only value.
    Twice {
        /// The values.
        values: Candidates,
        /// The unit.
        unit: Unit,
    },
    /// Some open cells of a unit hold fewer values between them than there are cells.
    TooFewValues {
        /// The cells.
        cells: CellSet,
        /// The values they hold.
        values: Candidates,
        /// The unit.
        unit: Unit,
    },
}

/// The reason of a contradiction: what, and after how many rounds of propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reason {
    /// What is contradictory.
    pub conflict: Conflict,
    /// The rounds of propagation after the hypothesis that led there (0: at once).
    pub rounds: u32,
}

impl Reason {
    /// The reason with the digits renamed.
    pub fn relabel(&self, map: &[Digit; 9]) -> Reason {
        let conflict = match self.conflict {
            Conflict::NoValue { cell } => Conflict::NoValue { cell },
            Conflict::NoPlace { values, unit } => Conflict::NoPlace {
                values: values.relabel(map),
                unit,
            },
            Conflict::Twice { values, unit } => Conflict::Twice {
                values: values.relabel(map),
                unit,
            },
            Conflict::TooFewValues {
                cells,
                values,
                unit,
            } => Conflict::TooFewValues {
                cells,
                values: values.relabel(map),
                unit,
            },
        };
        Reason {
            conflict,
            rounds: self.rounds,
        }
    }

    /// The cells a picture marks: the empty cell, or every cell of the unit.
    pub fn cells(&self) -> CellSet {
        match self.conflict {
            Conflict::NoValue { cell } => [cell].into_iter().collect(),
            Conflict::NoPlace { unit, .. } | Conflict::Twice { unit, .. } => unit.cell_set(),
            Conflict::TooFewValues { cells, .. } => cells,
        }
    }
}

fn list(cells: CellSet) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.conflict {
            Conflict::NoValue { cell } => write!(f, "{cell} has no value")?,
            Conflict::NoPlace { values, unit } if values.len() == 1 => {
                write!(f, "value {values} has no place in {unit}")?;
            }
            Conflict::NoPlace { values, unit } => {
                write!(f, "values {values} have no place in {unit}")?;
            }
            Conflict::Twice { values, unit } if values.len() == 1 => {
                write!(f, "value {values} twice in {unit}")?;
            }
            Conflict::Twice { values, unit } => write!(f, "values {values} twice in {unit}")?,
            Conflict::TooFewValues {
                cells,
                values,
                unit,
            } => write!(f, "{} hold only {values} in {unit}", list(cells))?,
        }
        write!(f, " after {} rounds", self.rounds)
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A reason that does not read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a reason: {0:?}")]
pub struct BadReason(pub String);

fn unit_from(s: &str) -> Option<Unit> {
    Unit::all().find(|u| u.to_string() == s)
}

fn values_from(s: &str) -> Option<Candidates> {
    let mut v = Candidates::NONE;
    for part in s.split(',') {
        let d = part.trim().parse::<u8>().ok().and_then(Digit::new)?;
        v |= Candidates::single(d);
    }
    (!v.is_empty()).then_some(v)
}

/// `value 6` or `values 3,7`, as written.
fn values_named(s: &str) -> Option<Candidates> {
    let v = match (s.strip_prefix("value "), s.strip_prefix("values ")) {
        (Some(one), _) => values_from(one).filter(|v| v.len() == 1)?,
        (_, Some(many)) => values_from(many).filter(|v| v.len() > 1)?,
        _ => return None,
    };
    (v.to_string() == s.split_once(' ')?.1).then_some(v)
}

impl FromStr for Reason {
    type Err = BadReason;
    fn from_str(text: &str) -> Result<Reason, BadReason> {
        let bad = || BadReason(text.to_string());
        let (what, rounds) = text.rsplit_once(" after ").ok_or_else(bad)?;
        let rounds = rounds
            .strip_suffix(" rounds")
            .and_then(|r| r.parse().ok())
            .ok_or_else(bad)?;
        let conflict = if let Some(cell) = what.strip_suffix(" has no value") {
            Conflict::NoValue {
                cell: cell.parse().map_err(|_| bad())?,
            }
        } else if let Some((values, unit)) = what
            .split_once(" has no place in ")
            .or_else(|| what.split_once(" have no place in "))
        {
            Conflict::NoPlace {
                values: values_named(values).ok_or_else(bad)?,
                unit: unit_from(unit).ok_or_else(bad)?,
            }
        } else if let Some((values, unit)) = what.split_once(" twice in ") {
            Conflict::Twice {
                values: values_named(values).ok_or_else(bad)?,
                unit: unit_from(unit).ok_or_else(bad)?,
            }
        } else if let Some((cells, rest)) = what.split_once(" hold only ") {
            let (values, unit) = rest.split_once(" in ").ok_or_else(bad)?;
            let mut set = CellSet::EMPTY;
            for c in cells.split(',') {
                set.insert(c.parse().map_err(|_| bad())?);
            }
            Conflict::TooFewValues {
                cells: set,
                values: values_from(values).ok_or_else(bad)?,
                unit: unit_from(unit).ok_or_else(bad)?,
            }
        } else {
            return Err(bad());
        };
        Ok(Reason { conflict, rounds })
    }
}

/// The contradiction `grid` shows as it stands, if any: the first empty cell (row-major), else
/// the first unit (blocks, rows, columns) with values without a place, values held twice as a
/// single, or open cells holding too few values between them (up to four cells, as the subset
/// rules read them).
pub fn conflict(grid: &Grid) -> Option<Conflict> {
    if let Some(cell) = Cell::all().find(|&c| grid.get(c).is_empty()) {
        return Some(Conflict::NoValue { cell });
    }
    for unit in Unit::all() {
        let cells = unit.cells();
        let mut seen = Candidates::NONE;
        let mut singles = Candidates::NONE;
        let mut twice = Candidates::NONE;
        for &c in cells {
            let v = grid.get(c);
            seen |= v;
            if v.len() == 1 {
                twice |= singles & v;
                singles |= v;
            }
        }
        let missing = Candidates::ALL - seen;
        if !missing.is_empty() {
            return Some(Conflict::NoPlace {
                values: missing,
                unit,
            });
        }
        if !twice.is_empty() {
            return Some(Conflict::Twice {
                values: twice,
                unit,
            });
        }
    }
    for unit in Unit::all() {
        let open: Vec<Cell> = unit
            .cells()
            .iter()
            .copied()
            .filter(|&c| grid.get(c).len() > 1)
            .collect();
        for mask in 1u32..1 << open.len() {
            let k = mask.count_ones();
            if !(2..=4).contains(&k) {
                continue;
            }
            let chosen = open.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1);
            let mut values = Candidates::NONE;
            let mut set = CellSet::EMPTY;
            for (_, &c) in chosen {
                values |= grid.get(c);
                set.insert(c);
            }
            if values.len() < k {
                return Some(Conflict::TooFewValues {
                    cells: set,
                    values,
                    unit,
                });
            }
        }
    }
    None
}

/// The eliminations of one round: every rule of `profile` read on `grid`, applied together.
fn round(grid: &Grid, profile: &Profile) -> Grid {
    let mut out = *grid;
    let mut remove = |cell: Cell, values: Candidates| {
        out.set(cell, out.get(cell) - values);
    };
    // Naked singles.
    if profile.has(Rule::NakedSingle) {
        for c in Cell::all() {
            let v = grid.get(c);
            if v.len() == 1 {
                for &p in c.peers() {
                    remove(p, v);
                }
            }
        }
    }
    for unit in Unit::all() {
        let cells = unit.cells();
        let places_of: Vec<Vec<Cell>> = Digit::all()
            .map(|d| {
                cells
                    .iter()
                    .copied()
                    .filter(|&c| grid.get(c).contains(d))
                    .collect()
            })
            .collect();
        let places = |d: Digit| -> &[Cell] { places_of.get(d.index()).map_or(&[], |p| &p[..]) };
        // Hidden singles.
        if profile.has(Rule::HiddenSingle) {
            for d in Digit::all() {
                if let [c] = places(d)[..] {
                    remove(c, Candidates::ALL - Candidates::single(d));
                }
            }
        }
        // Naked and hidden subsets of 2 to 4 among the open cells / unplaced values.
        let open: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| grid.get(c).len() > 1)
            .collect();
        for mask in 1u32..1 << open.len() {
            let k = mask.count_ones() as usize;
            let rule = match k {
                2 => Rule::NakedPair,
                3 => Rule::NakedTriple,
                4 => Rule::NakedQuad,
                _ => continue,
            };
            if !profile.has(rule) {
                continue;
            }
            let mut values = Candidates::NONE;
            for (i, &c) in open.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    values |= grid.get(c);
                }
            }
            if values.len() as usize == k {
                for (i, &c) in open.iter().enumerate() {
                    if mask >> i & 1 == 0 {
                        remove(c, values);
                    }
                }
            }
        }
        let unplaced: Vec<Digit> = Digit::all().filter(|&d| places(d).len() > 1).collect();
        for mask in 1u32..1 << unplaced.len() {
            let k = mask.count_ones() as usize;
            let rule = match k {
                2 => Rule::HiddenPair,
                3 => Rule::HiddenTriple,
                4 => Rule::HiddenQuad,
                _ => continue,
            };
            if !profile.has(rule) {
                continue;
            }
            let mut values = Candidates::NONE;
            let mut at = CellSet::EMPTY;
            for (i, &d) in unplaced.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    values |= Candidates::single(d);
                    for &c in places(d) {
                        at.insert(c);
                    }
                }
            }
            if at.len() as usize == k {
                for c in at.iter() {
                    remove(c, Candidates::ALL - values);
                }
            }
        }
    }
    // Locked candidates: a value of a block confined to one line, or of a line to one block.
    if profile.has(Rule::LockedPointing) || profile.has(Rule::LockedClaiming) {
        for a in Unit::all() {
            for b in Unit::all() {
                let shared = a.cell_set().bits() & b.cell_set().bits();
                if a == b || shared.count_ones() != 3 {
                    continue;
                }
                let rule = if a.kind() == crate::grid::UnitKind::Block {
                    Rule::LockedPointing
                } else {
                    Rule::LockedClaiming
                };
                if !profile.has(rule) {
                    continue;
                }
                for d in Digit::all() {
                    let places: u128 = a
                        .cells()
                        .iter()
                        .filter(|&&c| grid.get(c).contains(d))
                        .fold(0, |m, c| m | 1u128 << c.index());
                    if places != 0 && places & !shared == 0 {
                        for &c in b.cells() {
                            if shared >> c.index() & 1 == 0 {
                                remove(c, Candidates::single(d));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Why `grid` (a position with a hypothesis applied) propagates to a contradiction under
/// `profile`: the first conflict that rounds of propagation show, or `None` if they reach a
/// position without one.
pub fn explain(grid: &Grid, profile: &Profile) -> Option<Reason> {
    explain_at(grid, profile).map(|(reason, _)| reason)
}

/// [`explain`], with the position the rounds reached when the conflict showed: the position in
/// which a picture can point at the reason (the engine's own end position may show another).
pub fn explain_at(grid: &Grid, profile: &Profile) -> Option<(Reason, Grid)> {
    let mut g = *grid;
    for rounds in 0..=81 * 9 {
        if let Some(conflict) = conflict(&g) {
            return Some((Reason { conflict, rounds }, g));
        }
        let next = round(&g, profile);
        if next == g {
            return None;
        }
        g = next;
    }
    None
}

#[cfg(test)]
mod tests;
