//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-sixth round (written from the script and the raw log by people who never ran guardscope,
//! before it first ran on the set): tests/scenarios56 (embedding_bag modes per feature table, glu dims
//! per layout, margin_ranking_loss margins per task, gaussian_nll_loss config swapped on a module,
//! channel_shuffle groups per width, softshrink lambd per noise level, instance_norm modes; torch 2.12.1
//! and 2.14.1); tests/scenarios57 (selu/hardsigmoid per block, cosine_embedding_loss margins,
//! a hand-written batch_norm with a momentum schedule, multilabel_soft_margin_loss weights None or a
//! tensor, nll_loss reductions, poisson_nll_loss flags, rrelu bounds per phase; torch 2.12.1 and
//! 2.15.0). Scores are in each set's README; nothing was tuned on this round: this test holds the
//! judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN56: &[Open] = &[
    (
        "multitask_ranking_margins",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multitask_ranking_margins",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "multitask_ranking_margins",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multitask_ranking_margins",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "multitask_ranking_margins",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multitask_ranking_margins",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "probabilistic_regression_heads",
        "*",
        "0/1",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "probabilistic_regression_heads",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "style_transfer_instance_norm_modes",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
];

const OPEN57: &[Open] = &[(
    "poisson_count_models",
    "*",
    "0/2",
    "cause_entry",
    "ours '0/0', the truth '0/1'",
)];

#[test]
fn scenarios56_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios56/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 25,
        open: OPEN56,
    });
}

#[test]
fn scenarios57_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios57/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 34,
        open: OPEN57,
    });
}
