//! The command line: clap structs (what the user typed), converted once into library options.

mod canon;
mod chain;
mod classify;
mod files;
mod generate;
mod givens;
mod hint;
mod input;
mod output;
mod render;
mod solve;

use clap::{Args, Parser, Subcommand, ValueEnum};
use hdp::classify::ClassifyOptions;
use hdp::decision::DecisionKinds;
use hdp::engine::{Options, Proof, Recording, Schedule, Status, Walk};
use hdp::format::InputFormat;
use hdp::propagate::Profile;
use hdp::settings::{EngineSettings, Variant};
use std::time::Instant;

pub use input::InputArgs;
pub use output::Output;

/// Exit code: everything went well.
pub const EXIT_OK: i32 = 0;
/// Exit code: a puzzle was invalid, had no unique solution, or was not solved.
pub const EXIT_PUZZLE: i32 = 1;
/// Exit code: bad usage or an I/O error.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: standard output was closed early (`hdp chain FILE | head -1`); the status a shell
/// reports for a program ended by SIGPIPE (128 + 13), as `cat` or `grep` would give. Nothing is
/// printed.
pub const EXIT_BROKEN_PIPE: i32 = 141;

const EXIT_HELP: &str = "\
Exit codes:
  0    success
  1    a puzzle was invalid, unsolvable, had several solutions or was not solved within the limits, a batch had a bad line, or an input held no puzzle (each with a message on stderr)
  2    usage or I/O error (including output that cannot be written, e.g. a full disk)
  130  interrupted by SIGINT (Ctrl-C) or SIGTERM
  141  standard output was closed early (e.g. piped into `head`); nothing is printed

With no command, hdp prints the HDP chain of Arto Inkala's puzzle with the source's method
(`hdp chain --decisions pairs`, the built-in example).";

/// `hdp -V`: the version and the commit it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("HDP_GIT_COMMIT"),
    ")"
);

/// `hdp --version`: also the enabled cargo features and the target.
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("HDP_GIT_COMMIT"),
    ")\nfeatures: ",
    env!("HDP_FEATURES"),
    "\ntarget: ",
    env!("HDP_TARGET")
);

/// Explains why a Sudoku is hard: Hypothesis/Disproof/Proof chains, reduction depth, pictures.
#[derive(Parser, Debug)]
#[command(name = "hdp", version = VERSION, long_version = LONG_VERSION, about, after_help = EXIT_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print only errors on stderr: no progress bar, no notes.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Find the HDP (hypothesis, disproof, proof) chain of each puzzle.
    ///
    /// The chain is the lines of reasoning that solve the puzzle: each line either shows a
    /// hypothesis false (DIS ... => CTR) or proves the solution (PRF ... => SOL).
    #[command(after_help = EXIT_HELP)]
    Chain(chain::ChainArgs),
    /// The next fact to look for: the first step of the shortest proof from the position.
    ///
    /// Prints the lines of the minimal contradiction proof (`hdp chain --minimal --proof
    /// contradiction`) up to the first that establishes a fact, each with its derivation, then
    /// `# next: FACT` (`--reveal` shows less: only where to look, or the fact). Exit 1
    /// when the position has no solution or several, is already solved, or a limit stopped the
    /// analysis.
    #[command(after_help = EXIT_HELP)]
    Hint(hint::HintArgs),
    /// Solve each puzzle exactly: the solution, `no solution` or `multiple solutions`.
    #[command(after_help = EXIT_HELP)]
    Solve(solve::SolveArgs),
    /// Propagate each puzzle ("autosolve") and print the reduced position.
    #[command(after_help = EXIT_HELP)]
    Propagate(solve::PropagateArgs),
    /// Generate puzzles at a level (or depth), unique, optionally minimal and symmetric.
    ///
    /// Each puzzle is rated by the same code as `hdp classify`; no two printed puzzles are
    /// isomorphs, and none is an isomorph of a seed. Puzzles stream as they are found.
    #[command(after_help = EXIT_HELP)]
    Generate(generate::GenerateArgs),
    /// List the redundant givens of each puzzle (those whose removal keeps the solution
    /// unique) and say whether it is minimal.
    #[command(after_help = EXIT_HELP)]
    Givens(givens::GivensArgs),
    /// Classify a collection by reduction depth: one TSV/JSONL record per puzzle line, in order.
    Classify(classify::ClassifyArgs),
    /// The canonical (minlex) form of each puzzle, one per line, in input order.
    Canon(canon::CanonArgs),
    /// Draw a decision tree, a grid, or every step of the chain as SVG.
    #[command(after_help = EXIT_HELP)]
    Render(render::RenderArgs),
    /// Write an HTML report of a puzzle (or, with --index, of a whole collection).
    #[command(after_help = EXIT_HELP)]
    Report(render::ReportArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// For example: hdp completions bash > ~/.local/share/bash-completion/completions/hdp
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): hdp(1), or with a command's name its own page.
    ///
    /// For example: hdp man | man -l -   or   hdp man chain > hdp-chain.1
    Man {
        /// The command whose page is printed (chain, hint, solve, …; default: the hdp(1) page).
        #[arg(value_parser = man_page_names())]
        command: Option<String>,
    },
}

