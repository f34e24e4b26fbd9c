//! The table's rows for Python state the compiled code reads: hooks' and
//! closures' state, objects by identity, types, containers and dicts. They
//! come after the rows for tensors, torch's state and the optimizer and
//! generate() contexts (`rules.rs`), and before the attributes and
//! constants (`attributes.rs`), in order: the first match wins.

use super::common::{leak, DICT_KEYS_ADVICE, MODULE_ROOT};
use crate::reasons::category::Category;
use crate::reasons::rule::{Culprit, Rule, When};

pub(super) fn rows() -> Vec<Rule> {
    use Category::*;
    vec![
        Rule {
            id: "hook.closure_cell",
            category: ClosureHookState,
            when: When::Always,
            pattern: leak(format!(
                r"^(?:not |len\()?(?P<mod>{MODULE_ROOT}(?:\._modules\['[^']+'\])*)\._(?P<hooks>forward_hooks|forward_pre_hooks|backward_hooks|backward_pre_hooks)\[.*\.__closure__\[(?P<cell>\d+)\]\.cell_contents(?P<attr>[A-Za-z0-9_.]*)"
            )),
            culprit: Culprit::HintOr("closure cell {cell}{attr} of a {hooks} hook"),
            detail: Some("a {hooks} hook's closure is read inside the compiled region"),
            advice: "The hook reads mutable state ({culprit}) inside the traced region, so Dynamo guards on it and recompiles whenever it changes. Read it outside the traced region: decorate the hook body with @torch._dynamo.disable (one graph break per hook call; if the hooked module runs inside a loop, as blocks in a forward that loops over them do, Dynamo skips the whole function that loops, which then runs eagerly: there, compile each block instead), or keep the state where Dynamo cannot see it (e.g. inside a torch.library.custom_op the hook calls).",
        },
        Rule {
            // A value bound into a hook made with functools.partial
            // (`..._forward_pre_hooks[list(dict.keys(...))[0]].keywords
            // ['adapter_names'][0] == 'acme'`): PEFT binds the
            // adapter_names a call passes into a pre-hook on every LoRA
            // layer. The hook set is the same; the value it holds is a
            // constant of the graph. Recorded: tests/scenarios65
            // peft_lora_mixed_batch_inference (2.12.1, 2.14.1).
            id: "hook.bound_argument",
            category: ConstantValue,
            when: When::Always,
            pattern: r"\._(?P<hooks>forward_pre_hooks|forward_hooks|backward_pre_hooks|backward_hooks)\[.*\]\.(?:keywords\['(?P<kw>[^']+)'\]|args\[(?P<pos>\d+)\])(?:\[\d+\])*\s*(?:==|!=|is\b)",
            culprit: Culprit::Template("{kw}{pos} bound into a {hooks} hook"),
            detail: Some("a value bound into a registered hook (functools.partial) is a constant of the graph"),
            advice: "The hook holds {culprit} as a Python value, and the compiled code is specialised on it: each new value (for a list, each new combination of its items) compiles again. Keep the value the same across calls, or pass what varies as a tensor.",
        },
        Rule {
            id: "hooks.registered",
            category: HooksChanged,
            when: When::Always,
            pattern: leak(format!(
                r"^(?:not |len\()?(?P<src>(?:{MODULE_ROOT}|[A-Za-z_][A-Za-z0-9_]*)(?:\._modules\['[^']+'\])*)\._(?P<hooks>forward_hooks|forward_pre_hooks|backward_hooks|backward_pre_hooks|state_dict_hooks)\)?(?:\s*[!=]=\s*\d+)?\s*$"
            )),
            culprit: Culprit::Template("{hooks} on {@src}"),
            detail: Some("hooks were added or removed after the compile"),
            advice: "Register every hook before the first compile and keep it registered; toggle what it does with state read outside the traced region instead of adding/removing hooks.",
        },
        Rule {
            // `___check_type_id(G['model']._modules['conv1']._forward_pre_hooks
            // [list(dict.keys(...))[0]], ...)`: a registered hook replaced by
            // one of another class (pruning a second time turns one
            // LnStructured hook into a PruningContainer). The hooks changed,
            // not the type of a value the user passes. Recorded:
            // tests/scenarios105 ln_structured_channel_prune_schedule
            // (2.12.1, 2.15.0).
            id: "hooks.replaced",
            category: HooksChanged,
            when: When::Always,
            pattern: leak(format!(
                r"^___check_(?:type|obj)_id\((?P<src>(?:{MODULE_ROOT}|G\['[^']+'\]|[A-Za-z_][A-Za-z0-9_]*)(?:\._modules\['[^']+'\])*)\._(?P<hooks>forward_hooks|forward_pre_hooks|backward_hooks|backward_pre_hooks)\["
            )),
            culprit: Culprit::Template("{hooks} on {@src}"),
            detail: Some("a registered hook was replaced by another (of another class) after the compile"),
            advice: "A hook on this module was replaced after the compile (re-registered, or wrapped, as a second pruning pass does): the frame compiles again for the new hook, once per hook set. Register hooks before the first compile, or make the structural change (pruning, then prune.remove) outside the steps that are compiled.",
        },
        Rule {
            id: "hooks.removed",
            // A removed hook's function is freed, and Dynamo drops the cache
            // entry that held it (`RemovableHandle.remove()`, an activation
            // trace's `remove()`): the hooks changed, not an object's identity.
            category: HooksChanged,
            when: When::Always,
            pattern: r"[Cc]ache line invalidated because (?P<src>.*?)\._(?P<hooks>forward_hooks|forward_pre_hooks|backward_hooks|backward_pre_hooks)\b.*got deallocated",
            culprit: Culprit::Template("{hooks} on {@src}"),
            detail: Some("a hook was removed after the compile, and the cached code that called it was dropped"),
            advice: "Removing a hook recompiles once (Dynamo compiled the hook in). To stop a hook for a while, make it return early on a flag read outside the traced region (guardscope's trace.disable()) instead of removing it; remove hooks when you are done.",
        },
        Rule {
            id: "closure.cell",
            category: ClosureState,
            when: When::Always,
            pattern: r"__closure__\[(?P<cell>\d+)\]\.cell_contents(?P<attr>[A-Za-z0-9_.]*)",
            culprit: Culprit::HintOr("closure cell {cell}{attr}"),
            detail: Some("a closure variable read inside the compiled region changed"),
            advice: "The compiled code reads captured state ({culprit}) that changed. Pass it as an argument (a tensor if it varies every step), or move the branch outside the compiled function.",
        },
        Rule {
            // `Cache line invalidated because G['opt'] got deallocated`: the
            // object the entry was specialised on by identity was freed (a
            // new one built in its place), outside the frames torch.optim's
            // own row reads. Recorded: tests/scenarios45
            // timm_layerscale_llrd_finetune (2.12.1, 2.14.1).
            id: "object.deallocated",
            category: ObjectId,
            when: When::Always,
            pattern: r"^[Cc]ache line invalidated because (?P<src>.+?) got deallocated",
            culprit: Culprit::Source("src"),
            detail: Some("the object the compiled code was specialised on by identity was freed, and its cache entry with it"),
            advice: "{culprit} was freed and a new object took its place (built again: an optimizer, a model or a config made per stage or per call), and the compiled code was specialised on the old one: one compile per new object. Create it once, before the loop, and reuse it (for an optimizer rebuilt per stage: keep one and change its param groups, or accept one compile per stage).",
        },
        Rule {
            id: "object.identity",
            category: ObjectId,
            when: When::Always,
            pattern: r"___check_obj_id\((?P<src>[^,]+),|ID_MATCH|(?P<dealloc>got deallocated|cache line invalidated)",
            culprit: Culprit::Source("src"),
            detail: Some("Dynamo guards on the identity of this object"),
            advice: "A different object was passed where the compiled code expects the same one ({culprit}), or that object was garbage-collected. Create functions, modules and configs once, outside the loop, and reuse them.",
        },
        Rule {
            id: "backend.identity",
            category: ObjectId,
            when: When::Always,
            pattern: r"^BACKEND_MATCH failure",
            culprit: Culprit::Template("the torch.compile backend object"),
            detail: Some("torch.compile was called with a different backend callable than the cached code's"),
            advice: "A new backend object reached torch.compile (a backend function or lambda created per call). Create the backend once and pass the same object every time, or wrap it once in functools.partial.",
        },
        Rule {
            id: "type.type_id",
            category: TypeChange,
            when: When::Always,
            pattern: r"___check_type_id\((?P<src>[^,]+),[^)]*\)(?:, type=<class '(?P<ty>[^']+)'>)?|TYPE_MATCH",
            culprit: Culprit::Source("src"),
            detail: Some("the type changed (was {ty})"),
            advice: "Pass {culprit} with the same Python type every call (e.g. always a tuple, never sometimes a list).",
        },
        Rule {
            // `not model._modules[..]._modules['q_proj'].merged_adapters`,
            // `len(.._modules['query_key_value']._active_adapter) == 1`, read
            // in a library's code (PEFT's `merged`, `active_adapters`): a
            // list a library's layer keeps as its mode (adapters merged,
            // adapters active), which the library's methods fill and empty.
            // The layer's state, not a container the user's code grows.
            // Recorded: tests/scenarios98 xglm_vera_merge_for_eval,
            // persimmon_lora_active_adapter_sets (2.12.1, 2.14.1).
            id: "module.library_state_list",
            category: NnModuleAttr,
            when: When::ReadInLibrary,
            pattern: r"^(?:len\((?P<src>[A-Za-z_][A-Za-z0-9_\[\]'.]*\._modules\['[^']+'\]\.[A-Za-z_][A-Za-z0-9_]*)\) [!=]= \d+|not (?P<src2>[A-Za-z_][A-Za-z0-9_\[\]'.]*\._modules\['[^']+'\]\.[A-Za-z_][A-Za-z0-9_]*))\s*$",
            culprit: Culprit::Source("src"),
            detail: Some("a list a library's layer keeps as its state (which adapters are merged or active) changed"),
            advice: "{culprit} is state the library's layer keeps (its methods fill and empty it: merging, switching adapters), and the compiled code branches on it: one compile per state, reused when it returns. Switch it before compiling if it changes once, or keep one compiled model per state.",
        },
        Rule {
            id: "container.length",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^len\((?P<src>[^)]+)\) [!=]= (?P<n>\d+)",
            culprit: Culprit::Source("src"),
            detail: Some("length changed (compiled for {n})"),
            advice: "Keep the number of elements of {culprit} fixed, or pass a stacked tensor instead of a Python container.",
        },
        Rule {
            // `dict.__getitem__(self._hparams, list(dict.keys(self._hparams))[2])
            // == 0.1`: the value of a dict's entry (reached by its key's
            // position), not its key set: an entry a module keeps
            // (Lightning's hparams). Recorded: tests/scenarios38
            // lightning_hparams_mask_ratio (2.12.1, 2.15.0).
            id: "module.dict_item_value",
            category: NnModuleAttr,
            when: When::ModuleReceiver,
            pattern: leak(format!(
                r"^(?:not )?dict\.__getitem__\((?P<src>{MODULE_ROOT}(?:\._modules\['[^']+'\])*\.[A-Za-z_][A-Za-z0-9_]*), list\(dict\.keys\([^)]*\)\)\[\d+\]\)\s*(?:==|!=|is)"
            )),
            culprit: Culprit::Template("an entry of {@src}"),
            detail: Some("the value of an entry of a dict the module keeps is a constant of the graph"),
            advice: "{culprit} is read as a Python value and your code changed it: each new value compiles again. Set it before compiling, or keep the value in a tensor buffer (register_buffer) updated in place with copy_().",
        },
        Rule {
            // The same of a dict the frame is given or captures.
            id: "dict.item_value",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?dict\.__getitem__\((?P<src>[^,]+), list\(dict\.keys\([^)]*\)\)\[\d+\]\)\s*(?:==|!=|is)",
            culprit: Culprit::Template("an entry of {@src}"),
            detail: Some("the value of an entry of a dict the compiled code reads is a constant of the graph"),
            advice: "{culprit} is read as a Python value, and it changed: each new value compiles again. Pass the value itself as a tensor argument if it changes every step, or branch on it outside the compiled function.",
        },
        Rule {
            // `not set.__contains__(augs, 'noise')` (torch's SET_CONTAINS,
            // 2.12 on): the compiled code tested a set for an item, and the
            // set's members are part of what it was compiled for. Recorded:
            // tests/scenarios46 augment_set_curriculum (2.14.1, 2.15.0).
            id: "set.contains",
            category: DictKeys,
            when: When::Always,
            pattern: r"^(?:not )?set\.__contains__\((?P<src>.+), (?P<key>'[^']*'|-?\d+|[A-Za-z_][A-Za-z0-9_.]*)\)\s*(?:#|$)",
            culprit: Culprit::Source("src"),
            detail: Some("the set's members changed (item {key})"),
            advice: "{culprit} is a set the compiled code tests for an item ({key}), and its members changed: one compile per set of members, reused when it returns. If the members follow a few fixed stages, nothing to change; if they change every step, pass what they select as a tensor (a mask of enabled options) or test the set outside the compiled function.",
        },
        Rule {
            id: "dict.keys",
            category: DictKeys,
            when: When::Always,
            // A key is a string, a number (a cache keyed by a length) or a
            // tuple of them (a cache keyed by `(h, w)`).
            pattern: r"___dict_contains\((?P<key>'[^']*'|-?\d+|\((?:'[^']*'|-?\d+)(?:, (?:'[^']*'|-?\d+))*,?\)), (?P<src>[^)]+)\)|(?P<v>___dict_version|dict_version|___key_to_id|list\(dict\.keys\()",
            culprit: Culprit::Source("src"),
            detail: Some("the dict's key set changed (key {key})"),
            advice: DICT_KEYS_ADVICE,
        },
        Rule {
            id: "container.empty",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^not (?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*)$",
            culprit: Culprit::Source("src"),
            detail: Some("a container went from empty to non-empty (or back)"),
            advice: "The compiled code branches on whether the container {culprit} is empty, so it compiled once for each. Keep containers the compiled code reads out of it (append outside the compiled region), or make them non-empty from the start.",
        },
        Rule {
            id: "hook.read_state",
            category: ClosureHookState,
            when: When::InHook,
            pattern: r"^(?:not )?(?P<src>G\['[^']+'\](?:\.[A-Za-z_][A-Za-z0-9_]*)+|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(?:==|!=|is|$)",
            culprit: Culprit::Source("src"),
            detail: Some("a module hook reads this state inside the compiled region"),
            advice: "The hook reads mutable state ({culprit}) inside the traced region, so Dynamo guards on it and recompiles whenever it changes. Read it outside the traced region: decorate the hook body with @torch._dynamo.disable (one graph break per hook call; if the hooked module runs inside a loop, as blocks in a forward that loops over them do, Dynamo skips the whole function that loops, which then runs eagerly: there, compile each block instead), or keep the state where Dynamo cannot see it (e.g. inside a torch.library.custom_op the hook calls), or use guardscope's hooks.",
        },
    ]
}
