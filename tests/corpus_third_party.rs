//! Logs of code nobody here wrote (tests/corpus/README.md): Hugging Face
//! models, torch.optim with schedulers, DataLoader, DDP over gloo,
//! autocast, generate(), hooks; each script run from /home/user/proj with
//! torch installed in a venv outside this repository, on torch 2.15 and
//! 2.11. `truth.json` beside each log says what really happened (read from
//! the script and the log, not from guardscope). Every recompile is
//! checked for its category, culprit, the user's line and the fix.

mod common;

use common::{root, summary_json};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const VERSIONS: [&str; 2] = ["torch2.15.0", "torch2.11.0"];

/// What guardscope says of one recompile, on both torch versions.
struct Expect {
    scenario: &'static str,
    rank: Option<u64>,
    compile_id: &'static str,
    culprit: &'static str,
    /// Line of the scenario's train.py given as `called_from`.
    line: u32,
}

const fn e(
    scenario: &'static str,
    rank: Option<u64>,
    compile_id: &'static str,
    culprit: &'static str,
    line: u32,
) -> Expect {
    Expect {
        scenario,
        rank,
        compile_id,
        culprit,
        line,
    }
}

fn expected() -> Vec<Expect> {
    vec![
        e(
            "autocast_toggle",
            None,
            "0/1",
            "torch global state: autocast(cpu)_enabled",
            13,
        ),
        e("dataloader_drop_last", None, "0/1", "positional argument 0", 16),
        e("ddp_gloo", Some(1), "0/1", "positional argument 0", 21),
        e("dict_kwargs_keys", None, "0/1", "argument batch", 9),
        e("dtype_change", None, "0/1", "positional argument 0", 15),
        e("eval_no_grad", None, "0/1", "torch global state: grad_mode", 25),
        e("frozen_backbone", None, "0/1", "backbone.0.bias (parameter)", 28),
        e("global_flag", None, "0/1", "global USE_RESIDUAL", 28),
        e(
            "graph_break_item",
            None,
            "1/1",
            "a value computed before a graph break (___stack1)",
            26,
        ),
        e(
            "graph_break_item",
            None,
            "1/2",
            "a value computed before a graph break (___stack1)",
            26,
        ),
        e("hf_bert_dataloader", None, "0/1", "self.config.problem_type", 29),
        e("hf_bert_dataloader", None, "0/2", "argument input_ids", 29),
        e("hf_gpt2_generate", None, "0/1", "argument input_ids", 17),
        e(
            "hf_gpt2_generate",
            None,
            "0/2",
            "argument past_key_values.layers[0].keys",
            17,
        ),
        e("hf_gpt2_generate", None, "0/3", "argument input_ids", 17),
        e(
            "hf_gpt2_generate_static",
            None,
            "0/1",
            "generate()'s keyword arguments",
            17,
        ),
        e("hf_gpt2_generate_static", None, "0/2", "argument input_ids", 17),
        e(
            "hf_gpt2_generate_static",
            None,
            "0/3",
            "argument past_key_values.layers[0].keys",
            17,
        ),
        e("hf_gpt2_varlen", None, "0/1", "argument input_ids", 16),
        e("hf_gpt2_varlen", None, "1/1", "argument input_ids", 16),
        e("hf_gpt2_varlen", None, "3/1", "argument labels", 16),
        e("hf_gpt2_varlen", None, "4/1", "argument logits", 16),
        e("hf_llama_train_eval", None, "0/1", "torch global state: grad_mode", 35),
        e("hf_output_attentions", None, "0/1", "argument output_attentions", 15),
        e("hf_output_attentions", None, "1/1", "argument output_attentions", 15),
        e("hf_output_attentions", None, "7/1", "argument key", 15),
        e("hook_flag_after_lengths", None, "0/1", "positional argument 0", 33),
        e("hook_flag_after_lengths", None, "0/2", "positional argument 0", 33),
        e(
            "hook_flag_after_lengths",
            None,
            "0/3",
            "torch global state: grad_mode",
            42,
        ),
        e("hook_flag_after_lengths", None, "0/4", "metrics.on", 33),
        e("hook_flag_flip", None, "0/1", "global metrics.on", 28),
        e("hook_flag_flip", None, "0/2", "global metrics.norms", 28),
        e("hook_flag_flip", None, "0/3", "global metrics.norms", 28),
        e("lazy_buffer", None, "0/1", "0.pos_cache (buffer)", 27),
        e("module_step_counter", None, "0/1", "self.step", 24),
        e("module_step_counter", None, "0/2", "self.step", 24),
        e("module_step_counter", None, "0/3", "self.step", 24),
        e("module_step_counter", None, "0/4", "self.step", 24),
        e("module_step_counter", None, "0/5", "self.step", 24),
        e("module_step_counter", None, "0/6", "self.step", 24),
        e("module_step_counter", None, "0/7", "self.step", 24),
        e("module_step_counter", None, "0/8", "self.step", 24),
        e("new_attribute", None, "0/1", "self.output_scale", 26),
        e("no_auto_dynamic", None, "0/1", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/2", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/3", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/4", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/5", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/6", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/7", "positional argument 0", 14),
        e("no_auto_dynamic", None, "0/8", "positional argument 0", 14),
        e("optim_adamw_cosine", None, "2/1", "optimizer param_groups[0]['lr']", 13),
        e("optim_recreated", None, "0/1", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/2", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/3", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/4", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/5", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/6", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/7", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "0/8", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/1", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/2", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/3", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/4", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/5", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/6", "the optimizer (SGD)", 17),
        e("optim_recreated", None, "1/7", "the optimizer (SGD)", 17),
        e(
            "optim_sgd_steplr",
            None,
            "2/1",
            "optimizer state (its first step creates it)",
            13,
        ),
        e("optim_sgd_steplr", None, "2/2", "optimizer param_groups[0]['lr']", 13),
        e("optim_sgd_steplr", None, "2/3", "optimizer param_groups[0]['lr']", 13),
        e("optim_sgd_steplr", None, "2/4", "optimizer param_groups[0]['lr']", 13),
        e("partial_per_call", None, "0/1", "act.keywords['min']", 17),
        e("partial_per_call", None, "0/2", "act.keywords['min']", 17),
        e("partial_per_call", None, "0/3", "act.keywords['min']", 17),
        e("partial_per_call", None, "0/4", "act.keywords['min']", 17),
        e("partial_per_call", None, "0/5", "act.keywords['min']", 17),
        e("requires_grad_input", None, "0/1", "positional argument 0", 13),
        e("sequential", None, "0/1", "positional argument 0", 13),
        e("sequential", None, "0/2", "positional argument 0", 13),
        e("size_zero_one", None, "0/1", "argument gt_boxes", 6),
        e("size_zero_one", None, "0/2", "argument pred_boxes", 6),
        e("size_zero_one", None, "0/3", "argument gt_boxes", 6),
        e("stride_transpose", None, "0/1", "argument x", 6),
        e("transformer_encoder", None, "0/1", "positional argument 0", 15),
        e("two_hf_models", None, "0/1", "argument input_ids", 22),
        e("two_hf_models", None, "1/1", "argument input_ids", 23),
    ]
}

