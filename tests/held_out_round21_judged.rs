//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-first round (written from the script and the raw log by people who never ran guardscope,
//! before it first ran on the set): tests/scenarios46 (F.scaled_dot_product_attention scale per model
//! config, clip_grad_value_ per phase, F.pad value per dataset, masked_fill by activation dtype,
//! functools.partial losses per data source, an augmentation set grown by a curriculum, torchmetrics
//! MeanMetric nan_strategy groups; torch 2.14.1 and 2.15.0); tests/scenarios47 (v2 gaussian_blur per
//! corruption severity, diffusers DDIM eta per request, torchmetrics multiclass_f1_score average per
//! report section, torchvision FeaturePyramidNetwork over two backbones, PEFT LoRA with two task heads,
//! roi_align per detector config, a triplet margin curriculum; torch 2.12.1 and 2.14.1). Scores before
//! and after are in each set's README; this test holds the judgement where it is, the known misses
//! listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN46: &[Open] = &[
    (
        "meanmetric_nan_strategy_groups",
        "torch2.14.1",
        "3/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "meanmetric_nan_strategy_groups",
        "torch2.15.0",
        "3/1",
        "owner",
        "ours 'library_attribute', the truth 'user_argument'",
    ),
    (
        "sdpa_scale_per_model_config",
        "torch2.14.1",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'closure_state'",
    ),
    (
        "sdpa_scale_per_model_config",
        "torch2.14.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
];

const OPEN47: &[Open] = &[
    (
        "f1_report_sections",
        "*",
        "5/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_report_sections",
        "*",
        "5/2",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_report_sections",
        "torch2.14.1",
        "5/3",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_report_sections",
        "*",
        "8/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_report_sections",
        "*",
        "8/2",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "f1_report_sections",
        "torch2.14.1",
        "8/3",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "peft_lora_two_task_heads",
        "torch2.14.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

#[test]
fn scenarios46_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios46/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN46,
    });
}

#[test]
fn scenarios47_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios47/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 44,
        open: OPEN47,
    });
}
