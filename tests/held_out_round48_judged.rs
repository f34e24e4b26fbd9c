//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-12-01, the forty-eighth round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios103 (preference and reward training of small transformers models: a
//! DPO beta warm-up, reward model pairs of varying length, an adaptive KL controller kept in a
//! global, a loss type switched mid-run, reference and policy log-probs through one compiled
//! helper, bf16 autocast validation, a backbone unfrozen after a probe; torch 2.14.1 and 2.15.0)
//! and tests/scenarios104 (self-supervised vision: a BYOL EMA momentum on a cosine schedule,
//! DINO multi-crop teacher and student, a linear probe's head swap, MAE mask ratios, a MoCo
//! queue pointer, a SimCLR temperature in a config dict; torch 2.12.1 and 2.14.1). Recorded
//! after the session's mechanisms and scored before anything was read off them (not tuned on):
//! 9 of 14 and 20 of 30, the same with the session's first binary; 10 of 14 after one wording
//! (a float made dynamic is a symbolic number, and the advice to pass it as a tensor argument).
//! This test holds the judgement there, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN103: &[Open] = &[
    // Argument lines the truths read as the passing line where the guard
    // quotes a use; a requires_grad flipped on a model passed as an
    // argument (ours the argument's, the truths the user's attribute).
    (
        "reward_head_probe_then_unfreeze",
        "*",
        "0/1",
        "owner",
        "ours 'user_argument', the truth 'user_attribute'",
    ),
];

const OPEN104: &[Open] = &[];

#[test]
fn scenarios103_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios103/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 14,
        open: OPEN103,
    });
}

#[test]
fn scenarios104_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios104/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 6,
        recompiles: 30,
        open: OPEN104,
    });
}
