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

/// The path of the binary under test: `HDP_BIN` when set, else this build's `hdp`.
fn bin_path() -> PathBuf {
    match std::env::var_os("HDP_BIN") {
        Some(path) => PathBuf::from(path),
        None => assert_cmd::cargo::cargo_bin("hdp"),
    }
}

/// The binary under test (see [`bin_path`]).
fn bin() -> Command {
    Command::new(bin_path())
}

/// What a run left: stdout, stderr and the exit code (`None` when it was killed at its limit).
struct Run {
    out: String,
    err: String,
    code: Option<i32>,
}

/// A started child with threads reading its stdout and stderr to the end.
struct Started {
    child: std::process::Child,
    out: std::thread::JoinHandle<String>,
    err: std::thread::JoinHandle<String>,
}

/// Starts `cmd` with no standard input, its outputs read by threads (so a full pipe never
/// blocks it).
fn start(cmd: &mut Command) -> Started {
    start_reading_after(cmd, Duration::ZERO)
}

/// [`start`], its standard output left unread for `delay` (so that a large output blocks).
fn start_reading_after(cmd: &mut Command, delay: Duration) -> Started {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read_all = |mut pipe: Box<dyn Read + Send>, delay: Duration| {
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            let mut s = String::new();
            pipe.read_to_string(&mut s).map(|_| s).unwrap_or_default()
        })
    };
    let out = read_all(Box::new(child.stdout.take().unwrap()), delay);
    let err = read_all(Box::new(child.stderr.take().unwrap()), Duration::ZERO);
    Started { child, out, err }
}

impl Started {
    /// Waits for the child (killed after `limit`, its code then `None`) and its outputs.
    fn finish(mut self, limit: Duration) -> Run {
        let start = Instant::now();
        let code = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status.code();
            }
            if start.elapsed() > limit {
                self.child.kill().unwrap();
                self.child.wait().unwrap();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Run {
            out: self.out.join().unwrap(),
            err: self.err.join().unwrap(),
            code,
        }
    }
}

/// Runs `cmd` with no standard input for at most `limit`, killing it then.
fn run_for(cmd: &mut Command, limit: Duration) -> Run {
    start(cmd).finish(limit)
}

impl Run {
    /// Asserts the exit code (the stderr in the message) and gives the run back.
    fn expect(self, code: i32) -> Run {
        assert_eq!(self.code, Some(code), "{}", self.err);
        self
    }
}

/// Sends SIGINT to process `pid`.
fn interrupt(pid: u32) {
    let kill = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
}

