//! The 9×9 grid as SVG: a title, givens, derived values, pencil marks (12 px), highlighted cells,
//! the candidates a step removed (struck through in red), and the reason of a contradiction (the
//! empty cell, or the unit and the cells that clash, in the contradiction colours). Every grid
//! has its coordinates in the margin: columns A–I across the top, rows 1–9 down the left.
//! [`derivation_svg`] draws a line's derivation over the position its hypothesis makes (the
//! overlay is `moves.rs`).

use super::moves::{self, overlay};
use super::{colours, svg_document};
use crate::derivation::Derivation;
use crate::explain::{Conflict, Reason};
use crate::grid::{Cell, CellSet, Digit, Grid, Unit};
use svg::node::element::{Group, Line, Rectangle, Text, Title};

/// How a grid is drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridStyle {
    /// The puzzle's givens: single values found here are drawn as givens (black, bold).
    pub givens: Option<Grid>,
    /// Cells to shade (the cells of the current statements).
    pub highlight: Vec<Cell>,
    /// The previous position: candidates it had and this one lacks are struck through.
    pub removed: Option<Grid>,
    /// A caption under the grid.
    pub caption: Option<String>,
    /// A title above the grid (the puzzle's label or a short name), also the SVG's `<title>`.
    pub title: Option<String>,
    /// Why the position is contradictory: its cells (class `contradiction`) and unit (class
    /// `contradiction-unit`) are marked, the reason is written under the grid and a legend added.
    pub contradiction: Option<Reason>,
}

/// The cells a picture of `grid` marks for `reason`, and the unit it outlines: the empty cell;
/// every cell of the unit where values have no place; the cells of the unit holding one of the
/// values twice as their only value; the cells holding too few values.
pub fn contradiction_marks(reason: &Reason, grid: &Grid) -> (CellSet, Option<Unit>) {
    match reason.conflict {
        Conflict::NoValue { cell } => ([cell].into_iter().collect(), None),
        Conflict::NoPlace { unit, .. } => (unit.cell_set(), Some(unit)),
        Conflict::Twice { values, unit } => {
            let cells = unit
                .cells()
                .iter()
                .copied()
                .filter(|&c| {
                    let v = grid.get(c);
                    v.len() == 1 && !(v & values).is_empty()
                })
                .collect();
            (cells, Some(unit))
        }
        Conflict::TooFewValues { cells, unit, .. } => (cells, Some(unit)),
    }
}

/// The side of a cell.
pub(super) const CELL: f64 = 48.0;
/// The margin around the grid (where the coordinates are).
pub(super) const MARGIN: f64 = 16.0;
/// The height of the title band.
const TITLE: f64 = 28.0;
/// The most characters of a title drawn in the band (16 px bold over the grid's width); the
/// SVG's `<title>` keeps all of it.
const TITLE_CHARS: usize = 46;

/// The centre of the pencil mark of `digit` in `cell`.
pub(super) fn slot(cell: Cell, digit: Digit) -> (f64, f64) {
    let i = digit.index();
    (
        MARGIN + cell.col() as f64 * CELL + CELL * (i % 3) as f64 / 3.0 + CELL / 6.0,
        MARGIN + cell.row() as f64 * CELL + CELL * (i / 3) as f64 / 3.0 + CELL / 6.0,
    )
}

/// Draws `grid`.
pub fn grid_svg(grid: &Grid, style: &GridStyle) -> String {
    draw(grid, style, None)
}

/// Draws the derivation `d` of a line over the position its hypothesis (and the facts beside
/// it) makes of its start: the hypothesis cell outlined, each move numbered on its pattern's
/// cell (class `move`, attribute `data-move`), the values it places as large digits, the
/// candidates it removes struck with its number, an arrow from every move it rests on, and the
/// contradiction marked (class `end`); the contradiction is written under the grid, and a
/// legend. `style.removed` and `style.contradiction` are not used (the moves say what changes).
pub fn derivation_svg(d: &Derivation, style: &GridStyle) -> String {
    let style = GridStyle {
        removed: None,
        contradiction: None,
        ..style.clone()
    };
    draw(&d.assumed(), &style, Some(d))
}

