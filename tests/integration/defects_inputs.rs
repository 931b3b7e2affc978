//! What users tripped over (issue 29, inputs and messages): grids pasted with blank cells, CRLF
//! tables, a pencil-mark grid with a missing group, several puzzles where one is drawn, empty
//! inputs, error wording. Each test failed on e1da5b0.

use assert_cmd::Command;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const INKALA_SOLUTION: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

/// The binary under test: `HDP_BIN` when set (an older build, to see a test fail there), else
/// this build's `hdp`.
fn hdp() -> Command {
    match std::env::var_os("HDP_BIN") {
        Some(path) => Command::new(path),
        None => Command::cargo_bin("hdp").unwrap(),
    }
}

fn run(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn temp_file(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = crate::common::scratch("defects-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

/// The cells of `puzzle` row by row, `None` for an empty cell.
fn rows(puzzle: &str) -> Vec<Vec<Option<char>>> {
    let cells: Vec<Option<char>> = puzzle.chars().map(|c| (c != '.').then_some(c)).collect();
    cells.chunks(9).map(<[_]>::to_vec).collect()
}

/// A forum paste: `+-------+` rules, `|` between boxes, a blank for an empty cell.
fn boxed(puzzle: &str) -> String {
    let rule = "+-------+-------+-------+\n";
    let mut out = String::from(rule);
    for (r, row) in rows(puzzle).iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if c % 3 == 0 {
                out.push_str("| ");
            }
            out.push(cell.unwrap_or(' '));
            out.push(' ');
        }
        out.push_str("|\n");
        if r % 3 == 2 {
            out.push_str(rule);
        }
    }
    out
}

/// A web table: every cell boxed, `+---+` rules, a blank for an empty cell.
fn celled(puzzle: &str) -> String {
    let rule = format!("{}+\n", "+---".repeat(9));
    let mut out = rule.clone();
    for row in rows(puzzle) {
        for cell in row {
            out.push_str(&format!("| {} ", cell.unwrap_or(' ')));
        }
        out.push_str("|\n");
        out.push_str(&rule);
    }
    out
}

/// A spreadsheet copy: tab-separated, empty cells empty (a row of empty cells is only tabs).
fn spreadsheet(puzzle: &str) -> String {
    rows(puzzle)
        .iter()
        .map(|row| {
            let fields: Vec<String> = row
                .iter()
                .map(|c| c.map(String::from).unwrap_or_default())
                .collect();
            fields.join("\t") + "\r\n"
        })
        .collect()
}

#[test]
fn grids_pasted_with_blank_cells_are_read_in_three_styles() {
    // A puzzle with an empty row, so that a blank row must count as a row.
    let mut sparse = INKALA.to_string();
    sparse.replace_range(36..45, ".........");
    for (style, make) in [
        ("boxed", boxed as fn(&str) -> String),
        ("celled", celled),
        ("spreadsheet", spreadsheet),
    ] {
        let path = temp_file(&format!("{style}.txt"), make(INKALA).as_bytes());
        let (out, err, code) = run(hdp().args(["solve"]).arg(&path));
        assert_eq!((out.trim(), code), (INKALA_SOLUTION, 0), "{style}: {err}");
        let (out, err, _) = run(hdp()
            .args(["solve", "--input-format", "grid", "--count", "-"])
            .write_stdin(make(&sparse)));
        assert_eq!(
            out.trim(),
            "2",
            "{style}: the sparse grid read as itself: {err}"
        );
        // Two grids in one file, and the second is read from its own first line.
        let two = format!("{}\n{}", make(INKALA), make(INKALA));
        let (out, err, code) = run(hdp()
            .args(["classify", "--format", "jsonl", "-"])
            .write_stdin(two));
        assert_eq!(code, 0, "{style}: {err}");
        assert_eq!(out.matches(INKALA).count(), 2, "{style}: {out}");
    }
    // Blank cells with nothing to fix their place: one plain message per grid row, no cascade
    // of unexpected characters.
    let ambiguous: String = rows(INKALA)
        .iter()
        .map(|row| row.iter().map(|c| c.unwrap_or(' ')).collect::<String>() + "\n")
        .collect();
    let (_, err, code) = run(hdp().args(["solve", "-"]).write_stdin(ambiguous));
    assert_eq!(code, 1);
    assert!(err.contains("write empty cells as . or 0"), "{err}");
    assert!(!err.contains("unexpected character"), "{err}");
    assert_eq!(err.lines().count(), 1, "one error for the one grid: {err}");
}

/// The physical line of every puzzle of a table (the lines holding an 81-character puzzle
/// field), counted here independently of the reader.
fn puzzle_lines(text: &str) -> Vec<usize> {
    text.split('\n')
        .enumerate()
        .filter(|(_, l)| {
            !l.starts_with('#')
                && l.split(['\t', ',']).any(|f| {
                    f.trim().len() == 81 && f.trim().chars().all(|c| c == '.' || c.is_ascii_digit())
                })
        })
        .map(|(i, _)| i + 1)
        .collect()
}

fn json_lines(out: &str) -> Vec<usize> {
    out.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["line"].as_u64().unwrap() as usize
        })
        .collect()
}

