//! The faults of issue 29's audit, one reproducer each: a report that ran forever, writers that
//! followed symlinks, a progress bar that read FIFOs, report folders that collided, an
//! interrupted index, budgets, a solver limit reported as no solution, labels in HTML.
//!
//! Each test runs the binary; `HDP_BIN` names another binary to run them against (an older
//! build, to see them fail there). Every run has a time limit, so a hang fails instead of
//! blocking the suite.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: `HDP_BIN` when set, else this build's `hdp`.
fn bin() -> Command {
    match std::env::var_os("HDP_BIN") {
        Some(path) => Command::new(path),
        None => Command::new(assert_cmd::cargo::cargo_bin("hdp")),
    }
}

/// What a run left: stdout, stderr and the exit code (`None` when it was killed at its limit).
struct Run {
    out: String,
    err: String,
    code: Option<i32>,
}

/// Runs `cmd` with no standard input for at most `limit`, killing it then.
fn run_for(cmd: &mut Command, limit: Duration) -> Run {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s).unwrap_or_default()
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).map(|_| s).unwrap_or_default()
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        out: out.join().unwrap(),
        err: err.join().unwrap(),
        code,
    }
}

/// A fresh, empty scratch folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = crate::common::scratch(&format!("defects-faults-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Issue 10's context on an empty grid as a pencil-mark grid: no solution, which propagation
/// sees at once (five cells of row 5 share four values) and the exact solver only after
/// millions of nodes.
fn hostile_pencil() -> String {
    let mut cells = vec!["123456789"; 81];
    let context = [
        ("C1", "5789"),
        ("G2", "12369"),
        ("I2", "1346"),
        ("A3", "1469"),
        ("G3", "12345678"),
        ("H3", "19"),
        ("B5", "1359"),
        ("C5", "1359"),
        ("D5", "1359"),
        ("E5", "1359"),
        ("F5", "1359"),
    ];
    for (cell, marks) in context {
        let b = cell.as_bytes();
        let index = usize::from(b[1] - b'1') * 9 + usize::from(b[0] - b'A');
        cells[index] = marks;
    }
    cells
        .chunks(9)
        .map(|row| row.join(" ") + "\n")
        .collect::<String>()
}

fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_report_on_a_grid_without_solution_ends_within_its_limits() {
    let dir = folder("report-forever");
    let input = write_file(&dir, "hostile.txt", &hostile_pencil());
    let out = dir.join("report");
    let start = Instant::now();
    let r = run_for(
        bin()
            .args(["report", "--timeout", "1", "--budget", "10", "-o"])
            .arg(&out)
            .arg(&input),
        Duration::from_secs(30),
    );
    assert_eq!(r.code, Some(1), "ran {:?}: {}", start.elapsed(), r.err);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(r.err.contains("no solution"), "{}", r.err);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("has no solution"), "the page says why");
}

#[test]
fn a_solver_limit_is_an_unknown_count_named_as_the_solvers() {
    let dir = folder("solver-limit");
    // Singles alone do not see the contradiction, so the solver's node budget decides.
    let input = write_file(&dir, "hostile.txt", &hostile_pencil());
    let r = run_for(
        bin()
            .args(["classify", "--format", "jsonl", "--input-format", "pencil"])
            .arg(&input),
        Duration::from_secs(60),
    );
    assert_eq!(r.code, Some(1), "{}", r.err);
    let record: serde_json::Value = serde_json::from_str(r.out.trim()).unwrap();
    assert_eq!(record["solutions"], serde_json::Value::Null, "{record}");
    assert_eq!(record["limit"], "solver", "{record}");
    assert_eq!(record["level"], "unsolved", "{record}");
    assert_eq!(record["error"], serde_json::Value::Null, "{record}");
    let r = run_for(
        bin()
            .args(["chain", "--input-format", "pencil"])
            .arg(&input),
        Duration::from_secs(60),
    );
    assert_eq!(r.code, Some(1), "{}", r.err);
    assert!(
        r.err.contains("solver") && !r.err.contains("branch-test"),
        "{}",
        r.err
    );
}
