//! The table's rows for guard forms that are torch's own state or a
//! relation between values rather than one value the user passes: the
//! torch-function mode stack, the default device, functorch transforms,
//! forward-mode AD, saved-tensor hooks, tensor-subclass metadata, a tensor
//! subclass where a Parameter was compiled, a dynamic int's lower bound of
//! 2 (its 0/1 specialisation), two sizes tied by duck sizing
//! (other relations between sizes are the general symbolic-size row's), storage
//! offsets, aliasing, and the optimizer's gradients and param groups. They
//! are tried first: each pattern is narrower than the general rows after it
//! (two tied sizes would otherwise read as a 0/1 specialisation, a vmap
//! as a device change, a `.grad` as a hyper-parameter).

use crate::reasons::category::Category;
use crate::reasons::rule::{Culprit, Rule, When};

const UNFREEZE_ADVICE: &str = "Expected once per change: the compiled optimizer step guards on which parameters have a gradient, so a parameter whose .grad goes from None to a tensor (a layer unfrozen mid-training) compiles the step again, and the optimizer then creates that parameter's state (one more). Not a scheduler or lr problem. With gradual unfreezing each stage costs these recompiles, up to the recompile limit: unfreeze every layer you will train before compiling the step (or build the optimizer, and compile its step, once per stage); when grads come and go between steps (parameters unused in some steps), opt.zero_grad(set_to_none=False) keeps them tensors.";

