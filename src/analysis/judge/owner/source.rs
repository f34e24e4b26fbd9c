//! What a guard's source and the compile's stack say of a value, for the
//! owner stage: which library called the frame and whether it computed the
//! argument, whose global or switch a name is, the root of a guarded path.

use crate::analysis::judge::guard_text;
use crate::model::{Compile, Frame, StackFrame};
use crate::reasons::paths::{library_name, owner as code_owner, Owner as Code};
use crate::reasons::GuardFailure;

/// Attributes that library methods flip, by the name the guard reads.
const LIBRARY_SWITCHES: &[(&str, &str)] = &[
    ("_adapters_disabled", "PEFT's disable_adapter() / enable_adapters()"),
    ("_disable_adapters", "PEFT's disable_adapter() / enable_adapters()"),
    ("disable_adapters", "PEFT's disable_adapter() / enable_adapters()"),
    ("active_adapter", "PEFT's set_adapter()"),
    ("_active_adapter", "PEFT's set_adapter()"),
    ("merged_adapters", "PEFT's merge_adapter() / unmerge_adapter()"),
    ("_attn_implementation", "transformers' set_attn_implementation()"),
    (
        "_attn_implementation_internal",
        "transformers' set_attn_implementation()",
    ),
    (
        "gradient_checkpointing",
        "transformers' gradient_checkpointing_enable()",
    ),
    (
        "use_cache",
        "transformers' gradient_checkpointing_enable() (it turns use_cache off)",
    ),
    ("problem_type", "transformers (set on the first call with labels)"),
];

/// The library whose code called the compiled frame, when that frame is a
/// library's too: torch.compile entered it after a graph break inside the
/// library, or through a wrapper the library shares between classes, and
/// the library passed its arguments. The stack ends with the compiled
/// frame; torch's frames between it and its caller are skipped.
pub(super) fn called_by_library(frame: &Frame, compile: &Compile) -> Option<String> {
    if code_owner(frame.file.as_deref()?) != Code::Library {
        return None;
    }
    let (_, callers) = compile.stack.split_last()?;
    let caller = callers
        .iter()
        .rev()
        .filter_map(|f| f.file.as_deref())
        .find(|file| code_owner(file) != Code::Torch)?;
    (code_owner(caller) == Code::Library)
        .then(|| library_name(caller))
        .flatten()
}

/// A Python constant compared by value (`key == 'attentions'`, `n == 3`,
/// `flag == True`), not a tensor's metadata.
pub(super) fn constant_value(guard: &str) -> bool {
    !guard.starts_with("tensor '")
        && !guard.contains(".size()")
        && !guard.contains(".stride()")
        && (guard_text::string_value(guard) || guard_text::numeric(guard) || guard_text::is_flag(guard))
}

/// The compiled frame's caller ran inside the compiled call (after the
/// compile wrapper, eagerly, past a graph break), so what it passed it
/// computed there, unless the user's own call names the argument
/// (`model(x, output_hidden_states=True)` handed down the library's
/// layers).
pub(super) fn computed_inside_call(compile: &Compile, argument: &str) -> bool {
    let Some((_, callers)) = compile.stack.split_last() else {
        return false;
    };
    let is_torch = |f: &StackFrame| f.file.as_deref().is_some_and(|p| code_owner(p) == Code::Torch);
    let Some(caller_at) = callers.iter().rposition(|f| !is_torch(f)) else {
        return false;
    };
    let Some(entry_at) = callers
        .iter()
        .position(|f| f.file.as_deref().is_some_and(|p| p.ends_with("_dynamo/eval_frame.py")))
    else {
        return false;
    };
    entry_at < caller_at && !argument.is_empty() && !named_by_user(&callers[..entry_at], argument)
}

