//! Mechanisms read off round 22, 23 and 24's held-out sets (issue 37),
//! each a class, each checked on logs recorded from third-party code on two
//! torch versions whose truth was written blind: a module reached by
//! another name than `self` (its forward reads the value, or the path runs
//! through its submodules), state behind a library's property, another
//! function definition, a value whose type changed with it, a parameter of
//! another module handed in, a dynamic int's lower bound, and a number an
//! op also takes as a tensor.

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

/// `model._modules['blocks']._modules['0'].cfg.slope == 0.01`,
/// `model._modules['head_drop'].p == 0.0` (timm's ViT, read by torch's
/// Dropout), `..._modules['norm'].eps` (torch's RMSNorm): a path through
/// `_modules`, which only a module has, from a model the frame is handed.
/// The value is that model's attribute, not a value of the call.
#[test]
fn a_path_through_submodules_of_a_model_handed_in_is_the_models_attribute() {
    let cases = [
        ("scenarios52", "torch2.12.1", "leaky_relu_slope_model_configs", "0/1"),
        ("scenarios52", "torch2.14.1", "leaky_relu_slope_model_configs", "0/2"),
        (
            "scenarios52",
            "torch2.12.1",
            "timm_vit_drop_rate_two_experiments",
            "0/1",
        ),
        (
            "scenarios52",
            "torch2.14.1",
            "timm_vit_drop_rate_two_experiments",
            "0/1",
        ),
        ("scenarios53", "torch2.12.1", "rmsnorm_eps_per_model_family", "0/1"),
        ("scenarios53", "torch2.15.0", "rmsnorm_eps_per_model_family", "0/1"),
    ];
    for (set, torch, name, id) in cases {
        let all = recorded(set, torch, name);
        let r = find(&all, id);
        assert_eq!(r["cause"]["category"], "nn_module_attr", "{set} {torch} {name}: {r:#}");
        assert_eq!(r["owner"], "user_attribute", "{set} {torch} {name}");
        assert_eq!(r["severity"], "expected", "{set} {torch} {name}");
    }
    // The class of a submodule of a model passed in (a quantized copy) is
    // the object passed, not an attribute the code set.
    for torch in ["torch2.12.1", "torch2.13.0"] {
        let all = recorded("scenarios4", torch, "quantize_dynamic_compare");
        let r = find(&all, "0/1");
        assert_eq!(r["owner"], "user_argument", "{torch}: {r:#}");
    }
}

/// `tensor 'stage._modules['kv']._parameters['bias']' size mismatch`: the
/// stage passed to `attend(x, stage)` is another module (its parameters
/// have other shapes), compiled once for it; no dim of `x` to mark.
#[test]
fn a_parameter_of_another_module_handed_in_is_one_graph_per_module() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios52", torch, "gqa_kv_repeat_interleave_stages");
        let r = find(&all, "0/2");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.starts_with("Expected"), "{torch}: {fix}");
        assert!(!fix.contains("mark_dynamic"), "{torch}: {fix}");
        assert!(fix.contains("force_parameter_static_shapes"), "{torch}: {fix}");
    }
}

/// `2 <= num_samples`: torch holds the int dynamic after it changed, for
/// values of 2 and more, like a size; a call with 1 gets its own graph.
/// Read by its row, where it was "not recognised".
#[test]
fn a_dynamic_ints_lower_bound_is_its_zero_one_specialisation() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios52", torch, "multinomial_sampler_per_request");
        let r = find(&all, "0/2");
        assert_eq!(r["cause"]["form"], "shape.symbolic_int_low", "{torch}: {r:#}");
        assert_eq!(r["cause"]["recognised"], true, "{torch}");
        assert_eq!(r["owner"], "user_argument", "{torch}");
        assert_eq!(r["severity"], "expected", "{torch}");
        assert!(r["fix"].as_str().unwrap().contains("0/1 specialization"), "{torch}");
    }
}

/// `torch.lerp(e, p, weight)` with a new float weight every warm-up step:
/// lerp takes a tensor weight, so the fix is to pass one, never "a tensor
/// cannot replace it there".
#[test]
fn a_number_an_op_also_takes_as_a_tensor_is_told_to_be_one() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios53", torch, "ema_lerp_weight_average");
        let r = find(&all, "0/1");
        assert_eq!(r["severity"], "problem", "{torch}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.contains("torch.tensor(weight)"), "{torch}: {fix}");
        assert!(!fix.contains("cannot replace"), "{torch}: {fix}");
    }
}
