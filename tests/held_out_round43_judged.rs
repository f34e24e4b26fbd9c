//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the forty-third round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios91 (generative image models: a VAE's KL weight warmed up on the loss
//! module, an LSGAN with its discriminator frozen for the generator step, diffusers' Euler
//! ancestral sampler with a guidance interval, a RealNVP flow sampled in reverse, a bfloat16 EMA
//! copy for previews, a VQ-VAE codebook curriculum; torch 2.12.1 and 2.14.1) and
//! tests/scenarios92 (training-systems features: a torch.library custom op under a dynamic loss
//! scale, gradient-norm hooks on listed blocks, per-sample clipping with vmap and grad, GPT-2's
//! LM head untied mid-run, bfloat16 autocast switched off, a straight-through quantiser's bit
//! schedule; torch 2.14.1 and 2.15.0). Scored before anything was read off them, with the
//! session's first binary and after round 42's mechanisms alike: 12 of 14 and 13 of 16; nothing
//! was changed for them. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN91: &[Open] = &[];

const OPEN92: &[Open] = &[
    // The probe list emptied then filled: one truth reads its length
    // (container_len, as we do), the other the module attribute.
    (
        "activation_grad_norm_hooks",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'container_len', the truth 'nn_module_attr'",
    ),
    // The user's code gives lm_head its own Parameter (train.py:28); the
    // truths call the weight transformers' state, we the user's attribute.
    (
        "gpt2_untie_lm_head",
        "*",
        "2/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
];

#[test]
fn scenarios91_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios91/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 6,
        recompiles: 14,
        open: OPEN91,
    });
}

#[test]
fn scenarios92_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios92/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 6,
        recompiles: 16,
        open: OPEN92,
    });
}
