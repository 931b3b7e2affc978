//! The `hdp` binary under faults: a reader that goes away (`| head -1`), a full disk
//! (`> /dev/full`). Every command ends with the documented exit code and at most one clean
//! message, never a panic. The input is generated here, so these tests do not need `../shared`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// The documented exit code when standard output is closed early (`EXIT_BROKEN_PIPE`).
const EXIT_BROKEN_PIPE: i32 = 141;

/// A file of `n` copies of Inkala's puzzle in a fresh temporary directory.
fn puzzles(name: &str, n: usize) -> PathBuf {
    let dir = crate::common::scratch(&format!("faults-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("puzzles.txt");
    std::fs::write(&path, format!("{INKALA}\n").repeat(n)).unwrap();
    path
}

fn bin() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("hdp"))
}

/// The commands and formats that write results to stdout, as argument lists.
const COMMANDS: [&[&str]; 8] = [
    &["chain"],
    &["chain", "--format", "json"],
    &["chain", "--format", "dot"],
    &["solve"],
    &["solve", "--format", "json"],
    &["propagate"],
    &["propagate", "--format", "json"],
    &["classify", "--jobs", "1"],
];

fn label(args: &[&str]) -> String {
    args.join(" ")
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_documented_code() {
    // 4000 lines: far more output than a pipe and the writer's buffer hold.
    let input = puzzles("pipe", 4000);
    for args in COMMANDS {
        let mut child = bin()
            .args(args)
            .arg(&input)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{}: no output", label(args));
        // The reader is dropped here: the pipe is closed with output still to come.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{}: {err}", label(args));
        assert!(
            !err.contains("Broken pipe") && !err.contains("os error"),
            "{}: a closed pipe is not an error to print: {err}",
            label(args)
        );
        assert_eq!(
            out.status.code(),
            Some(EXIT_BROKEN_PIPE),
            "{}: {err}",
            label(args)
        );
    }
}

#[test]
fn a_full_disk_is_one_clean_error_and_exit_2() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let input = puzzles("full", 2000);
    for args in COMMANDS {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = bin()
            .args(args)
            .arg(&input)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{}: {err}", label(args));
        assert_eq!(
            err.trim_end(),
            "hdp: cannot write output: No space left on device",
            "{}",
            label(args)
        );
        assert_eq!(out.status.code(), Some(2), "{}: {err}", label(args));
    }
}

