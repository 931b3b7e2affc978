//! Build script: the git commit and the enabled features, for `hdp --version`. Builds without
//! git (a source tarball) say `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=HDP_GIT_COMMIT={commit}");
    // Run again when HEAD moves: HEAD itself, and the branch it points to.
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(k, _)| k.strip_prefix("CARGO_FEATURE_").map(str::to_owned))
        .map(|f| f.to_lowercase().replace('_', "-"))
        .collect();
    features.sort();
    let features = if features.is_empty() {
        "none".to_string()
    } else {
        features.join(", ")
    };
    println!("cargo:rustc-env=HDP_FEATURES={features}");
    let cpu = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let popcnt = if cpu.split(',').any(|f| f == "popcnt") {
        "popcnt"
    } else {
        "no popcnt"
    };
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=HDP_TARGET={target}, {popcnt}");
}