/// `report --index TABLE -o OUT` with `args` before, for at most `limit`.
fn index_run(args: &[&str], table: &Path, out: &Path, limit: Duration) -> Run {
    run_for(
        bin()
            .arg("report")
            .args(args)
            .arg("--index")
            .arg(table)
            .arg("-o")
            .arg(out),
        limit,
    )
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
    )
    .expect(1);
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
    )
    .expect(1);
    assert!(
        r.err.contains("solver") && !r.err.contains("branch-test"),
        "{}",
        r.err
    );
}

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// A file holding `text` outside the output folder, which no run may change or remove.
fn outside_file(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, "outside").unwrap();
    path
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(unix)]
#[test]
fn writers_replace_symlinked_files_and_refuse_symlinked_folders() {
    use std::os::unix::fs::symlink;
    let dir = folder("symlinks");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let page = outside_file(&elsewhere, "page.html");
    let picture = outside_file(&elsewhere, "picture.svg");
    let step = outside_file(&elsewhere, "step-000-sta.svg");

    // A report folder whose index.html and tree.svg are links: the links are replaced.
    let out = dir.join("report");
    std::fs::create_dir_all(&out).unwrap();
    symlink(&page, out.join("index.html")).unwrap();
    symlink(&picture, out.join("tree.svg")).unwrap();
    run_for(
        bin().args(["report", "--max-steps", "0", "-o"]).arg(&out),
        Duration::from_secs(60),
    )
    .expect(0);
    for (file, link) in [(&page, "index.html"), (&picture, "tree.svg")] {
        assert_eq!(std::fs::read_to_string(file).unwrap(), "outside", "{link}");
        assert!(!is_link(&out.join(link)), "{link} is a file now");
    }

    // A steps/ that is a link: refused, and nothing in it is removed or written.
    symlink(&elsewhere, out.join("steps")).unwrap();
    let r = run_for(
        bin().args(["report", "--max-steps", "2", "-o"]).arg(&out),
        Duration::from_secs(60),
    )
    .expect(2);
    assert!(r.err.contains("symbolic link"), "{}", r.err);
    assert!(step.exists(), "a step file outside was removed");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 3);

    // A step file that is a link (render steps), and a tree picture that is one (render tree).
    let steps = dir.join("steps");
    std::fs::create_dir_all(&steps).unwrap();
    symlink(&step, steps.join("step-000-sta.svg")).unwrap();
    run_for(
        bin()
            .args(["render", "steps", "--max-steps", "1", "-o"])
            .arg(&steps),
        Duration::from_secs(60),
    )
    .expect(0);
    assert_eq!(std::fs::read_to_string(&step).unwrap(), "outside");
    let tree = dir.join("tree.svg");
    symlink(&picture, &tree).unwrap();
    run_for(
        bin().args(["render", "tree", "-o"]).arg(&tree),
        Duration::from_secs(60),
    )
    .expect(0);
    assert_eq!(std::fs::read_to_string(&picture).unwrap(), "outside");

    // An index whose report folder is a link: refused.
    let index = dir.join("index");
    std::fs::create_dir_all(&index).unwrap();
    symlink(&elsewhere, index.join("a")).unwrap();
    let table = write_file(&dir, "a.tsv", &format!("puzzle\tname\n{INKALA}\ta\n"));
    index_run(
        &["--max-steps", "1"],
        &table,
        &index,
        Duration::from_secs(60),
    )
    .expect(2);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 3);
    assert!(!elsewhere.join("index.html").exists());
    for file in [&page, &picture, &step] {
        assert_eq!(std::fs::read_to_string(file).unwrap(), "outside");
    }
}

#[test]
fn an_empty_output_name_is_an_error_and_step_pictures_do_not_go_stale() {
    // Run in a folder of its own: a binary with the fault writes into the current folder.
    let here = folder("empty-name");
    for args in [
        &["report", "-o", ""][..],
        &["render", "steps", "-o", ""],
        &["render", "tree", "-o", ""],
        &["render", "grid", "-o", ""],
    ] {
        let r = run_for(bin().args(args).current_dir(&here), Duration::from_secs(60));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
        assert!(r.err.contains("empty"), "{args:?}: {}", r.err);
    }
    let dir = folder("stale-steps");
    let steps = dir.join("steps");
    run_for(
        bin().args(["render", "steps", "-o"]).arg(&steps),
        Duration::from_secs(60),
    )
    .expect(0);
    let all = std::fs::read_dir(&steps).unwrap().count();
    assert!(all > 3, "{all}");
    std::fs::write(steps.join("notes.txt"), "mine").unwrap();
    run_for(
        bin()
            .args(["render", "steps", "--max-steps", "2", "-o"])
            .arg(&steps),
        Duration::from_secs(60),
    )
    .expect(0);
    let mut left: Vec<String> = std::fs::read_dir(&steps)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(left.contains(&"notes.txt".to_string()), "{left:?}");
}

#[test]
fn index_folders_are_unique_whatever_the_labels() {
    let dir = folder("unique-folders");
    let table = write_file(
        &dir,
        "labels.tsv",
        &format!("puzzle\tname\n{INKALA}\ta\n{INKALA}\ta-4\n{INKALA}\ta\n"),
    );
    let out = dir.join("index");
    index_run(
        &["--max-steps", "0"],
        &table,
        &out,
        Duration::from_secs(120),
    )
    .expect(0);
    let folders = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(folders, 3, "one folder per report");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let mut links: Vec<&str> = index
        .split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .filter(|l| l.ends_with("/index.html"))
        .collect();
    links.sort();
    let n = links.len();
    links.dedup();
    assert_eq!((n, links.len()), (3, 3), "{links:?}");
}

