//! Unit tests of the canonical form: symmetries, and inputs with many automorphisms.

use super::*;
use crate::testing::XorShift;

/// Cells of an 81-character line (`.` or `0` empty).
fn cells(line: &str) -> [u8; 81] {
    let mut out = [0u8; 81];
    for (o, b) in out.iter_mut().zip(line.bytes()) {
        *o = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    out
}

/// A random symmetry.
fn random_symmetry(rng: &mut XorShift) -> Symmetry {
    let shuffled = |rng: &mut XorShift, n: usize| {
        let mut p: Vec<u8> = (0..n as u8).collect();
        for i in (1..n).rev() {
            p.swap(i, rng.below(i + 1));
        }
        p
    };
    let lines = |rng: &mut XorShift| {
        let groups = shuffled(rng, 3);
        let mut out = [0u8; 9];
        for (g, &group) in groups.iter().enumerate() {
            let inner = shuffled(rng, 3);
            for (i, &x) in inner.iter().enumerate() {
                out[3 * g + i] = 3 * group + x;
            }
        }
        out
    };
    let rows = lines(rng);
    let columns = lines(rng);
    let mut digits = [0u8; 9];
    for (d, x) in digits.iter_mut().zip(shuffled(rng, 9)) {
        *d = x + 1;
    }
    let orientation = if rng.below(2) == 0 {
        Orientation::AsGiven
    } else {
        Orientation::Transposed
    };
    Symmetry::new(orientation, rows, columns, digits).unwrap()
}

const GOLDEN_NUGGET: &str =
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn new_refuses_symmetries_that_break_bands_stacks_or_digits() {
    let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    let digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    let broken = [0, 1, 3, 2, 4, 5, 6, 7, 8];
    assert!(Symmetry::new(Orientation::AsGiven, id, id, digits).is_ok());
    assert_eq!(
        Symmetry::new(Orientation::AsGiven, broken, id, digits),
        Err(SymmetryError::Rows(broken))
    );
    assert_eq!(
        Symmetry::new(Orientation::AsGiven, id, broken, digits),
        Err(SymmetryError::Columns(broken))
    );
    let twice = [1, 1, 3, 4, 5, 6, 7, 8, 9];
    assert_eq!(
        Symmetry::new(Orientation::AsGiven, id, id, twice),
        Err(SymmetryError::Digits(twice))
    );
    let moved = [3, 4, 5, 0, 1, 2, 8, 7, 6];
    assert!(Symmetry::new(Orientation::Transposed, moved, moved, digits).is_ok());
}

#[test]
fn inverse_undoes_and_apply_grid_agrees_with_apply() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let puzzle = cells(GOLDEN_NUGGET);
    let grid: Grid = GOLDEN_NUGGET.parse().unwrap();
    for _ in 0..200 {
        let s = random_symmetry(&mut rng);
        let image = s.apply(&puzzle);
        assert_eq!(s.inverse().apply(&image), puzzle, "{s}");
        assert_eq!(givens_of(&s.apply_grid(&grid)), image, "{s}");
    }
    assert_eq!(Symmetry::identity().apply(&puzzle), puzzle);
}

#[test]
fn display_names_rows_columns_and_digits() {
    let s = Symmetry::new(
        Orientation::Transposed,
        [1, 0, 2, 3, 4, 5, 6, 7, 8],
        [2, 1, 0, 3, 4, 5, 8, 7, 6],
        [9, 8, 7, 6, 5, 4, 3, 2, 1],
    )
    .unwrap();
    assert_eq!(
        s.to_string(),
        "transposed rows 213456789 columns CBADEFIHG digits 987654321"
    );
}

#[test]
fn empty_grid_and_a_solution_grid() {
    let empty = canonical(&[0; 81]);
    assert_eq!(empty.form, [0; 81]);
    // A solution grid's first row is all new digits.
    let grid = canonical(&cells(SOLUTION));
    assert_eq!(grid.symmetry.apply(&cells(SOLUTION)), grid.form);
    assert!(grid.to_line().starts_with("123456789"));
    let mut rng = XorShift(77);
    for _ in 0..5 {
        let s = random_symmetry(&mut rng);
        assert_eq!(canonical(&s.apply(&cells(SOLUTION))).form, grid.form);
    }
}

#[test]
fn a_random_isomorph_has_the_same_form() {
    let mut rng = XorShift(12345);
    let puzzle = cells(GOLDEN_NUGGET);
    let form = canonical(&puzzle);
    assert_eq!(form.symmetry.apply(&puzzle), form.form);
    for _ in 0..200 {
        let image = random_symmetry(&mut rng).apply(&puzzle);
        let c = canonical(&image);
        assert_eq!(c.form, form.form);
        assert_eq!(c.symmetry.apply(&image), c.form);
    }
}
