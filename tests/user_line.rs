//! The user's line for every recompile (issue 37, item 2), on recorded logs
//! of code nobody here wrote (tests/scenarios2, tests/scenarios): where the
//! guard carries no comment into the user's code, the compile's other
//! recorded stacks still name the line that made the call, and where the
//! log holds none the output says so instead of inventing one.

mod common;

use common::{guardscope, root, summary_json};
use serde_json::Value;

const VERSIONS2: [&str; 2] = ["torch2.12.1", "torch2.14.1"];

fn recompile(version: &str, scenario: &str, id: &str) -> Value {
    let set = if version == "torch2.15.0" || version == "torch2.13.0" {
        "tests/scenarios/logs"
    } else {
        "tests/scenarios2/logs"
    };
    let s = summary_json(&root().join(set).join(version).join(scenario));
    s["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["compile_id"] == id)
        .unwrap_or_else(|| panic!("{version}/{scenario}: no recompile {id}"))
        .clone()
}

/// `(file:line of train.py, from)`, the path's directories dropped.
fn line(r: &Value) -> (String, String) {
    let u = &r["user_line"];
    let site = u["site"].as_str().unwrap_or_else(|| panic!("no user_line: {r}"));
    let short = site.rsplit('/').next().unwrap().to_string();
    (short, u["from"].as_str().unwrap().to_string())
}

/// The source the cause's reason quotes (`code`).
fn cause_code(r: &Value) -> &str {
    let i = r["cause_index"].as_u64().unwrap() as usize;
    r["reasons"][i]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no code: {r}"))
}

fn pair(site: &str, from: &str) -> (String, String) {
    (site.to_string(), from.to_string())
}

/// A `@torch.compile`-decorated function called with `vmap(grad(...))`
/// inside: `dynamo_start` holds only the compiled frame, but the stack torch
/// logged when it made the batch dim dynamic holds the call, train.py:32,
/// which is the compile's caller.
#[test]
fn a_decorated_function_under_vmap_gets_its_call_from_the_compile_stack() {
    for v in VERSIONS2 {
        for id in ["0/1", "0/2"] {
            let r = recompile(v, "vmap_per_sample_clip", id);
            assert_eq!(line(&r), pair("train.py:32", "caller"), "{v} {id}");
            let caller = r["called_from"].as_str().unwrap_or("");
            assert!(caller.ends_with("vmap_per_sample_clip/train.py:32"), "{v} {id}: {r}");
            assert_eq!(r["cause"]["source"], Value::Null, "{v} {id}");
        }
        let dir = root()
            .join("tests/scenarios2/logs")
            .join(v)
            .join("vmap_per_sample_clip");
        let out = guardscope([std::ffi::OsStr::new("summary"), dir.as_os_str()]);
        let text = &out.stdout;
        assert!(
            text.contains("vmap_per_sample_clip/train.py:32: g = clipped_mean_grad("),
            "{v}: {text}"
        );
    }
}

/// numpy traced by Dynamo in a decorated function: the length of the numpy
/// argument is passed at train.py:20 (from the compile's stack); the later
/// remainder guard of `np.array_split` has its own line, train.py:13, and
/// its entry (0/1, one value apart like 0/0) is the cause.
#[test]
fn numpy_in_a_decorated_function() {
    for v in VERSIONS2 {
        let first = recompile(v, "numpy_feature_window", "0/1");
        assert_eq!(line(&first), pair("train.py:20", "caller"), "{v}");
        let second = recompile(v, "numpy_feature_window", "0/2");
        assert_eq!(second["cause_entry"], "0/1", "{v}");
        assert_eq!(line(&second), pair("train.py:13", "guard"), "{v}");
        assert_eq!(cause_code(&second), "bands = np.array_split(spectrum, n_bands)", "{v}");
        assert_eq!(second["cause"]["category"], "shape_input", "{v}");
    }
}

/// A dynamic length bounded by a branch of the user's (`save_memory`): the
/// range guard's lower bound is torch's, its upper bound the branch's, and
/// the user's line is the branch, train.py:31, not the call.
#[test]
fn a_size_read_in_a_branch_points_at_the_branch() {
    for v in VERSIONS2 {
        let r = recompile(v, "checkpoint_memory_budget", "0/2");
        assert_eq!(line(&r), pair("train.py:31", "guard"), "{v}");
        let code = cause_code(&r);
        assert!(code.contains("if save_memory else"), "{v}: {code}");
    }
}

/// A tensor the caller passes changed: the user's line is the call that
/// passes it, not the line inside the compiled code that first reads it
/// (`torch.arange(tokens.shape[1])`, `self.pool(features, proposals, ...)`).
#[test]
fn a_tensor_argument_is_the_line_that_passes_it() {
    for v in VERSIONS2 {
        for (scenario, at) in [
            ("mark_unbacked_tokens", "train.py:32"),
            ("tv_roi_align_heads", "train.py:35"),
        ] {
            let r = recompile(v, scenario, "0/1");
            assert_eq!(line(&r), pair(at, "caller"), "{v} {scenario}");
            assert_eq!(r["cause"]["source"], Value::Null, "{v} {scenario}");
        }
    }
}

/// `torch.func.functional_call` in a compiled function called from a
/// script's top level, static shapes: no stack of the compile holds the
/// call (train.py:25), so the line given is the compiled function's own,
/// said as such, and no caller is named. The text says so in words
/// (samples/traces/reasons/shape_input: a top-level call at line 13).
#[test]
fn a_log_without_the_caller_says_so() {
    for v in ["torch2.15.0", "torch2.13.0"] {
        let r = recompile(v, "functional_call", "0/1");
        assert_eq!(line(&r), pair("train.py:10", "compiled_function"), "{v}");
        assert_eq!(r["called_from"], Value::Null, "{v}");
        assert_eq!(r["cause"]["source"], Value::Null, "{v}");
    }
    let dir = root().join("samples/traces/reasons/shape_input");
    let out = guardscope([std::ffi::OsStr::new("summary"), dir.as_os_str()]);
    let text = &out.stdout;
    assert!(
        text.contains(
            "shape_input.py:7 (the compiled function itself; the log records no line of yours that called it)"
        ),
        "{text}"
    );
    assert!(!text.contains("shape_input.py:13"), "{text}");
    assert!(!text.contains("shape_input.py:8"), "{text}");
}

/// A value computed before a graph break (`n = int(mask.sum().item())`):
/// later entries guard it with a comment into torch only, but the frame's
/// first failed entry names the user's line for the same value, train.py:14.
#[test]
fn a_graph_break_value_keeps_its_line_in_every_entry() {
    for v in ["torch2.15.0", "torch2.13.0"] {
        for id in ["1/1", "1/2", "1/3"] {
            let r = recompile(v, "graph_break_stack_value", id);
            assert_eq!(line(&r), pair("train.py:14", "guard"), "{v} {id}");
        }
    }
}

/// A function called from a script's top level whose compile made no
/// dynamic symbol (a changed `requires_grad`, a size of 0 or 1): its own
/// stacks hold no caller, but every other compile of the frame that logged
/// a symbol stack names the same call, so that line is the one. Truth from
/// tests/scenarios76 (written blind: `x, v = step(x, v, stiffness)` at
/// train.py:47 on torch 2.15.0) and the corpus's size_zero_one
/// (`loss = box_loss(pred, gt)` at train.py:16).
#[test]
fn a_top_level_call_is_taken_from_the_frames_other_compiles_when_they_agree() {
    let at = |dir: &str, id: &str| {
        let s = summary_json(&root().join(dir));
        let r = s["recompiles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["compile_id"] == id)
            .unwrap_or_else(|| panic!("{dir}: no recompile {id}"))
            .clone();
        line(&r)
    };
    for v in ["torch2.12.1", "torch2.15.0"] {
        let dir = format!("tests/scenarios76/logs/{v}/mass_spring_substep_simulation");
        assert_eq!(at(&dir, "0/1"), pair("train.py:47", "symbol_stack"), "{v}");
    }
    for v in ["torch2.11.0", "torch2.15.0"] {
        let dir = format!("tests/corpus/logs/{v}/size_zero_one");
        assert_eq!(at(&dir, "0/3"), pair("train.py:16", "symbol_stack"), "{v}");
    }
}

/// Layers unfrozen stage by stage (`requires_grad_(True)` on a block's
/// parameters): the guard is on a parameter's flag, which the user flips
/// where they unfreeze it, not where the graph reads it, so the line is the
/// call, as for any tensor guard (blind truth, tests/scenarios37:
/// `loss = loss_fn(compiled(x), y)` at train.py:60, torch 2.14.1 and 2.15.0).
#[test]
fn a_parameters_requires_grad_is_read_at_the_call_not_where_the_graph_uses_it() {
    for v in ["torch2.14.1", "torch2.15.0"] {
        let s = summary_json(&root().join(format!("tests/scenarios37/logs/{v}/gradual_unfreeze_finetune")));
        for r in s["recompiles"].as_array().unwrap() {
            assert_eq!(r["cause"]["category"], "requires_grad", "{v}: {r:#}");
            assert_eq!(line(r), pair("train.py:60", "caller"), "{v}: {r:#}");
        }
    }
}