/// Option values and combinations that would be wrong or silently ignored: each is a usage
/// error (exit 2) naming the option, before any work is done.
#[test]
fn bad_values_and_meaningless_combinations_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["chain", "--timeout", "-1"], "--timeout"),
        (&["chain", "--timeout=-1"], "--timeout"),
        (&["chain", "--timeout", "nan"], "--timeout"),
        (&["chain", "--timeout", "inf"], "--timeout"),
        (&["chain", "--timeout", "0"], "--timeout"),
        (&["classify", "--timeout", "-0.5"], "--timeout"),
        (&["report", "--timeout", "NaN"], "--timeout"),
        (&["chain", "--budget", "0"], "--budget"),
        (&["classify", "--budget", "0"], "--budget"),
        (&["classify", "--jobs", "0"], "--jobs"),
        (&["classify", "--jobs", "100000"], "--jobs"),
        (&["chain", "--steps", "--format", "json"], "--steps"),
        (&["chain", "--steps", "--format", "dot"], "--steps"),
        (&["chain", "--steps", "--variant", "analysis"], "--steps"),
        (&["solve", "--count", "--format", "json"], "--count"),
        (&["solve", "--format", "dot"], "dot"),
        (&["propagate", "--format", "dot"], "dot"),
        (&["propagate", "--pretty", "--format", "json"], "--pretty"),
        (
            &["propagate", "--candidates", "--format", "json"],
            "--candidates",
        ),
        (&["propagate", "--stats", "--format", "json"], "--stats"),
        (
            &["render", "tree", "--expand", "all", "--format", "json"],
            "--expand",
        ),
        (
            &["render", "tree", "--max-nodes", "9", "--format", "json"],
            "--max-nodes",
        ),
        (&["render", "tree", "--max-width", "10"], "--max-width"),
        (&["render", "tree", "--max-nodes", "0"], "--max-nodes"),
        (&["render", "tree", "--all", "--expand", "none"], "--all"),
        (&["render", "steps", "-o", "-"], "--output"),
        (&["report", "-o", "-"], "--output"),
        (&["report", "--index", "some.tsv", INKALA], "--index"),
        (
            &["report", "--index", "some.tsv", "--input-format", "line"],
            "--index",
        ),
        (
            &["chain", "--variant", "pr", "--max-depth", "2"],
            "--max-depth",
        ),
        (
            &["chain", "--variant", "vdpr", "--max-depth", "3"],
            "--max-depth",
        ),
        (
            &["chain", "--variant", "analysis", "--max-depth", "2"],
            "--max-depth",
        ),
        (
            &["chain", "--variant", "analysis", "--budget", "5"],
            "--budget",
        ),
        (
            &["chain", "--variant", "analysis", "--timeout", "1"],
            "--timeout",
        ),
        (
            &["chain", "--variant", "analysis", "--proof", "contradiction"],
            "--proof",
        ),
        (
            &["chain", "--variant", "analysis", "--walk", "depth-first"],
            "--walk",
        ),
        (
            &["render", "tree", "--variant", "dpr", "--max-depth", "2"],
            "--max-depth",
        ),
        (
            &["render", "tree", "--variant", "analysis", "--budget", "9"],
            "--budget",
        ),
        (&["classify", "--te", "--decisions", "cell"], "--decisions"),
        (&["classify", "--te", "--profile", "singles"], "--profile"),
        (&["classify", "--te", "--proof", "solution"], "--proof"),
        (&["classify", "--te", "--walk", "depth-first"], "--walk"),
        (&["classify", "--summary", "--summary-only"], "--summary"),
        (&["classify", "--format", "dot"], "dot"),
        (&["classify", "--shard", "2/2"], "--shard"),
        (&["classify", "--shard", "0/0"], "--shard"),
        (&["classify", "--shard", "1"], "--shard"),
        (&["chain", "--max-depth", "7"], "--max-depth"),
        (&["chain", "--decisions", "bogus"], "--decisions"),
        (&["chain", "--profile", "bogus"], "--profile"),
        (&["solve", "--timeout", "0"], "--timeout"),
        (&["propagate", "--pretty", "--candidates"], "--pretty"),
        (&["report", "--max-reports", "3", INKALA], "--max-reports"),
        (&["report", "--max-reports", "3"], "--max-reports"),
        (
            &["report", "--max-total-steps", "3", INKALA],
            "--max-total-steps",
        ),
        (
            &["chain", "--variant", "dpr", "--max-depth", "2"],
            "--max-depth",
        ),
        (
            &["render", "tree", "--variant", "pr", "--max-depth", "1"],
            "--max-depth",
        ),
        (
            &[
                "render",
                "tree",
                "--variant",
                "analysis",
                "--max-depth",
                "2",
            ],
            "--max-depth",
        ),
        (
            &["render", "tree", "--variant", "analysis", "--timeout", "1"],
            "--timeout",
        ),
        (
            &[
                "render",
                "tree",
                "--variant",
                "analysis",
                "--proof",
                "contradiction",
            ],
            "--proof",
        ),
        (
            &[
                "render",
                "tree",
                "--variant",
                "analysis",
                "--walk",
                "depth-first",
            ],
            "--walk",
        ),
    ];
    for (args, names) in cases {
        let out = bin().args(*args).stdin(Stdio::null()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", label(args));
        assert!(out.stdout.is_empty(), "{}", label(args));
        assert!(err.starts_with("error: "), "{}: {err}", label(args));
        assert!(err.contains(names), "{}: {err}", label(args));
    }
}

