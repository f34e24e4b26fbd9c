use super::*;

#[test]
fn closure_guard_with_comment_location_and_hint() {
    let raw = "0/1: self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks[list(dict.keys(self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks))[0]].__closure__[0].cell_contents.capture_activation_norms == False  # if not collector.capture_activation_norms:  # repro.py:60 in activation_hook (HINT: guard on \"collector\".capture_activation_norms)";
    let g = split(raw);
    assert_eq!(g.entry.as_deref(), Some("0/1"));
    assert!(
        g.guard.ends_with(".cell_contents.capture_activation_norms == False"),
        "{}",
        g.guard
    );
    assert!(g.guard.starts_with("self._modules['dec_layers']"));
    assert_eq!(g.code.as_deref(), Some("if not collector.capture_activation_norms:"));
    assert_eq!(
        g.location,
        Some(Location {
            file: "repro.py".into(),
            line: 60,
            function: Some("activation_hook".into())
        })
    );
    assert_eq!(g.source.as_deref(), Some("repro.py:60"));
    assert_eq!(
        g.hint.as_deref(),
        Some("guard on \"collector\".capture_activation_norms")
    );
    assert_eq!(g.raw, raw);
}

#[test]
fn tensor_guard_has_no_comment() {
    let raw = "0/0: tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32";
    let g = split(raw);
    assert_eq!(g.entry.as_deref(), Some("0/0"));
    assert_eq!(
        g.guard,
        "tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32"
    );
    assert_eq!((g.code, g.location, g.source, g.hint), (None, None, None, None));
}

#[test]
fn a_range_bounded_by_torch_and_by_a_user_branch_points_at_the_branch() {
    // tests/scenarios2's checkpoint_memory_budget log (torch 2.14).
    let raw = "0/1: 2 <= tokens.size()[1] <= 128  # return F.embedding(  # nn/modules/sparse.py:189 in forward (user code shown is first use of this value--the guard itself is not due user code but due to 0/1 specialization in the framework; to avoid specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim)) and h = checkpoint(layer, h, use_reentrant=False) if save_memory else layer(h)  # ome/user/proj/checkpoint_memory_budget/train.py:31 in forward (_dynamo/variables/tensor.py:2849 in evaluate_expr)";
    let g = split(raw);
    assert_eq!(g.guard, "2 <= tokens.size()[1] <= 128");
    assert_eq!(
        g.source.as_deref(),
        Some("ome/user/proj/checkpoint_memory_budget/train.py:31")
    );
    assert_eq!(
        g.code.as_deref(),
        Some("h = checkpoint(layer, h, use_reentrant=False) if save_memory else layer(h)")
    );
    assert!(g.hint.unwrap().starts_with("user code shown is first use"));
}

#[test]
fn padded_guard_and_torch_location_use_the_user_stack() {
    let raw = "1/0: self.training == True                                     # if self.training:  # nn/modules/batchnorm.py:187 in forward\nUser stack trace:\n  File \"/home/u/proj/train.py\", line 41, in forward\n    x = self.bn(x)\n  File \"/usr/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py\", line 187, in forward\n    if self.training:\n";
    let g = split(raw);
    assert_eq!(g.guard, "self.training == True");
    assert_eq!(g.code.as_deref(), Some("if self.training:"));
    assert_eq!(
        g.location.as_ref().map(Location::short).as_deref(),
        Some("nn/modules/batchnorm.py:187")
    );
    assert_eq!(g.user_stack.len(), 2);
    // The stack's path is the full one: never shortened the way torch does.
    assert_eq!(g.source.as_deref(), Some("/home/u/proj/train.py:41"));
}

#[test]
fn shortened_comment_path_is_resolved_to_the_full_one() {
    let raw = "0/1: self.on == True  # if self.on:  # ome/me/proj/train.py:30 in forward";
    let mut g = split(raw);
    let mut paths = PathResolver::default();
    paths.learn("/v/lib/python3.11/site-packages/torch/_dynamo/convert_frame.py");
    paths.learn("/home/me/proj/train.py");
    g.resolve_paths(&paths);
    assert_eq!(g.source.as_deref(), Some("/home/me/proj/train.py:30"));
    assert_eq!(g.location.unwrap().file, "/home/me/proj/train.py");
}

