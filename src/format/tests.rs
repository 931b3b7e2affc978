//! Readers and writers: round trips, every supported layout, and errors with line and column.

use super::*;
use crate::grid::{Candidates, Digit};
use proptest::prelude::*;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const TOP95: &str = include_str!("../../tests/data/top95.txt");

fn one(text: &str) -> Result<Puzzle, ParseError> {
    let mut all = parse_puzzles(text, InputFormat::Auto);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

fn inkala() -> Grid {
    INKALA.parse().unwrap()
}

#[test]
fn line_round_trip_and_label() {
    let p = parse_line(&format!("{INKALA}   11.9/1.2  Golden"), 7).unwrap();
    assert_eq!(p.grid.to_line(), INKALA);
    assert_eq!(p.label.as_deref(), Some("11.9/1.2  Golden"));
    assert_eq!(p.line, 7);
    let zeros = INKALA.replace('.', "0");
    assert_eq!(parse_line(&zeros, 1).unwrap().grid, inkala());
    let stars = INKALA.replace('.', "*");
    assert_eq!(parse_line(&stars, 1).unwrap().grid, inkala());
}

#[test]
fn every_top95_puzzle_parses() {
    let all = parse_puzzles(TOP95, InputFormat::Auto);
    assert_eq!(all.len(), 95);
    assert!(all.iter().all(Result::is_ok));
}

#[test]
fn pretty_grid_round_trips_and_is_detected() {
    let text = to_pretty(&inkala());
    assert_eq!(detect(&text), InputFormat::Grid);
    assert_eq!(one(&text).unwrap().grid, inkala());
}

#[test]
fn forum_grid_with_plus_separators() {
    let text = "\
+-------+-------+-------+
| 8 . . | . . . | . . . |
| . . 3 | 6 . . | . . . |
| . 7 . | . 9 . | 2 . . |
+-------+-------+-------+
| . 5 . | . . 7 | . . . |
| . . . | . 4 5 | 7 . . |
| . . . | 1 . . | . 3 . |
+-------+-------+-------+
| . . 1 | . . . | . 6 8 |
| . . 8 | 5 . . | . 1 . |
| . 9 . | . . . | 4 . . |
+-------+-------+-------+
";
    assert_eq!(one(text).unwrap().grid, inkala());
}

#[test]
fn unicode_box_drawing_grid() {
    let text = "\
┌───────┬───────┬───────┐
│ 8 . . │ . . . │ . . . │
│ . . 3 │ 6 . . │ . . . │
│ . 7 . │ . 9 . │ 2 . . │
├───────┼───────┼───────┤
│ . 5 . │ . . 7 │ . . . │
│ . . . │ . 4 5 │ 7 . . │
│ . . . │ 1 . . │ . 3 . │
├───────┼───────┼───────┤
│ . . 1 │ . . . │ . 6 8 │
│ . . 8 │ 5 . . │ . 1 . │
│ . 9 . │ . . . │ 4 . . │
└───────┴───────┴───────┘
";
    assert_eq!(one(text).unwrap().grid, inkala());
}

#[test]
fn simple_sudoku_ss_and_sadman_sdk() {
    let ss = "\
*-----------*
|8..|...|...|
|..3|6..|...|
|.7.|.9.|2..|
|---+---+---|
|.5.|..7|...|
|...|.45|7..|
|...|1..|.3.|
|---+---+---|
|..1|...|.68|
|..8|5..|.1.|
|.9.|...|4..|
*-----------*
";
    assert_eq!(one(ss).unwrap().grid, inkala());
    assert_eq!(
        parse_puzzles(ss, InputFormat::Ss)[0].as_ref().unwrap().grid,
        inkala()
    );
    let sdk = "#AArto Inkala\n#NEverest\n[Puzzle]\n8........\n..36.....\n.7..9.2..\n.5...7...\n....457..\n...1...3.\n..1....68\n..85...1.\n.9....4..\n";
    assert_eq!(detect(sdk), InputFormat::Sdk);
    let p = one(sdk).unwrap();
    assert_eq!(p.grid, inkala());
    assert_eq!(p.label.as_deref(), Some("Everest"));
}

#[test]
fn crlf_and_bom_are_accepted() {
    let text = format!("\u{feff}{INKALA}\r\n{INKALA} x\r\n");
    let all = parse_puzzles(&text, InputFormat::Auto);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].as_ref().unwrap().grid, inkala());
    assert_eq!(all[1].as_ref().unwrap().label.as_deref(), Some("x"));
    let grid = to_pretty(&inkala()).replace('\n', "\r\n");
    assert_eq!(one(&grid).unwrap().grid, inkala());
}

