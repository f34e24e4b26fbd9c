//! Mechanisms read off the held-out sets of rounds 25 to 31 (issue 37),
//! each a class checked on logs recorded from third-party code on two torch
//! versions whose truth was written blind.

mod common;

use common::{recompile as find, recorded_recompiles as recorded};

/// `self.lrn_size == 5` read by `F.local_response_norm(x, size=self.lrn_size)`:
/// the op takes the window as a Python number and pins each value again,
/// so neither a buffer nor `allow_unspec_int_on_nn_module` can remove the
/// recompile. The fix says so and offers only what works.
#[test]
fn a_module_attribute_an_op_takes_as_a_number_gets_no_buffer_or_unspec_fix() {
    let cases = [
        (
            "scenarios55",
            "torch2.14.1",
            "legacy_lrn_checkpoint_eval",
            "0/1",
            "F.local_response_norm",
        ),
        (
            "scenarios55",
            "torch2.15.0",
            "legacy_lrn_checkpoint_eval",
            "0/1",
            "F.local_response_norm",
        ),
        (
            "scenarios52",
            "torch2.12.1",
            "leaky_relu_slope_model_configs",
            "0/1",
            "F.leaky_relu",
        ),
        (
            "scenarios52",
            "torch2.14.1",
            "leaky_relu_slope_model_configs",
            "0/1",
            "F.leaky_relu",
        ),
    ];
    for (set, torch, name, id, op) in cases {
        let all = recorded(set, torch, name);
        let r = find(&all, id);
        assert_eq!(r["severity"], "expected", "{set} {torch} {name}: {r:#}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.starts_with("Expected"), "{set} {torch} {name}: {fix}");
        assert!(fix.contains(op), "{set} {torch} {name}: {fix}");
        assert!(fix.contains("cannot replace it"), "{set} {torch} {name}: {fix}");
        for never in ["allow_unspec_int_on_nn_module", "register_buffer", "Make it a buffer"] {
            assert!(!fix.contains(never), "{set} {torch} {name}: {fix}");
        }
    }
}

/// `self._modules['prompts']._size == 1` read in torch's container code:
/// an nn.ParameterList grown by one prompt per curriculum stage is the
/// model's structure, one graph per count (like the blocks of a
/// ModuleList), not a counter whose values never return.
#[test]
fn a_parameter_list_grown_in_stages_is_one_graph_per_count() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios58", torch, "prompt_tokens_parameterlist_curriculum");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "expected", "{torch} {id}: {r:#}");
            assert_eq!(r["evidence"]["kind"], "one_per_variant", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(
                fix.contains("how many parameters self.prompts holds"),
                "{torch} {id}: {fix}"
            );
            // Parameters cannot be compiled one by one.
            assert!(!fix.contains("block.compile()"), "{torch} {id}: {fix}");
        }
    }
}

/// `G['os'].environ._data[b'REG_DEBUG_SCALE'] == b'0'`: an environment
/// variable the forward reads, switched per phase and compiled once per
/// value. Its fix names the variable and says to read it once outside;
/// never "keep it in a tensor", which an environment string cannot be.
#[test]
fn an_environment_variable_read_inside_is_named_and_read_once_outside() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios59", torch, "debug_scale_env_flag");
        let r = find(&all, "0/1");
        assert_eq!(
            r["cause"]["culprit"], "environment variable REG_DEBUG_SCALE (os.environ)",
            "{torch}: {r:#}"
        );
        assert_eq!(r["severity"], "expected", "{torch}");
        let fix = r["fix"].as_str().unwrap();
        assert!(fix.contains("No action needed"), "{torch}: {fix}");
        assert!(fix.contains("read it once outside the compiled code"), "{torch}: {fix}");
        assert!(!fix.contains("torch.tensor("), "{torch}: {fix}");
    }
}

/// A guard that names no line (`len(self._modules['layers']._modules) != 6`,
/// `KeyError on self.aux_head`) takes the user's line from the cache
/// entries' own guard on the same submodule or attribute: the line that
/// reads `self.layers`, or that tests `hasattr(self, "aux_head")`, not the
/// call that compiled.
#[test]
fn a_guard_without_a_line_takes_it_from_the_entrys_guard_on_the_same_member() {
    let cases = [
        ("scenarios61", "aux_head_removed_after_warmup", "0/1", "train.py:22"),
        ("scenarios61", "fuse_linear_bn_for_eval", "0/2", "train.py:21"),
    ];
    for torch in ["torch2.12.1", "torch2.14.1"] {
        for (set, name, id, line) in cases {
            let all = recorded(set, torch, name);
            let r = find(&all, id);
            let source = r["cause"]["source"].as_str().unwrap_or("");
            assert!(source.ends_with(&format!("/{line}")), "{torch} {name} {id}: {r:#}");
            assert_eq!(r["user_line"]["from"], "guard", "{torch} {name} {id}");
        }
    }
    // A ModuleList grown in stages: the loop over its blocks.
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios3", torch, "progressive_grow_blocks");
        for id in ["0/1", "0/2", "0/3"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["form"], "container.length", "{torch} {id}");
            let source = r["cause"]["source"].as_str().unwrap_or("");
            assert!(source.ends_with("/train.py:26"), "{torch} {id}: {r:#}");
        }
    }
}