/// A line of the user's code on the stack passes the argument by keyword
/// (`compiled(input_ids=ids, use_cache=False)`): its value is the user's,
/// however deep the library hands it on.
pub(super) fn named_by_user(stack: &[StackFrame], argument: &str) -> bool {
    let keyword = format!("{argument}=");
    !argument.is_empty()
        && stack
            .iter()
            .filter(|f| f.file.as_deref().is_some_and(|p| code_owner(p) == Code::User))
            .filter_map(|f| f.code.as_deref())
            .any(|code| {
                code.match_indices(&keyword).any(|(at, _)| {
                    let before = code[..at].chars().next_back();
                    let after = code[at + keyword.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after != Some('=')
                })
            })
}

/// `G['name'].attr` (or deeper) whose last attribute is private (`_x`).
pub(super) fn private_attribute_of_global(guard: &str) -> bool {
    let text = crate::reasons::guard_test(guard);
    // Its truth or its length (`len(G['m']...._active_adapter) == 1`) is
    // the attribute's too.
    let text = text
        .strip_prefix("not ")
        .or_else(|| text.strip_prefix("len("))
        .unwrap_or(text);
    let Some(rest) = text.strip_prefix("G['") else {
        return false;
    };
    let Some((_, path)) = rest.split_once("']") else {
        return false;
    };
    let path = path.split([' ', '=', '!']).next().unwrap_or(path).trim_end_matches(')');
    path.starts_with('.')
        && path
            .rsplit('.')
            .next()
            .is_some_and(crate::analysis::judge::guard_text::private_name)
}

/// `self._modules['a'].p`: a plain attribute path ending in a name (not a
/// call, an item or a length).
pub(super) fn attribute_path(subject: &str) -> bool {
    subject
        .rsplit('.')
        .next()
        .is_some_and(|a| !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        && subject.contains('.')
}

/// The first name (a path: `self._modules['a'].p`) in an expression.
pub(super) fn first_operand(expr: &str) -> Option<&str> {
    let part = |c: char| c.is_ascii_alphanumeric() || "_.'[]".contains(c);
    let mut at = 0;
    for run in expr.split(|c: char| !part(c)) {
        let start = at;
        at += run.len() + 1;
        if run.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return Some(&expr[start..start + run.len()]);
        }
    }
    None
}

/// The name a caller gives the argument: `flag` of `kwargs['flag']`.
pub(super) fn argument_name<'a>(subject: &'a str, root: &'a str) -> &'a str {
    if root != "kwargs" {
        return root;
    }
    subject
        .strip_prefix("kwargs['")
        .and_then(|rest| rest.split('\'').next())
        .unwrap_or(root)
}

/// `m._forward_hooks` compared by length or emptiness, not a closure inside it.
pub(super) fn is_hook_dict(guard: &str) -> bool {
    const DICTS: [&str; 5] = [
        "._forward_hooks",
        "._forward_pre_hooks",
        "._backward_hooks",
        "._backward_pre_hooks",
        "._state_dict_hooks",
    ];
    DICTS.iter().any(|d| guard.contains(d))
        && !guard.contains("__closure__")
        && !guard.contains(".cell_contents")
        && hook_bound_value(guard).is_none()
}

/// A value bound into a hook made with functools.partial, read off the hook
/// dict (`..._forward_pre_hooks[...].keywords['adapter_names'][0]`): the
/// keyword's name, or "" for a positional `.args[i]`.
pub(super) fn hook_bound_value(guard: &str) -> Option<&str> {
    let test = crate::reasons::guard_test(guard);
    let at = test.rfind("_hooks[")?;
    let rest = &test[at..];
    if let Some(kw) = rest.split("].keywords['").nth(1) {
        return kw.split('\'').next();
    }
    rest.contains("].args[").then_some("")
}

pub(super) enum GlobalOf {
    Torch,
    Library(String),
    /// A module of a package no list names (`G['__import_einops_dot__backends']`
    /// -> `einops`): a library's when the log shows it installed beside
    /// torch (`installed_package`), else the user's own module.
    Package(String),
    User,
}

/// Which module a `G[...]` global belongs to.
pub(super) fn global_module(guard: &str) -> Option<GlobalOf> {
    let at = guard.find("G['")?;
    let name = guard[at + 3..].split('\'').next()?;
    if name == "torch" || name.starts_with("__import_torch") {
        return Some(GlobalOf::Torch);
    }
    if let Some(imported) = name.strip_prefix("__import_") {
        let module = imported.trim_start_matches('_');
        if module == "main__" || module.is_empty() {
            return Some(GlobalOf::User);
        }
        let top = module.split("_dot_").next().unwrap_or(module);
        const LIBRARIES: [&str; 8] = [
            "transformers",
            "peft",
            "accelerate",
            "torchvision",
            "lightning",
            "pytorch_lightning",
            "diffusers",
            "timm",
        ];
        if LIBRARIES.contains(&top) {
            return Some(GlobalOf::Library(top.to_string()));
        }
        if !imported.starts_with('_') && !top.is_empty() {
            return Some(GlobalOf::Package(top.to_string()));
        }
    }
    Some(GlobalOf::User)
}

/// A tensor made under `torch.inference_mode()` lacks the Autograd and
/// ADInplaceOrView keys a normal one has, on the same device.
pub fn is_inference_change(g: &GuardFailure) -> bool {
    if !g.guard.contains("dispatch key set mismatch") {
        return false;
    }
    if let Some(changes) = &g.changes {
        if let Some(c) = changes.iter().find(|c| c.subject.ends_with(" dispatch keys")) {
            return crate::reasons::classify::only_autograd_keys_differ(&c.old, &c.new);
        }
    }
    // Without the trees: the text names both key sets.
    let Some((old, new)) = crate::reasons::subject::expected_actual(&g.guard) else {
        return false;
    };
    let backend = |s: &str| {
        ["CPU", "CUDA", "MPS", "XPU", "Meta"]
            .into_iter()
            .find(|b| s.contains(&format!("({b}")) || s.contains(&format!(" {b},")) || s.contains(&format!("{b})")))
    };
    let autograd = |s: &str| s.contains("Autograd");
    backend(old) == backend(new) && autograd(old) != autograd(new)
}

pub(super) fn library_switch(guard: &str) -> Option<&'static str> {
    LIBRARY_SWITCHES.iter().find_map(|(name, who)| {
        let hit = guard.contains(&format!(".{name} "))
            || guard.contains(&format!(".{name}["))
            || guard.ends_with(&format!(".{name}"))
            || guard.contains(&format!("['{name}']"));
        hit.then_some(*who)
    })
}

