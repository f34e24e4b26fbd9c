//! The gate sees what a change does to what runs compiled, in every
//! format: a frame that now runs eagerly and graph breaks the baseline does
//! not have fail it by default, each named at its line with its cost.
//!
//! samples/traces/hook_loop and hook_loop_disabled (real torch 2.15): a
//! model whose forward loops over its blocks, a metrics hook on each block;
//! plain, forward recompiles when the hook's flag flips; decorated with
//! `@torch._dynamo.disable` (guardscope's advice for such a hook), the hook
//! is a graph break inside the loop and Dynamo skips forward: it runs
//! eagerly every call.

mod common;

use common::ci_formats::*;
use common::guardscope;
use serde_json::Value;

const PLAIN: &str = "samples/traces/hook_loop";
const DISABLED: &str = "samples/traces/hook_loop_disabled";
const MODEL: &str = "samples/scripts/_hook_loop_model.py";
const BREAKS: &str = "samples/traces/graph_breaks";
const NO_BREAKS: &str = "samples/traces/collision";

fn gate(args: &[&str]) -> (i32, Value) {
    let out = check(&[args, &["--json"]].concat());
    (out.code, serde_json::from_str(&out.stdout).expect("JSON verdict"))
}

#[test]
fn a_hook_disabled_inside_a_loop_fails_the_gate_by_default() {
    let out = check(&[DISABLED, "--baseline", PLAIN]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let text = out.stdout.replace("\n      ", " ").replace("\n  ", " ");
    assert!(
        text.contains(&format!(
            "forward ({MODEL}:43) is not compiled: it runs eagerly every call, because Dynamo skips a function \
             with a graph break inside a loop (Skip calling `torch.compiler.disable()`d function) at {MODEL}:46: \
             x = block(x) (0/0)"
        )),
        "{text}"
    );
    assert!(
        text.contains("FAIL: 1 frame runs eagerly that the baseline compiled (allowed: 0): forward; 1 new graph break"),
        "{text}"
    );
    let (code, v) = gate(&[DISABLED, "--baseline", PLAIN]);
    assert_eq!(code, 1);
    assert_eq!(v["offending"], serde_json::json!([]), "no recompile is new");
    assert_eq!(v["eager_frames_failed"], true);
    let e = &v["eager_frames"][0];
    assert_eq!(v["eager_frames"].as_array().unwrap().len(), 1);
    assert_eq!(
        (e["why"].as_str(), e["frame"]["line"].as_u64()),
        (Some("skipped"), Some(43))
    );
    assert_eq!(e["per_call"], "it runs eagerly every call");
    assert_eq!(line_of(&e["user_line"]), 46);
    // The new break says what it costs: the frame it skips.
    let g = &v["new_graph_breaks"][0];
    assert_eq!(
        g["per_call"],
        "Dynamo skips forward (_hook_loop_model.py:43) for it: runs eagerly every call"
    );
    // Tolerated on purpose, it passes; the same run as its own baseline adds nothing.
    let (code, _) = gate(&[
        DISABLED,
        "--baseline",
        PLAIN,
        "--max-eager-frames",
        "1",
        "--max-new-graph-breaks",
        "1",
    ]);
    assert_eq!(code, 0);
    let (code, v) = gate(&[DISABLED, "--baseline", DISABLED]);
    assert_eq!(code, 0, "{v}");
    // Without a baseline the skipped frame fails the gate too.
    let (code, v) = gate(&[DISABLED]);
    assert_eq!(code, 1);
    assert_eq!(
        v["message"],
        "FAIL: 1 frame runs eagerly (allowed: 0): forward; 0 recompiles (allowed: 0)"
    );
    // The plain run compiles forward: no eager frame, its recompiles fail.
    let (_, v) = gate(&[PLAIN]);
    assert_eq!(v["eager_frames"], serde_json::json!([]));
    // Its hook fix says what the decorator costs in a loop, before it is followed.
    let advice = v["offending"][0]["advice"].as_str().unwrap();
    assert!(advice.contains("@torch._dynamo.disable"), "{advice}");
    assert!(
        advice.contains(
            "Dynamo skips the whole function that loops, which then runs eagerly: there, compile each block instead"
        ),
        "{advice}"
    );
}

#[test]
fn summary_and_the_page_name_the_frame_that_runs_eagerly() {
    let out = guardscope(["summary", DISABLED]);
    assert_eq!(out.code, 0);
    let text = out.stdout.replace("\n      ", " ");
    assert!(text.contains("0 recompiles · 1 failed · 1 graph break"), "{text}");
    assert!(text.contains("1 frame runs eagerly, not compiled"), "{text}");
    assert!(text.contains("Not compiled (these frames run eagerly"), "{text}");
    assert!(
        text.contains(&format!(
            "  forward ({MODEL}:43) is not compiled: it runs eagerly every call, because"
        )),
        "{text}"
    );
    assert!(text.contains("fix: The break is a function decorated with torch._dynamo.disable"));
    let dir = tempfile::tempdir().unwrap();
    let report = guardscope(["report", DISABLED, "-o", dir.path().to_str().unwrap(), "--overwrite"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(page.contains("1 frame is not compiled: it runs eagerly (forward)."));
    assert!(page.contains("<b>Not compiled:</b> forward ("));
    assert!(!page.contains("Nothing to fix"));
}

#[test]
fn every_format_places_the_eager_frame_and_the_new_break_at_their_line() {
    let args = [DISABLED, "--baseline", PLAIN];
    let github = check(&[&args[..], &["--format", "github"]].concat());
    assert_eq!(github.code, 1);
    let (commands, plain) = parse_commands(&github.stdout);
    let eager = commands
        .iter()
        .find(|c| c.property("title") == Some("guardscope: forward runs eagerly (not compiled)"))
        .expect("an annotation for the eager frame");
    assert_eq!(eager.name, "error");
    assert_eq!(
        (eager.property("file"), eager.property("line")),
        (Some(MODEL), Some("46"))
    );
    assert!(eager.message.contains("is not compiled: it runs eagerly every call"));
    let brk = commands
        .iter()
        .find(|c| c.message.starts_with("New graph break: Skip calling"))
        .expect("an annotation for the new break");
    assert_eq!((brk.name.as_str(), brk.property("line")), ("error", Some("46")));
    // The budgets that failed, then the verdict as the last line.
    assert_eq!(
        plain.first().map(|l| l.as_ref()),
        Some("budgets exceeded: --max-eager-frames, --max-new-graph-breaks"),
        "{plain:?}"
    );
    assert!(
        plain.last().unwrap().starts_with("FAIL: 1 frame runs eagerly"),
        "{plain:?}"
    );

    let sarif = valid_sarif(&check(&[&args[..], &["--format", "sarif"]].concat()).stdout);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let rules: Vec<&str> = results.iter().map(|r| r["ruleId"].as_str().unwrap()).collect();
    assert_eq!(rules, ["eager_frame", "new_graph_break"]);
    for r in results {
        assert_eq!(r["level"], "error");
        assert_eq!(place(r), (MODEL.to_string(), Some("%SRCROOT%"), 46));
    }

    let markdown = check(&[&args[..], &["--format", "markdown"]].concat()).stdout;
    assert!(
        markdown.contains(
            "**FAIL**: 1 frame runs eagerly that the baseline compiled, budget 0 (`--max-eager-frames`); \
             1 graph break not in the baseline, budget 0 (`--max-new-graph-breaks`); 0 recompiles"
        ),
        "{markdown}"
    );
    assert!(markdown.contains(&format!("| forward ({MODEL}:43) | 0/0 | it runs eagerly every call |")));
    assert!(
        markdown.contains(&format!("\\[GB0098\\] | 0/0 | {MODEL}:46 |")),
        "{markdown}"
    );

    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("check.xml");
    check(&[&args[..], &["--junit", xml.to_str().unwrap()]].concat());
    let xml = std::fs::read_to_string(&xml).unwrap();
    assert!(xml.contains(r#"<failure message="FAIL: 1 frame runs eagerly"#), "{xml}");
    assert!(xml.contains("runs eagerly: forward ("), "{xml}");
}

#[test]
fn new_graph_breaks_that_fail_the_gate_are_in_every_review_format() {
    // graph_breaks breaks Net.forward at lines 36 and 39; collision has no break.
    let args = [
        BREAKS,
        "--baseline",
        NO_BREAKS,
        "--max-recompiles",
        "99",
        "--max-new-frames",
        "99",
        "--max-new-graph-breaks",
        "0",
    ];
    let script = "samples/scripts/graph_breaks.py";
    let github = check(&[&args[..], &["--format", "github"]].concat());
    assert_eq!(github.code, 1);
    let (commands, _) = parse_commands(&github.stdout);
    let mut lines: Vec<&str> = commands
        .iter()
        .filter(|c| c.message.starts_with("New graph break:"))
        .inspect(|c| assert_eq!((c.name.as_str(), c.property("file")), ("error", Some(script))))
        .filter_map(|c| c.property("line"))
        .collect();
    lines.sort();
    assert_eq!(lines, ["36", "39"]);

    let sarif = valid_sarif(&check(&[&args[..], &["--format", "sarif"]].concat()).stdout);
    let mut lines: Vec<u64> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ruleId"] == "new_graph_break")
        .map(|r| place(r).2)
        .collect();
    lines.sort();
    assert_eq!(lines, [36, 39]);

    let markdown = check(&[&args[..], &["--format", "markdown"]].concat()).stdout;
    assert!(
        markdown.contains("**FAIL**: 2 graph breaks not in the baseline, budget 0 (`--max-new-graph-breaks`); "),
        "{markdown}"
    );
    assert!(markdown.contains("**Error**: graph breaks the baseline does not have:"));
    for line in [36, 39] {
        assert!(markdown.contains(&format!("| {script}:{line} |")), "{markdown}");
    }
}
