//! A library layer's state, a value that is None or a string, an object
//! that is None in one compile and a cache in the other, and the direct
//! caller of a decorated function (issue 37, items 1 to 3), read off the
//! held-out sets of round 46 (tests/scenarios97-99, truth written blind
//! before guardscope ran on them), each on logs recorded from third-party
//! code on two torch versions.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// PEFT keeps which adapters are merged and which are active as lists on
/// each LoRA/VeRA layer, and its own code tests them (`bool(self.merged_
/// adapters)`, `len(self._active_adapter)`). A recompile on them is the
/// layer's state that the library's methods switch (`merge_adapter()`,
/// `set_adapter([...])`), owned by the library, not a container the user's
/// code grows: no advice to keep a list out of the compiled region.
#[test]
fn a_list_a_library_layer_keeps_as_its_state_is_the_layers_attribute() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        for (scenario, id) in [
            ("xglm_vera_merge_for_eval", "0/2"),
            ("persimmon_lora_active_adapter_sets", "0/2"),
        ] {
            let all = recorded("scenarios98", torch, scenario);
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch} {scenario}: {r:#}");
            assert_eq!(r["owner"], "library_attribute", "{torch} {scenario}: {r:#}");
            assert_eq!(r["severity"], "expected", "{torch} {scenario}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(!fix.contains("ring buffer"), "{torch} {scenario}: {fix}");
            assert!(!fix.contains("append outside"), "{torch} {scenario}: {fix}");
        }
        // A config field of a submodule of a model kept in a global
        // (`G['model']..._modules['model'].config.vocab_size`): the model's
        // attribute, named in full, not "global model._modules".
        let all = recorded("scenarios98", torch, "arcee_lora_chat_tokens_resize");
        let r = find(&all, "0/1");
        assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch}: {r:#}");
        let culprit = r["cause"]["culprit"].as_str().unwrap();
        assert!(culprit.ends_with("config.vocab_size"), "{torch}: {culprit}");
    }
}

/// `self.dropped_field is None` failed, and the new entry holds the field
/// as the string `'device'`: not a flag with two values but a choice whose
/// every value is a graph. Each ablation job sets a new one, so it repeats
/// (a problem), and the fix turns the choice into data (a mask) or starts
/// each job from a fresh compile; it never calls the string a bool flag.
#[test]
fn a_value_that_is_none_then_a_string_is_no_flag() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios99", torch, "field_ablation_jobs");
        for id in ["0/2", "0/4", "0/6"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let why = r["evidence"]["text"].as_str().unwrap();
            assert!(!why.contains("flag"), "{torch} {id}: {why}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("mask"), "{torch} {id}: {fix}");
            assert!(fix.contains("torch._dynamo.reset()"), "{torch} {id}: {fix}");
            assert!(!fix.contains("bool flag"), "{torch} {id}: {fix}");
            assert!(!fix.contains("allow_unspec_int"), "{torch} {id}: {fix}");
        }
    }
}

/// A hand-written decode loop passes `past=None` for the prompt and a
/// transformers DynamicCache after it. Dynamo guards the first with
/// `L['past'] is None` and the second by its type: the same value, so a new
/// prompt (past None again) is closest to the first prompt's entry, which
/// differs only in the prompt's length, not to the newest decode entry.
/// The cache's own tensors (`past.layers[0].keys`) growing is the KV cache,
/// whatever the loop calls it.
#[test]
fn an_object_none_in_one_entry_and_a_cache_in_the_other_is_a_change() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios98", torch, "codegen_prefill_then_decode");
        let r = find(&all, "0/1");
        let past = r["changed"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["subject"] == "type id(past)")
            .unwrap_or_else(|| panic!("{torch}: {r:#}"));
        assert_eq!(past["old"], "None", "{torch}: {r:#}");
        assert_eq!(find(&all, "0/3")["cause_entry"], "0/0", "{torch}");
        let r = find(&all, "0/2");
        assert_eq!(r["cause"]["category"], "kv_cache", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
    }
}

/// `@torch.compile def forward_step(ids, past)` called from a helper
/// (`complete`) that the script's loop calls: `dynamo_start` holds the
/// loop's line and skips the helper's. The frame's other compiles logged
/// the direct call while making a dim dynamic, so the recompile that made
/// none (prompt to decode) names that call, not the outer loop.
#[test]
fn a_decorated_function_called_from_a_helper_names_the_direct_call() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios98", torch, "codegen_prefill_then_decode");
        let r = find(&all, "0/1");
        let line = &r["user_line"];
        assert_eq!(line["from"], "symbol_stack", "{torch}: {r:#}");
        assert!(
            line["site"].as_str().unwrap().ends_with("train.py:25"),
            "{torch}: {r:#}"
        );
    }
}

/// A decode loop passes a slice of the growing ids (`ids[:, -8:]`): the
/// first call of each request is contiguous, the next has another stride.
/// Torch makes the stride dynamic at 0/1; each new request's entry
/// (compiled for a new `logit_bias`) holds it static again, so 0/3, 0/5 and
/// 0/7 make it dynamic once more: the first was the one-off, the later ones
/// a re-specialisation that comes back with every request. Whereas a
/// generate() whose second prompt makes the cache length dynamic again,
/// once, stays expected (tests/scenarios t5_generate, in its own test).
#[test]
fn a_dim_made_dynamic_again_after_an_entry_pinned_it_repeats() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios101", torch, "gpt2_logit_bias_min_p");
        let r = find(&all, "0/1");
        assert_eq!(r["cause"]["category"], "stride", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        for id in ["0/3", "0/5", "0/7"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "stride", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let why = r["evidence"]["text"].as_str().unwrap();
            assert!(why.contains("made it dynamic at 0/1 already"), "{torch} {id}: {why}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains(".contiguous()"), "{torch} {id}: {fix}");
        }
    }
}
