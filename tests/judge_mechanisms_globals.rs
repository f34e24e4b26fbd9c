//! A model kept in a global, an argument that is None on some calls, a
//! library model's parameters frozen by the user, one change made to
//! several submodules (issue 37, items 1, 3 and 4), read off the held-out
//! sets of rounds 42 to 44 (tests/scenarios89-94, truth written blind
//! before guardscope ran on them), each on logs recorded from third-party
//! code on two torch versions.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// A compiled function that reaches the model through a module-level
/// global (`model(...)` inside `contrastive_step`) guards its parameters as
/// `G['model']._modules[...]._parameters[...]`. Their requires_grad and
/// their sizes are the model's state, set by the user's code
/// (`requires_grad_`, `model.head = nn.Linear(...)`), not a global the
/// code reassigns: the owner is the user's attribute, the fix speaks of
/// freezing, and a replaced head is a module change, not an input size.
#[test]
fn a_tensor_of_a_model_kept_in_a_global_is_the_models_state() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios89", torch, "clip_lit_unlock_image_tower");
        let r = find(&all, "0/1");
        assert_eq!(r["owner"], "user_attribute", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.contains("freezing or unfreezing"), "{torch}: {fix}");
        assert!(!fix.contains("passed in as an argument"), "{torch}: {fix}");

        let all = recorded("scenarios89", torch, "vqa_answer_vocab_growth");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch} {id}: {r:#}");
            assert_eq!(r["owner"], "user_attribute", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("a new module was assigned"), "{torch} {id}: {fix}");
        }
    }
}

/// Dynamo guards an argument that is None with `L['y'] is None` and one
/// that is a tensor with its tensor match: the same value, None in one
/// entry and a tensor in the other, is a change. So Lightning's validation
/// entry (grad mode off and `y=None`) differs from a training call in two
/// values, and the training entry compiled for teacher forcing 1.0 in one:
/// that older entry is the cause when the ratio drops to 0.5.
#[test]
fn an_argument_none_on_one_call_and_a_tensor_on_another_is_a_change() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios90", torch, "lightning_seq2seq_teacher_forcing");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/0", "{torch}: {r:#}");
        assert_eq!(r["cause"]["category"], "constant_value", "{torch}: {r:#}");
        assert_eq!(r["owner"], "user_argument", "{torch}: {r:#}");

        let all = recorded("scenarios90", torch, "continual_replay_forecaster");
        let r = find(&all, "0/1");
        let changed = &r["changed"][0];
        assert_eq!(
            (
                changed["subject"].as_str(),
                changed["old"].as_str(),
                changed["new"].as_str()
            ),
            (Some("rx"), Some("None"), Some("a tensor")),
            "{torch}: {r:#}"
        );
    }
}

/// transformers' Informer fine-tuned with its encoder frozen, then
/// unfrozen (`model.model.encoder.requires_grad_(...)`): the parameters'
/// requires_grad changed, and the fix says so. It is no resize (the text
/// for a library method that gives a parameter another size).
#[test]
fn a_library_models_parameters_frozen_or_unfrozen_are_a_setting_not_a_resize() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios90", torch, "informer_transfer_gradual_unfreeze");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "expected", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("requires_grad of"), "{torch} {id}: {fix}");
            assert!(!fix.contains("another size"), "{torch} {id}: {fix}");
        }
    }
}

/// diffusers' Euler scheduler sets its private `self._step_index` on its
/// first step (None, then 1): the guard trees show the first fill, and
/// the fix asks nothing of the user, who does not own that attribute
/// (the truth forbids `_step_index =`).
#[test]
fn a_librarys_private_attribute_filled_on_the_first_call_asks_nothing_of_the_user() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios14", torch, "diffusers_euler_sampling_step");
        let r = find(&all, "1/1");
        assert_eq!(r["owner"], "library_attribute", "{torch}: {r:#}");
        assert_eq!(r["evidence"]["kind"], "first_call", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.contains("No action needed"), "{torch}: {fix}");
        assert!(!fix.contains("before compiling"), "{torch}: {fix}");
    }
}

/// timm's `freeze` swaps a model's BatchNorm layers for torchvision's
/// FrozenBatchNorm2d and `unfreeze` swaps them back; the compiled
/// function reaches the model through a global, so the guard is
/// `___check_type_id(G['model']._modules['bn1'], ...)`: a submodule's class
/// is the model's state, set by the user's call, like its tensors.
#[test]
fn the_class_of_a_submodule_of_a_model_in_a_global_is_the_models() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios94", torch, "linear_probe_then_full_finetune");
        let r = find(&all, "0/1");
        assert_eq!(r["owner"], "user_attribute", "{torch}: {r:#}");
    }
}

/// Lightning's ModelPruning prunes `fc1` and `fc2` at once: the entry of
/// the first pruning differs from the second in the class of both
/// modules' pruning hooks, one change made by one pass of the callback,
/// not two. The entry before any pruning failed on a parameter that no
/// longer exists, which no guard of the new compile can compare: as close,
/// so the newest entry (the first pruning's) is the cause.
#[test]
fn the_same_change_to_several_submodules_counts_once_for_the_cause() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios93", torch, "lightning_pruning_callback");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/1", "{torch}: {r:#}");
    }
}

/// An orthogonal parametrization applied mid-run to a layer of a model in
/// a global: its class changed from Linear to ParametrizedLinear. The fix
/// says to apply the parametrization before compiling, never to remove it
/// (which the truth forbids: it would change the model).
#[test]
fn a_parametrization_added_is_not_told_to_be_removed() {
    for torch in ["torch2.13.0", "torch2.15.0"] {
        let all = recorded("scenarios11", torch, "orthogonal_recurrent_midrun");
        let r = find(&all, "0/1");
        assert_eq!(r["owner"], "user_attribute", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.contains("apply the parametrization"), "{torch}: {fix}");
        assert!(!fix.contains("remove_parametrizations"), "{torch}: {fix}");
    }
}
