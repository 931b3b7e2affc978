//! The docs against the binary. The README's sample output is the real one: each fenced block
//! under a `<!-- readme-sample: hdp ARGS -->` marker starts with `$ hdp ARGS` and holds exactly
//! what that command prints on stdout. `docs/reference.md` names every command and long option
//! that `--help` lists, and the docs' relative links resolve inside the repository.

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
    assert!(mentions("see `--max-depth N`", "--max-depth"));
    assert!(!mentions("see `--max-depth N`", "--max"));
    assert!(!mentions("hdp manual", "hdp man"));
    let fine = "<!-- readme-sample: hdp solve --count -->\n```\n$ hdp solve --count\n1\n```\n";
    let parsed = samples(fine);
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].args, ["solve", "--count"]);
    assert_eq!(parsed[0].expected, "1\n");
}

/// The subcommands `hdp --help` lists (`help` aside), each with its own subcommands for
/// `render`: every `hdp ...` path that has options of its own.
fn command_paths() -> Vec<Vec<String>> {
    let commands = |args: &[String]| -> Vec<String> {
        let out = Command::cargo_bin("hdp")
            .unwrap()
            .args(args)
            .arg("--help")
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        help.lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(String::from)
            .collect()
    };
    let mut paths = Vec::new();
    for name in commands(&[]) {
        let subs = commands(std::slice::from_ref(&name));
        if subs.is_empty() {
            paths.push(vec![name.clone()]);
        }
        for sub in subs {
            paths.push(vec![name.clone(), sub]);
        }
    }
    paths
}

/// The long options `hdp PATH --help` lists: clap writes each at the start of a line, indented
/// two spaces after a short flag (`  -q, --quiet`) or six without one (`      --budget`).
fn long_options(path: &[String]) -> Vec<String> {
    let out = Command::cargo_bin("hdp")
        .unwrap()
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .filter_map(|l| {
            let short = l.strip_prefix("  -").filter(|r| r.get(1..3) == Some(", "));
            short.map(|r| &r[3..]).or_else(|| l.strip_prefix("      "))
        })
        .filter_map(|rest| rest.strip_prefix("--"))
        .map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            format!("--{name}")
        })
        .collect()
}

/// Whether `text` holds `name` as a whole word: `--max` is not in `--max-depth`, nor `hdp man`
/// in `hdp manual`.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
    text.match_indices(name).any(|(at, _)| {
        !word(text[..at].chars().next_back()) && !word(text[at + name.len()..].chars().next())
    })
}

/// docs/reference.md names every command (`hdp chain`, `hdp render tree`) and every long option
/// the binary's help lists, so a new command or option fails here until it is documented.
#[test]
fn the_reference_names_every_command_and_option() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md");
    let reference = std::fs::read_to_string(path).unwrap();
    let mut missing = Vec::new();
    let paths = command_paths();
    assert!(paths.len() >= 10, "too few commands found: {paths:?}");
    for path in paths {
        let command = format!("hdp {}", path.join(" "));
        if !mentions(&reference, &command) {
            missing.push(command.clone());
        }
        for option in long_options(&path) {
            if !mentions(&reference, &option) {
                missing.push(format!("{command} {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/reference.md does not name: {missing:?}"
    );
}

/// The relative links of `text` (`[label](target)`), without their `#anchor`; web links and
/// links within the page left out.
fn relative_links(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let target = &rest[..rest.find(')')?];
            let target = target.split('#').next().unwrap_or("");
            (!target.is_empty() && !target.contains("://")).then_some(target)
        })
        .collect()
}

/// Every relative link of the README and of docs/ points at a file or folder of the repository,
/// and none leaves it (a clone has no `../shared`).
#[test]
fn the_docs_links_resolve_inside_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for target in relative_links(&text) {
            let resolved = dir.join(target);
            let inside = resolved
                .canonicalize()
                .is_ok_and(|p| p.starts_with(root.canonicalize().unwrap()));
            if !inside {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(pages.len() >= 4, "README, BENCHMARKS and docs/ not found");
    assert!(
        broken.is_empty(),
        "links that do not resolve in the repository: {broken:?}"
    );
    assert_eq!(
        relative_links("[a](docs/x.md#top) [b](https://e.org) [c](#here) [d](../y)"),
        ["docs/x.md", "../y"]
    );
}
