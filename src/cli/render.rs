//! `hdp render` (tree, grid and step pictures) and `hdp report` (HTML reports).

use super::classify::EXIT_INTERRUPTED;
use super::files;
use super::input::{Puzzles, Read1, ReadError};
use super::output::error;
use super::{status_problem, EngineArgs, InputArgs, Output, EXIT_OK, EXIT_PUZZLE};
use clap::{Args, Subcommand};
use hdp::engine::pair_analysis_tree;
use hdp::engine::{Analysis, Budget, Options, PairAnalysis, Recording};
use hdp::format::{apply_context, Puzzle};
use hdp::render::steps::{explained_pictures, selected};
use hdp::render::{
    grid_svg, index_html, index_order, is_report_file, report, tree_svg_view, with_nav, Expand,
    GridStyle, IndexEntry, Link, Nav, TreeView,
};
use hdp::settings::Variant;
use hdp::study::ReportInput;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// `hdp render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(subcommand)]
    pub what: RenderWhat,
}

/// What to draw.
#[derive(Subcommand, Debug)]
pub enum RenderWhat {
    /// The decision tree as SVG.
    Tree {
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// analysis (first level), pr, dpr, vdpr or full.
        #[arg(long, value_enum, default_value_t = Variant::Full)]
        variant: Variant,
        /// Which hypotheses are drawn open: proof (the proof's path open at the top, the rest
        /// of each state folded after it, a box per row of decisions that found nothing),
        /// proof-only (the proof's path alone), all (up to --max-nodes) or none (the top
        /// level). Folded boxes open on click in a browser.
        #[arg(long, value_enum, default_value_t = ExpandArg::Proof)]
        expand: ExpandArg,
        /// Same as --expand all.
        #[arg(long, conflicts_with = "expand")]
        all: bool,
        /// The widest the picture gets, in pixels: wider levels wrap into rows.
        #[arg(long, value_name = "PX", default_value_t = 1600, value_parser = clap::value_parser!(u32).range(400..))]
        max_width: u32,
        /// The most boxes drawn, open or in the hidden panels; the picture says how many nodes
        /// are left out past it.
        #[arg(long, value_name = "N", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
        /// svg (the picture; CTR nodes have their reason as a tooltip) or json (every recorded
        /// node and edge, with reasons).
        #[arg(long, value_enum, default_value_t = TreeFormat::Svg)]
        format: TreeFormat,
        /// Output file, or - for standard output.
        #[arg(short, long, default_value = "tree.svg", value_parser = parse_file)]
        output: PathBuf,
    },
    /// The grid with its remaining candidates as SVG (after propagation and the context).
    Grid {
        #[command(flatten)]
        input: InputArgs,
        /// Start from this context, e.g. "I8: 2,7 + G7: 3,9".
        #[arg(long)]
        given: Option<String>,
        /// Draw the puzzle as given instead of the propagated position.
        #[arg(long)]
        raw: bool,
        /// Also draw the candidates propagation removed, struck through in red.
        #[arg(long, conflicts_with = "raw")]
        struck: bool,
        /// The title above the grid (default: the puzzle's label, else its file and line, else
        /// the start of the puzzle).
        #[arg(long)]
        title: Option<String>,
        /// Output file, or - for standard output.
        #[arg(short, long, default_value = "grid.svg", value_parser = parse_file)]
        output: PathBuf,
    },
    /// One grid picture per step of the steps chain, named in order.
    Steps {
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// The most pictures: the first N steps (a note on stderr says how many were left out).
        #[arg(long, value_name = "N", default_value_t = 60)]
        max_steps: usize,
        /// Draw the lines of the minimal proof (as `hdp chain --minimal`) instead of every step.
        #[arg(long)]
        minimal: bool,
        /// Output directory.
        #[arg(short, long, default_value = "steps", value_parser = parse_dir)]
        output: PathBuf,
    },
}

/// `render tree --expand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExpandArg {
    /// The proof's path open, the rest folded.
    Proof,
    /// Everything open, up to --max-nodes.
    All,
    /// Every hypothesis folded.
    None,
    /// The proof's path alone: the decisions that found nothing are not drawn.
    ProofOnly,
}

/// `render tree --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TreeFormat {
    /// The SVG picture.
    Svg,
    /// `{"schema": 1, "tree": {"root", "truncated", "nodes", "edges"}}`.
    Json,
}

