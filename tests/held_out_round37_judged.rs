//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the thirty-seventh round, recorders' choice of topics (truth written blind, before
//! guardscope first ran on the sets): tests/scenarios77 (graphs and geometry in plain torch: a GCN
//! ablation grid with matrix_power hops, heterogeneous subgraph dicts, an EGNN in float64, mesh
//! fitting with a no_grad report, molecule batches, an EdgeConv k curriculum, a PointNet ball-query
//! sweep; torch 2.14.1 and 2.15.0) and tests/scenarios78 (time series and signals: PatchTSMixer
//! serving with optional future values, an autoregressive horizon, an input projection per
//! dataset, a nanmedian detector's calibration flag, per-series scaler floats, stft/istft clip
//! lengths, a streaming TCN's time index; torch 2.12.1 and 2.14.1). Untuned: 11 of 32 and 24 of
//! 32; after the session's grid mechanism (a number's values that come back with another setting),
//! 19 of 32 and 24 of 32. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN77: &[Open] = &[
    (
        "gcn_propagation_ablation",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/0', the truth '0/2'",
    ),
    (
        "gcn_propagation_ablation",
        "torch2.14.1",
        "0/6",
        "cause_entry",
        "ours '0/1', the truth '0/5'",
    ),
    (
        "hetero_citation_graph_sampled_batches",
        "*",
        "0/2",
        "category",
        "ours 'dict_keys', the truth 'shape_input'",
    ),
    (
        "hetero_citation_graph_sampled_batches",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/1', the truth '0/0'",
    ),
    (
        "pointcloud_edgeconv_knn_curriculum",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "pointcloud_edgeconv_knn_curriculum",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN78: &[Open] = &[
    (
        "mlp_autoregressive_horizon_eval",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "mlp_autoregressive_horizon_eval",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "mlp_autoregressive_horizon_eval",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "mlp_autoregressive_horizon_eval",
        "*",
        "0/3",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "multivariate_input_proj_per_dataset",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multivariate_input_proj_per_dataset",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "multivariate_input_proj_per_dataset",
        "torch2.12.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multivariate_input_proj_per_dataset",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

#[test]
fn scenarios77_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios77/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN77,
    });
}

#[test]
fn scenarios78_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios78/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN78,
    });
}