#[test]
fn library_comment_gives_the_user_frame_and_keeps_the_library_line() {
    let raw = "0/0: ___check_obj_id(self.cfg, 1)  # if self.cfg.use_cache:  # transformers/models/gpt2/modeling_gpt2.py:542 in forward\nUser stack trace:\n  File \"/home/me/train.py\", line 16, in step\n    out = model(ids)\n  File \"/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py\", line 542, in forward\n    if self.cfg.use_cache:";
    let mut g = split(raw);
    let mut paths = PathResolver::default();
    paths.learn("/v/lib/python3.11/site-packages/torch/_dynamo/convert_frame.py");
    paths.learn("/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py");
    g.resolve_paths(&paths);
    assert_eq!(g.source.as_deref(), Some("/home/me/train.py:16"));
    assert_eq!(
        g.library_location().map(Location::short).as_deref(),
        Some("/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py:542")
    );
}

#[test]
fn no_source_when_every_frame_is_torch() {
    let raw = "0/0: not fn._modules['0']._forward_hooks   # input = module(input)  # nn/modules/container.py:259 in forward\nUser stack trace:\n  File \"/v/site-packages/torch/nn/modules/container.py\", line 259, in forward\n    input = module(input)";
    let g = split(raw);
    assert_eq!(g.source, None);
    assert_eq!(
        g.location.map(|l| l.short()).as_deref(),
        Some("nn/modules/container.py:259")
    );
}

#[test]
fn plain_trailing_note_after_location_becomes_the_hint() {
    let raw = "0/1: 2 <= x.size()[0]  # return torch.relu(x) * 2  # s/x.py:13 in f (user code shown is first use of this value--the guard itself is not due user code)";
    let g = split(raw);
    assert_eq!(g.guard, "2 <= x.size()[0]");
    assert_eq!(g.source.as_deref(), Some("s/x.py:13"));
    assert_eq!(g.code.as_deref(), Some("return torch.relu(x) * 2"));
    assert!(g.hint.unwrap().starts_with("user code shown is first use"));
    // A guard that merely ends in `)` keeps its text.
    assert_eq!(split("0/0: ___check_obj_id(f, 1)").guard, "___check_obj_id(f, 1)");
}

#[test]
fn torch_internal_and_unknown_sites_are_no_source() {
    // Both from real logs: torch 2.15 (SGD + StepLR) and torch 2.11.
    let g = split("2/2: self.param_groups[0]['lr'] == 0.05  # (_dynamo/output_graph.py:3552 in remove_tensorify_specialized_graphargs)");
    assert_eq!(g.guard, "self.param_groups[0]['lr'] == 0.05");
    assert_eq!(g.source, None);
    assert_eq!(g.location.unwrap().file, "_dynamo/output_graph.py");
    let g = split("0/1: ___as_tensor(self.param_groups[0]['lr']).item() == 0.005  # (unknown source ___as_tensor(self.param_groups[0]['lr']).item(), please file a bug)");
    assert_eq!(g.guard, "___as_tensor(self.param_groups[0]['lr']).item() == 0.005");
    assert_eq!((g.code, g.source), (None, None));
}

#[test]
fn two_hints_and_bracket_hints() {
    // Hand-made snippets in the shape of torch 2.11 and newer texts.
    let g = split("0/3: self._modules['b']._forward_hooks[list(dict.keys(self._modules['b']._forward_hooks))[0]].__closure__[1].cell_contents == 7  # stats_op(x, module_id)  # ome/me/hooks.py:40 in hook (HINT: guard on \"module_id\") (HINT: torch.compile considers integer attributes of the nn.Module to be static.)");
    assert!(g.guard.ends_with("__closure__[1].cell_contents == 7"), "{}", g.guard);
    assert_eq!(g.location.as_ref().map(|l| l.line), Some(40));
    assert!(g
        .hint
        .as_deref()
        .unwrap()
        .starts_with("guard on \"module_id\"; torch.compile considers"));
    let g = split("0/1: n2 == 3  # if n2 > 2:  # m.py:5 in f [HINT: guard on \"n2\"]");
    assert_eq!(g.guard, "n2 == 3");
    assert_eq!(g.hint.as_deref(), Some("guard on \"n2\""));
    assert_eq!(g.source.as_deref(), Some("m.py:5"));
}

#[test]
fn text_without_entry_prefix_is_kept_whole() {
    let g = split("GLOBAL_STATE changed: grad_mode ");
    assert_eq!(g.entry, None);
    assert_eq!(g.guard, "GLOBAL_STATE changed: grad_mode");
}
