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