pub(super) fn rows() -> Vec<Rule> {
    use Category::*;
    vec![
        Rule {
            id: "optimizer.grad_appeared",
            category: OptimizerState,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_\[\]'.]*?param_groups\[(?P<g>\d+)\]\['params'\]\[(?P<i>\d+)\])\.grad is (?:not )?None",
            culprit: Culprit::Template("the .grad of optimizer param_groups[{g}]['params'][{i}] (None before, a tensor now: the parameter started training)"),
            detail: Some("a parameter's .grad went from None to a tensor (or back): a frozen parameter was unfrozen, or its gradient was set to None"),
            advice: UNFREEZE_ADVICE,
        },
        Rule {
            id: "optimizer.param_groups",
            category: OptimizerState,
            when: When::Always,
            pattern: r"^(?:not )?len\((?P<src>[A-Za-z_][A-Za-z0-9_\[\]'.]*?param_groups(?:\[(?P<g>\d+)\]\['params'\])?)\)|param_groups\[(?P<g2>\d+)\]\['params'\]",
            culprit: Culprit::Template("the optimizer's param groups (a group added, or its parameters changed)"),
            detail: Some("the param groups hold other parameters than when the step was compiled"),
            advice: "Expected once per change: the compiled optimizer step guards on the param groups' contents, so add_param_group (or replacing a group's parameters) compiles it again. Add every group before compiling the step; with gradual unfreezing, unfreeze all at once before compiling, or accept one compile per stage. Not a scheduler or lr problem.",
        },
        Rule {
            id: "torch.function_mode_stack",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"___check_torch_function_mode_stack\(\)",
            culprit: Culprit::Template("the torch-function mode stack (a TorchFunctionMode, or torch.set_default_device, entered or left)"),
            detail: Some("the stack of torch-function modes differs from the compiled entry's: a mode (a TorchFunctionMode context, torch.set_default_device's device mode) was entered or left between calls"),
            advice: "One compile per mode stack, reused when it returns. If the mode should cover every call, enter it (or call torch.set_default_device) before the first compiled call and keep it; if only some calls need it, that is one compile each.",
        },
        Rule {
            id: "torch.default_device",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"utils_device\.CURRENT_DEVICE == (?P<dev>.+?)\s*$",
            culprit: Culprit::Template("the default device (torch.set_default_device; compiled for {dev})"),
            detail: Some("torch.set_default_device changed between calls (compiled for {dev})"),
            advice: "Set the default device once, before the first compiled call, and keep it: one compile per default device.",
        },
        Rule {
            id: "functorch.stack",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"compare_functorch_state\(",
            culprit: Culprit::Template("the functorch transform stack (torch.func.vmap / grad / jvp around the call)"),
            detail: Some("the compiled function was called under another stack of torch.func transforms"),
            advice: "One compile per transform stack (plain, under vmap, under grad), reused when it returns. Call the compiled function the same way every time, or compile the transformed function itself (torch.compile(torch.func.vmap(f))).",
        },
        Rule {
            id: "functorch.wrapped_tensor",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"^tensor '(?P<src>.+)' dispatch key set mismatch\. .*FuncTorch(?:Batched|Grad|Functionalize|DynamicLayer)",
            culprit: Culprit::Template("torch.func transform around the call ({@src} arrives wrapped by vmap/grad)"),
            detail: Some("not a device change: {@src} carries functorch's dispatch keys (a batched or grad-wrapped tensor) on one call and not on the other"),
            advice: "Not a device change: the compiled function was called plainly and under torch.func.vmap (or grad/jvp), whose tensors carry functorch's dispatch keys: one compile per transform, reused when it returns. Call it the same way every time, or compile the transformed function itself (torch.compile(torch.func.vmap(f))).",
        },
        Rule {
            id: "autograd.dual_level",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"torch\.autograd\.forward_ad\._current_level == (?P<lvl>-?\d+)",
            culprit: Culprit::Template("the forward-mode AD level (torch.autograd.forward_ad.dual_level; compiled at level {lvl})"),
            detail: Some("the call ran inside another forward_ad.dual_level() than the compiled entry"),
            advice: "One compile inside forward-mode AD and one outside, reused when each returns. Call the compiled function the same way every time if both are not intended.",
        },
        Rule {
            id: "autograd.saved_tensors_hooks",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"top_saved_tensors_hooks ids ==",
            culprit: Culprit::Template("saved-tensors hooks (torch.autograd.graph.saved_tensors_hooks, e.g. activation offloading)"),
            detail: Some("another pair of saved-tensors hooks is active than when the code was compiled"),
            advice: "Enter the saved-tensors hooks context once around every compiled call, with the same hook functions (created once, not per call): one compile per pair of hooks.",
        },
        Rule {
            id: "tensor.subclass_metadata",
            // The class is the same; a Python value of its metadata (bits,
            // a layout) differs: a constant of the graph, not a type.
            category: ConstantValue,
            when: When::Always,
            pattern: r"^___check_metadata_\d+_c",
            culprit: Culprit::Template("a tensor subclass's metadata (the non-tensor part of its __tensor_flatten__)"),
            detail: Some("a tensor subclass was passed with other metadata (a scale, a layout, a flag kept as a Python value) than the compiled entry's"),
            advice: "A tensor subclass's metadata is a constant of the graph: one compile per value. Keep a value that varies (a scale) as an inner tensor of the subclass rather than Python metadata, or give the class a __metadata_guard__ that compares only what changes the computation.",
        },
        Rule {
            id: "tensor.subclass_for_parameter",
            category: TypeChange,
            when: When::Always,
            pattern: r"^expected type of '(?P<src>.+?)' to be <class 'torch\.nn\.parameter\.Parameter'>,? '?\s*but found <class '(?P<act>[^']+)'>",
            culprit: Culprit::Source("src"),
            detail: Some("a {act} now holds what was compiled as a plain nn.Parameter: the weights were converted (quantised, wrapped in a tensor subclass) after compiling"),
            advice: "Convert the model (quantise, wrap or replace its weights) before torch.compile, so the first compile sees the final weight types; each module converted after compiling compiles again.",
        },
        Rule {
            // `2 <= num_samples`: a Python int torch made dynamic is, like a
            // size, compiled for values of at least 2; a call with 0 or 1
            // gets a graph of its own. Recorded: tests/scenarios52
            // multinomial_sampler_per_request (2.12.1, 2.14.1).
            id: "shape.symbolic_int_low",
            category: ShapeInput,
            when: When::Always,
            pattern: r"^2 <= (?P<src>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\['[^']*'\]|\[\d+\])*)\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("a dynamic int is compiled for values of at least 2 (0 and 1 are specialized, as for sizes)"),
            advice: "Expected: torch holds {culprit} as a dynamic int, and like a size it compiles it for values of 2 and more; this call passed 0 or 1, which gets one graph of its own (the 0/1 specialization), compiled once and reused when it returns. No action needed; marking it dynamic does not change this.",
        },
        Rule {
            // `250 <= t <= 999`: a Python int torch holds dynamically, bounded
            // by a branch of the traced code (diffusers' DDIM step tests
            // `prev_timestep >= 0`, with prev = t - 250); a value outside
            // the range is on the other side of the branch. Not `___stack1`,
            // a value carried across a graph break, whose own row says where
            // it came from. Recorded: tests/scenarios63
            // ddim_preview_then_final_sampling (2.12.1, 2.14.1).
            id: "value.symbolic_int_range",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?P<lo>-?\d+) <= (?P<src>[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\['[^']*'\]|\[\d+\])*)(?: <= (?P<hi>-?\d+))?\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("a dynamic int's range, bounded by a branch of the traced code, does not hold for this value"),
            advice: "Torch holds {culprit} as a dynamic int, and a branch of the traced code split its values at a bound (the entry covers {lo} up to its upper bound): this value is on the other side, so it compiles a graph of its own, one per side of the branch, reused when it returns. No action needed; to have one graph, keep the values on one side of the branch or move the branch outside the compiled function.",
        },
        Rule {
            id: "shape.sizes_equal",
            category: ShapeInput,
            when: When::Always,
            pattern: r"^(?:Eq\()?(?P<a>[A-Za-z_][A-Za-z0-9_.\[\]']*\.size\(\)\[\d+\])(?: ==|,) (?P<b>[A-Za-z_][A-Za-z0-9_.\[\]']*\.size\(\)\[\d+\])\)?\s*(?:#|$)",
            culprit: Culprit::Template("the sizes {a} and {b}, assumed equal"),
            detail: Some("the graph assumed {a} == {b} (they were equal when traced: duck sizing); this call broke it"),
            advice: "Two sizes that were equal when traced were assumed equal; a call where they differ compiles again (once: the new entry keeps them apart). If they are independent, set torch.fx.experimental._config.use_duck_shape = False before compiling so they are never tied.",
        },
        Rule {
            id: "torch.state_function",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"(?P<what>___is_grad_enabled|___are_deterministic_algorithms_enabled|___is_torch_function_enabled)\(\)",
            culprit: Culprit::Template("torch global state: {what}"),
            detail: Some("torch's global state ({what}) differs from the compiled entry's"),
            advice: "Torch's global state (grad mode, deterministic algorithms, torch-function dispatch) differs from when the graph was compiled: one compile per mode, reused when it returns. If it alternates within a step, keep the compiled call under one mode.",
        },
        Rule {
            id: "tensor.marked_dims",
            category: ShapeInput,
            when: When::Always,
            pattern: r"(?:hasattr|getattr)\((?P<src>[^,]+), '(?P<attr>_dynamo_(?:weak_dynamic|dynamic|unbacked|strict_unbacked|static)_indices|_dynamo_shape_ids|_dynamo_unbacked_bounds|_dynamo_dynamic_range)'",
            culprit: Culprit::Template("the dims marked dynamic, static or unbacked on {@src}"),
            detail: Some("{@src} was marked ({attr}) differently from the compiled call: mark_dynamic / mark_static / mark_unbacked on some calls only, or after the first compile"),
            advice: "Mark the same dims of {@src} the same way (torch._dynamo.mark_dynamic / mark_static / mark_unbacked) before every call, the first one included: each marking compiles once.",
        },
        Rule {
            id: "tensor.attribute_dtype",
            category: Dtype,
            when: When::Always,
            pattern: r"^str\((?P<src>.+)\.dtype\) == '(?P<exp>[^']*)'",
            culprit: Culprit::Source("src"),
            detail: Some("the dtype changed (compiled for {exp})"),
            advice: "Cast {culprit} to one dtype before the compiled call; each dtype otherwise gets its own compile.",
        },
        Rule {
            id: "tensor.attribute_device",
            category: Device,
            when: When::Always,
            pattern: r"^str\((?P<src>.+)\.device\) == '(?P<exp>[^']*)'",
            culprit: Culprit::Source("src"),
            detail: Some("the device changed (compiled for {exp})"),
            advice: "Keep {culprit} on one device; moving it between devices recompiles (one compile per device).",
        },
        Rule {
            id: "tensor.attribute_requires_grad",
            category: RequiresGrad,
            when: When::Always,
            pattern: r"^(?P<src>.+)\.requires_grad == (?P<exp>True|False)\s*(?:#|$)",
            culprit: Culprit::Source("src"),
            detail: Some("requires_grad changed (compiled for requires_grad={exp})"),
            advice: "Keep requires_grad of {culprit} the same on every call (e.g. detach inputs, or call under one grad setting).",
        },
        Rule {
            id: "tensor.attribute_rank",
            category: ShapeInput,
            when: When::Always,
            pattern: r"^(?P<src>.+)\.ndimension\(\) == (?P<exp>\d+)",
            culprit: Culprit::Source("src"),
            detail: Some("number of dims changed (compiled for {exp})"),
            advice: "{culprit} arrived with another number of dims: one compile per rank. Reshape it to one rank before the call if both occur.",
        },
        Rule {
            id: "value.nan",
            category: ConstantValue,
            when: When::Always,
            pattern: r"__(?:math|numpy)_isnan\((?P<src>[^)]+)\)",
            culprit: Culprit::Source("src"),
            detail: Some("a float compiled as NaN is now a number (or the reverse)"),
            advice: "{culprit} was NaN when compiled and is not now (or the reverse): NaN is its own constant. Pass it as a tensor, or keep NaN out of the Python value.",
        },
        Rule {
            id: "value.base_type",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:int|float|str|bool|bytes|complex)\((?P<src>[^)]+)\) == ",
            culprit: Culprit::Source("src"),
            detail: Some("a value of a subclass of a Python scalar type (an IntEnum, a str subclass) is a constant of the graph"),
            advice: "Python scalars are baked into the graph; each new value of {culprit} compiles again. Pass it as a tensor, or branch on it outside the compiled function.",
        },
        Rule {
            id: "container.set_length",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^(?:set|frozenset)\.__len__\((?P<src>[^)]+)\) == (?P<n>\d+)",
            culprit: Culprit::Source("src"),
            detail: Some("the set's size changed (compiled for {n})"),
            advice: "Keep the number of elements of {culprit} fixed, or pass a tensor instead of a Python set.",
        },
        Rule {
            id: "container.iterator_length",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^___(?:tuple_iterator_len|list_reverseiterator_len|normalize_range_iter|normalize_count_iter)\((?P<src>[^)]+)\) == ",
            culprit: Culprit::Source("src"),
            detail: Some("the iterator passed has another length or position than when compiled"),
            advice: "An iterator (over a tuple, a range, a count) reached the compiled code with another length or position: one compile each. Pass the container, or a tensor, instead of an iterator.",
        },
        Rule {
            id: "tensor.storage_offset",
            category: Stride,
            when: When::Always,
            pattern: r"(?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*)\.storage_offset\(\)",
            culprit: Culprit::Source("src"),
            detail: Some("the tensor's storage offset changed (a view that starts elsewhere in its storage)"),
            advice: "{culprit} is a view that starts at another offset of its storage; pass .contiguous() (or .clone()) of it so every call starts at offset 0.",
        },
        Rule {
            // torch 2.15's guard manager names the arguments that are now one
            // tensor: `Duplicate tensors found: ["a", "c"]`.
            id: "tensor.aliasing_named",
            category: ObjectId,
            when: When::Always,
            pattern: r"^Duplicate tensors found: \[(?P<names>[^\]]*)\]",
            culprit: Culprit::Template("arguments {names}, one tensor now"),
            detail: Some("arguments that were distinct tensors when compiled are one tensor now, or the reverse"),
            advice: "Dynamo compiled for arguments that were distinct tensors and now one tensor is passed for several of them (or the reverse): one compile each. Pass distinct tensors (.clone() one) or the same one consistently.",
        },
        Rule {
            id: "tensor.aliasing",
            category: ObjectId,
            when: When::Always,
            pattern: r"NO_TENSOR_ALIASING|TENSOR_ALIASING|___check_tensors_no_alias|^Duplicate tensor found where not expected",
            culprit: Culprit::Template("two arguments that were distinct tensors (or the same one)"),
            detail: Some("arguments that did not alias when compiled alias now, or the reverse"),
            advice: "Dynamo compiled for arguments that were distinct tensors (or one tensor passed twice) and now they alias (or no longer do): one compile each. Pass distinct tensors (.clone() one) or the same one consistently.",
        },
        Rule {
            // `type(self).scale == 1`, `type(self).__mro__[2].a == 4`: an
            // attribute of the class, read through the instance's type. It is
            // shared by every instance, and the user's code sets it on the
            // class (a phase switch, a counter): tried before the rows for
            // attributes of objects, which would call it the object's.
            id: "class.attribute",
            category: GlobalVar,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>type\((?:L\['self'\]|self)\)(?:\.__mro__\[\d+\])?\.[A-Za-z_][A-Za-z0-9_]*)\s*(?:==|!=|is not|is|<|>|<=|>=)\s*\S",
            culprit: Culprit::Source("src"),
            detail: Some("an attribute of the class (shared by all its instances) changed after the first compile"),
            advice: "{culprit} is a class attribute the compiled code reads as a constant, and your code changed it on the class: every compiled instance compiles again for each new value. Set it before the first compile, or keep a value that changes as an instance buffer (a tensor) or pass it as an argument.",
        },
        Rule {
            // The accessor failed on an attribute (`KeyError on
            // self.aux_head`): the object no longer has it (del, delattr),
            // where the compiled code read it or tested for it. The
            // attribute's presence changed, not a dict's keys.
            id: "accessor.attribute_missing",
            category: NewAttribute,
            when: When::Always,
            pattern: r"^KeyError on (?P<src>\S+\.[A-Za-z_][A-Za-z0-9_]*)\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("an attribute the compiled code read or tested for no longer exists"),
            advice: "{culprit} no longer exists (deleted after compiling, with del or delattr), and the compiled code read it or tested for it (hasattr): one compile without it, reused while it stays gone. To compile once, make the change before compiling, or keep the attribute and switch its use off with a flag set before compiling.",
        },
        Rule {
            // The guard manager's accessor failed: the dict key (a
            // parameter, a buffer, a submodule, a global) the compiled code
            // reads is gone (`KeyError on fn._modules['2']._parameters['weight']`,
            // as pruning or deleting an attribute does).
            id: "accessor.key_missing",
            category: DictKeys,
            when: When::Always,
            pattern: r"^KeyError on (?P<src>\S+)",
            culprit: Culprit::Source("src"),
            detail: Some("an entry the compiled code reads (a parameter, buffer, submodule, dict key or global) no longer exists"),
            advice: "{culprit} no longer exists where the compiled code read it (removed or renamed after compiling, as pruning or deleting an attribute does): the frame compiles again for the new structure, once, and reuses the old entry if it comes back. Make structural changes (pruning, replacing parameters) before compiling.",
        },
        Rule {
            // The same for a list or tuple index past its new end.
            id: "accessor.index_missing",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^IndexError on (?P<src>\S+)",
            culprit: Culprit::Source("src"),
            detail: Some("an index the compiled code reads is past the end of its list or tuple now"),
            advice: "{culprit} is past the end of its list or tuple now: the container got shorter after compiling, and the frame compiles again for the new length. Keep the container's length fixed while the compiled code reads it, or pass its entries as arguments.",
        },
        Rule {
            id: "backend.current",
            category: ObjectId,
            when: When::Always,
            pattern: r"___check_current_backend|___skip_backend_check",
            culprit: Culprit::Template("the torch.compile backend in use"),
            detail: Some("the frame was reached under another torch.compile backend than the cached code's"),
            advice: "Two torch.compile calls with different backends (or options) run this function: each compiles its own. Compile it once, with one backend.",
        },
        Rule {
            id: "dict.mapping_keys",
            category: DictKeys,
            when: When::Always,
            pattern: r"^list\((?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*)\.keys\(\)\) ==",
            culprit: Culprit::Source("src"),
            detail: Some("the mapping's keys (and their order) changed"),
            advice: super::common::DICT_KEYS_ADVICE,
        },
    ]
}