/// A symbolic guard whose comment points into library code names no user
/// line (`250 <= t <= 999  # ... if prev_timestep >= 0 else ...  #
/// diffusers/schedulers/scheduling_ddim.py:449`); the failed entry's own
/// `guard_added` events carry the traced stack through that library line,
/// and its innermost user frame is the user's call into the library
/// (`scheduler.step(noise_pred, t, latents)`). Not for a size bound of a
/// tensor the caller passed, whose line stays the call.
#[test]
fn a_library_guard_takes_the_users_line_that_called_the_library() {
    let cases = [
        (
            "scenarios63",
            "torch2.12.1",
            "ddim_preview_then_final_sampling",
            "0/2",
            "train.py:30",
        ),
        (
            "scenarios63",
            "torch2.14.1",
            "ddim_preview_then_final_sampling",
            "0/4",
            "train.py:30",
        ),
        (
            "scenarios47",
            "torch2.12.1",
            "roi_align_detector_configs",
            "0/2",
            "train.py:29",
        ),
        (
            "scenarios47",
            "torch2.14.1",
            "roi_align_detector_configs",
            "0/2",
            "train.py:29",
        ),
    ];
    for (set, torch, name, id, line) in cases {
        let all = recorded(set, torch, name);
        let r = find(&all, id);
        let source = r["cause"]["source"].as_str().unwrap_or("");
        assert!(
            source.ends_with(&format!("/{line}")),
            "{set} {torch} {name} {id}: {r:#}"
        );
    }
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios22", torch, "serve_filtered_dynamic_batch");
        let r = find(&all, "0/1");
        assert!(
            r["cause"]["source"].is_null(),
            "{torch}: a passed tensor's size bound keeps the call line: {r:#}"
        );
    }
}

/// `..._forward_pre_hooks[list(dict.keys(...))[0]].keywords['adapter_names'][0]
/// == 'acme'`: PEFT binds the adapter_names of each call into a pre-hook on
/// every LoRA layer (functools.partial), and the graph holds the list item
/// by item. The hook set did not change: the value is the user's argument,
/// a new tenant mix per batch repeats, and the fix arranges the calls
/// (group them by adapter), not the hooks.
#[test]
fn a_call_argument_a_library_binds_into_a_hook_is_the_users_and_its_calls_are_grouped() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios65", torch, "peft_lora_mixed_batch_inference");
        for id in ["10/1", "10/2", "10/3", "10/4"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["form"], "hook.bound_argument", "{torch} {id}: {r:#}");
            assert_eq!(r["cause"]["category"], "constant_value", "{torch} {id}");
            assert_eq!(r["owner"], "user_argument", "{torch} {id}");
            assert_eq!(r["severity"], "problem", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(
                fix.starts_with("peft binds a value your call passes"),
                "{torch} {id}: {fix}"
            );
            assert!(fix.contains("Group the calls"), "{torch} {id}: {fix}");
            for never in ["hook was added", "handle.remove()", "mark_dynamic", "torch.tensor("] {
                assert!(!fix.contains(never), "{torch} {id}: {fix}");
            }
        }
    }
}

/// MC dropout: `model.eval()` then every Dropout's `train()` under
/// `no_grad`. The entry compiled for evaluation (0/1) differs from the call
/// only in the dropout layers' `training`, which one loop set for all of
/// them: one value, not one per layer. So 0/1 is as close as the training
/// entry 0/0 (which differs in grad mode), and the newest of the two is the
/// cause: the flag, the user's attribute.
#[test]
fn one_attribute_several_submodules_flip_together_counts_as_one_change() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios67", torch, "mc_dropout_uncertainty_eval");
        let r = find(&all, "0/2");
        assert_eq!(r["cause_entry"], "0/1", "{torch}: {r:#}");
        assert_eq!(r["cause"]["category"], "nn_module_attr", "{torch}");
        assert_eq!(r["owner"], "user_attribute", "{torch}");
        assert_eq!(r["severity"], "expected", "{torch}");
    }
}

/// A forward pre-hook added to one block, then removed, for each block of a
/// probe sweep (`len(self._modules['blocks']._modules['1']._forward_pre_hooks)
/// != 1`): which hooks a module has is what the user's code registered, so
/// the owner is the user's, and the fix is the hooks' own (keep a hook
/// registered and switch its work off), not an attribute's buffer advice.
#[test]
fn hooks_the_users_code_registers_are_the_users() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios67", torch, "probe_sweep_forward_pre_hooks");
        for id in ["0/3", "0/4", "0/5"] {
            let r = find(&all, id);
            assert_eq!(r["cause"]["category"], "hooks_changed", "{torch} {id}: {r:#}");
            assert_eq!(r["owner"], "user_attribute", "{torch} {id}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("keep it registered"), "{torch} {id}: {fix}");
            assert!(!fix.contains("register_buffer"), "{torch} {id}: {fix}");
        }
    }
}

