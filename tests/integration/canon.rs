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
