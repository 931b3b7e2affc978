//! The `hdp` binary: exit codes, formats, and batch classification (order, shards, parallel).

use assert_cmd::Command;
use hdp::chain::Chain;
use serde::Deserialize;
use std::collections::BTreeMap;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

fn hdp() -> Command {
    Command::cargo_bin("hdp").unwrap()
}

fn stdout(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn no_arguments_prints_inkalas_chain() {
    let (out, _, code) = stdout(&mut hdp());
    assert_eq!(code, 0);
    assert!(out.contains("=> SOL"), "{out}");
    assert!(out.starts_with("DIS # I8: 3,9 "), "{out}");
    let chain: Chain = out.parse().expect("every printed line parses");
    assert_eq!(chain.max_depth(), 2);
}

#[test]
fn steps_and_json_and_dot() {
    let (out, _, code) = stdout(hdp().args(["chain", "--steps", INKALA]));
    assert_eq!(code, 0);
    let chain: Chain = out.parse().unwrap();
    assert!(chain.lines.iter().all(|l| l.position.is_some()));
    assert!(chain
        .lines
        .iter()
        .any(|l| l.marker == hdp::chain::Marker::Hyp));
    let (out, _, _) = stdout(hdp().args(["chain", "--format", "json", INKALA]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["end"], INKALA_SOLUTION);
    assert_eq!(v["depth"], 2);
    let (out, _, _) = stdout(hdp().args(["chain", "--format", "dot", "--variant", "pr", INKALA]));
    assert!(out.starts_with("digraph"), "{out}");
    let (out, _, _) = stdout(hdp().args([
        "chain",
        "--variant",
        "analysis",
        "--decisions",
        "cell",
        INKALA,
    ]));
    assert!(out.contains("PAIRS (1): G8: 3,9"), "{out}");
}

#[test]
fn given_context_resumes_the_analysis() {
    let (out, _, code) = stdout(hdp().args(["chain", "--given", "I8: 2,7 + G7: 3,9", INKALA]));
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .all(|l| l.starts_with('#') || l.starts_with("CNT") || l.contains("I8: 2,7 + G7: 3,9")),
        "{out}"
    );
    let (_, err, code) = stdout(hdp().args(["chain", "--given", "I8: 2,x", INKALA]));
    assert_eq!(code, 2);
    assert!(err.contains("column"), "{err}");
    // A context the solution contradicts: the message names it, not the puzzle alone.
    let (_, err, code) = stdout(hdp().args(["chain", "--given", "I8: 3,9", INKALA]));
    assert_eq!(code, 1);
    assert!(
        err.contains("the puzzle has no solution with --given \"I8: 3,9\""),
        "{err}"
    );
}

#[test]
fn solve_reports_counts_and_exit_codes() {
    let (out, _, code) = stdout(hdp().args(["solve", INKALA]));
    assert_eq!((out.trim(), code), (INKALA_SOLUTION, 0));
    let empty = ".".repeat(81);
    let (out, _, code) = stdout(hdp().args(["solve", "--count", &empty]));
    assert_eq!((out.trim(), code), ("2", 1));
    let mut bad = INKALA.to_string();
    bad.replace_range(1..2, "8");
    let (out, _, code) = stdout(hdp().args(["solve", &bad]));
    assert_eq!(code, 1);
    assert!(
        out.contains("no solution") || out.contains("error"),
        "{out}"
    );
    let (out, _, code) = stdout(hdp().args(["propagate", INKALA]));
    assert_eq!(code, 0);
    assert_eq!(out.trim().len(), 81);
}

#[test]
fn usage_errors_exit_2() {
    let (_, _, code) = stdout(hdp().args(["chain", "--max-depth", "0"]));
    assert_eq!(code, 2);
    let (_, err, code) = stdout(hdp().args(["solve", "/no/such/file"]));
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file"), "{err}");
}

/// The JSON Lines schema, read strictly.
#[derive(Debug, Deserialize, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Record {
    schema: u32,
    source: String,
    line: usize,
    puzzle: String,
    label: String,
    solutions: Option<u8>,
    level: Option<String>,
    depth_pairs: Option<u8>,
    constraint_levels: String,
    pairs_tests: Option<u64>,
    depth: Option<u8>,
    decisions: String,
    profile: String,
    schedule: String,
    tests: u64,
    hypotheses: u64,
    facts: u64,
    limit: Option<String>,
    micros: Option<u64>,
    error: Option<String>,
}

