//! The setter's commands against checkers written apart from the library: `solve --solutions`
//! and `givens` against a plain backtracking counter, and every puzzle `generate` prints
//! (unique, minimal and symmetric when asked, at its level as `classify` rates it, canonically
//! distinct from the others and from the seeds, the same for the same seed).

use assert_cmd::Command;

/// Arto Inkala's puzzle, with one solution.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn hdp() -> Command {
    Command::cargo_bin("hdp").unwrap()
}

fn run(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The 81 values of a puzzle line (0 = empty).
fn values(line: &str) -> [u8; 81] {
    let mut v = [0u8; 81];
    assert_eq!(line.chars().count(), 81, "{line}");
    for (x, c) in v.iter_mut().zip(line.chars()) {
        *x = c.to_digit(10).unwrap_or(0) as u8;
    }
    v
}

/// Whether `d` may go in cell `i` of `g`: no equal value in its row, column or box.
fn fits(g: &[u8; 81], i: usize, d: u8) -> bool {
    let (r, c) = (i / 9, i % 9);
    (0..9).all(|k| {
        let (br, bc) = (r / 3 * 3 + k / 3, c / 3 * 3 + k % 3);
        g[r * 9 + k] != d && g[k * 9 + c] != d && g[br * 9 + bc] != d
    })
}

/// The solutions of `g` up to `cap`, by plain backtracking on the empty cell with the fewest
/// digits that fit (the obvious algorithm, sharing nothing with the library's solver).
fn naive_solutions(g: &[u8; 81], cap: usize) -> Vec<[u8; 81]> {
    fn go(g: &mut [u8; 81], cap: usize, out: &mut Vec<[u8; 81]>) {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in (0..81).filter(|&i| g[i] == 0) {
            let digits: Vec<u8> = (1..=9).filter(|&d| fits(g, i, d)).collect();
            if best.as_ref().map_or(true, |(_, b)| digits.len() < b.len()) {
                best = Some((i, digits));
            }
        }
        let Some((i, digits)) = best else {
            out.push(*g);
            return;
        };
        for d in digits {
            if out.len() >= cap {
                return;
            }
            g[i] = d;
            go(g, cap, out);
            g[i] = 0;
        }
    }
    // Clashing givens: no solution.
    for i in 0..81 {
        let d = g[i];
        if d != 0 {
            let mut h = *g;
            h[i] = 0;
            if !fits(&h, i, d) {
                return Vec::new();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut g.clone(), cap, &mut out);
    out
}

#[test]
fn solutions_lists_distinct_solutions_and_the_cells_that_differ() {
    // Inkala's puzzle without A1 has 292 solutions.
    let mut line = INKALA.to_string();
    line.replace_range(0..1, ".");
    let givens = values(&line);
    let all = naive_solutions(&givens, 1000);
    assert!(all.len() > 3, "{}", all.len());
    let (out, err, code) = run(hdp().args(["solve", "--solutions", "3", &line]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("several solutions"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# line 1: more than 3 solutions, the first 3");
    let listed: Vec<[u8; 81]> = lines[1..4].iter().map(|l| values(l)).collect();
    for (k, s) in listed.iter().enumerate() {
        assert!(all.contains(s), "not a solution: {}", lines[1 + k]);
        assert!(listed[..k].iter().all(|t| t != s), "listed twice");
    }
    // The cells named are exactly those where two listed solutions differ.
    let differ: Vec<String> = (0..81)
        .filter(|&i| listed.iter().any(|s| s[i] != listed[0][i]))
        .map(|i| format!("{}{}", (b'A' + (i % 9) as u8) as char, i / 9 + 1))
        .collect();
    assert_eq!(
        lines[4],
        format!("# {} cells differ: {}", differ.len(), differ.join(" "))
    );
    assert_eq!(lines.len(), 5);
    // Asking for all of them: the count is the naive count, and JSON says there are no more.
    let n = all.len().to_string();
    let (out, _, _) = run(hdp().args(["solve", "--format", "json", "--solutions", &n, &line]));
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["solutions"], all.len());
    assert_eq!(record["more"], false);
    let mut grids: Vec<[u8; 81]> = record["grids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| values(g.as_str().unwrap()))
        .collect();
    grids.sort();
    let mut expected = all.clone();
    expected.sort();
    assert_eq!(grids, expected);
    // A unique puzzle: its solution, exit 0.
    let (out, _, code) = run(hdp().args(["solve", "--solutions", "5", INKALA]));
    assert_eq!(code, 0);
    let unique = naive_solutions(&values(INKALA), 2);
    assert_eq!(unique.len(), 1);
    assert_eq!(out.lines().nth(1).map(values), Some(unique[0]));
    assert_eq!(out.lines().count(), 2, "{out}");
}

/// Whether `g` has exactly one solution, by the plain counter.
fn naive_unique(g: &[u8; 81]) -> bool {
    naive_solutions(g, 2).len() == 1
}

/// The givens whose removal alone leaves `g` unique, by the plain counter, as cell names.
fn naive_redundant(g: &[u8; 81]) -> Vec<String> {
    (0..81)
        .filter(|&i| g[i] != 0)
        .filter(|&i| {
            let mut h = *g;
            h[i] = 0;
            naive_unique(&h)
        })
        .map(|i| format!("{}{}", (b'A' + (i % 9) as u8) as char, i / 9 + 1))
        .collect()
}

#[test]
fn givens_agrees_with_a_brute_force_check() {
    let solution = naive_solutions(&values(INKALA), 2)[0];
    // Inkala's puzzle (minimal), and with two and with five of its solution's values added.
    let mut puzzles = vec![values(INKALA)];
    for extra in [[1usize, 40].as_slice(), &[1, 2, 3, 40, 79]] {
        let mut g = values(INKALA);
        for &i in extra {
            g[i] = solution[i];
        }
        puzzles.push(g);
    }
    for g in puzzles {
        let line: String = g
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect();
        let (out, err, code) = run(hdp().args(["givens", "--format", "json", &line]));
        assert_eq!(code, 0, "{err}");
        let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let redundant: Vec<String> = record["redundant"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        let expected = naive_redundant(&g);
        assert_eq!(redundant, expected, "{line}");
        assert_eq!(record["minimal"], expected.is_empty());
        let (text, _, _) = run(hdp().args(["givens", &line]));
        assert_eq!(text.starts_with("minimal"), expected.is_empty(), "{text}");
    }
    // Several solutions: exit 1 with a message.
    let (_, err, code) = run(hdp().args(["givens", &format!(".{}", &INKALA[1..])]));
    assert_eq!(code, 1);
    assert!(err.contains("several solutions"), "{err}");
}

/// The image of cell `i` under the symmetry named `name`.
fn image(name: &str, i: usize) -> usize {
    let (r, c) = (i / 9, i % 9);
    match name {
        "central" => (8 - r) * 9 + 8 - c,
        "diagonal" => c * 9 + r,
        "antidiagonal" => (8 - c) * 9 + 8 - r,
        "horizontal" => (8 - r) * 9 + c,
        "vertical" => r * 9 + 8 - c,
        _ => i,
    }
}

/// Runs `hdp generate ARGS --format jsonl` and checks every puzzle it prints: unique and (with
/// `--minimal`) minimal by the plain counter, symmetric, rated `level` by `hdp classify`, with
/// a canonical form of its own that is no seed's. Returns the puzzles.
fn check_generated(args: &[&str], level: &str, minimal: bool, symmetry: &str) -> Vec<String> {
    let mut cmd = hdp();
    cmd.arg("generate").args(args).args(["--format", "jsonl"]);
    let (out, err, code) = run(&mut cmd);
    assert_eq!(code, 0, "{args:?}: {err}");
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let puzzles: Vec<String> = records
        .iter()
        .map(|r| r["puzzle"].as_str().unwrap().to_string())
        .collect();
    let mut forms = std::collections::HashSet::new();
    let seeds: std::collections::HashSet<String> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/generate-seeds.txt"
    ))
    .unwrap()
    .lines()
    .map(|l| hdp::generate::canonical_of(&l.parse().unwrap()))
    .collect();
    for (r, p) in records.iter().zip(&puzzles) {
        let g = values(p);
        assert!(naive_unique(&g), "{p}: not unique");
        if minimal {
            assert_eq!(
                naive_redundant(&g),
                Vec::<String>::new(),
                "{p}: not minimal"
            );
        }
        assert!(
            (0..81).all(|i| (g[i] == 0) == (g[image(symmetry, i)] == 0)),
            "{p}: not {symmetry}"
        );
        assert_eq!(r["level"], level, "{p}");
        let canonical = r["canonical"].as_str().unwrap().to_string();
        assert_eq!(canonical, hdp::generate::canonical_of(&p.parse().unwrap()));
        assert!(!seeds.contains(&canonical), "{p}: an isomorph of a seed");
        assert!(forms.insert(canonical), "{p}: printed twice");
    }
    // `hdp classify` rates them the same, by itself.
    let (rated, err, code) = run(hdp()
        .args(["classify", "--format", "jsonl", "--no-timing"])
        .args(&puzzles));
    assert_eq!(code, 0, "{err}");
    for (line, p) in rated.lines().zip(&puzzles) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["level"], level, "{p}: classify rates it otherwise");
    }
    puzzles
}

#[test]
fn generated_puzzles_are_unique_at_their_level_and_distinct() {
    for level in ["trivial", "easy", "medium"] {
        let p = check_generated(
            &["--level", level, "-n", "4", "--seed", "3"],
            level,
            false,
            "none",
        );
        assert_eq!(p.len(), 4);
    }
    let p = check_generated(
        &[
            "--level",
            "medium",
            "-n",
            "3",
            "--minimal",
            "--symmetry",
            "central",
            "--givens",
            "20..32",
        ],
        "medium",
        true,
        "central",
    );
    assert!(p
        .iter()
        .all(|l| (20..=32).contains(&l.chars().filter(|c| *c != '.').count())));
    let p = check_generated(
        &["--level", "hard", "-n", "3", "--seed", "9"],
        "hard",
        false,
        "none",
    );
    assert_eq!(p.len(), 3);
    check_generated(
        &[
            "--level",
            "hard",
            "-n",
            "2",
            "--minimal",
            "--symmetry",
            "diagonal",
        ],
        "hard",
        true,
        "diagonal",
    );
    let p = check_generated(
        &["--level", "deep", "-n", "2", "--seed", "4"],
        "deep",
        false,
        "none",
    );
    assert_eq!(p.len(), 2);
}

#[test]
fn generate_stops_when_its_output_is_closed() {
    // `| head -1`: one puzzle, and hdp stops at its next write long before its own limits
    // (a million puzzles or 100 s), quietly.
    let started = std::time::Instant::now();
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "\"$0\" generate --level easy -n 1000000 --timeout 100 --seed 6 | head -1",
        ])
        .arg(assert_cmd::cargo::cargo_bin("hdp"))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let (text, err) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(
        elapsed < std::time::Duration::from_secs(50),
        "still running after the pipe closed: {elapsed:?}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
    let puzzle = text.split(' ').next().unwrap();
    assert!(naive_unique(&values(puzzle)), "{text}");
    assert!(text.contains(" # easy "), "{text}");
    assert_eq!(err, "", "no message for a closed pipe");
}

#[test]
fn sigint_keeps_the_puzzles_printed_whole() {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hdp"))
        .args([
            "generate",
            "--level",
            "easy",
            "-n",
            "1000000",
            "--timeout",
            "200",
        ])
        .args(["--seed", "8", "-j", "2", "--format", "jsonl"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    for _ in 0..3 {
        stdout.read_line(&mut out).unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (code, err) = crate::common::interrupt_and_finish(child, &mut stdout, &mut out);
    assert_eq!(code, Some(130), "{err}");
    assert!(out.ends_with('\n'), "the last puzzle is whole");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.len() >= 3 && lines.len() < 1_000_000,
        "{}",
        lines.len()
    );
    let mut forms = std::collections::HashSet::new();
    for (i, l) in lines.iter().enumerate() {
        let r: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(r["line"], i + 1, "in order, no gap");
        assert_eq!(r["level"], "easy");
        assert!(forms.insert(r["canonical"].to_string()), "printed twice");
        if i < 10 {
            assert!(naive_unique(&values(r["puzzle"].as_str().unwrap())), "{l}");
        }
    }
    assert!(
        err.contains(&format!(
            "interrupted: {} of 1000000 puzzles printed",
            lines.len()
        )),
        "{err}"
    );
}

#[test]
fn the_same_seed_gives_the_same_puzzles_whatever_the_jobs() {
    for level in ["medium", "hard"] {
        let runs: Vec<String> = ["1", "2", "3"]
            .iter()
            .map(|j| {
                let (out, err, code) = run(hdp().args([
                    "generate", "--level", level, "-n", "4", "--seed", "11", "-j", j,
                ]));
                assert_eq!(code, 0, "{err}");
                out
            })
            .collect();
        assert_eq!(runs[0], runs[1]);
        assert_eq!(runs[0], runs[2]);
        let (other, _, _) =
            run(hdp().args(["generate", "--level", level, "-n", "4", "--seed", "12"]));
        assert_ne!(runs[0], other);
    }
}

#[test]
fn generate_stops_at_its_limits_and_rejects_bad_options() {
    // No extreme puzzle within one attempt: exit 1 with a note, nothing printed.
    let (out, err, code) = run(hdp().args([
        "generate", "--level", "extreme", "--budget", "1", "--steps", "2",
    ]));
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert!(err.contains("0 of 1 puzzles"), "{err}");
    for bad in [
        ["--givens", "30..20"].as_slice(),
        &["--symmetry", "spiral"],
        &["--level", "hard", "--depth", "2"],
        &["--count", "0"],
    ] {
        let (_, err, code) = run(hdp().arg("generate").args(bad));
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    let path = std::env::temp_dir().join("hdp-generate-bad-seeds.txt");
    std::fs::write(&path, format!("{INKALA}\n{}x\n", &INKALA[..80])).unwrap();
    let (_, err, code) = run(hdp()
        .args(["generate", "--level", "hard", "--from"])
        .arg(&path));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2"), "{err}");
}
