//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-12-01, the forty-seventh round (truth written blind, before guardscope first ran on the
//! sets): tests/scenarios100 (object detection and segmentation: an FCOS head's regression
//! switch, an LR-ASPP encoder frozen for fine-tuning, Mask R-CNN heads over varying instance
//! counts, panoptic grouping per dataset, RPN top-N in evaluation, SSD score thresholds swept,
//! transformers' YOLOS at several input sizes; torch 2.12.1 and 2.14.1), tests/scenarios101
//! (inference serving: mark_dynamic bounds broken by a long request, int8 weight-only layers
//! swapped in after warm-up, a return type per request, GPT-2 with a logit bias and min_p per
//! request, tenant models swapped through one handler, a warm-up batch of one, a strict stance
//! over numpy payloads; torch 2.14.1 and 2.15.0) and tests/scenarios102 (language-model
//! pretraining internals: bf16 autocast validation, FlexAttention sliding-window block masks, a
//! MoE capacity factor schedule, packed documents' lengths, a rotary cache grown by a length
//! curriculum, tied embeddings unfrozen, a z-loss warm-up; torch 2.12.1 and 2.15.0). Scored with
//! the session's first binary before anything was read off them: 12 of 16, 13 of 32 and 11 of
//! 22; after the session's mechanisms the counts the README gives. This test holds the
//! judgement there, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN100: &[Open] = &[(
    "yolos_multiscale_inference",
    "*",
    "0/2",
    "cause_entry",
    "ours '0/0', the truth '0/1'",
)];

const OPEN101: &[Open] = &[
    // GPT-2 decode: the first stride change, made dynamic, we call the one-off
    // (issue 37 item 3), the truths a problem; the dict of logit biases: its
    // length with no comment, its key guards naming line 15.
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/4",
        "category",
        "ours 'dict_keys', the truth 'container_len'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/4",
        "cause_entry",
        "ours '0/2', the truth '0/3'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/4",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/4",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "gpt2_logit_bias_min_p",
        "*",
        "0/6",
        "cause_entry",
        "ours '0/4', the truth '0/1'",
    ),
    (
        "int8_weight_swap_after_warmup",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'type_change', the truth 'nn_module_attr'",
    ),
    (
        "int8_weight_swap_after_warmup",
        "torch2.14.1",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'global'",
    ),
    (
        "warmup_batch_one_then_traffic",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
];

const OPEN102: &[Open] = &[
    // Packed documents: an older entry of the same list length that differs
    // only in pinned element values is the truths' cause; entries whose extra
    // elements the new call lacks are not counted as differing (a known limit
    // of the distance, also scenarios42's FreeU hasattr entry).
];

#[test]
fn scenarios100_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios100/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 16,
        open: OPEN100,
    });
}

#[test]
fn scenarios101_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios101/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN101,
    });
}

#[test]
fn scenarios102_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios102/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN102,
    });
}
