//! Every fix guardscope prints is checked against what guardscope says after
//! it was followed. Each pair in samples/scripts/fix_after/ is a small real
//! program (`<kind>_before.py`) and the same program with exactly the fix
//! guardscope prints for the before log applied (`<kind>_after.py`), both
//! recorded under torch 2.15 (samples/traces/fix_after/). For each pair:
//! the before's fix names what the after applies; the after has no
//! recompile of the before's cause (or the before's fix said one stays);
//! no advice in the after undoes the fix or gives it again; a graph break
//! or an eagerly run frame the fix adds is named, with its cost, in the
//! before's fix; and no recompile the after keeps is a problem.

mod common;

use common::{root, summary_json};
use serde_json::Value;

struct Pair {
    kind: &'static str,
    /// Words of the before's fix that the after applies (verbatim where
    /// the fix gives code).
    applied: &'static str,
    /// What the after script holds for it (the fix's code, its
    /// placeholders filled in).
    code: &'static str,
    /// The before's cause: the value whose change recompiled, as the
    /// culprit names it (case aside; a global passed in as an argument
    /// keeps its name).
    cause: &'static str,
    /// Where the fix cannot remove every recompile of the cause: the words
    /// of the before's fix that say so.
    remains: Option<&'static str>,
    /// Advice that would undo this fix.
    undo: &'static [&'static str],
    /// What the fix adds in this program, that the before's fix must say
    /// (beside the general cost of a graph break).
    cost_here: &'static [&'static str],
}

const PAIRS: &[Pair] = &[
    Pair {
        kind: "hook_state",
        applied: "decorate the hook body with @torch._dynamo.disable",
        code: "@torch._dynamo.disable\ndef record_norm(",
        cause: "collector.",
        remains: None,
        cost_here: &[],
        undo: &["Remove the", "remove the decorator", "without the decorator"],
    },
    Pair {
        kind: "shape",
        applied: "torch._dynamo.mark_dynamic(x, 0)",
        code: "torch._dynamo.mark_dynamic(x, 0)",
        cause: "argument x",
        remains: None,
        cost_here: &[],
        undo: &["drop the mark_dynamic", "remove the mark_dynamic", "mark_static"],
    },
    Pair {
        kind: "shape_static",
        applied: "torch._dynamo.mark_dynamic(<the tensor you pass as x>, 0)",
        code: "torch._dynamo.mark_dynamic(x, 0)",
        cause: "argument x",
        remains: None,
        cost_here: &[],
        undo: &["drop the mark_dynamic", "remove the mark_dynamic", "mark_static"],
    },
    Pair {
        kind: "module_attr",
        applied: "make it a buffer (a tensor)",
        code: "self.register_buffer(\"temperature\", torch.tensor(1.0))",
        cause: "temperature",
        remains: None,
        cost_here: &[],
        undo: &["Python float", "don't make it a tensor"],
    },
    Pair {
        kind: "optimizer_lr",
        applied: "torch.optim.AdamW(params, lr=torch.tensor(1e-3))",
        code: "torch.optim.AdamW(model.parameters(), lr=torch.tensor(1e-3))",
        cause: "['lr']",
        remains: None,
        cost_here: &[],
        undo: &["lr as a float", "Python float lr"],
    },
    Pair {
        kind: "none_arg",
        applied: "always pass a tensor that means the same as None (an all-ones attention mask",
        code: "torch.ones_like(x)",
        cause: "mask",
        remains: None,
        cost_here: &[],
        undo: &["pass None"],
    },
    Pair {
        kind: "dtype_attr",
        applied: "keep one dtype for the compiled call and cast outside it",
        code: "compiled(torch.randn(4, 8)).to(model.out_dtype)",
        cause: "out_dtype",
        remains: None,
        cost_here: &[],
        undo: &["cast inside"],
    },
    Pair {
        kind: "graph_break",
        applied: "torch._dynamo.config.capture_scalar_outputs = True",
        code: "torch._dynamo.config.capture_scalar_outputs = True",
        cause: "graph break",
        remains: None,
        cost_here: &[],
        undo: &["capture_scalar_outputs = False"],
    },
    Pair {
        kind: "hook_loop",
        applied: "there, compile each block instead",
        code: "block.compile(backend=\"aot_eager\")",
        cause: "collector.",
        remains: None,
        cost_here: &[],
        undo: &[
            "Remove the",
            "remove the decorator",
            "without the decorator",
            "compile the model",
        ],
    },
    Pair {
        kind: "global_flag",
        applied: "branch on it outside the compiled function",
        code: "compiled_fast(x) if USE_FAST_PATH else compiled_slow(x)",
        cause: "use_fast_path",
        remains: None,
        cost_here: &[],
        undo: &["read it inside"],
    },
    Pair {
        kind: "module_int",
        applied: "torch._dynamo.config.allow_unspec_int_on_nn_module = True",
        code: "torch._dynamo.config.allow_unspec_int_on_nn_module = True",
        cause: "self.k",
        remains: Some("that one recompile stays"),
        cost_here: &[],
        undo: &["allow_unspec_int_on_nn_module = False"],
    },
    Pair {
        kind: "recompile_limit",
        applied: "torch.compile(..., recompile_limit=N)",
        code: "block.compile(backend=\"aot_eager\", recompile_limit=10)",
        cause: "padding",
        remains: Some("each distinct value needs its own graph"),
        cost_here: &[],
        undo: &["lower the recompile limit"],
    },
    Pair {
        kind: "shape_spec",
        applied: "torch.compile(..., dynamic_shapes=ShapesSpec({\"x\": TensorSpec([ShapeVar(\"x_0\"), None])}))",
        code: "dynamic_shapes=ShapesSpec({\"x\": TensorSpec([ShapeVar(\"x_0\"), None])})",
        cause: "argument x",
        remains: None,
        cost_here: &[],
        undo: &["drop the dynamic_shapes", "remove the dynamic_shapes"],
    },
    Pair {
        kind: "hook_sequential",
        applied: "decorate the hook body with @torch._dynamo.disable",
        code: "@torch._dynamo.disable\ndef record_norm(",
        cause: "collector.",
        remains: None,
        cost_here: &["nn.Sequential's forward", "runs eagerly every call"],
        undo: &["Remove the", "remove the decorator", "without the decorator"],
    },
];