#[test]
fn crlf_tables_number_their_lines_as_lf_ones() {
    // famous.tsv with a comment, blank lines and a quoted CSV field over two lines.
    let tsv = crate::common::data_text("famous.tsv");
    let mut lines: Vec<&str> = tsv.lines().take(8).collect();
    lines.insert(3, "# a comment");
    lines.insert(5, "");
    lines.insert(6, "");
    let lf = lines.join("\n") + "\n";
    let expected = puzzle_lines(&lf);
    assert_eq!(expected.len(), 7);
    let crlf = lf.replace('\n', "\r\n");
    // Old Mac files end lines with a CR alone.
    let cr = lf.replace('\n', "\r");
    for (name, text) in [("lf.tsv", &lf), ("crlf.tsv", &crlf), ("cr.tsv", &cr)] {
        let path = temp_file(name, text.as_bytes());
        let (out, err, _) = run(hdp()
            .args([
                "classify",
                "--format",
                "jsonl",
                "--budget",
                "50",
                "--no-timing",
            ])
            .arg(&path));
        assert_eq!(json_lines(&out), expected, "{name}: {err}");
        let (out, _, _) = run(hdp().args(["classify", "--budget", "50"]).arg(&path));
        let tsv: Vec<usize> = out
            .lines()
            .skip(1)
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(tsv, expected, "{name} TSV");
        let (out, _, _) = run(hdp().args(["solve", "--format", "json"]).arg(&path));
        assert_eq!(json_lines(&out), expected, "{name} solve");
    }
    let csv = format!("name,puzzle\r\n# c\r\n\r\n\"two\r\nlines\",{INKALA}\r\nx,{INKALA}\r\n");
    let path = temp_file("crlf.csv", csv.as_bytes());
    let (out, err, _) = run(hdp().args(["solve", "--format", "json"]).arg(&path));
    assert_eq!(json_lines(&out), [4, 6], "{err}");
    let path = temp_file("cr.csv", csv.replace("\r\n", "\r").as_bytes());
    let (out, err, _) = run(hdp().args(["solve", "--format", "json"]).arg(&path));
    assert_eq!(json_lines(&out), [4, 6], "CR only: {err}");
    // One puzzle per line, CR only: every line read, numbered as with LF.
    let path = temp_file("cr.txt", format!("# c\r{INKALA}\r\r{INKALA}\r").as_bytes());
    let (out, err, _) = run(hdp().args(["solve", "--format", "json"]).arg(&path));
    assert_eq!(json_lines(&out), [2, 4], "CR only lines: {err}");
}

#[test]
fn a_pencil_grid_with_a_missing_group_names_its_row() {
    let (grid, _, _) = run(hdp().args(["propagate", "--candidates", INKALA]));
    let mut lines: Vec<String> = grid.lines().map(String::from).collect();
    // Row 5 is the sixth line (a rule line after row 3): drop its first group.
    let row5 = lines[5].trim_start().split_once(' ').unwrap().1.to_string();
    lines[5] = row5;
    let text = lines.join("\n") + "\n";
    for format in ["auto", "pencil"] {
        let (_, err, code) = run(hdp()
            .args(["solve", "--input-format", format, "-"])
            .write_stdin(text.clone()));
        assert_eq!(code, 1, "{format}");
        assert!(err.contains("line 6, column 1: a pencil-mark grid needs 9 groups of candidates in each row: row 5 has 8"), "{format}: {err}");
        assert_eq!(err.lines().count(), 1, "{format}: {err}");
    }
}

