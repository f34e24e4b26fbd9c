//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the tenth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios24 (DeBERTa-v2 at three padded
//! lengths, StableLM scoring then chat with a DynamicCache, Marian with source and target lengths
//! per batch, Lightning with an accumulation scheduler and predict_step, BatchNorm momentum=None
//! with a compiled validation, a complex-valued beamformer, speculative decoding with a draft
//! length per request; torch 2.14.1 and 2.15.0); tests/scenarios25 (PEFT DoRA trained then
//! evaluated, accelerate with a short last batch and autocast evaluation, torchvision r3d_18 clip
//! lengths, SWA with update_bn, an ArcFace margin warm-up, DeBERTa-v2 masked-LM on length-grouped
//! batches, generalized_box_iou_loss over matched-box counts; torch 2.12.1 and 2.13.0). Scores
//! before and after are in each set's README; this test holds the judgement where it is, the known
//! misses listed (many are the two truth writers of a set disagreeing with each other on one
//! version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN24: &[Open] = &[
    (
        "hf_stablelm_score_then_chat",
        "torch2.14.1",
        "0/2",
        "owner",
        "ours 'library_attribute' (a cache layer's lazy initialisation is transformers', as the 2.15.0 truth and scenarios69's say), this truth 'user_argument'",
    ),
    (
        "lightning_accum_schedule_predict",
        "torch2.14.1",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
];

const OPEN25: &[Open] = &[
    (
        "giou_box_head_matched_counts",
        "*",
        "2/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "giou_box_head_matched_counts",
        "torch2.12.1",
        "3/1",
        "owner",
        "ours 'graph_break_value', the truth 'library_argument'",
    ),
    (
        "giou_box_head_matched_counts",
        "torch2.12.1",
        "4/1",
        "owner",
        "ours 'graph_break_value', the truth 'library_argument'",
    ),
    (
        "giou_box_head_matched_counts",
        "torch2.12.1",
        "5/1",
        "owner",
        "ours 'graph_break_value', the truth 'library_argument'",
    ),
    (
        "giou_box_head_matched_counts",
        "torch2.13.0",
        "7/1",
        "owner",
        "ours 'user_argument', the truth 'graph_break_value'",
    ),
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "16/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "17/3",
        "category",
        "ours 'nn_module_attr', the truth 'shape_input'",
    ),
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "20/1",
        "owner",
        "ours 'library_argument', the truth 'graph_break_value'",
    ),
    // Since tensors one number reshapes count as one change (2026-12-01),
    // the entry that differs from the call in one size (64 -> 4 across the
    // layer's tensors) is closer than the one that differs in grad mode and
    // three requires_grad flags, where the truth reads the mode; the same
    // change fixed three cause entries elsewhere in this set.
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "20/3",
        "category",
        "ours 'shape_input', the truth 'torch_global_state'",
    ),
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "20/3",
        "owner",
        "ours 'graph_break_value', the truth 'torch_state'",
    ),
    (
        "peft_dora_finetune_then_eval",
        "torch2.13.0",
        "20/3",
        "cause_entry",
        "ours '20/2', the truth '20/1'",
    ),
];

#[test]
fn scenarios24_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios24/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN24,
    });
}

#[test]
fn scenarios25_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios25/logs",
        versions: &["torch2.12.1", "torch2.13.0"],
        scenarios: 7,
        recompiles: 52,
        open: OPEN25,
    });
}
