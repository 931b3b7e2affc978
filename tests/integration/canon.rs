//! Canonical forms (§11): invariance under random isomorphs, the form is an isomorph of the
//! input, and it equals a brute-force minimum over all 3,359,232 geometric symmetries.

use crate::common::{data, shared_corpus};
use hdp::canon::{canonical, givens_of, Orientation, Symmetry};
use hdp::Grid;

/// A xorshift generator (same sequence every run).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn shuffled(&mut self, n: u8) -> Vec<u8> {
        let mut p: Vec<u8> = (0..n).collect();
        for i in (1..p.len()).rev() {
            p.swap(i, self.below(i + 1));
        }
        p
    }

    /// A permutation of 0..9 that keeps groups of three together.
    fn lines(&mut self) -> [u8; 9] {
        let mut out = [0; 9];
        for (g, group) in self.shuffled(3).into_iter().enumerate() {
            for (i, x) in self.shuffled(3).into_iter().enumerate() {
                out[3 * g + i] = 3 * group + x;
            }
        }
        out
    }

    fn symmetry(&mut self) -> Symmetry {
        let orientation = [Orientation::AsGiven, Orientation::Transposed][self.below(2)];
        let (rows, columns) = (self.lines(), self.lines());
        let mut digits = [0; 9];
        for (d, x) in digits.iter_mut().zip(self.shuffled(9)) {
            *d = x + 1;
        }
        Symmetry::new(orientation, rows, columns, digits).unwrap()
    }
}