/// Draws `grid`, with the moves of `derivation` over it when given.
fn draw(grid: &Grid, style: &GridStyle, derivation: Option<&Derivation>) -> String {
    let size = 9.0 * CELL;
    let caption_lines = style.caption.as_deref().map(wrap).unwrap_or_default();
    let why_lines = match derivation {
        Some(d) => d
            .contradiction()
            .map(|c| wrap(&format!("contradiction: {c}")))
            .unwrap_or_default(),
        None => style
            .contradiction
            .map(|r| wrap(&format!("why: {r}")))
            .unwrap_or_default(),
    };
    let extra = match (derivation, why_lines.is_empty()) {
        (Some(_), _) => 42.0,
        (None, true) => 0.0,
        (None, false) => 24.0,
    };
    let height =
        size + 2.0 * MARGIN + (caption_lines.len() + why_lines.len()) as f64 * 16.0 + extra;
    let mut doc = svg_document(size + 2.0 * MARGIN, height);
    let mut shade = Group::new().set("fill", "#fff3b0");
    for c in &style.highlight {
        shade = shade.add(
            Rectangle::new()
                .set("x", MARGIN + c.col() as f64 * CELL)
                .set("y", MARGIN + c.row() as f64 * CELL)
                .set("width", CELL)
                .set("height", CELL),
        );
    }
    doc = doc.add(shade);
    let layers = derivation.map(overlay);
    if let Some(l) = &layers {
        doc = doc.add(l.under.clone());
    }
    let (ctr_fill, ctr_stroke) = colours("ctr");
    let marked = style.contradiction.map(|r| contradiction_marks(&r, grid));
    if let Some((cells, _)) = &marked {
        let mut g = Group::new().set("fill", ctr_fill);
        for c in cells.iter() {
            g = g.add(
                Rectangle::new()
                    .set("class", "contradiction")
                    .set("data-cell", c.to_string())
                    .set("x", MARGIN + c.col() as f64 * CELL)
                    .set("y", MARGIN + c.row() as f64 * CELL)
                    .set("width", CELL)
                    .set("height", CELL)
                    .set("stroke", ctr_stroke)
                    .set("stroke-width", 1.5),
            );
        }
        doc = doc.add(g);
    }
    let mut lines = Group::new().set("stroke", "#111827");
    for i in 0..=9 {
        let w = if i % 3 == 0 { 2.5 } else { 0.6 };
        let p = MARGIN + i as f64 * CELL;
        lines = lines
            .add(
                Line::new()
                    .set("x1", MARGIN)
                    .set("x2", MARGIN + size)
                    .set("y1", p)
                    .set("y2", p)
                    .set("stroke-width", w),
            )
            .add(
                Line::new()
                    .set("y1", MARGIN)
                    .set("y2", MARGIN + size)
                    .set("x1", p)
                    .set("x2", p)
                    .set("stroke-width", w),
            );
    }
    let font = "DejaVu Sans, Helvetica, Arial, sans-serif";
    let mut givens = Group::new()
        .set("font-family", font)
        .set("text-anchor", "middle")
        .set("font-size", 28)
        .set("font-weight", "bold")
        .set("fill", "#111827");
    let mut derived = Group::new()
        .set("font-family", font)
        .set("text-anchor", "middle")
        .set("font-size", 28)
        .set("fill", "#1d4ed8");
    let mut marks = Group::new()
        .set("font-family", font)
        .set("text-anchor", "middle")
        .set("font-size", 12)
        .set("fill", "#4b5563");
    let mut gone = Group::new()
        .set("font-family", font)
        .set("text-anchor", "middle")
        .set("font-size", 12)
        .set("fill", "#dc2626");
    let mut struck = Group::new()
        .set("stroke", "#dc2626")
        .set("stroke-width", 1.4);
    for cell in Cell::all() {
        let (x0, y0) = (
            MARGIN + cell.col() as f64 * CELL,
            MARGIN + cell.row() as f64 * CELL,
        );
        let now = grid.get(cell);
        let before = style.removed.map(|g| g.get(cell)).unwrap_or(now);
        if let Some(d) = now.single_value() {
            let text = Text::new(d.to_string())
                .set("x", x0 + CELL / 2.0)
                .set("y", y0 + CELL * 0.7);
            if style.givens.is_some_and(|g| g.value(cell) == Some(d)) {
                givens = givens.add(text);
            } else {
                derived = derived.add(text);
            }
            continue;
        }
        if now == crate::grid::Candidates::ALL && derivation.is_none() {
            continue; // an untouched empty cell: no marks (a derivation may strike them)
        }
        for d in Digit::all() {
            let (has, had) = (now.contains(d), before.contains(d));
            if !has && !had {
                continue;
            }
            let i = d.index();
            let x = x0 + CELL * (i % 3) as f64 / 3.0 + CELL / 6.0;
            let y = y0 + CELL * (i / 3) as f64 / 3.0 + CELL / 6.0;
            let text = Text::new(d.to_string()).set("x", x).set("y", y + 4.5);
            if has {
                marks = marks.add(text);
            } else {
                gone = gone.add(text);
                struck = struck.add(
                    Line::new()
                        .set("x1", x - 5.0)
                        .set("x2", x + 5.0)
                        .set("y1", y + 5.0)
                        .set("y2", y - 5.0),
                );
            }
        }
    }
    let digits = Group::new().add(givens).add(derived).add(marks).add(gone);
    doc = doc.add(lines).add(coordinates()).add(digits).add(struck);
    if let Some(l) = layers {
        doc = doc.add(l.over);
    }
    if let Some((_, Some(unit))) = &marked {
        doc = doc.add(super::moves::unit_outline(*unit, ctr_stroke));
    }
    if !caption_lines.is_empty() {
        let mut g = Group::new()
            .set(
                "font-family",
                "DejaVu Sans Mono, Menlo, Consolas, monospace",
            )
            .set("font-size", 11)
            .set("fill", "#111827");
        for (i, line) in caption_lines.iter().enumerate() {
            g = g.add(
                Text::new(line.clone())
                    .set("x", MARGIN)
                    .set("y", MARGIN + size + 14.0 + 16.0 * i as f64),
            );
        }
        doc = doc.add(g);
    }
    let top = MARGIN + size + 14.0 + 16.0 * caption_lines.len() as f64;
    if derivation.is_some() {
        doc = doc.add(moves::legend(top + 16.0 * why_lines.len() as f64 - 4.0));
    }
    if !why_lines.is_empty() {
        let mut g = Group::new()
            .set("class", "contradiction-reason")
            .set(
                "font-family",
                "DejaVu Sans Mono, Menlo, Consolas, monospace",
            )
            .set("font-size", 11)
            .set("fill", ctr_stroke);
        for (i, line) in why_lines.iter().enumerate() {
            g = g.add(
                Text::new(line.clone())
                    .set("x", MARGIN)
                    .set("y", top + 16.0 * i as f64),
            );
        }
        doc = doc.add(g);
        if derivation.is_none() {
            doc = doc.add(legend(top + 16.0 * why_lines.len() as f64 - 4.0));
        }
    }
    match &style.title {
        None => doc.to_string(),
        // The grid as drawn above, nested below a title band.
        Some(title) => svg_document(size + 2.0 * MARGIN, TITLE + height)
            .add(Title::new(title.clone()))
            .add(
                Text::new(shorten(title, TITLE_CHARS))
                    .set("x", MARGIN)
                    .set("y", TITLE - 6.0)
                    .set("font-family", font)
                    .set("font-size", 16)
                    .set("font-weight", "bold")
                    .set("fill", "#111827"),
            )
            .add(doc.set("y", TITLE))
            .to_string(),
    }
}