/// The fix each category must name: the library pattern's own advice.
fn advice_fragments(category: &str) -> &'static [&'static str] {
    match category {
        "shape_input" => &["mark_dynamic(", "mark_unbacked("],
        "optimizer_hyperparam" => &["lr=torch.tensor("],
        "optimizer_state" => &["take one optimizer step before compiling"],
        "optimizer_recreated" => &["Create the optimizer (and its LR scheduler) once"],
        "kv_cache" => &["cache_implementation=\"static\""],
        "shape_lazy_buffer" => &["Pre-materialize"],
        "torch_global_state" => &["One compile per mode is expected"],
        "closure_hook_state" => &["@torch._dynamo.disable"],
        "nn_module_attr" => &["before compiling"],
        "requires_grad" => &["requires_grad"],
        "dtype" => &["Cast"],
        "stride" => &[".contiguous()"],
        "dict_keys" => &["same keys", "same dict keys"],
        "container_len" => &["container", "same keys", "@torch._dynamo.disable"],
        "global_var" => &["as an argument"],
        "constant_value" => &["tensor", "string option", "a flag"],
        "new_attribute" => &["Set every attribute in __init__"],
        "cache_limit" => &["runs eagerly, uncompiled, for the rest of the process"],
        other => panic!("no advice fragment for {other}"),
    }
}

/// Scenarios whose `dynamo_start` stacks name no caller of the compiled
/// function: a function decorated with @torch.compile, or a compiled bound
/// method whose direct caller torch drops from `dynamo_start`. Where the
/// stack torch logged while tracing the compile (create_symbol) or a graph
/// break's traceback of the same call names it (optim_recreated), that is
/// the caller; else guardscope says so (`called_from: null`) instead of
/// naming the decorator line, and the truth's line is provably absent from
/// the compile's stack.
const NO_CALLER_IN_LOG: [&str; 4] = [
    "dict_kwargs_keys",
    "size_zero_one",
    "stride_transpose",
    "optim_recreated",
];