/// `chain --format`: results on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ChainFormat {
    /// Plain text in the notation.
    Text,
    /// JSON Lines: one record per puzzle (alias: jsonl).
    #[value(alias = "jsonl")]
    Json,
    /// Graphviz DOT of the decision tree (with --variant analysis: the first-level tree).
    Dot,
}

/// `solve --format`, `propagate --format`: results on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// Plain text, one result per puzzle.
    Text,
    /// JSON Lines: one record per puzzle (alias: jsonl).
    #[value(alias = "jsonl")]
    Json,
}

/// The engine settings shared by the commands that analyse.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// How many hypotheses one test may nest (1 = pair reduction, 2 = deep, 3 = very deep);
    /// harder puzzles need more, and each level costs far more time. Default 3.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub max_depth: Option<u8>,
    /// Decision kinds: pairs (cell pairs, and constraint pairs only where no cell pair is left:
    /// the source's method), or any of cell, constraint, candidate (comma-separated).
    #[arg(long, default_value = "cell,constraint")]
    pub decisions: DecisionKinds,
    /// When the facts found in a pass are applied: synchronous (all at the end of the pass; the
    /// result does not depend on the grid's orientation) or sequential (the first at once, as
    /// the source's own tool).
    #[arg(long, value_enum, default_value_t = Schedule::Synchronous)]
    pub schedule: Schedule,
    /// Propagation profile: a comma-separated list of profiles (default, singles, none) and
    /// rules, a leading - switching one off, e.g. default,-naked-quad or
    /// naked-single,hidden-single. Rules: naked-single, hidden-single, locked-pointing,
    /// locked-claiming, naked-pair, naked-triple, naked-quad, hidden-pair, hidden-triple,
    /// hidden-quad.
    #[arg(long, default_value = "default")]
    pub profile: Profile,
    /// What proves: reaching the solution (HDP) or only contradictions (trial and error).
    /// Default: solution; for `hint`, contradiction (a hint deduces, it does not reveal).
    #[arg(long, value_enum)]
    pub proof: Option<Proof>,
    /// How hypotheses are walked.
    #[arg(long, value_enum, default_value_t = Walk::BreadthFirst)]
    pub walk: Walk,
    /// The most branch tests per puzzle and run (at least 1; default 1000000 for every command);
    /// past it the analysis ends with UNS.
    #[arg(long, value_parser = parse_budget)]
    pub budget: Option<u64>,
    /// The most seconds per puzzle (a number above 0, e.g. 0.5); past it the analysis ends with UNS.
    #[arg(long, value_parser = parse_timeout, allow_hyphen_values = true)]
    pub timeout: Option<f64>,
}

/// `--budget`: a number of branch tests, at least 1.
fn parse_budget(s: &str) -> Result<u64, String> {
    hdp::settings::budget(s)
}

/// `--timeout`: a finite number of seconds above zero.
pub(crate) fn parse_timeout(s: &str) -> Result<f64, String> {
    hdp::settings::timeout(s)
}

