//! Naked and hidden singles, and the unit checks that find contradictions (spec §3).

use super::{Contradiction, State, Stats, Step};
use crate::grid::{Cell, Digit, Unit};
use crate::propagate::Rule;

#[inline]
fn singles_mask(cells: &[u16; 81]) -> u128 {
    let mut m = 0u128;
    for (i, &c) in cells.iter().enumerate() {
        if c != 0 && c & (c - 1) == 0 {
            m |= 1u128 << i;
        }
    }
    m
}

/// Removes the value of every new single from its peers, until no new single appears.
pub(super) fn naked(s: &mut State, stats: &mut Stats) -> Result<(), Contradiction> {
    loop {
        let mut todo = singles_mask(&s.cells) & !s.done;
        if todo == 0 {
            return Ok(());
        }
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            s.done |= 1u128 << i;
            let v = s.cells[i];
            let mut removed = false;
            let Some(cell) = Cell::new(i) else { continue };
            for &p in cell.peers() {
                let m = s.cells[p.index()];
                if m & v != 0 {
                    let n = m & !v;
                    s.cells[p.index()] = n;
                    removed = true;
                    if n == 0 {
                        return Err(Contradiction::NoValue { cell: p });
                    }
                }
            }
            if removed {
                stats.bump(Rule::NakedSingle);
            }
        }
    }
}

/// Checks every unit (each value has a place, no single value twice) and, when `hidden` is on,
/// places hidden singles. Returns whether a cell changed.
pub(super) fn check_units_and_hidden(s: &mut State, hidden: bool, stats: &mut Stats) -> Step {
    let mut changed = false;
    for unit in Unit::all() {
        let cells = unit.cells();
        let (mut once, mut twice, mut solved) = (0u16, 0u16, 0u16);
        for c in cells {
            let m = s.cells[c.index()];
            twice |= once & m;
            once |= m;
            if m != 0 && m & (m - 1) == 0 {
                if solved & m != 0 {
                    return Err(Contradiction::Duplicate {
                        digit: Digit::from_index(m.trailing_zeros() as usize),
                        unit,
                    });
                }
                solved |= m;
            }
        }
        if once != 0x1ff {
            let missing = !once & 0x1ff;
            return Err(Contradiction::NoPlace {
                digit: Digit::from_index(missing.trailing_zeros() as usize),
                unit,
            });
        }
        if !hidden {
            continue;
        }
        let mut hid = once & !twice & !solved;
        while hid != 0 {
            let bit = hid & hid.wrapping_neg();
            hid &= hid - 1;
            for c in cells {
                let m = s.cells[c.index()];
                if m & bit != 0 {
                    let n = m & bit;
                    if n != m {
                        s.cells[c.index()] = n;
                        changed = true;
                        stats.bump(Rule::HiddenSingle);
                    }
                    break;
                }
            }
        }
    }
    Ok(changed)
}
