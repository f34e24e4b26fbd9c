//! Commands that show no guard tree (summary, check, steps) load compiles
//! without them, which halves what a compile holds (issue 22). Their
//! output must not change: every finding, guard diff included, is the same.

mod common;

use guardscope::analysis::analyse;
use guardscope::input;
use guardscope::load::{load_sources, LoadOptions};
use guardscope::report::json;

#[test]
fn findings_are_the_same_without_guard_trees_on_every_sample() {
    let root = common::root();
    let mut dirs: Vec<_> = [
        "samples/traces",
        "tests/corpus/logs/torch2.11.0",
        "tests/corpus/logs/torch2.15.0",
    ]
    .iter()
    .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
    .map(|e| e.unwrap().path())
    .filter(|p| p.is_dir())
    .collect();
    dirs.sort();
    assert!(dirs.len() > 60, "{} sample directories", dirs.len());
    let mut with_trees = 0;
    for dir in dirs {
        let sources = input::discover(std::slice::from_ref(&dir)).unwrap().sources;
        let load = |guard_trees| {
            let opts = LoadOptions {
                guard_trees,
                ..LoadOptions::default()
            };
            load_sources(&sources, &opts).unwrap()
        };
        let (full, lean) = (load(true), load(false));
        let summary = |run| serde_json::to_string_pretty(&json::summary(&analyse(run))).unwrap();
        assert!(summary(&full) == summary(&lean), "{}", dir.display());
        assert!(
            lean.compiles().all(|(_, c)| c.guard_tree.is_none()),
            "{}",
            dir.display()
        );
        with_trees += usize::from(full.compiles().any(|(_, c)| c.guard_tree.is_some()));
    }
    assert!(
        with_trees > 30,
        "only {with_trees} samples have guard trees: the test compares little"
    );
}
