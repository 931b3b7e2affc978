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