impl EngineArgs {
    /// The settings as typed, for the library (`hdp::settings`, shared with the Python package).
    pub fn settings(&self) -> EngineSettings {
        EngineSettings {
            max_depth: self.max_depth,
            decisions: self.decisions,
            schedule: self.schedule,
            profile: self.profile,
            proof: self.proof.unwrap_or(Proof::Solution),
            walk: self.walk,
            budget: self.budget,
            timeout: self.timeout,
        }
    }

    /// The library options, with `default_depth` unless `--max-depth` was given; the deadline
    /// starts now.
    pub fn options(&self, default_depth: u8) -> Options {
        self.settings().options(default_depth, self.deadline())
    }

    /// The settings of an analysis of `variant` (its depth limit over `--max-depth`), recorded
    /// as `recording`: the one place `chain` and `render` get theirs.
    pub fn analysis_options(&self, variant: Variant, recording: Recording) -> Options {
        let options = self.options(hdp::engine::DEFAULT_MAX_DEPTH);
        Options {
            max_depth: variant.max_depth(options.max_depth),
            recording,
            ..options
        }
    }

    /// The classification settings: those of `--te` or of classification (its depth limit and
    /// budget), with what was typed on top; the deadline is set per puzzle by the caller. (clap
    /// rejects the engine options that `--te` fixes.)
    pub fn classify_options(&self, te: bool) -> ClassifyOptions {
        self.settings().classify_options(te)
    }

    /// The deadline for one puzzle started now.
    pub fn deadline(&self) -> Option<Instant> {
        hdp::settings::deadline_after(Instant::now(), self.timeout)
    }
}

impl Cli {
    /// Combinations of option values that clap's argument relations cannot express (they depend
    /// on a value, not on presence), checked before anything runs: a message for the usage error.
    /// On error: the (sub)command path, for its usage line, and the message. `given` tells
    /// whether an argument (by id) was typed on the command line rather than defaulted.
    pub fn check(&self, given: &dyn Fn(&str) -> bool) -> Result<(), (Vec<&'static str>, String)> {
        let (path, result) = match &self.command {
            Some(Command::Chain(a)) => (vec!["chain"], a.check(given)),
            Some(Command::Solve(a)) => (vec!["solve"], a.check()),
            Some(Command::Propagate(a)) => (vec!["propagate"], a.check()),
            Some(Command::Render(a)) => (vec!["render", a.what.name()], a.check(given)),
            Some(Command::Report(a)) => (vec!["report"], a.check(given)),
            _ => (vec![], Ok(())),
        };
        result.map_err(|msg| (path, msg))
    }
}

/// Engine options that `--variant` makes meaningless, when typed: the first-level analysis
/// uses only the decisions and the profile; pr, dpr and vdpr fix the depth.
pub fn check_variant(variant: Variant, given: &dyn Fn(&str) -> bool) -> Result<(), String> {
    let ignored: &[(&str, &str)] = match variant {
        Variant::Analysis => &[
            ("max_depth", "--max-depth"),
            ("proof", "--proof"),
            ("walk", "--walk"),
            ("budget", "--budget"),
            ("timeout", "--timeout"),
        ],
        Variant::Pr | Variant::Dpr | Variant::Vdpr => &[("max_depth", "--max-depth")],
        Variant::Full => &[],
    };
    match ignored.iter().find(|(id, _)| given(id)) {
        None => Ok(()),
        Some((_, flag)) if variant == Variant::Analysis => Err(format!(
            "{flag} has no effect with --variant analysis (it tests the first level only, with \
             --decisions and --profile)"
        )),
        Some((_, flag)) => Err(format!(
            "{flag} has no effect with --variant pr, dpr or vdpr (they fix the depth at 1, 2, 3); \
             use --variant full"
        )),
    }
}

/// Parses the command line and checks it; usage errors exit 2 with clap's message.
pub fn parse() -> Cli {
    use clap::parser::ValueSource;
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().get_matches();
    // Not the _mut form: that takes the values out, and `given` reads them afterwards.
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let mut leaf = &matches;
    while let Some((_, sub)) = leaf.subcommand() {
        leaf = sub;
    }
    let given = |id: &str| {
        leaf.try_get_raw(id).is_ok_and(|v| v.is_some())
            && leaf.value_source(id) == Some(ValueSource::CommandLine)
    };
    if let Err((path, msg)) = cli.check(&given) {
        let mut cmd = Cli::command();
        cmd.build();
        let mut sub = cmd;
        for name in path {
            match sub.find_subcommand(name) {
                Some(s) => sub = s.clone(),
                None => break,
            }
        }
        sub.error(clap::error::ErrorKind::ArgumentConflict, msg)
            .exit();
    }
    cli
}