fn doc(kind: &str, side: &str) -> Value {
    summary_json(&root().join(format!("samples/traces/fix_after/{kind}_{side}")))
}

fn strs(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str)
}

/// Every piece of advice a log gets: the fix of each recompile, torch's or
/// guardscope's hints for each graph break, the fix of each frame that runs
/// eagerly.
fn advice(d: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in d["recompiles"].as_array().unwrap() {
        out.extend(r["cause"]["advice"].as_str().map(String::from));
    }
    for g in d["graph_breaks"].as_array().unwrap() {
        out.extend(strs(&g["hints"]).map(String::from));
    }
    for e in d["eager_frames"].as_array().unwrap() {
        out.extend(e["fix"].as_str().map(String::from));
    }
    // Each text once: a fix shared by recompiles is one fix.
    let mut seen = std::collections::HashSet::new();
    out.retain(|a| seen.insert(a.clone()));
    out
}

/// The words a recompile is known by: its culprit and what changed.
fn names_of(r: &Value) -> String {
    let mut s = r["cause"]["culprit"].as_str().unwrap_or("").to_string();
    for c in r["changed"].as_array().into_iter().flatten() {
        s.push(' ');
        s.push_str(c["subject"].as_str().unwrap_or(""));
    }
    s.to_lowercase()
}