/// The options a variant does use are accepted with it.
#[test]
fn meaningful_combinations_are_accepted() {
    for args in [
        &[
            "chain",
            "--variant",
            "full",
            "--max-depth",
            "2",
            "--budget",
            "50",
        ][..],
        &[
            "chain",
            "--variant",
            "analysis",
            "--decisions",
            "cell",
            "--profile",
            "singles",
        ],
        &[
            "chain",
            "--variant",
            "pr",
            "--budget",
            "50",
            "--timeout",
            "5",
        ],
        &["chain", "--steps", "--format", "text"],
        &["solve", "--count", "--format", "text"],
        &["propagate", "--stats", "--pretty"],
    ] {
        let out = bin().args(args).arg(INKALA).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.starts_with("error:"), "{}: {err}", label(args));
        assert_ne!(out.status.code(), Some(2), "{}: {err}", label(args));
    }
}

/// `-o -` writes a single-file picture to standard output.
#[test]
fn dash_output_is_standard_output() {
    for args in [
        &["render", "tree", "--variant", "full", "-o", "-"][..],
        &["render", "grid", "-o", "-"],
    ] {
        let out = bin().args(args).arg(INKALA).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", label(args));
        let svg = String::from_utf8(out.stdout).unwrap();
        assert!(svg.starts_with("<svg"), "{}: {svg}", label(args));
        roxmltree::Document::parse(&svg).unwrap();
    }
    // The first-level tree of the pair reduction analysis, as DOT.
    let out = bin()
        .args(["chain", "--variant", "analysis", "--format", "dot", INKALA])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("digraph"));
}

/// A file of four lines: a puzzle, a bad line (line 2), a labelled puzzle, an empty grid (several
/// solutions).
fn mixed() -> PathBuf {
    let dir = crate::common::scratch("faults-mixed");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mixed.txt");
    let text = format!(
        "{INKALA}\nnot a puzzle\n{INKALA} a label\n{}\n",
        ".".repeat(81)
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// The record for a bad input line, read strictly.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorRecord {
    schema: u32,
    line: usize,
    source: String,
    error: String,
}

/// Every JSON format of every command, on good and bad lines: each output line is a JSON
/// object, one per puzzle line, in order; the bad line is an error record with its line number.
#[test]
fn json_output_is_json_lines_with_error_records() {
    let input = mixed();
    let source = input.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["chain", "--format", "json"],
        &["chain", "--format", "jsonl"],
        &["chain", "--format", "json", "--variant", "analysis"],
        &["chain", "--format", "json", "--variant", "pr"],
        &["solve", "--format", "json"],
        &["solve", "--format", "jsonl"],
        &["propagate", "--format", "json"],
        &["propagate", "--format", "jsonl"],
        &["classify", "--format", "jsonl"],
        &["classify", "--format", "json"],
    ];
    for args in cases {
        let out = bin().args(*args).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}: a bad line", label(args));
        let text = String::from_utf8(out.stdout).unwrap();
        let records: Vec<serde_json::Value> = text
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {l}: {e}", label(args)))
            })
            .collect();
        assert_eq!(records.len(), 4, "{}: {text}", label(args));
        let lines: Vec<u64> = records
            .iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, [1, 2, 3, 4], "{}", label(args));
        assert!(records[0]["error"].is_null(), "{}", label(args));
        assert!(
            records[1]["error"].as_str().unwrap().contains("line 2"),
            "{}: {:?}",
            label(args),
            records[1]
        );
        if args[0] == "classify" {
            continue; // classify's own schema, tested in cli.rs
        }
        for r in &records {
            assert_eq!(r["schema"], 1, "{}: {r}", label(args));
            assert_eq!(r["source"], source, "{}: {r}", label(args));
        }
        let e: ErrorRecord = serde_json::from_value(records[1].clone()).unwrap();
        assert_eq!((e.schema, e.line, e.source.as_str()), (1, 2, source));
        assert!(e.error.contains("column 1"), "{e:?}");
    }
}

