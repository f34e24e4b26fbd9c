//! `summary` folds expected recompiles to one line, but one that cost a
//! second or more of compiling carries its fix (real logs of
//! samples/scripts/reasons/).

mod common;

use common::guardscope;

fn summary(dir: &str) -> String {
    let out = guardscope(["summary", dir, "--color", "never"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn a_costly_expected_recompile_shows_its_fix() {
    // One requires_grad recompile, expected, 5.64 s of compiling.
    let text = summary("samples/traces/reasons/requires_grad");
    let expected = text.split("Expected (").nth(1).expect("an Expected section");
    assert!(
        expected.contains("      fix: costly (5.64 s): Expected: argument x arrived"),
        "{text}"
    );
    assert!(!text.contains("What to fix"), "{text}");
}

#[test]
fn a_cheap_expected_recompile_stays_one_line() {
    // One dtype recompile, expected, 0.53 s.
    let text = summary("samples/traces/reasons/dtype");
    assert!(text.contains("Expected ("), "{text}");
    assert!(!text.contains("fix:"), "{text}");
}
