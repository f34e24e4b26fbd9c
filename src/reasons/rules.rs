//! The classifier's table: one row per kind of guard Dynamo emits. A row is
//! a pattern over the guard text, how to name the culprit, an optional
//! detail, and the advice. Rows are tried in order; the first match wins.
//! Adding a category is adding a row (and a test with a real log).

use super::category::Category;

use super::rule::{Culprit, Rule, When};

mod attributes;
mod common;
mod forms;
mod values;

pub use common::DICT_KEYS_ADVICE;
use common::{leak, MODULE_ROOT};

pub fn rules() -> Vec<Rule> {
    use Category::*;
    let tensor = |what: &str| format!(r"^tensor '(?P<src>.+)' {what}");
    let rows = vec![
        Rule {
            id: "optimizer.hyperparameter",
            category: OptimizerHyperparam,
            when: When::Always,
            pattern: r"(?:___as_tensor\()?(?P<src>[A-Za-z_][A-Za-z0-9_\[\]'.]*?param_groups\[(?P<g>\d+)\]\['(?P<hp>[A-Za-z_0-9]+)'\](?:\[\d+\])?)",
            culprit: Culprit::Template("optimizer param_groups[{g}]['{hp}']"),
            detail: Some("the optimizer's {hp} is a Python number, so every new value (an LR scheduler's step) compiles the optimizer step again"),
            advice: "Give the optimizer its {hp} as a tensor, so a scheduler changes a tensor instead of a guarded Python float: torch.optim.AdamW(params, lr=torch.tensor(1e-3)) (torch's documented fix for compiled optimizers; schedulers work with it). Or leave opt.step() uncompiled and compile only the model.",
        },
        Rule {
            id: "optimizer.state_created",
            category: OptimizerState,
            when: When::Always,
            pattern: r"len\((?P<src>[A-Za-z_\[\]'.]*state)\[list\(dict\.keys\(|^(?:not )?len\((?P<src2>(?:self|L\['self'\])\.state)\)",
            culprit: Culprit::Template("optimizer state (its first step creates it)"),
            detail: Some("the optimizer's per-parameter state (momentum_buffer, exp_avg, ...) is created lazily on its first step"),
            advice: "Expected once: the first optimizer step creates its state, the next one runs with it (and a parameter that starts training later, unfrozen, gets its state on its first update: once more). To avoid the recompile, take one optimizer step before compiling (or accept it).",
        },
        Rule {
            id: "optimizer.identity",
            category: OptimizerRecreated,
            when: When::Optimizer,
            pattern: r"___check_obj_id\((?P<src>self|L\['self'\])[,)]|got deallocated|[Cc]ache line invalidated",
            culprit: Culprit::CompiledObject("the optimizer"),
            detail: Some("a new optimizer object reached the compiled step: Dynamo guards on the optimizer's identity"),
            advice: "Create the optimizer (and its LR scheduler) once, before the training loop, and reuse it; a new optimizer every step compiles its step every time, until the recompile limit.",
        },
        Rule {
            id: "hooks.replaced",
            // Another function registered in the hook's slot (a hook
            // replaced): Dynamo compiled the old one in by identity.
            category: HooksChanged,
            when: When::Always,
            pattern: r"___check_obj_id\((?P<src>[^,]*?)\._(?P<hooks>forward_hooks|forward_pre_hooks|backward_hooks|backward_pre_hooks)\[",
            culprit: Culprit::Template("{hooks} on {@src}"),
            detail: Some("a different hook function is registered than when the code was compiled"),
            advice: "A hook was replaced by another function after compiling, and Dynamo compiled the old one in. Register the hook once, before the first compile, and change what it does with state read outside the traced region.",
        },
        Rule {
            id: "function.identity",
            category: FunctionIdentity,
            when: When::Always,
            pattern: r"___check_obj_id\((?P<src>[^,]+?)\.(?:__code__|func)\b",
            culprit: Culprit::Template("function {$src}"),
            detail: Some("a different function object was passed: Dynamo guards on the function it inlines"),
            // The guard is on the function's code, which Python makes once
            // where the function is defined: a lambda or nested def made
            // again each call keeps its code and passes it. Only another
            // definition fails it, so the functions are as few as their
            // definitions in the source.
            advice: "Another function reached the call than the compiled one (another def or lambda in the source; the same lambda or nested def made again keeps its code and compiles nothing), and Dynamo inlines a function's code: one compile per function, reused when it returns. Nothing to change while the functions are a fixed few (one per experiment or config); past the recompile limit the frame stops compiling, so to have one graph, pick the function outside the compiled code (compile one function per choice), or pass what distinguishes them as a tensor to one function.",
        },
        Rule {
            id: "attribute.hasattr",
            category: NewAttribute,
            when: When::Always,
            pattern: r"^(?:not )?hasattr\((?P<src>[^,]+), '(?P<attr>[^']+)'\)",
            culprit: Culprit::Template("{$src}.{attr}"),
            detail: Some("attribute {attr} appeared on (or disappeared from) the object after the compile"),
            advice: "An attribute the compiled code checks for ({culprit}) was added after the first compile. Set every attribute in __init__ (None when unused) so the object has the same attributes on every call.",
        },
        Rule {
            id: "partial.bound_value",
            category: ConstantValue,
            when: When::Always,
            pattern: r"^(?:not )?(?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*?\.(?:keywords\['[^']+'\]|args\[\d+\]))\s*(?:==|!=|is)",
            culprit: Culprit::Source("src"),
            detail: Some("a new functools.partial with other bound values: each bound value is a constant of the graph"),
            advice: "A functools.partial (or similar) is rebuilt with new bound values for each call, and each value is baked into the graph. Pass the varying values as tensor arguments instead of binding them, and create the function once outside the loop.",
        },
        Rule {
            id: "module.parameter_resized",
            // A parameter does not grow in forward: its module was replaced
            // (`model.head = nn.Linear(...)`) or resized by the user.
            category: NnModuleAttr,
            when: When::Always,
            pattern: leak(format!(
                r"^tensor '(?P<src>(?:{MODULE_ROOT}|G\['[^']+'\])(?:\._modules\['[^']+'\])*)\._parameters\['(?P<p>[^']+)'\]' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)"
            )),
            culprit: Culprit::Template("{@src} (parameter {p} changed size)"),
            detail: Some("parameter {p} is {act} at dim {idx} where the compiled code had {exp}: the module was replaced or resized after compiling"),
            advice: "A parameter of {culprit} changed size after compiling: a new module was assigned (model.head = nn.Linear(...)) or its weights were resized, and the new shapes compile once. Assign the new module before compiling when you can; a module whose size keeps changing compiles every time.",
        },
        Rule {
            id: "tensor.lazy_buffer_size",
            category: ShapeLazyBuffer,
            // A plain object's tensor (a scheduler's timesteps, set by its
            // own methods) is no module's buffer: the size row reads it.
            when: When::ModuleReceiver,
            pattern: leak(format!(
                r"^tensor '(?P<src>{MODULE_ROOT}[.\[].*)' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)"
            )),
            culprit: Culprit::Source("src"),
            detail: Some("size mismatch at dim {idx}: expected {exp}, actual {act}"),
            advice: "Pre-materialize {culprit} in __init__ at its maximum size (e.g. register_buffer with the full max length) and slice it in forward; never reassign or grow it in forward.",
        },
        Rule {
            id: "generate.cache_size",
            category: KvCache,
            when: When::Generate,
            pattern: r"^tensor '(?P<src>.*(?:past_key_values|cache).*)' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)",
            culprit: Culprit::Source("src"),
            detail: Some("generate(): the KV cache grew at dim {idx} from {exp} to {act}"),
            advice: "generate() grows the KV cache by one token per step: the first growth makes that dim dynamic, once. To keep shapes fixed, use a static cache (model.generate(..., cache_implementation=\"static\")).",
        },
        Rule {
            id: "generate.prefill_to_decode",
            category: KvCache,
            when: When::Generate,
            pattern: r"^tensor '(?P<src>.+)' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>1)$",
            culprit: Culprit::Source("src"),
            detail: Some("generate(): prefill passes the whole prompt, then every decode step one token (size {exp} -> {act} at dim {idx})"),
            advice: "Expected once: generate() calls the model with the whole prompt (prefill), then one token at a time (decode), so one compile for each. A static cache (model.generate(..., cache_implementation=\"static\")) keeps the later steps from recompiling.",
        },
        Rule {
            id: "generate.decode_to_prefill",
            category: KvCache,
            when: When::Generate,
            pattern: r"^tensor '(?P<src>.+)' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>1), actual (?P<act>\d+)$",
            culprit: Culprit::Source("src"),
            detail: Some("generate(): prefill passes the whole prompt, then every decode step one token (size {exp} -> {act} at dim {idx})"),
            advice: "Expected once: generate() calls the model with the whole prompt (prefill), then one token at a time (decode), so one compile for each. A static cache (model.generate(..., cache_implementation=\"static\")) keeps the later steps from recompiling.",
        },
        Rule {
            // A cache the user's own decode loop feeds back (the model's
            // past_key_values): it grows one position per step, outside
            // generate(). Whatever the user calls it, transformers' cache
            // keeps its tensors as `layers[i].keys` / `.values` (5.x).
            // Recorded: tests/scenarios98 codegen_prefill_then_decode
            // (2.12.1, 2.14.1).
            id: "cache.size",
            category: KvCache,
            when: When::Always,
            pattern: r"^tensor '(?P<src>.*(?:past_key_values|key_cache|value_cache|kv_cache|\.layers\[\d+\]\.(?:keys|values)).*?)' size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)",
            culprit: Culprit::Source("src"),
            detail: Some("the KV cache went from {exp} to {act} at dim {idx}"),
            advice: "A KV cache your decoding loop feeds back grows by one position per step: the first growth makes that dim dynamic (automatic dynamic shapes), once, and later lengths compile nothing. To keep every step's shapes fixed, preallocate the cache at its maximum length (transformers' StaticCache passed as past_key_values, or your own buffer written in place) and pass the position.",
        },
        Rule {
            // A flag or count of a KV cache object passed as past_key_values
            // (transformers' DynamicCache: `layers[0].is_initialized`): empty
            // at the prompt, filled at each decode step after it.
            id: "cache.state",
            category: KvCache,
            when: When::Always,
            pattern: r"^(?P<src>[A-Za-z_\[\]'.]*(?:past_key_values|kv_cache)'?\]?(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+) (?:==|!=|is not|is) (?P<val>[^ #]+)",
            culprit: Culprit::Source("src"),
            detail: Some("the KV cache's state changed (the compiled entry had {val})"),
            advice: "The KV cache you pass went from empty (the prompt: prefill) to filled (a decode step): one compile for prefill and one for decode, each reused for every later request. No action needed; to compile one graph for both, pass a static cache (transformers' StaticCache) preallocated at its maximum length.",
        },
        Rule {
            // The same flag of a transformers Cache under any name (a
            // StaticCache passed as `cache`): `cache.layers[0].is_initialized
            // == False`, read in transformers' cache_utils.py. Its layers
            // initialise on their first update. Recorded: tests/scenarios69
            // qwen3_static_cache_chat_server (2.12.1, 2.15.0).
            id: "cache.layer_initialized",
            category: KvCache,
            when: When::Always,
            pattern: r"^(?P<src>[A-Za-z_\[\]'.]*\.layers\[\d+\])\.is_initialized (?:==|!=|is not|is) (?P<val>[^ #]+)",
            culprit: Culprit::Template("{@src}.is_initialized (a cache layer's lazy initialisation)"),
            detail: Some("a layer of the KV cache you pass was initialised by its first update (the compiled entry had is_initialized == {val})"),
            advice: "The cache's layers initialise on their first update, so a new, empty cache (a prefill) and one already written (a decode step) compile one graph each, reused for every later request. No action needed; reusing one cache object across requests (reset between them) keeps it initialised.",
        },
        Rule {
            // A transformers Cache built with another length
            // (`cache.layers[0].max_cache_len == 64`, a StaticCache sized per
            // request): one graph per length. Recorded: tests/scenarios69
            // qwen3_static_cache_chat_server (2.12.1, 2.15.0).
            id: "cache.layer_length",
            category: KvCache,
            when: When::Always,
            pattern: r"^(?P<src>[A-Za-z_\[\]'.]*\.layers\[\d+\])\.(?P<attr>max_cache_len|max_batch_size) == (?P<val>\d+)",
            culprit: Culprit::Template("{@src}.{attr}"),
            detail: Some("the KV cache you pass was built with another {attr} (the compiled entry had {val})"),
            advice: "The cache you pass was built with another {attr}, which the compiled code reads as a constant: one graph per size, each compiled once and reused when it returns. No action needed while the sizes are a few buckets; to compile once, build every cache with the same (largest) {attr}.",
        },
        Rule {
            id: "generate.kwargs",
            category: KvCache,
            when: When::Generate,
            pattern: r"^len\((?P<src>kwargs)\) == \d+|^(?:not )?___dict_contains\('(?P<key>[^']*)', (?P<src2>kwargs)\)",
            culprit: Culprit::Template("generate()'s keyword arguments"),
            detail: Some("generate() passes different keyword arguments in prefill and decode steps"),
            advice: "Expected once: generate() calls the model with other keyword arguments after the first (prefill) step. A static cache (cache_implementation=\"static\") keeps later steps from recompiling.",
        },
        Rule {
            id: "kwargs.count",
            // `**kwargs` of the compiled function: their count is which
            // keyword arguments the call passed, a dict's keys.
            category: DictKeys,
            when: When::Always,
            pattern: r"^len\((?P<src>kwargs)\) [!=]= (?P<n>\d+)",
            culprit: Culprit::Template("keyword arguments (**kwargs)"),
            detail: Some("another set of keyword arguments (compiled for {n})"),
            advice: "Pass the same keyword arguments every call (None for an unused optional one), or pass the optional input as a separate argument.",
        },
        Rule {
            id: "tensor.size",
            category: ShapeInput,
            when: When::Always,
            pattern: leak(tensor(r"size mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)")),
            culprit: Culprit::Source("src"),
            detail: Some("size mismatch at dim {idx}: expected {exp}, actual {act}"),
            advice: "Mark the varying dimension dynamic before the first call (torch._dynamo.mark_dynamic({$src}, {idx})) or compile with dynamic=True, or pad inputs to a fixed set of sizes.",
        },
        Rule {
            id: "shape.stride_relation",
            // `x.stride()[0] != x.size()[1]`: the entry was compiled for a
            // slice of a wider tensor (its stride is not its width), and
            // this call passed a tensor laid out whole: two layouts
            // (recorded: tests/scenarios32
            // lightning_length_curriculum_callback). Not `==`, which a size
            // of 0 breaks as well (tests/scenarios3 gnn_scatter_graphs).
            category: Stride,
            when: When::Always,
            pattern: r"^(?P<src>[A-Za-z_][A-Za-z0-9_.\[\]']*)\.stride\(\)\[(?P<idx>\d+)\] != [A-Za-z_][A-Za-z0-9_.\[\]']*\.size\(\)\[\d+\]",
            culprit: Culprit::Source("src"),
            detail: Some("its layout: compiled for a slice of a wider tensor (stride of dim {idx} not its width), called with a tensor laid out whole"),
            advice: "{culprit} arrived with another memory layout than the compiled call had (contiguous, or a slice of a larger tensor): one compile per layout, reused when it returns. If the change is accidental, call .contiguous() before the compiled call so the layout is always the same.",
        },
        Rule {
            id: "shape.symbolic_size",
            category: ShapeInput,
            when: When::Always,
            // An array Dynamo traced from numpy is `___from_numpy(a)`
            // (recorded: tests/scenarios2 numpy_feature_window).
            pattern: r"(?P<src>___from_numpy\([A-Za-z_][A-Za-z0-9_.\[\]']*\)|[A-Za-z_][A-Za-z0-9_.\[\]']*)\.size\(\)\[(?P<idx>\d+)\]",
            culprit: Culprit::Source("src"),
            detail: Some("symbolic shape guard on dim {idx} (sizes 0 and 1 are specialized)"),
            advice: "A dynamic dimension took a size the compiled graph excluded: sizes 0 and 1 are always specialised, and mark_dynamic does not change that. Avoid size-0/1 batches (DataLoader(..., drop_last=True) for a short last batch), or mark the dim unbacked before the first call: torch._dynamo.decorators.mark_unbacked({$src}, {idx}).",
        },
        Rule {
            id: "tensor.rank",
            category: ShapeInput,
            when: When::Always,
            pattern: leak(tensor(r"rank mismatch\. expected (?P<exp>\d+), actual (?P<act>\d+)")),
            culprit: Culprit::Source("src"),
            detail: Some("number of dims changed: expected {exp}, actual {act}"),
            advice: "{culprit} arrived with another number of dims: one compile per rank. Reshape it to one rank before the call if both occur.",
        },
        Rule {
            id: "tensor.dynamic_indices",
            category: ShapeInput,
            when: When::Always,
            pattern: r"^_dynamo_dynamic_indices not a subset: runtime (?P<act>\{[^}]*\}) is not a subset of compiled (?P<exp>\{[^}]*\})",
            culprit: Culprit::Template("the dims marked dynamic"),
            detail: Some("marked dynamic on dims {act}, compiled with dims {exp} dynamic"),
            advice: "A tensor was marked dynamic (mark_dynamic) on other dims than the compiled entry: mark the same dims on every call, before the first one.",
        },
        Rule {
            id: "type.expected_type",
            category: TypeChange,
            when: When::Always,
            pattern: r"^expected type of '(?P<src>.+?)' to be (?P<exp>.+?),? '?\s*but found <class '(?P<act>[^']+)'>",
            culprit: Culprit::Source("src"),
            detail: Some("the type changed: expected {exp}, found {act}"),
            advice: "Pass {culprit} as the same Python type every call (always a tensor, or always a Python number).",
        },
        Rule {
            id: "attribute.instance_dict",
            category: NewAttribute,
            when: When::Always,
            pattern: r"^(?:not )?___dict_contains\('(?P<attr>[A-Za-z_][A-Za-z0-9_]*)', (?P<src>[^)]+)\.__dict__\)",
            culprit: Culprit::Template("{attr} set on the instance ({@src})"),
            detail: Some("an instance attribute named {attr} was assigned (or deleted) after the compile"),
            advice: "An instance attribute {attr} appeared on the object after the first compile. Set every attribute in __init__, or patch before compiling.",
        },
        Rule {
            id: "generate.is_updated",
            category: KvCache,
            when: When::Generate,
            pattern: r"^(?:not )?(?P<src>\S*is_updated\S*)\s*(?:==|!=|$)",
            culprit: Culprit::Source("src"),
            detail: Some("generate(): the cache's is_updated flag flipped once the cross-attention cache was filled"),
            advice: "Expected once: generate() fills the encoder-decoder cache's cross-attention part on the first decode step and flips its is_updated flags. A static cache (model.generate(..., cache_implementation=\"static\")) keeps later steps from recompiling.",
        },
        Rule {
            id: "parametrize.cache_key",
            // A key of the cache itself (`(id, 'weight')`): its keys changed,
            // not whether cached() is on (`_cache_enabled`, below).
            category: DictKeys,
            when: When::Always,
            pattern: r"___dict_contains\((?P<key>.+), G\['(?:torch|__import_torch_dot_nn_dot_utils_dot_parametrize)'\](?:\.nn\.utils\.parametrize)?\._cache\)",
            culprit: Culprit::Template("torch.nn.utils.parametrize.cached()'s cache"),
            detail: Some("the first call inside parametrize.cached() filled its cache (key {key})"),
            advice: "parametrize.cached() fills a cache the compiled code reads: one compile with it and one without.",
        },
        Rule {
            id: "parametrize.cache_state",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"G\['(?:torch|__import_torch_dot_nn_dot_utils_dot_parametrize)'\](?:\.nn\.utils\.parametrize)?\.(?P<what>_cache\w*)",
            culprit: Culprit::Template("torch.nn.utils.parametrize.cached() ({what})"),
            detail: Some("parametrize.cached() was entered or left (or filled its cache) between calls"),
            advice: "parametrize.cached() fills a cache the compiled code reads: one compile with it and one without.",
        },
        Rule {
            id: "tensor.stride",
            category: Stride,
            when: When::Always,
            pattern: leak(tensor(r"stride mismatch at index (?P<idx>\d+)\. expected (?P<exp>\d+), actual (?P<act>\d+)")),
            culprit: Culprit::Source("src"),
            detail: Some("stride mismatch at dim {idx}: expected {exp}, actual {act}"),
            advice: "{culprit} arrived with a different memory layout (e.g. transposed or sliced); call .contiguous() before the compiled call so the layout is always the same.",
        },
        Rule {
            id: "tensor.dtype",
            category: Dtype,
            when: When::Always,
            pattern: leak(tensor(r"dtype mismatch\. expected (?P<exp>\S+), actual (?P<act>\S+)")),
            culprit: Culprit::Source("src"),
            detail: Some("dtype changed: expected {exp}, actual {act}"),
            advice: "Cast {culprit} to one dtype before the compiled call; each dtype otherwise gets its own compile.",
        },
        Rule {
            id: "tensor.dispatch_keys",
            category: Device,
            when: When::Always,
            pattern: leak(tensor(r"(?:dispatch key set|device) mismatch\. expected (?:DispatchKeySet\()?(?P<exp>[^,)]+).*?, actual (?:DispatchKeySet\()?(?P<act>[^,)]+)")),
            culprit: Culprit::Source("src"),
            detail: Some("device changed: expected {exp}, actual {act}"),
            advice: "Keep {culprit} on one device; moving it between devices recompiles (one compile per device).",
        },
        Rule {
            id: "tensor.requires_grad",
            category: RequiresGrad,
            when: When::Always,
            pattern: leak(tensor(r"requires_grad mismatch\. expected requires_grad=(?P<exp>\d)")),
            culprit: Culprit::Source("src"),
            detail: Some("requires_grad changed (expected requires_grad={exp})"),
            advice: "Keep requires_grad of {culprit} the same on every call (e.g. detach inputs, or call under one grad setting).",
        },
        Rule {
            id: "torch.global_state",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"^GLOBAL_STATE changed: (?P<what>.*?)\s*$",
            culprit: Culprit::Template("torch global state: {what}"),
            detail: None,
            advice: "Torch's global state ({what}) differs from when the graph was compiled, e.g. grad mode in train vs eval, or autocast. One compile per mode is expected; if it alternates within a step, keep the compiled call under one mode.",
        },
        Rule {
            // An attribute of a torch-function mode on the stack (the
            // user's TorchFunctionMode subclass): the mode object's own
            // state, which its __torch_function__ changes as ops run.
            id: "mode.state_length",
            category: ContainerLen,
            when: When::Always,
            pattern: r"^(?:not )?len\(___get_torch_function_mode_stack_at\((?P<i>\d+)\)\.(?P<attr>[A-Za-z_][A-Za-z0-9_.]*)\)",
            culprit: Culprit::Template("the active TorchFunctionMode's {attr}"),
            detail: Some("the torch-function mode on the stack keeps {attr}, a container its __torch_function__ fills as ops run, and the compiled code read its length"),
            advice: "The compiled code reads state the TorchFunctionMode keeps ({culprit}), which the mode changes on every op it sees: each call under the mode compiles again.",
        },
        Rule {
            id: "mode.state",
            category: ClosureHookState,
            when: When::Always,
            pattern: r"___get_torch_function_mode_stack_at\((?P<i>\d+)\)\.(?P<attr>[A-Za-z_][A-Za-z0-9_.]*)",
            culprit: Culprit::Template("the active TorchFunctionMode's {attr}"),
            detail: Some("the torch-function mode on the stack keeps {attr}, state its __torch_function__ changes as ops run"),
            advice: "The compiled code reads state the TorchFunctionMode keeps ({culprit}), which the mode changes on every op it sees: each call under the mode compiles again.",
        },
        Rule {
            id: "torch.state_guard",
            category: TorchGlobalState,
            when: When::Always,
            pattern: r"(?P<what>___check_global_state|___check_torch_function_mode_stack|torch_function_mode_stack|DETERMINISTIC_ALGORITHMS|DEFAULT_DEVICE|GRAD_MODE|___check_current_backend)",
            culprit: Culprit::Template("torch global state: {what}"),
            detail: None,
            advice: "Torch's global state ({what}) changed between calls (grad mode, autocast, deterministic algorithms, default device, torch-function modes or backend). Keep it fixed around the compiled call.",
        },
    ];
    forms::rows()
        .into_iter()
        .chain(rows)
        .chain(values::rows())
        .chain(attributes::rows())
        .collect()
}

/// Whether the row that read `form` writes the whole fix itself: the
/// forms of torch's own state and of relations (`forms.rs`), whose advice
/// no owner-specific rewrite would improve (a `.grad` that appeared is not a
/// scheduler's lr; a vmap is not a device change).
pub fn advice_stands(form: &str) -> bool {
    static IDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| forms::rows().iter().map(|r| r.id).collect())
        .contains(&form)
}
