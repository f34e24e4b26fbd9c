//! Who writes a value, and what a single change is (issue 37, items 3-5),
//! read off the held-out sets of rounds 40 and 41 (tests/scenarios83-87, truth
//! written blind before guardscope ran on them), each on logs recorded
//! from third-party code on two torch versions.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// transformers' Wav2Vec2-Conformer rotary embedding keeps its cache length
/// on the module (`self.cached_sequence_length = sequence_length` in its
/// forward). The guard says only who reads it; the `__setattr__` guard of
/// the traced store says who writes it. So the value is transformers'
/// state, not an attribute the user's code sets: the first fill (None ->
/// int) is expected once with nothing to do, and the refills that repeat
/// are a problem whose fix names the store and never asks the user to set
/// the library's attribute.
#[test]
fn a_value_the_librarys_own_traced_code_assigns_is_the_librarys() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios83", torch, "hf_wav2vec2_conformer_transcribe");
        let first = find(&all, "0/1");
        assert_eq!(first["owner"], "library_attribute", "{torch}: {first:#}");
        assert_eq!(first["evidence"]["kind"], "first_call", "{torch}: {first:#}");
        let fix = first["fix"].as_str().unwrap();
        assert!(
            fix.starts_with("Expected once: transformers's own code set"),
            "{torch}: {fix}"
        );
        assert!(
            fix.contains("`self.cached_sequence_length = sequence_length`"),
            "{torch}: {fix}"
        );
        assert!(!fix.contains("before compiling"), "nothing for the user to set: {fix}");
        for id in ["0/3", "0/4"] {
            let r = find(&all, id);
            assert_eq!(r["owner"], "library_attribute", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let why = r["evidence"]["text"].as_str().unwrap();
            assert!(
                !why.contains("two sides"),
                "199, then 399: no flag ({torch} {id}): {why}"
            );
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("transformers's own code assigns"), "{torch} {id}: {fix}");
            assert!(fix.contains("allow_unspec_int_on_nn_module"), "{torch} {id}: {fix}");
            assert!(!fix.starts_with("Your code"), "{torch} {id}: {fix}");
        }
    }
}

/// Network slimming rebuilds a BatchNorm narrower after each pruning round
/// (64 -> 48 -> 36 -> 27), outside the compiled function. A buffer that got
/// smaller, with no traced line assigning it, is no cache forward grows:
/// the evidence and the fix say the module was resized, and the fix gives
/// the choices that work for a resize (compile again after the round, mask
/// the channels, or let the sizes be dynamic), not "pre-materialize it".
#[test]
fn a_buffer_that_shrank_outside_the_compiled_code_is_a_resize_not_a_lazy_cache() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios86", torch, "network_slimming_channel_prune");
        for id in ["0/1", "0/2", "0/3"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let why = r["evidence"]["text"].as_str().unwrap();
            assert!(
                why.contains("resized outside the compiled function"),
                "{torch} {id}: {why}"
            );
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("got smaller"), "{torch} {id}: {fix}");
            assert!(fix.contains("torch._dynamo.reset()"), "{torch} {id}: {fix}");
            assert!(
                fix.contains("force_nn_module_property_static_shapes"),
                "{torch} {id}: {fix}"
            );
            assert!(!fix.contains("Pre-materialize"), "{torch} {id}: {fix}");
        }
    }
}

/// A DeepLab model switched once to output stride 8 (a conv's stride,
/// dilation and padding set by the user's `set_output_stride`): one change
/// of a torch layer's stride is one more graph, expected, and the fix says
/// so without the instances-and-recompile-limit story that fits blocks
/// compiled one by one.
#[test]
fn a_torch_layer_setting_changed_once_is_one_more_graph() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios85", torch, "deeplab_output_stride_eval");
        let r = find(&all, "0/2");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(
            fix.contains("It changed once here ((2, 2) -> (1, 1))"),
            "{torch}: {fix}"
        );
        assert!(!fix.contains("recompile_limit"), "{torch}: {fix}");
    }
}

/// A QAT calibration passes the observer's scale to
/// `torch.fake_quantize_per_tensor_affine` as a Python float: that op has an
/// overload that takes scale and zero point as tensors, so "a tensor cannot
/// replace it" would be false; the fix says to pass a tensor, and never
/// offers the recompile limit for values computed anew at every step.
#[test]
fn a_number_an_op_also_takes_as_a_tensor_is_passed_as_one() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios86", torch, "qat_observer_qparams_fake_quant");
        for id in ["0/1", "0/3", "0/5"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("torch.tensor("), "{torch} {id}: {fix}");
            assert!(!fix.contains("cannot replace"), "{torch} {id}: {fix}");
            assert!(!fix.contains("recompile_limit"), "{torch} {id}: {fix}");
        }
    }
}

/// A ring-buffer cache module handed to the compiled forward as an argument
/// (`cache.pos`, advanced by the user's loop after every token): torch's
/// hint names it an integer attribute of an nn.Module, so it is that
/// module's state, set where the module is kept (`user_attribute`), not a
/// value the call passes; it fills the cache up to the limit, and the fix
/// is the module attribute's (a buffer, or unspecialised ints).
#[test]
fn an_int_attribute_of_a_module_passed_in_is_that_modules_state() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios87", torch, "ring_buffer_sliding_window_decoder");
        for id in ["0/1", "0/4", "0/7"] {
            let r = find(&all, id);
            assert_eq!(r["owner"], "user_attribute", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("allow_unspec_int_on_nn_module"), "{torch} {id}: {fix}");
        }
    }
}