/// `self._modules['bn1'].momentum == 0.5` compared in torch's
/// nn/modules/batchnorm.py, under a momentum decay schedule: BatchNorm
/// hands momentum to F.batch_norm as a Python number, so a buffer would
/// break the op. The fix keeps momentum fixed (or None, a cumulative
/// average) and never suggests a buffer or a tensor.
#[test]
fn a_torch_layers_number_its_op_takes_gets_no_buffer_fix() {
    for torch in ["torch2.12.1", "torch2.14.1"] {
        let all = recorded("scenarios66", torch, "pointnet_bn_momentum_decay");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("torch.nn's batchnorm module"), "{torch} {id}: {fix}");
            assert!(fix.contains("Keep momentum fixed"), "{torch} {id}: {fix}");
            assert!(fix.contains("momentum=None"), "{torch} {id}: {fix}");
            for never in ["register_buffer", "Make it a buffer", "torch.tensor("] {
                assert!(!fix.contains(never), "{torch} {id}: {fix}");
            }
        }
    }
}

/// `torch._foreach_lerp_(teacher, student, 1.0 - momentum)` with a new
/// momentum every step: the foreach ops take a 0-dim tensor where they take
/// a scalar, so the fix is to pass the momentum as a tensor, as for every
/// later recompile of the frame; not "an op that needs a Python number".
#[test]
fn a_foreach_ops_scalar_can_be_a_tensor() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios67", torch, "ema_teacher_cosine_momentum");
        for id in ["0/1", "0/4"] {
            let r = find(&all, id);
            assert_eq!(r["severity"], "problem", "{torch} {id}: {r:#}");
            let fix = r["fix"].as_str().unwrap();
            assert!(fix.contains("torch.tensor(momentum)"), "{torch} {id}: {fix}");
            assert!(!fix.contains("a tensor cannot replace"), "{torch} {id}: {fix}");
        }
    }
}

/// An expert's forward compiled on its own and called from a router that
/// runs eagerly (its compile failed on `nonzero`): torch 2.14 logs the
/// router's line `y = expert(x[idx]) * ...` right above the expert's
/// forward, with no module-call frames between them. That line is the
/// call.
#[test]
fn a_modules_forward_called_from_an_eager_line_takes_that_line() {
    for torch in ["torch2.14.1", "torch2.15.0"] {
        let all = recorded("scenarios67", torch, "moe_top1_expert_routing");
        let r = find(&all, "2/1");
        let site = r["called_from"].as_str().unwrap_or("");
        assert!(site.ends_with("/train.py:33"), "{torch}: {r:#}");
        assert_eq!(r["user_line"]["from"], "caller", "{torch}");
    }
}

/// A transformers StaticCache passed under the name `cache`: its layers
/// initialise on their first update (`cache.layers[0].is_initialized ==
/// False`, transformers' state, one graph for an empty cache and one for a
/// written one), and a cache built per request with another length
/// (`cache.layers[0].max_cache_len == 64`) is the user's choice of size.
/// Both are the KV cache's, whatever the argument is called.
#[test]
fn a_kv_cache_layers_state_is_the_caches_under_any_name() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios69", torch, "qwen3_static_cache_chat_server");
        let init = find(&all, "0/1");
        assert_eq!(init["cause"]["form"], "cache.layer_initialized", "{torch}: {init:#}");
        assert_eq!(init["cause"]["category"], "kv_cache", "{torch}");
        assert_eq!(init["owner"], "library_attribute", "{torch}");
        assert_eq!(init["severity"], "expected", "{torch}");
        let length = find(&all, "0/3");
        assert_eq!(length["cause"]["form"], "cache.layer_length", "{torch}: {length:#}");
        assert_eq!(length["cause"]["category"], "kv_cache", "{torch}");
        assert_eq!(length["owner"], "user_argument", "{torch}");
    }
}

/// `beam_step` compiled and called from `translate`, a function under
/// `@torch.no_grad()`: dynamo_start's stack leaves `translate` out and
/// names only the script's loop (train.py:64). The Python stack torch
/// logged while tracing the compile (a dynamic dim's create_symbol) holds
/// the direct call, train.py:53, which is the caller shown.
#[test]
fn the_direct_caller_comes_from_the_stack_logged_while_tracing() {
    for torch in ["torch2.12.1", "torch2.15.0"] {
        let all = recorded("scenarios69", torch, "gru_translator_beam_search");
        for id in ["0/1", "0/2"] {
            let r = find(&all, id);
            let site = r["called_from"].as_str().unwrap_or("");
            assert!(site.ends_with("/train.py:53"), "{torch} {id}: {r:#}");
            assert_eq!(r["user_line"]["from"], "caller", "{torch} {id}");
        }
    }
}
