//! The judgement of every recompile in the held-out sets recorded and given blind truth on
//! 2026-11-30, the fortieth round, recorders' choice of topics (truth written blind, before
//! guardscope first ran on the sets): tests/scenarios83 (audio and speech: a CTC TDNN on bucketed
//! utterances, a SpeechT5 HiFi-GAN vocoder, a Wav2Vec2-Conformer transcriber, a SincNet sample-rate
//! switch, a speaker-verification threshold, a SpecAugment curriculum, a streaming ASR memory list;
//! torch 2.12.1 and 2.14.1), tests/scenarios84 (recommendation and tabular: DeepFM validation, a
//! growing vocabulary, ListNet with ndcg cutoffs, an online normaliser, SASRec histories, a two-tower
//! last batch, wide & deep crosses; torch 2.14.1 and 2.15.0), tests/scenarios85 (dense-prediction
//! vision: a DeepLab output-stride switch, instance masks to boxes, a keypoint sigma schedule,
//! RetinaNet post-processing, segmentation TTA, multi-scale U-Net depth, an UperNet auxiliary
//! weight; torch 2.12.1 and 2.14.1) and tests/scenarios86 (compression and efficient training:
//! torch.ao pruning, bf16 autocast, micro-batch warm-up, a hand-written LoRA merge, network
//! slimming, progressive layer drop, QAT observer qparams; torch 2.12.1 and 2.15.0). Scored before
//! anything was read off them with the session's first binary: 9 of 26, 30 of 32, 20 of 29 and 18
//! of 48. With this round's mechanisms (who writes a value, read from the traced store's guard; a
//! buffer that shrank outside the compiled code; a torch layer's setting changed once; an op that
//! takes its number as a tensor too): 11, 30, 22 and 28. The misses left are mostly truths that
//! disagree between versions or read a cap from the script. This test holds the judgement where it
//! is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

const OPEN83: &[Open] = &[
    (
        "hf_wav2vec2_conformer_transcribe",
        "torch2.14.1",
        "0/1",
        "category",
        "ours 'nn_module_attr', the truth 'type_change'",
    ),
    (
        "hf_wav2vec2_conformer_transcribe",
        "torch2.12.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "hf_wav2vec2_conformer_transcribe",
        "torch2.12.1",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "specaugment_mask_curriculum",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "specaugment_mask_curriculum",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "specaugment_mask_curriculum",
        "*",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "specaugment_mask_curriculum",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "streaming_asr_chunk_memory",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "streaming_asr_chunk_memory",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "streaming_asr_chunk_memory",
        "torch2.12.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "streaming_asr_chunk_memory",
        "*",
        "0/2",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
    (
        "streaming_asr_chunk_memory",
        "torch2.12.1",
        "0/3",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "streaming_asr_chunk_memory",
        "*",
        "0/3",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

const OPEN84: &[Open] = &[(
    "wide_and_deep_feature_crosses",
    "*",
    "0/2",
    "cause_entry",
    "ours '0/0', the truth '0/1'",
)];

const OPEN85: &[Open] = &[
    (
        "instance_seg_masks_to_boxes_loss",
        "torch2.14.1",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "torch2.14.1",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "*",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "torch2.14.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "torch2.14.1",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "*",
        "0/3",
        "category",
        "ours 'container_len', the truth 'shape_input'",
    ),
    (
        "instance_seg_masks_to_boxes_loss",
        "*",
        "0/3",
        "cause_entry",
        "ours '0/1', the truth '0/2'",
    ),
    // The new call has flip_dims None like 0/0, and 0/1 holds it as a tuple: 0/0 differs in one value (scale), 0/1 in two (scale, flip_dims), so the distance rule the truths state gives 0/0; this truth took the newest
    (
        "segmentation_tta_flips_scales",
        "torch2.12.1",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
    (
        "segmentation_tta_flips_scales",
        "torch2.14.1",
        "0/2",
        "cause_entry",
        "ours '0/0', the truth '0/1'",
    ),
];

const OPEN86: &[Open] = &[
    (
        "ao_sparsifier_pruning_schedule",
        "*",
        "0/2",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "ao_sparsifier_pruning_schedule",
        "torch2.12.1",
        "0/3",
        "category",
        "ours 'type_change', the truth 'torch_global_state'",
    ),
    (
        "ao_sparsifier_pruning_schedule",
        "torch2.12.1",
        "0/3",
        "cause_entry",
        "ours '0/1', the truth '0/2'",
    ),
    (
        "ao_sparsifier_pruning_schedule",
        "torch2.12.1",
        "0/3",
        "owner",
        "ours 'user_attribute', the truth 'torch_state'",
    ),
    (
        "ao_sparsifier_pruning_schedule",
        "torch2.15.0",
        "0/3",
        "owner",
        "ours 'user_attribute', the truth 'library_attribute'",
    ),
    (
        "grad_accum_microbatch_warmup",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'shape_input', the truth 'constant_value'",
    ),
    (
        "grad_accum_microbatch_warmup",
        "torch2.12.1",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.12.1",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.15.0",
        "0/2",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.12.1",
        "0/3",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.15.0",
        "0/3",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.12.1",
        "0/4",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.15.0",
        "0/4",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.12.1",
        "0/5",
        "category",
        "ours 'constant_value', the truth 'nn_module_attr'",
    ),
    (
        "progressive_layer_drop_schedule",
        "torch2.15.0",
        "0/5",
        "category",
        "ours 'constant_value', the truth 'closure_state'",
    ),
];

#[test]
fn scenarios83_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios83/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 26,
        open: OPEN83,
    });
}

#[test]
fn scenarios84_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios84/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 32,
        open: OPEN84,
    });
}

#[test]
fn scenarios85_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios85/logs",
        versions: &["torch2.12.1", "torch2.14.1"],
        scenarios: 7,
        recompiles: 29,
        open: OPEN85,
    });
}

#[test]
fn scenarios86_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios86/logs",
        versions: &["torch2.12.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 48,
        open: OPEN86,
    });
}
