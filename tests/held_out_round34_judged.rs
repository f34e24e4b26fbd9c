//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the thirty-fourth round, whose topics the recorders chose themselves among APIs no earlier set
//! names (truth written from the script and the raw log by people who never ran guardscope, before
//! it first ran on the set): tests/scenarios72 (less common torch features: deterministic-algorithm
//! debug mode for an audit epoch, a dtype argument per split, complex64 and complex128 captures, a
//! torch.func.jvp probe schedule, a jacfwd damped Newton solver, an int-then-float loss scale, a
//! torch.func.vjp saliency server per class; torch 2.12.1 and 2.15.0); tests/scenarios73 (inference
//! and serving: an uncertainty cascade, a weighted ensemble per request, diffusers' flow-match step,
//! a min-p / top-k sampler, a model registry with a half-precision tier, a streaming denoiser's
//! carried state, test-time augmentation views; torch 2.12.1 and 2.14.1). Scores are in each set's
//! README. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN72: &[Open] = &[];

const OPEN73: &[Open] = &[
    // The scheduler's step index: the log gives no changed values for the
    // entries 1/3 failed, so the closest entry is a guess between the
    // index's None and the sigmas' size (the truth's, 1/2).
    (
        "flow_match_denoise_step",
        "*",
        "1/3",
        "category",
        "ours 'type_change', the truth 'shape_input'",
    ),
    (
        "flow_match_denoise_step",
        "*",
        "1/3",
        "cause_entry",
        "ours '1/0', the truth '1/2'",
    ),
    // Four sampling modes times two layouts of ids (the first call of a
    // request contiguous, the later ones a slice): each layout of each mode
    // compiles once, a bounded product we call expected; the truths call the
    // layout that recurs with every mode a problem (fill the 8 entries), and
    // pick the same-mode entry as cause where we pick the closest.
    (
        "min_p_sampler_requests",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "min_p_sampler_requests",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "min_p_sampler_requests",
        "torch2.14.1",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'type_change'",
    ),
    (
        "min_p_sampler_requests",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "min_p_sampler_requests",
        "*",
        "0/4",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "min_p_sampler_requests",
        "*",
        "0/6",
        "cause_entry",
        "ours '0/4', the truth '0/3'",
    ),
    // Two changes at once (the state's None and the chunk's stride): the
    // closest entry is 0/0 once the state's None counts as a change; the
    // torch 2.12 truth takes 0/0 as we do, the 2.14 one 0/1.
    (
        "streaming_denoiser_conv_state",
        "torch2.14.1",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "streaming_denoiser_conv_state",
        "torch2.12.1",
        "0/3",
        "category",
        "ours 'type_change', the truth 'stride'",
    ),
    (
        "streaming_denoiser_conv_state",
        "torch2.12.1",
        "0/3",
        "cause_entry",
        "ours '0/2', the truth '0/1'",
    ),
];

#[test]
fn scenarios72_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios72/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 24,
        open: OPEN72,
    });
}

#[test]
fn scenarios73_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios73/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 51,
        open: OPEN73,
    });
}