#[test]
fn pencil_grid_round_trips() {
    let mut g = inkala();
    crate::propagate::propagate(&mut g, &crate::propagate::Profile::DEFAULT);
    let text = to_pencil(&g);
    assert_eq!(detect(&text), InputFormat::Pencil);
    assert_eq!(one(&text).unwrap().grid, g);
}

#[test]
fn json_round_trips() {
    let mut g = inkala();
    crate::propagate::propagate(&mut g, &crate::propagate::Profile::SINGLES);
    let j = GridJson::from_grid(&g);
    let text = serde_json::to_string(&j).unwrap();
    let back: GridJson = serde_json::from_str(&text).unwrap();
    assert_eq!(back.to_grid(), Some(g));
}

#[test]
fn wrong_length_names_line_and_column() {
    let e = parse_line(&INKALA[..80], 3).unwrap_err();
    assert_eq!((e.line, e.column), (3, 81));
    assert!(
        e.to_string()
            .starts_with("line 3, column 81: expected 81 cells, found 80"),
        "{e}"
    );
    let e = parse_line(&format!("{INKALA}1"), 4).unwrap_err();
    assert_eq!((e.line, e.column), (4, 82), "{e}");
}

#[test]
fn bad_character_names_line_and_column() {
    let mut bad = INKALA.to_string();
    bad.replace_range(10..11, "x");
    let all = parse_puzzles(&format!("{INKALA}\n{bad}\n"), InputFormat::Auto);
    let e = all[1].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (2, 11));
    assert!(e.to_string().contains("unexpected character 'x'"), "{e}");
    assert!(all[0].is_ok(), "the good line is still read");
}

#[test]
fn duplicate_given_names_line_and_column() {
    let mut bad = INKALA.to_string();
    bad.replace_range(5..6, "8"); // F1 = 8, row 1 already has A1 = 8
    let e = parse_line(&bad, 9).unwrap_err();
    assert_eq!((e.line, e.column), (9, 6));
    assert!(
        e.to_string()
            .contains("duplicate given 8 in row 1 (cells A1 and F1)"),
        "{e}"
    );
    // In a grid: the row and the column of the second given.
    let mut g = to_pretty(&inkala());
    g.replace_range(2..3, "8");
    let e = one(&g).unwrap_err();
    assert_eq!((e.line, e.column), (1, 3), "{e}");
}

#[test]
fn grid_row_errors_name_the_line() {
    let mut lines: Vec<String> = to_pretty(&inkala()).lines().map(String::from).collect();
    lines[2].push_str(" 5"); // a tenth cell in row 3
    let errs: Vec<_> = parse_puzzles(&lines.join("\n"), InputFormat::Grid)
        .into_iter()
        .filter_map(Result::err)
        .collect();
    assert!(
        errs.iter().any(|e| e.line == 3 && e.column == 23),
        "{errs:?}"
    );
}

#[test]
fn context_errors_name_the_column() {
    let e = parse_context("I8: 2,7 + G7: 3,x").unwrap_err();
    assert_eq!(e.column, 17, "{e}");
    let e = parse_context("I8: 2,7 + I8: 3").unwrap_err();
    assert_eq!(e.column, 11, "{e}");
    assert!(e.to_string().contains("named twice"), "{e}");
    let e = parse_context("I8: 2,7 + ").unwrap_err();
    assert_eq!(e.column, 11, "{e}");
    let ok = parse_context("# I8: 3,9 + B1: 6").unwrap();
    assert_eq!(ok.len(), 2);
    // A nested hypothesis is not a position: refused where it starts.
    let e = parse_context("I8: 3,9 # B1: 1,2").unwrap_err();
    assert_eq!(e.column, 9, "{e}");
    assert!(
        e.to_string().contains("join its statements with '+'"),
        "{e}"
    );
    let e = parse_context(" # I8: 3,9 # B1: 1,2").unwrap_err();
    assert_eq!(e.column, 12, "{e}");
    // A value the cell cannot hold (A1 is the given 8).
    let err = apply_context(&inkala(), &parse_context("A1: 5").unwrap()).unwrap_err();
    assert!(err.to_string().contains("cannot hold 5"), "{err}");
    assert!(apply_context(&inkala(), &parse_context("I8: 2,7").unwrap()).is_ok());
}

