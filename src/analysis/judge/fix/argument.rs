//! The fix for a value the user's call passes (an argument, or an
//! attribute of an object it passes): by what the guard compared, written
//! so the user can act on it at the call.

use super::input::FixInput;
use super::number_param;
use super::shape::shape_fix;
use crate::analysis::judge::evidence::{EvidenceKind, FixedBy};
use crate::analysis::judge::guard_text::{dict_length, enum_member, is_flag as boolean, string_value};
use crate::reasons::culprit::python_name;
use crate::reasons::Category;

pub(super) fn user_argument_fix(input: &FixInput<'_>, dynamic: bool) -> String {
    let r = input.reason;
    let g = input.guard.map(|g| g.guard.as_str()).unwrap_or("");
    if g.contains("rank mismatch") {
        return format!(
            "{} has another number of dims than the compiled call had ({}): one compile per rank, reused when it returns. Reshape it to one rank before the call if both occur; marking dims dynamic does not cover a change of rank.",
            r.culprit,
            g.trim()
        );
    }
    let member_of = input.guard.and_then(enum_member);
    // The op that takes the value as a Python number, when one does.
    let op = input.guard.and_then(crate::analysis::judge::guard_text::op_number);
    // An int torch made dynamic and the traced code fixed again where it
    // indexes (`cot[:, target]`): a tensor index keeps one graph. Not where
    // an op takes it as an int (`torch.rot90(x, k)`): a tensor cannot
    // stand in there, and the op's own advice follows.
    let indexes = |pin: &&FixedBy| pin.user_code().is_some_and(|code| code.contains('['));
    if let Some(pin) = input
        .evidence
        .fixed_by
        .as_ref()
        .filter(|pin| r.category == Category::ConstantValue && op.is_none() && indexes(pin))
    {
        let line = pin.describe();
        return format!(
            "{} is a number the compiled code needs as a Python int ({line}): torch made it dynamic, and that line fixed each value again, so every new value compiles again, until the recompile limit. Pass it as a 0-d tensor (torch.tensor(value), on the model's device) and use it with tensor ops (index_select, gather, scatter, torch.nn.functional.one_hot) instead of Python indexing or a Python loop, so one graph serves every value; or group the calls by value.",
            r.culprit
        );
    }
    match r.category {
        Category::ObjectId if member_of.is_some() => format!(
            "Expected: {} is a member of {} and the compiled code branches on which one: one compile per member, reused when it returns (two variants for two members). Nothing to change; to have one graph for all members, pass the choice as data the graph computes with instead of branching on it.",
            r.culprit,
            member_of.unwrap_or("its class")
        ),
        Category::Stride if channels_last(g) => format!(
            "Expected: {} arrived in channels_last memory format where the compiled call had the default layout (or the reverse): one compile per layout, reused when it returns. If the switch is deliberate (model.to(memory_format=torch.channels_last)), make it before compiling, from the start, so one layout is ever compiled.",
            r.culprit
        ),
        Category::Stride => format!(
            "{} arrived with another memory layout than the compiled call had (a transpose, a permute or a slice): one compile per layout, reused when it returns. If the change is accidental, call .contiguous() before the compiled call so the layout is always the same.",
            r.culprit
        ),
        Category::TypeChange if g.trim_end().ends_with(" is None") || g.trim_end().ends_with(" is not None") => format!(
            "Expected: {} is None on some calls and a tensor on others: one compile for each, two at most, reused when they return. To have one compile, always pass a tensor that means the same as None (an all-ones attention mask, an all-false padding mask, zeros for a recurrent state's first chunk).",
            r.culprit
        ),
        _ if input.guard.is_some_and(crate::reasons::classify::another_module) => {
            "Expected: a different model (its parameters have other shapes) was called through torch.compile, whose wrapper frame every compiled model shares, so it gets its own cache entry, compiled once. No action needed; if many models share the frame, keep each under the recompile limit or compile them separately with their own torch.compile calls.".to_string()
        }
        Category::ObjectId if input.evidence.kind == EvidenceKind::OnePerVariant => format!(
            "Expected: the compiled code depends on the identity of {} (id(), `is`, or the object itself), so each one compiles once, reused when the same object returns. Nothing to change unless your code makes a new one every call; then create it once and reuse it, or pass what distinguishes them as a tensor.",
            r.culprit
        ),
        Category::FunctionIdentity if input.evidence.kind == EvidenceKind::OnePerVariant => format!(
            "Expected: {} is another function than the compiled call had (another def or lambda in your source; the same one made again keeps its code and compiles nothing): one compile per function, reused when it returns. No action needed while the functions are a fixed few; past the recompile limit the frame stops compiling, so with many, pick the function outside the compiled code (one compiled function per choice) or pass what distinguishes them as a tensor.",
            r.culprit
        ),
        Category::ShapeInput
            if crate::reasons::subject::argument_module_parameter(g)
                && input.evidence.kind == EvidenceKind::OnePerVariant =>
        {
            format!(
                "Expected: {} is a parameter of another module passed in (a stage, a head: its parameters have other shapes), and torch keeps parameter shapes static: one graph per module shape, compiled once and reused when it returns. No action needed while the modules are a fixed few; marking dims dynamic does not apply to a parameter (torch._dynamo.config.force_parameter_static_shapes = False would let parameter shapes vary).",
                r.culprit
            )
        }
        Category::ShapeInput if !g.contains("_dynamo_dynamic_indices") => shape_fix(input, dynamic),
        // The cache's tensors are made by the model in the first (prefill)
        // call, so there is nothing to mark before it.
        Category::KvCache if dynamic => format!(
            "Expected once: {} (the KV cache your decoding loop feeds back) grew and torch made that dim dynamic at this recompile (automatic dynamic shapes), so later lengths compile nothing. No action needed; to keep every step's shapes fixed, use a static cache (transformers' StaticCache passed as past_key_values, or a buffer preallocated at the maximum length and written in place).",
            r.culprit
        ),
        // A state of the cache object (empty at the prompt, filled after):
        // prefill and decode, one graph each.
        Category::KvCache
            if !g.trim_start().starts_with("tensor '")
                && input.evidence.kind.severity() == crate::analysis::judge::verdict::Severity::Expected =>
        {
            format!("Expected: {} is the state of the KV cache you pass. {}", r.culprit, r.advice)
        }
        Category::Dtype if input.evidence.kind == EvidenceKind::OnePerVariant => format!(
            "Expected: {} arrives in more than one dtype (float32 and float16 requests, a half-precision copy of the model): one compile per dtype, reused when it returns. Cast it to one dtype before the compiled call if the second dtype is not intended; nothing to change if it is.",
            r.culprit
        ),
        Category::RequiresGrad => format!(
            "Expected: {} arrived with another requires_grad than the compiled call had: one compile per setting, reused when it returns (two variants). No action needed when both are meant (a GAN's discriminator and generator steps); if one is accidental, build the input the same way on every call, never by cutting a gradient the training needs.",
            r.culprit
        ),
        Category::TypeChange => format!(
            "{} arrived as another Python type than the compiled call had ({}): one compile per type. Pass it as the same type every call (e.g. always a tensor, or always an int).",
            r.culprit,
            g.trim()
        ),
        // A set the code tests for an item: what was compiled is its members.
        Category::DictKeys if r.form == "set.contains" => format!(
            "Expected: {} holds other members than the compiled call had: one compile per set of members, reused when it returns. Nothing to change while the sets are a few fixed stages; if they change every step, pass what they select as a tensor (a mask of enabled options) or test the set outside the compiled function.",
            r.culprit
        ),
        Category::DictKeys | Category::ContainerLen
            if r.category == Category::DictKeys
                || g.contains("___dict_contains")
                || input.guard.is_some_and(dict_length) =>
        {
            format!(
                "Expected: {} has other keys than the compiled call had: one compile per set of keys, reused when it returns. Pass the same keys every call (the full dict, None for unused entries), or pass the optional entry as a separate argument.",
                r.culprit
            )
        }
        Category::ContainerLen | Category::DictKeys if g.starts_with("len(") => format!(
            "{} has another number of entries than the compiled call had, and the compiled code is specialised on the count: each new length compiles again. Compute what the entries drive outside the compiled function (ids, positions or a mask built from a list of lengths) and pass the result in as a tensor; or stack the entries into one tensor (torch.stack, padded to a fixed count with a mask) and pass that; or keep the count fixed.",
            r.culprit
        ),
        _ if g.contains("rank mismatch") => format!(
            "{} has another number of dims than the compiled call had ({}): one compile per rank. Reshape it to one rank before the call if both occur.",
            r.culprit,
            g.trim()
        ),
        _ if g.contains("_dynamo_dynamic_indices") => {
            let tensor = g.split('\'').nth(1).map(python_name).unwrap_or_else(|| "the tensor".into());
            format!(
                "{tensor} was marked dynamic on other dims than the compiled entry ({}): one compile per set of marked dims. Mark the same dims on every call, before the first one (torch._dynamo.mark_dynamic({tensor}, [dims])).",
                g.split(": ").nth(1).unwrap_or(g).trim()
            )
        }
        _ if boolean(g) => format!(
            "Expected: {} is a flag your call passes (or an attribute of an object it passes), and each value compiles once (two at most), reused when it returns. Pass one value every call if you want one compile; a flag stays a Python bool (don't make it a tensor).",
            r.culprit
        ),
        _ if string_value(g) && input.evidence.kind == EvidenceKind::Repeats => format!(
            "The compiled code compares {} with a string, and each recompile brought a new one: a value that keeps changing, not a few options, so every new value compiles again until the recompile limit. Read it outside the compiled function (branch there, or pass what it selects as a tensor), or keep it to a fixed set of values.",
            r.culprit
        ),
        _ if string_value(g) => format!(
            "{} is a string option the compiled code reads: one compile per value, reused when it returns. If it takes many values, branch on it outside the compiled function or compile one function per option.",
            r.culprit
        ),
        Category::ConstantValue
            if input.evidence.kind == EvidenceKind::OnePerVariant
                && input.guard.is_some_and(|g| crate::analysis::judge::guard_text::int_branch(g).is_some()) =>
        {
            format!(
            "Expected: {}. No action needed: a value torch holds dynamically compiles once per side of the branch, however many values it takes.",
            input.evidence.text
        )
        }
        Category::ConstantValue if op.is_some() && input.evidence.kind == EvidenceKind::OnePerVariant => {
            let op = op.unwrap_or_default();
            format!(
                "{} is passed to {op} as a Python number, which a tensor cannot replace there, so each value is its own graph, compiled once and reused when it returns. Nothing to change while the values are a fixed few (pyramid levels, stages); each new value costs one compile, and the frame stops compiling after its recompile limit of entries. To have one graph, compute what needs the number outside the compiled function and pass the result in.",
                r.culprit
            )
        }
        // Read as a number by code the user does not write (torch's F.pad,
        // a library's formula), pinned back after each change: a tensor will
        // not do there either.
        Category::ConstantValue
            if input.evidence.kind == EvidenceKind::OnePerVariant
                && input
                    .guard
                    .is_some_and(crate::analysis::judge::guard_text::specialised_number) =>
        {
            format!(
                "{} is used as a Python number by the code it is passed to (torch or a library turns it back into a constant after each change), so a tensor cannot replace it there. Nothing to change while its values are a fixed few; each new value costs one compile. To have one graph, compute what needs the number outside the compiled function and pass the result in.",
                r.culprit
            )
        }
        Category::ConstantValue
            if op.is_some()
                && input.evidence.kind.severity() == crate::analysis::judge::verdict::Severity::Problem
                && number_param::number_param(input).is_none() =>
        {
            let op = op.unwrap_or_default();
            format!(
                "{} is passed to {op} as a Python number, which a tensor cannot replace there: each new value is a new graph. Compute what needs the number outside the compiled function and pass the result in, or keep the values to a few (each compiles once; torch.compile(..., recompile_limit=N) with N above their number keeps them all compiled).",
                r.culprit
            )
        }
        Category::ConstantValue if dynamic => format!(
            "Expected once: {} changed and torch made it dynamic at this recompile (the new entry no longer guards its value), so later values compile nothing. To avoid even this one, {}.",
            r.culprit,
            if input.guard.is_some_and(|g| crate::analysis::judge::guard_text::compared_with_int(&g.guard)) {
                "compile with torch.compile(..., dynamic=True), which makes int arguments dynamic from the first call"
            } else {
                "pass it as a tensor"
            }
        ),
        Category::ConstantValue if input.evidence.kind.severity() == crate::analysis::judge::verdict::Severity::Problem => {
            match number_param::number_param(input) {
                Some(p) => {
                    let instead = if p.instead.is_empty() {
                        format!("call {} outside the compiled function, or keep the values to a few (each compiles once; torch.compile(..., recompile_limit=N) with N above their number keeps them all compiled)", p.call)
                    } else {
                        p.instead.to_string()
                    };
                    format!(
                        "{} feeds {}'s {}, which takes a Python number only: each new value is a new graph, and a tensor will not do there. Instead, {instead}.",
                        p.name, p.call, p.param
                    )
                }
                // An expression of the value (`(1.0 + ((-1)*s)) == 0.04`) is
                // no value to pass: the row's own advice names it.
                None if input.reason.form != "value.expression"
                    && input.guard.is_some_and(|g| crate::analysis::judge::guard_text::compared_with_float_literal(&g.guard)) =>
                {
                    let name = python_name(&crate::reasons::failed_subject(&crate::reasons::culprit::canonical(
                        input.guard.map_or("", |g| g.guard.as_str()),
                    )));
                    format!(
                        "A Python float is baked into the graph as a constant; each new value of {} compiles again. Pass it as a tensor (torch.tensor({name}), made outside the compiled function: the graph then reads its value instead of guarding on it), or branch on it outside the compiled function.",
                        r.culprit
                    )
                }
                None => r.advice.clone(),
            }
        }
        _ => r.advice.clone(),
    }
}

/// The channel dim's stride became 1 (NCHW -> NHWC) or stopped being 1.
fn channels_last(guard: &str) -> bool {
    guard.contains("stride mismatch at index 1.")
        && crate::reasons::subject::expected_actual(guard).is_some_and(|(e, a)| e == "1" || a == "1")
}
