//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the sixteenth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios36 (timm DropBlock2d drop_prob ramp,
//! PEFT LoRA with a DPO reference pass, spectral_norm GAN evaluation, a Gumbel-softmax VAE, einops
//! pack over a dict of modalities, an AveragedModel EMA evaluated by one compiled function, unfold
//! log-mel features per corpus; torch 2.12.1 and 2.14.1); tests/scenarios37 (dihedral rot90/flip
//! augmentation, distillation temperature and alpha per epoch, gradual unfreezing, MoE top-k dispatch
//! with .tolist() counts, a Perceiver resampler per quality tier, a spectral-norm GAN monitor, T5
//! summary reranking; torch 2.14.1 and 2.15.0). Scores before and after are in each set's README;
//! this test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN36: &[Open] = &[(
    "spectral_norm_gan_eval",
    "*",
    "0/2",
    "cause_entry",
    "ours '0/0', the truth '0/1'",
)];

const OPEN37: &[Open] = &[
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "dihedral_rot90_flip_training",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "dihedral_rot90_flip_training",
        "torch2.15.0",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/4",
        "cause_entry",
        "ours '0/2', the truth '0/3'",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/5",
        "cause_entry",
        "ours '0/3', the truth '0/4'",
    ),
    (
        "dihedral_rot90_flip_training",
        "torch2.15.0",
        "0/5",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/5",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/6",
        "cause_entry",
        "ours '0/4', the truth '0/5'",
    ),
    (
        "dihedral_rot90_flip_training",
        "torch2.15.0",
        "0/6",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "dihedral_rot90_flip_training",
        "*",
        "0/6",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "spectral_norm_gan_monitor",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
];

#[test]
fn scenarios36_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios36/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 28,
        open: OPEN36,
    });
}

#[test]
fn scenarios37_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios37/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 44,
        open: OPEN37,
    });
}