fn batch_input() -> String {
    let top = crate::common::data_text("top95.txt");
    let mut lines: Vec<String> = top.lines().take(30).map(String::from).collect();
    lines.insert(12, "this is not a puzzle".into());
    lines.insert(20, format!("{} a label", ".".repeat(81)));
    lines.join("\n") + "\n"
}

fn classify(args: &[&str], input: &str) -> Vec<Record> {
    let out = hdp()
        .arg("classify")
        .args(args)
        .args(["--format", "jsonl"])
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    if args.is_empty() {
        assert_eq!(
            out.status.code(),
            Some(1),
            "a bad line makes the exit code 1"
        );
    }
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn without_time(mut v: Vec<Record>) -> Vec<Record> {
    for r in &mut v {
        r.micros = None;
    }
    v
}

#[test]
fn classify_keeps_order_and_count_with_bad_lines() {
    let input = batch_input();
    let one = without_time(classify(&["--jobs", "1"], &input));
    let two = without_time(classify(&["--jobs", "2"], &input));
    assert_eq!(one.len(), 32);
    assert_eq!(one, two);
    let lines: Vec<usize> = one.iter().map(|r| r.line).collect();
    assert_eq!(lines, (1..=32).collect::<Vec<_>>());
    assert!(
        one[12].error.as_deref().unwrap().contains("line 13"),
        "{:?}",
        one[12]
    );
    assert_eq!(one[20].solutions, Some(2));
    assert_eq!(one[20].label, "a label");
    assert!(one[0].level.is_some() && one[0].error.is_none());
}

#[test]
fn classify_shards_merge_to_the_whole() {
    let input = batch_input();
    let whole = without_time(classify(&[], &input));
    let mut merged = without_time(classify(&["--shard", "0/2"], &input));
    merged.extend(without_time(classify(&["--shard", "1/2"], &input)));
    merged.sort_by_key(|r| r.line);
    assert_eq!(merged, whole);
}

#[test]
fn classify_tsv_has_the_documented_header_and_summary() {
    let out = hdp()
        .args(["classify", "--summary"])
        .write_stdin(batch_input())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().next().unwrap();
    assert_eq!(header, "line\tpuzzle\tlabel\tsolutions\tlevel\tdepth_pairs\tconstraint_levels\tpairs_tests\tdepth\tdecisions\tprofile\tschedule\ttests\thypotheses\tfacts\tlimit\tmicros\terror");
    assert_eq!(text.lines().count(), 33);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("medium") && err.contains("p50"), "{err}");
}

