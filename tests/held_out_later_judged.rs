//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-29 (written from the script and the raw log by people who never ran guardscope, before
//! it first ran on the set): tests/scenarios6 (timm's drop-path ramp, diffusers' UNet timesteps,
//! torchmetrics' update count, modules and losses as arguments, a pad-mode string and a kwargs
//! dict, a view that must divide, a TorchFunctionMode; torch 2.12.1 and 2.14.1); tests/scenarios7
//! (a Lightning callback, set_stance, an expanded (stride 0) input, in-place module.compile() with
//! a with_kwargs pre-hook, SDPA prefill and decode, torch.func jacobians over an EMA, a replay
//! buffer's len(); torch 2.13.0 and 2.15.0); tests/scenarios8 (clip_grad_norm_ annealed,
//! TransformerEncoder padding masks in train and eval, .item() counts with torch._check_is_size, a
//! frozen dataclass kernel sweep, GradScaler's scale, Llama's dynamic NTK rope, Whisper; torch
//! 2.12.1 and 2.15.0); tests/scenarios9 (autocast dtype per request, a guidance scale on a plain
//! object, class weights None then a tensor, a refinement loop count, a per-length list cache,
//! grid_sample's align_corners, torchvision's box_iou; torch 2.13.0 and 2.14.1); tests/scenarios10
//! (diffusers' VAE decode at several latent sizes, a gradient-accumulation tail scale, a GRUCell's
//! first state, NAdam's weight decay set mid-run, PEFT's weighted adapter blend, a straight-through
//! quantiser's bit width, timm ConvNeXt's grad checkpointing; torch 2.12.1 and 2.14.1);
//! tests/scenarios11 (a model cast to bfloat16 after training, torch.fft's norm per config, OPT
//! trained with labels then scoring without, an IntEnum phase with flags, Lightning's manual-
//! optimisation GAN, orthogonal parametrisation mid-run, a running-mean meter; torch 2.13.0 and
//! 2.15.0). Scores before and after are in each set's README; this test holds the judgement where
//! it is, the known misses listed (many are the two truth writers of a set disagreeing with each
//! other on one version).

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN6: &[Open] = &[(
    "function_mode_op_audit",
    "torch2.14.1",
    "0/2",
    "category",
    "ours 'container_len', the truth 'closure_hook_state'",
)];

const OPEN7: &[Open] = &[(
    "kwargs_prehook_inplace_compile",
    "torch2.15.0",
    "0/1",
    "category",
    "ours 'type_change', the truth 'constant_value'",
)];

const OPEN8: &[Open] = &[
    (
        "hf_llama_dynamic_ntk_long_docs",
        "torch2.12.1",
        "12/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_llama_dynamic_ntk_long_docs",
        "torch2.12.1",
        "8/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_llama_dynamic_ntk_long_docs",
        "torch2.12.1",
        "9/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "0/1",
        "owner",
        "ours 'user_argument', the truth 'library_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "0/3",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "1/4",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "1/5",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "12/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "13/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "3/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
    (
        "hf_whisper_transcript_lengths",
        "torch2.12.1",
        "8/1",
        "owner",
        "ours 'library_argument', the truth 'user_argument'",
    ),
];

const OPEN9: &[Open] = &[
    (
        "relpos_bias_list_cache",
        "*",
        "0/5",
        "category",
        "ours 'container_len', the truth 'shape_input'",
    ),
    (
        "relpos_bias_list_cache",
        "*",
        "0/5",
        "cause_entry",
        "ours '0/2', the truth '0/4'",
    ),
    (
        "relpos_bias_list_cache",
        "*",
        "0/5",
        "owner",
        "ours 'user_attribute', the truth 'user_argument'",
    ),
];

const OPEN10: &[Open] = &[
    (
        "diffusers_vae_decode_latent_sizes",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "nadam_weight_decay_midrun",
        "*",
        "2/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "peft_weighted_adapter_blend",
        "torch2.14.1",
        "0/1",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "peft_weighted_adapter_blend",
        "torch2.14.1",
        "0/2",
        "owner",
        "ours 'library_attribute', the truth 'user_attribute'",
    ),
    (
        "timm_convnext_grad_ckpt_epochs",
        "torch2.12.1",
        "0/1",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
];

const OPEN11: &[Open] = &[
    (
        "fft_norm_per_config",
        "*",
        "0/2",
        "category",
        "ours 'type_change', the truth 'constant_value'",
    ),
    (
        "hf_opt_labels_then_scoring",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "intenum_phase_flags",
        "torch2.13.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "intenum_phase_flags",
        "*",
        "0/3",
        "category",
        "ours 'object_id', the truth 'constant_value'",
    ),
    (
        "lightning_manual_gan_toggle",
        "*",
        "0/1",
        "category",
        "ours 'object_id', the truth 'shape_input'",
    ),
    (
        "running_mean_meter",
        "torch2.15.0",
        "0/1",
        "category",
        "ours 'global_var', the truth 'type_change'",
    ),
    (
        "running_mean_meter",
        "torch2.13.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "running_mean_meter",
        "torch2.13.0",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
];

#[test]
fn scenarios6_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios6/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 34,
        open: OPEN6,
    });
}

#[test]
fn scenarios7_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios7/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 7,
        recompiles: 22,
        open: OPEN7,
    });
}

#[test]
fn scenarios8_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios8/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 61,
        open: OPEN8,
    });
}

#[test]
fn scenarios9_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios9/logs",
        versions: &["torch2.13.0", "torch2.14.1"],
        scenarios: 7,
        recompiles: 34,
        open: OPEN9,
    });
}

#[test]
fn scenarios10_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios10/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 20,
        open: OPEN10,
    });
}

#[test]
fn scenarios11_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios11/logs",
        versions: &["torch2.13.0", "torch2.15.0"],
        scenarios: 7,
        recompiles: 38,
        open: OPEN11,
    });
}
