//! Mechanisms for Python values that each cover a class of recompiles
//! (issue 37), each checked on held-out logs recorded from third-party code
//! on two torch versions, whose truth was written blind: an expression of
//! values torch pinned, a library's own local across its graph break,
//! floats computed to full precision, a number a library's module reads off
//! an attribute the user sets.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// `(cy + (-1)*(cut_h // 2)) == 4` (torch 2.12 writes `== (-11)`): an
/// expression of ints torch held symbolically that numpy's np.clip needed
/// as one number, in timm's Mixup after a graph break inside timm. It is
/// read (no "not recognised"), its values are the library's, crossing its
/// own break, and each new box compiles again: a problem fixed where the
/// user calls the mixup step, never in timm's file.
#[test]
fn an_expression_of_pinned_values_in_a_librarys_resumed_code_is_read_and_fixed_where_it_is_called() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios34", torch, "timm_mixup_train_step");
        for id in ["10/2", "10/3", "10/4"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["form"], "value.expression", "{torch} {id}: {r:#}");
            assert_eq!(r["cause"]["recognised"], true, "{torch} {id}");
            assert_eq!(r["cause"]["category"], "constant_value", "{torch} {id}");
            assert_eq!(r["owner"], "graph_break_value", "{torch} {id}");
            assert_eq!(r["severity"], "problem", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(
                fix.contains("outside the compiled function") && !fix.starts_with("Expected"),
                "{torch} {id}: {fix}"
            );
            assert!(!fix.contains("mixup.py"), "{torch} {id}: {fix}");
        }
    }
}

/// A value timm's code passes on inside its own call that repeats (the
/// Beta draw's ratio, frame 8) is a problem, and its fix is never the
/// "Expected: ... no action needed" of a value a library passes once per
/// mode.
#[test]
fn a_library_argument_that_repeats_is_never_told_no_action() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios34", torch, "timm_mixup_train_step");
        for id in ["8/1", "8/2", "8/3", "8/4"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(!fix.starts_with("Expected"), "{torch} {id}: {fix}");
            assert!(!fix.contains("No action needed"), "{torch} {id}: {fix}");
            assert!(fix.contains("computed in timm's code"), "{torch} {id}: {fix}");
        }
    }
}

/// timm's mixup_target gets lam, a Beta draw, across a graph break: floats
/// carried to full precision (0.8323994956551746), a new one each call. Two
/// such recompiles of one cause are no set of variants, even though an op
/// needs the number: a problem, with the values named as the evidence.
#[test]
fn floats_carried_to_full_precision_that_never_return_repeat() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios34", torch, "timm_mixup_train_step");
        for id in ["12/2", "12/3"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            assert_eq!(r["evidence"]["kind"], "repeats", "{torch} {id}");
            let text = r["evidence"]["text"].as_str().unwrap();
            assert!(text.contains("full precision"), "{torch} {id}: {text}");
            assert!(!r["fix"].as_str().unwrap().starts_with("Expected"), "{torch} {id}");
        }
    }
    // One such float alone proves nothing: torchvision's focal loss gamma
    // (0.0, 1.0: short) and a single numpy draw stay one graph per value.
    for torch in ["torch2.13.0", "torch2.14.1"] {
        let all = recorded("scenarios13", torch, "numpy_mixup_beta_lambda");
        assert_eq!(find(&all, "0/1")["severity"], "expected", "{torch}");
    }
}

/// timm's DropBlock2d reads drop_prob, which the user's loop ramps, as a
/// Python number in timm's code: a buffer or a tensor there would break
/// timm's code, so the fix offers what the user controls (a few distinct
/// values, set once, the module run uncompiled), never register_buffer.
#[test]
fn a_number_a_librarys_module_reads_off_an_attribute_you_set_is_never_made_a_buffer() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios36", torch, "timm_resnet_dropblock_ramp");
        for id in ["0/1", "0/2", "0/3", "0/4"] {
            let r = find(&all, id);
            assert_eq!(r["owner"], "user_attribute", "{torch} {id}");
            assert_eq!(r["severity"], "problem", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("distinct values"), "{torch} {id}: {fix}");
            assert!(fix.contains("fixed while"), "{torch} {id}: {fix}");
            assert!(
                !fix.contains("register_buffer") && !fix.contains("Make it a buffer"),
                "{torch} {id}: {fix}"
            );
        }
    }
}

