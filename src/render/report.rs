//! HTML reports from the askama templates in `templates/`: one page per puzzle with its SVGs, and
//! an index page grouping a collection by level. Everything is inline or relative: the pages work
//! offline. Output is deterministic (no times), so published analyses can be regenerated and
//! compared.

use super::grid::{grid_svg, GridStyle};
use super::steps::{draws_moves, explained_pictures, pictures, selected};
use super::tree::{tree_svg, TreeStyle};
use crate::engine::pair_analysis_tree;
use crate::engine::{Analysis, TracedLine};
use crate::solver::{Solutions, Stop};
use crate::study::ReportInput;
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
    /// The step pictures drawn, in files (`steps/`) or inline (a derivation's, which the viewer
    /// steps through): what `max_steps` bounds.
    pub pictures: usize,
}

struct VariantView {
    name: String,
    status: String,
    lines: Vec<LineView>,
}

/// A chain line, its reason (empty when it has none) and its step in the viewer (1-based; 0 when
/// it has none, as the count line and the lines of shallower variants).
struct LineView {
    text: String,
    reason: String,
    step: usize,
}

impl LineView {
    fn of(line: &crate::chain::ChainLine) -> LineView {
        LineView {
            text: line.to_string(),
            reason: line.reason.map(|r| r.to_string()).unwrap_or_default(),
            step: 0,
        }
    }
}

/// The summary chain of `a`, a line at a time, the count line last; the lines of `stepped` (its
/// traced summary lines) get the step number of the viewer.
fn chain_lines(a: &Analysis, stepped: &[&TracedLine]) -> Vec<LineView> {
    let chain = a.summary();
    let traced = a.lines.iter().filter(|l| l.summary);
    let mut lines: Vec<LineView> = chain.lines.iter().map(LineView::of).collect();
    // The summary starts with the traced summary lines, in order; what follows (the final
    // context, the proof's status) has no step.
    for (view, t) in lines.iter_mut().zip(traced) {
        if let Some(i) = stepped.iter().position(|s| std::ptr::eq(*s, t)) {
            view.step = i + 1;
        }
    }
    if let Some(c) = chain.count {
        lines.push(LineView {
            text: c.to_string(),
            reason: String::new(),
            step: 0,
        });
    }
    lines
}

/// A step of the viewer: a chain line, its picture when drawn (`file` empty otherwise).
struct StepView {
    n: usize,
    file: String,
    caption: String,
    reason: String,
}

/// A line of the proof by contradiction: its step view, its picture inline (empty past
/// `--max-steps`), the number of moves the picture can step through (0 when it does not draw
/// them) and its derivation's lines (the hypothesis, each numbered move, the end), as
/// `hdp chain --explain` writes them.
struct ExplainedView {
    step: StepView,
    svg: String,
    stepped: usize,
    moves: Vec<MoveView>,
}

/// A line of a derivation's text: `n` is 0 for the hypothesis, the move's number, or the
/// number of moves plus one for the end.
struct MoveView {
    n: usize,
    text: String,
}

/// The lines of `d`'s text, each with its move number.
fn move_views(d: &crate::derivation::Derivation) -> Vec<MoveView> {
    let head = usize::from(d.hypothesis.is_some() || !d.facts.is_empty());
    d.to_string()
        .lines()
        .enumerate()
        .map(|(j, m)| MoveView {
            n: j + 1 - head,
            text: m.trim().to_string(),
        })
        .collect()
}

/// A link in a report's header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// Relative address.
    pub href: String,
    /// What the link says.
    pub text: String,
}

/// Where a report sits in a collection: links back to the index and to the previous and next
/// puzzles in the index's order. Empty for a report on its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nav {
    /// The index page, at this puzzle's row.
    pub index: Option<Link>,
    /// The puzzle's level, shown beside the index link.
    pub level: String,
    /// The previous puzzle of the index.
    pub previous: Option<Link>,
    /// The next puzzle of the index.
    pub next: Option<Link>,
}

#[derive(Template)]
#[template(path = "nav.html")]
struct NavPart<'a> {
    nav: &'a Nav,
}

/// Marks around the collection links of a page, so that [`with_nav`] can replace them.
const NAV_START: &str = "<!-- collection -->";
const NAV_END: &str = "<!-- /collection -->";

fn nav_html(nav: &Nav) -> Result<String, RenderError> {
    let inner = NavPart { nav }
        .render()
        .map_err(|e| RenderError(e.to_string()))?;
    Ok(format!("{NAV_START}{inner}{NAV_END}"))
}

