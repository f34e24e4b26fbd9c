//! Logs recorded by tests/recorded/scripts (real torch under TORCH_TRACE,
//! through tests/corpus/generate.py; see tests/recorded/README.md), each
//! for one thing a user relies on.

mod common;

use common::summary_json;

fn log(name: &str) -> std::path::PathBuf {
    common::root().join("tests/recorded/logs/torch2.15.0").join(name)
}

/// The shape fix of the recompile whose call line is `line` of the script.
fn fix_at(doc: &serde_json::Value, line: u32) -> String {
    let suffix = format!("train.py:{line}");
    let r = doc["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["cause"]["called_from"].as_str().is_some_and(|s| s.ends_with(&suffix)))
        .unwrap_or_else(|| panic!("no recompile called from {suffix}"));
    r["cause"]["advice"].as_str().unwrap().to_string()
}

#[test]
fn the_shape_fix_names_what_the_line_passes_to_the_compiled_call() {
    let doc = summary_json(&log("call_shapes"));
    // loss = F.cross_entropy(embed_c(ids).reshape(-1, 64), labels.reshape(-1))
    let nested = fix_at(&doc, 71);
    assert!(
        nested.contains("torch._dynamo.mark_dynamic(ids, 1) before the first call"),
        "{nested}"
    );
    assert!(!nested.contains("reshape"), "{nested}");
    // out = scaled_c(x=ids, scale=2.0).sum()
    assert!(fix_at(&doc, 72).contains("mark_dynamic(ids, 1)"));
    // y = torch.relu(shift_c(batch["ids"][:, :-1])): a slice is a new tensor.
    let sliced = fix_at(&doc, 73);
    assert!(
        sliced.contains(r#"`t = batch["ids"][:, :-1]; torch._dynamo.mark_dynamic(t, 1)`"#),
        "{sliced}"
    );
    assert!(!sliced.contains("shift_c("), "{sliced}");
    // p = pair_c(weights, ids): which one is `b` depends on the signature.
    assert!(fix_at(&doc, 74).contains("mark_dynamic(<the tensor you pass as b>, 1)"));
    // m = multi_c(   (the arguments are on the next lines)
    assert!(fix_at(&doc, 75).contains("mark_dynamic(<the tensor you pass as x>, 1)"));
    // total = summarize(mean_c(ids), 3)
    assert!(fix_at(&doc, 78).contains("mark_dynamic(ids, 1)"));
    // s = spread_c(**inputs).sum(): the dict's item is the tensor passed.
    let spread = fix_at(&doc, 79);
    assert!(
        spread.contains(r#"torch._dynamo.mark_dynamic(inputs["input_ids"], 1) before the first call"#),
        "{spread}"
    );
}