/// Runs `command` (a bash command line) on a pseudo-terminal (`script`), as a user at a
/// terminal would, for at most `limit`.
fn on_terminal(command: &str, limit: Duration) -> Run {
    run_for(
        Command::new("script").args(["-qec", command, "/dev/null"]),
        limit,
    )
}

#[cfg(unix)]
#[test]
fn classify_at_a_terminal_reads_fifos_and_process_substitutions() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to give the binary a terminal");
        return;
    }
    let dir = folder("fifo");
    let puzzles = write_file(&dir, "puzzles.txt", &format!("{INKALA}\n").repeat(5));
    let hdp = std::env::var("HDP_BIN").unwrap_or_else(|_| {
        assert_cmd::cargo::cargo_bin("hdp")
            .to_string_lossy()
            .into_owned()
    });
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (p, f) = (puzzles.display(), fifo.display());
    for command in [
        format!("bash -c '{hdp} classify --jobs 1 <(cat {p})'"),
        format!("bash -c 'cat {p} > {f} & {hdp} classify --jobs 1 {f}; wait'"),
    ] {
        let r = on_terminal(&command, Duration::from_secs(60));
        assert_eq!(r.code, Some(0), "{command}: {}{}", r.out, r.err);
        assert_eq!(r.out.matches(INKALA).count(), 5, "{command}: {}", r.out);
    }
}

#[test]
fn a_budget_of_n_tests_allows_n_and_render_tree_fails_when_unsolved() {
    let r = run_for(
        bin().args(["chain", "--budget", "10"]),
        Duration::from_secs(60),
    )
    .expect(1);
    assert!(r.out.contains(", 10 tests,"), "{}", r.out);
    let dir = folder("tree-unsolved");
    let tree = dir.join("tree.svg");
    let r = run_for(
        bin()
            .args(["render", "tree", "--budget", "10", "-o"])
            .arg(&tree),
        Duration::from_secs(60),
    )
    .expect(1);
    assert!(r.err.contains("budget"), "{}", r.err);
    assert!(
        tree.is_file(),
        "the picture of what was found is still written"
    );
}

/// The report folders of `out` that hold a finished report.
fn finished_reports(out: &Path) -> usize {
    std::fs::read_dir(out).map_or(0, |d| {
        d.filter(|e| e.as_ref().unwrap().path().join(".hdp-entry.json").is_file())
            .count()
    })
}