/// `hdp report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// A collection (a file, or - for standard input; any input `hdp classify` reads, a table's
    /// first other column naming each puzzle): a report per puzzle and an index page by level.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["inputs", "input_format"])]
    pub index: Option<String>,
    /// Title of the page (single puzzle).
    #[arg(long)]
    pub title: Option<String>,
    /// The most step pictures per report.
    #[arg(long, default_value_t = 60)]
    pub max_steps: usize,
    /// With --index: the most step pictures of all reports together; later reports list their
    /// chain lines without pictures, and the index says from which puzzle on.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_total_steps: usize,
    /// With --index: the most reports; the puzzles after the first N are counted, not analysed,
    /// and the index says how many were left out.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_reports: usize,
    /// Output directory.
    #[arg(short, long, default_value = "report", value_parser = parse_dir)]
    pub output: PathBuf,
    /// With --index: keep the reports an earlier run (interrupted, say) finished for the same
    /// puzzles in the same folder, and write only the others.
    #[arg(long)]
    pub resume: bool,
    /// With --index: analyses run at once, 1 to 1024 (default: all cores); the reports and the
    /// index are the same whatever the number.
    #[arg(long, short = 'j', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
}

impl RenderWhat {
    /// The subcommand's name.
    pub fn name(&self) -> &'static str {
        match self {
            RenderWhat::Tree { .. } => "tree",
            RenderWhat::Grid { .. } => "grid",
            RenderWhat::Steps { .. } => "steps",
        }
    }
}

impl RenderArgs {
    /// Value combinations that would be ignored.
    pub fn check(&self, given: &dyn Fn(&str) -> bool) -> Result<(), String> {
        match &self.what {
            RenderWhat::Tree {
                variant, format, ..
            } => {
                // The picture's options mean nothing to the JSON, which has every node.
                let picture = [
                    ("all", "--all"),
                    ("expand", "--expand"),
                    ("max_width", "--max-width"),
                    ("max_nodes", "--max-nodes"),
                ];
                match picture.iter().find(|(id, _)| given(id)) {
                    Some((_, flag)) if *format == TreeFormat::Json => Err(format!(
                        "{flag} cannot be used with --format json (the JSON has every recorded \
                         node)"
                    )),
                    _ => super::check_variant(*variant, given),
                }
            }
            _ => Ok(()),
        }
    }
}

impl ReportArgs {
    /// Value combinations that would be ignored: the caps of an index without `--index` (clap's
    /// `requires` is not enforced when INPUT, which conflicts with `--index`, is given).
    pub fn check(&self, given: &dyn Fn(&str) -> bool) -> Result<(), String> {
        if self.index.is_some() {
            return Ok(());
        }
        match [
            ("max_reports", "--max-reports"),
            ("max_total_steps", "--max-total-steps"),
            ("resume", "--resume"),
            ("jobs", "--jobs"),
        ]
        .iter()
        .find(|(id, _)| given(id))
        {
            Some((_, flag)) => Err(format!(
                "{flag} applies to --index (a single report draws at most --max-steps pictures)"
            )),
            None => Ok(()),
        }
    }
}

/// An output directory: `-` (standard output) cannot hold several files, and an empty name is
/// no folder (it would write into the current one).
fn parse_dir(s: &str) -> Result<PathBuf, String> {
    if s == "-" {
        Err("this writes several files: give a directory (- is only for single files)".into())
    } else if s.is_empty() {
        Err("an empty name is not a folder: give one, e.g. -o report".into())
    } else {
        Ok(PathBuf::from(s))
    }
}

/// An output file, or `-` for standard output; not an empty name.
fn parse_file(s: &str) -> Result<PathBuf, String> {
    if s.is_empty() {
        Err("an empty name is not a file: give one, or - for standard output".into())
    } else {
        Ok(PathBuf::from(s))
    }
}

/// Writes a single-file result to `path` (its folder created when missing; see `files`) and
/// says so on stderr, or to standard output when `path` is `-`.
fn write_file(out: &mut Output, path: &Path, content: &str) -> anyhow::Result<()> {
    if path.as_os_str() == "-" {
        out.write_all(content.as_bytes())?;
        Ok(())
    } else {
        if let Some(dir) = path.parent() {
            files::make_output_dir(dir)?;
        }
        files::write_file(path, content.as_bytes())?;
        wrote(format_args!("{} ({})", path.display(), size(content.len())));
        Ok(())
    }
}

