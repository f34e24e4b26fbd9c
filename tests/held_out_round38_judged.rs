//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the thirty-eighth round, recorders' choice of topics (truth written blind, before
//! guardscope first ran on the sets): tests/scenarios79 (self-supervised and metric learning: an
//! ArcFace margin in a config dict, semi-hard triplet counts, a DINO last layer unfrozen, Sinkhorn
//! iteration counts, a SimMIM mask-patch curriculum, SwAV multi-crop sizes, cross-batch memory
//! lists; torch 2.12.1 and 2.15.0) and tests/scenarios80 (scientific ML and autograd: a Fourier
//! band schedule that fills the cache, a custom autograd.Function validated under no_grad, DEQ
//! sweep counts, a PINN batch dict gaining keys, an adaptive Heun step, Sobol collocation sizes, an
//! annealed boundary weight; torch 2.14.1 and 2.15.0). Untuned: 6 of 28 and 14 of 29; after the
//! session's cause-entry changes (lists that grow together, a mode loses a tie) and a parameter's
//! requires_grad read at the call, 8 of 28 and 20 of 29. Most open misses are severities the truths
//! read from the script (a cap the loop never passes) that the log cannot show. This test holds the
//! judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN79: &[Open] = &[
    (
        "sela_sinkhorn_assignments",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "sela_sinkhorn_assignments",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "sela_sinkhorn_assignments",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "simmim_mask_patch_curriculum",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "simmim_mask_patch_curriculum",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "simmim_mask_patch_curriculum",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "simmim_mask_patch_curriculum",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "simmim_mask_patch_curriculum",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/4",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/4",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/5",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "xbm_cross_batch_memory",
        "*",
        "0/5",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN80: &[Open] = &[
    (
        "coordinate_mlp_fourier_frequency_schedule",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "coordinate_mlp_fourier_frequency_schedule",
        "torch2.14.1",
        "0/8",
        "cause_entry",
        "ours '0/7', the truth '0/6'",
    ),
    (
        "coordinate_mlp_fourier_frequency_schedule",
        "torch2.14.1",
        "0/8",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "coordinate_mlp_fourier_frequency_schedule",
        "torch2.14.1",
        "0/8",
        "owner",
        "ours 'torch_state', the truth 'user_attribute'",
    ),
    (
        "deq_implicit_layer_fixed_point",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deq_implicit_layer_fixed_point",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "deq_implicit_layer_fixed_point",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deq_implicit_layer_fixed_point",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios79_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios79/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 28,
        open: OPEN79,
    });
}

#[test]
fn scenarios80_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios80/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 29,
        open: OPEN80,
    });
}
