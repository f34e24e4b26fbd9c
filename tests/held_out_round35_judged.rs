//! The judgement of every recompile in the held-out set recorded and given blind truth on 2026-11-30,
//! the thirty-fifth round, whose topics the recorder chose among APIs no earlier set names (truth
//! written from the script and the raw log by people who never ran guardscope, before it first ran
//! on the set): tests/scenarios74 (speech, audio and multimodal transformers models from tiny random
//! configs: a Data2VecAudio head swapped per task, a vision-text dual encoder's temperature sweep,
//! HuBERT with and without a padding mask, Speech2Text greedy decoding by hand, UniSpeechSat speaker
//! enrolment over a list of clips, WavLM hidden states on some calls, a Whisper audio classifier
//! trained and evaluated; torch 2.14.1 and 2.15.0). Nothing was read off this set: its README gives
//! the same score for the session's first binary and its last. This test holds the judgement where
//! it is, the known misses listed.

mod common;

use common::blind::{judge_set, HeldOut, Open};

// The two truths of the Data2VecAudio head swap disagree with each other
// (2.14.1: a lazily grown buffer, expected; 2.15.0: a module attribute, a
// problem); the speaker enrolment's three list lengths, each compiled once,
// are expected for us and a problem for both truths (no bound in the
// script); WavLM's first compile failed inside transformers, which we judge
// as a failed compile where the truths see a keyword set once.
const OPEN74: &[Open] = &[
    (
        "data2vec_audio_task_head_swap",
        "torch2.14.1",
        "16/1",
        "category",
        "ours 'nn_module_attr', the truth 'shape_lazy_buffer'",
    ),
    (
        "data2vec_audio_task_head_swap",
        "torch2.15.0",
        "16/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "data2vec_audio_task_head_swap",
        "torch2.15.0",
        "16/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "data2vec_audio_task_head_swap",
        "torch2.14.1",
        "16/2",
        "category",
        "ours 'nn_module_attr', the truth 'shape_lazy_buffer'",
    ),
    (
        "data2vec_audio_task_head_swap",
        "torch2.15.0",
        "16/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "data2vec_audio_task_head_swap",
        "torch2.15.0",
        "16/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "unispeech_sat_speaker_enrolment",
        "torch2.15.0",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "unispeech_sat_speaker_enrolment",
        "*",
        "0/1",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "unispeech_sat_speaker_enrolment",
        "torch2.15.0",
        "0/2",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "unispeech_sat_speaker_enrolment",
        "*",
        "0/2",
        "severity",
        "ours 'expected', the truth 'problem'",
    ),
    (
        "wavlm_layerwise_probe_hidden_states",
        "*",
        "0/1",
        "fix",
        "the fix names none of what the truth requires, or something it forbids",
    ),
    (
        "wavlm_layerwise_probe_hidden_states",
        "*",
        "0/1",
        "severity",
        "ours 'problem', the truth 'expected'",
    ),
];

#[test]
fn scenarios74_is_judged_as_its_blind_truth_says() {
    judge_set(&HeldOut {
        logs: "tests/scenarios74/logs",
        versions: &["torch2.14.1", "torch2.15.0"],
        scenarios: 7,
        recompiles: 26,
        open: OPEN74,
    });
}