/// One line on stderr saying what was written (not under `--quiet`).
fn wrote(what: std::fmt::Arguments<'_>) {
    if !super::output::quiet() {
        super::output::stderr_line(format_args!("hdp: wrote {what}"));
    }
}

/// A size in bytes, in words: `812 bytes`, `14 KB`, `3.2 MB`.
fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b < 1 << 20 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{:.1} MB", b as f64 / f64::from(1 << 20)),
    }
}

/// The first puzzle of the input, or the exit code after reporting why there is none.
fn first_puzzle(input: &InputArgs) -> anyhow::Result<Result<Puzzle, i32>> {
    Ok(first_read(input)?.map(|(_, p)| p))
}

/// The first puzzle of the input with its source, or the exit code after reporting why there is
/// none.
fn first_read(input: &InputArgs) -> anyhow::Result<Result<(String, Puzzle), i32>> {
    let mut puzzles = input.puzzles();
    let first = puzzles.next();
    // One picture or report is of one puzzle: several are refused rather than all but the
    // first silently left out.
    if let (Some(one), Some(two)) = (&first, puzzles.next()) {
        let (source, second) = if two.source == one.source {
            (one.source.clone(), format!("line {}", two.line))
        } else {
            let source = format!("{} and {}", one.source, two.source);
            (source, format!("{} line {}", two.source, two.line))
        };
        anyhow::bail!(
            "{source}: several puzzles (line {}, {second}, …) where one is drawn: give one \
             puzzle (e.g. sed -n {}p FILE | hdp … -), or use hdp report --index FILE for a \
             collection",
            one.line,
            two.line.max(1),
        );
    }
    match first {
        Some(Read1 {
            puzzle: Err(ReadError::Input(e)),
            ..
        }) => Err(anyhow::anyhow!(e)),
        r => Ok(r
            .and_then(|r| {
                let source = r.source.clone();
                r.ok_or_report().map(|p| (source, p))
            })
            .ok_or(EXIT_PUZZLE)),
    }
}

