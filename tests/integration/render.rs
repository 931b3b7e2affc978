//! `hdp render` and `hdp report`: well-formed SVG files, a report a browser draws, and the
//! published analyses still regenerate identically.

use assert_cmd::Command;
use std::path::Path;

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn hdp() -> Command {
    Command::cargo_bin("hdp").unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("hdp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn well_formed(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc =
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        doc.root_element().attribute("viewBox").is_some(),
        "{}",
        path.display()
    );
}

#[test]
fn render_tree_grid_and_steps() {
    let d = tmp("render");
    for variant in ["analysis", "pr", "full"] {
        let out = d.join(format!("tree-{variant}.svg"));
        hdp()
            .args(["render", "tree", INKALA, "--variant", variant, "-o"])
            .arg(&out)
            .assert()
            .success();
        well_formed(&out);
    }
    let grid = d.join("grid.svg");
    hdp()
        .args([
            "render",
            "grid",
            INKALA,
            "--given",
            "I8: 2,7 + G7: 3,9",
            "-o",
        ])
        .arg(&grid)
        .assert()
        .success();
    well_formed(&grid);
    let steps = d.join("steps");
    hdp()
        .args(["render", "steps", INKALA, "--decisions", "pairs", "-o"])
        .arg(&steps)
        .assert()
        .success();
    let mut names: Vec<_> = std::fs::read_dir(&steps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() > 20);
    assert!(names[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("step-000-sta"));
    for n in &names {
        well_formed(n);
    }
}

#[test]
fn report_of_inkala_contains_solution_and_depth_and_draws_in_a_browser() {
    let d = tmp("report");
    hdp()
        .args(["report", INKALA, "--title", "Inkala", "-o"])
        .arg(&d)
        .assert()
        .success();
    let html = std::fs::read_to_string(d.join("index.html")).unwrap();
    assert!(html.contains(
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    ));
    assert!(html.contains("<dt>reduction depth</dt><dd>2</dd>"));
    well_formed(&d.join("tree.svg"));
    well_formed(&d.join("analysis-tree.svg"));
    let Ok(chromium) = which("chromium") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing in CI"
        );
        eprintln!("skipped the browser check: chromium is not installed");
        return;
    };
    let png = d.join("shot.png");
    let profile = tmp("chromium-profile");
    let status = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1200,1600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", d.join("index.html").display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // Not blank: a blank page compresses to a few kB; the report draws grids, trees and text.
    assert!(
        bytes.len() > 50_000,
        "screenshot only {} bytes",
        bytes.len()
    );
}

fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    std::env::var_os("PATH")
        .and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
        .ok_or(())
}

#[test]
fn report_index_groups_a_collection() {
    let d = tmp("index");
    let list = d.join("list.tsv");
    std::fs::write(
        &list,
        format!("name\tpuzzle\nInkala\t{INKALA}\nbad\t{}\n", "x".repeat(81)),
    )
    .unwrap();
    let out = d.join("out");
    hdp()
        .args(["report", "--index"])
        .arg(&list)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("hard (1)") && index.contains("inkala/index.html"),
        "{index}"
    );
    assert!(out.join("inkala/index.html").is_file());
}

