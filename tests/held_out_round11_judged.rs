//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the eleventh round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios26 (a diffusers UNet whose attention
//! is fused mid-serving, a timm Swin resized between phases, a PEFT LoHa adapter merged for
//! serving, a pytree-registered batch with a sample rate, torch.roll shifted windows, one einsum
//! helper for three equations, an activation swapped in a ModuleDict; torch 2.12.1 and 2.14.1);
//! tests/scenarios27 (Mixtral with output_router_logits every fourth step, Mamba decode with
//! cache_params, Lightning freeze then unfreeze, a lazy R1 penalty, add_param_group mid-training, a
//! class-level counter, a torch.Size argument; torch 2.13.0 and 2.15.0). Scores before and after
//! are in each set's README; this test holds the judgement where it is, the known misses listed
//! (many are the two truth writers of a set disagreeing with each other on one version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN26: &[Open] = &[
    (
        "peft_loha_merge_serving",
        "*",
        "14/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "peft_loha_merge_serving",
        "torch2.12.1",
        "7/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "peft_loha_merge_serving",
        "torch2.14.1",
        "7/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "unet_fused_qkv_serving",
        "torch2.14.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

const OPEN27: &[Open] = &[
    (
        "gan_lazy_r1_penalty",
        "torch2.15.0",
        "0/1",
        "category",
        "ours None, the truth 'other'",
    ),
    (
        "gan_lazy_r1_penalty",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "optimizer_add_param_group_unfreeze",
        "torch2.15.0",
        "2/1",
        "category",
        "ours 'optimizer_state', the truth 'container_len'",
    ),
];

#[test]
fn scenarios26_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios26/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN26,
    });
}

#[test]
fn scenarios27_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios27/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 7,
        recompiles: 28,
        open: OPEN27,
    });
}