pub fn run_render(a: &RenderArgs, out: &mut Output) -> anyhow::Result<i32> {
    match &a.what {
        RenderWhat::Tree {
            input,
            engine,
            variant,
            expand,
            all,
            max_width,
            max_nodes,
            format,
            output,
        } => {
            let p = match first_puzzle(input)? {
                Ok(p) => p,
                Err(code) => return Ok(code),
            };
            let options = engine.analysis_options(*variant, Recording::ChainAndTree);
            let view = TreeView {
                expand: match (expand, all) {
                    (_, true) | (ExpandArg::All, _) => Expand::All,
                    (ExpandArg::Proof, _) => Expand::Proof,
                    (ExpandArg::None, _) => Expand::None,
                    (ExpandArg::ProofOnly, _) => Expand::ProofOnly,
                },
                max_width: f64::from(*max_width),
                max_nodes: usize::try_from(*max_nodes).unwrap_or(usize::MAX),
                ..TreeView::default()
            };
            // Why the tree shows no proof, if it does not (the picture is still written).
            let (tree, unsolved) = if *variant == Variant::Analysis {
                let tree = pair_analysis_tree(&PairAnalysis::run(&p.grid, &options));
                (tree, None)
            } else {
                let analysis = Analysis::run(&p.grid, &options);
                let problem = status_problem(&analysis.status);
                let Some(tree) = analysis.tree else {
                    error(format_args!("no tree: {}", problem.unwrap_or_default()));
                    return Ok(EXIT_PUZZLE);
                };
                (tree, problem)
            };
            let text = match format {
                TreeFormat::Svg => tree_svg_view(&tree, &view),
                TreeFormat::Json => {
                    let record = serde_json::json!({ "schema": 1, "tree": tree });
                    format!("{record}\n")
                }
            };
            write_file(out, output, &text)?;
            if let Some(problem) = unsolved {
                let written = match output.to_str() {
                    Some("-") => String::new(),
                    _ => format!(" (tree written to {})", output.display()),
                };
                error(format_args!("{problem}{written}"));
                return Ok(EXIT_PUZZLE);
            }
        }
        RenderWhat::Grid {
            input,
            given,
            raw,
            struck,
            title,
            output,
        } => {
            let (source, p) = match first_read(input)? {
                Ok(read) => read,
                Err(code) => return Ok(code),
            };
            let context = super::given_context(given.as_deref())?;
            let mut g = match apply_context(&p.grid, &context) {
                Ok(g) => g,
                Err(e) => {
                    error(format_args!("--given: {e}"));
                    return Ok(EXIT_PUZZLE);
                }
            };
            let before = g;
            if !raw {
                hdp::propagate::propagate(&mut g, &hdp::propagate::Profile::DEFAULT);
            }
            let style = GridStyle {
                givens: Some(p.grid),
                highlight: context.iter().map(|s| s.cell).collect(),
                removed: struck.then_some(before),
                caption: given.clone(),
                title: Some(visible(
                    &title.clone().unwrap_or_else(|| short_name(&source, &p)),
                )),
                contradiction: None,
            };
            write_file(out, output, &grid_svg(&g, &style))?;
        }
        RenderWhat::Steps {
            input,
            engine,
            max_steps,
            minimal,
            output,
        } => {
            let p = match first_puzzle(input)? {
                Ok(p) => p,
                Err(code) => return Ok(code),
            };
            let analysis = Analysis::run(&p.grid, &engine.options(hdp::engine::DEFAULT_MAX_DEPTH));
            let proof = if *minimal && analysis.is_solved() {
                match hdp::minimal::minimal(&analysis) {
                    Ok(m) => m.traced(&analysis),
                    Err(e) => {
                        error(format_args!("no minimal proof: {e}"));
                        return Ok(EXIT_PUZZLE);
                    }
                }
            } else {
                Vec::new()
            };
            let lines = if *minimal {
                proof.iter().collect()
            } else {
                selected(&analysis, false)
            };
            let drawn = lines.len().min(*max_steps);
            files::make_output_dir(output)?;
            // A DIS line is drawn with the moves of its derivation (worked out by the library
            // for the lines drawn only).
            let chain: Vec<_> = lines[..drawn].iter().map(|l| l.line.clone()).collect();
            let derivations = hdp::derivation::derive_lines(
                &analysis.puzzle,
                &chain,
                &analysis.options.profile,
                &hdp::derivation::Limits::until(analysis.options.budget.deadline),
            );
            let explained: Vec<_> = derivations.iter().map(Option::as_ref).collect();
            let pictures = explained_pictures(&analysis, &lines[..drawn], &explained);
            // Step pictures of an earlier run that this one does not draw again go: a re-used
            // folder shows this run only (other files stay).
            for stale in files::regular_files(output)? {
                let owned = is_report_file(&format!("steps/{stale}"));
                if owned && !pictures.iter().any(|(name, _)| *name == stale) {
                    files::remove_regular_file(&output.join(&stale))?;
                }
            }
            let mut bytes = 0;
            for (name, svg) in pictures {
                files::write_file(&output.join(name), svg.as_bytes())?;
                bytes += svg.len();
            }
            wrote(format_args!(
                "{drawn} step pictures to {} ({})",
                output.display(),
                size(bytes)
            ));
            if drawn < lines.len() && !super::output::quiet() {
                super::output::stderr_line(format_args!(
                    "hdp: drew the first {drawn} of {} steps (--max-steps {max_steps})",
                    lines.len()
                ));
            }
            if let Some(problem) = status_problem(&analysis.status) {
                error(format_args!(
                    "{problem} (steps written to {})",
                    output.display()
                ));
                return Ok(EXIT_PUZZLE);
            }
        }
    }
    Ok(EXIT_OK)
}

/// A short name for a puzzle: its label, else its file and line (`top95.txt, line 3`), else the
/// built-in example's name, else its first three rows and givens
/// (`8..........36......7..9.2… (21 givens)`).
fn short_name(source: &str, p: &Puzzle) -> String {
    if let Some(label) = p.label.as_deref().filter(|l| !l.trim().is_empty()) {
        return label.trim().to_string();
    }
    if source != "-" && Path::new(source).is_file() {
        let file = Path::new(source)
            .file_name()
            .map_or(source.into(), |f| f.to_string_lossy());
        return format!("{file}, line {}", p.line);
    }
    let line = p.grid.to_line();
    if line == super::input::INKALA {
        return "Arto Inkala 2012".into();
    }
    let start: String = line.chars().take(27).collect();
    format!("{start}… ({} givens)", p.grid.solved_count())
}

