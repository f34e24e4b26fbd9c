//! The README's first command (`cargo run --release -- report
//! samples/traces/collision`) run in a copy of the repository at another
//! path, as a fresh clone would: it prints the summary the README shows,
//! and the page links into the copy. The sample's logs name the sample
//! scripts by the neutral path they were recorded at, which no clone has
//! (samples/generate.py); the copy holds what the command reads: the
//! sample's log and the scripts it names.

mod common;

use common::root;
use std::path::Path;
use std::process::Command;

const SAMPLE: &str = "samples/traces/collision";

/// The README's transcript of the sample's summary, and the width it was
/// made at (tests/docs_examples.rs checks it in this checkout).
fn readme_summary() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find(&format!("$ guardscope summary {SAMPLE}\n"))
        .expect("the README shows the sample's summary");
    let block = &readme[start..];
    let body = &block[block.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_readme_command_prints_the_readme_in_a_copy_at_another_path() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains(&format!("cargo run --release -- report {SAMPLE}")));

    let clone = tempfile::tempdir().unwrap();
    let clone = clone.path().join("guardscope");
    for part in [SAMPLE, "samples/scripts"] {
        copy_tree(&root().join(part), &clone.join(part));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(["report", SAMPLE])
        .current_dir(&clone)
        .env("COLUMNS", "110")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The summary, then where the page went.
    let printed = String::from_utf8(out.stdout).unwrap();
    let expected = format!("{}\nReport: guardscope-report/index.html\n", readme_summary());
    assert_eq!(printed, expected, "printed in {}", clone.display());

    // Every source link opens the copy's own file.
    let page = std::fs::read_to_string(clone.join("guardscope-report/index.html")).unwrap();
    let links: Vec<String> = page
        .split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&#x2F;", "/"))
        .filter(|h| h.starts_with("file:") || h.starts_with("vscode:"))
        .collect();
    let scripts = clone.join("samples/scripts/_collision_model.py");
    assert!(!links.is_empty());
    for link in &links {
        assert!(link.contains(scripts.to_str().unwrap()), "{link}");
    }
}
