//! The README's sample output is the real one: each fenced block under a
//! `<!-- readme-sample: hdp ARGS -->` marker starts with `$ hdp ARGS` and holds exactly what
//! that command prints on stdout.

use assert_cmd::Command;

/// One sample of the README: the command's arguments and the output the README shows.
struct Sample {
    args: Vec<String>,
    expected: String,
}

/// The samples of `text`, in order. Panics, naming the line, on a marker without a well-formed
/// block under it, so a broken README fails the test rather than skipping it.
fn samples(text: &str) -> Vec<Sample> {
    const MARKER: &str = "<!-- readme-sample: hdp";
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix(MARKER) else {
            continue;
        };
        let command = rest.trim_end_matches("-->").trim();
        let at = |k: usize| lines.get(i + k).copied().unwrap_or("");
        assert_eq!(
            at(1),
            "```",
            "README line {}: no fenced block under the marker",
            i + 2
        );
        assert_eq!(
            at(2).strip_prefix("$ hdp").map(str::trim),
            Some(command),
            "README line {}: the block must start with `$ hdp {command}`",
            i + 3
        );
        let body: Vec<&str> = lines[i + 3..]
            .iter()
            .copied()
            .take_while(|l| *l != "```")
            .collect();
        assert!(
            lines.len() > i + 3 + body.len(),
            "README line {}: the block is not closed",
            i + 2
        );
        found.push(Sample {
            args: command.split_whitespace().map(String::from).collect(),
            expected: body.iter().map(|l| format!("{l}\n")).collect(),
        });
    }
    found
}

#[test]
fn readme_sample_output_is_the_real_output() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let text = std::fs::read_to_string(path).unwrap();
    let samples = samples(&text);
    assert!(!samples.is_empty(), "README.md has no readme-sample marker");
    for sample in samples {
        let out = Command::cargo_bin("hdp")
            .unwrap()
            .args(&sample.args)
            .output()
            .unwrap();
        assert!(out.status.success(), "hdp {:?} failed", sample.args);
        let actual = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            actual,
            sample.expected,
            "README sample `hdp {}` differs from the real output",
            sample.args.join(" ")
        );
    }
}

#[test]
fn a_marker_without_its_block_is_an_error() {
    let broken = "<!-- readme-sample: hdp chain -->\ntext\n";
    assert!(std::panic::catch_unwind(|| samples(broken)).is_err());
    let wrong_command = "<!-- readme-sample: hdp chain -->\n```\n$ hdp solve\n```\n";
    assert!(std::panic::catch_unwind(|| samples(wrong_command)).is_err());
    let fine = "<!-- readme-sample: hdp solve --count -->\n```\n$ hdp solve --count\n1\n```\n";
    let parsed = samples(fine);
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].args, ["solve", "--count"]);
    assert_eq!(parsed[0].expected, "1\n");
}
