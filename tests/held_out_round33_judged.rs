//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the thirty-third round, whose topics the recorders chose themselves among APIs no earlier set names
//! (truth written from the script and the raw log by people who never ran guardscope, before it
//! first ran on the set): tests/scenarios70 (training loops: an R2Score validation with a short last
//! batch, a CosineEmbeddingLoss margin schedule, Lightning fit then test, Fabric logging steps that
//! return attention, deep-supervision head weights, recall-reweighted cross-entropy, ReduceLROnPlateau
//! under a compiled AdamW step; torch 2.14.1 and 2.15.0); tests/scenarios71 (outside vision and
//! language: a hashed multi-hot CTR model, a plain-torch GNN, a tabular NaN mask, a time-series
//! covariate dict per store, a log-mel keyword spotter, a Gaussian RL policy's noise decay, a neural
//! ODE's step size; torch 2.12.1 and 2.14.1). Scores are in each set's README. This test holds the
//! judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN70: &[Open] = &[];

const OPEN71: &[Open] = &[
    // Store 6 passes {price, promo, holiday}; entry 0/1 was compiled for
    // {price, promo} and 0/2 for {price, holiday}. Both fail on the count,
    // but 0/2 also differs in its second key, so 0/1 is the closer entry;
    // the truth writers took the newest failed entry, as their brief's
    // fallback says.
    (
        "timeseries_store_covariates_forecaster",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/1' (differs only in the added key), the truth '0/2' (the newest failed entry)",
    ),
];

#[test]
fn scenarios70_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios70/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 18,
        open: OPEN70,
    });
}

#[test]
fn scenarios71_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios71/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN71,
    });
}
