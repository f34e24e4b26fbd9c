use super::*;

// Lines from real torch 2.15 guard trees (samples/traces/reasons).
const OLD: &str = "\
| +- GLOBAL_STATE: ___check_global_state() against {\"allow_tf32\":false,\"autocast_state\":{\"cached_enabled\":true,\"enabled\":[false,false]},\"grad_mode\":true,\"num_threads\":2}
| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self', framelocals_idx=0), type=<class 'm.Net'>, tag_safe=(True, False)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[4, 4], stride=[4, 1])  # return torch.mm(x, x) + 1  # s/r.py:13 in f
| | +- EQUALS_MATCH: L['self'].num_repeats == 1                                    # for _ in range(self.num_repeats):  # s/n.py:15 in forward
| | +- DICT_CONTAINS: not ___dict_contains('mask', L['inputs'])                     # if \"mask\" in inputs:  # s/d.py:9 in f
| | +- ID_MATCH: ___check_obj_id(L['activation'].__code__, 140154113349520), type=<class 'code'>  # return activation(x) + 1  # s/o.py:16 in f
";

#[test]
fn values_of_each_guard_kind() {
    let s = GuardSet::parse(OLD);
    let v = |k: &str| s.value(k);
    assert_eq!(v("grad_mode"), Some("true"));
    assert_eq!(v("autocast_state.enabled"), Some("[false,false]"));
    assert_eq!(v("x.size()"), Some("[4, 4]"));
    assert_eq!(v("x.stride()"), Some("[4, 1]"));
    assert_eq!(v("x.dtype"), Some("torch.float32"));
    assert_eq!(v("x.requires_grad"), Some("False"));
    assert_eq!(v("self.num_repeats"), Some("1"));
    assert_eq!(v("___dict_contains('mask', inputs)"), Some("False"));
    assert_eq!(v("id(activation.__code__)"), Some("140154113349520"));
    assert_eq!(s.root_types.get("self").map(String::as_str), Some("m.Net"));
    assert_eq!(s.sites.len(), 1);
}

// Trimmed from tests/scenarios75 (torch 2.14.1, `torch.compile(ema.step)`):
// the roots are the frame's locals and a bound method's receiver, never
// a manager below them.
#[test]
fn a_compiled_bound_methods_receiver_is_a_root() {
    let tree = "\
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- GuardManager: source=L['fn'], accessed_by=FrameLocalsGuardAccessor(key='fn', framelocals_idx=2), type=<class 'method'>, tag_safe=(False, False)
| | +- GuardManager: source=L['fn'].__func__, accessed_by=GetAttrGuardAccessor(__func__), type=<class 'function'>, tag_safe=(False, False)
| | +- GuardManager: source=L['fn'].__self__, accessed_by=GetAttrGuardAccessor(__self__), type=<class 'diffusers.training_utils.EMAModel'>, tag_safe=(False, False)
| | | +- GuardManager: source=L['fn'].__self__.decay, accessed_by=GetAttrGuardAccessor(decay), type=<class 'float'>, tag_safe=(False, False)
";
    let s = GuardSet::parse(tree);
    let root = |k: &str| s.root_types.get(k).map(String::as_str);
    assert_eq!(root("fn"), Some("method"));
    assert_eq!(root("fn.__self__"), Some("diffusers.training_utils.EMAModel"));
    assert_eq!(s.root_types.len(), 2);
}

#[test]
fn changes_read_as_people_say_them() {
    let c = |s: &str, o: &str, n: &str| GuardChange {
        subject: s.into(),
        old: o.into(),
        new: n.into(),
    };
    assert_eq!(
        c("kwargs['input_ids'].size()", "[4, 16]", "[4, None]").describe(),
        "input_ids.size(): [4, 16] -> [4, None] (now dynamic)"
    );
    assert_eq!(c("id(args[0])", "1", "2").describe(), "args[0]: a different object");
    assert_eq!(
        c(
            "args[0] dispatch keys",
            "CPU, AutogradCPU",
            "CPU, AutogradCPU, AutocastCPU"
        )
        .describe(),
        "args[0] dispatch keys: +AutocastCPU"
    );
    assert_eq!(c("grad_mode", "true", "false").describe(), "grad_mode: true -> false");
    assert_eq!(
        c(
            "fn._modules['2']._forward_hooks[list(dict.keys(fn._modules['2']._forward_hooks))[0]].__closure__[0].cell_contents.on",
            "False",
            "True"
        )
        .describe(),
        "fn.2 hook closure[0].on: False -> True"
    );
}

#[test]
fn changes_list_every_differing_value() {
    let new = OLD
        .replace("\"grad_mode\":true", "\"grad_mode\":false")
        .replace("num_repeats == 1", "num_repeats == 2");
    let changes = GuardSet::parse(OLD).changes_to(&GuardSet::parse(&new));
    let got: Vec<(&str, &str, &str)> = changes.iter().map(|c| (&*c.subject, &*c.old, &*c.new)).collect();
    assert_eq!(got, [("grad_mode", "true", "false"), ("self.num_repeats", "1", "2")]);
}

