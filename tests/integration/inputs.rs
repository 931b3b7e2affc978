//! Where puzzles come from: mistyped puzzle arguments, tables with a header, bad lines under
//! every record format, and a batch stopped by SIGINT.

use assert_cmd::Command;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn hdp() -> Command {
    Command::cargo_bin("hdp").unwrap()
}

fn run(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn mistyped_puzzle_arguments_get_the_parsers_error() {
    let typo = format!("12x{}", &INKALA[3..]);
    let (_, err, code) = run(hdp().args(["solve", &typo]));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("argument 1: line 1, column 3: unexpected character 'x'"),
        "{err}"
    );
    let short = &INKALA[..80];
    let (_, err, code) = run(hdp().args(["chain", INKALA, short]));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("argument 2: line 1, column 81: expected 81 cells, found 80"),
        "{err}"
    );
    assert!(!err.contains("cannot read"), "{err}");
    // A name that is not puzzle-like is still a file name.
    let (_, err, code) = run(hdp().args(["solve", "no-such-file.txt"]));
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no-such-file.txt"), "{err}");
}

/// Puzzles of trial-and-error depth 3 (te3-mith-sample): tens of milliseconds each with --te.
const TE3: [&str; 3] = [
    "1..4.6...4..18.......37.41..4.....9759.7..3.17..9..54.37..9..54.14...9.39.5......",
    "...4.67.9.......3668.....512..76..9....9.2...97..48..2...8.76..7...249..84.69....",
    ".....67.9456....23......64.2.56.8.3.3......6..643.....5.8..23.664.5.3..8...86....",
];

fn temp_file(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = crate::common::scratch("inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn tsv_records(out: &str) -> Vec<Vec<String>> {
    let mut lines = out.lines();
    assert_eq!(lines.next().unwrap().split('\t').next(), Some("line"));
    lines
        .map(|l| {
            // hdp's 18 columns, then a table's own (`input.NAME`, issue 29).
            let f: Vec<String> = l.split('\t').map(String::from).collect();
            assert!(f.len() >= 18, "a whole record: {l:?}");
            f
        })
        .collect()
}

#[test]
fn a_table_with_a_header_classifies_every_row_with_its_label() {
    let text = format!(
        "# a comment\nname\tpuzzle\trating\nInkala\t{INKALA}\t11.9\nTrap\t{}\t\nBroken\t{}\tx\n",
        TE3[0],
        &INKALA[..80]
    );
    let path = temp_file("named.tsv", text.as_bytes());
    let (out, err, code) = run(hdp().args(["classify"]).arg(&path));
    assert_eq!(code, 1, "one bad row: {err}");
    let records = tsv_records(&out);
    assert_eq!(records.len(), 3, "{out}");
    let lines: Vec<&str> = records.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(lines, ["3", "4", "5"], "physical line numbers");
    assert_eq!(records[0][1], INKALA);
    assert_eq!(records[0][2], "name=Inkala; rating=11.9");
    assert_eq!(records[0][4], "hard");
    assert_eq!(records[1][2], "name=Trap");
    // The error names the physical line and the column in the line (past `Broken\t`).
    assert!(
        records[2][17].contains("line 5, column 88"),
        "{:?}",
        records[2]
    );
    assert!(err.contains("line 5, column 88"), "{err}");
    // The same file through another command, and the column chosen by name or number.
    let (out, _, code) = run(hdp().args(["solve", "--count"]).arg(&path));
    assert_eq!((out.as_str(), code), ("1\n1\nerror\n", 1));
    let (out, _, _) = run(hdp().args(["solve", "--count", "--column", "2"]).arg(&path));
    assert_eq!(out, "1\n1\nerror\n");
    let (_, err, code) = run(hdp().args(["solve", "--column", "grid"]).arg(&path));
    assert_eq!(code, 2);
    assert!(err.contains("--column grid: no such column"), "{err}");
    // CSV without a named column: found by its values, quotes allowed.
    let csv = format!("id,comment,puzzle\n1,\"hard, famous\",{INKALA}\n");
    let path = temp_file("anon.csv", csv.as_bytes());
    let (out, _, code) = run(hdp().args(["classify", "--format", "jsonl"]).arg(&path));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["line"], 2);
    assert_eq!(v["label"], "id=1; comment=hard, famous");
    // Invalid UTF-8 in a row is read lossily, like in puzzle lines.
    let mut bytes = b"name\tpuzzle\nbad\xff\t".to_vec();
    bytes.extend(format!("{INKALA}\n").as_bytes());
    let path = temp_file("latin1.tsv", &bytes);
    let (out, err, code) = run(hdp().args(["classify"]).arg(&path));
    assert_eq!(code, 0, "{err}");
    assert_eq!(tsv_records(&out)[0][2], "name=bad\u{fffd}");
}

