//! The moves of a line's derivation drawn over its grid: the hypothesis cell outlined, one group
//! per move (class `move`, `data-move` its number) holding its numbered badge, the value it
//! places (a large digit), the candidates it removes (struck, each with the move's number) and an
//! arrow from the badge of every move it rests on; then the contradiction (class `end`).
//!
//! A page can show the picture up to a move by hiding the later groups (the report's viewer
//! does); a picture on its own shows every move. The pattern a move reads (its cells outlined,
//! class `pattern`) is hidden unless a page's style shows it for the current move.

use super::colours;
use super::grid::{slot, CELL, MARGIN};
use crate::derivation::{ContradictionKind, Derivation, End, Rule};
use crate::grid::{Cell, Unit};
use svg::node::element::{Circle, Group, Line, Polygon, Rectangle, Style, Text};

/// The colour of badges and arrows.
const MOVE: &str = "#6d28d9";
/// The colour of struck candidates and their numbers.
const STRUCK: &str = "#dc2626";
/// The colour of placed values (a move's colour).
const PLACED: &str = MOVE;
/// The colour of the hypothesis' outline.
pub(super) const HYPOTHESIS: &str = "#ea580c";
/// The radius of a badge.
const BADGE: f64 = 6.5;
const FONT: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";

/// The overlay's presentation, shared by its many small elements (scoped to its group, so that
/// pictures inlined in one page agree).
fn style() -> Style {
    Style::new(format!(
        ".moves-overlay .removal text{{fill:{STRUCK};font-size:12px;text-anchor:middle}}\
         .moves-overlay .removal .by{{fill:#991b1b;font-size:7px;text-anchor:start}}\
         .moves-overlay .strike{{stroke:{STRUCK};stroke-width:1.4}}\
         .moves-overlay .badge circle{{fill:{MOVE};stroke:#fff;stroke-width:1}}\
         .moves-overlay .badge text{{fill:#fff;font-size:8px;font-weight:bold;text-anchor:middle}}\
         .moves-overlay .uses{{stroke:{MOVE};fill:{MOVE};opacity:.55}}\
         .moves-overlay .uses line{{stroke-width:1.2}}\
         .moves-overlay .uses polygon{{stroke:none}}\
         .moves-overlay .pattern{{fill:none;stroke:{MOVE};stroke-width:2;stroke-dasharray:4 3;\
         visibility:hidden}}\
         .moves-overlay .placed rect{{fill:#fff}}\
         .moves-overlay .placed text{{fill:{PLACED};font-size:24px;text-anchor:middle}}"
    ))
}