/// The six orders of three things.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Every permutation of 0..9 keeping groups of three together (1,296 of them).
fn all_lines() -> Vec<[usize; 9]> {
    let mut out = Vec::new();
    for groups in ORDERS {
        for a in ORDERS {
            for b in ORDERS {
                for c in ORDERS {
                    let inner = [a, b, c];
                    let mut p = [0; 9];
                    for i in 0..9 {
                        p[i] = 3 * groups[i / 3] + inner[i / 3][i % 3];
                    }
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The smallest isomorph, by trying every geometric symmetry and naming the digits in order of
/// first appearance (written apart from `hdp::canon`, as plainly as possible).
fn brute_force(cells: &[u8; 81]) -> [u8; 81] {
    let lines = all_lines();
    let mut best = [u8::MAX; 81];
    for transposed in [false, true] {
        let source = |r: usize, c: usize| {
            if transposed {
                cells[c * 9 + r]
            } else {
                cells[r * 9 + c]
            }
        };
        for rows in &lines {
            for columns in &lines {
                let mut names = [0u8; 10];
                let mut next = 1;
                let mut candidate = [0u8; 81];
                let mut smaller = false;
                for i in 0..81 {
                    let d = source(rows[i / 9], columns[i % 9]);
                    if d != 0 && names[d as usize] == 0 {
                        names[d as usize] = next;
                        next += 1;
                    }
                    candidate[i] = names[d as usize];
                    if !smaller {
                        if candidate[i] > best[i] {
                            break;
                        }
                        smaller = candidate[i] < best[i];
                    }
                    if i == 80 && smaller {
                        best = candidate;
                    }
                }
            }
        }
    }
    best
}

fn puzzles(name: &str, every: usize) -> Vec<[u8; 81]> {
    data(name).iter().step_by(every).map(givens_of).collect()
}

#[test]
fn random_isomorphs_have_the_same_form_and_the_form_is_an_isomorph() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut all = puzzles("sudoku17-every163.txt", 3);
    all.extend(puzzles("forum-hardest-1106.txt", 4));
    all.extend(puzzles("top95.txt", 1));
    for cells in &all {
        let c = canonical(cells);
        assert_eq!(c.symmetry.apply(cells), c.form);
        assert_eq!(canonical(&c.form).form, c.form, "the form is its own form");
        for _ in 0..8 {
            let s = rng.symmetry();
            let image = s.apply(cells);
            let ci = canonical(&image);
            assert_eq!(ci.form, c.form, "isomorph {image:?} under {s}");
            assert_eq!(ci.symmetry.apply(&image), ci.form);
        }
    }
}

#[test]
fn equals_the_brute_force_minimum() {
    for line in [
        // Golden Nugget, and a 17-clue puzzle.
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ] {
        let cells = givens_of(&line.parse::<Grid>().unwrap());
        assert_eq!(canonical(&cells).form, brute_force(&cells), "{line}");
    }
    let mut few = puzzles("sudoku17-every163.txt", 100);
    few.extend(puzzles("forum-hardest-1106.txt", 125));
    for cells in &few {
        assert_eq!(canonical(cells).form, brute_force(cells), "{cells:?}");
    }
}

#[test]
#[ignore = "heavy: brute force over 3.4 M symmetries for 40 corpus puzzles"]
fn equals_the_brute_force_minimum_on_corpus_samples() {
    let mut all = puzzles("sudoku17-every163.txt", 30);
    all.extend(puzzles("forum-hardest-1106.txt", 25));
    all.extend(puzzles("top95.txt", 8));
    all.extend(puzzles("easy50.txt", 10));
    if let Some(unbiased) = shared_corpus("unbiased-1000.txt") {
        all.extend(unbiased.iter().step_by(100).map(givens_of));
    }
    for cells in &all {
        assert_eq!(canonical(cells).form, brute_force(cells), "{cells:?}");
    }
}

/// The `hdp` binary: `canon`, `classify --dedupe`, `classify --format line|depth`, pencil lines.
#[cfg(feature = "cli")]
mod cli {
    use super::Rng;
    use crate::common::{data_text, scratch};
    use assert_cmd::Command;
    use hdp::canon::{canonical, givens_of, Orientation, Symmetry};
    use hdp::format::to_pencil_line;
    use hdp::Grid;
    use serde::Deserialize;

    fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
        let out = Command::cargo_bin("hdp")
            .unwrap()
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code().unwrap(),
        )
    }

    fn line_of(cells: &[u8; 81]) -> String {
        cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
            .collect()
    }

    /// The first `n` puzzles of top95 and a random isomorph of each after them.
    fn with_isomorphs(n: usize) -> Vec<String> {
        let mut rng = Rng(99);
        let originals: Vec<String> = data_text("top95.txt")
            .lines()
            .take(n)
            .map(str::to_string)
            .collect();
        let mut lines = originals.clone();
        for l in &originals {
            let cells = givens_of(&l.parse::<Grid>().unwrap());
            lines.push(line_of(&rng.symmetry().apply(&cells)));
        }
        lines
    }

    #[test]
    fn canon_prints_each_form_in_order_and_marks_bad_lines() {
        let mut lines = with_isomorphs(20);
        lines.insert(3, "12.4".into());
        let (out, err, code) = run(&["canon", "-j", "2"], &(lines.join("\n") + "\n"));
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("line 4, column 5"), "{err}");
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got.len(), lines.len());
        for (l, g) in lines.iter().zip(&got) {
            match l.parse::<Grid>() {
                Ok(grid) => {
                    let form = canonical(&givens_of(&grid));
                    assert_eq!(*g, form.to_line());
                }
                Err(_) => assert_eq!(*g, "error"),
            }
        }
        // Isomorphs share their original's form.
        assert_eq!(got[..3], got[21..24]);
        assert_eq!(got[4..21], got[24..]);
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SymmetryRecord {
        transposed: bool,
        rows: String,
        columns: String,
        digits: String,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct CanonRecord {
        schema: u32,
        line: usize,
        source: String,
        puzzle: String,
        label: String,
        canonical: String,
        symmetry: SymmetryRecord,
    }

    #[test]
    fn canon_jsonl_gives_the_symmetry_that_maps_the_puzzle_to_its_form() {
        let lines = with_isomorphs(10);
        let (out, err, code) = run(&["canon", "--format", "jsonl"], &(lines.join("\n") + "\n"));
        assert_eq!(code, 0, "{err}");
        for (i, (json, l)) in out.lines().zip(&lines).enumerate() {
            let r: CanonRecord = serde_json::from_str(json).unwrap();
            assert_eq!((r.schema, r.line, r.source.as_str()), (1, i + 1, "-"));
            assert_eq!((r.puzzle.as_str(), r.label.as_str()), (l.as_str(), ""));
            let digits = |s: &str, base: u8| -> [u8; 9] {
                let v: Vec<u8> = s.bytes().map(|b| b - base).collect();
                v.try_into().unwrap()
            };
            let s = Symmetry::new(
                if r.symmetry.transposed {
                    Orientation::Transposed
                } else {
                    Orientation::AsGiven
                },
                digits(&r.symmetry.rows, b'1'),
                digits(&r.symmetry.columns, b'A'),
                digits(&r.symmetry.digits, b'0'),
            )
            .unwrap();
            let cells = givens_of(&l.parse::<Grid>().unwrap());
            let image: String = s
                .apply(&cells)
                .iter()
                .map(|d| char::from(b'0' + d))
                .collect();
            assert_eq!(image, r.canonical);
        }
    }

    #[test]
    fn canon_unique_and_classify_dedupe_keep_the_first_of_each_class() {
        let mut lines: Vec<String> = data_text("easy50.txt")
            .lines()
            .take(6)
            .map(str::to_string)
            .collect();
        let mut rng = Rng(5);
        for i in [4, 0, 4] {
            let cells = givens_of(&lines[i].parse::<Grid>().unwrap());
            lines.push(line_of(&rng.symmetry().apply(&cells)));
        }
        let input = lines.join("\n") + "\n";
        let (all, _, _) = run(&["canon"], &input);
        let (unique, err, code) = run(&["canon", "--unique"], &input);
        assert_eq!(code, 0, "{err}");
        let all: Vec<&str> = all.lines().collect();
        assert_eq!(unique.lines().collect::<Vec<_>>(), all[..6]);
        let (records, err, code) = run(
            &["classify", "--dedupe", "--format", "jsonl", "--no-timing"],
            &input,
        );
        assert_eq!(code, 0, "{err}");
        let kept: Vec<usize> = records
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["line"]
                    .as_u64()
                    .unwrap() as usize
            })
            .collect();
        assert_eq!(kept, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn classify_line_and_depth_formats() {
        let top95 = data_text("top95.txt");
        let lines: Vec<&str> = top95.lines().take(3).collect();
        let input = format!("{}  first\n{}\nbad\n{}\n", lines[0], lines[1], lines[2]);
        let (tsv, _, _) = run(&["classify", "--format", "jsonl", "--no-timing"], &input);
        let records: Vec<serde_json::Value> = tsv
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let (line_out, err, code) = run(&["classify", "--format", "line"], &input);
        assert_eq!(code, 1, "{err}");
        let (depth_out, _, code) = run(&["classify", "--format", "depth"], &input);
        assert_eq!(code, 1);
        let rated: Vec<&str> = line_out.lines().collect();
        let depths: Vec<&str> = depth_out.lines().collect();
        assert_eq!((rated.len(), depths.len()), (4, 4));
        for (i, r) in records.iter().enumerate() {
            let depth = r["depth"]
                .as_u64()
                .map_or("-".to_string(), |d| d.to_string());
            let level = r["level"].as_str().unwrap_or("error");
            let label = r["label"].as_str().unwrap();
            let head = if label.is_empty() {
                r["puzzle"].as_str().unwrap().to_string()
            } else {
                format!("{} {label}", r["puzzle"].as_str().unwrap())
            };
            assert_eq!(rated[i], format!("{head}\t{level}\t{depth}"));
            assert_eq!(depths[i], depth);
        }
        assert!(rated[0].starts_with(&format!("{} first\t", lines[0])));
        assert_eq!(depths[2], "-");
    }

    #[test]
    fn pencil_lines_work_in_every_command_and_bad_ones_name_line_and_column() {
        let puzzle = data_text("top95.txt").lines().next().unwrap().to_string();
        let grid: Grid = puzzle.parse().unwrap();
        let pencil = to_pencil_line(&grid);
        let path = scratch("canon-pencil-lines.txt");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{pencil}\n{puzzle}\n")).unwrap();
        let file = path.to_str().unwrap();
        let (out, err, code) = run(&["solve", file], "");
        assert_eq!(code, 0, "{err}");
        let sols: Vec<&str> = out.lines().collect();
        assert_eq!(sols.len(), 2);
        assert_eq!(sols[0], sols[1]);
        let (out, err, code) = run(&["canon", file], "");
        assert_eq!(code, 0, "{err}");
        let forms: Vec<&str> = out.lines().collect();
        assert_eq!(forms[0], forms[1]);
        // A pencil line as an argument, and a bad one on stdin.
        let (out, _, code) = run(&["solve", &pencil], "");
        assert_eq!((out.trim(), code), (sols[0], 0));
        let mut bad = pencil.clone();
        bad.replace_range(100..101, "x");
        let (_, err, code) = run(&["solve", "-"], &format!("{pencil}\n{bad}\n"));
        assert_eq!(code, 1);
        assert!(err.contains("line 2, column 101"), "{err}");
    }
}
