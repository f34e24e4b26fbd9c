//! The judgement of every recompile in the held-out sets recorded and given blind truth on 2026-11-30,
//! the twenty-eighth round (written from the script and the raw log by people who never ran
//! guardscope, before it first ran on the set): tests/scenarios60 (weight tying switched on mid-run,
//! int32 or int64 index tensors per loader, a saliency step's requires_grad_ on some batches, a
//! predict function for one sample or a batch, uint8 or float images, transposed or permuted sensor
//! windows, an attribute added lazily and tested with hasattr; torch 2.14.1 and 2.15.0);
//! tests/scenarios61 (an auxiliary head deleted after warm-up, a channels-last switch, FGSM epsilons,
//! fuse_linear_bn_eval for evaluation, an fx GraphModule traced again, a patch mask buffer replaced per
//! stage, PEFT LoRA adapters switched; torch 2.12.1 and 2.14.1). Scores are in each set's README: the
//! untuned score was taken before the misses were read; this test holds the judgement after the class
//! read off it (an attribute deleted: tests/guard_forms.rs), the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN60: &[Open] = &[(
    "tiny_lm_weight_tying_midrun",
    "torch2.15.0",
    "0/1",
    "category",
    "ours 'nn_module_attr', the truth 'shape_lazy_buffer'",
)];

const OPEN61: &[Open] = &[
    (
        "fuse_linear_bn_for_eval",
        "*",
        "0/2",
        "category",
        "ours 'container_len', the truth 'nn_module_attr'",
    ),
    (
        "patch_mask_progressive_resize",
        "torch2.14.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "peft_lora_two_adapters_switch",
        "*",
        "0/1",
        "category",
        "ours 'constant_value', the truth 'global_var'",
    ),
    (
        "peft_lora_two_adapters_switch",
        "torch2.12.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'global'",
    ),
    (
        "peft_lora_two_adapters_switch",
        "torch2.14.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
];

#[test]
fn scenarios60_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios60/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 18,
        open: OPEN60,
    });
}

#[test]
fn scenarios61_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios61/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 18,
        open: OPEN61,
    });
}
