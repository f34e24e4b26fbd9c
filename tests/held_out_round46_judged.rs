//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-12-01, the forty-sixth round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios97 (speech and audio: a CTC loss's reduction for dev scoring, a float64
//! mel front end check, per-corpus Kaiser window settings, mu-law channels per stage, a streaming
//! causal conv's carried cache, a VAD noise floor re-estimated per block, transformers' WavLM with
//! its feature encoder unfrozen; torch 2.12.1 and 2.14.1), tests/scenarios98 (language-model
//! fine-tuning and serving with PEFT and transformers: new chat tokens between LoRA stages, a
//! hand-written prefill and decode loop over a DynamicCache, per-request sampling warpers, base
//! weights cast to bfloat16 mid-serving, active adapter sets switched per request, VeRA merged
//! for evaluation; torch 2.12.1 and 2.14.1) and tests/scenarios99 (tabular data and
//! recommendation in plain torch: EmbeddingBag offsets, ablation jobs that drop a field by name,
//! a hashed table doubled, feature sets grown per stage, NaN fill values refreshed weekly, a
//! negatives schedule, train and eval alternating; torch 2.14.1 and 2.15.0). Scored with the
//! session's first binary before anything was read off them: 19 of 21, 10 of 26 and 15 of 36;
//! after the session's mechanisms (a library layer's state lists, a value None then a string, an
//! object None in one entry and a cache in the other, a decorated function's direct caller, a
//! dim made dynamic again) the counts the README gives. This test holds the judgement there, the
//! known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN97: &[Open] = &[
    // Where the truths of the two versions disagree: WavLM's unfrozen encoder
    // (user's attribute on 2.12, the library's on 2.14) and the streaming cache
    // None then a tensor (type change on 2.12, KV cache on 2.14).
    (
        "streaming_causal_conv_cache",
        "torch2.14.1",
        "0/1",
        "category",
        "ours 'type_change', the truth 'kv_cache'",
    ),
    (
        "wavlm_kws_unfreeze_feature_encoder",
        "torch2.12.1",
        "11/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

const OPEN98: &[Open] = &[
    // GPT-style owners the truths split on between versions (mpt temperature,
    // nemotron's cast, arcee's config field resized by a library method), and
    // set_adapter's side effect: the first failed guard is an adapter weight's
    // requires_grad (we say requires_grad, the truths the adapter switch).
    (
        "arcee_lora_chat_tokens_resize",
        "*",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "codegen_prefill_then_decode",
        "torch2.12.1",
        "0/1",
        "category",
        "ours 'shape_input', the truth 'kv_cache'",
    ),
    (
        "mpt_typical_epsilon_sampling",
        "torch2.12.1",
        "0/2",
        "owner",
        "ours 'user_argument', the truth 'library_attribute'",
    ),
    (
        "nemotron_lora_serve_bf16_cast",
        "torch2.12.1",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "persimmon_lora_active_adapter_sets",
        "*",
        "0/1",
        "category",
        "ours 'requires_grad', the truth 'nn_module_attr'",
    ),
    (
        "persimmon_lora_active_adapter_sets",
        "*",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
];

const OPEN99: &[Open] = &[
    // Ablation jobs: on a tie between an entry that failed on grad mode and
    // one that failed on the dropped field, we take the field (round 26's and
    // scenarios57/80's truths); these truths take the newest (grad mode).
    // Removing that preference costs scenarios57 2 and scenarios80 6.
    // Lines the truths of the two versions read differently (an argument's
    // guard line or its passing line).
    (
        "field_ablation_jobs",
        "*",
        "0/3",
        "category",
        "ours 'nn_module_attr', the truth 'torch_global_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/1', the truth '0/2'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/3",
        "owner",
        "ours 'user_attribute', the truth 'torch_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/5",
        "category",
        "ours 'nn_module_attr', the truth 'torch_global_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/5",
        "cause_entry",
        "ours '0/3', the truth '0/4'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/5",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/5",
        "owner",
        "ours 'user_attribute', the truth 'torch_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/5",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/7",
        "category",
        "ours 'nn_module_attr', the truth 'torch_global_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/7",
        "cause_entry",
        "ours '0/5', the truth '0/6'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/7",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/7",
        "owner",
        "ours 'user_attribute', the truth 'torch_state'",
    ),
    (
        "field_ablation_jobs",
        "*",
        "0/7",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "hashed_ids_bucket_doubling",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'shape_input'",
    ),
    (
        "hashed_ids_bucket_doubling",
        "torch2.15.0",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'shape_input'",
    ),
    (
        "hashed_ids_bucket_doubling",
        "torch2.15.0",
        "0/3",
        "category",
        "ours 'nn_module_attr', the truth 'shape_input'",
    ),
];

#[test]
fn scenarios97_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios97/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 21,
        open: OPEN97,
    });
}

#[test]
fn scenarios98_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios98/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 6,
        recompiles: 26,
        open: OPEN98,
    });
}

#[test]
fn scenarios99_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios99/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 36,
        open: OPEN99,
    });
}
