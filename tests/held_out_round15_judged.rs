//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29, the fifteenth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios34 (a diffusers Heun scheduler with
//! a class-conditional UNet, transformers Adafactor stepped in the compiled function, BigBird
//! serving documents of several lengths, PEFT LoKr serving batches, SGD with a Nesterov momentum
//! warm-up, timm Mixup/CutMix in the compiled step, torchvision transforms.v2 RandomResizedCrop in
//! the compiled forward; torch 2.12.1 and 2.14.1); tests/scenarios35 (a deque frame stack, an
//! evaluation pre-hook added and removed, Qwen2 with a sliding window, Lightning global_step read
//! in forward, a task id indexing a ModuleList of heads, packed sequences with cu_seqlens, a
//! polygamma order per experiment; torch 2.13.0 and 2.15.0). Scores before and after are in each
//! set's README; this test holds the judgement where it is, the known misses listed (many are the
//! two truth writers of a set disagreeing with each other on one version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN34: &[Open] = &[
    (
        "diffusers_heun_class_sampler",
        "torch2.12.1",
        "1/1",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "diffusers_heun_class_sampler",
        "torch2.12.1",
        "7/7",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "diffusers_heun_class_sampler",
        "torch2.12.1",
        "7/7",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "diffusers_heun_class_sampler",
        "*",
        "7/8",
        "cause_entry",
        "ours '7/7', the truth '7/1'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/1",
        "category",
        "ours 'container_len', the truth 'optimizer_state'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/2",
        "category",
        "ours 'container_len', the truth 'optimizer_state'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/2",
        "cause_entry",
        "ours '1/0', the truth '1/1'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/3",
        "category",
        "ours 'container_len', the truth 'optimizer_state'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/3",
        "cause_entry",
        "ours '1/0', the truth '1/2'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/4",
        "category",
        "ours 'container_len', the truth 'optimizer_state'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/4",
        "cause_entry",
        "ours '1/0', the truth '1/3'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/5",
        "category",
        "ours 'container_len', the truth 'optimizer_state'",
    ),
    (
        "hf_adafactor_compiled_step",
        "*",
        "1/5",
        "cause_entry",
        "ours '1/0', the truth '1/4'",
    ),
    (
        "hf_bigbird_doc_classifier",
        "*",
        "12/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "hf_bigbird_doc_classifier",
        "torch2.12.1",
        "6/1",
        "category",
        "ours 'dtype', the truth 'type_change'",
    ),
    (
        "hf_bigbird_doc_classifier",
        "*",
        "6/3",
        "cause_entry",
        "ours '6/1', the truth '6/2'",
    ),
    (
        "hf_bigbird_doc_classifier",
        "*",
        "6/4",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_bigbird_doc_classifier",
        "torch2.14.1",
        "7/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "hf_bigbird_doc_classifier",
        "*",
        "7/2",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "sgd_momentum_warmup",
        "*",
        "2/1",
        "owner",
        "ours 'torch_state', the truth 'library_attribute'",
    ),
    (
        "sgd_momentum_warmup",
        "*",
        "2/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "sgd_momentum_warmup",
        "*",
        "2/3",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "timm_mixup_train_step",
        "*",
        "12/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "timm_mixup_train_step",
        "*",
        "12/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

const OPEN35: &[Open] = &[
    (
        "deque_frame_stack_policy",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deque_frame_stack_policy",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "deque_frame_stack_policy",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deque_frame_stack_policy",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "deque_frame_stack_policy",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "deque_frame_stack_policy",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "packed_sequences_cu_seqlens",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "packed_sequences_cu_seqlens",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "packed_sequences_cu_seqlens",
        "*",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
];

#[test]
fn scenarios34_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios34/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 120,
        open: OPEN34,
    });
}

#[test]
fn scenarios35_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios35/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 7,
        recompiles: 38,
        open: OPEN35,
    });
}