#[cfg(test)]
mod tests {
    use crate::reasons::{classify, split};

    /// Hand-made texts in the shapes torch's guards.py writes for forms no
    /// CPU sample here could produce (the recorded ones are in
    /// tests/guard_forms.rs): each is read by its own row.
    #[test]
    fn forms_without_a_recorded_log_are_read_by_their_rows() {
        let cases = [
            ("utils_device.CURRENT_DEVICE == None", "torch.default_device"),
            (
                "torch._functorch.pyfunctorch.compare_functorch_state([])",
                "functorch.stack",
            ),
            ("torch.autograd.forward_ad._current_level == -1", "autograd.dual_level"),
            (
                "torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None",
                "autograd.saved_tensors_hooks",
            ),
            ("L['x'].storage_offset() == 0", "tensor.storage_offset"),
            ("NO_TENSOR_ALIASING guard failed", "tensor.aliasing"),
            ("type(self).__mro__[2].a == 4", "class.attribute"),
            (
                "KeyError on fn._modules['2']._parameters['weight']",
                "accessor.key_missing",
            ),
            ("KeyError on self.aux_head", "accessor.attribute_missing"),
            ("250 <= t <= 999", "value.symbolic_int_range"),
            ("2 <= num_samples", "shape.symbolic_int_low"),
            ("IndexError on L['xs'][3]", "accessor.index_missing"),
            ("Duplicate tensor found where not expected!", "tensor.aliasing"),
            ("___check_current_backend(140000)", "backend.current"),
            ("list(L['m'].keys()) == ['a', 'b']", "dict.mapping_keys"),
            ("___is_grad_enabled()", "torch.state_function"),
            ("hasattr(x, '_dynamo_dynamic_indices') == False", "tensor.marked_dims"),
            ("str(x.dtype) == 'torch.float32'", "tensor.attribute_dtype"),
            ("str(x.device) == 'cpu'", "tensor.attribute_device"),
            ("x.requires_grad == False", "tensor.attribute_requires_grad"),
            ("x.ndimension() == 2", "tensor.attribute_rank"),
            ("(type(lr) is float and __math_isnan(lr))", "value.nan"),
            ("int(level) == 2", "value.base_type"),
            ("set.__len__(names) == 3", "container.set_length"),
            ("___tuple_iterator_len(it) == 3", "container.iterator_length"),
            ("y is x", "object.same_argument"),
            ("len(self.param_groups) == 1", "optimizer.param_groups"),
            ("Eq(y.size()[0], x.size()[0])", "shape.sizes_equal"),
        ];
        for (text, form) in cases {
            let r = classify(&split(&format!("0/0: {text}")));
            assert_eq!(r.form, form, "{text}: {}", r.category.name());
            assert!(r.recognised());
        }
        // `x is None` stays the optional argument's row.
        assert_eq!(classify(&split("0/0: mask is None")).form, "value.none");
    }
}
