//! The fix for a size that changed: what the log showed torch did with the
//! dim (made it dynamic, kept it static, pinned it, split it at a bound or
//! a remainder) decides whether marking it dynamic can help at all.

use super::input::FixInput;
use crate::analysis::judge::evidence::EvidenceKind;
use crate::analysis::judge::guard_text::{
    actual_size, branch_bound, bucket_sizes, code_of, compiled_size, from_small_size, largest_compiled, pinned,
    size_in_filled_dict_key, size_keyed_dict, size_list_cache, size_modulus, small_size, traced_bound, zero_one_bound,
    zero_one_change,
};
use crate::analysis::judge::verdict::Severity;
use crate::reasons::culprit::python_name;
use crate::reasons::subject::{sequence_element, size_mismatch_dim};

pub(super) fn shape_fix(input: &FixInput<'_>, dynamic: bool) -> String {
    let g = input.guard.map(|g| g.guard.as_str()).unwrap_or("");
    let dim = size_mismatch_dim(g)
        .map(|d| d.to_string())
        .or_else(|| symbolic_dim(g))
        .unwrap_or_else(|| "<dim>".into());
    let mark = match input.caller {
        Some(c) if c.is_name() => format!("torch._dynamo.mark_dynamic({}, {dim}) before the first call", c.expr),
        Some(c) => format!(
            "bind what you pass and mark it before the call: `t = {}; torch._dynamo.mark_dynamic(t, {dim})`, then pass t (marking a tensor you slice from does not mark the slice)",
            c.expr
        ),
        None => {
            let name = input
                .guard
                .and_then(|g| crate::reasons::subject::guarded_tensor(&g.guard))
                .map(python_name)
                .unwrap_or_else(|| "x".into());
            format!("torch._dynamo.mark_dynamic(<the tensor you pass as {name}>, {dim}) before the first call")
        }
    };
    // An element of a list argument is an input of its own: mark each one.
    let list = input.guard.and_then(|g| sequence_element(&g.guard));
    let mark = match &list {
        Some(l) => {
            format!("mark every element before the first call: `for t in {l}: torch._dynamo.mark_dynamic(t, {dim})`")
        }
        None => mark,
    };
    if let Some(l) = list
        .as_ref()
        .filter(|_| input.evidence.kind.severity() == Severity::Problem)
    {
        return format!(
            "{l} is a list of tensors, and each element is an input of its own: its size is guarded apart from the others, and an op over the list (pad_sequence, torch.stack or cat, the longest length) adds guards on how the elements' sizes compare, so a batch whose elements differ in size or in which one is longest compiles again, on to the recompile limit. Pad the list into one tensor before the call (in the DataLoader's collate_fn: torch.nn.utils.rnn.pad_sequence(batch, batch_first=True) and a lengths tensor) and pass that: one input whose length dim becomes dynamic once (torch._dynamo.mark_dynamic(padded, 1) skips even that)."
        );
    }
    let mark = format!("{mark}{}", declared_at_compile(input, &dim));
    if let Some(dict) = input.guard.and_then(|g| size_keyed_dict(g, input.failures)) {
        return format!(
            "Expected: the size of dim {dim} is used as a key of {} (a cache keyed by length), so each length compiles once, reused when it returns: one entry per bucket you use. To compile nothing after warm-up, precompute the cache for every length up to the maximum before compiling (or keep one tensor of the maximum length, register_buffer, and slice it).",
            python_name(dict)
        );
    }
    if let Some(list) = input.guard.and_then(|g| size_list_cache(g, input.failures)) {
        return format!(
            "The size of dim {dim} is looked up in {}, a Python list your module fills per length and compares the size with (a cache of lengths): each comparison makes the size a constant of the graph, so every new length compiles again, and so does every append to the list. Don't cache per length in a Python list: compute it every call (index math on the size is cheap in the graph), or build it once for the maximum length in __init__ (register_buffer) and slice it to the size.",
            python_name(list)
        );
    }
    if let Some((g, test)) = input.guard.and_then(|g| Some((g, branch_bound(g)?))) {
        let code = code_of(g);
        let yours = code == "your code";
        // The size is compared with a length the module keeps (`if seq_len
        // > self.cached_len:`): a cache grown on demand, whose bound moves
        // with each longer input.
        let grown_cache = yours && test.contains("self.");
        if input.evidence.kind.severity() == Severity::Problem && grown_cache {
            return format!(
                "A branch in your code compares the size with a length your module keeps (`{}`): each longer input grows what the module caches and moves that bound, so every new maximum compiles again (the branch, then the grown buffer). Build the cache once for the maximum length in __init__ (preallocate it, register_buffer at max_len) and slice it to the size, so the branch never fires.",
                test.trim()
            );
        }
        if input.evidence.kind.severity() == Severity::Problem {
            return if yours {
                format!(
                    "A branch in your code tests the size (`{}`), and the frame compiled it again with other values around it, a side compiled more than once: compute both sides and pick with torch.where instead of branching on the size, or move the branch outside the compiled function.",
                    test.trim()
                )
            } else {
                format!(
                    "A branch in {code} tests the size (`{}`), and the frame compiled it again with other values around it, a side compiled more than once; you cannot change that branch: run that call outside the compiled function (compile only the model, torch.compile(model), and call it eagerly after; or wrap the call in a function decorated with @torch._dynamo.disable).",
                    test.trim()
                )
            };
        }
        let instead = if yours {
            "to have one graph for both, compute both sides and pick with torch.where instead of branching on the size"
        } else {
            "to have one graph, run that call outside the compiled function"
        };
        return format!(
            "Expected: a branch in {code} tests the size (`{}`), so each side of it compiles once, reused when it returns (two variants, one per branch); dim {dim} stays dynamic within each. Nothing to fix; {instead}.",
            test.trim()
        );
    }
    if let Some(m) = size_modulus(g) {
        return format!(
            "Expected: the traced code depends on the size's remainder modulo {m} (`{}`: an uneven split such as np.array_split or torch.chunk into {m} parts, or a shape that must divide), so there are at most {m} graphs, one per remainder, each compiled once and reused; dim {dim} stays dynamic within each. No action needed; to have one graph, pad the input to a multiple of {m} (equal-size parts).",
            crate::reasons::guard_test(g)
        );
    }
    if input.evidence.kind == EvidenceKind::OnePerVariant
        && input
            .guard
            .is_some_and(|g| traced_bound(g) && !zero_one_bound(g, input.failures))
    {
        return format!(
            "Expected: the graph assumed `{}`, a bound the traced code put there (a branch on the size or on a value computed from it, such as a token budget, or an op that needs it), so the sizes on each side of it compile once each: one graph per branch, reused when it returns, and dim {dim} stays dynamic within each. No action needed; to have one graph, decide the branch outside the compiled function (or always take one side), or compute both sides and pick with torch.where.",
            crate::reasons::guard_test(g)
        );
    }
    if input.evidence.kind == EvidenceKind::OnePerVariant
        && input.compile.automatic_dynamic == Some(false)
        && bucket_sizes(g)
    {
        return format!(
            "Expected: dynamic=False (automatic_dynamic_shapes off) keeps every size static, and dim {dim}'s sizes ({} -> {}) are bucket lengths (multiples of 8): one graph per bucket, each compiled once and reused when the bucket returns. No action needed while the buckets are few; each new bucket length costs one compile, up to the frame's limit of {} entries.",
            compiled_size(g).unwrap_or("?"),
            actual_size(g).map_or("?".into(), |n| n.to_string()),
            input.compile.recompile_limit.map_or(8, |n| n.get())
        );
    }
    if dynamic && from_small_size(g) {
        return format!(
            "Expected once: torch specialises sizes 0 and 1, so the call with size {} kept its own entry; dim {dim} became dynamic at this recompile and later sizes compile nothing. Nothing to fix; to share one graph with that size too, mark the dim unbacked before the first call: torch._dynamo.decorators.mark_unbacked(<the tensor you pass>, {dim}).",
            compiled_size(g).unwrap_or("1")
        );
    }
    if input.evidence.pinned_once {
        let what = if dim == "0" {
            "the batch".to_string()
        } else {
            format!("dim {dim}")
        };
        return format!(
            "Expected: dim {dim} changed size and the new entry holds it static (an op in the traced code, a parameter or a decorator pins it), so each size compiles once; the log shows no further size, so the few seen were each compiled once and reused. No action needed while they stay a fixed few; each new size would compile again. To save the extra compile, keep {what} at one size (pad the short one, or drop it)."
        );
    }
    let small = matches!(input.evidence.kind, EvidenceKind::OnePerVariant);
    if let Some((tensor, at, size)) = input
        .guard
        .and_then(zero_one_change)
        .filter(|_| small && !small_size(g))
    {
        let empty = if size == 0 { " (an empty input)" } else { "" };
        return format!(
            "Expected, no action needed: {} had size {size} at dim {at}{empty}, and torch always specialises sizes 0 and 1 (0/1 specialization), so the dynamic entry could not take it and this size compiled its own graph once. The guard reported first, `{}`, is only the first of the dynamic entry's assumptions that this size breaks. To share the dynamic graph anyway, mark the dim unbacked before the first call: torch._dynamo.decorators.mark_unbacked(<the tensor you pass as {}>, {at}).",
            python_name(&tensor),
            crate::reasons::guard_test(g),
            python_name(&tensor)
        );
    }
    if small {
        return format!(
            "Sizes 0 and 1 are always specialised: a batch of size 0 or 1 compiles once for each, and marking the dim dynamic does not change that. Expected once each; to avoid them, keep batches at 2 or more (DataLoader(..., drop_last=True) for a short last batch), or mark the dim unbacked before the first call: torch._dynamo.decorators.mark_unbacked(<the tensor you pass>, {dim})."
        );
    }
    let full = input.guard.and_then(|g| {
        let t = crate::reasons::subject::guarded_tensor(&g.guard)?;
        largest_compiled(t, size_mismatch_dim(&g.guard)?, input.failures)
    });
    // Dim 0 is the batch; another dim is padded by its number.
    let what = if dim == "0" {
        "the last batch".to_string()
    } else {
        format!("dim {dim}")
    };
    let pad = full.map_or(format!("pad {what} to the full size"), |n| {
        format!("pad {what} to {n} (the size compiled before)")
    });
    let pinned_now = input.evidence.kind != EvidenceKind::OnePerVariant
        && input.guard.is_some_and(|g| pinned(g, input.compile.automatic_dynamic));
    // Padding can only grow a size: a call larger than what compiled
    // before is kept to it by splitting, not by padding or dropping.
    let chunks = actual_size(g)
        .zip(full)
        .filter(|(now, before)| now > before && *before >= 2)
        .map(|(_, n)| {
            format!(
                "split dim {dim} into fixed-size chunks of {n} (the size compiled before) and loop over them, padding the last chunk with a mask, so every call gets the same number of rows"
            )
        });
    // A dict the compiled code fills, keyed by this size (`key = (h, w); if
    // key not in CACHE: CACHE[key] = ...`): the lookup pins the size.
    if let Some(dict) = pinned_now.then(|| size_in_filled_dict_key(g, input.failures)).flatten() {
        return format!(
            "Dim {dim}'s size is part of the key of {} (a dict the compiled code fills as it runs: `if key not in cache: cache[key] = ...`), so the lookup makes the size a constant of the graph and every new size compiles again, once before its key is stored and once after. Take the cache out of the compiled function: fill it outside (precompute an entry for every size you use, before compiling) and pass what it holds as an argument, or compute the value in the graph each call without caching it.",
            python_name(&dict)
        );
    }
    // The guard itself names the pinner when it is a Parameter: torch keeps
    // parameter shapes static, and mark_dynamic alone does not free them.
    let static_shapes = input.evidence.kind == EvidenceKind::StaticShapes;
    if parameter_pinned(g) && (static_shapes || pinned_now) {
        return format!(
            "{} is an nn.Parameter (the guard says so), and torch keeps parameter shapes static (torch._dynamo.config.force_parameter_static_shapes, on by default), so every new size of dim {dim} compiles again; marking the dim dynamic does not free a parameter. Set torch._dynamo.config.force_parameter_static_shapes = False before compiling{}, or keep the parameter's size fixed and pass what varies as a plain tensor.",
            crate::reasons::subject::guarded_tensor(g).map_or("The tensor".into(), python_name),
            if static_shapes {
                " and turn torch._dynamo.config.automatic_dynamic_shapes back on (dynamic=False turns it off and keeps every size static)"
            } else {
                ""
            }
        );
    }
    if pinned_now {
        let keep = chunks.clone().unwrap_or_else(|| {
            format!("{pad} with a mask, or drop the incomplete batch (DataLoader(..., drop_last=True))")
        });
        return format!(
            "Dim {dim} changed size, but the new entry still holds it static although automatic dynamic shapes are on: something pins it, so every new size compiles again and marking the dim dynamic does not help while that stays. If you called torch._dynamo.mark_static on this dim, drop the mark_static (automatic dynamic shapes then make it dynamic after one recompile); if the tensor is an nn.Parameter, torch keeps parameter shapes static (torch._dynamo.config.force_parameter_static_shapes = False lets them vary); if an op in the traced code specialises the size (under vmap, a loss whose target shape must match), keep the size fixed: {keep}."
        );
    }
    if let Some(other) = input.pinned_elsewhere.filter(|_| dynamic) {
        return format!(
            "Expected once: dim {dim} changed size and torch made it dynamic at this recompile (automatic dynamic shapes), so later sizes compile nothing. No action needed. Do not mark the dim dynamic to avoid even this one: {other} held the same size change static (its traced code needs the size as a number), and torch raises an error when traced code specialises a dim you marked dynamic; pad inputs to a fixed length instead."
        );
    }
    // The same call changed an int argument the entry holds as a constant
    // (the dim a layout puts channels at): that alone compiles again, so
    // marking the dim would not have spared this compile.
    if let Some(number) = input.guard.filter(|_| dynamic).and_then(changed_number_argument) {
        return format!(
            "Expected once: dim {dim} changed size and torch made it dynamic at this recompile (automatic dynamic shapes), so later sizes compile nothing. No action needed: this call also changed an int argument ({number}) that the compiled code holds as a constant, so marking the dim dynamic would not have avoided this compile; each value of it compiles once and is reused when it returns."
        );
    }
    if dynamic {
        return format!(
            "Expected once: dim {dim} changed size and torch made it dynamic at this recompile (automatic dynamic shapes), so later sizes compile nothing. No action needed; to avoid even this recompile, {mark}."
        );
    }
    if static_shapes {
        return format!(
            "automatic_dynamic_shapes is off (dynamic=False), so every new size of dim {dim} compiles again, and this size ({}) is no bucket the others share. Keep the dim at sizes already compiled: {}, or pad it to a few fixed sizes; or {mark}.",
            actual_size(g).map_or("?".into(), |n| n.to_string()),
            chunks.unwrap_or_else(|| full.map_or("pad it to the size compiled before".to_string(), |n| if dim == "0" {
                format!("pad the batch to {n} (the size compiled before)")
            } else {
                format!("pad dim {dim} to {n} (the size compiled before)")
            })),
        );
    }
    // Torch made the dim dynamic and the traced code fixed it again: a
    // mark cannot outlast that line.
    if let Some(pin) = &input.evidence.fixed_by {
        let line = pin.describe();
        return format!(
            "Dim {dim} changed size, and torch made it dynamic, but {line} needs the size as a number (a Python loop over the tensor's rows, an index, a size an op takes as an int) and fixes it again: every new size compiles again, and marking the dim dynamic cannot help while that line stays. Rewrite it to work on the whole dim at once (one batched op, or torch.vmap over the rows instead of a Python loop), or keep the size fixed: {}.",
            chunks.clone().unwrap_or_else(|| format!("{pad} with a mask"))
        );
    }
    format!("Dim {dim} changed size. To compile it once for all sizes, {mark}; or pad inputs to a fixed set of sizes.")
}