#[test]
fn several_puzzles_are_refused_where_one_is_drawn() {
    let two = format!("{INKALA}\n# second\n{INKALA}\n");
    let dir = crate::common::scratch("defects-inputs-several");
    let _ = std::fs::remove_dir_all(&dir);
    for args in [
        vec!["render", "grid", "-o"],
        vec!["render", "tree", "-o"],
        vec!["render", "steps", "-o"],
        vec!["report", "-o"],
    ] {
        let out = dir.join(args[args.len() - 2]);
        let (_, err, code) = run(hdp()
            .args(&args)
            .arg(&out)
            .arg("-")
            .write_stdin(two.clone()));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("-: several puzzles (line 1, line 3, …)"),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

#[test]
fn an_empty_input_is_one_error_everywhere() {
    let empty = temp_file("empty.txt", b"# only a comment\n\n");
    let expected = "empty.txt: line 1, column 1: no puzzle found";
    for args in [
        vec!["solve"],
        vec!["propagate"],
        vec!["chain"],
        vec!["hint"],
        vec!["classify"],
        vec!["render", "grid", "-o", "-"],
        vec!["report", "-o"],
        vec!["report", "-o"],
    ] {
        let mut cmd = hdp();
        cmd.args(&args);
        if args[0] == "report" {
            cmd.arg(crate::common::scratch("defects-inputs-empty-report"));
        }
        let (_, err, code) = run(cmd.arg(&empty));
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let out = crate::common::scratch("defects-inputs-empty-index");
    let _ = std::fs::remove_dir_all(&out);
    let (_, err, code) = run(hdp()
        .args(["report", "-o"])
        .arg(&out)
        .arg("--index")
        .arg(&empty));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(expected), "{err}");
    assert!(
        !out.join("index.html").exists(),
        "an empty index was written"
    );
}

#[test]
fn errors_have_one_form() {
    // An input error names the input once, no empty source before it.
    let dir = crate::common::scratch("defects-inputs-dir");
    std::fs::create_dir_all(&dir).unwrap();
    for cmd in ["chain", "hint", "solve", "classify"] {
        let (_, err, code) = run(hdp().arg(cmd).arg(&dir));
        assert_eq!(code, 2, "{cmd}");
        assert!(
            err.starts_with(&format!("hdp: cannot read {}: ", dir.display())),
            "{cmd}: {err}"
        );
        assert!(!err.contains("os error"), "{cmd}: {err}");
    }
    // A puzzle's problem: `SOURCE: line L: …`, as a parse error's `SOURCE: line L, column C: …`.
    let empty = ".".repeat(81);
    for cmd in ["chain", "solve", "hint"] {
        let (_, err, _) = run(hdp().args([cmd, &empty]));
        assert!(err.contains("argument 1: line 1: "), "{cmd}: {err}");
    }
}

#[test]
fn render_and_report_say_what_they_wrote() {
    let dir = crate::common::scratch("defects-inputs-wrote");
    let _ = std::fs::remove_dir_all(&dir);
    let grid = dir.join("g.svg");
    let (_, err, code) = run(hdp().args(["render", "grid", "-o"]).arg(&grid));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with(&format!("hdp: wrote {} (", grid.display())),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let steps = dir.join("steps");
    let (_, err, _) = run(hdp().args(["render", "steps", "-o"]).arg(&steps));
    let n = std::fs::read_dir(&steps).unwrap().count();
    assert!(
        err.contains(&format!(
            "hdp: wrote {n} step pictures to {}",
            steps.display()
        )),
        "{err}"
    );
    let report = dir.join("report");
    let (_, err, _) = run(hdp().args(["report", "-o"]).arg(&report));
    assert!(
        err.contains(&format!(
            "hdp: wrote {}",
            report.join("index.html").display()
        )),
        "{err}"
    );
    // Quiet, and nothing said for standard output.
    let (_, err, _) = run(hdp().args(["render", "grid", "-q", "-o"]).arg(&grid));
    assert!(err.is_empty(), "{err}");
    let (_, err, _) = run(hdp().args(["render", "grid", "-o", "-"]));
    assert!(err.is_empty(), "{err}");
}

/// A table like famous.tsv with rating columns around the puzzle column, CRLF.
fn rated_table() -> String {
    let tsv = crate::common::data_text("famous.tsv");
    let mut out = String::from("name\tgrade\tpuzzle\tse\r\n");
    for (i, line) in tsv.lines().skip(1).take(3).enumerate() {
        let (name, puzzle) = line.split_once('\t').unwrap();
        out.push_str(&format!("{name}\tExtreme {i}\t{puzzle}\t{}.5\r\n", 10 + i));
    }
    out.push_str("broken\tnone\tnot a puzzle\t\r\n");
    out
}

#[test]
fn an_input_tables_columns_come_back_as_fields() {
    let path = temp_file("rated.tsv", rated_table().as_bytes());
    let (out, err, _) = run(hdp()
        .args([
            "classify",
            "--budget",
            "20",
            "--no-timing",
            "--format",
            "jsonl",
        ])
        .arg(&path));
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4, "{err}");
    assert_eq!(
        records[1]["input"],
        serde_json::json!({"name": "Trompe l'oeil", "grade": "Extreme 1", "se": "11.5"})
    );
    assert_eq!(
        records[3]["input"]["name"], "broken",
        "a bad row keeps its columns"
    );
    // TSV: the same values in their own columns after hdp's, read back by a CSV reader.
    let (out, _, _) = run(hdp()
        .args(["classify", "--budget", "20", "--no-timing"])
        .arg(&path));
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_reader(out.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header[header.len() - 3..],
        ["input.name", "input.grade", "input.se"]
    );
    assert_eq!(header[header.len() - 4], "error", "hdp's columns first");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    for (row, json) in rows.iter().zip(&records) {
        for k in ["name", "grade", "se"] {
            let i = header
                .iter()
                .position(|h| h == &format!("input.{k}"))
                .unwrap();
            assert_eq!(row[i], *json["input"][k].as_str().unwrap());
        }
    }
    // Puzzle lines have no columns: no `input` key, no extra TSV column.
    let (out, _, _) = run(hdp().args(["classify", "--format", "jsonl", INKALA]));
    assert!(!out.contains("\"input\""), "{out}");
}

#[test]
fn the_manual_pages_it_names_exist() {
    let (page, _, code) = run(hdp().arg("man"));
    assert_eq!(code, 0);
    let named: Vec<&str> = page
        .split("hdp\\-")
        .skip(1)
        .filter_map(|s| s.split_once("(1)").map(|(name, _)| name))
        .collect();
    assert!(named.len() >= 9, "{page}");
    for name in named {
        let (sub, err, code) = run(hdp().args(["man", name]));
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            sub.contains(&format!(".TH hdp-{name} 1 ")),
            "{name}: {}",
            &sub[..200]
        );
    }
    // The exit codes are a list (one .TP each), 130 among them.
    let exits = page
        .split(".SH \"EXIT STATUS\"")
        .nth(1)
        .expect("an EXIT STATUS section");
    for code in ["0", "1", "2", "130", "141"] {
        assert!(
            exits.contains(&format!(".TP\n\\fB{code}\\fR\n")),
            "{code}: {exits}"
        );
    }
}

