//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the seventh round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios18 (a diffusers DPM-Solver++ step
//! compiled per request, PEFT IA3 adapters switched around evaluation, a softplus parametrization
//! added and removed, timm's ModelEmaV3 warm-up, a timm ViT with dynamic_img_size at three
//! resolutions, a torchvision FPN detector with batched_nms, a VQ codebook grown, a WGAN-GP penalty
//! ramp; torch 2.12.1 and 2.14.1); tests/scenarios19 (Wav2Vec2 CTC on variable-length audio,
//! ViTMAE's mask ratio curriculum, Gemma use_cache per request, fuse_conv_bn_eval before serving,
//! F.one_hot without num_classes, checkpoint_sequential segments per stage, a Lightning lr read by
//! a loss compiled in configure_model, a distillation teacher ladder; torch 2.13.0 and 2.15.0).
//! Scores before and after are in each set's README; this test holds the judgement where it is, the
//! known misses listed (many are the two truth writers of a set disagreeing with each other on one
//! version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN18: &[Open] = &[
    (
        "diffusers_dpmsolver_request_steps",
        "torch2.12.1",
        "1/1",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "diffusers_dpmsolver_request_steps",
        "torch2.14.1",
        "1/2",
        "category",
        "ours 'constant_value', the truth 'type_change'",
    ),
    (
        "diffusers_dpmsolver_request_steps",
        "*",
        "1/2",
        "cause_entry",
        "ours '1/1', the truth '1/0'",
    ),
    (
        "diffusers_dpmsolver_request_steps",
        "torch2.12.1",
        "1/5",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "diffusers_dpmsolver_request_steps",
        "*",
        "1/7",
        "category",
        "ours 'shape_input', the truth 'constant_value'",
    ),
    (
        "peft_ia3_base_vs_adapted_eval",
        "torch2.14.1",
        "0/3",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "timm_vit_dynamic_img_eval",
        "torch2.12.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_vit_dynamic_img_eval",
        "torch2.12.1",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "tv_fpn_nms_serving_sizes",
        "*",
        "4/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "tv_fpn_nms_serving_sizes",
        "*",
        "5/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "tv_fpn_nms_serving_sizes",
        "*",
        "5/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "vq_codebook_grow_restart",
        "torch2.12.1",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "vq_codebook_grow_restart",
        "torch2.12.1",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN19: &[Open] = &[
    (
        "hf_vitmae_mask_ratio_curriculum",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "hf_vitmae_mask_ratio_curriculum",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "hf_vitmae_mask_ratio_curriculum",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "hf_vitmae_mask_ratio_curriculum",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "hf_wav2vec2_ctc_clips",
        "*",
        "19/1",
        "owner",
        "ours 'graph_break_value', the truth 'library_argument'",
    ),
];

#[test]
fn scenarios18_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios18/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 8,
        recompiles: 74,
        open: OPEN18,
    });
}

#[test]
fn scenarios19_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios19/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 8,
        recompiles: 46,
        open: OPEN19,
    });
}
