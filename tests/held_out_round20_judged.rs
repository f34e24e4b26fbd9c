//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-29,
//! the twentieth round (written from the script and the raw log by people who never ran guardscope,
//! before it first ran on the set): tests/scenarios44 (a RoBERTa masking curriculum, torchmetrics
//! Pearson/Spearman updated in a compiled step, BCE pos_weight per dataset as a float or a tensor, a
//! buffer registered mid-training, cumsum/cumprod over a dim per input kind, HF classifiers per task
//! through one compiled step, F.normalize p per metric; torch 2.12.1 and 2.15.0); tests/scenarios45 (a
//! DiT-style denoiser called with an int or a tensor timestep, torchmetrics multiclass_jaccard_index
//! per image size, einops reduce per pooling config, PEFT OFT adapters switched per request, timm
//! LayerScale fine-tuning with an optimizer rebuilt per stage, torch.roll by the step, bincount
//! minlength per dataset; torch 2.14.1 and 2.12.1). Scores before and after are in each set's README;
//! this test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN44: &[Open] = &[
    (
        "bce_pos_weight_per_dataset",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "bce_pos_weight_per_dataset",
        "torch2.12.1",
        "0/2",
        "cause_entry",
        "ours '0/1', the truth '0/0'",
    ),
    (
        "bce_pos_weight_per_dataset",
        "torch2.12.1",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "roberta_mlm_mask_curriculum",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "roberta_mlm_mask_curriculum",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "roberta_mlm_mask_curriculum",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "roberta_mlm_mask_curriculum",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "torchmetrics_corr_eval_step",
        "*",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "torchmetrics_corr_eval_step",
        "*",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "torchmetrics_corr_eval_step",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "torchmetrics_corr_eval_step",
        "*",
        "0/3",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "torchmetrics_corr_eval_step",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/0', the truth '0/2'",
    ),
];

const OPEN45: &[Open] = &[
    (
        "seg_eval_jaccard_per_dataset",
        "*",
        "2/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "seg_eval_jaccard_per_dataset",
        "*",
        "6/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "0/1",
        "category",
        "ours 'object_id', the truth 'optimizer_recreated'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "0/2",
        "category",
        "ours 'object_id', the truth 'optimizer_recreated'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "1/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "torch2.14.1",
        "1/1",
        "owner",
        "ours 'user_argument', the truth 'global'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "1/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "1/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "torch2.14.1",
        "1/2",
        "owner",
        "ours 'user_argument', the truth 'global'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "1/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "2/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "torch2.14.1",
        "2/1",
        "owner",
        "ours 'user_argument', the truth 'global'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "2/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "2/2",
        "cause_entry",
        "ours '2/0', the truth '2/1'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "2/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "torch2.14.1",
        "2/2",
        "owner",
        "ours 'user_argument', the truth 'global'",
    ),
    (
        "timm_layerscale_llrd_finetune",
        "*",
        "2/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

#[test]
fn scenarios44_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios44/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 26,
        open: OPEN44,
    });
}

#[test]
fn scenarios45_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios45/logs",
        versions: &["torch2.14.1", "torch2.12.1"],
        scenarios: 7,
        recompiles: 38,
        open: OPEN45,
    });
}
