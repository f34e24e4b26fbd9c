//! Every recompile category CPU torch can produce, each from a real log made
//! by samples/scripts/reasons/<name>.py: the cause of the recompile is
//! classified with the right category, culprit and user source line.

mod common;

use common::{root, summary_json};
use serde_json::Value;

struct Case {
    sample: &'static str,
    compile_id: &'static str,
    category: &'static str,
    culprit: &'static str,
    source: Option<&'static str>,
    /// A fragment the detail must contain.
    detail: &'static str,
}

const fn case(
    sample: &'static str,
    compile_id: &'static str,
    category: &'static str,
    culprit: &'static str,
    source: Option<&'static str>,
    detail: &'static str,
) -> Case {
    Case {
        sample,
        compile_id,
        category,
        culprit,
        source,
        detail,
    }
}

fn src(file_line: &'static str) -> Option<&'static str> {
    Some(file_line)
}

fn cases() -> Vec<Case> {
    vec![
        case(
            "reasons/shape_lazy_buffer",
            "0/1",
            "shape_lazy_buffer",
            "pos_encoding.pos_enc_cache (buffer)",
            // The reason has no line; the failed entry's guard tree does.
            src("samples/scripts/reasons/shape_lazy_buffer.py:19"),
            "expected 0, actual 8; it started empty and was lazily grown",
        ),
        case(
            "reasons/shape_input",
            "0/1",
            "shape_input",
            "argument x",
            // An argument of the compiled function: its line is the call
            // that passes it, not where `f` reads it (line 8), and a
            // top-level call with static shapes logs no caller.
            None,
            "expected 4, actual 5; automatic_dynamic_shapes is off in this compile's config",
        ),
        case(
            "reasons/shape_input_dynamic",
            "0/2",
            "shape_input",
            "argument x",
            src("samples/scripts/reasons/shape_input_dynamic.py:13"),
            "sizes 0 and 1 are specialized",
        ),
        case(
            "reasons/stride",
            "0/1",
            "stride",
            "argument x",
            None,
            "expected 4, actual 1",
        ),
        case(
            "reasons/dtype",
            "0/1",
            "dtype",
            "argument x",
            None,
            "expected Float, actual Double",
        ),
        case(
            "reasons/device",
            "0/1",
            "device",
            "argument x",
            None,
            "expected CPU, actual Meta",
        ),
        case(
            "reasons/requires_grad",
            "0/1",
            "requires_grad",
            "argument x",
            None,
            "requires_grad",
        ),
        case(
            "reasons/closure_hook_state",
            "0/1",
            "closure_hook_state",
            "collector.enabled",
            src("samples/scripts/reasons/closure_hook_state.py:19"),
            "in activation_hook",
        ),
        case(
            "reasons/closure_state",
            "0/1",
            "closure_state",
            "config.use_bias",
            src("samples/scripts/reasons/closure_state.py:11"),
            "a closure variable",
        ),
        case(
            "reasons/global_var",
            "0/1",
            "global_var",
            "global USE_FAST_PATH",
            src("samples/scripts/reasons/global_var.py:10"),
            "global",
        ),
        case(
            "reasons/torch_global_state",
            "0/1",
            "torch_global_state",
            "torch global state: grad_mode",
            None,
            "",
        ),
        case(
            "reasons/torch_global_state",
            "0/2",
            "torch_global_state",
            "torch global state: autocast(cpu)_enabled",
            None,
            "",
        ),
        case(
            "reasons/nn_module_attr",
            "0/1",
            "nn_module_attr",
            "drop.training",
            src("samples/scripts/reasons/nn_module_attr.py:16"),
            "train()",
        ),
        case(
            "reasons/nn_module_attr",
            "0/2",
            "nn_module_attr",
            "self.num_repeats",
            src("samples/scripts/reasons/nn_module_attr.py:15"),
            "baked into the graph",
        ),
        case(
            "reasons/object_id",
            "0/1",
            "function_identity",
            "function activation",
            src("samples/scripts/reasons/object_id.py:16"),
            "a different function object was passed",
        ),
        case(
            "reasons/type_change",
            "0/1",
            "type_change",
            "argument dims",
            src("samples/scripts/reasons/type_change.py:8"),
            "was list",
        ),
        case(
            "reasons/constant_value",
            "0/1",
            "constant_value",
            "argument mode",
            src("samples/scripts/reasons/constant_value.py:8"),
            "constant",
        ),
        case(
            "reasons/container_len",
            "0/1",
            "container_len",
            "argument tensors",
            src("samples/scripts/reasons/container_len.py:8"),
            "compiled for 2",
        ),
        case(
            "reasons/dict_keys",
            "0/1",
            "dict_keys",
            "argument inputs",
            src("samples/scripts/reasons/dict_keys.py:9"),
            "key 'mask'",
        ),
        case(
            "reasons/hooks_changed",
            "0/1",
            "hooks_changed",
            "forward_hooks on module 0",
            None,
            "added or removed",
        ),
        case(
            "reasons/hooks_changed",
            "0/2",
            "hooks_changed",
            "forward_hooks on the compiled module",
            None,
            "added or removed",
        ),
        case(
            "reasons/cache_limit",
            "0/2",
            "cache_limit",
            "argument mode",
            src("samples/scripts/reasons/cache_limit.py:13"),
            "recompile limit hit",
        ),
        case(
            "collision",
            "0/1",
            "shape_lazy_buffer",
            "pos_encoding.pos_enc_cache (buffer)",
            src("samples/scripts/_collision_model.py:59"),
            "expected 0, actual 32",
        ),
        case(
            "collision",
            "0/2",
            "closure_hook_state",
            "collector.capture_activation_norms",
            src("samples/scripts/_collision_model.py:180"),
            "in activation_hook",
        ),
        case(
            "graph_breaks",
            "1/1",
            "constant_value",
            "a value computed before a graph break (___stack0)",
            src("samples/scripts/graph_breaks.py:36"),
            ".item()",
        ),
        case(
            "graph_breaks",
            "2/1",
            "global_var",
            "global USE_RESIDUAL",
            src("samples/scripts/graph_breaks.py:41"),
            "global",
        ),
    ]
}

fn recompile<'a>(summary: &'a Value, id: &str) -> &'a Value {
    summary["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["compile_id"] == id)
        .unwrap_or_else(|| panic!("no recompile {id}"))
}

