//! One cause is one cause: in tests/corpus/logs/*/hf_gpt2_varlen (real
//! torch, a tiny random GPT-2), transformers' logging call splits the
//! compiled step into frames, and the one longer batch (16 -> 24 tokens)
//! recompiles four of them at the same call. Every surface counts one
//! cause beside the four recompiles.

mod common;

use common::{guardscope, summary_json};

fn log(version: &str, name: &str) -> std::path::PathBuf {
    common::root().join("tests/corpus/logs").join(version).join(name)
}

#[test]
fn one_length_change_across_frames_is_one_cause_in_the_json() {
    for version in ["torch2.15.0", "torch2.11.0"] {
        let doc = summary_json(&log(version, "hf_gpt2_varlen"));
        assert_eq!(doc["totals"]["recompiles"], 4, "{version}");
        assert_eq!(doc["totals"]["recompile_causes"], 1, "{version}");
        let cause = &doc["causes"][0];
        assert_eq!(cause["compile_ids"], serde_json::json!(["0/1", "1/1", "3/1", "4/1"]));
        assert_eq!(cause["change"], "dim 1: 16 -> 24");
        assert_eq!(cause["category"], "shape_input");
        assert!(cause["called_from"].as_str().unwrap().ends_with("train.py:16"));
        let groups: Vec<u64> = doc["recompiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cause_group"].as_u64().unwrap())
            .collect();
        assert_eq!(groups, vec![0, 0, 0, 0]);
    }
}

#[test]
fn different_changes_stay_different_causes() {
    // Two models, each with its own length change: two causes.
    let doc = summary_json(&log("torch2.15.0", "two_hf_models"));
    assert_eq!(doc["totals"]["recompiles"], 2);
    assert_eq!(doc["totals"]["recompile_causes"], 2);
    // One frame's recompiles for two changes (a config field, then the batch).
    let doc = summary_json(&log("torch2.15.0", "hf_bert_dataloader"));
    assert_eq!(doc["totals"]["recompile_causes"], doc["totals"]["recompiles"]);
}

#[test]
fn the_summary_counts_and_lists_the_cause_once() {
    let out = guardscope(["summary", log("torch2.15.0", "hf_gpt2_varlen").to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout.replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("· 4 recompiles from 1 cause ·"), "{}", out.stdout);
    assert!(
        text.contains("repeats): 4 recompiles from 1 cause"),
        "the expected list's head: {}",
        out.stdout
    );
    let expected = out
        .stdout
        .split("Expected (")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    // One entry for the cause (its first frame), the others folded under it.
    assert_eq!(
        expected
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .count(),
        1,
        "{expected}"
    );
    let folded = expected.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        folded.contains("the same change (dim 1: 16 -> 24) at the same call also recompiled 3 frames: 0/1 GPT2LMHeadModel via wrapper, 3/1 ForCausalLMLoss, 4/1 __init__"),
        "{expected}"
    );
    // One fix, for the cause's 10.28 s together.
    assert_eq!(expected.matches("fix: costly (10.28 s)").count(), 1, "{expected}");
}

#[test]
fn the_gate_counts_causes_beside_recompiles() {
    let out = guardscope([
        "check",
        "--json",
        log("torch2.15.0", "hf_gpt2_varlen").to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["offending"].as_array().unwrap().len(), 4);
    assert_eq!(v["offending_causes"], 1);
    assert_eq!(v["message"], "FAIL: 4 recompiles from 1 cause (allowed: 0)");
}

#[test]
fn the_gate_lists_a_cause_several_frames_share_once() {
    let out = guardscope(["check", log("torch2.15.0", "hf_gpt2_varlen").to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains("4 expected one-offs, from 1 cause;"),
        "{}",
        out.stdout
    );
    // Each counted recompile keeps its line; the cause's fix is given once.
    assert_eq!(out.stdout.matches("the same cause as 0/1").count(), 3, "{}", out.stdout);
    assert_eq!(out.stdout.matches("fix: ").count(), 1, "{}", out.stdout);
}

/// tests/scenarios3/logs/torch2.12.1/class_counter_warmup (real torch): a
/// class counter read in `forward` and, past a graph break, in its resume
/// function changes every call, so each call recompiles both frames: six
/// causes of two recompiles each (and the first and the limit in one frame).
fn warmup_log() -> String {
    common::root()
        .join("tests/scenarios3/logs/torch2.12.1/class_counter_warmup")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn what_to_fix_lists_a_cause_across_frames_once() {
    let out = guardscope(["summary", &warmup_log()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let fix = out
        .stdout
        .split("What to fix")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let heads: Vec<&str> = fix
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .collect();
    // One entry for the counter in both frames, one for the recompile limit.
    assert_eq!(heads.len(), 2, "{fix}");
    let text = fix.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(
            "13 recompiles in 2 frames (frame 2 WarmupGate.torch_dynamo_resume_in_forward_at_18, frame 1 forward) \
             caused by global WarmupGate.calls [global_var], 3.71 s: one change at one call recompiled each of these frames"
        ),
        "{fix}"
    );
    assert!(
        text.contains("frame 1 (forward): 7 recompiles (1/1, 1/2, 1/3, 1/4, 1/5, 1/6, 1/7), 1.26 s"),
        "{fix}"
    );
    assert_eq!(
        text.matches("fix: The compiled code reads the global").count(),
        1,
        "{fix}"
    );
    // --json keeps one record per recompile, linked to its cause.
    let doc = summary_json(std::path::Path::new(&warmup_log()));
    assert_eq!(doc["recompiles"].as_array().unwrap().len(), 15);
    assert_eq!(doc["totals"]["recompile_causes"], 9);
}

#[test]
fn the_page_has_one_card_per_cause() {
    for (input, cards, first_cost) in [
        (warmup_log(), 3, "13 recompiles in 2 frames · 3.71 s"),
        (
            log("torch2.15.0", "hf_gpt2_varlen").to_string_lossy().into_owned(),
            1,
            "4 recompiles in 4 frames · 10.3 s",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = guardscope(["report", "-q", &input, "-o", dir.path().to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
        let list = page
            .split(r#"<ol class="fixes">"#)
            .nth(1)
            .unwrap()
            .split("</ol>")
            .next()
            .unwrap();
        assert_eq!(list.matches(r#"<li class="card fix""#).count(), cards, "{input}");
        assert!(
            list.contains(&format!(r#"<span class="cost">{first_cost}</span>"#)),
            "{input}: {list}"
        );
    }
}
