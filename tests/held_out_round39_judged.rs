//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the thirty-ninth round, recorders' choice of topics (truth written blind, before
//! guardscope first ran on the sets): tests/scenarios81 (classical ML and probabilistic models in
//! torch: a Bayes-by-backprop validation under no_grad, a GP's Cholesky jitter, HMC leapfrog counts
//! through range(), a mini-batch k-means sweep over k, a PCA whitening flag, a kernel search passing
//! functions, a streaming KDE window that fills the cache; torch 2.12.1 and 2.14.1) and
//! tests/scenarios82 (NLP without generation: CamemBERT multiple choice with and without
//! token_type_ids, ConvBERT NER with dynamic padding, Funnel pooling strategies, mBART with gradient
//! checkpointing switched on, a Pegasus label-smoothing ramp, a RoFormer QA span cap, a SqueezeBERT
//! cross-encoder in train and eval; torch 2.14.1 and 2.15.0). Nothing was read off these sets
//! before the score: 33 of 36 and 16 of 18, the same with the session's first binary. The misses:
//! the two k-means truths disagree with each other, and LabelSmoother.epsilon, which the user's
//! loop ramps, is read as the library's state. This test holds the judgement where it is, the
//! known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN81: &[Open] = &[
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "minibatch_kmeans_cluster_sweep",
        "torch2.14.1",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN82: &[Open] = &[
    (
        "pegasus_summarizer_label_smoothing_ramp",
        "torch2.14.1",
        "0/1",
        "category",
        "ours 'constant_value', the truth 'global_var'",
    ),
    (
        "pegasus_summarizer_label_smoothing_ramp",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "pegasus_summarizer_label_smoothing_ramp",
        "*",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

#[test]
fn scenarios81_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios81/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 36,
        open: OPEN81,
    });
}

#[test]
fn scenarios82_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios82/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 18,
        open: OPEN82,
    });
}
