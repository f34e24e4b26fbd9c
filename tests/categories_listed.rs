//! Every place that lists the recompile categories lists the one table's
//! (src/reasons/category.rs): `check --help` (generated from it),
//! docs/summary.md's category table and the `Category` Literal of
//! python/guardscope/_types.py (kept by hand, so checked here).

mod common;

use common::{guardscope, root};
use guardscope::reasons::Category;
use std::collections::BTreeSet;

fn table() -> Vec<&'static str> {
    Category::ALL.iter().map(|c| c.name()).collect()
}

#[test]
fn check_help_lists_every_category_allow_accepts() {
    let out = guardscope(["check", "--help"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    let listed = &help[help.find("Categories for --allow: ").expect(&help) + 24..];
    let listed: Vec<&str> = listed.split(' ').take(table().len()).collect();
    assert_eq!(listed, table());
    for name in table() {
        // and each is accepted
        // (collision_fixed has no recompile; its skipped forward is tolerated)
        let allow = guardscope([
            "check",
            "samples/traces/collision_fixed",
            "--max-eager-frames",
            "1",
            "--allow",
            name,
        ]);
        assert_eq!(allow.code, 0, "--allow {name}: {}", allow.stderr);
    }
}

#[test]
fn docs_summary_category_table_names_every_category() {
    let docs = std::fs::read_to_string(root().join("docs/summary.md")).unwrap();
    let section = &docs[docs.find("## Recompile categories").expect("the section")..];
    let rows = section
        .lines()
        .skip_while(|l| !l.starts_with("| category |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    // A row's first cell may name several (`stride` / `dtype` / ...).
    let mut named = BTreeSet::new();
    for row in rows {
        let cell = row.split('|').nth(1).unwrap();
        for part in cell.split('`').skip(1).step_by(2) {
            assert!(named.insert(part.to_string()), "{part} listed twice");
        }
    }
    let expected: BTreeSet<String> = table().into_iter().map(String::from).collect();
    assert_eq!(named, expected);
}

#[test]
fn python_category_literal_matches_the_table() {
    let types = std::fs::read_to_string(root().join("python/guardscope/_types.py")).unwrap();
    let start = types.find("Category = Literal[").expect("the Literal") + "Category = Literal[".len();
    let body = &types[start..start + types[start..].find(']').unwrap()];
    let names: Vec<&str> = body
        .split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(names, table());
}