/// `hdp completions SHELL`. Generated into memory first: the generator panics on write errors.
fn completions(shell: clap_complete::Shell, out: &mut Output) -> anyhow::Result<i32> {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hdp", &mut script);
    std::io::Write::write_all(out, &script)?;
    Ok(EXIT_OK)
}

/// The exit codes, for `hdp man` (the same as [`EXIT_HELP`]'s; a test compares them).
const EXIT_CODES: [(&str, &str); 5] = [
    ("0", "success"),
    (
        "1",
        "a puzzle was invalid, unsolvable, had several solutions or was not solved within the \
         limits, a batch had a bad line, or an input held no puzzle (each with a message on \
         stderr)",
    ),
    (
        "2",
        "usage or I/O error (including output that cannot be written, e.g. a full disk)",
    ),
    ("130", "interrupted by SIGINT (Ctrl-C) or SIGTERM"),
    (
        "141",
        "standard output was closed early (e.g. piped into `head`); nothing is printed",
    ),
];

/// The commands hdp(1) lists, and the names of their own pages, `hdp-NAME(1)` (a test checks
/// the list against the commands).
const MAN_PAGES: [(&str, &str); 13] = [
    ("chain", "hdp-chain"),
    ("hint", "hdp-hint"),
    ("solve", "hdp-solve"),
    ("propagate", "hdp-propagate"),
    ("generate", "hdp-generate"),
    ("givens", "hdp-givens"),
    ("classify", "hdp-classify"),
    ("canon", "hdp-canon"),
    ("render", "hdp-render"),
    ("report", "hdp-report"),
    ("completions", "hdp-completions"),
    ("man", "hdp-man"),
    ("help", "hdp-help"),
];

/// `hdp man COMMAND`: the commands that have a page.
fn man_page_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(MAN_PAGES.map(|(name, _)| name))
}

/// Text for roff: backslashes, dashes and leading dots or quotes escaped.
fn roff_text(s: &str) -> String {
    let s = s
        .replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\(aq");
    match s.chars().next() {
        Some('.' | '\'') => format!("\\&{s}"),
        _ => s,
    }
}

/// `hdp man [COMMAND]`: the page of hdp, or of one command (`hdp-chain(1)`, the name hdp(1)
/// refers to it by), with the exit codes as a list rather than as reflowed text.
fn man(command: Option<&str>, out: &mut Output) -> anyhow::Result<i32> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    let cmd = match command {
        None => cmd,
        Some(name) => {
            let (name, page) = MAN_PAGES
                .into_iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| anyhow::anyhow!("no command {name}"))?;
            let sub = cmd
                .find_subcommand(name)
                .ok_or_else(|| anyhow::anyhow!("no command {name}"))?
                .clone();
            sub.name(page).display_name(page).version(VERSION)
        }
    };
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut page)?;
    }
    if cmd.has_subcommands() && command.is_none() {
        man.render_subcommands_section(&mut page)?;
    } else if cmd.has_subcommands() {
        // A command's own commands (render tree, grid, steps) have no pages: named in full.
        let mut roff = String::from(".SH COMMANDS\n");
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let full = format!("hdp {} {}", command.unwrap_or_default(), sub.get_name());
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            roff.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                roff_text(&full),
                roff_text(&about)
            ));
        }
        page.extend_from_slice(roff.as_bytes());
    }
    // The exit codes: every page but those of completions, man and help, which print text.
    let exits = !matches!(command, Some("completions" | "man" | "help"));
    // classify's own notes (levels, columns) keep its after-help; the others' is EXIT_HELP.
    if command == Some("classify") {
        man.render_extra_section(&mut page)?;
    }
    if exits {
        let mut roff = String::from(".SH \"EXIT STATUS\"\n");
        for (code, text) in EXIT_CODES {
            roff.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff_text(text)));
        }
        if command.is_none() {
            roff.push_str(&format!(
                ".PP\n{}\n",
                roff_text(
                    "With no command, hdp prints the HDP chain of Arto Inkala's puzzle with the \
                     source's method (hdp chain --decisions pairs, the built-in example)."
                )
            ));
        }
        page.extend_from_slice(roff.as_bytes());
    }
    man.render_version_section(&mut page)?;
    std::io::Write::write_all(out, &page)?;
    Ok(EXIT_OK)
}