#[test]
fn hostile_inputs_are_answered_cleanly() {
    assert!(parse_puzzles("", InputFormat::Auto).is_empty());
    assert!(parse_puzzles("\n\n# only comments\n", InputFormat::Auto).is_empty());
    let huge = "1".repeat(10 << 20);
    let e = parse_line(&huge, 1).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::WrongLength { .. }));
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let text = String::from_utf8_lossy(&garbage);
    for f in ["auto", "line", "grid", "sdk", "ss", "pencil"] {
        let _ = parse_puzzles(&text, f.parse().unwrap());
    }
    let solved =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
    assert!(parse_line(solved, 1).unwrap().grid.is_valid_solution());
    assert!(matches!(
        parse_line("   ", 1).unwrap_err().kind,
        ParseErrorKind::Empty
    ));
}

fn candidate_grid() -> impl Strategy<Value = Grid> {
    proptest::collection::vec(1u16..512, 81).prop_map(|v| {
        let mut g = Grid::empty();
        for (c, bits) in Cell::all().zip(v) {
            g.set(c, Candidates::from_bits(bits));
        }
        g
    })
}

proptest! {
    #[test]
    fn parse_line_never_panics(s in ".{0,200}") {
        let _ = parse_line(&s, 1);
        let _ = parse_puzzles(&s, InputFormat::Auto);
        let _ = parse_context(&s);
    }

    #[test]
    fn tables_never_panic(s in "([.1-9a-z\"#,\t\n ]{0,12}|[.1-9]{81}){0,12}", column in "[a-z1-3]{0,2}") {
        for f in [InputFormat::Auto, InputFormat::Tsv, InputFormat::Csv] {
            let _ = parse_puzzles(&s, f);
            let _ = detect_layout(&s, f, Some(&column));
        }
    }

    #[test]
    fn pencil_round_trip(g in candidate_grid()) {
        let text = to_pencil(&g);
        let back = parse_puzzles(&text, InputFormat::Pencil);
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(back[0].as_ref().unwrap().grid, g);
    }

    #[test]
    fn line_round_trip(cells in proptest::collection::vec(0u8..10, 81)) {
        let line: String = cells.iter().map(|&d| if d == 0 { '.' } else { Digit::new(d).unwrap().to_char() }).collect();
        if let Ok(p) = parse_line(&line, 1) {
            prop_assert_eq!(p.grid.to_line(), line);
        }
    }
}

#[test]
fn titled_grids_take_their_title_as_label() {
    let grid = to_pretty(&inkala());
    let text = format!("Grid 01\n{grid}Grid 02\n{grid}");
    let all = parse_puzzles(&text, InputFormat::Auto);
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[0].as_ref().unwrap().label.as_deref(), Some("Grid 01"));
    assert_eq!(all[1].as_ref().unwrap().label.as_deref(), Some("Grid 02"));
    assert_eq!(all[1].as_ref().unwrap().line, 14);
}

#[test]
fn tables_are_found_by_header_name_or_by_their_values() {
    let named = format!("name\tPuzzle\n x \t{INKALA}\n");
    let t = Table::detect(&named, None).unwrap().unwrap();
    assert_eq!((t.delimiter, t.column), (b'\t', 1));
    assert_eq!(
        t.header.as_deref(),
        Some(&["name".to_string(), "Puzzle".into()][..])
    );
    let p = t.puzzle(&[" x ", INKALA], 2).unwrap();
    assert_eq!((p.line, p.label.as_deref()), (2, Some("name=x")));
    // Unnamed columns: the one holding puzzles; its first row is a header when it holds none.
    let anon = format!("id,rating,p\n1,\"a, b\",{INKALA}\n");
    let t = Table::detect(&anon, None).unwrap().unwrap();
    assert_eq!((t.delimiter, t.column, t.header.is_some()), (b',', 2, true));
    assert_eq!(
        split_fields("1,\"a, \"\"b\"\"\",c", b','),
        ["1", "a, \"b\"", "c"]
    );
    let headless = format!("7,{INKALA}\n");
    let t = Table::detect(&headless, None).unwrap().unwrap();
    assert_eq!((t.column, t.header), (1, None));
    // A puzzle first with a tab-separated comment is a puzzle line, not a table.
    assert_eq!(Table::detect(&format!("{INKALA}\t11.9\n"), None), Ok(None));
    assert_eq!(Table::detect(&format!("{INKALA} a, b\n"), None), Ok(None));
    // --column by name or number; an unknown name is an error.
    let t = Table::detect(&named, Some("NAME")).unwrap().unwrap();
    assert_eq!(t.column, 0);
    assert_eq!(Table::detect(&named, Some("2")).unwrap().unwrap().column, 1);
    assert!(Table::detect(&named, Some("grid"))
        .unwrap_err()
        .contains("no such column"));
    // Errors keep the physical line, and the column counts the fields before the puzzle.
    let e = t_err(&named);
    assert_eq!((e.line, e.column), (3, 7));
    // A short row.
    let t = Table::detect(&named, None).unwrap().unwrap();
    let e = t.puzzle(&["only"], 4).unwrap_err();
    assert!(e.to_string().contains("no puzzle column"), "{e}");
}