#[cfg(unix)]
#[test]
fn an_interrupted_index_lists_what_is_finished_and_resumes() {
    let dir = folder("interrupted-index");
    let rows: String = (1..=40).map(|i| format!("{INKALA}\tp{i}\n")).collect();
    let table = write_file(&dir, "many.tsv", &format!("puzzle\tname\n{rows}"));
    let out = dir.join("index");
    let run = start(
        bin()
            .args(["report", "--max-steps", "0", "--index"])
            .arg(&table)
            .arg("-o")
            .arg(&out),
    );
    let began = Instant::now();
    while finished_reports(&out) < 2 && began.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(run.child.id());
    let err = run.finish(Duration::from_secs(120)).expect(130).err;
    assert!(err.contains("--resume"), "{err}");
    let done = finished_reports(&out);
    assert!((2..40).contains(&done), "{done}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(
        index.matches("/index.html\"").count(),
        done,
        "the index lists what finished"
    );
    let kept = std::fs::metadata(out.join("p1").join(".hdp-entry.json"))
        .unwrap()
        .modified()
        .unwrap();
    let args = ["--max-steps", "0", "--resume"];
    index_run(&args, &table, &out, Duration::from_secs(300)).expect(0);
    assert_eq!(finished_reports(&out), 40);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("/index.html\"").count(), 40);
    let again = std::fs::metadata(out.join("p1").join(".hdp-entry.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(kept, again, "a finished report is kept, not written again");
}

#[test]
fn control_characters_and_bidi_overrides_of_labels_are_shown_escaped() {
    let dir = folder("hostile-labels");
    let label = "evil\u{0}\u{1b}[31m\u{202e}txt";
    let table = write_file(
        &dir,
        "labels.tsv",
        &format!("puzzle\tname\n{INKALA}\t{label}\n"),
    );
    let out = dir.join("index");
    index_run(
        &["--max-steps", "0"],
        &table,
        &out,
        Duration::from_secs(120),
    )
    .expect(0);
    let report = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    for page in [out.join("index.html"), report.join("index.html")] {
        let html = std::fs::read_to_string(&page).unwrap();
        for c in ['\u{0}', '\u{1b}', '\u{202e}'] {
            assert!(!html.contains(c), "{}: raw {c:?}", page.display());
        }
        assert!(html.contains("\\u{202E}"), "{}", page.display());
    }
}

#[cfg(unix)]
#[test]
fn classify_says_what_each_interrupt_does_and_how_many_records_stay() {
    let dir = folder("classify-interrupts");
    // Enough work that no machine finishes before the signals (about 20 s on one core); the
    // signals end the run long before.
    let hard = write_file(
        &dir,
        "hard.txt",
        &crate::common::data_text("forum-hardest-1106.txt").repeat(20),
    );
    let run = start(bin().args(["classify", "--jobs", "1"]).arg(&hard));
    std::thread::sleep(Duration::from_millis(1500));
    let pid = run.child.id();
    interrupt(pid);
    std::thread::sleep(Duration::from_millis(30));
    interrupt(pid);
    let Run { out, err, .. } = run.finish(Duration::from_secs(120)).expect(130);
    assert!(err.contains("interrupted: finishing"), "{err}");
    let records = out.lines().count().saturating_sub(1);
    assert!(
        err.contains(&format!("after {records} records")),
        "{records} records: {err}"
    );
}

#[test]
fn chain_output_stops_at_the_deadline() {
    // About 160 KB of steps, found in well under a second: more than the pipe and the output
    // buffer hold, so writing blocks while nothing reads, until past the deadline.
    let puzzle = crate::common::data_text("forum-hardest-1106.txt")
        .lines()
        .nth(8)
        .unwrap()
        .to_string();
    let args = [
        "chain",
        "--steps",
        "--why",
        "--decisions",
        "candidate",
        "--proof",
        "contradiction",
    ];
    let whole = run_for(bin().args(args).arg(&puzzle), Duration::from_secs(120)).expect(0);
    assert!(whole.out.len() > 150_000, "{}", whole.out.len());
    let timeout = 4;
    let r = start_reading_after(
        bin()
            .args(args)
            .args(["--timeout", &timeout.to_string()])
            .arg(&puzzle),
        Duration::from_secs(timeout + 2),
    )
    .finish(Duration::from_secs(120))
    .expect(1);
    assert!(
        r.err.contains("output stopped at the deadline"),
        "{}",
        r.err
    );
    assert!(r.out.len() < whole.out.len(), "{}", r.out.len());
    let last = r.out.lines().last().unwrap();
    assert!(
        last.starts_with("# output stopped at the deadline (--timeout) after "),
        "{last}"
    );
    // What was written is whole lines of the full output.
    let kept = r.out.len() - last.len() - 1;
    assert_eq!(r.out[..kept], whole.out[..kept]);
}

/// Every file under `dir` (relative path, contents), sorted.
fn tree_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                found.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn an_index_built_in_parallel_is_the_one_built_in_order() {
    let dir = folder("parallel-index");
    let forum = crate::common::data_text("forum-hardest-1106.txt");
    let mut rows: Vec<String> = forum
        .lines()
        .take(5)
        .enumerate()
        .map(|(i, l)| format!("{}\tp{}\n", &l[..81], i % 3))
        .collect();
    rows.insert(2, "not a puzzle\tbad\n".into());
    rows.push(format!("{INKALA}\tinkala\n"));
    let table = write_file(
        &dir,
        "many.tsv",
        &format!("puzzle\tname\n{}", rows.concat()),
    );
    // Step pictures run out part-way (--max-total-steps), which depends on the order.
    let args = |jobs: &'static str| ["--max-steps", "3", "--max-total-steps", "7", "--jobs", jobs];
    let one = dir.join("one");
    let r1 = index_run(&args("1"), &table, &one, Duration::from_secs(300)).expect(1);
    let two = dir.join("two");
    let r2 = index_run(&args("3"), &table, &two, Duration::from_secs(300)).expect(1);
    assert_eq!(
        r1.err,
        r2.err
            .replace(&*two.to_string_lossy(), &one.to_string_lossy())
    );
    assert!(r1.err.contains("line 4, column 1"), "{}", r1.err);
    let (a, b) = (tree_files(&one), tree_files(&two));
    assert!(a.len() > 10, "{}", a.len());
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }
    // Not a terminal: no progress bar.
    assert!(
        !r2.err.contains('\r') && !r2.err.contains(" left)"),
        "{}",
        r2.err
    );
}

