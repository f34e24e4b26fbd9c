//! The page's links out: from source lines to the user's files (`file://`
//! and `vscode://file/PATH:LINE`, none with `--no-links`) and to the
//! Perfetto export written beside it. Real torch 2.15 logs.

mod common;

use common::{guardscope, root};
use std::path::Path;

/// The page `report ARGS -q` writes into DIR/r.
fn page(args: &[&str], dir: &Path) -> String {
    let out_dir = dir.join("r");
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    all.extend(["-o", out_dir.to_str().unwrap(), "-q"]);
    let out = guardscope(&all);
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::read_to_string(out_dir.join("index.html")).unwrap()
}

/// Every `href` on the page, unescaped, that leaves it for a file or editor.
fn file_links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&#x2F;", "/").replace("&amp;", "&"))
        .filter(|h| h.starts_with("file:") || h.starts_with("vscode:"))
        .collect()
}

#[test]
fn the_users_source_lines_link_to_the_file_and_the_editor_line() {
    let dir = tempfile::tempdir().unwrap();
    // Recorded at a path no checkout has: the links open this checkout's
    // copy of each file (tests/readme_any_clone.rs: a copy elsewhere).
    let links = file_links(&page(&["samples/traces/collision"], dir.path()));
    let file = root().join("samples/scripts/_collision_model.py");
    let file = file.to_str().unwrap();
    // The hook culprit's guard line (180), the buffer's (59), the line that
    // called the compiled model (213), the compiled frame (117).
    for line in [180, 59, 229, 117] {
        assert!(
            links.contains(&format!("vscode://file{file}:{line}")),
            "{line}: {links:?}"
        );
    }
    assert!(links.contains(&format!("file://{file}")), "{links:?}");
    assert!(links.iter().all(|l| l.contains(file)), "{links:?}");
}

#[test]
fn library_and_torch_files_get_no_link() {
    let dir = tempfile::tempdir().unwrap();
    // GPT-2: every frame is in transformers' files; the user's train.py is
    // where the model was called.
    let html = page(&["tests/corpus/logs/torch2.15.0/hf_output_attentions"], dir.path());
    assert!(html.contains("transformers&#x2F;utils&#x2F;generic.py:937"));
    let links = file_links(&html);
    assert_eq!(
        links,
        [
            "file:///home/user/proj/hf_output_attentions/train.py",
            "vscode://file/home/user/proj/hf_output_attentions/train.py:15"
        ]
        .repeat(links.len() / 2),
        "{links:?}"
    );
    assert!(!links.is_empty());
}

#[test]
fn no_links_leaves_the_lines_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["samples/traces/collision", "--no-links"], dir.path());
    assert_eq!(file_links(&html), Vec::<String>::new());
    assert!(!html.contains("class=\"editor\""));
    // The lines themselves are still there.
    assert!(html.contains("_collision_model.py:180"));
}

#[test]
fn run_takes_no_links_only_with_report() {
    let out = guardscope(["run", "--no-links", "--", "true"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--report"), "{}", out.stderr);
}

#[test]
fn the_page_links_the_perfetto_export_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let html = page(&["samples/traces/collision"], dir.path());
    assert!(html.contains("<a href=\"compile_trace.json\">compile_trace.json</a> (open it in ui.perfetto.dev"));
    assert!(dir.path().join("r/compile_trace.json").is_file());
    // Nothing is fetched from there: it is a hint, not a link.
    assert!(!html.contains("href=\"https:&#x2F;&#x2F;ui.perfetto"));
}
