//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-second round (written from the script and the raw log by people who never ran guardscope,
//! before it first ran on the set): tests/scenarios48 (diffusers DDPM prediction_type per checkpoint,
//! torchvision deform_conv2d with a mask or None, AutoencoderKL slicing for large batches, F.gelu
//! approximate per checkpoint, ConvTranspose2d output sizes, interpolate antialias per resize policy,
//! layer_norm eps per checkpoint family; torch 2.12.1 and 2.14.1); tests/scenarios49 (pixel_unshuffle
//! factor per resolution, group_norm groups per width, DistilBERT head_mask sweep, kl_div log_target
//! and temperature per stage, Lightning accumulate_grad_batches stages, torchmetrics kl_divergence
//! report, torch.where smoothing scalar; torch 2.12.1 and 2.15.0). Scores before and after are in each
//! set's README; this test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN48: &[Open] = &[
    (
        "resize_policy_preprocess",
        "torch2.12.1",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "vae_decode_slicing_large_batches",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "vae_decode_slicing_large_batches",
        "torch2.14.1",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'global_var'",
    ),
    (
        "vae_decode_slicing_large_batches",
        "torch2.12.1",
        "0/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "vae_decode_slicing_large_batches",
        "torch2.14.1",
        "0/2",
        "owner",
        "ours 'library_attribute', the truth 'global'",
    ),
];

const OPEN49: &[Open] = &[
    (
        "groupnorm_width_sweep",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "groupnorm_width_sweep",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "groupnorm_width_sweep",
        "torch2.12.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "groupnorm_width_sweep",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "groupnorm_width_sweep",
        "torch2.12.1",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "groupnorm_width_sweep",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

#[test]
fn scenarios48_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios48/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 20,
        open: OPEN48,
    });
}

#[test]
fn scenarios49_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios49/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 28,
        open: OPEN49,
    });
}
