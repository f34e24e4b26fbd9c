//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-fifth round (written from the script and the raw log by people who never ran guardscope,
//! before it first ran on the set): tests/scenarios54 (avg_pool1d windows per model, torch.diff orders,
//! F.embedding padding_idx per tokenizer, hardtanh ranges per quantisation config, MultiheadAttention
//! with float or bool masks, nan_to_num fills per sensor, v2 solarize/adjust_gamma levels; torch 2.12.1
//! and 2.14.1); tests/scenarios55 (torchmetrics binary_f1_score thresholds per calibration run, celu
//! alpha per config, local_response_norm sizes per checkpoint, Lightning's estimated_stepping_batches
//! over two fits, torch.diff orders, pairwise_distance p per metric, log_softmax dims per layout; torch
//! 2.14.1 and 2.15.0). Scores are in each set's README; nothing was tuned on this round: this test holds
//! the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN54: &[Open] = &[];

const OPEN55: &[Open] = &[
    (
        "calibrated_f1_eval",
        "torch2.14.1",
        "10/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "calibrated_f1_eval",
        "*",
        "10/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "calibrated_f1_eval",
        "torch2.14.1",
        "10/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "lightning_stepping_schedule_refit",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'constant_value'",
    ),
    (
        "lightning_stepping_schedule_refit",
        "torch2.14.1",
        "1/1",
        "category",
        "ours 'container_len', the truth 'dict_keys'",
    ),
];

#[test]
fn scenarios54_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios54/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 24,
        open: OPEN54,
    });
}

#[test]
fn scenarios55_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios55/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN55,
    });
}