/// The text formats on the same file: the bad line is reported on stderr with its line number
/// and makes the exit code 1; line-per-puzzle formats keep one output line per input line.
#[test]
fn text_output_reports_bad_lines_and_keeps_alignment() {
    let input = mixed();
    let cases: &[(&[&str], Option<usize>)] = &[
        (&["chain"], None),
        (&["chain", "--format", "dot"], None),
        (&["chain", "--variant", "analysis"], None),
        (&["solve"], Some(4)),
        (&["solve", "--count"], Some(4)),
        (&["propagate"], Some(4)),
        (&["classify"], Some(5)),
    ];
    for (args, lines) in cases {
        let out = bin().args(*args).arg(&input).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", label(args));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("line 2, column 1"), "{}: {err}", label(args));
        let text = String::from_utf8(out.stdout).unwrap();
        if let Some(n) = lines {
            assert_eq!(text.lines().count(), *n, "{}: {text}", label(args));
        }
    }
}

fn run_ok(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", label(args));
    String::from_utf8(out.stdout).unwrap()
}

/// `--version` names the commit and the features; completions and the man page go to stdout;
/// `-q` is accepted before and after the command.
#[test]
fn version_completions_man_and_quiet() {
    let long = run_ok(&["--version"]);
    assert!(
        long.starts_with("hdp 0.1") || long.starts_with("hdp "),
        "{long}"
    );
    assert!(
        long.contains("(git ") && long.contains("features: "),
        "{long}"
    );
    assert!(run_ok(&["-V"]).contains("(git "));
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = run_ok(&["completions", shell]);
        assert!(
            script.contains("hdp") && script.contains("classify"),
            "{shell}"
        );
    }
    let page = run_ok(&["man"]);
    assert!(
        page.contains(".TH hdp 1") && page.contains("classify"),
        "{page}"
    );
    assert_eq!(run_ok(&["-q", "solve", INKALA]).trim().len(), 81);
    assert_eq!(run_ok(&["solve", "--quiet", INKALA]).trim().len(), 81);
}

/// Labels count in words: `1 pair`, not `1 pairs`.
#[test]
fn dot_labels_say_one_pair() {
    for variant in ["analysis", "pr"] {
        // pr leaves Inkala's puzzle unsolved (exit 1); the tree is printed all the same.
        let out = bin()
            .args(["chain", "--format", "dot", "--variant", variant, INKALA])
            .output()
            .unwrap();
        let dot = String::from_utf8(out.stdout).unwrap();
        assert!(dot.contains("start [1 pair]"), "{variant}: {dot}");
        assert!(!dot.contains("1 pairs"), "{variant}: {dot}");
    }
}

