//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the forty-second round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios89 (multimodal and retrieval: a BLIP re-ranker switching its ITM head, a
//! CLIP image tower unlocked after an epoch, ColBERT with mined negatives, Matryoshka embedding
//! export per dimension, a SPLADE index built in bfloat16, a ViT-BERT captioner validated every
//! epoch, a VQA answer head replaced as the vocabulary grows; torch 2.12.1 and 2.14.1) and
//! tests/scenarios90 (time series and sequential decisions: an A2C rollout buffer, a continual
//! forecaster with a replay batch that starts as None, an anomaly autoencoder calibrated under
//! no_grad, transformers' Informer unfrozen after pre-training, a GRU-D on irregular vitals, a
//! Lightning seq2seq with scheduled teacher forcing, transformers' TimeSeriesTransformer on sliding
//! windows; torch 2.14.1 and 2.15.0). Scored with the session's first binary (bf5c7dd) before
//! anything was read off them: 9 of 20 and 17 of 26. After reading the misses, three mechanisms (a
//! tensor of a model kept in a global is the model's; a value guarded as None in one compile and
//! as a tensor or a number in the other is a change; a library model's parameters frozen by the
//! user are a setting, not a resize): 12 of 20 and 19 of 26. This test holds the judgement where
//! it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN89: &[Open] = &[
    // Mined negatives, 0 then 1 then 2 per query: the truth reads the
    // rounds as unbounded growth; the log shows two lengths and no cap
    // (scenarios88's sub-policy list, 1 to 4, the truth calls bounded).
    (
        "colbert_mined_negatives_rounds",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "colbert_mined_negatives_rounds",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "colbert_mined_negatives_rounds",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "vqa_answer_vocab_growth",
        "torch2.12.1",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'shape_lazy_buffer'",
    ),
    (
        "vqa_answer_vocab_growth",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'nn_module_attr', the truth 'shape_lazy_buffer'",
    ),
];

const OPEN90: &[Open] = &[
    // Informer unfrozen: 0/0 differs from the call in one parameter's
    // requires_grad, 0/1 in every encoder parameter's, which one
    // requires_grad_() call set (counted as one action): a tie, and the
    // newest wins; the truths count the parameters.
    (
        "informer_transfer_gradual_unfreeze",
        "torch2.15.0",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "informer_transfer_gradual_unfreeze",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/1', the truth '0/0'",
    ),
    (
        "informer_transfer_gradual_unfreeze",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "informer_transfer_gradual_unfreeze",
        "torch2.15.0",
        "0/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

#[test]
fn scenarios89_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios89/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 20,
        open: OPEN89,
    });
}

#[test]
fn scenarios90_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios90/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 26,
        open: OPEN90,
    });
}