#[test]
fn published_inkala_analysis_regenerates_identically() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("analyses/famous/arto-inkala-2012");
    let d = tmp("regen");
    hdp()
        .args(["report", INKALA, "--title", "Arto Inkala 2012", "-o"])
        .arg(&d)
        .assert()
        .success();
    for entry in walk(&committed) {
        let rel = entry.strip_prefix(&committed).unwrap();
        let fresh = std::fs::read_to_string(d.join(rel)).unwrap_or_default();
        let old = std::fs::read_to_string(&entry).unwrap();
        assert!(
            fresh == old,
            "{} differs from a fresh run: regenerate analyses (README)",
            rel.display()
        );
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The pencil marks of a grid SVG: `(digit, font size, struck)` of every single-digit text
/// smaller than the values (28 px); struck marks are the red ones (`#dc2626`). Also the number
/// of red strike lines and the `<title>`.
fn pencil_marks(svg: &str) -> (Vec<(String, f64, bool)>, usize, Option<String>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let inherited = |n: roxmltree::Node, name: &str| {
        n.ancestors()
            .find_map(|a| a.attribute(name))
            .map(str::to_string)
    };
    let mut marks = Vec::new();
    for t in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let text = t.text().unwrap_or_default().trim().to_string();
        let size: f64 = inherited(t, "font-size").unwrap().parse().unwrap();
        if text.len() == 1 && text.chars().all(|c| c.is_ascii_digit()) && size < 28.0 {
            let red = inherited(t, "fill").as_deref() == Some("#dc2626");
            marks.push((text, size, red));
        }
    }
    let strikes = doc
        .descendants()
        .filter(|n| n.has_tag_name("line"))
        .filter(|n| inherited(*n, "stroke").as_deref() == Some("#dc2626"))
        .count();
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .map(str::to_string);
    (marks, strikes, title)
}

/// `render grid` draws the remaining candidates only, at 11 px or more, under the puzzle's name;
/// `--struck` adds every candidate propagation removed, struck through.
#[test]
fn render_grid_shows_remaining_candidates_and_strikes_on_request() {
    let puzzle: hdp::Grid = INKALA.parse().unwrap();
    let mut propagated = puzzle;
    hdp::propagate::propagate(&mut propagated, &hdp::propagate::Profile::DEFAULT);
    let open: Vec<_> = hdp::Cell::all()
        .filter(|&c| propagated.get(c).len() > 1)
        .collect();
    let remaining = open
        .iter()
        .map(|&c| propagated.get(c).len() as usize)
        .sum::<usize>();
    let removed = open
        .iter()
        .map(|&c| 9 - propagated.get(c).len() as usize)
        .sum::<usize>();
    assert!(remaining > 0 && removed > 0);
    let run = |extra: &[&str]| {
        let out = hdp()
            .args(["render", "grid", INKALA, "-o", "-"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };

    let (marks, strikes, title) = pencil_marks(&run(&[]));
    assert_eq!(
        marks.len(),
        remaining,
        "every remaining candidate, nothing else"
    );
    assert!(marks.iter().all(|(_, _, red)| !red), "no removed candidate");
    assert_eq!(strikes, 0);
    let small: Vec<_> = marks.iter().filter(|m| m.1 < 11.0).collect();
    assert!(
        small.is_empty(),
        "{} marks under 11 px: {:?}…",
        small.len(),
        small.first()
    );
    assert_eq!(title.as_deref(), Some("Arto Inkala 2012"));

    let (marks, strikes, _) = pencil_marks(&run(&["--struck"]));
    let red = marks.iter().filter(|(_, _, red)| *red).count();
    assert_eq!(marks.len(), remaining + removed);
    assert_eq!(red, removed, "every removed candidate, in red");
    assert_eq!(strikes, removed, "each one struck");
    assert!(marks.iter().all(|m| m.1 >= 11.0), "marks under 11 px");

    let (_, _, title) = pencil_marks(&run(&["--title", "a <b> & c"]));
    assert_eq!(title.as_deref(), Some("a <b> & c"));

    // The label, else the file and line; --struck with --raw is a usage error.
    let d = tmp("grid-titles");
    std::fs::write(d.join("named.txt"), format!("{INKALA} Golden <one>\n")).unwrap();
    std::fs::write(d.join("plain.txt"), format!("\n{INKALA}\n")).unwrap();
    for (file, want) in [
        ("named.txt", "Golden <one>"),
        ("plain.txt", "plain.txt, line 2"),
    ] {
        let out = hdp()
            .args(["render", "grid", "-o", "-"])
            .arg(d.join(file))
            .output()
            .unwrap();
        assert!(out.status.success());
        let (_, _, title) = pencil_marks(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(title.as_deref(), Some(want));
    }
    hdp()
        .args(["render", "grid", "--raw", "--struck", "-o", "-"])
        .assert()
        .code(2);
}
