//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the thirty-first round, whose topics the recorders chose themselves among APIs no earlier set names
//! (truth written from the script and the raw log by people who never ran guardscope, before it
//! first ran on the set): tests/scenarios66 (torch features: a vmap'd ensemble grown by
//! stack_module_state, an evidential loss weight on a global criterion, a Fourier neural operator
//! evaluated at finer grids, an SDPA enable_gqa model zoo, BatchNorm momentum decay, an SVD ridge
//! sweep, dilated causal convolutions; torch 2.12.1 and 2.14.1); tests/scenarios67 (research code:
//! an EMA teacher by _foreach_lerp_, GPT-NeoX checkpointing mid-curriculum, a Lightning aux-loss weight
//! dict, MC dropout, a MoCo queue pointer, MoE top-1 routing, a layer-probe sweep of pre-hooks; torch
//! 2.14.1 and 2.15.0). Scores are in each set's README; the classes read off this round are in
//! tests/judge_mechanisms_values.rs. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN66: &[Open] = &[(
    "evidential_dirichlet_classifier",
    "*",
    "0/1",
    "category",
    "ours 'nn_module_attr', the truth 'global_var'",
)];

const OPEN67: &[Open] = &[
    (
        "gptneox_curriculum_grad_checkpointing",
        "*",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "moco_queue_enqueue_pointer",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "moco_queue_enqueue_pointer",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "moco_queue_enqueue_pointer",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'container_len', the truth 'global_var'",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/3",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/4",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/4",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/5",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "probe_sweep_forward_pre_hooks",
        "torch2.14.1",
        "0/5",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios66_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios66/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 24,
        open: OPEN66,
    });
}

#[test]
fn scenarios67_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios67/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 44,
        open: OPEN67,
    });
}