proptest::proptest! {
    /// The merge walk finds exactly what a lookup per subject finds,
    /// whichever subjects the two sets share.
    #[test]
    fn changes_equal_a_lookup_per_subject(
        old in proptest::collection::btree_map("[a-e]{1,3}", "[xy]", 0..40),
        new in proptest::collection::btree_map("[a-e]{1,3}", "[xy]", 0..40),
    ) {
        // Shared strings, as the builder makes them: equal subjects and
        // values are one pointer, whichever set they came from.
        let mut cache = super::super::GuardCache::default();
        let mut set = |values: &std::collections::BTreeMap<String, String>| {
            let tree: String = values.iter().map(|(k, v)| format!("| +- EQUALS_MATCH: {k} == {v}\n")).collect();
            cache.parse(&tree)
        };
        let (old_set, new_set) = (set(&old), set(&new));
        let got = old_set.changes_to(&new_set);
        let want: Vec<GuardChange> = old
            .iter()
            .filter_map(|(s, o)| {
                let n = new.get(s).filter(|n| *n != o)?;
                Some(GuardChange { subject: s.as_str().into(), old: o.as_str().into(), new: n.as_str().into() })
            })
            .collect();
        proptest::prop_assert_eq!(got, want);
    }
}

#[test]
fn how_the_new_entry_guards_the_failed_subject() {
    let new = GuardSet::parse(
        "| +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, requires_grad=False, size=[4, None], stride=[None, 1])\n\
         | +- EQUALS_MATCH: L['self'].step == 4\n",
    );
    let size = "tensor 'x' size mismatch at index 1. expected 8, actual 12";
    assert_eq!(guarded_now(size, &new), GuardedNow::Dynamic);
    let other_dim = "tensor 'x' size mismatch at index 0. expected 2, actual 4";
    assert_eq!(guarded_now(other_dim, &new), GuardedNow::Constant("[4, None]".into()));
    assert_eq!(guarded_now("self.step == 3", &new), GuardedNow::Constant("4".into()));
    assert_eq!(guarded_now("L['lr'] == 0.1", &new), GuardedNow::Unguarded);
}

#[test]
fn a_length_guard_on_a_value_whose_keys_are_guarded_is_on_a_dict() {
    // Lines of a real torch 2.15 tree (tests/scenarios5 hf_albert_hidden_states_probe, 10/0).
    let old = GuardSet::parse(
        "| +- DictGuardManager: source=L['___stack0'], accessed_by=FrameLocalsGuardAccessor(key='___stack0', framelocals_idx=2), type=<class 'transformers.modeling_outputs.BaseModelOutputWithPooling'>, tag_safe=(False, False)\n\
         | | | +- EQUALS_MATCH: list(dict.keys(L['___stack0']))[0] == 'last_hidden_state'     # return tuple(self[k] for k in self.keys())  # transformers/utils/generic.py:632 in to_tuple\n\
         | | +- EQUALS_MATCH: len(L['blocks']) == 2\n\
         | | +- EQUALS_MATCH: list(dict.keys(L['m']._modules))[0] == '0'\n",
    );
    assert!(old.holds_dict_of("len(___stack0) != 2"));
    assert!(!old.holds_dict_of("len(blocks) != 2"), "a list's length guards no keys");
    assert!(
        !old.holds_dict_of("len(m._modules) != 1"),
        "a module registry is layers, not keys"
    );
    assert!(!old.holds_dict_of("___stack0 == 2"));
}

#[test]
fn an_argument_none_in_one_compile_and_a_tensor_in_the_other_is_a_change() {
    // Lines of a torch 2.14 guard tree (tests/scenarios90,
    // lightning_seq2seq_teacher_forcing: validation passes y=None).
    let none = GuardSet::parse(
        "| | +- NONE_MATCH: L['y'] is None                                                # if y is not None and teacher_forcing > 0:  # train.py:32 in forward\n",
    );
    let tensor = GuardSet::parse(
        "| | +- TENSOR_MATCH: check_tensor(L['y'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[32, 4], stride=[4, 1])  # if y is not None and teacher_forcing > 0:  # train.py:32 in forward\n",
    );
    let change = |a: &GuardSet, b: &GuardSet| {
        a.changes_to(b)
            .into_iter()
            .map(|c| format!("{}: {} -> {}", c.subject, c.old, c.new))
            .collect::<Vec<_>>()
    };
    assert_eq!(change(&none, &tensor), ["y: None -> a tensor"]);
    assert_eq!(change(&tensor, &none), ["y: a tensor -> None"]);
    // What a value is, is no constant of the new graph.
    assert_eq!(guarded_now("y is None", &tensor), GuardedNow::Tensor);
    assert_eq!(guarded_now("x == 0.5", &none), GuardedNow::Unguarded);
}

// Trimmed from tests/scenarios102 packed_docs_segment_mask (torch 2.15.0):
// the entry compiled for three documents against a call with two.
#[test]
fn entries_a_shorter_list_lacks_differ() {
    let entry = "\
| | +- LENGTH_CHECK: len(L['doc_lens']) == 3                                       # seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])  # s/t.py:24 in forward
| | | +- EQUALS_MATCH: L['doc_lens'][0] == 19                                        # seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])  # s/t.py:24 in forward
| | | +- EQUALS_MATCH: L['doc_lens'][2] == 1                                         # seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])  # s/t.py:24 in forward
";
    let call = "\
| | +- LENGTH_CHECK: len(L['doc_lens']) == 2                                       # seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])  # s/t.py:24 in forward
| | | +- EQUALS_MATCH: L['doc_lens'][0] == 19                                        # seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])  # s/t.py:24 in forward
";
    let changes = GuardSet::parse(entry).changes_to(&GuardSet::parse(call));
    let described: Vec<String> = changes.iter().map(GuardChange::describe).collect();
    assert_eq!(
        described,
        ["doc_lens[2]: 1 -> absent (length 2)", "len(doc_lens): 3 -> 2"]
    );
}
