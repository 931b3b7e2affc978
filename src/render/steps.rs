//! One grid picture per step of the steps chain (STA, HYP, DIS, PRF; INC too when there are few
//! steps), captioned with the chain line: the illustrated chain of the source document. A line
//! with a reason is drawn in the position where its contradiction shows, marked. A `DIS` line
//! given its derivation (computed by the library, [`crate::derivation`]) is drawn with its moves
//! instead: [`explained_pictures`].

use super::grid::{derivation_svg, grid_svg, GridStyle};
use crate::chain::Marker;
use crate::derivation::{Derivation, End};
use crate::engine::{Analysis, TracedLine};

/// Steps past this count leave out INC lines.
const MANY: usize = 200;

/// The steps to draw: all recorded lines, or only those of the summary when `summary_only`.
pub fn selected(analysis: &Analysis, summary_only: bool) -> Vec<&TracedLine> {
    let lines: Vec<&TracedLine> = analysis
        .lines
        .iter()
        .filter(|l| !summary_only || l.summary)
        .collect();
    if lines.len() > MANY {
        lines
            .into_iter()
            .filter(|l| l.line.marker != Marker::Inc)
            .collect()
    } else {
        lines
    }
}

/// `(file name, SVG)` for every step, named in order (`step-000-sta.svg`, …).
pub fn steps_svgs(analysis: &Analysis) -> Vec<(String, String)> {
    pictures(analysis, &selected(analysis, false))
}

/// `(file name, SVG)` for the given lines of `analysis`.
pub fn pictures(analysis: &Analysis, lines: &[&TracedLine]) -> Vec<(String, String)> {
    explained_pictures(analysis, lines, &[])
}

/// Whether the picture of `line` with its derivation `d` draws the moves: a `DIS` line whose
/// derivation ends in a contradiction.
pub(super) fn draws_moves(line: &TracedLine, d: &Derivation) -> bool {
    line.line.marker == Marker::Dis && matches!(d.end, End::Contradiction(_))
}

/// `(file name, SVG)` for the given lines of `analysis`; `derivations[i]`, when present, is the
/// derivation of `lines[i]`: a `DIS` line ending in a contradiction is then drawn with its moves
/// ([`derivation_svg`]), every other line as [`pictures`] draws it.
pub fn explained_pictures(
    analysis: &Analysis,
    lines: &[&TracedLine],
    derivations: &[Option<&Derivation>],
) -> Vec<(String, String)> {
    let mut previous = analysis.start;
    let mut out = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        let mut caption = l.line.clone();
        caption.position = None;
        let style = GridStyle {
            givens: Some(analysis.puzzle),
            highlight: l.line.context.statements().map(|s| s.cell).collect(),
            removed: Some(previous),
            caption: Some(caption.to_string()),
            contradiction: l.conflict.and(l.line.reason),
            ..GridStyle::default()
        };
        let name = format!("step-{i:03}-{}.svg", l.line.marker.as_str().to_lowercase());
        let explained = derivations
            .get(i)
            .copied()
            .flatten()
            .filter(|d| draws_moves(l, d));
        let svg = match explained {
            Some(d) => derivation_svg(d, &style),
            None => grid_svg(&l.conflict.unwrap_or(l.grid), &style),
        };
        out.push((name, svg));
        if matches!(l.line.marker, Marker::Sta | Marker::Prf) {
            previous = l.grid;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;

    #[test]
    fn inkala_steps_are_pictures_in_order() {
        let g: crate::Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let a = Analysis::run(&g, &Options::default());
        let pics = steps_svgs(&a);
        assert_eq!(pics.len(), a.lines.len());
        assert!(pics[0].0.starts_with("step-000-sta"));
        for (_, svg) in &pics {
            roxmltree::Document::parse(svg).unwrap();
        }
    }
}
