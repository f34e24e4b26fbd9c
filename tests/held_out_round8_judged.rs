//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the eighth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios20 (torch.stft per corpus,
//! F.unfold/fold with a stride per evaluation, save_on_cpu behind a flag argument, XLNet segment
//! memories, a dataclass batch with optional fields, a with_kwargs forward hook logging to a module
//! list; torch 2.12.1 and 2.13.0); tests/scenarios21 (truncated BPTT with an LSTM state None then
//! carried, a MoCo queue pointer, MoE capacity from the token count, a beta-VAE with kl_divergence,
//! DINOv2 at several resolutions, a mixture density network's component count, annealed gradient
//! noise, a Lightning fit resumed from a checkpoint; torch 2.14.1 and 2.15.0). Scores before and
//! after are in each set's README; this test holds the judgement where it is, the known misses
//! listed (many are the two truth writers of a set disagreeing with each other on one version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN20: &[Open] = &[];

const OPEN21: &[Open] = &[];

#[test]
fn scenarios20_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios20/logs",
        versions: &["torch2.12.1", "torch2.13.0"],
        scenarios: 6,
        recompiles: 18,
        open: OPEN20,
    });
}

#[test]
fn scenarios21_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios21/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 8,
        recompiles: 34,
        open: OPEN21,
    });
}