/// `page` (a report rendered by [`report`]) with its collection links replaced by `nav`: an
/// index learns the previous and next puzzles of its order only once every report is written.
pub fn with_nav(page: &str, nav: &Nav) -> Result<String, RenderError> {
    let missing = || RenderError("the page has no collection links to replace".into());
    let start = page.find(NAV_START).ok_or_else(missing)?;
    let end = page[start..].find(NAV_END).ok_or_else(missing)? + start + NAV_END.len();
    Ok(format!(
        "{}{}{}",
        &page[..start],
        nav_html(nav)?,
        &page[end..]
    ))
}

/// A section of the page, listed in its table of contents.
struct TocEntry {
    id: &'static str,
    text: &'static str,
}

/// Chains longer than this many lines start collapsed.
const OPEN_LINES: usize = 40;

#[derive(Template)]
#[template(path = "report.html")]
struct ReportPage<'a> {
    title: &'a str,
    nav: String,
    toc: Vec<TocEntry>,
    puzzle_line: String,
    problem: String,
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
    full: VariantView,
    full_open: bool,
    shallower: Vec<VariantView>,
    steps: Vec<StepView>,
    drawn: usize,
    proof_note: String,
    proof: Vec<LineView>,
    proof_steps: Vec<StepView>,
    ctr_note: String,
    ctr_lines: Vec<ExplainedView>,
    appendix: String,
    appendix_lines: usize,
    tree_note: String,
}

/// Why the puzzle has no solved grid on its page (empty when it has exactly one solution).
fn problem(solutions: &Result<Solutions, Stop>) -> String {
    let solutions = match solutions {
        Ok(solutions) => solutions,
        Err(stop) => {
            return format!(
                "The solutions of this puzzle were not counted: {stop}, so there is no solved \
                 grid and no analysis."
            )
        }
    };
    match solutions {
        Solutions::Unique(_) => String::new(),
        Solutions::None => "This puzzle has no solution: its givens contradict each other, so \
                            there is no solved grid and no chain reaches SOL."
            .into(),
        Solutions::Multiple(_) => "This puzzle has several solutions: it is not a proper \
                                   Sudoku, so there is no single solved grid to show."
            .into(),
    }
}