/// Every exit code 1 comes with a message on stderr saying why, naming the puzzle's line.
#[test]
fn every_failing_exit_says_why() {
    let no_solution = format!("82{}", &INKALA[2..]);
    let several = ".".repeat(81);
    let dir = crate::common::scratch("faults-why");
    std::fs::create_dir_all(&dir).unwrap();
    let index = dir.join("collection.txt");
    std::fs::write(&index, format!("{INKALA}\n{no_solution}\n{several}\n")).unwrap();
    let report = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "report".into(),
                no_solution.clone(),
                "-o".into(),
                report("r1"),
            ],
            "line 1: the puzzle has no solution",
        ),
        (
            vec!["report".into(), several.clone(), "-o".into(), report("r2")],
            "line 1: the puzzle has several solutions",
        ),
        (
            vec![
                "report".into(),
                "--index".into(),
                index.to_str().unwrap().into(),
                "-o".into(),
                report("r3"),
            ],
            "line 3: the puzzle has several solutions",
        ),
        (
            vec!["solve".into(), no_solution.clone()],
            "line 1: the puzzle has no solution",
        ),
        (
            vec!["solve".into(), "--count".into(), several.clone()],
            "line 1: the puzzle has several solutions",
        ),
        (
            vec!["chain".into(), no_solution.clone()],
            "line 1: the puzzle has no solution",
        ),
        (
            vec!["chain".into(), "--budget".into(), "5".into(), INKALA.into()],
            "line 1: unsolved",
        ),
        (
            vec![
                "render".into(),
                "tree".into(),
                "-o".into(),
                "-".into(),
                no_solution.clone(),
            ],
            "no solution",
        ),
    ];
    for (args, why) in cases {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(out.status.code(), Some(1), "{}: {err}", label(&args));
        assert!(err.starts_with("hdp: "), "{}: {err}", label(&args));
        assert!(err.contains(why), "{}: {err}", label(&args));
    }
    // The index run also names line 2, and still writes every report and the index page.
    let out = bin()
        .args([
            "report",
            "--index",
            index.to_str().unwrap(),
            "-o",
            &report("r4"),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: the puzzle has no solution"), "{err}");
    assert!(dir.join("r4/index.html").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader of stderr that goes away (`hdp ... 2>&1 >/dev/null | head -1`): messages that can no
/// longer be written are dropped, the run goes on and ends with its own exit code, no panic.
#[test]
fn a_closed_stderr_is_not_a_crash() {
    let dir = crate::common::scratch("faults-stderr");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("alternating.txt");
    // 1500 bad lines: far more messages than a pipe holds.
    std::fs::write(&input, format!("{INKALA}\nnot a puzzle\n").repeat(1500)).unwrap();
    for args in [
        &["solve"][..],
        &["propagate", "--format", "json"],
        &["classify", "--jobs", "1"],
    ] {
        let mut child = bin()
            .args(args)
            .arg(&input)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("hdp: "), "{}: {first}", label(args));
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(1), "{}: a panic exits 101", label(args));
    }
}

/// `report --index` survives any label: a name far over the 255-byte limit of a file name still
/// gets its report, in a folder named after a bounded prefix of it.
#[test]
fn report_index_survives_a_label_longer_than_a_file_name() {
    let dir = crate::common::scratch("faults-label");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let long = "Very long name ".repeat(30);
    let table = dir.join("named.tsv");
    std::fs::write(
        &table,
        format!("name\tpuzzle\n{long}\t{INKALA}\nshort\t{INKALA}\n"),
    )
    .unwrap();
    let out = dir.join("out");
    let status = bin()
        .args(["report", "--index"])
        .arg(&table)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("short"), "{index}");
    let folders: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders.len(), 2, "{folders:?}");
    assert!(folders.iter().all(|f| f.len() <= 64), "{folders:?}");
    assert!(folders
        .iter()
        .all(|f| out.join(f).join("index.html").is_file()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 10's reproducer: an empty grid with a few restricted cells has no solution, and the exact
/// solver needed 26 s to prove it. With `--timeout` (or, without, at its node budget) `hdp solve`
/// stops and says which limit it hit, never "no solution".
#[test]
fn solve_stops_at_its_limits_and_says_so() {
    let dir = crate::common::scratch("faults-solve");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hang.txt");
    std::fs::write(&file, HANG).unwrap();
    for (args, why) in [
        (&["--timeout", "0.5"][..], "the time limit passed"),
        (&[][..], "the search-node budget ran out"),
    ] {
        let out = bin().arg("solve").args(args).arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.trim(), format!("unsolved: {why}"));
        assert!(String::from_utf8(out.stderr).unwrap().contains(why));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const HANG: &str = "123456789 123456789 5789 123456789 123456789 123456789 123456789 123456789 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 12369 123456789 1346\n1469 123456789 123456789 123456789 123456789 123456789 12345678 19 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789\n123456789 1359 1359 1359 1359 1359 123456789 123456789 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789\n123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789\n";