#[test]
fn help_and_records_say_what_they_mean() {
    let (help, _, _) = run(hdp().args(["classify", "--help"]));
    assert!(!help.contains("(classify: 4)"), "{help}");
    assert!(help.contains("Default 4."), "{help}");
    // --profile: the same syntax in --help and in the error, and every rule named in --help.
    let (help, _, _) = run(hdp().args(["chain", "--help"]));
    let (_, err, code) = run(hdp().args(["chain", "--profile", "naked-singel"]));
    assert_eq!(code, 2);
    assert!(
        help.contains("e.g. default,-naked-quad") && err.contains("e.g. default,-naked-quad"),
        "{err}"
    );
    for rule in [
        "naked-single",
        "hidden-single",
        "locked-pointing",
        "locked-claiming",
        "naked-pair",
        "naked-triple",
        "naked-quad",
        "hidden-pair",
        "hidden-triple",
        "hidden-quad",
    ] {
        assert!(help.contains(rule) && err.contains(rule), "{rule}");
    }
    // pairs_tests is empty where the level run did not run (--te, a bad line).
    let (out, _, _) = run(hdp().args(["classify", "--te", "--format", "jsonl", INKALA]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        v["depth_pairs"].is_null() && v["pairs_tests"].is_null(),
        "{out}"
    );
    let (out, _, _) = run(hdp().args(["classify", "--format", "jsonl", INKALA]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["pairs_tests"].as_u64().is_some_and(|t| t > 0), "{out}");
}
