//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the seventeenth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios38 (BERT token_type_ids None or a
//! tensor, a Lightning callback writing hparams, a smooth_l1 reduction per phase, a MoCo momentum
//! encoder on a cosine schedule, kNN evaluation with k per config, a DANN gradient-reversal
//! coefficient, multi-crop self-distillation; torch 2.12.1 and 2.15.0); tests/scenarios39
//! (torchvision v2 colour jitter factors per batch, diffusers DDPM add_noise in the compiled step,
//! detection post-processing with batched_nms, einops layers rebuilt per resolution, a torchmetrics
//! F1 threshold sweep, PEFT prefix tuning of GPT-2, timm forward_intermediates per task head; torch
//! 2.12.1 and 2.14.1). Scores before and after are in each set's README; this test holds the
//! judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN38: &[Open] = &[];

const OPEN39: &[Open] = &[
    (
        "colour_jitter_v2_functional",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "colour_jitter_v2_functional",
        "torch2.12.1",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "colour_jitter_v2_functional",
        "*",
        "0/5",
        "cause_entry",
        "ours '0/2', the truth '0/4'",
    ),
    (
        "einops_patch_mixer_per_resolution",
        "*",
        "0/1",
        "category",
        "ours 'object_id', the truth 'shape_input'",
    ),
    (
        "einops_patch_mixer_per_resolution",
        "*",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'shape_input'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/2",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/3",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_threshold_sweep_eval",
        "*",
        "10/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

#[test]
fn scenarios38_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios38/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN38,
    });
}

#[test]
fn scenarios39_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios39/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 72,
        open: OPEN39,
    });
}
