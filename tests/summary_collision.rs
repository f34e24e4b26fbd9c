//! The incident sample (samples/traces/collision, made by real torch 2.15):
//! one frame compiled three times, recompiled first by the lazily grown
//! positional-encoding buffer, then by the forward-hook closure guard.

mod common;

use common::{guardscope, root, strings, summary_json, RECORDED_IN};
use serde_json::Value;

fn collision() -> Value {
    summary_json(&root().join("samples/traces/collision"))
}

#[test]
fn frame_zero_compiles_three_times_with_logged_durations() {
    let s = collision();
    let frames = s["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 1);
    let f = &frames[0];
    assert_eq!(f["frame_id"], 0);
    assert_eq!(f["function"], "forward");
    assert!(f["file"]
        .as_str()
        .unwrap()
        .ends_with("samples/scripts/_collision_model.py"));
    assert_eq!(f["line"], 117);
    assert_eq!(f["rank"], Value::Null);
    let ids = strings(&f["compiles"], "compile_id");
    assert_eq!(ids, ["0/0", "0/1", "0/2"]);
    // entire_frame_compile_time_s of each compile's compilation_metrics.
    let secs: Vec<f64> = f["compiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["duration_s"].as_f64().unwrap())
        .collect();
    assert_eq!(secs, [4.313713, 1.472404, 3.740532]);
    assert_eq!(f["compiles"][0]["start"].as_f64().unwrap(), 1795641705.852639);
    assert_eq!(f["compiles"][0]["backward_duration_s"].as_f64().unwrap(), 0.052004);
    for c in f["compiles"].as_array().unwrap() {
        assert_eq!(c["attempts"], 1);
        assert_eq!(c["failed"], false);
        assert_eq!(c["fail_reason"], Value::Null);
    }
    // Summed, then written with the log's six decimals.
    let summed = s["totals"]["compile_seconds"].as_f64().unwrap();
    assert!((summed - (4.313713 + 1.472404 + 3.740532)).abs() < 1e-6, "{summed}");
    assert_eq!(s["problems"]["count"], 0);
}

#[test]
fn first_recompile_is_the_lazily_grown_buffer() {
    let s = collision();
    let r = &s["recompiles"][0];
    assert_eq!(r["compile_id"], "0/1");
    assert_eq!(r["frame_id"], 0);
    assert_eq!(r["duration_s"].as_f64().unwrap(), 1.472404);
    let reasons = r["reasons"].as_array().unwrap();
    assert_eq!(reasons.len(), 1);
    assert_eq!(reasons[0]["entry"], "0/0");
    assert_eq!(
        reasons[0]["raw"],
        "0/0: tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32"
    );
    // The reason carries no file:line; the guard tree of entry 0/0 says
    // which user line read the buffer.
    assert_eq!(
        reasons[0]["source"],
        format!("{RECORDED_IN}/samples/scripts/_collision_model.py:59")
    );
    assert_eq!(reasons[0]["code"], "cached = self.pos_enc_cache.size(0)");
    assert_eq!(
        r["cause"]["source"],
        format!("{RECORDED_IN}/samples/scripts/_collision_model.py:59")
    );
}

#[test]
fn second_recompile_is_the_hook_closure_guard_with_its_source_line() {
    let s = collision();
    let r = &s["recompiles"][1];
    assert_eq!(r["compile_id"], "0/2");
    assert_eq!(r["duration_s"].as_f64().unwrap(), 3.740532);
    let reasons = r["reasons"].as_array().unwrap();
    // One reason per existing cache entry; the newest (0/1) is the cause.
    let entries = strings(&r["reasons"], "entry");
    assert_eq!(entries, ["0/1", "0/0"]);
    assert_eq!(r["cause_index"], 0);
    let cause = &reasons[0];
    assert_eq!(
        cause["guard"],
        "self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks[list(dict.keys(self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks))[0]].__closure__[0].cell_contents.capture_activation_norms == False"
    );
    assert_eq!(
        cause["source"],
        format!("{RECORDED_IN}/samples/scripts/_collision_model.py:180")
    );
    assert_eq!(cause["code"], "if not collector.capture_activation_norms:");
    assert_eq!(cause["hint"], "guard on \"collector\".capture_activation_norms");
    assert!(cause["raw"].as_str().unwrap().contains("\nUser stack trace:\n"));
}

#[test]
fn terminal_summary_lists_both_raw_reasons() {
    let out = guardscope(["summary", "samples/traces/collision"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("1 frame · 3 compiles · 2 recompiles · 0 failed · 0 graph breaks · 9.53 s compiling"),
        "{}",
        out.stdout
    );
    let lines: Vec<&str> = out.stdout.lines().collect();
    let r1 = lines
        .iter()
        .find(|l| l.trim_start_matches(['!', ' ']).starts_with("0/1 "))
        .expect("0/1 row");
    assert!(
        r1.contains("1.47 s") && r1.contains("size mismatch at index 0. expected 0, actual 32"),
        "{r1}"
    );
    let r2 = lines
        .iter()
        .find(|l| l.trim_start_matches(['!', ' ']).starts_with("0/2 "))
        .expect("0/2 row");
    assert!(r2.contains("capture_activation_norms == False"), "{r2}");
    assert!(
        r2.contains("samples/scripts/_collision_model.py:180]") && r2.contains("(+1 older)"),
        "{r2}"
    );
    assert!(!out.stdout.contains("input error"));
}

#[test]
fn fixed_sample_has_several_frames_and_no_recompiles() {
    let s = summary_json(&root().join("samples/traces/collision_fixed"));
    assert_eq!(s["frames"].as_array().unwrap().len(), 5);
    assert_eq!(s["recompiles"].as_array().unwrap().len(), 0);
    assert_eq!(s["totals"]["compiles"], 5);
}

#[test]
fn graph_break_sample_recompiles_resume_frames() {
    let s = summary_json(&root().join("samples/traces/graph_breaks"));
    let names = strings(&s["frames"], "function");
    assert_eq!(
        names,
        [
            "forward",
            "torch_dynamo_resume_in_forward_at_36",
            "torch_dynamo_resume_in_forward_at_39"
        ]
    );
    let recompiles = strings(&s["recompiles"], "compile_id");
    assert_eq!(recompiles, ["1/1", "2/1"]);
    // 1/1 restarted twice: three attempts of one logical compile.
    assert_eq!(s["frames"][1]["compiles"][1]["attempts"], 3);
    let cause = &s["recompiles"][1]["reasons"][0];
    assert_eq!(cause["guard"], "G['USE_RESIDUAL'] == False");
    assert_eq!(
        cause["source"],
        format!("{RECORDED_IN}/samples/scripts/graph_breaks.py:41")
    );
}

#[test]
fn dynamic_shapes_sample_recompiles_once_then_goes_dynamic() {
    let s = summary_json(&root().join("samples/traces/dynamic_shapes"));
    let r = s["recompiles"].as_array().unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(
        r[0]["reasons"][0]["raw"],
        "0/0: tensor 'x' size mismatch at index 1. expected 8, actual 16"
    );
    assert_eq!(s["problems"]["count"], 0);
}
