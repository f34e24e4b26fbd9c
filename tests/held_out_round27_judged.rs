//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-seventh round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios58 (a varargs fusion over 2-4 feature
//! maps, an nn.ParameterList of prompts grown per stage, a module whose __getattr__ reads a config
//! dict, an activation registry keyed by name, dict or list batches from two loaders, a recursive tree
//! encoder, a bisect warmup over milestones; torch 2.12.1 and 2.14.1); tests/scenarios59 (a class
//! attribute set per phase, an os.environ debug flag, a ContextVar temperature, a threading.local
//! config per worker, stage losses over zip(weights, preds), a projection picked by getattr, a
//! closure's nonlocal label smoothing; torch 2.12.1 and 2.15.0). Scores are in each set's README: the
//! untuned score was taken before the misses were read; this test holds the judgement after the
//! classes read off it (tests/judge_mechanisms_values.rs), the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN58: &[Open] = &[
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "bisect_milestone_warmup_step",
        "*",
        "1/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN59: &[Open] = &[
    (
        "block_class_scale_phases",
        "*",
        "0/1",
        "owner",
        "ours 'global', the truth 'user_attribute'",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deep_supervision_stage_losses",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "*",
        "0/1",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "*",
        "0/1",
        "owner",
        "ours 'user_argument', the truth 'closure'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "torch2.15.0",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "*",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "*",
        "0/2",
        "owner",
        "ours 'user_argument', the truth 'closure'",
    ),
    (
        "warmup_closure_nonlocal_factor",
        "torch2.15.0",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios58_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios58/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 34,
        open: OPEN58,
    });
}

#[test]
fn scenarios59_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios59/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN59,
    });
}
