//! HTML reports from the askama templates in `templates/`: one page per puzzle with its SVGs, and
//! an index page grouping a collection by level. Everything is inline or relative: the pages work
//! offline. Output is deterministic (no times), so published analyses can be regenerated and
//! compared.

use super::grid::{grid_svg, GridStyle};
use super::steps::{pictures, selected};
use super::tree::{tree_svg, TreeStyle};
use crate::engine::Analysis;
use crate::study::ReportInput;
use crate::tree::pair_analysis_tree;
use askama::Template;

/// A template failed to render.
#[derive(Debug, thiserror::Error)]
#[error("rendering the report failed: {0}")]
pub struct RenderError(String);

/// A rendered report: `index.html` and its files (relative paths).
pub struct Report {
    /// The page.
    pub index_html: String,
    /// `(relative path, content)` of every SVG the page uses.
    pub files: Vec<(String, String)>,
}

struct VariantView {
    name: String,
    status: String,
    lines: Vec<LineView>,
}

/// A chain line and its reason (empty when it has none).
struct LineView {
    text: String,
    reason: String,
}

impl LineView {
    fn of(line: &crate::chain::ChainLine) -> LineView {
        LineView {
            text: line.to_string(),
            reason: line.reason.map(|r| r.to_string()).unwrap_or_default(),
        }
    }
}

/// The summary chain of `a`, a line at a time, the count line last.
fn chain_lines(a: &Analysis) -> Vec<LineView> {
    let chain = a.summary();
    let mut lines: Vec<LineView> = chain.lines.iter().map(LineView::of).collect();
    if let Some(c) = chain.count {
        lines.push(LineView {
            text: c.to_string(),
            reason: String::new(),
        });
    }
    lines
}

struct StepView {
    file: String,
    caption: String,
    reason: String,
}

#[derive(Template)]
#[template(path = "report.html")]
struct ReportPage<'a> {
    title: &'a str,
    puzzle_line: String,
    solution_line: String,
    status: String,
    depth: String,
    depth_pairs: String,
    level: String,
    tests: u64,
    hypotheses: u64,
    max_line_depth: usize,
    original_svg: String,
    propagated_svg: String,
    solved_svg: String,
    pairs: String,
    analysis_text: String,
    variants: Vec<VariantView>,
    steps: Vec<StepView>,
    steps_total: usize,
    appendix: String,
    tree_note: String,
}

/// Renders the report of `input` with at most `max_steps` step pictures (the summary lines, in
/// order).
pub fn report(input: &ReportInput, max_steps: usize) -> Result<Report, RenderError> {
    let Some((_, full)) = input.variants.last() else {
        return Err(RenderError("no analysis to report".into()));
    };
    let mut files = Vec::new();
    let analysis_tree = pair_analysis_tree(&input.pair);
    files.push((
        "analysis-tree.svg".to_string(),
        tree_svg(&analysis_tree, &TreeStyle::default()),
    ));
    let mut tree_note = String::new();
    if let Some(t) = &full.tree {
        let style = TreeStyle {
            only_productive: true,
            max_nodes: 1_500,
            row_width: 6,
        };
        files.push(("tree.svg".to_string(), tree_svg(t, &style)));
        tree_note = format!(
            "The decisions that produced facts, from {} recorded nodes ({} branch tests).",
            t.graph.node_count(),
            t.branch_count()
        );
    }
    let chosen = selected(full, true);
    let steps_total = chosen.len();
    let chosen: Vec<_> = chosen.into_iter().take(max_steps).collect();
    let mut steps = Vec::new();
    for ((name, svg), line) in pictures(full, &chosen).into_iter().zip(&chosen) {
        let mut caption = line.line.clone();
        caption.position = None;
        let file = format!("steps/{name}");
        steps.push(StepView {
            file: file.clone(),
            reason: LineView::of(&caption).reason,
            caption: caption.to_string(),
        });
        files.push((file, svg));
    }
    let propagated = input.propagated;
    let givens = GridStyle {
        givens: Some(input.puzzle),
        ..GridStyle::default()
    };
    let solution = input.solution;
    let c = input.classification.as_ref();
    let opt = |v: Option<u8>| v.map_or("—".to_string(), |d| d.to_string());
    let page = ReportPage {
        title: &input.title,
        puzzle_line: input.puzzle.to_line(),
        solution_line: solution.map(|s| s.to_line()).unwrap_or_default(),
        status: full.status.to_string(),
        depth: opt(full.depth),
        depth_pairs: opt(c.and_then(|c| c.depth_pairs)),
        level: c
            .and_then(|c| c.level)
            .map_or("—".to_string(), |l| l.to_string()),
        tests: full.counters.tests,
        hypotheses: full.counters.hypotheses,
        max_line_depth: full.max_line_depth(),
        original_svg: grid_svg(&input.puzzle, &givens),
        propagated_svg: grid_svg(&propagated, &givens),
        solved_svg: grid_svg(&solution.unwrap_or(full.end), &givens),
        pairs: input
            .pair
            .pairs
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        analysis_text: input.pair.to_string(),
        variants: input
            .variants
            .iter()
            .map(|(name, a)| VariantView {
                name: name.clone(),
                status: a.status.to_string(),
                lines: chain_lines(a),
            })
            .collect(),
        steps,
        steps_total,
        appendix: full.steps().to_string(),
        tree_note,
    };
    let index_html = page.render().map_err(|e| RenderError(e.to_string()))?;
    Ok(Report { index_html, files })
}