pub(super) fn declared_range_fix(input: &FixInput<'_>) -> String {
    let g = input.guard.map(|g| g.guard.trim()).unwrap_or("");
    format!(
        "This call passed a size outside the range you declared ({g}), so Dynamo compiled another graph for it. Widen the declared range to every size you pass (torch._dynamo.mark_dynamic(x, dim, min=..., max=...)), or keep sizes inside it (pad or truncate)."
    )
}

fn symbolic_dim(guard: &str) -> Option<String> {
    let at = guard.find(".size()[")? + ".size()[".len();
    Some(guard[at..].split(']').next()?.to_string())
}

/// On torch 2.15 and later, `torch.compile(..., dynamic_shapes=)` declares
/// a dim dynamic when compiling (checked against torch 2.15: one compile
/// for batch sizes 8, 5, 3 and 1). Offered beside mark_dynamic when the
/// guard names the argument and the trees give its rank.
fn declared_at_compile(input: &FixInput<'_>, dim: &str) -> String {
    let Some(g) = input.guard else { return String::new() };
    if input.compile.torch_minor.is_none_or(|m| m.get() < 15) {
        return String::new();
    }
    let Some(name) = crate::reasons::subject::guarded_tensor(&g.guard).map(python_name) else {
        return String::new();
    };
    let Ok(d) = dim.parse::<usize>() else {
        return String::new();
    };
    if !crate::reasons::culprit::is_plain_name(&name) {
        return String::new();
    }
    let rank = g
        .changes
        .iter()
        .flatten()
        .find(|c| *c.subject == *format!("{name}.size()"))
        .map(|c| c.old.trim_matches(['[', ']']).split(", ").count());
    let Some(rank) = rank.filter(|&r| d < r) else {
        return String::new();
    };
    let dims: Vec<String> = (0..rank)
        .map(|i| {
            if i == d {
                format!("ShapeVar(\"{name}_{d}\")")
            } else {
                "None".into()
            }
        })
        .collect();
    format!(
        "; or, on torch 2.15, declare it when compiling: torch.compile(..., dynamic_shapes=ShapesSpec({{\"{name}\": TensorSpec([{}])}})) with ShapesSpec, TensorSpec and ShapeVar from torch.fx.experimental.dynamic_spec (the dim is then unbacked, so sizes 0 and 1 share the graph too)",
        dims.join(", ")
    )
}

/// torch's own words on a size guard of an `nn.Parameter`.
fn parameter_pinned(guard: &str) -> bool {
    guard.contains("Guard failed on a parameter")
}

/// An int argument of the call (a plain name) that changed from the number
/// the failed entry held: `channel_dim: 1 -> 3`.
fn changed_number_argument(g: &crate::reasons::GuardFailure) -> Option<String> {
    g.changes.iter().flatten().find_map(|c| {
        let name = crate::reasons::culprit::strip_locals(&c.subject);
        let int = |v: &str| v.trim().parse::<i64>().is_ok();
        (crate::reasons::culprit::is_plain_name(&name) && int(&c.old) && int(&c.new) && c.old != c.new)
            .then(|| c.describe())
    })
}