#[test]
fn gnu_parallel_pipe_keep_order_equals_a_single_run() {
    if std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "GNU parallel is missing in CI"
        );
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let input: String = batch_input()
        .lines()
        .filter(|l| l.len() >= 81)
        .map(|l| format!("{l}\n"))
        .collect();
    let bin = assert_cmd::cargo::cargo_bin("hdp");
    let out = std::process::Command::new("parallel")
        .args(["--will-cite", "--pipe", "--keep-order", "-N", "7"])
        .arg(format!(
            "{} classify --format jsonl --jobs 1",
            bin.display()
        ))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let strip = |text: &str| -> Vec<BTreeMap<String, serde_json::Value>> {
        text.lines()
            .map(|l| {
                let mut m: BTreeMap<String, serde_json::Value> = serde_json::from_str(l).unwrap();
                m.remove("line");
                m.remove("micros");
                m
            })
            .collect()
    };
    let merged = strip(&String::from_utf8(out.stdout).unwrap());
    let single = hdp()
        .args(["classify", "--format", "jsonl"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let single = strip(&String::from_utf8(single.stdout).unwrap());
    assert_eq!(merged.len(), input.lines().count());
    assert_eq!(merged, single);
}

#[test]
fn levels_script_runs_on_a_slice() {
    let bin = assert_cmd::cargo::cargo_bin("hdp");
    let out = std::process::Command::new("bash")
        .arg(format!("{}/analyses/levels.sh", env!("CARGO_MANIFEST_DIR")))
        .arg("5")
        .env("HDP", bin)
        // The committed slices, so that a clone without ../shared runs it too.
        .env(
            "HDP_CORPORA",
            format!("{}/tests/data", env!("CARGO_MANIFEST_DIR")),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("| top95 | 5 |"), "{text}");
    assert!(text.contains("| forum-hardest-1106 | 5 |"), "{text}");
}

#[test]
fn propagate_pretty_and_rule_statistics() {
    let (out, _, code) = stdout(hdp().args(["propagate", "--pretty", INKALA]));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 11);
    assert!(out.starts_with("8 "), "{out}");
    let (out, _, _) = stdout(hdp().args(["propagate", "--format", "json", INKALA]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // Inkala's givens alone leave one pair: no rule finds anything, and applying the givens is
    // not a naked single.
    assert_eq!(v["rules"]["naked-single"], 0);
    assert_eq!(v["pairs"], 1);
    // An easy puzzle (Project Euler 96, grid 1) is solved by the singles the rules find.
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let (out, _, _) = stdout(hdp().args(["propagate", "--format", "json", easy]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["rules"]["naked-single"].as_u64().unwrap() > 0);
}

#[test]
fn classify_with_a_tiny_budget_still_reports_every_line() {
    let forum = crate::common::data_text("forum-hardest-1106.txt");
    let input: String = forum.lines().take(12).map(|l| format!("{l}\n")).collect();
    let records = classify(&["--budget", "40"], &input);
    assert_eq!(records.len(), 12);
    // Each run stops after its 40th test; a puzzle whose level run needs fewer is classified.
    for r in &records {
        assert!(r.tests <= 40 && r.pairs_tests.unwrap_or(0) <= 40, "{r:?}");
        if r.level.as_deref() == Some("unsolved") {
            assert_eq!(r.limit.as_deref(), Some("budget"), "{r:?}");
        } else {
            assert!(
                r.depth_pairs.is_some() && r.pairs_tests.is_some_and(|t| t <= 40),
                "{r:?}"
            );
        }
    }
    let unsolved = records
        .iter()
        .filter(|r| r.level.as_deref() == Some("unsolved"));
    assert!(unsolved.count() >= 10);
    // An unsolved puzzle makes the exit code 1, as documented.
    let status = hdp()
        .args(["classify", "--budget", "40"])
        .write_stdin(input)
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1));
}

/// `--no-timing` leaves out the only fields that change from run to run: two runs are equal byte
/// for byte (records and summary), and the records still carry every other column.
#[test]
fn classify_without_timing_is_byte_for_byte_repeatable() {
    let run = || {
        hdp()
            .args(["classify", "--no-timing", "--summary-only"])
            .write_stdin(batch_input())
            .output()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.stdout, b.stdout);
    let summary = String::from_utf8(a.stdout).unwrap();
    assert!(
        !summary.contains("elapsed") && !summary.contains("micros"),
        "{summary}"
    );
    let out = hdp()
        .args(["classify", "--no-timing"])
        .write_stdin(batch_input())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let micros = text
        .lines()
        .next()
        .unwrap()
        .split('\t')
        .position(|c| c == "micros")
        .unwrap();
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.split('\t').nth(micros) == Some("")),
        "{text}"
    );
}