/// Writes the report of `input` into `dir` (an existing real folder), after removing the files
/// an older report left there that this one does not write again (only regular files with names
/// a report writes: `is_report_file`); returns how many step pictures it drew. Each file is
/// written safely (`files`), and a `steps` that is a symbolic link is an error.
fn write_report(
    dir: &Path,
    input: &ReportInput,
    max_steps: usize,
    nav: &Nav,
) -> anyhow::Result<usize> {
    let r = report(input, max_steps, nav)?;
    let written: std::collections::BTreeSet<&str> = r
        .files
        .iter()
        .map(|(name, _)| name.as_str())
        .chain(["index.html"])
        .collect();
    for stale in report_files(dir)? {
        if !written.contains(stale.as_str()) {
            files::remove_regular_file(&dir.join(&stale))?;
        }
    }
    if r.files.iter().any(|(name, _)| name.starts_with("steps/")) {
        files::make_sub_dir(dir, "steps")?;
    }
    files::write_file(&dir.join("index.html"), r.index_html.as_bytes())?;
    for (name, content) in &r.files {
        files::write_file(&dir.join(name), content.as_bytes())?;
    }
    Ok(r.pictures)
}

/// The files of an older report in `dir` (relative, `/`-separated): the regular files whose
/// names a report writes, in `dir` and `dir/steps` (an error when `steps` is a symbolic link);
/// none when `dir` does not exist.
fn report_files(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut found = Vec::new();
    for (sub, prefix) in [(dir.to_path_buf(), ""), (dir.join("steps"), "steps/")] {
        for name in files::regular_files(&sub)? {
            let rel = format!("{prefix}{name}");
            if is_report_file(&rel) {
                found.push(rel);
            }
        }
    }
    Ok(found)
}

/// A name usable as a directory: letters, digits and dashes.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    // File names have a length limit (255 bytes on most systems): keep a readable prefix.
    let s: String = s.chars().take(SLUG_MAX).collect();
    let s = s.trim_end_matches('-');
    if s.is_empty() {
        "puzzle".into()
    } else {
        s.to_string()
    }
}

/// A folder name for the puzzle of line `line` not in `used` (and now added to it): `base`, else
/// `base-LINE`, else `base-LINE-2`, `-3`, … (labels such as `a`, `a-4`, `a` would otherwise
/// send two reports to one folder).
fn unique_folder(used: &mut std::collections::BTreeSet<String>, base: &str, line: usize) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while used.contains(&name) {
        name = match k {
            1 => format!("{base}-{line}"),
            k => format!("{base}-{line}-{k}"),
        };
        k += 1;
    }
    used.insert(name.clone());
    name
}

