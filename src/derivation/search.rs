//! Finding a short derivation: rounds with the cheapest way to remove each candidate, the
//! cheapest contradiction, then pruning to an irredundant list of moves.
//!
//! Every candidate is named by a *key*, `cell * 9 + digit`, and sets of them are bit sets
//! ([`Keys`]). A move's pattern needs some keys gone (its **premises**, those present at the
//! start) and may remove others (its **potential effect**). Rounds apply every rule to the same
//! position, as [`crate::explain`] does; for each move found, its *closure* is the move with the closures of the cheapest moves that removed
//! its premises, and each key removed in a round keeps the move with the smallest closure (a
//! single before a subset on ties). The contradictions seen in the first round that shows one
//! and a few after are ranked by the size of the union of their premises' closures; the
//! cheapest ones (up to [`MAX_TRIES`] with distinct moves) are each built and pruned, and the
//! shortest result is kept. [`build`] assigns each needed key to the latest move before its
//! consumer that can remove it, drops moves that remove nothing needed, and replays the list to
//! check every pattern; pruning then drops moves one at a time wherever the rest still holds
//! (a drop that leaves some needed key with no move to remove it is seen from the key sets
//! alone, before any rebuilding). Every round and every pruning trial first reads the deadline
//! of [`Limits`].

use super::keys::{key, Keys};
use super::{Contradiction, ContradictionKind, Derivation, End, Move, Rule};
use crate::grid::{Candidates, Cell, Digit, Grid, Unit, UnitKind};
use crate::propagate::{Profile, Rule as PRule};
use crate::statement::Statement;
use std::time::Instant;

/// Bounds on the work of one derivation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rounds looked at after the first that shows a contradiction, for a cheaper one.
    pub extra_rounds: u32,
    /// The most moves recorded while searching; past it the derivation gives up.
    pub max_moves_seen: usize,
    /// The run's deadline: once it has passed, no derivation goes on (the clock is read once a
    /// round and once a pruning trial).
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            extra_rounds: 2,
            max_moves_seen: 20_000,
            deadline: None,
        }
    }
}