/// The 18 coordinate labels in the margin: the column letters A–I above the grid, the row
/// digits 1–9 on its left, so that a cell such as `G8` (column G, row 8) can be found.
fn coordinates() -> Group {
    let mut g = Group::new()
        .set("class", "coords")
        .set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
        .set("font-size", 11)
        .set("fill", "#6b7280")
        .set("text-anchor", "middle");
    for i in 0..9u8 {
        let mid = MARGIN + (f64::from(i) + 0.5) * CELL;
        g = g
            .add(
                Text::new(char::from(b'A' + i).to_string())
                    .set("x", mid)
                    .set("y", MARGIN - 4.0),
            )
            .add(
                Text::new((i + 1).to_string())
                    .set("x", MARGIN / 2.0)
                    .set("y", mid + 4.0),
            );
    }
    g
}

/// The legend of a marked picture, its top at `y`: the cells named in the line, the
/// contradiction, and the removed candidates.
fn legend(y: f64) -> Group {
    let (ctr_fill, ctr_stroke) = colours("ctr");
    let entries = [
        ("#fff3b0", "#b7791f", "named in the line"),
        (ctr_fill, ctr_stroke, "contradiction"),
        ("#ffffff", "#dc2626", "removed (struck)"),
    ];
    let mut g = Group::new()
        .set("class", "legend")
        .set("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")
        .set("font-size", 11)
        .set("fill", "#111827");
    let mut x = MARGIN;
    for (fill, stroke, name) in entries {
        g = g
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", 12)
                    .set("height", 12)
                    .set("fill", fill)
                    .set("stroke", stroke),
            )
            .add(Text::new(name).set("x", x + 16.0).set("y", y + 10.0));
        x += 16.0 + super::text_width(name) * 0.9 + 18.0;
    }
    g
}