/// `text` with its control characters (NUL, ESC, …) and bidirectional overrides and isolates
/// written as `\u{..}` escapes: a label shows what it holds, and cannot reorder or hide the
/// text around it on a page or in a picture.
fn visible(text: &str) -> String {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}')
    };
    text.chars()
        .map(|c| {
            if hidden(c) {
                format!("\\u{{{:X}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The longest folder name `report --index` derives from a label.
const SLUG_MAX: usize = 64;

/// Why a report's puzzle makes the exit code 1: no or several solutions, or not solved by the
/// deepest variant; `None` when solved.
fn report_problem(input: &ReportInput) -> Option<String> {
    match input.variants.last() {
        Some((_, analysis)) => status_problem(&analysis.status),
        None => Some("no analysis ran".into()),
    }
}

pub fn run_report(a: &ReportArgs, _out: &mut Output) -> anyhow::Result<i32> {
    let options = a.engine.options(hdp::engine::DEFAULT_MAX_DEPTH);
    let Some(index) = &a.index else {
        let (source, p) = match first_read(&a.input)? {
            Ok(read) => read,
            Err(code) => return Ok(code),
        };
        let title = visible(&a.title.clone().unwrap_or_else(|| short_name(&source, &p)));
        let input = ReportInput::analyse(&title, &p.grid, &options);
        files::make_output_dir(&a.output)?;
        let drawn = write_report(&a.output, &input, a.max_steps, &Nav::default())?;
        wrote(format_args!(
            "{} (a report with {drawn} step pictures)",
            a.output.join("index.html").display()
        ));
        return Ok(match report_problem(&input) {
            None => EXIT_OK,
            Some(problem) => {
                error(format_args!(
                    "{}: line {}: {problem} (report written to {})",
                    source,
                    p.line,
                    a.output.display()
                ));
                EXIT_PUZZLE
            }
        });
    };
    run_index(a, index, &options)
}

/// The title of an index page: `--title`, else the collection's file name.
fn title_of_index(a: &ReportArgs, index: &str) -> String {
    a.title.clone().unwrap_or_else(|| match index {
        "-" => "collection".into(),
        _ => Path::new(index)
            .file_name()
            .map_or("collection".into(), |f| f.to_string_lossy().into_owned()),
    })
}

/// The link from a report in folder `dir` back to its row of the index titled `title`.
fn index_link(title: &str, dir: &str) -> Link {
    Link {
        href: format!("../index.html#p-{dir}"),
        text: title.to_string(),
    }
}

/// Gives each written report of `entries` its collection links: back to its row of the index,
/// its level, and the previous and next puzzles in the index's order (by level, then input).
fn link_reports(out: &Path, title: &str, entries: &[IndexEntry]) -> anyhow::Result<()> {
    let order = index_order(entries);
    let link = |i: usize| {
        let e: &IndexEntry = &entries[i];
        Link {
            href: format!("../{}", e.link),
            text: format!("{} ({})", e.name, e.level),
        }
    };
    for (k, &i) in order.iter().enumerate() {
        let e = &entries[i];
        let nav = Nav {
            index: Some(index_link(title, &e.anchor)),
            level: format!("{} · puzzle {} of {}", e.level, k + 1, order.len()),
            previous: k.checked_sub(1).map(|j| link(order[j])),
            next: order.get(k + 1).map(|&j| link(j)),
        };
        let page = out.join(&e.link);
        let html = std::fs::read_to_string(&page)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", page.display()))?;
        files::write_file(&page, with_nav(&html, &nav)?.as_bytes())?;
    }
    Ok(())
}

/// Set by the first SIGINT/SIGTERM of `report --index`: the report under way is finished, then
/// the index of the finished ones is written.
static INDEX_STOP: AtomicBool = AtomicBool::new(false);

fn on_index_signal() {
    if INDEX_STOP.swap(true, Ordering::SeqCst) {
        error(format_args!(
            "stopped at once: no index written; run again with --resume to keep the finished \
             reports"
        ));
        std::process::exit(EXIT_INTERRUPTED);
    }
    if !super::output::quiet() {
        super::output::stderr_line(format_args!(
            "hdp: interrupted: finishing the report under way, then writing the index \
             (interrupt again to stop at once)"
        ));
    }
}

/// The file in a report's folder that lets `--resume` reuse it: what its index row says.
const ENTRY_FILE: &str = ".hdp-entry.json";

/// What `--resume` needs of a finished report (its index row, its pictures, its problem).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Finished {
    name: String,
    puzzle: String,
    level: String,
    depth: String,
    steps: usize,
    problem: Option<String>,
}

/// One item of an index, read before any analysis: a line that could not be read (its message),
/// or a puzzle to report.
enum IndexItem {
    Error(String),
    Puzzle(Box<ToReport>),
}

/// A puzzle of an index with its report's name and folder.
struct ToReport {
    source: String,
    line: usize,
    dir: String,
    name: String,
    grid: hdp::Grid,
    puzzle: String,
    /// The report an earlier run finished (`--resume`): nothing to analyse.
    kept: Option<Finished>,
}

/// The analyses of an index's reports, run by worker threads in the index's order and taken
/// by the writer in the same order; the workers stay at most a few analyses ahead of it, so
/// memory is bounded.
struct Analyses {
    state: std::sync::Mutex<AnalysesState>,
    changed: std::sync::Condvar,
    /// How far the workers may run ahead of the writer.
    ahead: usize,
}

#[derive(Default)]
struct AnalysesState {
    /// The next item a worker takes.
    next: usize,
    /// The item the writer waits for or writes.
    writing: usize,
    /// Analyses done and not yet taken, by item.
    done: std::collections::BTreeMap<usize, Box<ReportInput>>,
    /// The writer stopped: workers take nothing more.
    stop: bool,
}

impl Analyses {
    fn new(jobs: usize) -> Analyses {
        Analyses {
            state: std::sync::Mutex::new(AnalysesState::default()),
            changed: std::sync::Condvar::new(),
            ahead: 2 * jobs,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, AnalysesState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A worker: analyses the items that need it, in order, until none is left or the writer
    /// stops.
    fn work(&self, items: &[IndexItem], a: &ReportArgs, options: &Options) {
        loop {
            let i = {
                let mut s = self.lock();
                loop {
                    if s.stop || INDEX_STOP.load(Ordering::SeqCst) || s.next >= items.len() {
                        return;
                    }
                    if s.next < s.writing + self.ahead {
                        break;
                    }
                    s = self
                        .changed
                        .wait_timeout(s, std::time::Duration::from_millis(100))
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0;
                }
                s.next += 1;
                s.next - 1
            };
            let IndexItem::Puzzle(item) = &items[i] else {
                continue;
            };
            if item.kept.is_some() {
                continue;
            }
            // --timeout is per puzzle: each analysis gets its own deadline.
            let options = Options {
                budget: Budget {
                    deadline: a.engine.deadline(),
                    ..options.budget
                },
                ..*options
            };
            let input = ReportInput::analyse(&item.name, &item.grid, &options);
            self.lock().done.insert(i, Box::new(input));
            self.changed.notify_all();
        }
    }

    /// The writer: the analysis of item `i` once done; `None` after an interruption.
    fn take(&self, i: usize) -> Option<Box<ReportInput>> {
        let mut s = self.lock();
        s.writing = i;
        self.changed.notify_all();
        loop {
            if let Some(input) = s.done.remove(&i) {
                return Some(input);
            }
            if INDEX_STOP.load(Ordering::SeqCst) {
                return None;
            }
            s = self
                .changed
                .wait_timeout(s, std::time::Duration::from_millis(100))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }
}

/// Stops the workers when the writer ends, however it ends.
struct StopOnDrop<'a>(&'a Analyses);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.changed.notify_all();
    }
}

/// The progress bar of `report --index`: on a terminal only, not under `--quiet`.
fn index_progress(reports: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || super::output::quiet() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(reports as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} reports, {elapsed} ({eta} left)",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The finished report of `name`/`puzzle` in `folder`, if an earlier run left one.
fn finished(folder: &Path, name: &str, puzzle: &str) -> Option<Finished> {
    let path = folder.join(ENTRY_FILE);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || !folder.join("index.html").is_file() {
        return None;
    }
    let f: Finished = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    (f.name == name && f.puzzle == puzzle).then_some(f)
}

/// `report --index FILE`: a report per puzzle of the collection (the first `--max-reports`) and
/// an index page by level; step pictures stop at `--max-total-steps`, with a note on the index.
/// SIGINT/SIGTERM stop it after the report under way: the index lists the finished reports,
/// the exit code is 130, and `--resume` goes on.
fn run_index(a: &ReportArgs, index: &str, options: &Options) -> anyhow::Result<i32> {
    let _ = ctrlc::set_handler(on_index_signal);
    let mut interrupted = false;
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    let mut code = EXIT_OK;
    let (mut steps_left, mut left_out) = (a.max_total_steps, 0usize);
    // The report that used up --max-total-steps, and how many reports there were then.
    let mut used_up: Option<(String, usize)> = None;
    let mut puzzles = Puzzles::new(vec![index.to_string()], &a.input.read);
    // First the whole index is read and each puzzle named (names and folders depend on the
    // order only), then the analyses run in parallel and the reports are written in order, so
    // that the output is the same whatever --jobs.
    let mut items = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let mut reports = 0;
    for r in &mut puzzles {
        if INDEX_STOP.load(Ordering::SeqCst) {
            break;
        }
        let (source, title) = (r.source.clone(), r.title.clone());
        let p = match r.puzzle {
            Ok(p) => p,
            // An index that cannot be opened writes nothing.
            Err(ReadError::Input(e)) if reports == 0 => return Err(anyhow::anyhow!(e)),
            Err(ReadError::Parse(e)) => {
                items.push(IndexItem::Error(format!("{source}: {e}")));
                continue;
            }
            Err(ReadError::Input(e)) => {
                items.push(IndexItem::Error(e));
                continue;
            }
        };
        if reports >= a.max_reports {
            left_out += 1;
            continue;
        }
        reports += 1;
        let n = p.line;
        let label = title
            .or_else(|| p.label.clone())
            .unwrap_or_else(|| format!("line {n}"));
        // The folder from the label as given (a slug has no control characters), the name
        // shown with them escaped.
        let dir = unique_folder(&mut used, &slug(&label), n);
        let name = visible(&label);
        let puzzle = p.grid.to_line();
        let kept = a
            .resume
            .then(|| finished(&a.output.join(&dir), &name, &puzzle))
            .flatten();
        items.push(IndexItem::Puzzle(Box::new(ToReport {
            source,
            line: n,
            dir,
            name,
            grid: p.grid,
            puzzle,
            kept,
        })));
    }
    let bar = index_progress(reports);
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let analyses = Analyses::new(jobs);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..jobs {
            scope.spawn(|| analyses.work(&items, a, options));
        }
        let _stop_workers = StopOnDrop(&analyses);
        for (i, item) in items.iter().enumerate() {
            if INDEX_STOP.load(Ordering::SeqCst) {
                interrupted = true;
                break;
            }
            let item = match item {
                IndexItem::Error(e) => {
                    bar.suspend(|| error(format_args!("{e}")));
                    code = code.max(EXIT_PUZZLE);
                    continue;
                }
                IndexItem::Puzzle(item) => item,
            };
            let ToReport {
                source,
                line: n,
                dir,
                name,
                puzzle,
                ..
            } = &**item;
            files::make_output_dir(&a.output)?;
            let folder = files::make_sub_dir(&a.output, dir)?;
            let done = match &item.kept {
                Some(done) => done.clone(),
                None => {
                    let Some(input) = analyses.take(i) else {
                        // Interrupted while waiting.
                        interrupted = true;
                        break;
                    };
                    let c = input.classification.as_ref();
                    let max_steps = a.max_steps.min(steps_left);
                    // The previous and next links are set once the index's order is known.
                    let nav = Nav {
                        index: Some(index_link(&title_of_index(a, index), dir)),
                        ..Nav::default()
                    };
                    let steps = write_report(&folder, &input, max_steps, &nav)?;
                    let done = Finished {
                        name: name.clone(),
                        puzzle: puzzle.clone(),
                        level: c
                            .and_then(|c| c.level)
                            .map_or("invalid".into(), |l| l.to_string()),
                        depth: c
                            .and_then(|c| c.depth_pairs)
                            .map_or("—".into(), |d| d.to_string()),
                        steps,
                        problem: report_problem(&input),
                    };
                    files::write_file(&folder.join(ENTRY_FILE), &serde_json::to_vec(&done)?)?;
                    done
                }
            };
            bar.inc(1);
            let drawn = done.steps.min(steps_left);
            if steps_left > 0 && drawn == steps_left {
                used_up = Some((name.clone(), entries.len() + 1));
            }
            steps_left -= drawn;
            if let Some(problem) = done.problem {
                let named = if *name == format!("line {n}") {
                    String::new()
                } else {
                    format!(" ({name})")
                };
                bar.suspend(|| error(format_args!("{source}: line {n}{named}: {problem}")));
                code = code.max(EXIT_PUZZLE);
            }
            entries.push(IndexEntry {
                name: name.clone(),
                puzzle: done.puzzle,
                level: done.level,
                depth: done.depth,
                link: format!("{dir}/index.html"),
                anchor: dir.clone(),
            });
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if interrupted {
        notes.push(format!(
            "Interrupted after {} reports: hdp report --index … --resume goes on.",
            entries.len()
        ));
    }
    if let Some((name, reports)) = used_up.filter(|&(_, n)| n < entries.len()) {
        notes.push(format!(
            "Step pictures stop at {} in all (--max-total-steps), reached with {name}: the {} \
             later reports list their chain lines without pictures.",
            a.max_total_steps,
            entries.len() - reports
        ));
    }
    if left_out > 0 {
        let note = format!(
            "{left_out} more puzzles of {index} were not reported: at most {} reports \
             (--max-reports).",
            a.max_reports
        );
        if !super::output::quiet() {
            super::output::stderr_line(format_args!("hdp: {note}"));
        }
        notes.push(note);
    }
    if entries.is_empty() {
        error(format_args!(
            "no report written: {index} holds no puzzle that could be read"
        ));
        return Ok(puzzles.exit_code(code.max(EXIT_PUZZLE)));
    }
    let title = title_of_index(a, index);
    link_reports(&a.output, &title, &entries)?;
    files::make_output_dir(&a.output)?;
    files::write_file(
        &a.output.join("index.html"),
        index_html(&title, &entries, &notes)?.as_bytes(),
    )?;
    wrote(format_args!(
        "{} (an index of {} reports, each in its own folder)",
        a.output.join("index.html").display(),
        entries.len()
    ));
    if interrupted {
        error(format_args!(
            "interrupted after {} reports: the index lists them; run again with --resume to go \
             on",
            entries.len()
        ));
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(puzzles.exit_code(code))
}