#[test]
fn famous_tsv_classifies_without_error_records() {
    let path = format!(
        "{}/../shared/corpora/famous.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    if !std::path::Path::new(&path).exists() {
        return;
    }
    let rows = std::fs::read_to_string(&path).unwrap().lines().count() - 1;
    let (out, err, code) = run(hdp().args(["classify", &path]));
    let records = tsv_records(&out);
    assert_eq!(records.len(), rows);
    assert!(records.iter().all(|r| r[17].is_empty()), "{err}");
    assert!(records.iter().all(|r| r[2].starts_with("name=")));
    assert!(records.iter().any(|r| r[2] == "name=Golden Nugget"));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn bad_lines_under_every_record_format() {
    let input = format!(
        "{INKALA}\tfirst\nnot a puzzle\n{}\n{INKALA} nul\u{0}and\u{1b}escape\n\n\u{0}\u{7f}\n",
        &INKALA[..80]
    );
    let path = temp_file("bad.txt", input.as_bytes());
    let (out, err, code) = run(hdp().args(["classify"]).arg(&path));
    assert_eq!(code, 1, "{err}");
    let records = tsv_records(&out);
    let lines: Vec<&str> = records.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(lines, ["1", "2", "3", "4", "6"]);
    assert_eq!(records[0][2], "first");
    assert!(
        records[1][17].contains("line 2, column 1"),
        "{:?}",
        records[1]
    );
    assert!(
        records[2][17].contains("line 3, column 81"),
        "{:?}",
        records[2]
    );
    assert_eq!(records[3][2], "nul\\x00and\\x1bescape");
    assert!(
        !out.chars()
            .any(|c| c.is_control() && c != '\t' && c != '\n'),
        "no control character in TSV output"
    );
    let (out, _, code) = run(hdp().args(["classify", "--format", "jsonl"]).arg(&path));
    assert_eq!(code, 1);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 5);
    assert_eq!(records[3]["label"], "nul\u{0}and\u{1b}escape");
    assert!(records[2]["error"].as_str().unwrap().contains("found 80"));
    let (out, _, code) = run(hdp().args(["classify", "--summary-only"]).arg(&path));
    assert_eq!(code, 1);
    assert!(out.contains("errors") && out.contains("total"), "{out}");
}

/// The keys of a JSON object, in the order written.
fn json_keys(json: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some((k, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                keys.push(k);
            }
            Ok(keys)
        }
    }
    serde_json::Deserializer::from_str(json)
        .deserialize_map(Keys)
        .unwrap()
}