#[test]
fn chain_dot_wraps_wide_nodes_and_has_a_legend() {
    let puzzle = crate::common::data_text("forum-hardest-1106.txt")
        .lines()
        .next()
        .unwrap()
        .to_string();
    let r = run_for(
        bin().args(["chain", "--format", "dot"]).arg(&puzzle),
        Duration::from_secs(120),
    )
    .expect(0);
    let mut children = std::collections::BTreeMap::<&str, usize>::new();
    let mut invisible = 0;
    for line in r.out.lines() {
        let Some((from, rest)) = line.trim().split_once(" -> ") else {
            continue;
        };
        if rest.contains("style=invis") {
            invisible += 1;
        } else if !from.starts_with("legend") {
            *children.entry(from).or_default() += 1;
        }
    }
    // Each node's children past the first row of 4 hang from the row above.
    let wrapped: usize = children.values().map(|&c| c.saturating_sub(4)).sum();
    assert!(wrapped > 0, "a tree with wide nodes");
    assert_eq!(invisible, wrapped);
    assert!(r.out.contains("subgraph cluster_legend"), "{}", r.out);
    assert!(r.out.contains("contradiction (CTR)"));
    // Graphviz lays it out (where it is installed) about half as wide as it did before the
    // wrapping: 3,696 pt against 7,703 pt for this puzzle.
    let Ok(mut dot) = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    else {
        eprintln!("skipped the layout: no Graphviz `dot`");
        return;
    };
    use std::io::Write;
    dot.stdin
        .take()
        .unwrap()
        .write_all(r.out.as_bytes())
        .unwrap();
    let laid = dot.wait_with_output().unwrap();
    assert!(laid.status.success(), "dot failed");
    let svg = String::from_utf8(laid.stdout).unwrap();
    let width: f64 = svg
        .split("<svg width=\"")
        .nth(1)
        .and_then(|w| w.split("pt\"").next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no width in {}", &svg[..svg.len().min(400)]));
    assert!(width < 5_000.0, "{width} pt wide");
}

/// On a terminal, `classify` draws a progress bar on stderr and clears it at the end, and its
/// results are those of a run without a terminal. `script` (util-linux) gives the command a
/// terminal for stderr while stdout goes to a file; the test is skipped where it is missing.
#[test]
fn classify_draws_progress_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to give hdp a terminal");
        return;
    }
    let dir = crate::common::scratch("progress-terminal");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/forum-hardest-1106.txt");
    let hdp = bin_path();
    let (out, log) = (dir.join("out.tsv"), dir.join("terminal.log"));
    let quote = |p: &Path| format!("'{}'", p.display());
    let command = format!(
        "{} classify -j1 --no-timing {} > {}",
        quote(&hdp),
        quote(&input),
        quote(&out)
    );
    let status = Command::new("script")
        .args(["-q", "-e", "-c", &command])
        .arg(&log)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let terminal = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    assert!(
        terminal.contains("/375 puzzles"),
        "no progress bar: {terminal}"
    );
    // The bar is cleared: the last thing drawn erases the line.
    let last = terminal.trim_end().rsplit('\r').next().unwrap_or("");
    assert!(!last.contains("puzzles"), "the bar stays: {last:?}");
    let piped = run_for(
        bin().args(["classify", "-j1", "--no-timing"]).arg(&input),
        Duration::from_secs(120),
    )
    .expect(0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), piped.out);
}
