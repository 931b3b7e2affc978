//! Naked and hidden pairs, triples and quads inside a unit (spec §3).

use super::{Contradiction, State, Stats, Step};
use crate::grid::Unit;
use crate::propagate::{Profile, Rule};

const NAKED: [Rule; 3] = [Rule::NakedPair, Rule::NakedTriple, Rule::NakedQuad];
const HIDDEN: [Rule; 3] = [Rule::HiddenPair, Rule::HiddenTriple, Rule::HiddenQuad];

/// Finds the first set of `n` items (indices into `masks`, restricted to `avail`) whose masks
/// together cover exactly `n` bits and for which `act` reports a change. Returns whether `act`
/// changed something.
fn search(
    masks: &[u16; 9],
    avail: u16,
    n: u32,
    start: usize,
    chosen: u16,
    union: u16,
    act: &mut dyn FnMut(u16, u16) -> Result<bool, Contradiction>,
) -> Result<bool, Contradiction> {
    if chosen == 0 {
        // Only items with at most n bits can be part of a set of n covering n bits.
        let mut eligible = 0u16;
        for (i, m) in masks.iter().enumerate() {
            if avail & (1 << i) != 0 && *m != 0 && m.count_ones() <= n {
                eligible |= 1 << i;
            }
        }
        if eligible.count_ones() < n {
            return Ok(false);
        }
        return search_from(masks, eligible, n, 0, 0, 0, act);
    }
    search_from(masks, avail, n, start, chosen, union, act)
}

fn search_from(
    masks: &[u16; 9],
    avail: u16,
    n: u32,
    start: usize,
    chosen: u16,
    union: u16,
    act: &mut dyn FnMut(u16, u16) -> Result<bool, Contradiction>,
) -> Result<bool, Contradiction> {
    if chosen.count_ones() == n {
        return if union.count_ones() == n {
            act(chosen, union)
        } else {
            Ok(false)
        };
    }
    for i in start..9 {
        if avail & (1 << i) == 0 {
            continue;
        }
        let u = union | masks[i];
        if u.count_ones() > n {
            continue;
        }
        if search_from(masks, avail, n, i + 1, chosen | (1 << i), u, act)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Applies the switched-on subset rules to every unit that changed since it was last examined
/// (at most one subset per unit per call; a changed unit is examined again next time).
pub(super) fn apply(s: &mut State, p: &Profile, stats: &mut Stats) -> Step {
    let mut changed = false;
    let mut todo = s.dirty_subsets;
    s.dirty_subsets = 0;
    while todo != 0 {
        let u = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let Some(unit) = Unit::new(u) else { continue };
        if apply_unit(s, unit, p, stats)? {
            changed = true;
        }
    }
    Ok(changed)
}

fn apply_unit(s: &mut State, unit: Unit, p: &Profile, stats: &mut Stats) -> Step {
    {
        let cells = unit.cells();
        // Positions (0..9 in the unit) of unsolved cells, and their masks.
        let mut masks = [0u16; 9];
        let mut open = 0u16;
        let mut solved_values = 0u16;
        for (k, c) in cells.iter().enumerate() {
            let m = s.cells[c.index()];
            masks[k] = m;
            if m.count_ones() > 1 {
                open |= 1 << k;
            } else {
                solved_values |= m;
            }
        }
        let n_open = open.count_ones();
        if n_open < 3 {
            return Ok(false);
        }
        // With every subset rule on, a naked subset of n cells is the hidden subset of the other
        // n_open - n cells (the same elimination), so each side only needs sizes up to half.
        let all_on = NAKED.iter().chain(HIDDEN.iter()).all(|&r| p.has(r));
        let naked_max = if all_on { n_open / 2 } else { 4 };
        let hidden_max = if all_on { (n_open - 1) / 2 } else { 4 };
        // Naked subsets: n cells with n values between them; the values leave the other cells.
        for (size, &rule) in (2u32..=4).zip(NAKED.iter()) {
            if !p.has(rule) || size >= n_open || size > naked_max {
                continue;
            }
            let mut act = |chosen: u16, values: u16| -> Result<bool, Contradiction> {
                let mut removed = false;
                for (k, c) in cells.iter().enumerate() {
                    if open & !chosen & (1 << k) != 0 {
                        let m = s.cells[c.index()];
                        if m & values != 0 {
                            s.set(c.index(), m & !values)?;
                            removed = true;
                        }
                    }
                }
                Ok(removed)
            };
            if search(&masks, open, size, 0, 0, 0, &mut act)? {
                stats.bump(rule);
                return Ok(true);
            }
        }
        // Hidden subsets: n values confined to n cells; those cells lose their other values.
        let mut places = [0u16; 9];
        for (k, &m) in masks.iter().enumerate() {
            if open & (1 << k) != 0 {
                let mut vals = m;
                while vals != 0 {
                    let d = vals.trailing_zeros() as usize;
                    vals &= vals - 1;
                    places[d] |= 1 << k;
                }
            }
        }
        let open_values = 0x1ff & !solved_values;
        for (size, &rule) in (2u32..=4).zip(HIDDEN.iter()) {
            if !p.has(rule) || size >= n_open || size > hidden_max {
                continue;
            }
            let mut act = |digits: u16, positions: u16| -> Result<bool, Contradiction> {
                let mut removed = false;
                for (k, c) in cells.iter().enumerate() {
                    if positions & (1 << k) != 0 {
                        let m = s.cells[c.index()];
                        let n = m & digits;
                        if n != m {
                            s.set(c.index(), n)?;
                            removed = true;
                        }
                    }
                }
                Ok(removed)
            };
            if search(&places, open_values, size, 0, 0, 0, &mut act)? {
                stats.bump(rule);
                return Ok(true);
            }
        }
    }
    Ok(false)
}
