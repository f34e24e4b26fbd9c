//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-12-01, the fiftieth round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios108 (embedding and retrieval training: query and passage lengths
//! through one encoder, GradCache's two passes, a growing hard-negative count, a late-interaction
//! index cast to half precision, Matryoshka dims and top-k in evaluation, a memory bank that
//! grows, a numpy temperature; torch 2.14.1 and 2.15.0), tests/scenarios109 (differential
//! privacy and federated learning: uneven client shards, an adaptive clipping norm through
//! torch.func, a noise multiplier in a global dataclass, server evaluation with torchmetrics,
//! FedProx's mu, FedRep's alternating freeze, secure aggregation over surviving clients;
//! torch 2.12.1 and 2.15.0) and tests/scenarios110 (token classification and structured
//! prediction: a label-smoothing switch in a global config, CRF training and Viterbi decoding,
//! an optional constraint mask, dynamic padding, first-subword positions as a list, a head per
//! label set, a span length per dataset; torch 2.12.1 and 2.14.1). Recorded after this
//! session's mechanisms and scored before anything was read off them (not tuned on): 12 of 18,
//! 10 of 19 and 12 of 22, the same with the session's first binary. This test holds the
//! judgement there, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN108: &[Open] = &[
    (
        "hard_negative_count_rounds",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "memory_bank_refresh_growing_corpus",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'shape_lazy_buffer', the truth 'shape_input'",
    ),
    (
        "memory_bank_refresh_growing_corpus",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
];

const OPEN109: &[Open] = &[
    (
        "fedprox_adaptive_mu",
        "torch2.12.1",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/1",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/2",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "torch2.15.0",
        "0/3",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "torch2.12.1",
        "0/3",
        "cause_entry",
        "ours '0/2', the truth '0/1'",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "secagg_pairwise_mask_dropout",
        "*",
        "0/3",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

const OPEN110: &[Open] = &[
    (
        "data2vec_label_smoothing_switch_on",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "rembert_first_subword_word_labels",
        "*",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'shape_input'",
    ),
    (
        "rembert_first_subword_word_labels",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "rembert_first_subword_word_labels",
        "torch2.14.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "rembert_first_subword_word_labels",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "rembert_first_subword_word_labels",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/0', the truth '0/2'",
    ),
];

#[test]
fn scenarios108_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios108/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 18,
        open: OPEN108,
    });
}

#[test]
fn scenarios109_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios109/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 19,
        open: OPEN109,
    });
}

#[test]
fn scenarios110_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios110/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN110,
    });
}