/// Classify's TSV read by a CSV reader (tabs, standard quoting), on a table whose fields hold
/// quotes, tabs, line breaks and control characters and whose rows include bad ones: every
/// record is whole, on its own line, with the JSON Lines values (text made plain), and the
/// header is the JSON keys after `schema` and `source`, in order.
#[test]
fn classify_tsv_reads_back_with_a_csv_reader_and_matches_json_lines() {
    let text = format!(
        "id,comment,puzzle\n1,\"tab\there\nnewline \"\"quoted\"\"\",{INKALA}\n\
         2,\"nul\u{0}esc\u{1b}\",{INKALA}\n3,short,{}\n4,\"\"\"leading quote\",\"\"\"{}\"\n",
        &INKALA[..80],
        &INKALA[1..]
    );
    let path = temp_file("hostile.csv", text.as_bytes());
    let (tsv, err, code) = run(hdp().args(["classify", "--no-timing"]).arg(&path));
    assert_eq!(code, 1, "two bad rows: {err}");
    let (jsonl, _, _) = run(hdp()
        .args(["classify", "--no-timing", "--format", "jsonl"])
        .arg(&path));
    let json: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys = json_keys(jsonl.lines().next().unwrap());
    assert_eq!(keys[..2], ["schema", "source"]);
    assert_eq!(
        tsv.lines().count(),
        5,
        "a header and one line per row: {tsv:?}"
    );
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .from_reader(tsv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    // hdp's columns are the JSON keys; the table's own follow as `input.NAME` (the JSON's
    // `input` object, last).
    assert_eq!(keys.last().map(String::as_str), Some("input"));
    assert_eq!(header[..header.len() - 2], keys[2..keys.len() - 1]);
    assert_eq!(header[header.len() - 2..], ["input.id", "input.comment"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    let plain = |s: &str| {
        s.chars()
            .map(|c| match c {
                '\t' | '\n' | '\r' => " ".to_string(),
                c if c.is_control() => format!("\\x{:02x}", c as u32),
                c => c.to_string(),
            })
            .collect::<String>()
    };
    for (row, record) in rows.iter().zip(&json) {
        assert_eq!(row.len(), header.len(), "{row:?}");
        for (name, field) in header.iter().zip(row) {
            let value = match name.strip_prefix("input.") {
                Some(column) => &record["input"][column],
                None => &record[name],
            };
            let expected = match value {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => plain(s),
                v => v.to_string(),
            };
            assert_eq!(field, expected, "{name} of {row:?}");
        }
    }
    assert_eq!(&rows[0][2], "id=1; comment=tab here newline \"quoted\"");
    assert_eq!(&rows[1][2], "id=2; comment=nul\\x00esc\\x1b");
    assert!(rows[2][17].contains("found 80"), "{:?}", rows[2]);
    assert_eq!(&rows[3][1], format!("\"{}", &INKALA[1..]));
    assert!(
        rows[3][17].contains("unexpected character '\"'"),
        "{:?}",
        rows[3]
    );
    assert!(tsv.contains("\t\"\"\"...."), "CSV quoting: {tsv}");
    assert_eq!(&rows[0][4], "hard");
}

#[test]
fn a_missing_input_does_not_withhold_the_others() {
    let path = temp_file("good.txt", format!("{INKALA}\n").as_bytes());
    let path = path.to_str().unwrap();
    let (out, err, code) = run(hdp().args(["classify", path, "missing.txt", path]));
    assert_eq!(code, 2, "an unreadable input is an I/O error");
    assert!(err.contains("cannot read missing.txt"), "{err}");
    assert_eq!(tsv_records(&out).len(), 2);
    let (out, _, code) = run(hdp().args(["solve", "--count", path, "missing.txt", path]));
    assert_eq!((out.as_str(), code), ("1\nerror\n1\n", 2));
}

#[test]
fn sigint_keeps_whole_records_in_order() {
    use std::io::{BufRead, BufReader};
    let mut input = String::new();
    for i in 0..3000 {
        input.push_str(TE3[i % 3]);
        input.push('\n');
    }
    let path = temp_file("te3.txt", input.as_bytes());
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hdp"))
        .args(["classify", "--te", "--jobs", "2"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    stdout.read_line(&mut out).unwrap(); // the header
    stdout.read_line(&mut out).unwrap(); // the first record
    let first = started.elapsed();
    eprintln!("first record after {first:?}");
    assert!(
        first < std::time::Duration::from_secs(3),
        "the first record waits for no batch: {first:?}"
    );
    std::thread::sleep(std::time::Duration::from_millis(700));
    let (code, err) = crate::common::interrupt_and_finish(child, &mut stdout, &mut out);
    assert_eq!(code, Some(130), "{err}");
    assert!(out.ends_with('\n'), "the last record is whole");
    let records = tsv_records(&out);
    assert!(
        !records.is_empty() && records.len() < 3000,
        "{}",
        records.len()
    );
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r[0], (i + 1).to_string(), "in order, no gap");
        assert_eq!(r[4], "deep");
    }
    assert!(
        err.contains(&format!("resume with --skip {}", records.len())),
        "{err}"
    );
    assert!(err.contains("total"), "the summary so far: {err}");
}

#[test]
fn a_pipe_fed_one_puzzle_at_a_time_gets_each_record_at_once() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hdp"))
        .args(["classify", "--format", "jsonl"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    let wait = std::time::Duration::from_secs(20);
    for (i, puzzle) in [INKALA, TE3[0]].iter().enumerate() {
        writeln!(stdin, "{puzzle}").unwrap();
        stdin.flush().unwrap();
        // The input stays open: the record must come without waiting for more input.
        let record = rx.recv_timeout(wait).expect("a record per puzzle, at once");
        let v: serde_json::Value = serde_json::from_str(&record).unwrap();
        assert_eq!(v["line"], i + 1);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn nine_line_grids_are_read_through_the_same_source() {
    let grid: String = INKALA
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&c| (c as char).to_string()).collect();
            cells.join(" ") + "\n"
        })
        .collect();
    let text = format!("# grids\n{grid}\n{grid}\n1 2 3 . . . . . .\n");
    let path = temp_file("grids.txt", text.as_bytes());
    let (out, err, code) = run(hdp().args(["classify"]).arg(&path));
    assert_eq!(code, 1, "{err}");
    let records = tsv_records(&out);
    let lines: Vec<&str> = records.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(lines, ["2", "12", "22"]);
    assert_eq!(
        (records[0][1].as_str(), records[1][4].as_str()),
        (INKALA, "hard")
    );
    assert!(
        records[2][17].contains("a grid needs 9 rows, found 1"),
        "{err}"
    );
    let (out, _, _) = run(hdp().args(["solve", "--count", "-"]).write_stdin(text));
    assert_eq!(out, "1\n1\nerror\n");
}
