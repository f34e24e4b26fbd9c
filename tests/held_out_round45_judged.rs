//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-12-01, the forty-fifth round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios95 (scientific and structured data in plain torch: a heterogeneous graph
//! whose dict of edge types grows, a mesh heat solver checked in float64, molecular energies then
//! forces, an N-body step with an adaptive dt, a forward hook collecting jet features into a
//! global list under no_grad, a residue graph whose number of hops grows; torch 2.12.1 and 2.15.0)
//! and tests/scenarios96 (video, volumetric and 3-D data: a C3D stem frozen for fine-tuning, a
//! depth loss's edge-aware switch, multi-view inputs with cameras dropped at random, PointNet under
//! bfloat16 autocast after warm-up, transformers' TimeSformer on clips of varying length, a voxel
//! grid's resolution schedule; torch 2.14.1 and 2.15.0). Scored after the session's mechanisms,
//! before anything was read off them, and not tuned on: 10 of 20 and 12 of 18, the same with the
//! session's first binary. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN95: &[Open] = &[
    // A global list a forward hook appends to: the truths call its length
    // the hook's state; we its length (as scenarios' hook_flag_then_list truth does).
    (
        "particle_jet_masked_hook_features",
        "*",
        "0/2",
        "category",
        "ours 'container_len', the truth 'closure_hook_state'",
    ),
    (
        "particle_jet_masked_hook_features",
        "*",
        "0/3",
        "category",
        "ours 'container_len', the truth 'closure_hook_state'",
    ),
];

const OPEN96: &[Open] = &[
    // Cameras dropped at random: the truths count the possible subsets in
    // the script (15, above the limit); the log shows three key sets, one
    // of them reused, which we read as a few dict variants.
    (
        "multiview_camera_dropout",
        "*",
        "0/1",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "multiview_camera_dropout",
        "torch2.14.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multiview_camera_dropout",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "multiview_camera_dropout",
        "*",
        "0/2",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "multiview_camera_dropout",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/1', the truth '0/0'",
    ),
    (
        "multiview_camera_dropout",
        "torch2.14.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "multiview_camera_dropout",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios95_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios95/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 6,
        recompiles: 20,
        open: OPEN95,
    });
}

#[test]
fn scenarios96_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios96/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 6,
        recompiles: 18,
        open: OPEN96,
    });
}
