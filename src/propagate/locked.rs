//! Locked candidates (spec §3): a value confined to one line inside a block leaves the rest of
//! the line (pointing); a value confined to one block inside a line leaves the rest of the block
//! (claiming).

use super::{Contradiction, State, Stats, Step};
use crate::propagate::{Profile, Rule};

/// One block–line intersection: 3 shared cells, the 6 other cells of the block, the 6 other cells
/// of the line (as row-major indices).
struct Intersection {
    block: u8,
    line_unit: u8,
    shared: [u8; 3],
    block_rest: [u8; 6],
    line_rest: [u8; 6],
}

const fn intersection(block: usize, line: usize, is_row: bool) -> Intersection {
    let (br, bc) = ((block / 3) * 3, (block % 3) * 3);
    let mut shared = [0u8; 3];
    let mut block_rest = [0u8; 6];
    let mut line_rest = [0u8; 6];
    let (mut s, mut b, mut l) = (0, 0, 0);
    // The block's cells.
    let mut k = 0;
    while k < 9 {
        let (r, c) = (br + k / 3, bc + k % 3);
        let on_line = if is_row { r == line } else { c == line };
        let idx = (r * 9 + c) as u8;
        if on_line {
            shared[s] = idx;
            s += 1;
        } else {
            block_rest[b] = idx;
            b += 1;
        }
        k += 1;
    }
    // The line's cells outside the block.
    let mut k = 0;
    while k < 9 {
        let (r, c) = if is_row { (line, k) } else { (k, line) };
        let in_block = r >= br && r < br + 3 && c >= bc && c < bc + 3;
        if !in_block {
            line_rest[l] = (r * 9 + c) as u8;
            l += 1;
        }
        k += 1;
    }
    Intersection {
        block: block as u8,
        line_unit: if is_row {
            9 + line as u8
        } else {
            18 + line as u8
        },
        shared,
        block_rest,
        line_rest,
    }
}

const INTERSECTIONS: [Intersection; 54] = {
    let mut out = [const {
        Intersection {
            block: 0,
            line_unit: 0,
            shared: [0; 3],
            block_rest: [0; 6],
            line_rest: [0; 6],
        }
    }; 54];
    let mut block = 0;
    let mut n = 0;
    while block < 9 {
        let mut i = 0;
        while i < 3 {
            out[n] = intersection(block, (block / 3) * 3 + i, true);
            out[n + 1] = intersection(block, (block % 3) * 3 + i, false);
            n += 2;
            i += 1;
        }
        block += 1;
    }
    out
};

#[inline]
fn union(cells: &[u16; 81], idx: &[u8]) -> u16 {
    idx.iter().fold(0, |acc, &i| acc | cells[i as usize])
}

#[inline]
fn remove(s: &mut State, idx: &[u8], values: u16) -> Result<bool, Contradiction> {
    let mut removed = false;
    for &i in idx {
        let m = s.cells[i as usize];
        if m & values != 0 {
            s.set(i as usize, m & !values)?;
            removed = true;
        }
    }
    Ok(removed)
}

/// Applies pointing and claiming over all 54 intersections. Returns whether a cell changed.
pub(super) fn apply(s: &mut State, p: &Profile, stats: &mut Stats) -> Step {
    let pointing = p.has(Rule::LockedPointing);
    let claiming = p.has(Rule::LockedClaiming);
    let mut changed = false;
    let dirty = s.dirty_locked;
    s.dirty_locked = 0;
    for x in INTERSECTIONS.iter() {
        // Neither unit changed since the last look: nothing new to find here.
        if (dirty >> x.block | dirty >> x.line_unit) & 1 == 0 {
            continue;
        }
        let shared = union(&s.cells, &x.shared);
        let in_block = union(&s.cells, &x.block_rest);
        let in_line = union(&s.cells, &x.line_rest);
        if pointing {
            let confined = shared & !in_block & in_line;
            if confined != 0 && remove(s, &x.line_rest, confined)? {
                stats.bump(Rule::LockedPointing);
                changed = true;
            }
        }
        if claiming {
            let in_line = union(&s.cells, &x.line_rest);
            let confined = shared & !in_line & in_block;
            if confined != 0 && remove(s, &x.block_rest, confined)? {
                stats.bump(Rule::LockedClaiming);
                changed = true;
            }
        }
    }
    Ok(changed)
}