/// `text` cut to `max` characters, the last one an ellipsis when something was cut.
pub(super) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let kept: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// Splits a caption into lines that fit under the grid (about 64 characters).
fn wrap(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > 64 {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_svg_is_well_formed_and_escapes_captions() {
        let g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let mut p = g;
        crate::propagate::propagate(&mut p, &crate::propagate::Profile::DEFAULT);
        let style = GridStyle {
            givens: Some(g),
            highlight: vec!["G8".parse().unwrap()],
            removed: Some(g),
            caption: Some("a <caption> & more => CTR".into()),
            title: Some("a <title> & more".into()),
            contradiction: None,
        };
        let text = grid_svg(&p, &style);
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(doc.root_element().attribute("viewBox").is_some());
        assert!(text.contains("&lt;caption&gt; &amp; more"));
        assert!(text.contains("<title>a &lt;title&gt; &amp; more</title>"));
        assert!(text.contains("#dc2626"), "removed candidates are struck");
        assert!(!text.contains("contradiction"), "no reason, no marks");
    }

    /// The marks of each kind of contradiction on small worked positions (an open grid with a
    /// few cells set by hand), as `explain::conflict` reads them.
    #[test]
    fn contradiction_marks_point_at_the_conflict() {
        use crate::explain::{conflict, Reason};
        use crate::grid::Candidates;
        let cell = |s: &str| -> Cell { s.parse().unwrap() };
        let digits =
            |ds: &[u8]| -> Candidates { ds.iter().map(|&d| Digit::new(d).unwrap()).collect() };
        let marks = |g: &Grid| {
            let reason = Reason {
                conflict: conflict(g).unwrap(),
                rounds: 0,
            };
            let (cells, unit) = contradiction_marks(&reason, g);
            let svg = grid_svg(
                g,
                &GridStyle {
                    contradiction: Some(reason),
                    ..GridStyle::default()
                },
            );
            roxmltree::Document::parse(&svg).unwrap();
            assert_eq!(
                svg.matches("class=\"contradiction\"").count(),
                cells.len() as usize,
                "one marked square per cell"
            );
            assert!(svg.contains(&format!("why: {reason}")));
            let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            (names.join(" "), unit.map(|u| u.to_string()))
        };
        // An empty cell.
        let mut g = Grid::empty();
        g.set(cell("C4"), Candidates::NONE);
        assert_eq!(marks(&g), ("C4".into(), None));
        // Two equal singles in a row (the first unit, in canonical order, that shows it).
        let mut g = Grid::empty();
        g.set(cell("A5"), digits(&[7]));
        g.set(cell("H5"), digits(&[7]));
        assert_eq!(marks(&g), ("A5 H5".into(), Some("row 5".into())));
        // A value with no place in a column: the whole column.
        let mut g = Grid::empty();
        for c in cell("F1").peers().iter().chain([&cell("F1")]) {
            if c.col() == 5 {
                g.set(*c, Candidates::ALL - digits(&[3]));
            }
        }
        let (cells, unit) = marks(&g);
        assert_eq!(unit, Some("column F".into()));
        assert_eq!(cells, "F1 F2 F3 F4 F5 F6 F7 F8 F9");
        // Three cells of a block holding two values between them.
        let mut g = Grid::empty();
        for c in ["G7", "H8", "I9"] {
            g.set(cell(c), digits(&[1, 2]));
        }
        assert_eq!(marks(&g), ("G7 H8 I9".into(), Some("block 9".into())));
    }

    #[test]
    fn long_titles_are_shortened_with_an_ellipsis() {
        assert_eq!(shorten("Golden Nugget", 46), "Golden Nugget");
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abcd", 4), "abcd");
    }
}
