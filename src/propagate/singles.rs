//! Naked and hidden singles, and the unit checks that find contradictions (spec §3).

use super::{Contradiction, State, Stats, Step};
use crate::grid::{Cell, Digit, Unit};
use crate::propagate::Rule;

/// Removes the value of every new single from its peers, until no new single appears.
pub(super) fn naked(s: &mut State, stats: &mut Stats) -> Result<(), Contradiction> {
    while s.new_singles != 0 {
        let i = s.new_singles.trailing_zeros() as usize;
        s.new_singles &= s.new_singles - 1;
        let v = s.cells[i];
        let Some(cell) = Cell::new(i) else { continue };
        let mut removed = false;
        for &p in cell.peers() {
            let m = s.cells[p.index()];
            if m & v != 0 {
                s.set(p.index(), m & !v)?;
                removed = true;
            }
        }
        if removed {
            stats.bump(Rule::NakedSingle);
        }
    }
    Ok(())
}

/// Checks every changed unit (each value has a place, no single value twice) and, when `hidden`
/// is on, places hidden singles. Returns whether a cell changed.
pub(super) fn check_units_and_hidden(s: &mut State, hidden: bool, stats: &mut Stats) -> Step {
    let mut changed = false;
    let mut todo = s.dirty_check;
    s.dirty_check = 0;
    while todo != 0 {
        let u = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let Some(unit) = Unit::new(u) else { continue };
        let cells = unit.cells();
        let (mut once, mut twice, mut solved) = (0u16, 0u16, 0u16);
        for c in cells {
            let m = s.cells[c.index()];
            twice |= once & m;
            once |= m;
            if m & m.wrapping_sub(1) == 0 {
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
                    if m != bit {
                        s.set(c.index(), m & bit)?;
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
