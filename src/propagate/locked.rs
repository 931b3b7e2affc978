//! Locked candidates (spec §3): a value confined to one line inside a block leaves the rest of
//! the line (pointing); a value confined to one block inside a line leaves the rest of the block
//! (claiming).

use super::{Cells, Contradiction, State, Stats, Step};
use crate::propagate::{Profile, Rule};

/// One block–line intersection: the 6 other cells of the block and the 6 other cells of the line
/// (as row-major indices), and where its segment unions are (see [`Segments`]): its own, the two
/// other segments of the block, the two other segments of the line.
struct Intersection {
    block: u8,
    line_unit: u8,
    block_rest: [u8; 6],
    line_rest: [u8; 6],
    seg: u8,
    seg_block: [u8; 2],
    seg_line: [u8; 2],
}

/// The index in [`Segments`] of the segment of line `line` (0..9, rows or columns) in the block
/// at position `along` (0..3) along it.
const fn seg_index(is_row: bool, line: usize, along: usize) -> u8 {
    ((if is_row { 0 } else { 27 }) + line * 3 + along) as u8
}

const fn intersection(block: usize, line: usize, is_row: bool) -> Intersection {
    let (br, bc) = ((block / 3) * 3, (block % 3) * 3);
    let mut block_rest = [0u8; 6];
    let mut line_rest = [0u8; 6];
    let (mut b, mut l) = (0, 0);
    // The block's cells.
    let mut k = 0;
    while k < 9 {
        let (r, c) = (br + k / 3, bc + k % 3);
        let on_line = if is_row { r == line } else { c == line };
        let idx = (r * 9 + c) as u8;
        if !on_line {
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
    // Position of the block along the line, and the first line through the block.
    let along = if is_row { block % 3 } else { block / 3 };
    let base = line - line % 3;
    let inside = line % 3;
    Intersection {
        block: block as u8,
        line_unit: if is_row {
            9 + line as u8
        } else {
            18 + line as u8
        },
        block_rest,
        line_rest,
        seg: seg_index(is_row, line, along),
        seg_block: [
            seg_index(is_row, base + (inside + 1) % 3, along),
            seg_index(is_row, base + (inside + 2) % 3, along),
        ],
        seg_line: [
            seg_index(is_row, line, (along + 1) % 3),
            seg_index(is_row, line, (along + 2) % 3),
        ],
    }
}

/// For each unit (as in `Unit::index`: blocks, rows, columns), the intersections it is part of,
/// as bits of their places in [`INTERSECTIONS`].
const OF_UNIT: [u64; 27] = {
    let mut out = [0u64; 27];
    let mut n = 0;
    while n < 54 {
        let x = &INTERSECTIONS[n];
        out[x.block as usize] |= 1 << n;
        out[x.line_unit as usize] |= 1 << n;
        n += 1;
    }
    out
};

const INTERSECTIONS: [Intersection; 54] = {
    let mut out = [const {
        Intersection {
            block: 0,
            line_unit: 0,
            block_rest: [0; 6],
            line_rest: [0; 6],
            seg: 0,
            seg_block: [0; 2],
            seg_line: [0; 2],
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
fn union(cells: &Cells<'_>, idx: &[u8]) -> u16 {
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

/// The union of the candidates of each block–line intersection ("segment"): row segments first
/// (by row, then block position along the row), then column segments.
type Segments = [u16; 54];

fn segments(cells: &Cells<'_>) -> Segments {
    let mut seg = [0u16; 54];
    for r in 0..9 {
        for c in 0..9 {
            let m = cells[r * 9 + c];
            seg[r * 3 + c / 3] |= m;
            seg[27 + c * 3 + r / 3] |= m;
        }
    }
    seg
}

/// Applies pointing and claiming over all 54 intersections. Returns whether a cell changed.
pub(super) fn apply(s: &mut State, p: &Profile, stats: &mut Stats) -> Step {
    let pointing = p.has(Rule::LockedPointing);
    let claiming = p.has(Rule::LockedClaiming);
    let mut changed = false;
    let dirty = s.dirty_locked;
    s.dirty_locked = 0;
    // The unions of the shared cells, the rest of the block and the rest of the line all come
    // from the 54 segment unions, recomputed only after a removal.
    let mut seg = segments(&s.cells);
    // Only where a unit changed since the last look can something new be found; the
    // intersections are visited in order.
    let mut todo = 0u64;
    let mut units = dirty;
    while units != 0 {
        todo |= OF_UNIT[units.trailing_zeros() as usize % 27];
        units &= units - 1;
    }
    while todo != 0 {
        let x = &INTERSECTIONS[todo.trailing_zeros() as usize % 54];
        todo &= todo - 1;
        let shared = seg[x.seg as usize];
        let in_block = seg[x.seg_block[0] as usize] | seg[x.seg_block[1] as usize];
        let in_line = seg[x.seg_line[0] as usize] | seg[x.seg_line[1] as usize];
        // Only values the shared cells hold that are missing on one side can be locked.
        if shared & !(in_block & in_line) == 0 {
            continue;
        }
        let mut removed = false;
        if pointing {
            let confined = shared & !in_block & in_line;
            if confined != 0 && remove(s, &x.line_rest, confined)? {
                stats.bump(Rule::LockedPointing);
                removed = true;
            }
        }
        if claiming {
            let in_line = if removed {
                union(&s.cells, &x.line_rest)
            } else {
                in_line
            };
            let confined = shared & !in_line & in_block;
            if confined != 0 && remove(s, &x.block_rest, confined)? {
                stats.bump(Rule::LockedClaiming);
                removed = true;
            }
        }
        if removed {
            changed = true;
            if s.eager {
                // Every unit that was to be looked at is looked at again next time.
                s.dirty_locked |= dirty;
                return Ok(true);
            }
            seg = segments(&s.cells);
        }
    }
    Ok(changed)
}