/// Renders the report of `input`: every summary line of the deepest chain is a step of the
/// viewer, the first `max_steps` with a picture; `nav` gives the links to a collection.
pub fn report(input: &ReportInput, max_steps: usize, nav: &Nav) -> Result<Report, RenderError> {
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
    // The proof by contradiction's pictures come first, then the short proof's, out of the same
    // `max_steps`.
    let ctr_drawn = match &input.contradiction {
        // At most half of them: the viewer's steps keep pictures too.
        Some(Ok(lines)) => lines.len().min(max_steps / 2),
        _ => 0,
    };
    let proof_drawn = match &input.minimal {
        Some(Ok(traced)) => traced.len().min(max_steps - ctr_drawn),
        _ => 0,
    };
    let drawn = chosen.len().min(max_steps - ctr_drawn - proof_drawn);
    let (mut ctr_note, mut ctr_lines) = (String::new(), Vec::new());
    match &input.contradiction {
        None => {}
        Some(Err(e)) => ctr_note = format!("No proof by contradiction: {e}."),
        Some(Ok(lines)) => {
            let moves: usize = lines
                .iter()
                .filter_map(|l| l.derivation.as_ref())
                .map(|d| d.moves.len())
                .sum();
            ctr_note = format!(
                "Every line of this proof removes candidates by showing that assuming them \
                 leads to a contradiction (as hdp chain --minimal --proof contradiction \
                 --explain prints it): {} lines, {moves} moves in all. Under each line, the \
                 moves that reach its contradiction, each checkable on the grid before it; \
                 no line assumes values that happen to solve the puzzle.",
                lines.len()
            );
            let traced: Vec<&TracedLine> = lines.iter().map(|l| &l.traced).collect();
            let derivations: Vec<_> = lines.iter().map(|l| l.derivation.as_ref()).collect();
            // Inline, so that the viewer can show a picture up to a move.
            let mut drawn =
                explained_pictures(full, &traced[..ctr_drawn], &derivations[..ctr_drawn])
                    .into_iter();
            for (i, l) in lines.iter().enumerate() {
                let mut caption = l.traced.line.clone();
                caption.position = None;
                let svg = drawn.next().map(|(_, svg)| svg).unwrap_or_default();
                let stepped = match &l.derivation {
                    Some(d) if !svg.is_empty() && draws_moves(&l.traced, d) => d.moves.len(),
                    _ => 0,
                };
                ctr_lines.push(ExplainedView {
                    step: StepView {
                        n: i + 1,
                        file: String::new(),
                        reason: LineView::of(&caption).reason,
                        caption: caption.to_string(),
                    },
                    svg,
                    stepped,
                    moves: l.derivation.as_ref().map(move_views).unwrap_or_default(),
                });
            }
        }
    }
    let mut steps: Vec<StepView> = chosen
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut caption = line.line.clone();
            caption.position = None;
            StepView {
                n: i + 1,
                file: String::new(),
                reason: LineView::of(&caption).reason,
                caption: caption.to_string(),
            }
        })
        .collect();
    for ((name, svg), step) in pictures(full, &chosen[..drawn]).into_iter().zip(&mut steps) {
        step.file = format!("steps/{name}");
        files.push((step.file.clone(), svg));
    }
    let propagated = input.propagated;
    let givens = GridStyle {
        givens: Some(input.puzzle),
        ..GridStyle::default()
    };
    let c = input.classification.as_ref();
    let opt = |v: Option<u8>| v.map_or("—".to_string(), |d| d.to_string());
    let view = |(name, a): &(String, Analysis), stepped: &[&TracedLine]| VariantView {
        name: name.clone(),
        status: a.status.to_string(),
        lines: chain_lines(a, stepped),
    };
    let Some((last, others)) = input.variants.split_last() else {
        return Err(RenderError("no analysis to report".into()));
    };
    let full_view = view(last, &chosen);
    // The short proof first (hdp chain --minimal), each line with its picture.
    let (mut proof_note, mut proof, mut proof_steps) = (String::new(), Vec::new(), Vec::new());
    match &input.minimal {
        None => {}
        Some(Err(e)) => proof_note = format!("No short proof: {e}. The full chain follows."),
        Some(Ok(explained)) => {
            let lines: Vec<&TracedLine> = explained.iter().map(|l| &l.traced).collect();
            let derivations: Vec<_> = explained.iter().map(|l| l.derivation.as_ref()).collect();
            proof_note = format!(
                "The proof that reaches the solution (as hdp chain --minimal prints it, with \
                 --proof solution, the method's own notion of proof): its last line assumes \
                 values and shows that propagation then solves the puzzle, which checks the \
                 values rather than deducing them. {} of the {} lines of the chain below, each \
                 checked on its own by propagation; the full search follows as the chain and \
                 its appendix.",
                lines.len(),
                full.lines.iter().filter(|l| l.summary).count()
            );
            proof = lines.iter().map(|l| LineView::of(&l.line)).collect();
            // Files, each drawing a refutation's moves all at once (the viewer steps through the
            // proof by contradiction above).
            let mut drawn =
                explained_pictures(full, &lines[..proof_drawn], &derivations[..proof_drawn])
                    .into_iter();
            for (i, l) in lines.iter().enumerate() {
                let mut caption = l.line.clone();
                caption.position = None;
                let file = match drawn.next() {
                    Some((name, svg)) => {
                        let file = format!("steps/step-proof-{}", &name["step-".len()..]);
                        files.push((file.clone(), svg));
                        file
                    }
                    None => String::new(),
                };
                proof_steps.push(StepView {
                    n: i + 1,
                    file,
                    reason: LineView::of(&caption).reason,
                    caption: caption.to_string(),
                });
            }
        }
    }
    let mut toc = vec![
        TocEntry {
            id: "classification",
            text: "Classification",
        },
        TocEntry {
            id: "positions",
            text: "Positions",
        },
    ];
    if !ctr_note.is_empty() {
        toc.push(TocEntry {
            id: "contradiction-proof",
            text: "The short proof, by contradiction",
        });
    }
    if !proof_note.is_empty() {
        toc.push(TocEntry {
            id: "proof",
            text: "A proof that reaches the solution",
        });
    }
    toc.extend([
        TocEntry {
            id: "chain",
            text: "HDP chain",
        },
        TocEntry {
            id: "viewer",
            text: "Step through the chain",
        },
    ]);
    if !tree_note.is_empty() {
        toc.push(TocEntry {
            id: "tree",
            text: "Decision tree",
        });
    }
    toc.push(TocEntry {
        id: "pair-analysis",
        text: "Pair reduction analysis",
    });
    toc.push(TocEntry {
        id: "appendix",
        text: "Appendix: every step",
    });
    let appendix = full.steps().to_string();
    let page = ReportPage {
        title: &input.title,
        nav: nav_html(nav)?,
        toc,
        puzzle_line: input.puzzle.to_line(),
        problem: problem(&input.solutions),
        solution_line: input.solution.map(|s| s.to_line()).unwrap_or_default(),
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
        solved_svg: input
            .solution
            .map(|s| grid_svg(&s, &givens))
            .unwrap_or_default(),
        pairs: input
            .pair
            .pairs
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        analysis_text: input.pair.to_string(),
        full_open: full_view.lines.len() <= OPEN_LINES,
        full: full_view,
        shallower: others.iter().map(|v| view(v, &[])).collect(),
        steps,
        drawn,
        proof_note,
        proof,
        proof_steps,
        ctr_note,
        ctr_lines,
        appendix_lines: appendix.lines().count(),
        appendix,
        tree_note,
    };
    let index_html = page.render().map_err(|e| RenderError(e.to_string()))?;
    Ok(Report {
        index_html,
        files,
        pictures: ctr_drawn + proof_drawn + drawn,
    })
}

