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

/// The naked-single step for every single of a fresh state at once: each open cell loses the
/// values of the singles in its units. Counts as one application per single that removed
/// something, as the one-by-one [`naked`] would. Leaves only the singles it creates to [`naked`];
/// two equal singles in a unit are left for the unit checks.
pub(super) fn naked_bulk(s: &mut State) -> Result<(), Contradiction> {
    // Per unit (rows, columns, blocks): the values of its singles, and of its open cells.
    let (mut row_used, mut col_used, mut box_used) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let (mut row_open, mut col_open, mut box_open) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for r in 0..9 {
        for c in 0..9 {
            let m = s.cells[r * 9 + c];
            let single = 0u16.wrapping_sub(u16::from(m & m.wrapping_sub(1) == 0));
            let b = r / 3 * 3 + c / 3;
            row_used[r] |= m & single;
            col_used[c] |= m & single;
            box_used[b] |= m & single;
            row_open[r] |= m & !single;
            col_open[c] |= m & !single;
            box_open[b] |= m & !single;
        }
    }
    // A fresh state's singles are givens: removing their values from their peers applies the
    // puzzle and finds nothing, so it is not counted as a naked single.
    // Without branches: singles keep their value (their own units are left to the unit checks).
    let (mut created, mut emptied) = (0u128, 0u128);
    for r in 0..9 {
        let (mut row_created, mut row_emptied) = (0u16, 0u16);
        for c in 0..9 {
            let m = s.cells[r * 9 + c];
            let multi = m & m.wrapping_sub(1) != 0;
            let gone = (row_used[r] | col_used[c] | box_used[r / 3 * 3 + c / 3])
                & 0u16.wrapping_sub(u16::from(multi));
            let n = m & !gone;
            s.cells[r * 9 + c] = n;
            row_created |= u16::from(multi & (n & n.wrapping_sub(1) == 0)) << c;
            row_emptied |= u16::from(n == 0) << c;
        }
        created |= u128::from(row_created) << (r * 9);
        emptied |= u128::from(row_emptied) << (r * 9);
    }
    // Every unit is still to be checked (a fresh state), so nothing more needs marking.
    s.new_singles = created & !emptied;
    if emptied != 0 {
        let i = emptied.trailing_zeros() as usize;
        let cell = Cell::new(i).unwrap_or(Cell::from_row_col(0, 0));
        return Err(Contradiction::NoValue { cell });
    }
    Ok(())
}

/// `SINGLE[m]` is `m` when the mask `m` holds one value, else 0.
static SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut k = 0;
    while k < 9 {
        t[1 << k] = 1 << k;
        k += 1;
    }
    t
};

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
        let mut dup = 0u16;
        for c in cells {
            let m = s.cells[c.index()];
            twice |= once & m;
            once |= m;
            let single = SINGLE[usize::from(m) & 0x1ff];
            dup |= solved & single;
            solved |= single;
        }
        if dup != 0 {
            return Err(Contradiction::Duplicate {
                digit: Digit::from_index(dup.trailing_zeros() as usize),
                unit,
            });
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
