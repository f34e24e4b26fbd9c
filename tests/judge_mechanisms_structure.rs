//! Which cache entry a new call is closest to when lists shrink, tensors
//! change shape together or a value was already symbolic; what a pruning
//! pass changes; and a scalar multiplier's fix (issue 37, items 1 to 4),
//! read off held-out sets (tests/scenarios12, 18, 35, 102, 104-107: truth
//! written blind before guardscope ran on them), each on logs recorded from
//! third-party code on two torch versions.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// A list of document lengths passed to a packed-sequence forward: the
/// entry compiled for a list of the same length (its values made dynamic)
/// is closer to the call than the entry for a longer list, whose extra
/// entries the call lacks. Those extra entries are one change, not one
/// each: among entries that all differ in length, the newest still wins.
#[test]
fn entries_a_shorter_list_lacks_count_as_one_change() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios102", torch, "packed_docs_segment_mask");
        assert_eq!(find(&all, "0/3")["cause_entry"], "0/1", "{torch}");
        assert_eq!(find(&all, "0/4")["cause_entry"], "0/3", "{torch}");
    }
    for torch in ["torch2.13.0", "torch2.15.0"] {
        let all = recorded("scenarios35", torch, "packed_sequences_cu_seqlens");
        assert_eq!(find(&all, "0/3")["cause_entry"], "0/2", "{torch}");
    }
}

/// A low-rank factorisation cut from rank 16 to 8 changes the sizes and
/// strides of four parameters by one number: one change, so the entry
/// compiled for rank 16 (same code path) is the cause, not the dense entry
/// that differs in the `factorized` flags. An empty batch (a dim held
/// symbolically going to 0) in two tensors is one change the same way.
#[test]
fn tensors_one_number_shapes_change_together() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios105", torch, "svd_lowrank_after_warmup");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/1", "{torch}: {r:#}");
        let line = r["user_line"]["site"].as_str().unwrap();
        assert!(line.ends_with("train.py:32"), "{torch}: {line}");
    }
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios18", torch, "tv_fpn_nms_serving_sizes");
        assert_eq!(find(&all, "2/3")["cause_entry"], "2/2", "{torch}");
        assert_eq!(find(&all, "3/2")["cause_entry"], "3/1", "{torch}");
    }
}

/// A few-shot curriculum (5-way 1-shot, 5-way 5-shot, 10-way 5-shot): the
/// entry that already held `k_shot` symbolically accepted any shot count,
/// so its new expression is no difference; the 10-way call is closest to
/// the 5-way 5-shot entry. The new entry guards only a divisibility of the
/// symbolic values (`(144*support.size()[0]) % (n_way*k_shot) == 0`): no
/// number is pinned, n_way was made dynamic, and the recompile is expected.
#[test]
fn a_value_already_symbolic_is_no_difference_and_a_divisibility_pins_nothing() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios106", torch, "protonet_episode_curriculum");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/1", "{torch}: {r:#}");
        assert_eq!(r["severity"], "expected", "{torch}: {r:#}");
        assert!(
            r["cause"]["culprit"].as_str().unwrap().contains("n_way"),
            "{torch}: {r:#}"
        );
    }
}

/// torch.nn.utils.prune renames a parameter (`weight` -> `weight_orig` plus
/// a mask): the KeyError guard names no line, so the line is where the
/// user's forward calls that submodule; a second pruning pass replaces the
/// module's pre-hook by a PruningContainer: hooks changed, not a type the
/// user passes. A model kept in a global is still the model: its pruned
/// parameter and its number of experts are module attributes, not "a
/// global".
#[test]
fn a_pruning_pass_is_the_modules_structure_and_its_hooks() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios105", torch, "nm_sparsity_custom_mask_eval");
        let r = find(&all, "0/2");
        assert_eq!(r["owner"], "user_attribute", "{torch}: {r:#}");
        let line = r["user_line"]["site"].as_str().unwrap();
        assert!(line.ends_with("train.py:25"), "{torch}: {line}");

        let all = recorded("scenarios105", torch, "ln_structured_channel_prune_schedule");
        let first = find(&all, "0/1");
        assert_eq!(first["owner"], "user_attribute", "{torch}: {first:#}");
        let line = first["user_line"]["site"].as_str().unwrap();
        assert!(line.ends_with("train.py:25"), "{torch}: {line}");
        let second = find(&all, "0/2");
        assert_eq!(second["cause"]["category"], "hooks_changed", "{torch}: {second:#}");
        assert_eq!(second["cause"]["form"], "hooks.replaced", "{torch}: {second:#}");
        assert_eq!(second["severity"], "expected", "{torch}: {second:#}");
    }
    // Experts appended to a model kept in a global
    // (`len(G['moe']._modules['experts']._modules)`): the model's children.
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios107", torch, "grow_experts_upcycle");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["owner"], "user_attribute", "{torch} {id}: {r:#}");
            assert_eq!(r["severity"], "expected", "{torch} {id}: {r:#}");
        }
    }
}

/// BYOL's target update `pt.mul_(m).add_(po, alpha=1 - m)` with a cosine
/// momentum schedule: `alpha` takes a Python number, so each value pins
/// an expression of `m`. The fix says what does take a tensor (a 0-d
/// tensor in tensor arithmetic, `lerp_`), also for the later recompiles
/// whose guard is the expression and quotes no line.
#[test]
fn a_scalar_multiplier_fix_names_the_tensor_form() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios104", torch, "byol_ema_momentum_cosine");
        for id in ["1/1", "1/3", "1/5"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("0-d tensor"), "{torch} {id}: {fix}");
            assert!(fix.contains("lerp_"), "{torch} {id}: {fix}");
            assert!(!fix.contains("recompile_limit"), "{torch} {id}: {fix}");
        }
    }
}

/// Torch logs `"user_stack": null` on a `symbolic_shape_specialization`
/// made outside user code (a Gumbel-softmax temperature fixed by the op
/// that needs it as a number): the record still says the value was made
/// dynamic and fixed again, so the repeat's evidence names the pin.
#[test]
fn a_specialisation_logged_without_a_user_stack_still_names_the_pin() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios12", torch, "gumbel_vae_tau_anneal");
        let r = find(&all, "0/3");
        assert_eq!(r["severity"], "problem", "{torch}: {r:#}");
        let why = r["evidence"]["text"].as_str().unwrap();
        assert!(why.contains("torch made tau dynamic"), "{torch}: {why}");
        assert!(why.contains("fixed it to 0.5 again"), "{torch}: {why}");
    }
}