/// One puzzle on an index page.
#[derive(Clone, Debug)]
pub struct IndexEntry {
    /// Its name.
    pub name: String,
    /// The 81-character puzzle.
    pub puzzle: String,
    /// Level name (`medium`, …) or `invalid`.
    pub level: String,
    /// Depth, or `—`.
    pub depth: String,
    /// Relative link to its report.
    pub link: String,
}

struct LevelGroup<'a> {
    level: String,
    entries: Vec<&'a IndexEntry>,
}

#[derive(Template)]
#[template(path = "index.html")]
struct IndexPage<'a> {
    title: &'a str,
    groups: Vec<LevelGroup<'a>>,
    total: usize,
    notes: &'a [String],
}

/// The index page of a collection, grouping its puzzles by level (easiest first), with `notes`
/// (what was left out) under the title.
pub fn index_html(
    title: &str,
    entries: &[IndexEntry],
    notes: &[String],
) -> Result<String, RenderError> {
    let mut names: Vec<String> = crate::classify::Level::ALL
        .iter()
        .map(|l| l.to_string())
        .collect();
    for e in entries {
        if !names.contains(&e.level) {
            names.push(e.level.clone());
        }
    }
    let groups = names
        .into_iter()
        .map(|level| LevelGroup {
            entries: entries.iter().filter(|e| e.level == level).collect(),
            level,
        })
        .filter(|g| !g.entries.is_empty())
        .collect();
    IndexPage {
        title,
        groups,
        total: entries.len(),
        notes,
    }
    .render()
    .map_err(|e| RenderError(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;
    use crate::grid::Grid;

    #[test]
    fn inkala_report_has_solution_depth_and_files() {
        let g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let input = ReportInput::analyse("Arto Inkala 2012", &g, &Options::default());
        let r = report(&input, 60).unwrap();
        assert!(r.index_html.contains(
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
        ));
        assert!(r.index_html.contains("<dd>2</dd>"), "depth 2 shown");
        assert!(r.index_html.contains("Arto Inkala 2012"));
        for external in ["src=\"http", "href=\"http", "url(http", "@import"] {
            assert!(
                !r.index_html.contains(external),
                "offline: found {external}"
            );
        }
        for (name, svg) in &r.files {
            assert!(name.ends_with(".svg"));
            roxmltree::Document::parse(svg).unwrap();
        }
        for (name, _) in &r.files {
            assert!(
                r.index_html.contains(name.as_str()) || name == "tree.svg",
                "{name} unused"
            );
        }
        let input = ReportInput::analyse("Arto Inkala 2012", &g, &Options::default());
        let again = report(&input, 60).unwrap();
        assert_eq!(again.index_html, r.index_html, "deterministic");
    }

    #[test]
    fn index_groups_by_level() {
        let e = |n: &str, l: &str| IndexEntry {
            name: n.into(),
            puzzle: ".".repeat(81),
            level: l.into(),
            depth: "1".into(),
            link: format!("{n}/index.html"),
        };
        let html = index_html(
            "t <x>",
            &[e("a", "hard"), e("b", "medium"), e("c", "hard")],
            &[],
        )
        .unwrap();
        assert!(html.find("medium").unwrap() < html.find("hard").unwrap());
        assert!(html.contains("t &#60;x&#62;") || html.contains("t &lt;x&gt;"));
    }
}
