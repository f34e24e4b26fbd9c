//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the fifth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios14 (timm's reset_classifier for a
//! new task, a diffusers Euler scheduler's step index, Phi greedy decoding without a cache,
//! EmbeddingBag offsets, cross_entropy's ignore_index per corpus, QAT observers, a selective-
//! checkpoint policy swapped; torch 2.12.1 and 2.14.1); tests/scenarios15 (a compiled
//! LightningModule reading current_epoch, a SimpleNamespace config mutated, PGD under enable_grad
//! in a no_grad evaluation, rotary embeddings with torch.polar, a module-level dict cache filled
//! lazily, a per-batch manual_seed; torch 2.13.0 and 2.15.0). Scores before and after are in each
//! set's README; this test holds the judgement where it is, the known misses listed (many are the
//! two truth writers of a set disagreeing with each other on one version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN14: &[Open] = &[
    (
        "diffusers_euler_sampling_step",
        "torch2.12.1",
        "1/1",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "selective_ckpt_policy_after_warmup",
        "*",
        "0/1",
        "category",
        "ours 'container_len', the truth 'nn_module_attr'",
    ),
    (
        "selective_ckpt_policy_after_warmup",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_reset_classifier_new_task",
        "torch2.12.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

const OPEN15: &[Open] = &[
    (
        "global_dict_grid_cache",
        "torch2.13.0",
        "0/1",
        "category",
        "ours 'dict_keys', the truth 'global_var'",
    ),
    (
        "global_dict_grid_cache",
        "torch2.13.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "global_dict_grid_cache",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "global_dict_grid_cache",
        "torch2.13.0",
        "0/4",
        "category",
        "ours 'dict_keys', the truth 'global_var'",
    ),
    (
        "global_dict_grid_cache",
        "torch2.13.0",
        "0/4",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "global_dict_grid_cache",
        "*",
        "0/4",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "lightning_compiled_noise_epochs",
        "torch2.13.0",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "lightning_compiled_noise_epochs",
        "torch2.13.0",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
];

#[test]
fn scenarios14_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios14/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 24,
        open: OPEN14,
    });
}

#[test]
fn scenarios15_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios15/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 6,
        recompiles: 22,
        open: OPEN15,
    });
}
