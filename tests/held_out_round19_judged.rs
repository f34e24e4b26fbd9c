//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the nineteenth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios42 (FreeU switched per request style on
//! a diffusers UNet2DConditionModel, an attention processor swapped by set_attn_processor, BatchNorm
//! frozen after warm-up, timm pooling type switched by reset_classifier, F.huber_loss delta per
//! dataset, torch.movedim per camera-feed layout, torchmetrics multiclass_accuracy top_k; torch 2.12.1
//! and 2.14.1); tests/scenarios43 (Lightning BackboneFinetuning and StochasticWeightAveraging, HF BERT
//! with return_dict=False for some clients, searchsorted right= per dataset, autocast enabled per
//! phase, torchmetrics calibration n_bins per report, conv2d dilation per atrous rate; torch 2.14.1 and
//! 2.15.0). Scores before and after are in each set's README; this test holds the judgement where it
//! is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN42: &[Open] = &[
    (
        "channels_layout_ingest",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "frozen_batchnorm_finetune",
        "*",
        "0/2",
        "category",
        "ours 'torch_global_state', the truth 'nn_module_attr'",
    ),
    (
        "frozen_batchnorm_finetune",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/1', the truth '0/0'",
    ),
    (
        "frozen_batchnorm_finetune",
        "*",
        "0/2",
        "owner",
        "ours 'torch_state', the truth 'user_attribute'",
    ),
    (
        "timm_pool_type_probe",
        "*",
        "0/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "timm_pool_type_probe",
        "*",
        "0/3",
        "category",
        "ours 'type_change', the truth 'torch_global_state'",
    ),
    (
        "timm_pool_type_probe",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/1', the truth '0/2'",
    ),
    (
        "timm_pool_type_probe",
        "*",
        "0/3",
        "owner",
        "ours 'library_attribute', the truth 'torch_state'",
    ),
    (
        "unet_attn_processor_ablation",
        "*",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "unet_freeu_style_requests",
        "*",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "unet_freeu_style_requests",
        "torch2.12.1",
        "0/3",
        "category",
        "ours 'nn_module_attr', the truth 'type_change'",
    ),
    (
        "unet_freeu_style_requests",
        "torch2.14.1",
        "0/3",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "unet_freeu_style_requests",
        "torch2.14.1",
        "0/3",
        "cause_entry",
        "ours '0/2', the truth '0/1'",
    ),
    // None and an object's type are one value now, so FreeU's disabled entry (s1 None) differs in two values per block; the entry without the attribute (hasattr) differs in none the distance counts: a known limit, missing attributes are not counted
    (
        "unet_freeu_style_requests",
        "torch2.12.1",
        "0/3",
        "cause_entry",
        "ours '0/0', the truth '0/2'",
    ),
];

const OPEN43: &[Open] = &[
    (
        "lightning_backbone_finetuning_unfreeze",
        "*",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "lightning_swa_callback_regressor",
        "*",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
];

#[test]
fn scenarios42_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios42/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 28,
        open: OPEN42,
    });
}

#[test]
fn scenarios43_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios43/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 24,
        open: OPEN43,
    });
}
