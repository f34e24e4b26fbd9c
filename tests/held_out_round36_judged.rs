//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the thirty-sixth round, whose topics the recorders chose among APIs no earlier set
//! names (truth written from the script and the raw log by people who never ran guardscope, before
//! it first ran on the sets): tests/scenarios75 (generative models: a diffusers EMAModel step
//! compiled as a bound method, classifier-free guidance batching, a DCGAN preview under no_grad, an
//! EMA copy through one compiled function, a Glow ActNorm flag, a progressive GAN's depth and
//! alpha, an M2 VAE's optional labels; torch 2.12.1 and 2.14.1) and tests/scenarios76
//! (reinforcement learning and simulation in plain torch: a target network re-made unfrozen, a
//! leapfrog energy audit, substeps of a mass-spring simulator, a centralised critic's agent list,
//! NoisyNet acting and evaluation, PPO horizons through range(T), SAC's alpha; torch 2.12.1 and
//! 2.15.0). Untuned: 18 of 22 and 18 of 30; after the session's mechanisms (a bound method's
//! receiver, a top-level call read off the frame's other compiles), 20 of 22 and 19 of 30. This
//! test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN75: &[Open] = &[];

const OPEN76: &[Open] = &[
    // The script rebinds the global (`target_net = copy.deepcopy(q_net)`)
    // without requires_grad_(False); the log guards only the global's type,
    // so it cannot tell a new object from the model's own parameters
    // unfrozen, which is how we read a tensor of a model in a global.
    (
        "double_dqn_target_network_sync",
        "*",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'global'",
    ),
    (
        "ppo_gae_rollout_horizon",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "ppo_gae_rollout_horizon",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios75_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios75/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN75,
    });
}

#[test]
fn scenarios76_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios76/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 30,
        open: OPEN76,
    });
}