/// Values `generate()` builds and passes itself: the cache, its flags, the
/// cache position, which keyword arguments a decode step passes.
pub(super) fn is_generate_internal(subject: &str, guard: &str) -> bool {
    const INTERNAL: [&str; 8] = [
        "encoder_outputs",
        "past_key_values",
        "cache",
        "is_updated",
        "cache_position",
        "position_ids",
        "attention_mask",
        "use_cache",
    ];
    (subject.starts_with("kwargs") || subject.starts_with("len(kwargs") || subject.starts_with("___dict_contains"))
        && (INTERNAL.iter().any(|w| subject.contains(w))
            || guard.starts_with("len(kwargs")
            || guard.contains("', kwargs)"))
        || INTERNAL.iter().any(|w| subject.contains(w)) && !subject.contains("input_ids")
}

pub(super) use crate::reasons::subject::root_of;

/// `transformers` of `.../site-packages/transformers/models/...`.
/// The package is installed beside torch, not the user's own code: a guard
/// of the frame was placed in its files, which torch names relative to its
/// own install directory (`einops/einops.py:180`), or a stack of the frame
/// runs through `site-packages/<package>/`. What the log shows, for any
/// library, where a list of known names covers only the ones seen before.
pub(super) fn installed_package(frame: &crate::model::Frame, package: &str) -> bool {
    let (top, site, dist) = (
        format!("{package}/"),
        format!("/site-packages/{package}/"),
        format!("/dist-packages/{package}/"),
    );
    let beside_torch = |file: &str| {
        let file = file.replace('\\', "/");
        file.starts_with(&top) || file.contains(&site) || file.contains(&dist)
    };
    frame.compiles.iter().any(|c| {
        c.recompile_reasons.iter().any(|g| {
            g.location.as_ref().is_some_and(|l| beside_torch(&l.file))
                || g.user_stack.iter().any(|l| beside_torch(&l.file))
        }) || c.stack.iter().any(|s| s.file.as_deref().is_some_and(beside_torch))
    })
}