/// The rows read off this round's held-out sets, each on the recorded logs
/// it was read from (third-party code, two torch versions): the row reads
/// the text, with the category, owner and evidence the blind truth gives.
#[test]
fn rows_read_off_round_sixteen_and_seventeen_read_their_recordings() {
    let cases = [
        // (set, torch, log, compile id, form, category, owner, evidence)
        // `fn.__self__.momentum`: the module a compiled bound method runs
        // on, its momentum pinned through `1 - m` (torch 2.12) or as is.
        (
            "scenarios38",
            "torch2.12.1",
            "moco_momentum_encoder",
            "0/2",
            "module.attribute_expression",
            "nn_module_attr",
            "user_attribute",
            "repeats",
        ),
        (
            "scenarios38",
            "torch2.15.0",
            "moco_momentum_encoder",
            "0/2",
            "module.attribute",
            "nn_module_attr",
            "user_attribute",
            "repeats",
        ),
        // An entry of Lightning's hparams dict the user's callback sets.
        (
            "scenarios38",
            "torch2.12.1",
            "lightning_hparams_mask_ratio",
            "0/1",
            "module.dict_item_value",
            "nn_module_attr",
            "user_attribute",
            "became_dynamic",
        ),
        (
            "scenarios38",
            "torch2.15.0",
            "lightning_hparams_mask_ratio",
            "0/1",
            "module.dict_item_value",
            "nn_module_attr",
            "user_attribute",
            "became_dynamic",
        ),
        // An attribute of a library's object kept in a global, read in the
        // library's code: None or not, a value; not a global of the user's.
        (
            "scenarios38",
            "torch2.12.1",
            "bert_sentence_pair_classifier",
            "0/1",
            "global.library_object_none",
            "type_change",
            "library_attribute",
            "first_call",
        ),
        (
            "scenarios38",
            "torch2.15.0",
            "bert_sentence_pair_classifier",
            "0/1",
            "global.library_object_none",
            "type_change",
            "library_attribute",
            "first_call",
        ),
        (
            "scenarios34",
            "torch2.12.1",
            "diffusers_heun_class_sampler",
            "7/2",
            "global.library_object_value",
            "constant_value",
            "library_attribute",
            "repeats",
        ),
        (
            "scenarios34",
            "torch2.14.1",
            "diffusers_heun_class_sampler",
            "7/2",
            "global.library_object_value",
            "constant_value",
            "library_attribute",
            "repeats",
        ),
        // `(1.0 + ((-1)*s)) == (-0.17)`: a saturation factor torchvision
        // needs as 1 - s, the user's argument, drawn per batch.
        (
            "scenarios39",
            "torch2.12.1",
            "colour_jitter_v2_functional",
            "0/3",
            "value.expression",
            "constant_value",
            "user_argument",
            "repeats",
        ),
        (
            "scenarios39",
            "torch2.14.1",
            "colour_jitter_v2_functional",
            "0/3",
            "value.expression",
            "constant_value",
            "user_argument",
            "repeats",
        ),
    ];
    for (set, torch, log, id, form, category, owner, evidence) in cases {
        let all = recorded(set, torch, log);
        let r = find(&all, id);
        let at = format!("{set} {torch} {log} {id}");
        assert_eq!(r["cause"]["form"], form, "{at}: {r:#}");
        assert_eq!(r["cause"]["recognised"], true, "{at}");
        assert_eq!(r["cause"]["category"], category, "{at}");
        assert_eq!(r["owner"], owner, "{at}");
        assert_eq!(r["evidence"]["kind"], evidence, "{at}");
    }
}

/// The counts a router's `.tolist()` hands across a graph break, held
/// symbolically and tied only by their sum (`(c1 + c3 + c2 + c0) == 64`,
/// the size split): torch made them dynamic, so the first change is an
/// expected one-off, never "pinned".
#[test]
fn split_sizes_tied_only_by_their_sum_became_dynamic() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios37", torch, "moe_topk_token_dispatch");
        let r = find(&all, "3/1");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        assert_eq!(r["evidence"]["kind"], "became_dynamic", "{torch}");
    }
}

/// torch's pass that hands a float it meant to keep symbolic back as a
/// constant writes its name in the guard's comment: `remove_tensorify_...`
/// or, from torch 2.12 on too, `_tensorify_impl`
/// (fx/passes/_tensorify_python_scalars.py). Either way the number is one
/// an op needs (torchmetrics' data_range per dataset): one graph per value
/// while few, not a repeat.
#[test]
fn a_float_torch_specialised_back_by_either_tensorify_pass_is_one_graph_per_value() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios41", torch, "torchmetrics_ssim_psnr_per_dataset");
        let r = find(&all, "0/2");
        assert!(
            r["cause"]["raw"]
                .as_str()
                .unwrap()
                .contains("_tensorify_python_scalars"),
            "{torch}: {r:#}"
        );
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        assert_eq!(r["evidence"]["kind"], "one_per_variant", "{torch}");
    }
}

/// An attribute of a submodule of a model the compiled function reaches
/// through a global (PEFT's LoRA scaling, set by the user's set_scale): the
/// model's attribute, not a global; and a library's code reads it, so no
/// buffer is offered.
#[test]
fn a_submodules_attribute_reached_through_a_global_is_the_models() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios41", torch, "peft_lora_scale_sweep_eval");
        let r = find(&all, "0/1");
        assert_eq!(r["cause"]["form"], "global.submodule_attribute", "{torch}: {r:#}");
        assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch}");
        assert_eq!(r["owner"], "user_attribute", "{torch}");
        let fix = r["fix"].as_str().unwrap();
        assert!(!fix.contains("buffer"), "{torch}: {fix}");
    }
}

/// A branch comparing the size with a length the module keeps
/// (`if seq_len > self.cached_len:`, a rotary cache grown on demand) repeats at each new
/// maximum: the fix builds the cache once at the maximum length, not
/// torch.where over the two sides.
#[test]
fn a_size_branch_against_a_cache_the_module_grows_is_fixed_by_preallocating() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios40", torch, "rotary_cache_long_documents");
        for id in ["0/2", "0/4", "0/6"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(
                fix.contains("preallocate") && fix.contains("max_len"),
                "{torch} {id}: {fix}"
            );
            assert!(!fix.contains("torch.where"), "{torch} {id}: {fix}");
        }
    }
}