/// `--input-format`: the library's names, listed in `--help`.
pub fn input_format_parser() -> impl clap::builder::TypedValueParser<Value = InputFormat> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("auto").help("detect the format (default)"),
        PossibleValue::new("line").help("one 81-character puzzle per line"),
        PossibleValue::new("grid").help("9-line grids, with or without separators"),
        PossibleValue::new("sdk").help("SadMan Software .sdk"),
        PossibleValue::new("ss").help("Simple Sudoku .ss"),
        PossibleValue::new("pencil").help("a pencil-mark grid (81 groups of candidates)"),
        PossibleValue::new("tsv").help("a tab-separated table with a puzzle column"),
        PossibleValue::new("csv").help("a comma-separated table with a puzzle column"),
    ])
    .map(|s| s.parse().unwrap_or(InputFormat::Auto))
}

/// The statements of a `--given` context (none without one); a bad one is a usage error naming
/// its column.
pub fn given_context(text: Option<&str>) -> anyhow::Result<Vec<hdp::Statement>> {
    match text {
        Some(t) => hdp::format::parse_context(t)
            .map_err(|e| anyhow::anyhow!("--given: column {}: {}", e.column, e.kind)),
        None => Ok(Vec::new()),
    }
}

/// Why an analysis ending in `status` makes the exit code 1, in words; `None` when solved.
pub fn status_problem(status: &Status) -> Option<String> {
    hdp::hint::status_problem(status)
}

/// Runs the parsed command line; returns the exit code.
pub fn run(cli: Cli) -> i32 {
    output::set_quiet(cli.quiet);
    let mut out = Output::stdout();
    let result = match cli.command {
        None => chain::run(&chain::ChainArgs::builtin_example(), &mut out),
        Some(Command::Chain(a)) => chain::run(&a, &mut out),
        Some(Command::Hint(a)) => hint::run(&a, &mut out),
        Some(Command::Solve(a)) => solve::run_solve(&a, &mut out),
        Some(Command::Propagate(a)) => solve::run_propagate(&a, &mut out),
        Some(Command::Classify(a)) => classify::run(&a, &mut out),
        Some(Command::Generate(a)) => generate::run(&a, &mut out),
        Some(Command::Givens(a)) => givens::run(&a, &mut out),
        Some(Command::Canon(a)) => canon::run(&a, &mut out),
        Some(Command::Render(a)) => render::run_render(&a, &mut out),
        Some(Command::Report(a)) => render::run_report(&a, &mut out),
        Some(Command::Completions { shell }) => completions(shell, &mut out),
        Some(Command::Man { command }) => man(command.as_deref(), &mut out),
    };
    // What was written before an error is still delivered; the first error decides.
    let flushed = std::io::Write::flush(&mut out);
    match result.and_then(|code| flushed.map(|()| code).map_err(Into::into)) {
        Ok(code) => code,
        Err(e) => output::failure(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_help_and_the_manual_list_the_same_codes() {
        let listed: Vec<&str> = EXIT_HELP
            .lines()
            .skip_while(|l| !l.starts_with("Exit codes:"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        let expected: Vec<String> = EXIT_CODES
            .iter()
            .map(|(code, text)| format!("  {code:<5}{text}"))
            .collect();
        assert_eq!(listed, expected);
    }

    #[test]
    fn every_command_has_its_manual_page() {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        cmd.build();
        let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
        assert_eq!(names, MAN_PAGES.map(|(n, _)| n));
        for (name, page) in MAN_PAGES {
            assert_eq!(page, format!("hdp-{name}"));
        }
    }
}