fn t_err(named: &str) -> ParseError {
    let text = format!("{named}abc\t12x\n");
    parse_puzzles(&text, InputFormat::Auto)
        .pop()
        .unwrap()
        .unwrap_err()
}

#[test]
fn bad_puzzle_lines_without_a_grid_row_are_not_a_grid() {
    let text = format!("{INKALA}\nnot a puzzle\n{}\n{INKALA} x\n", &INKALA[..80]);
    assert_eq!(detect(&text), InputFormat::Line);
    assert_eq!(parse_puzzles(&text, InputFormat::Auto).len(), 4);
    // A lone word with no delimiter is no table header.
    assert_eq!(
        detect_layout(&format!("grid\n{INKALA}\n"), InputFormat::Auto, None),
        Ok(Layout::Lines)
    );
    assert_eq!(
        detect_layout("plain\n", InputFormat::Auto, Some("puzzle")).unwrap_err(),
        "--column: the input is not a table (no tab or comma in its first line)"
    );
}

proptest! {
    /// A 729-character line reads back the candidates the pencil-mark grid format reads from
    /// the pencil writer's text for the same grid, in a file of lines and detected.
    #[test]
    fn pencil_line_reads_the_same_candidates_as_the_pencil_grid(g in candidate_grid()) {
        let from_grid = parse_puzzles(&to_pencil(&g), InputFormat::Pencil);
        let line = to_pencil_line(&g);
        prop_assert_eq!(line.len(), PENCIL_LINE_LEN);
        let text = format!("{line}\n{}  a comment\n", line.replace('.', "0"));
        prop_assert_eq!(detect(&text), InputFormat::Line);
        let from_lines = parse_puzzles(&text, InputFormat::Auto);
        prop_assert_eq!(from_lines.len(), 2);
        prop_assert_eq!(from_lines[0].as_ref().unwrap().grid, from_grid[0].as_ref().unwrap().grid);
        prop_assert_eq!(from_lines[1].as_ref().unwrap().grid, g);
        prop_assert_eq!(from_lines[1].as_ref().unwrap().label.as_deref(), Some("a comment"));
    }
}

#[test]
fn a_pencil_line_of_givens_is_the_puzzle() {
    let line = to_pencil_line(&inkala());
    assert_eq!(&line[..18], ".......8.123456789");
    assert_eq!(parse_line(&line, 1).unwrap().grid, inkala());
}

#[test]
fn bad_pencil_lines_name_line_and_column() {
    let line = to_pencil_line(&inkala());
    // Candidate 3 of B1 written as 4: column 9 + 3.
    let mut bad = line.clone();
    bad.replace_range(11..12, "4");
    let e = parse_puzzles(&format!("{line}\n{bad}\n"), InputFormat::Auto)
        .remove(1)
        .unwrap_err();
    assert_eq!((e.line, e.column), (2, 12), "{e}");
    assert!(e.to_string().contains("candidate 3 of B1"), "{e}");
    // Every candidate of C1 removed.
    let mut none = line.clone();
    none.replace_range(18..27, ".........");
    let e = parse_line(&format!("  {none}"), 5).unwrap_err();
    assert_eq!((e.line, e.column), (5, 21), "{e}");
    assert!(e.to_string().contains("C1 has no candidate"), "{e}");
    // 728 characters: an 81-cell line error, not a pencil line.
    assert!(parse_line(&line[..728], 1).is_err());
}