/// Whether `path` (relative to a report's folder, `/`-separated) names a file a report writes:
/// `index.html`, the tree pictures and the step pictures (`steps/step-*.svg`). A report written
/// into a folder that held an older one removes the older files of these names it does not
/// write again, and nothing else.
pub fn is_report_file(path: &str) -> bool {
    match path.strip_prefix("steps/") {
        Some(name) => {
            name.starts_with("step-")
                && name.ends_with(".svg")
                && !name.contains('/')
                && name.len() > "step-.svg".len()
        }
        None => matches!(path, "index.html" | "analysis-tree.svg" | "tree.svg"),
    }
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
    /// Its row is `p-ANCHOR` (the anchor is its folder's name), which its report links back to.
    pub anchor: String,
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

/// The levels of `entries` in the index's order: the classification's levels from the easiest,
/// then any other (`invalid`), each with the positions of its entries in input order.
fn level_groups(entries: &[IndexEntry]) -> Vec<(String, Vec<usize>)> {
    let mut names: Vec<String> = crate::classify::Level::ALL
        .iter()
        .map(|l| l.to_string())
        .collect();
    for e in entries {
        if !names.contains(&e.level) {
            names.push(e.level.clone());
        }
    }
    names
        .into_iter()
        .map(|level| {
            let members = (0..entries.len())
                .filter(|&i| entries[i].level == level)
                .collect();
            (level, members)
        })
        .filter(|(_, m): &(String, Vec<usize>)| !m.is_empty())
        .collect()
}

/// The positions of `entries` in the order the index lists them (by level, easiest first, then
/// input order): the order of a report's previous and next links.
pub fn index_order(entries: &[IndexEntry]) -> Vec<usize> {
    level_groups(entries)
        .into_iter()
        .flat_map(|(_, m)| m)
        .collect()
}

/// The index page of a collection, grouping its puzzles by level (easiest first), with `notes`
/// (what was left out) under the title.
pub fn index_html(
    title: &str,
    entries: &[IndexEntry],
    notes: &[String],
) -> Result<String, RenderError> {
    let groups = level_groups(entries)
        .into_iter()
        .map(|(level, members)| LevelGroup {
            level,
            entries: members.into_iter().map(|i| &entries[i]).collect(),
        })
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
        let r = report(&input, 60, &Nav::default()).unwrap();
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
        let again = report(&input, 60, &Nav::default()).unwrap();
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
            anchor: n.into(),
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

    #[test]
    fn a_report_owns_only_its_own_file_names() {
        for owned in [
            "index.html",
            "tree.svg",
            "analysis-tree.svg",
            "steps/step-000-sta.svg",
            "steps/step-123-dis.svg",
        ] {
            assert!(is_report_file(owned), "{owned}");
        }
        for foreign in [
            "notes.txt",
            "index.htm",
            "steps/mine.svg",
            "steps/drawing.svg",
            "steps/step-notes.txt",
            "steps/step-.svg",
            "steps/sub/step-000-dis.svg",
            "other/index.html",
            "../index.html",
        ] {
            assert!(!is_report_file(foreign), "{foreign}");
        }
    }

    #[test]
    fn collection_links_are_replaced_in_place() {
        let g: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let input = ReportInput::analyse("Inkala", &g, &Options::default());
        let alone = report(&input, 2, &Nav::default()).unwrap().index_html;
        assert!(!alone.contains("rel=\"next\""));
        let link = |href: &str, text: &str| Link {
            href: href.into(),
            text: text.into(),
        };
        let nav = Nav {
            index: Some(link("../index.html#p-a", "famous <puzzles>")),
            level: "hard · puzzle 2 of 3".into(),
            previous: Some(link("../a/index.html", "a")),
            next: Some(link("../c/index.html", "c")),
        };
        let linked = with_nav(&alone, &nav).unwrap();
        assert_eq!(linked, report(&input, 2, &nav).unwrap().index_html);
        assert!(linked.contains("<a href=\"../c/index.html\" rel=\"next\">c →</a>"));
        assert!(!linked.contains("famous <puzzles>"), "escaped");
        assert_eq!(with_nav(&linked, &Nav::default()).unwrap(), alone);
        assert!(with_nav("<html></html>", &nav).is_err());
    }
}
