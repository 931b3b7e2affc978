//! Classification: published trial-and-error depths, invariance under relabelling and
//! transposition, and the spec §9 calibration.

use crate::common::{data, data_slice, data_text, permutation, shared_text};
use hdp::classify::{classify, ClassifyOptions, Level};

/// `puzzle<TAB>published T&E depth` records.
fn te_examples(text: &str) -> Vec<(hdp::Grid, u8)> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.parse().ok()?, f.next()?.trim().parse().ok()?))
        })
        .collect()
}

fn check_te(examples: &[(hdp::Grid, u8)]) {
    let mut wrong = Vec::new();
    for (g, published) in examples {
        let c = classify(g, &ClassifyOptions::trial_and_error());
        if c.depth != Some(*published) {
            wrong.push(format!(
                "{}: published {published}, got {:?}",
                g.to_line(),
                c.depth
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn te_depth_matches_published_on_a_slice() {
    let examples = te_examples(&data_text("shc-examples-342-every9.tsv"));
    assert_eq!(examples.len(), 38);
    check_te(&examples);
}

#[test]
#[ignore = "all 342 examples, a few seconds in release; run by .ci/run"]
fn te_depth_matches_published_on_all_shc_examples() {
    let Some(text) = shared_text("te-depth/shc-examples-342.tsv") else {
        return;
    };
    let examples = te_examples(&text);
    assert_eq!(examples.len(), 342);
    check_te(&examples);
}

#[test]
fn classification_is_invariant_under_relabelling_and_transposition() {
    let mut puzzles = data("top95.txt");
    puzzles.extend(data("hardest.txt"));
    puzzles.extend(data_slice("magictour-top1465-every5.txt", 100));
    for (i, g) in puzzles.iter().enumerate() {
        let opts = ClassifyOptions::default();
        let a = classify(g, &opts);
        let b = classify(&g.relabel(&permutation(i as u64)), &opts);
        assert_eq!(
            (a.depth, a.depth_pairs, a.level),
            (b.depth, b.depth_pairs, b.level),
            "{g:?}"
        );
        // Relabelling keeps the canonical order, so even the effort is the same.
        assert_eq!(a.effort, b.effort, "{g:?}");
        assert_eq!(a.pairs_effort, b.pairs_effort, "{g:?}");
        // Under the synchronous schedule the level and both depths are invariant under
        // transposition too (every symmetry: see `schedule.rs`).
        let t = classify(&g.transpose(), &opts);
        assert_eq!(a.solutions, t.solutions);
        assert_eq!(
            (a.depth, a.depth_pairs, a.level),
            (t.depth, t.depth_pairs, t.level),
            "transposed {g:?}"
        );
    }
}

#[test]
fn calibration_cheese_is_deep_and_inkala_is_hard() {
    // Spec §9: the author's "Cheese" is his one `deep` puzzle; Inkala's (spec §8) needs depth 2.
    let famous = data_text("famous.tsv");
    let cheese: hdp::Grid = famous
        .lines()
        .find(|l| l.starts_with("Cheese\t"))
        .and_then(|l| l.split('\t').nth(1))
        .unwrap()
        .parse()
        .unwrap();
    let c = classify(&cheese, &ClassifyOptions::default());
    assert_eq!(c.depth_pairs, Some(3));
    assert_eq!(c.level, Some(Level::Deep));
    let inkala: hdp::Grid =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
            .parse()
            .unwrap();
    let c = classify(&inkala, &ClassifyOptions::default());
    assert_eq!((c.depth_pairs, c.level), (Some(2), Some(Level::Hard)));
}

#[test]
fn non_unique_puzzles_get_no_level() {
    let c = classify(&hdp::Grid::empty(), &ClassifyOptions::default());
    assert_eq!((c.solutions, c.level), (Some(2), None));
}