impl Limits {
    /// The default limits with the run's deadline (`--timeout`), if any.
    pub fn until(deadline: Option<Instant>) -> Limits {
        Limits {
            deadline,
            ..Limits::default()
        }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(DeriveError::Deadline)` once the deadline has passed.
    fn in_time(&self) -> Result<(), DeriveError> {
        if self.expired() {
            Err(DeriveError::Deadline)
        } else {
            Ok(())
        }
    }
}

/// Why no derivation was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeriveError {
    /// Propagation from the hypothesis reaches no contradiction.
    #[error("propagation from the hypothesis reaches no contradiction")]
    NoContradiction,
    /// The search saw more moves than [`Limits::max_moves_seen`].
    #[error("the derivation saw too many moves")]
    Limit,
    /// The deadline of [`Limits`] passed.
    #[error("the time limit passed before the derivation was complete")]
    Deadline,
    /// The moves found did not replay (a fault of this module, reported rather than a panic).
    #[error("the derivation found does not replay")]
    Unchecked,
}

/// The cells of `unit` holding `d` in `g`.
fn places(g: &Grid, unit: Unit, d: Digit) -> Vec<Cell> {
    unit.cells()
        .iter()
        .copied()
        .filter(|&c| g.get(c).contains(d))
        .collect()
}

/// The keys of `values` in the cells of `unit` outside `cells`: what a hidden pattern needs gone
/// and a naked pattern removes (and a locked value, with the shared cells as `cells`).
fn outside(unit: Unit, cells: &[Cell], values: Candidates) -> Keys {
    let mut out = Keys::NONE;
    for &c in unit.cells() {
        if !cells.contains(&c) {
            out.insert_values(c, values);
        }
    }
    out
}

/// The keys of the values other than `values` in `cells`: what a naked pattern needs gone and a
/// hidden pattern removes.
fn others(cells: &[Cell], values: Candidates) -> Keys {
    let mut out = Keys::NONE;
    for &c in cells {
        out.insert_values(c, Candidates::ALL - values);
    }
    out
}

/// The three cells a locked value's unit shares with the unit it leaves.
fn shared_cells(m: &Move) -> Vec<Cell> {
    match (m.unit, m.leaves) {
        (Some(u), Some(l)) => u
            .cells()
            .iter()
            .copied()
            .filter(|&c| l.cell_set().contains(c))
            .collect(),
        _ => Vec::new(),
    }
}

/// The keys a move's pattern needs gone.
fn needs_gone(m: &Move) -> Keys {
    match (m.rule, m.unit) {
        (Rule::NakedSingle | Rule::NakedSubset, _) => others(&m.cells, m.values),
        (Rule::HiddenSingle | Rule::HiddenSubset, Some(u)) => outside(u, &m.cells, m.values),
        (Rule::LockedPointing | Rule::LockedClaiming, Some(u)) => {
            outside(u, &shared_cells(m), m.values)
        }
        _ => Keys::NONE,
    }
}

/// The keys a move may remove.
fn potential(m: &Move) -> Keys {
    match (m.rule, m.unit, m.leaves) {
        (Rule::NakedSingle, _, _) => {
            let mut out = Keys::NONE;
            for &x in &m.cells {
                for &p in x.peers() {
                    out.insert_values(p, m.values);
                }
            }
            out
        }
        (Rule::NakedSubset, Some(u), _) => outside(u, &m.cells, m.values),
        (Rule::HiddenSingle | Rule::HiddenSubset, _, _) => others(&m.cells, m.values),
        (Rule::LockedPointing | Rule::LockedClaiming, Some(_), Some(l)) => {
            outside(l, &shared_cells(m), m.values)
        }
        _ => Keys::NONE,
    }
}

/// The keys a contradiction needs gone.
fn contradiction_needs(c: &Contradiction) -> Keys {
    match (c.kind, c.unit) {
        (ContradictionKind::NoValue, _) => others(&c.cells, Candidates::NONE),
        (ContradictionKind::NoPlace, Some(u)) => outside(u, &[], c.values),
        (ContradictionKind::Twice | ContradictionKind::TooFewValues, _) => {
            others(&c.cells, c.values)
        }
        _ => Keys::NONE,
    }
}

/// The premises of a move: the keys its pattern needs gone that the position it starts from,
/// `assumed` (its candidates), holds.
pub(super) fn premises_of_move(assumed: &Keys, m: &Move) -> Keys {
    needs_gone(m) & *assumed
}

/// The premises of a contradiction.
pub(super) fn premises_of_contradiction(assumed: &Keys, c: &Contradiction) -> Keys {
    contradiction_needs(c) & *assumed
}

/// The moves (1-based, ascending) that removed `premises`, from a replay's record.
pub(super) fn uses_of(removed_by: &[Option<usize>], premises: &Keys) -> Vec<usize> {
    let mut u: Vec<usize> = premises
        .iter()
        .filter_map(|k| removed_by.get(k).copied().flatten())
        .collect();
    u.sort_unstable();
    u.dedup();
    u
}

fn distinct_in(cells: &[Cell], unit: Unit) -> bool {
    let set = unit.cell_set();
    cells.iter().all(|&c| set.contains(c))
        && (1..cells.len()).all(|i| !cells[..i].contains(&cells[i]))
}

/// Whether a subset move, naked or hidden, has the shape of one: 2 to 4 distinct cells of `u`
/// and as many values.
fn subset_shape(m: &Move, u: Unit) -> bool {
    let k = m.cells.len();
    m.leaves.is_none()
        && (2..=4).contains(&k)
        && m.values.len() as usize == k
        && distinct_in(&m.cells, u)
}

/// Whether `m`'s pattern holds in `g` and its removals are candidates of `g` its rule removes.
pub(super) fn pattern_holds(g: &Grid, m: &Move) -> bool {
    let k = m.cells.len();
    let pattern = match (m.rule, m.unit) {
        (Rule::NakedSingle, None) => {
            m.leaves.is_none() && k == 1 && m.values.len() == 1 && g.get(m.cells[0]) == m.values
        }
        (Rule::HiddenSingle, Some(u)) => {
            m.leaves.is_none()
                && k == 1
                && m.values.len() == 1
                && m.values.first().is_some_and(|d| places(g, u, d) == m.cells)
        }
        (Rule::LockedPointing | Rule::LockedClaiming, Some(u)) => {
            let kinds_fit = match (m.rule, m.leaves) {
                (Rule::LockedPointing, Some(l)) => {
                    u.kind() == UnitKind::Block && l.kind() != UnitKind::Block
                }
                (Rule::LockedClaiming, Some(l)) => {
                    u.kind() != UnitKind::Block && l.kind() == UnitKind::Block
                }
                _ => false,
            };
            let line = m.leaves.map(|l| l.cell_set()).unwrap_or_default();
            kinds_fit
                && (u.cell_set().bits() & line.bits()).count_ones() == 3
                && m.values.len() == 1
                && m.values.first().is_some_and(|d| {
                    let p = places(g, u, d);
                    !p.is_empty() && p == m.cells && p.iter().all(|&c| line.contains(c))
                })
        }
        (Rule::NakedSubset, Some(u)) => {
            subset_shape(m, u)
                && m.cells
                    .iter()
                    .fold(Candidates::NONE, |acc, &c| acc | g.get(c))
                    == m.values
        }
        (Rule::HiddenSubset, Some(u)) => {
            subset_shape(m, u) && {
                let mut union: Vec<Cell> = Vec::new();
                let mut ok = true;
                for d in m.values.iter() {
                    let p = places(g, u, d);
                    ok &= !p.is_empty() && p.iter().all(|c| m.cells.contains(c));
                    union.extend(p);
                }
                ok && m.cells.iter().all(|c| union.contains(c))
            }
        }
        _ => false,
    };
    if !pattern || m.removes.is_empty() {
        return false;
    }
    let allowed = potential(m);
    m.removes.iter().all(|&(c, v)| {
        !v.is_empty() && v.is_subset_of(g.get(c)) && v.iter().all(|d| allowed.contains(key(c, d)))
    })
}

/// Whether `c` holds in `g`.
pub(super) fn contradiction_holds(g: &Grid, c: &Contradiction) -> bool {
    match (c.kind, c.unit) {
        (ContradictionKind::NoValue, None) => c.cells.len() == 1 && g.get(c.cells[0]).is_empty(),
        (ContradictionKind::NoPlace, Some(u)) => {
            c.cells.is_empty()
                && c.values.len() == 1
                && c.values.first().is_some_and(|d| places(g, u, d).is_empty())
        }
        (ContradictionKind::Twice, Some(u)) => {
            c.cells.len() == 2
                && distinct_in(&c.cells, u)
                && c.values.len() == 1
                && c.cells.iter().all(|&x| g.get(x) == c.values)
        }
        (ContradictionKind::TooFewValues, Some(u)) => {
            (2..=4).contains(&c.cells.len())
                && distinct_in(&c.cells, u)
                && (c.values.len() as usize) < c.cells.len()
                && c.cells
                    .iter()
                    .fold(Candidates::NONE, |acc, &x| acc | g.get(x))
                    .is_subset_of(c.values)
        }
        _ => false,
    }
}

fn naked_on(profile: &Profile, k: usize) -> bool {
    match k {
        2 => profile.has(PRule::NakedPair),
        3 => profile.has(PRule::NakedTriple),
        4 => profile.has(PRule::NakedQuad),
        _ => false,
    }
}

fn hidden_on(profile: &Profile, k: usize) -> bool {
    match k {
        2 => profile.has(PRule::HiddenPair),
        3 => profile.has(PRule::HiddenTriple),
        4 => profile.has(PRule::HiddenQuad),
        _ => false,
    }
}

/// The places of every value in every unit, read once per position.
struct Places {
    /// Bit `i` for the unit's `i`-th cell.
    masks: [[u16; 9]; 27],
    /// The same places as a cell set.
    sets: [[u128; 9]; 27],
}

impl Places {
    fn of(g: &Grid) -> Places {
        let mut masks = [[0u16; 9]; 27];
        let mut sets = [[0u128; 9]; 27];
        for u in Unit::all() {
            for (i, &c) in u.cells().iter().enumerate() {
                for d in g.get(c).iter() {
                    masks[u.index()][d.index()] |= 1 << i;
                    sets[u.index()][d.index()] |= 1 << c.index();
                }
            }
        }
        Places { masks, sets }
    }

    fn mask(&self, u: Unit, d: Digit) -> u16 {
        self.masks[u.index()][d.index()]
    }

    fn set(&self, u: Unit, d: Digit) -> u128 {
        self.sets[u.index()][d.index()]
    }
}

/// The union of the candidates of the cells of `u` that `mask` names.
fn values_at(g: &Grid, u: Unit, mask: u16) -> Candidates {
    crate::bits::ones(mask).fold(Candidates::NONE, |acc, i| acc | g.get(u.cells()[i]))
}

/// The cells of `u` that `mask` names (bit `i`: the unit's `i`-th cell).
fn cells_of(u: Unit, mask: u16) -> Vec<Cell> {
    (0..9)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| u.cells()[i])
        .collect()
}

/// The 9-bit masks with 2 to 4 bits whose size `on` allows, inside `within`, in increasing
/// order (only the subsets of `within` are visited).
fn small_masks(within: u16, on: impl Fn(usize) -> bool) -> impl Iterator<Item = u16> {
    let mut s: u16 = 0;
    std::iter::from_fn(move || loop {
        // The next subset of `within` after `s`; back to 0 after the last.
        s = s.wrapping_sub(within) & within;
        if s == 0 {
            return None;
        }
        let k = s.count_ones() as usize;
        if (2..=4).contains(&k) && on(k) {
            return Some(s);
        }
    })
}

/// The block–line pairs that share three cells, with those cells.
fn intersections() -> Vec<(Unit, Unit, u128)> {
    let mut out = Vec::new();
    for a in Unit::all() {
        for b in Unit::all() {
            let shared = a.cell_set().bits() & b.cell_set().bits();
            if a != b && shared.count_ones() == 3 {
                out.push((a, b, shared));
            }
        }
    }
    out
}

/// Every move whose pattern holds in `g` and that removes something, each with its full
/// effect on `g`.
fn moves_in(g: &Grid, profile: &Profile) -> Vec<Move> {
    let places = Places::of(g);
    let here = Keys::of(g);
    let mut out = Vec::new();
    let mut push = |rule, unit, leaves, cells: Vec<Cell>, values: Candidates| {
        let mut m = Move {
            rule,
            unit,
            leaves,
            cells,
            values,
            removes: Vec::new(),
            uses: Vec::new(),
        };
        let removed = potential(&m) & here;
        if !removed.is_empty() {
            m.removes = removed.by_cell();
            out.push(m);
        }
    };
    if profile.has(PRule::NakedSingle) {
        for c in Cell::all() {
            let v = g.get(c);
            if v.len() == 1 && c.peers().iter().any(|&p| v.is_subset_of(g.get(p))) {
                push(Rule::NakedSingle, None, None, vec![c], v);
            }
        }
    }
    for u in Unit::all() {
        if profile.has(PRule::HiddenSingle) {
            for d in Digit::all() {
                let m = places.mask(u, d);
                if m.count_ones() == 1 && g.get(cells_of(u, m)[0]).len() > 1 {
                    push(
                        Rule::HiddenSingle,
                        Some(u),
                        None,
                        cells_of(u, m),
                        Candidates::single(d),
                    );
                }
            }
        }
        let open = u
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, &c)| g.get(c).len() > 1)
            .fold(0u16, |m, (i, _)| m | 1 << i);
        for s in small_masks(open, |k| naked_on(profile, k)) {
            let v = values_at(g, u, s);
            if v.len() == s.count_ones() {
                push(Rule::NakedSubset, Some(u), None, cells_of(u, s), v);
            }
        }
        let spread = Digit::all()
            .filter(|&d| places.mask(u, d).count_ones() > 1)
            .fold(0u16, |m, d| m | 1 << d.index());
        for vs in small_masks(spread, |k| hidden_on(profile, k)) {
            // `vs` names digits as a candidate set does: bit `i` for the digit of index `i`.
            let v = Candidates::from_bits(vs);
            let at = v.iter().fold(0u16, |m, d| m | places.mask(u, d));
            if at.count_ones() == v.len() {
                push(Rule::HiddenSubset, Some(u), None, cells_of(u, at), v);
            }
        }
    }
    for (a, b, shared) in intersections() {
        let rule = if a.kind() == UnitKind::Block {
            Rule::LockedPointing
        } else {
            Rule::LockedClaiming
        };
        let on = match rule {
            Rule::LockedPointing => profile.has(PRule::LockedPointing),
            _ => profile.has(PRule::LockedClaiming),
        };
        if !on {
            continue;
        }
        for d in Digit::all() {
            let p = places.set(a, d);
            if p != 0 && p & !shared == 0 && places.set(b, d) & !shared != 0 {
                let cells = cells_of(a, places.mask(a, d));
                push(rule, Some(a), Some(b), cells, Candidates::single(d));
            }
        }
    }
    out
}

/// Every contradiction `g` shows that `profile` detects.
fn contradictions_in(g: &Grid, profile: &Profile) -> Vec<Contradiction> {
    let places = Places::of(g);
    let mut out = Vec::new();
    let mk = |kind, cells, unit, values| Contradiction {
        kind,
        cells,
        unit,
        values,
        uses: Vec::new(),
    };
    for c in Cell::all() {
        if g.get(c).is_empty() {
            out.push(mk(
                ContradictionKind::NoValue,
                vec![c],
                None,
                Candidates::NONE,
            ));
        }
    }
    for u in Unit::all() {
        for d in Digit::all() {
            let v = Candidates::single(d);
            let p = places.mask(u, d);
            if p == 0 {
                out.push(mk(ContradictionKind::NoPlace, vec![], Some(u), v));
            }
            if p.count_ones() < 2 {
                continue;
            }
            let singles: Vec<Cell> = cells_of(u, p)
                .into_iter()
                .filter(|&c| g.get(c) == v)
                .collect();
            for i in 0..singles.len() {
                for j in i + 1..singles.len() {
                    out.push(mk(
                        ContradictionKind::Twice,
                        vec![singles[i], singles[j]],
                        Some(u),
                        v,
                    ));
                }
            }
        }
        let open = u
            .cells()
            .iter()
            .enumerate()
            .filter(|(_, &c)| g.get(c).len() > 1)
            .fold(0u16, |m, (i, _)| m | 1 << i);
        for s in small_masks(open, |k| naked_on(profile, k)) {
            let v = values_at(g, u, s);
            if v.len() < s.count_ones() {
                out.push(mk(
                    ContradictionKind::TooFewValues,
                    cells_of(u, s),
                    Some(u),
                    v,
                ));
            }
        }
    }
    out
}

/// Where each of `values` can go in `g`, as cell sets, sorted: a name for the values that does
/// not depend on the digits' names.
fn signature(g: &Grid, values: Candidates) -> Vec<u128> {
    let mut out: Vec<u128> = values
        .iter()
        .map(|d| {
            Cell::all()
                .filter(|&c| g.get(c).contains(d))
                .fold(0u128, |m, c| m | 1 << c.index())
        })
        .collect();
    out.sort_unstable();
    out
}

/// The order of moves inside a round, which ties are broken by: by rule (singles first), unit
/// and cells, then where their values can go in `g`, so that it does not depend on the digits'
/// names.
fn move_order(m: &Move, g: &Grid) -> (u8, Rule, Option<Unit>, Option<Unit>, Vec<Cell>, Vec<u128>) {
    (
        m.rule.rank(),
        m.rule,
        m.unit,
        m.leaves,
        m.cells.clone(),
        signature(g, m.values),
    )
}

/// The order of contradictions, for ties: by kind, unit and cells, then where their values can
/// go.
fn contradiction_order(c: &Contradiction, g: &Grid) -> (u8, Option<Unit>, Vec<Cell>, Vec<u128>) {
    let kind = match c.kind {
        ContradictionKind::NoValue => 0,
        ContradictionKind::NoPlace => 1,
        ContradictionKind::Twice => 2,
        ContradictionKind::TooFewValues => 3,
    };
    (kind, c.unit, c.cells.clone(), signature(g, c.values))
}

/// A set of moves (by index), as bits.
#[derive(Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn insert(&mut self, i: usize) {
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn union(&mut self, other: &Bits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    }
}

/// The derivation of the contradiction that `hypothesis` (with `facts`, statements established
/// beside it) leads to from `start` under `profile`: the moves found by rounds, the cheapest
/// contradiction, pruned to an irredundant list (see the module docs).
///
/// Returns an error when rounds reach no contradiction or `limits` stop the search.
///
/// Complexity: a few rounds of every rule over the grid, then a replay of the chosen moves for
/// each move tried out.
pub fn derive(
    start: &Grid,
    hypothesis: &Statement,
    facts: &[Statement],
    profile: &Profile,
    limits: &Limits,
) -> Result<Derivation, DeriveError> {
    let mut assumed = *start;
    for s in std::iter::once(hypothesis).chain(facts) {
        s.apply(&mut assumed);
    }
    let (moves, contradiction) = search(&assumed, profile, limits)?;
    Ok(Derivation {
        start: *start,
        hypothesis: Some(*hypothesis),
        facts: facts.to_vec(),
        moves,
        end: End::Contradiction(contradiction),
    })
}

/// The rounds, the cheapest contradiction, and the pruned list of moves.
pub(super) fn search(
    assumed: &Grid,
    profile: &Profile,
    limits: &Limits,
) -> Result<(Vec<Move>, Contradiction), DeriveError> {
    let mut seen: Vec<Move> = Vec::new();
    let mut closure: Vec<Bits> = Vec::new();
    let mut best: Vec<Option<usize>> = vec![None; 729];
    let mut g = *assumed;
    let mut chosen: Vec<(u32, Bits, Contradiction)> = Vec::new();
    let mut first_round: Option<u32> = None;
    let start = Keys::of(assumed);
    for round in 0..=729u32 {
        limits.in_time()?;
        let mut found = contradictions_in(&g, profile);
        found.sort_by_cached_key(|c| contradiction_order(c, &g));
        for c in found {
            let mut bits = Bits::default();
            for k in premises_of_contradiction(&start, &c).iter() {
                if let Some(b) = best[k] {
                    bits.union(&closure[b]);
                }
            }
            chosen.push((bits.len(), bits, c));
        }
        if !chosen.is_empty() && first_round.is_none() {
            first_round = Some(round);
        }
        if first_round.is_some_and(|r| round >= r + limits.extra_rounds) {
            break;
        }
        let mut found = moves_in(&g, profile);
        if found.is_empty() {
            break;
        }
        found.sort_by_cached_key(|m| move_order(m, &g));
        // The cheapest move found this round for each key it removes.
        let mut round_best: Vec<Option<(u32, u8, usize)>> = vec![None; 729];
        let base = seen.len();
        for (i, m) in found.iter().enumerate() {
            let mut bits = Bits::default();
            for k in premises_of_move(&start, m).iter() {
                if let Some(b) = best[k] {
                    bits.union(&closure[b]);
                }
            }
            bits.insert(base + i);
            let cost = (bits.len(), m.rule.rank());
            for &(c, v) in &m.removes {
                for d in v.iter() {
                    let slot = &mut round_best[key(c, d)];
                    if slot.map_or(true, |(n, r, _)| cost < (n, r)) {
                        *slot = Some((cost.0, cost.1, base + i));
                    }
                }
            }
            closure.push(bits);
        }
        for m in &found {
            for &(c, v) in &m.removes {
                g.set(c, g.get(c) - v);
            }
        }
        seen.extend(found);
        for (k, slot) in round_best.iter().enumerate() {
            if let Some((_, _, i)) = slot {
                best[k] = Some(*i);
            }
        }
        // Closures of moves no key keeps are never read again.
        let kept: Vec<bool> = {
            let mut kept = vec![false; seen.len() - base];
            for (_, _, i) in round_best.iter().flatten() {
                kept[i - base] = true;
            }
            kept
        };
        for (i, keep) in kept.iter().enumerate() {
            if !keep {
                closure[base + i] = Bits::default();
            }
        }
        if seen.len() > limits.max_moves_seen {
            return Err(DeriveError::Limit);
        }
    }
    if chosen.is_empty() {
        return Err(DeriveError::NoContradiction);
    }
    // The cheapest contradiction whose moves replay (moves of one round read the same position,
    // so in a contradictory position one may undo what another needs: `build` then ends
    // earlier, on the contradiction the replay shows).
    chosen.sort_by_key(|(cost, _, _)| *cost);
    // Each contradiction, cheapest first, built and pruned; the shortest result wins (the first
    // on ties). Contradictions resting on the same moves are built once.
    let mut best: Option<(Vec<Move>, Contradiction)> = None;
    let mut tried: Vec<Vec<usize>> = Vec::new();
    for (_, bits, c) in chosen.iter() {
        if tried.len() == MAX_TRIES {
            break;
        }
        let indices: Vec<usize> = bits.iter().collect();
        if tried.contains(&indices) {
            continue;
        }
        tried.push(indices);
        limits.in_time()?;
        let list: Vec<Move> = bits.iter().filter_map(|i| seen.get(i).cloned()).collect();
        let Some((moves, contradiction)) = build(assumed, list, c, profile) else {
            continue;
        };
        // Pruning rarely takes off a third: a list half as long again as the best is not pruned.
        if best
            .as_ref()
            .is_some_and(|(b, _)| 2 * moves.len() >= 3 * b.len())
        {
            continue;
        }
        let (moves, contradiction) = prune(assumed, moves, contradiction, profile, limits)?;
        if best.as_ref().map_or(true, |(b, _)| moves.len() < b.len()) {
            best = Some((moves, contradiction));
        }
    }
    best.ok_or(DeriveError::Unchecked)
}

/// Drops moves one at a time, first first, wherever the rest still holds (rebuilt by
/// [`build`]), until every move is needed.
fn prune(
    assumed: &Grid,
    mut moves: Vec<Move>,
    mut contradiction: Contradiction,
    profile: &Profile,
    limits: &Limits,
) -> Result<(Vec<Move>, Contradiction), DeriveError> {
    let start = Keys::of(assumed);
    let mut i = 0;
    let (mut can, mut rests) = removals_and_premises(&start, &moves);
    while i < moves.len() {
        limits.in_time()?;
        // Without move `i`, some key may be left with no move to remove it: then `build` would
        // fail at once, and the list need not be copied to find out.
        let need = premises_of_contradiction(&start, &contradiction);
        if assign(need, &can, &rests, Some(i)).is_none() {
            i += 1;
            continue;
        }
        let mut trial = moves.clone();
        trial.remove(i);
        match build(assumed, trial, &contradiction, profile) {
            Some((m, c)) if m.len() < moves.len() => {
                moves = m;
                contradiction = c;
                (can, rests) = removals_and_premises(&start, &moves);
            }
            _ => i += 1,
        }
    }
    Ok((moves, contradiction))
}

/// Assigns each key the contradiction and the moves need gone to the latest earlier move that
/// can remove it, drops moves left without a use, replays the rest from `assumed` (each move
/// removing what it is assigned and still there; a hidden single all its cell's other values)
/// and checks every pattern and the contradiction. Returns the moves with their removals and
/// premises, or `None` when the list does not hold.
fn build(
    assumed: &Grid,
    mut list: Vec<Move>,
    contradiction: &Contradiction,
    profile: &Profile,
) -> Option<(Vec<Move>, Contradiction)> {
    let start = Keys::of(assumed);
    // What each move may remove and its premises: they do not change while the list is built.
    let (mut can, mut rests) = removals_and_premises(&start, &list);
    fn drop(list: &mut Vec<Move>, can: &mut Vec<Keys>, rests: &mut Vec<Keys>, i: usize) {
        list.remove(i);
        can.remove(i);
        rests.remove(i);
    }
    'again: loop {
        let need = premises_of_contradiction(&start, contradiction);
        let useful = assign(need, &can, &rests, None)?;
        if let Some(i) = useful.iter().position(Keys::is_empty) {
            drop(&mut list, &mut can, &mut rests, i);
            continue 'again;
        }
        // Forwards: the removals, the places of locked values, the premises; check.
        let mut g = *assumed;
        let mut here = start;
        let mut removed_by: Vec<Option<usize>> = vec![None; 729];
        for i in 0..list.len() {
            let removed = if list[i].rule == Rule::HiddenSingle {
                can[i] & here
            } else {
                useful[i] & here
            };
            if removed.is_empty() {
                drop(&mut list, &mut can, &mut rests, i);
                continue 'again;
            }
            let m = &mut list[i];
            m.removes = removed.by_cell();
            if let (Rule::LockedPointing | Rule::LockedClaiming, Some(u), Some(d)) =
                (m.rule, m.unit, m.values.first())
            {
                m.cells = places(&g, u, d);
            }
            m.uses = uses_of(&removed_by, &rests[i]);
            if !pattern_holds(&g, m) {
                list.truncate(i);
                return build_on_what_shows(assumed, list, &g, profile);
            }
            for k in removed.iter() {
                removed_by[k] = Some(i + 1);
            }
            for &(c, v) in &m.removes {
                g.set(c, g.get(c) - v);
                here.remove_values(c, v);
            }
        }
        let mut c = contradiction.clone();
        c.uses = uses_of(&removed_by, &premises_of_contradiction(&start, &c));
        if !contradiction_holds(&g, &c) {
            return build_on_what_shows(assumed, list, &g, profile);
        }
        return Some((list, c));
    }
}

/// What each move of `list` may remove, and its premises from `start` (the assumed position's
/// candidates).
fn removals_and_premises(start: &Keys, list: &[Move]) -> (Vec<Keys>, Vec<Keys>) {
    let can = list.iter().map(potential).collect();
    let rests = list.iter().map(|m| premises_of_move(start, m)).collect();
    (can, rests)
}

/// Backwards from the end: each key in `need` goes to the latest move that can remove it
/// (`can`), whose premises (`rests`) are then needed in turn; move `skip` takes no part.
/// Returns what each move must remove (nothing for `skip`), or `None` when some needed key has
/// no earlier move to remove it.
fn assign(mut need: Keys, can: &[Keys], rests: &[Keys], skip: Option<usize>) -> Option<Vec<Keys>> {
    let mut useful = vec![Keys::NONE; can.len()];
    for i in (0..can.len()).rev().filter(|&i| Some(i) != skip) {
        let mine = can[i] & need;
        if !mine.is_empty() {
            need -= mine;
            need |= rests[i];
        }
        useful[i] = mine;
    }
    need.is_empty().then_some(useful)
}

/// The most contradictions (resting on distinct moves) built and pruned for one derivation,
/// cheapest first.
const MAX_TRIES: usize = 16;

/// [`build`] on `list` ending in the contradiction `g`, the position `list` reaches, shows with
/// the fewest premises; `None` if it shows none.
fn build_on_what_shows(
    assumed: &Grid,
    list: Vec<Move>,
    g: &Grid,
    profile: &Profile,
) -> Option<(Vec<Move>, Contradiction)> {
    let mut found = contradictions_in(g, profile);
    found.sort_by_cached_key(|c| contradiction_order(c, g));
    let start = Keys::of(assumed);
    let c = found
        .into_iter()
        .min_by_key(|c| premises_of_contradiction(&start, c).len())?;
    build(assumed, list, &c, profile)
}

/// The positions rounds of `profile`'s rules reach from `g`, one a round, until nothing changes
/// (at most 81 rounds: each removes a candidate at least).
pub(super) fn moves_in_rounds(g: &Grid, profile: &Profile) -> Vec<Grid> {
    let mut out = Vec::new();
    let mut g = *g;
    for _ in 0..81 {
        let found = moves_in(&g, profile);
        if found.is_empty() || g.has_empty_cell() {
            break;
        }
        for m in &found {
            for &(c, v) in &m.removes {
                g.set(c, g.get(c) - v);
            }
        }
        out.push(g);
    }
    out
}

/// The plain count a derivation is compared with: every move rounds make from `assumed` (the
/// start with the hypothesis applied) before a contradiction shows, or to the fixpoint.
pub fn plain_moves(assumed: &Grid, profile: &Profile) -> usize {
    let mut g = *assumed;
    let mut count = 0;
    for _ in 0..729 {
        if !contradictions_in(&g, profile).is_empty() {
            break;
        }
        let found = moves_in(&g, profile);
        if found.is_empty() {
            break;
        }
        count += found.len();
        for m in &found {
            for &(c, v) in &m.removes {
                g.set(c, g.get(c) - v);
            }
        }
    }
    count
}
