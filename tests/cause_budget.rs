//! Budgets that count causes: in tests/corpus/logs/torch2.15.0/hf_gpt2_varlen
//! (real torch, a tiny random GPT-2 that transformers' logging call splits
//! into frames) one longer batch recompiles four frames at one call: four
//! recompiles, one cause. `--max-recompile-causes` budgets the cause, in
//! `check`, `run --check` and `rehearse`, and every format says which
//! budget failed.

mod common;

use common::guardscope;
use serde_json::Value;

fn log() -> String {
    common::root()
        .join("tests/corpus/logs/torch2.15.0/hf_gpt2_varlen")
        .to_string_lossy()
        .into_owned()
}

fn check_json(flags: &[&str]) -> (i32, Value) {
    let log = log();
    let mut args = vec!["check", "--json"];
    args.extend_from_slice(flags);
    args.push(&log);
    let out = guardscope(args);
    (out.code, serde_json::from_str(&out.stdout).expect(&out.stderr))
}

#[test]
fn a_cause_budget_passes_one_cause_of_four_recompiles() {
    let (code, v) = check_json(&["--max-recompile-causes", "1"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["max_recompile_causes"], 1);
    // Given alone, the cause budget is the only recompile budget.
    assert_eq!(v["max_recompiles"], Value::Null);
    assert_eq!(
        v["message"],
        "PASS: 4 recompiles from 1 cause; 1 cause of recompiles (allowed: 1 cause)"
    );
}

#[test]
fn a_cause_budget_fails_and_says_so() {
    let (code, v) = check_json(&["--max-recompiles", "4", "--max-recompile-causes", "0"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["failed_budgets"], serde_json::json!(["--max-recompile-causes"]));
    assert_eq!(
        v["message"],
        "FAIL: 1 cause of recompiles (allowed: 0 causes); 4 recompiles from 1 cause (allowed: 4)"
    );
}

#[test]
fn the_default_gate_is_unchanged() {
    let (code, v) = check_json(&[]);
    assert_eq!(code, 1);
    assert_eq!(v["max_recompiles"], 0);
    assert_eq!(v["max_recompile_causes"], Value::Null);
    assert_eq!(v["failed_budgets"], serde_json::json!(["--max-recompiles"]));
    assert_eq!(v["message"], "FAIL: 4 recompiles from 1 cause (allowed: 0)");
}

#[test]
fn every_format_names_the_budget_that_failed() {
    let log = log();
    let flags = ["check", "--max-recompile-causes", "0", &log];
    let with = |format: &str| {
        let mut args = flags.to_vec();
        args.extend(["--format", format]);
        let out = guardscope(args);
        assert_eq!(out.code, 1, "{}", out.stderr);
        out.stdout
    };
    let markdown = with("markdown");
    assert!(
        markdown.contains(
            "**FAIL**: 1 cause of those recompiles, budget 0 (`--max-recompile-causes`); 4 recompiles counted."
        ),
        "{markdown}"
    );
    let github = with("github");
    assert!(
        github.ends_with("budgets exceeded: --max-recompile-causes\nFAIL: 1 cause of recompiles (allowed: 0 causes); 4 recompiles from 1 cause\n"),
        "{github}"
    );
    let sarif: Value = serde_json::from_str(&with("sarif")).unwrap();
    let props = &sarif["runs"][0]["properties"];
    assert_eq!(props["failedBudgets"], serde_json::json!(["--max-recompile-causes"]));
    assert_eq!(props["countedCauses"], 1);
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("junit.xml");
    let out = guardscope([
        "check",
        "--max-recompile-causes",
        "0",
        "--junit",
        xml.to_str().unwrap(),
        &log,
    ]);
    assert_eq!(out.code, 1);
    let xml = std::fs::read_to_string(xml).unwrap();
    assert!(
        xml.contains(r#"type="recompile_causes">budgets exceeded: --max-recompile-causes"#),
        "{xml}"
    );
}

#[test]
fn run_check_takes_the_same_budget() {
    // The command writes the recorded log where run's TORCH_TRACE points.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let copy = format!("cp {}/dedicated_log_torch_trace.log.gz \"$TORCH_TRACE\"/", log());
    let run = |budget: &str| {
        guardscope([
            "run",
            "--check",
            "--json",
            "-q",
            "--max-recompile-causes",
            budget,
            "--trace-dir",
            trace.to_str().unwrap(),
            "--",
            "sh",
            "-c",
            &copy,
        ])
    };
    let out = run("1");
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    std::fs::remove_dir_all(&trace).unwrap();
    let out = run("0");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["failed_budgets"], serde_json::json!(["--max-recompile-causes"]));
    // A gate flag without --check is refused before the command runs.
    let out = guardscope(["run", "--max-recompile-causes", "1", "--", "true"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("--max-recompile-causes is a gate flag: it needs --check"),
        "{}",
        out.stderr
    );
}

#[test]
fn help_teaches_the_difference_in_one_line() {
    for command in ["check", "run", "rehearse"] {
        let out = guardscope([command, "-h"]);
        assert!(
            out.stdout
                .contains("Causes of recompiles tolerated before failing: one cause can recompile many frames"),
            "{command}: {}",
            out.stdout
        );
    }
}