fn scenarios(version: &str) -> Vec<PathBuf> {
    common::truth_scenarios("tests/corpus/logs", version)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn line_of(site: &str) -> u32 {
    site.rsplit(':').next().unwrap().parse().unwrap()
}

#[test]
fn every_recompile_of_third_party_code_is_diagnosed() {
    let table = expected();
    let mut checked = 0;
    for version in VERSIONS {
        let dirs = scenarios(version);
        assert!(dirs.len() >= 30, "{version}: only {} scenarios", dirs.len());
        for dir in dirs {
            let scenario = dir.file_name().unwrap().to_str().unwrap().to_string();
            let truth = read_json(&dir.join("truth.json"));
            let summary = summary_json(&dir);
            let ours = summary["recompiles"].as_array().unwrap();
            let truths = truth["recompiles"].as_array().unwrap();
            assert_eq!(ours.len(), truths.len(), "{version}/{scenario}: recompile count");
            let train = format!("/home/user/proj/{scenario}/train.py");
            for t in truths {
                let id = t["compile_id"].as_str().unwrap();
                let rank = t["rank"].as_u64();
                let at = format!("{version}/{scenario} {id}");
                let r = ours
                    .iter()
                    .find(|r| r["compile_id"] == id && (rank.is_none() || r["rank"].as_u64() == rank))
                    .unwrap_or_else(|| panic!("{at}: not reported"));
                let cause = &r["cause"];
                let x = table
                    .iter()
                    .find(|x| x.scenario == scenario && x.compile_id == id && x.rank == rank)
                    .unwrap_or_else(|| panic!("{at}: no expectation"));

                // Category: the truth's, or the recompile limit for a compile
                // Dynamo refused (its culprit is what filled the cache).
                let category = cause["category"].as_str().unwrap();
                if t["limit"] == true {
                    assert_eq!(category, "cache_limit", "{at}");
                    let detail = cause["detail"].as_str().unwrap();
                    assert!(detail.contains(t["category"].as_str().unwrap()), "{at}: {detail}");
                } else {
                    assert_eq!(category, t["category"], "{at}");
                }
                assert_eq!(cause["culprit"], x.culprit, "{at}");
                let advice = cause["advice"].as_str().unwrap();
                // A value a library's own code passes is not the user's to
                // change: the advice says so instead of the category's fix.
                let mut fragments = advice_fragments(category).to_vec();
                if r["owner"] == "library_argument" {
                    fragments.push("No action needed in your calls");
                }
                assert!(
                    fragments.iter().any(|f| advice.contains(f)),
                    "{at}: advice {advice:?} lacks {fragments:?}"
                );

                // The user's line, whole, in the user's script; none when
                // the log does not hold the caller (never the decorator line).
                let truth_line: u32 = line_of(t["called_from"].as_str().unwrap());
                let truth_site = format!("{train}:{truth_line}");
                // Where the Python stack torch logged while tracing the
                // compile names the call, it is the truth's own line.
                if NO_CALLER_IN_LOG.contains(&scenario.as_str()) && r["called_from"] == truth_site.as_str() {
                    checked += 1;
                    continue;
                }
                if NO_CALLER_IN_LOG.contains(&scenario.as_str()) {
                    assert_eq!(r["called_from"], Value::Null, "{at}: a caller the log does not hold");
                    let calls: Vec<u32> = r["user_calls"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| line_of(c.as_str().unwrap()))
                        .collect();
                    assert!(!calls.contains(&truth_line), "{at}: line {truth_line} is in the log");
                    checked += 1;
                    continue;
                }
                let from = r["called_from"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{at}: no called_from"));
                assert_eq!(from, format!("{train}:{}", x.line), "{at}");
                assert_eq!(cause["called_from"], r["called_from"], "{at}");
                let calls: Vec<u32> = r["user_calls"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| line_of(c.as_str().unwrap()))
                    .collect();
                if truth_line != x.line {
                    // An outer call (the training loop around a compiled
                    // function that calls the frame): listed, not chosen.
                    assert!(calls.contains(&truth_line), "{at}: {calls:?} lacks {truth_line}");
                }
                if let Some(src) = cause["source"].as_str() {
                    assert!(src.starts_with('/'), "{at}: source {src} is not whole");
                }

                // The entry that matters, and what changed.
                let same_everywhere = scenario == "optim_recreated" || (scenario == "size_zero_one" && id == "0/3");
                if !same_everywhere {
                    assert_eq!(cause["entry"], t["cause_entry"], "{at}");
                }
                let truth_changed = !t["changed"].as_array().unwrap().is_empty();
                let changed = r["changed"].as_array().unwrap();
                if truth_changed && r["cause"]["category"] != "cache_limit" && !changed.is_empty() {
                    assert!(changed.iter().all(|c| c["old"] != c["new"]), "{at}");
                }

                let severity = if t["expected"] == true { "expected" } else { "problem" };
                assert_eq!(r["severity"], severity, "{at}: evidence {}", r["evidence"]);
                // What decided it is said, and the cause entry is a field.
                assert!(!r["evidence"]["text"].as_str().unwrap().is_empty(), "{at}");
                assert_eq!(r["cause_entry"], cause["entry"], "{at}");
                checked += 1;
            }
            // torch's shortened paths (`ome/user/proj/...`) never reach output.
            let text = summary.to_string();
            assert!(
                !text.contains("\"ome/user"),
                "{version}/{scenario}: shortened path in JSON"
            );
        }
    }
    assert!(checked >= 160, "only {checked} recompiles checked");
}

#[test]
fn what_changed_is_listed_beyond_the_one_guard_dynamo_reports() {
    // eval() together with no_grad: Dynamo names only grad_mode.
    for version in VERSIONS {
        let s = summary_json(&root().join("tests/corpus/logs").join(version).join("eval_no_grad"));
        let r = &s["recompiles"][0];
        assert_eq!(r["cause"]["category"], "torch_global_state");
        let subjects: BTreeSet<&str> = r["changed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["subject"].as_str().unwrap())
            .collect();
        assert!(subjects.contains("grad_mode"), "{version}: {subjects:?}");
        assert!(
            subjects.iter().any(|s| s.ends_with(".training")),
            "{version}: {subjects:?}"
        );
    }
}

#[test]
fn the_cause_is_the_entry_closest_to_the_new_call() {
    // Two length-specialised entries, a no_grad entry, then a hook flag
    // flips at a length seen before: the newest failed entry is grad mode,
    // the cause is entry 0/0's flag.
    for version in VERSIONS {
        let s = summary_json(
            &root()
                .join("tests/corpus/logs")
                .join(version)
                .join("hook_flag_after_lengths"),
        );
        let r = s["recompiles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["compile_id"] == "0/4")
            .unwrap();
        assert_eq!(r["reasons"][0]["category"], "torch_global_state", "{version}");
        assert_eq!(r["cause"]["entry"], "0/0", "{version}");
        assert_eq!(r["cause"]["category"], "closure_hook_state", "{version}");
        assert_eq!(r["cause"]["culprit"], "metrics.on", "{version}");
        assert_eq!(r["cause_ambiguous"], false, "{version}");
    }
}

#[test]
fn terminal_summary_leads_with_problems_and_names_lone_ranks() {
    let dir = root().join("tests/corpus/logs/torch2.15.0");
    let out = common::guardscope([Path::new("summary"), &dir.join("ddp_gloo")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("rank 1 recompiled frame 0 (DistributedDataParallel via inner) once; the other ranks never"),
        "{}",
        out.stdout
    );
    let out = common::guardscope([Path::new("summary"), &dir.join("optim_sgd_steplr")]);
    let text = &out.stdout;
    let fix = text.find("What to fix").expect("a problems section");
    let expected = text.find("Expected (made dynamic").expect("an expected section");
    assert!(fix < expected, "{text}");
    assert!(text.contains(
        "3 recompiles of frame 2 (SGD.step, sgd.py:106) caused by optimizer param_groups[0]['lr'] [optimizer_hyperparam]"
    ));
    assert!(text.contains("called from /home/user/proj/optim_sgd_steplr/train.py:13: opt.step()"));
    assert!(
        text.contains("changed: self.param_groups[0]['lr']: 0.1 -> 0.05"),
        "{text}"
    );
    assert!(!text.contains(" ome/user") && !text.contains("[ome/user"), "{text}");
    let out = common::guardscope([Path::new("summary"), &dir.join("no_auto_dynamic")]);
    assert!(out
        .stdout
        .contains("frame 0 (Sequential via inner) hit the recompile limit at 0/8: from then on it runs eagerly"));
    assert!(out
        .stdout
        .contains("automatic_dynamic_shapes is off in this compile's config"));
}

#[test]
fn corpus_categories() {
    // The categories the corpus exercises, besides those of samples/.
    let mut seen = BTreeSet::new();
    for version in VERSIONS {
        for dir in scenarios(version) {
            for t in read_json(&dir.join("truth.json"))["recompiles"].as_array().unwrap() {
                seen.insert(t["category"].as_str().unwrap().to_string());
            }
        }
    }
    for c in [
        "optimizer_hyperparam",
        "optimizer_state",
        "optimizer_recreated",
        "kv_cache",
        "new_attribute",
    ] {
        assert!(seen.contains(c), "no third-party log for {c}");
    }
}
