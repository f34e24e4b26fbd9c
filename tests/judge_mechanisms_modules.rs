//! Mechanisms read off round 22 and 23's held-out sets (issue 37), each a
//! class, each checked on logs recorded from third-party code on two torch
//! versions whose truth was written blind: a module reached by another name
//! than `self` whose forward reads the value, state behind a library's
//! property, another function definition, and a value whose type changed
//! with it.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// `block.eps == 1e-12` (an argument of `run_block(block, x)`) and
/// `G['model'].clip_value is None` (a model in a global): the guard's
/// comment quotes the module's `forward` reading `self.eps`, so the value
/// is the module's attribute, set by the user's code, not a field of a
/// config object passed in nor a global the code reassigns.
#[test]
fn a_module_reached_by_another_name_whose_forward_reads_the_value_holds_it() {
    let cases = [
        ("scenarios48", "torch2.12.1", "layernorm_eps_checkpoint_families", "0/1"),
        ("scenarios48", "torch2.14.1", "layernorm_eps_checkpoint_families", "0/2"),
        ("scenarios48", "torch2.12.1", "gelu_approx_checkpoint_mlp", "0/1"),
        ("scenarios48", "torch2.14.1", "gelu_approx_checkpoint_mlp", "0/1"),
        ("scenarios50", "torch2.12.1", "activation_grad_clip_hook", "0/1"),
        ("scenarios50", "torch2.14.1", "activation_grad_clip_hook", "0/1"),
    ];
    for (set, torch, name, id) in cases {
        let all = recorded(set, torch, name);
        let r = find(&all, id);
        assert_eq!(r["cause"]["category"], "nn_module_attr", "{set} {torch} {name}: {r:#}");
        assert_eq!(
            r["cause"]["form"], "module.attribute_read_in_forward",
            "{set} {torch} {name}"
        );
        assert_eq!(r["owner"], "user_attribute", "{set} {torch} {name}");
        assert_eq!(r["severity"], "expected", "{set} {torch} {name}");
        let fix = r["fix"].as_str().unwrap();
        assert!(!fix.contains("global flag"), "{set} {torch} {name}: {fix}");
    }
    // A config object's field read in a forward as `cfg.refine_iters`, not
    // as `self.`: still a value the call passes.
    for torch in ["torch2.13.0", "torch2.15.0"] {
        let all = recorded("scenarios", torch, "dataclass_loop_count_limit");
        let r = find(&all, "0/1");
        assert_eq!(r["cause"]["category"], "constant_value", "{torch}: {r:#}");
        assert_eq!(r["owner"], "user_argument", "{torch}");
    }
}

/// `self._trainer.accumulate_grad_batches == 1` where the user's line reads
/// `self.trainer.accumulate_grad_batches`: Lightning's property hands out
/// the Trainer, whose state it is (set from `Trainer(accumulate_grad_batches=...)`),
/// not an attribute the user's module assigns.
#[test]
fn state_behind_a_librarys_property_is_the_librarys() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios49", torch, "lightning_two_stage_accumulation");
        let r = find(&all, "0/1");
        assert_eq!(r["owner"], "library_attribute", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}");
    }
}

/// `___check_obj_id(distance_function.__code__, ...)`: a function's code is
/// made once, where it is defined, so another code is another definition
/// (one lambda per experiment), compiled once and reused, never "a new
/// function every call" (a lambda made again keeps its code).
#[test]
fn another_function_definition_compiles_once() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios50", torch, "triplet_distance_fn_experiments");
        let r = find(&all, "0/2");
        assert_eq!(r["cause"]["category"], "function_identity", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}");
        assert_eq!(r["evidence"]["kind"], "one_per_variant", "{torch}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.starts_with("Expected"), "{torch}: {fix}");
        assert!(!fix.contains("on each call"), "{torch}: {fix}");
    }
}

/// `ord` went from the int 1 to the float inf: entry 0/1 failed on its type,
/// 0/0 on its value (2). The type and the value are one value that changed,
/// so the newest entry is the closest and its type guard the cause.
#[test]
fn a_values_type_and_the_value_are_one_change() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios50", torch, "weight_penalty_norm_order_sweep");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/1", "{torch}: {r:#}");
        assert_eq!(r["cause"]["category"], "type_change", "{torch}");
        assert_eq!(r["severity"], "expected", "{torch}");
    }
}