/// A coordinate rounded to a tenth of a pixel: short, deterministic numbers in the file.
fn r(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The top-left corner of `cell`.
fn corner(cell: Cell) -> (f64, f64) {
    (
        MARGIN + cell.col() as f64 * CELL,
        MARGIN + cell.row() as f64 * CELL,
    )
}

/// The centre of `cell`.
fn centre(cell: Cell) -> (f64, f64) {
    let (x, y) = corner(cell);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// Whether a move places a value (its first cell keeps only its value).
fn places(rule: Rule) -> bool {
    matches!(rule, Rule::NakedSingle | Rule::HiddenSingle)
}

/// The cell a move's badge sits on: the cell a single places, else the first cell of its
/// pattern (A1 for a move without cells, which the library never makes).
fn anchor(cells: &[Cell]) -> Cell {
    cells.first().copied().unwrap_or(Cell::from_row_col(0, 0))
}

/// The layers drawn over the grid's digits, and the contradiction's squares drawn under them.
pub(super) struct Overlay {
    /// Under the digits: the contradiction's cells (class `end`).
    pub under: Group,
    /// Over the digits: the hypothesis, the moves, the contradiction's unit and arrows.
    pub over: Group,
}

/// The overlay of `d`.
pub(super) fn overlay(d: &Derivation) -> Overlay {
    let mut over = Group::new()
        .set("class", "moves-overlay")
        .set("font-family", FONT)
        .add(style());
    let assumed: Vec<Cell> = d
        .hypothesis
        .iter()
        .chain(&d.facts)
        .map(|s| s.cell)
        .collect();
    for (i, &c) in assumed.iter().enumerate() {
        let (x, y) = corner(c);
        over = over.add(
            Rectangle::new()
                .set("class", if i == 0 { "hypothesis" } else { "fact" })
                .set("data-cell", c.to_string())
                .set("x", r(x + 1.5))
                .set("y", r(y + 1.5))
                .set("width", CELL - 3.0)
                .set("height", CELL - 3.0)
                .set("fill", "none")
                .set("stroke", HYPOTHESIS)
                .set("stroke-width", if i == 0 { 3 } else { 2 }),
        );
    }
    // Badges of one cell go side by side along its top edge, then along its bottom edge.
    let mut on_cell = [0usize; 81];
    let mut badges: Vec<(f64, f64)> = Vec::with_capacity(d.moves.len());
    for m in &d.moves {
        let at = anchor(&m.cells);
        let k = on_cell[at.index()];
        on_cell[at.index()] += 1;
        let (x, y) = corner(at);
        let (col, edge) = (k % 4, k / 4 % 2);
        badges.push((r(x + 8.0 + col as f64 * 11.0), r(y + edge as f64 * CELL)));
    }
    for (i, m) in d.moves.iter().enumerate() {
        let n = i + 1;
        let mut g = Group::new().set("class", "move").set("data-move", n);
        for &u in &m.uses {
            if let Some(&from) = badges.get(u.wrapping_sub(1)) {
                g = g.add(arrow(from, badges[i], u));
            }
        }
        g = g.add(pattern(&m.cells, m.unit));
        for &(c, values) in &m.removes {
            for v in values.iter() {
                let (x, y) = slot(c, v);
                g = g.add(
                    Group::new()
                        .set("class", "removal")
                        .add(Text::new(v.to_string()).set("x", r(x)).set("y", r(y + 4.5)))
                        .add(
                            Line::new()
                                .set("class", "strike")
                                .set("x1", r(x - 5.0))
                                .set("x2", r(x + 5.0))
                                .set("y1", r(y + 5.0))
                                .set("y2", r(y - 5.0)),
                        )
                        .add(
                            Text::new(n.to_string())
                                .set("class", "by")
                                .set("x", r(x + 4.0))
                                .set("y", r(y + 7.5)),
                        ),
                );
            }
        }
        if places(m.rule) {
            if let (Some(c), Some(v)) = (m.cells.first(), m.values.single_value()) {
                let (x, y) = corner(*c);
                g = g.add(
                    Group::new()
                        .set("class", "placed")
                        .set("data-cell", c.to_string())
                        .set("data-value", v.to_string())
                        .add(
                            Rectangle::new()
                                .set("x", r(x + 1.0))
                                .set("y", r(y + 1.0))
                                .set("width", CELL - 2.0)
                                .set("height", CELL - 2.0),
                        )
                        .add(
                            Text::new(v.to_string())
                                .set("x", r(x + CELL / 2.0 + 2.0))
                                .set("y", r(y + CELL * 0.72)),
                        ),
                );
            }
        }
        g = g.add(badge(badges[i], n));
        over = over.add(g);
    }
    let mut under = Group::new().set("class", "end");
    let mut end = Group::new().set("class", "end");
    if let End::Contradiction(c) = &d.end {
        let (fill, stroke) = colours("ctr");
        let cells: Vec<Cell> = match (c.kind, c.unit) {
            (ContradictionKind::NoPlace, Some(u)) => u.cells().to_vec(),
            _ => c.cells.clone(),
        };
        for &cell in &cells {
            let (x, y) = corner(cell);
            under = under.add(
                Rectangle::new()
                    .set("class", "contradiction")
                    .set("data-cell", cell.to_string())
                    .set("x", x)
                    .set("y", y)
                    .set("width", CELL)
                    .set("height", CELL)
                    .set("fill", fill)
                    .set("stroke", stroke)
                    .set("stroke-width", 1.5),
            );
        }
        let target = cells
            .first()
            .map(|&c| centre(c))
            .or_else(|| c.unit.map(|u| centre(u.cells()[4])));
        if let Some(unit) = c.unit {
            end = end.add(unit_outline(unit, stroke));
        }
        if let Some(to) = target {
            for &u in &c.uses {
                if let Some(&from) = badges.get(u.wrapping_sub(1)) {
                    end = end.add(arrow(from, (r(to.0), r(to.1)), u));
                }
            }
        }
    }
    Overlay {
        under,
        over: over.add(end),
    }
}

/// The outline of the cells `unit` spans, in `stroke`.
pub(super) fn unit_outline(unit: Unit, stroke: &str) -> Rectangle {
    let (mut c0, mut r0, mut c1, mut r1) = (8, 8, 0, 0);
    for c in unit.cells() {
        (c0, r0) = (c0.min(c.col()), r0.min(c.row()));
        (c1, r1) = (c1.max(c.col()), r1.max(c.row()));
    }
    Rectangle::new()
        .set("class", "contradiction-unit")
        .set("data-unit", unit.to_string())
        .set("x", MARGIN + c0 as f64 * CELL)
        .set("y", MARGIN + r0 as f64 * CELL)
        .set("width", (c1 - c0 + 1) as f64 * CELL)
        .set("height", (r1 - r0 + 1) as f64 * CELL)
        .set("fill", "none")
        .set("stroke", stroke)
        .set("stroke-width", 4)
}

/// The cells a move reads, outlined (hidden unless a page shows it).
fn pattern(cells: &[Cell], unit: Option<Unit>) -> Group {
    let mut g = Group::new().set("class", "pattern");
    if let Some(u) = unit {
        g = g.set("data-unit", u.to_string());
    }
    for &c in cells {
        let (x, y) = corner(c);
        g = g.add(
            Rectangle::new()
                .set("x", r(x + 3.0))
                .set("y", r(y + 3.0))
                .set("width", CELL - 6.0)
                .set("height", CELL - 6.0),
        );
    }
    g
}

/// A move's numbered badge centred at `at`.
fn badge(at: (f64, f64), n: usize) -> Group {
    let text = Text::new(n.to_string())
        .set("x", at.0)
        .set("y", r(at.1 + 2.8));
    Group::new()
        .set("class", "badge")
        .add(
            Circle::new()
                .set("cx", at.0)
                .set("cy", at.1)
                .set("r", BADGE),
        )
        .add(if n < 100 {
            text
        } else {
            text.set("font-size", 6)
        })
}

/// An arrow from the badge at `from` (move `u`) to `to`, its ends clear of the badges.
fn arrow(from: (f64, f64), to: (f64, f64), u: usize) -> Group {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    let g = Group::new().set("class", "uses").set("data-from", u);
    if len < 3.0 * BADGE {
        return g;
    }
    let (ux, uy) = (dx / len, dy / len);
    let start = (from.0 + ux * BADGE, from.1 + uy * BADGE);
    let tip = (to.0 - ux * BADGE, to.1 - uy * BADGE);
    let base = (tip.0 - ux * 6.0, tip.1 - uy * 6.0);
    let (px, py) = (-uy * 2.8, ux * 2.8);
    let head = format!(
        "{},{} {},{} {},{}",
        r(tip.0),
        r(tip.1),
        r(base.0 + px),
        r(base.1 + py),
        r(base.0 - px),
        r(base.1 - py)
    );
    g.add(
        Line::new()
            .set("x1", r(start.0))
            .set("y1", r(start.1))
            .set("x2", r(base.0))
            .set("y2", r(base.1)),
    )
    .add(Polygon::new().set("points", head))
}

/// The legend of a derivation's picture, its top at `y`: two rows of (symbol, meaning).
pub(super) fn legend(y: f64) -> Group {
    let (ctr_fill, ctr_stroke) = colours("ctr");
    let mut g = Group::new()
        .set("class", "legend moves-overlay")
        .set("font-family", FONT)
        .set("font-size", 11)
        .set("fill", "#111827");
    let row = |y: f64| y + 10.0;
    // Row 1: the hypothesis, a move's badge, a placed value.
    let x = MARGIN;
    g = g
        .add(
            Rectangle::new()
                .set("x", x)
                .set("y", y)
                .set("width", 12)
                .set("height", 12)
                .set("fill", "none")
                .set("stroke", HYPOTHESIS)
                .set("stroke-width", 2.5),
        )
        .add(Text::new("assumed").set("x", x + 16.0).set("y", row(y)));
    let x = x + 80.0;
    g = g
        .add(badge((x + 6.0, y + 6.0), 4).set("class", "badge key"))
        .add(
            Text::new("move 4, on its pattern's cell")
                .set("x", x + 16.0)
                .set("y", row(y)),
        );
    let x = x + 200.0;
    g = g
        .add(
            Text::new("7")
                .set("x", x + 5.0)
                .set("y", y + 12.0)
                .set("font-size", 16)
                .set("text-anchor", "middle")
                .set("fill", PLACED),
        )
        .add(Text::new("placed").set("x", x + 16.0).set("y", row(y)));
    // Row 2: a removed candidate, a premise's arrow, the contradiction.
    let y = y + 18.0;
    let x = MARGIN + 6.0;
    g = g
        .add(
            Text::new("5")
                .set("x", x)
                .set("y", y + 10.0)
                .set("font-size", 12)
                .set("text-anchor", "middle")
                .set("fill", STRUCK),
        )
        .add(
            Line::new()
                .set("x1", x - 5.0)
                .set("x2", x + 5.0)
                .set("y1", y + 11.0)
                .set("y2", y + 1.0)
                .set("stroke", STRUCK)
                .set("stroke-width", 1.4),
        )
        .add(
            Text::new("4")
                .set("x", x + 4.0)
                .set("y", y + 13.0)
                .set("font-size", 7)
                .set("fill", "#991b1b"),
        )
        .add(
            Text::new("removed by move 4")
                .set("x", x + 14.0)
                .set("y", row(y)),
        );
    let x = MARGIN + 140.0;
    g = g
        .add(arrow((x - 6.0, y + 6.0), (x + 34.0, y + 6.0), 0).set("class", "uses key"))
        .add(Text::new("rests on").set("x", x + 34.0).set("y", row(y)));
    let x = x + 100.0;
    g.add(
        Rectangle::new()
            .set("x", x)
            .set("y", y)
            .set("width", 12)
            .set("height", 12)
            .set("fill", ctr_fill)
            .set("stroke", ctr_stroke),
    )
    .add(
        Text::new("contradiction")
            .set("x", x + 16.0)
            .set("y", row(y)),
    )
}
