//! A guard text no row of the table reads (tests/data/unrecognised: a real
//! log with its one failed guard replaced by hand with a text torch never
//! writes) gets no invented reason anywhere: every view says "not
//! recognised" and shows the raw text, no fix is offered beyond what the
//! text says, and the gate fails on it whatever its budget.

mod common;

use common::{guardscope, root, summary_json};
use std::process::{Command, Stdio};

const LOG: &str = "tests/data/unrecognised";
const RAW: &str = "___guard_nobody_reads(mode, 7)";

#[test]
fn summary_json_says_not_recognised_with_no_owner_and_no_fix() {
    let doc = summary_json(&root().join(LOG));
    let r = &doc["recompiles"][0];
    let cause = &r["cause"];
    assert_eq!(cause["recognised"], false, "{cause}");
    assert_eq!(cause["form"], "unrecognised");
    assert_eq!(cause["category"], "other");
    assert!(
        cause["detail"].as_str().unwrap().starts_with("not recognised: "),
        "{cause}"
    );
    assert!(cause["raw"].as_str().unwrap().contains(RAW));
    let advice = cause["advice"].as_str().unwrap();
    assert!(advice.starts_with("No fix offered"), "{advice}");
    // Nothing the text does not say: not a flag, not a constant, not a tensor.
    for invented in ["flag", "two values", "as a tensor", "mark_dynamic", "Expected"] {
        assert!(!advice.contains(invented), "{invented} in {advice}");
    }
    assert_eq!(r["severity"], "problem");
    assert_eq!(r["evidence"]["kind"], "not_recognised");
    assert_eq!(r["owner"], "unknown");
    assert_eq!(r["reasons"][0]["recognised"], false);
}

#[test]
fn summary_text_and_the_page_show_the_raw_text_as_not_recognised() {
    let out = guardscope(["summary", LOG]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(&format!("not recognised: {RAW}")), "{}", out.stdout);
    assert!(out.stdout.contains("No fix offered"), "{}", out.stdout);
    assert!(!out.stdout.contains("two values at most"), "{}", out.stdout);

    let dir = tempfile::tempdir().unwrap();
    let page_dir = dir.path().join("r");
    let out = guardscope(["report", LOG, "-q", "-o", page_dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(page_dir.join("index.html")).unwrap();
    assert!(html.contains(&format!("not recognised: {RAW}")));
    assert!(html.contains("No fix offered"));
}

#[test]
fn check_fails_on_an_unrecognised_text_whatever_the_budget() {
    let out = guardscope(["check", LOG, "--max-recompiles", "5"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("1 recompile not recognised"), "{}", out.stdout);
    let out = guardscope(["check", LOG, "--max-recompiles", "5", "--json"]);
    assert_eq!(out.code, 1);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["passed"], false);
    assert_eq!(v["unrecognised"], 1);
    // Waiving unread texts is the user's explicit choice, by name.
    let waived = guardscope(["check", LOG, "--allow", "other"]);
    assert_eq!(waived.code, 0, "{}", waived.stdout);
    // A recognised recompile within the budget still passes.
    let known = guardscope([
        "check",
        "samples/traces/reasons/constant_value",
        "--max-recompiles",
        "5",
    ]);
    assert_eq!(known.code, 0, "{}", known.stdout);
}

#[test]
fn watch_reports_it_as_not_recognised() {
    let mut sleeper = Command::new("sleep").arg("1").spawn().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(["watch", "--json", "--until-exit", &sleeper.id().to_string(), LOG])
        .current_dir(root())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    sleeper.wait().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let event: serde_json::Value = stdout
        .lines()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("an event: {stdout}"));
    assert_eq!(event["recognised"], false, "{event}");
    assert_eq!(event["form"], "unrecognised");
    assert_eq!(event["evidence"]["kind"], "not_recognised");
    assert!(event["advice"].as_str().unwrap().starts_with("No fix offered"));
}
