//! Whether a guard's values form a small, fixed set, each compiled once:
//! the evidence stage's test for a bounded variant (sizes 0 and 1, a key,
//! a remainder, a bucket, a bound, a model's depth, a flag, a mode...).

use super::facts::Facts;
use super::variants::mode_switch;
use crate::analysis::judge::guard_text::{
    boolean, branch_bound, bucket_sizes, counter_step, dict_length, dtype_value, enum_member, int_branch, int_zero_one,
    module_children, none_then_constant, op_number, size_keyed_dict, size_modulus, small_size, specialised_number,
    string_value, torch_layer_argument, traced_bound, value_or_none_test, zero_one_bound, zero_one_change,
};
use crate::analysis::judge::owner::ValueOwner;
use crate::reasons::Category;

/// Why the values of this guard form a small, fixed set (each compiled
/// once is the whole cost), or None.
pub fn bounded(f: &Facts<'_>) -> Option<String> {
    if !f.recognised {
        return None;
    }
    let guard = f.guard.map(|g| g.guard.as_str()).unwrap_or("");
    // A model's structure (the blocks a ModuleList holds) changes when the
    // user grows or prunes it on purpose, a few times: each depth compiles
    // once, however it steps (one block or one prompt at a time). A depth
    // compiled again is a repeat (judge_frame counts it).
    if let Some(c) = f.guard.and_then(module_children) {
        return Some(format!(
            "{} holds {} the code loops over, and your code changed how many (a model grown or pruned in stages): one graph per {unit}, each compiled once; no {unit} compiled twice",
            c.container,
            c.what,
            unit = c.unit()
        ));
    }
    // Stepped by one at each of several recompiles: a counter, not modes;
    // a counter's values do not return (a grid's do).
    let argument = matches!(f.ownership.owner, ValueOwner::UserArgument);
    let steps = if argument { OPEN_STRINGS } else { 2 };
    if f.values_taken >= steps && f.guard.is_some_and(counter_step) {
        return None;
    }
    use Category::*;
    if small_size(guard) || f.guard.is_some_and(|g| zero_one_bound(g, &f.compile.recompile_reasons)) {
        return Some(
            "sizes 0 and 1 are always specialised: each compiles once, larger sizes share the dynamic entry".into(),
        );
    }
    // The guard reported first need not be the size (a stride relation
    // that only an empty tensor breaks): the new entry's sizes say it.
    // Another model through the frame torch.compile shares between
    // modules: whatever guard Dynamo reported first (the input's size), each
    // model is one entry.
    if f.guard.is_some_and(crate::reasons::classify::another_module) {
        return Some("another model object reached the frame torch.compile shares between models: one entry per model, compiled once each".into());
    }
    if f.guard.is_some_and(|g| int_zero_one(g, &f.compile.recompile_reasons)) {
        return Some(
            "a dynamic int is held as 2 or more, like a size: 0 and 1 are specialised, each compiled once; larger values share the dynamic entry".into(),
        );
    }
    if let Some((tensor, dim, size)) = f.guard.and_then(zero_one_change) {
        return Some(format!(
            "{tensor} came with size {size} at dim {dim}, which the dynamic entry held symbolic: sizes 0 and 1 are always specialised (0/1 specialization), so it compiled once for that size; larger sizes share the dynamic entry"
        ));
    }
    if let Some(dict) = f.guard.and_then(|g| size_keyed_dict(g, &f.compile.recompile_reasons)) {
        return Some(format!(
            "the size is a key of {dict} (another failed guard of this compile tests that key): one compile per key, reused when it returns"
        ));
    }
    if let Some(m) = size_modulus(guard) {
        return Some(format!(
            "the graph assumed the size's remainder modulo {m} ({}: an uneven split, or a shape that must divide): at most {m} graphs, one per remainder, each compiled once and reused when it returns",
            crate::reasons::guard_test(guard)
        ));
    }
    // A function's code is made once, where it is defined: only another
    // definition fails the guard, so however many recompiles it causes, the
    // functions are as few as their definitions in the source (the views of
    // a test-time augmentation, one activation per config). Not a
    // partial's function object, which can be made anew.
    if f.form == "function.identity" && guard.contains(".__code__") {
        return Some(super::variants::FUNCTION_CODE.into());
    }
    // Blocks compiled one by one share one cache: each instance's layer
    // argument is one compile, as many as there are instances. At the limit
    // the evidence is the limit (above), not this.
    if let Some(layer) = f.guard.and_then(torch_layer_argument) {
        return Some(format!(
            "the {layer} each instance of a torch layer was built with: one compile per instance's value, reused whenever that instance runs again"
        ));
    }
    if let Some((code, at)) = f.guard.and_then(int_branch) {
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" at {at}")
        };
        return Some(format!(
            "the value is dynamic in the cache entry it failed, and a branch of the traced code ({code}{at}) splits its values: one compile for each side, reused when it returns"
        ));
    }
    let static_shapes = f.compile.automatic_dynamic == Some(false);
    if static_shapes && bucket_sizes(guard) {
        return Some(format!(
            "automatic_dynamic_shapes is off (dynamic=False), and the sizes ({}) are multiples of 8, lengths padded to buckets: one graph per bucket, each compiled once and reused when it returns",
            guard.split(". ").nth(1).unwrap_or("").trim()
        ));
    }
    if let Some(g) = f.guard.filter(|g| traced_bound(g) && branch_bound(g).is_none()) {
        return Some(format!(
            "the compiled graph assumed {} (a bound from the traced code: a branch on the size, or an op that needs it), not a range you declared: one compile for each side of it",
            g.guard.trim()
        ));
    }
    if let Some(g) = f
        .guard
        .filter(|g| branch_bound(g).is_some() && f.same_cause.len() < OPEN_STRINGS)
    {
        let line = g.source.clone().unwrap_or_default();
        return Some(format!(
            "a branch in {} ({}{}) splits the sizes: one compile for each side",
            crate::analysis::judge::guard_text::code_of(g),
            g.code.as_deref().unwrap_or("a shape test"),
            if line.is_empty() {
                String::new()
            } else {
                format!(" at {line}")
            }
        ));
    }
    let why = match f.category {
        TorchGlobalState => {
            "a mode of torch's global state (grad mode, autocast): one compile per mode, reused when it returns"
        }
        Dtype => "one compile per dtype, reused when it returns",
        Device => "one compile per device (or per kind of tensor), reused when it returns",
        RequiresGrad => "one compile per requires_grad setting, reused when it returns",
        TypeChange => "one compile per type, reused when it returns",
        DictKeys => "one compile per set of keys, reused when it returns",
        Stride => "one compile per memory layout, reused when it returns",
        KvCache => "generate() has a fixed set of phases (prefill, decode): one compile each",
        HooksChanged => "one compile per set of registered hooks",
        NewAttribute => "one compile with and one without the attribute",
        _ => "",
    };
    if !why.is_empty() {
        return Some(why.into());
    }
    if mode_switch(f) {
        return Some("a mode switch: one compile per mode, reused when it returns".into());
    }
    if f.guard.is_some_and(value_or_none_test) {
        return Some("a value on some calls and None on others, and the code branches on which: two variants, each compiled once and reused".into());
    }
    if dtype_value(guard) {
        return Some(
            "a dtype kept as a Python setting: one graph per dtype, each compiled once and reused when it returns"
                .into(),
        );
    }
    // `not self.cache`: whether a container is empty, not a flag; the
    // container's length is judged as one (it grows).
    let container = matches!(f.category, ContainerLen | DictKeys);
    if boolean(guard) && !container && !f.guard.is_some_and(none_then_constant) {
        return Some("a flag (two values at most): one compile per value, reused when it returns".into());
    }
    if open_string(guard) && f.same_cause.len() < OPEN_STRINGS {
        return Some("a string option: one compile per value, reused when it returns".into());
    }
    // A number an op needs as a Python number compiles once per value by
    // nature; a few values (levels, stages) are a set, a fourth one a sweep.
    if let Some(op) = f.guard.and_then(op_number).filter(|_| f.values_taken < OPEN_STRINGS) {
        return Some(format!(
            "{op} takes it as a Python number, so torch keeps it a constant of the graph (the new entry guards it == its value): one graph per value, each compiled once and reused when it returns; a few values so far{}",
            grid(f)
        ));
    }
    if f.guard.is_some_and(specialised_number) && f.values_taken < OPEN_STRINGS {
        return Some(format!(
            "the traced code needs it as a Python number (torch tried to keep it symbolic and specialised it back, or a library's code uses it as one), so each value is a graph of its own, compiled once and reused when it returns; a few values so far{}",
            grid(f)
        ));
    }
    // A dict's keys are few (optional entries); a list's length is not, so
    // a list that keeps changing length shows up as a repeat.
    if argument && (guard.contains("___dict_contains") || f.guard.is_some_and(dict_length)) {
        return Some("one compile per set of keys of the dict you pass".into());
    }
    // A list you pass whose length is one of a few (clients per round,
    // tasks so far): one graph per length while few show up; a third new
    // length is a list that keeps changing (the frame's judge counts them).
    // Not under dynamic=False, where every new length, like every new size,
    // compiles again (PyTorch's own test_multiple_guard_fails_report_all).
    if argument
        && guard.trim_start().starts_with("len(")
        && f.same_cause.len() < OPEN_STRINGS
        && f.compile.automatic_dynamic != Some(false)
    {
        return Some("a list you pass whose length is one of a few: one compile per length, reused when it returns; a few lengths so far".into());
    }
    if let Some(class) = f.guard.and_then(enum_member) {
        return Some(format!(
            "a member of {class} (an Enum or a set of constants) the code branches on: one compile per member, reused when it returns"
        ));
    }
    if guard.contains("rank mismatch") || guard.contains("_dynamo_dynamic_indices") {
        return Some("one compile per number of dims (or per set of dynamic dims)".into());
    }
    None
}

/// Where the value's recompiles outnumber its values, a value came back
/// with another setting changed (a grid of settings): say so.
fn grid(f: &Facts<'_>) -> String {
    if f.values_taken >= f.same_cause.len() {
        return String::new();
    }
    format!(
        " ({} values over {} recompiles: a value came back with another setting changed, a grid of settings compiled once per combination)",
        f.values_taken,
        f.same_cause.len()
    )
}

/// Recompiles of one cause with a new string each, from which the strings
/// are not a few options but a value that keeps changing.
pub const OPEN_STRINGS: usize = 3;

/// A guard that compares a value with a string constant.
pub fn open_string(guard: &str) -> bool {
    string_value(guard)
}