#[test]
fn every_category_from_a_real_log() {
    for c in cases() {
        let s = summary_json(&root().join("samples/traces").join(c.sample));
        let r = recompile(&s, c.compile_id);
        let cause = &r["cause"];
        let at = format!("{} {}", c.sample, c.compile_id);
        assert_eq!(cause["category"], c.category, "{at}");
        assert_eq!(cause["culprit"], c.culprit, "{at}");
        // The JSON keeps the full path the log holds (where the samples
        // were recorded), never torch's shortened one.
        let full = c.source.map(|s| format!("{}/{s}", common::RECORDED_IN));
        assert_eq!(cause["source"].as_str(), full.as_deref(), "{at}");
        let detail = cause["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains(c.detail),
            "{at}: detail {detail:?} lacks {:?}",
            c.detail
        );
        let advice = cause["advice"].as_str().unwrap();
        assert!(advice.len() > 40, "{at}: advice {advice:?}");
        // The cause is the reason of the newest failed entry, kept raw.
        let idx = r["cause_index"].as_u64().unwrap() as usize;
        assert_eq!(cause["raw"], r["reasons"][idx]["raw"], "{at}");
        assert_eq!(cause["entry"], r["reasons"][idx]["entry"], "{at}");
    }
}

#[test]
fn every_category_the_cpu_can_produce_is_covered() {
    // By the samples here, or by the third-party corpus (whose categories
    // tests/corpus_third_party.rs asserts recompile by recompile).
    let mut covered: std::collections::BTreeSet<String> = cases().iter().map(|c| c.category.to_string()).collect();
    for version in std::fs::read_dir(root().join("tests/corpus/logs")).unwrap() {
        for scenario in std::fs::read_dir(version.unwrap().path()).unwrap() {
            let truth = scenario.unwrap().path().join("truth.json");
            let truth: Value = serde_json::from_str(&std::fs::read_to_string(truth).unwrap()).unwrap();
            for r in truth["recompiles"].as_array().unwrap() {
                covered.insert(r["category"].as_str().unwrap().to_string());
            }
        }
    }
    // object_id: the common identity guards have their own categories now
    // (a new function, a new optimizer); what is left (a new backend
    // object, a bare ___check_obj_id) has only hand-made snippets: no CPU
    // program tried on torch 2.11 or 2.15 fails one (a new nn.Module or
    // plain object per call does not recompile).
    let without_real_log = ["other", "object_id"];
    for name in guardscope::reasons::Category::ALL.iter().map(|c| c.name()) {
        if !without_real_log.contains(&name) {
            assert!(covered.contains(name), "no real-log test for {name}");
        }
    }
}

#[test]
fn advice_names_the_fix_for_the_incident_causes() {
    let s = summary_json(&root().join("samples/traces/collision"));
    let buffer = &recompile(&s, "0/1")["cause"]["advice"];
    assert!(buffer
        .as_str()
        .unwrap()
        .contains("Pre-materialize pos_encoding.pos_enc_cache (buffer) in __init__"));
    let hook = &recompile(&s, "0/2")["cause"]["advice"];
    assert!(hook.as_str().unwrap().contains("@torch._dynamo.disable"));
    // Reasons of older entries are classified too, never dropped.
    let older = &recompile(&s, "0/2")["reasons"][1];
    assert_eq!(older["category"], "shape_lazy_buffer");
    let groups = s["culprits"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["compile_ids"], serde_json::json!(["0/2"]));
}

#[test]
fn unknown_guard_text_falls_to_other_with_the_raw_text() {
    let g = guardscope::reasons::split("0/0: ___some_future_guard(x, 42)  # y = f(x)  # m.py:3 in g");
    let r = guardscope::reasons::classify(&g);
    assert_eq!(r.category, guardscope::reasons::Category::Other);
    assert_eq!(r.source.as_deref(), Some("m.py:3"));
    assert!(r.detail.unwrap().contains("___some_future_guard(x, 42)"));
}