fn eager_names(d: &Value) -> Vec<String> {
    d["eager_frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["frame"]["name"].as_str().unwrap().to_string())
        .collect()
}

fn break_reasons(d: &Value) -> Vec<String> {
    d["graph_breaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["reason"].as_str().unwrap().to_string())
        .collect()
}

fn check(p: &Pair) -> Vec<String> {
    let mut wrong = Vec::new();
    let before = doc(p.kind, "before");
    let after = doc(p.kind, "after");
    let fixes = advice(&before);
    // The fix the after applies is what guardscope printed for the before.
    let Some(fix) = fixes.iter().find(|f| f.contains(p.applied)) else {
        return vec![format!("no advice for the before log says {:?}: {fixes:#?}", p.applied)];
    };
    let script = root().join(format!("samples/scripts/fix_after/{}_after.py", p.kind));
    let script = std::fs::read_to_string(&script).expect("after script");
    if !script.contains(p.code) {
        wrong.push(format!("the after script does not hold {:?}", p.code));
    }
    // The cause is gone, or the before's fix said it would stay.
    let cause = p.cause.to_lowercase();
    let kept: Vec<&Value> = after["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| names_of(r).contains(&cause))
        .collect();
    let kept_breaks =
        cause == "graph break" && break_reasons(&after).iter().any(|r| break_reasons(&before).contains(r));
    if !kept.is_empty() || kept_breaks {
        match p.remains {
            Some(words) if fix.contains(words) => {}
            _ => wrong.push(format!(
                "the after log still recompiles for {:?} ({}) and the before's fix did not say it would: {fix}",
                p.cause,
                kept.iter()
                    .map(|r| r["compile_id"].as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    // No advice after the fix undoes it, or gives it again.
    for a in advice(&after) {
        for u in p.undo.iter().chain(&["Remove the `torch.compiler.disable`"]) {
            if a.contains(u) {
                wrong.push(format!("after the fix, advice says {u:?}: {a}"));
            }
        }
        if a.contains(p.applied) {
            wrong.push(format!("after the fix, advice gives the fix again: {a}"));
        }
    }
    // A graph break the fix adds is named in its text, with its cost.
    let old = break_reasons(&before);
    for reason in break_reasons(&after).iter().filter(|r| !old.contains(r)) {
        if !(fix.contains("graph break per") && fix.contains("inside a loop")) {
            wrong.push(format!(
                "the fix adds the graph break {reason:?} and does not name it with its cost (one per call; in a loop, the enclosing function runs eagerly): {fix}"
            ));
        }
    }
    for words in p.cost_here {
        if !fix.contains(words) {
            wrong.push(format!(
                "the fix does not say what it costs in this program ({words:?}): {fix}"
            ));
        }
    }
    // A frame the fix leaves running eagerly is named in its text.
    let old = eager_names(&before);
    for name in eager_names(&after).iter().filter(|n| !old.contains(n)) {
        if !fix.contains("runs eagerly") {
            wrong.push(format!(
                "the fix leaves {name} running eagerly and does not say so: {fix}"
            ));
        }
    }
    // The verdict after does not contradict the fix: what recompiles after
    // it is expected, not a new problem.
    for r in after["recompiles"].as_array().unwrap() {
        if r["severity"] == "problem" {
            wrong.push(format!(
                "after the fix, {} is a problem ({}): {}",
                r["compile_id"], r["evidence"]["text"], r["cause"]["advice"]
            ));
        }
    }
    wrong
}

#[test]
fn every_fix_holds_when_followed() {
    let mut failed = Vec::new();
    for p in PAIRS {
        for w in check(p) {
            failed.push(format!("{}: {w}", p.kind));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn every_pair_is_tested_and_recorded() {
    // A pair added to samples/scripts/fix_after/ without a row here (or a
    // row without its scripts and logs) is a fix nobody checks.
    let dir = root().join("samples/scripts/fix_after");
    let mut kinds: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix("_before.py").map(String::from)
        })
        .collect();
    kinds.sort();
    let mut listed: Vec<String> = PAIRS.iter().map(|p| p.kind.to_string()).collect();
    listed.sort();
    assert_eq!(kinds, listed);
    for k in &kinds {
        for side in ["before", "after"] {
            assert!(dir.join(format!("{k}_{side}.py")).is_file(), "{k}_{side}.py");
            let log = root().join(format!(
                "samples/traces/fix_after/{k}_{side}/dedicated_log_torch_trace.log.gz"
            ));
            assert!(log.is_file(), "{}", log.display());
        }
    }
}
