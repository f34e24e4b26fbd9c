//! Graph breaks in the terminal and the gate: `summary` lists each distinct
//! break (where, what, registry id, torch's fix), `summary --json` carries
//! the same list, and `check --max-new-graph-breaks N --baseline` fails on
//! breaks the baseline does not log. On real logs: samples/traces/graph_breaks
//! (torch 2.15: Tensor.item() at line 36, an explicit graph_break() at line
//! 39 logged again at its frame's recompile) and the corpus's DDP run.

mod common;

use common::{guardscope, guardscope_env, root, summary_json};
use serde_json::Value;

const BREAKS: &str = "samples/traces/graph_breaks";
/// The same kind of training loop without a graph break.
const NO_BREAKS: &str = "samples/traces/collision";

#[test]
fn summary_names_each_break_with_its_line_registry_id_and_fix() {
    let out = guardscope_env(["summary", BREAKS], &[("COLUMNS", "110")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout;
    let section = &text[text.find("Graph breaks (2 distinct").expect(&text)..];
    let lines: Vec<&str> = section.lines().collect();
    assert_eq!(
        lines[1],
        "  Call to `torch._dynamo.graph_break()` [GB0025], logged 2 times (1/0, 1/1)"
    );
    assert!(
        lines[2].starts_with("      at ")
            && lines[2].contains("samples/scripts/graph_breaks.py:39: torch._dynamo.graph_break()"),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], "      fix: Remove the `torch._dynamo.graph_break()` call.");
    assert_eq!(
        lines[4],
        "  Unsupported Tensor.item() call with capture_scalar_outputs=False [GB0124], logged 1 time (0/0)"
    );
    // The site, then its code below it when the two do not fit one line.
    assert!(lines[5].contains("samples/scripts/graph_breaks.py:36:"), "{}", lines[5]);
    let code_lines = if lines[5].ends_with(':') { 1 } else { 0 };
    let code = lines[5..=5 + code_lines].join(" ");
    assert!(code.contains("if h.abs().mean().item() > 0.5:"), "{code}");
    assert!(
        lines[6 + code_lines].starts_with("      fix: Set `torch._dynamo.config.capture_scalar_outputs = True`"),
        "{}",
        lines[6]
    );
}

#[test]
fn a_run_without_breaks_has_no_section() {
    let out = guardscope(["summary", NO_BREAKS]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("Graph breaks ("), "{}", out.stdout);
}

#[test]
fn summary_json_lists_the_distinct_breaks() {
    let doc = summary_json(&root().join(BREAKS));
    let breaks = doc["graph_breaks"].as_array().expect("graph_breaks");
    assert_eq!(breaks.len(), doc["totals"]["graph_breaks"].as_u64().unwrap() as usize);
    let item = &breaks[1];
    assert_eq!(
        item["reason"],
        "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    );
    assert_eq!(item["registry_id"], "gb0124");
    assert!(item["user_line"]
        .as_str()
        .unwrap()
        .ends_with("samples/scripts/graph_breaks.py:36"));
    assert_eq!(
        item["user_code"],
        "if h.abs().mean().item() > 0.5:  # graph break: Tensor.item()"
    );
    assert!(item["hints"][0]
        .as_str()
        .unwrap()
        .starts_with("Set `torch._dynamo.config.capture_scalar_outputs = True`"));
    assert_eq!(item["count"], 1);
    assert_eq!(item["compile_ids"], serde_json::json!(["0/0"]));
    assert_eq!(item["frames"][0]["name"], "Net.forward");
    assert_eq!(breaks[0]["compile_ids"], serde_json::json!(["1/0", "1/1"]));
    assert_eq!(
        summary_json(&root().join(NO_BREAKS))["graph_breaks"],
        serde_json::json!([])
    );
}

#[test]
fn hints_that_only_ask_for_a_pytorch_issue_are_not_a_fix() {
    // The DDP run logs breaks whose only hints are "Please file an issue".
    let doc = summary_json(&root().join("tests/corpus/logs/torch2.15.0/ddp_gloo"));
    let hints: Vec<&str> = doc["graph_breaks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["hints"].as_array().unwrap())
        .map(|h| h.as_str().unwrap())
        .collect();
    assert!(!hints.is_empty());
    assert!(hints.iter().all(|h| !h.contains("issue to PyTorch")), "{hints:?}");
}

fn check(extra: &[&str]) -> (i32, Value, String) {
    let mut args = vec![
        "check",
        BREAKS,
        "--baseline",
        NO_BREAKS,
        "--max-recompiles",
        "99",
        "--max-new-frames",
        "99",
    ];
    args.extend_from_slice(extra);
    let text = guardscope(&args);
    args.push("--json");
    let json = guardscope(&args);
    assert_eq!(text.code, json.code, "{}", text.stdout);
    (
        json.code,
        serde_json::from_str(&json.stdout).expect("JSON"),
        text.stdout,
    )
}

#[test]
fn check_gates_on_graph_breaks_the_baseline_lacks() {
    // Without the flag: a new break fails the gate, as a new recompile does.
    let (code, v, text) = check(&[]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(v["new_graph_breaks"].as_array().unwrap().len(), 2);
    assert_eq!(v["new_graph_breaks_failed"], true);
    assert!(
        text.contains("error: graph breaks the baseline does not have:"),
        "{text}"
    );
    assert_eq!(
        v["message"],
        "FAIL: 2 new graph breaks versus the baseline (allowed: 0); 2 new recompiles (allowed: 99); \
         3 new frame(s) versus the baseline (allowed: 99)"
    );
    // Over the limit: exit 1, as any failed gate.
    let (code, v, text) = check(&["--max-new-graph-breaks", "1"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(v["passed"], false);
    assert_eq!(v["new_graph_breaks_failed"], true);
    assert!(
        text.contains("error: graph breaks the baseline does not have:"),
        "{text}"
    );
    assert!(text.contains("[GB0124] at "), "{text}");
    // At the limit: passes.
    let (code, _, text) = check(&["--max-new-graph-breaks", "2"]);
    assert_eq!(code, 0, "{text}");
    // The same run as its own baseline has no new break.
    let out = guardscope([
        "check",
        BREAKS,
        "--baseline",
        BREAKS,
        "--max-new-graph-breaks",
        "0",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["new_graph_breaks"], serde_json::json!([]));
}

#[test]
fn the_graph_break_limit_needs_a_baseline() {
    let out = guardscope(["check", BREAKS, "--max-new-graph-breaks", "0"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--baseline"), "{}", out.stderr);
}

#[test]
fn junit_names_the_new_breaks_when_they_fail_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("check.xml");
    let (code, _, _) = check(&["--max-new-graph-breaks", "0", "--junit", xml.to_str().unwrap()]);
    assert_eq!(code, 1);
    let xml = std::fs::read_to_string(&xml).unwrap();
    assert!(xml.contains("new graph break at "), "{xml}");
}
