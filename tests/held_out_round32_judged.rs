//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the thirty-second round, whose topics the recorders chose themselves among APIs no earlier set names
//! (truth written from the script and the raw log by people who never ran guardscope, before it
//! first ran on the set): tests/scenarios68 (vision: a v2 resized_crop box per batch, DeepLabV3's
//! aux head dropped, FrozenBatchNorm2d swapped in, a feature-extractor gallery under no_grad, the
//! PNDM scheduler's step, mc3_18 multi-view evaluation, a timm patch-dropout schedule; torch 2.12.1
//! and 2.14.1); tests/scenarios69 (sequence models: a Granite attention dump, GRU beam search per
//! tier, grammar-constrained decoding, OLMo padding sides, a Qwen3 StaticCache per request,
//! Starcoder2 logits_to_keep, XLM-R token and sequence heads; torch 2.12.1 and 2.15.0). Scores are in
//! each set's README. This test holds the judgement where it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN68: &[Open] = &[
    (
        "deeplabv3_aux_head_finetune",
        "torch2.12.1",
        "0/1",
        "category",
        "ours 'type_change', the truth 'nn_module_attr'",
    ),
    (
        "deeplabv3_aux_head_finetune",
        "*",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "detector_frozen_bn_swap",
        "torch2.12.1",
        "0/1",
        "category",
        "ours 'type_change', the truth 'nn_module_attr'",
    ),
    (
        "pndm_denoise_step_sampler",
        "torch2.14.1",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "pndm_denoise_step_sampler",
        "torch2.14.1",
        "0/4",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "pndm_denoise_step_sampler",
        "torch2.14.1",
        "0/5",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "vit_patch_dropout_schedule",
        "torch2.14.1",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "vit_patch_dropout_schedule",
        "torch2.14.1",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN69: &[Open] = &[
    (
        "gru_translator_beam_search",
        "torch2.12.1",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "gru_translator_beam_search",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "gru_translator_beam_search",
        "torch2.12.1",
        "0/3",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "gru_translator_beam_search",
        "torch2.12.1",
        "0/5",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "json_grammar_constrained_decoding",
        "torch2.12.1",
        "0/3",
        "category",
        "ours 'constant_value', the truth 'container_len'",
    ),
    (
        "json_grammar_constrained_decoding",
        "torch2.12.1",
        "0/3",
        "cause_entry",
        "ours '0/1', the truth '0/2'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/4",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/4",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/5",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/5",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/6",
        "category",
        "ours 'constant_value', the truth 'container_len'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/6",
        "cause_entry",
        "ours '0/3', the truth '0/5'",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/6",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "json_grammar_constrained_decoding",
        "*",
        "0/6",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "qwen3_static_cache_chat_server",
        "*",
        "0/4",
        "cause_entry",
        "ours '0/1', the truth '0/3'",
    ),
    (
        "qwen3_static_cache_chat_server",
        "*",
        "0/4",
        "owner",
        "ours 'user_argument', the truth 'library_attribute'",
    ),
];

#[test]
fn scenarios68_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios68/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 26,
        open: OPEN68,
    });
}

#[test]
fn scenarios69_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios69/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 48,
        open: OPEN69,
    });
}
