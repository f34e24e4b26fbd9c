//! What a guard's text says of a Python number: the constant it compares
//! with, a counter stepped by one, a dynamic int's 0/1 specialisation, a
//! length used as a number on the quoted line.

use crate::reasons::GuardFailure;

/// The value a constant guard compares with, before the guard's comment:
/// `3` of `self.n == 3  # if x == y:`.
pub(in crate::analysis::judge) fn compared_value(guard: &str) -> Option<&str> {
    let text = crate::reasons::guard_test(guard);
    text.rsplit_once(" == ").map(|(_, v)| v.trim())
}

/// The number a guard compares with, as written: torch 2.12 writes a
/// negative one in parentheses (`== (-11)`).
fn compared_number(guard: &str) -> Option<&str> {
    let (_, v) = guard.rsplit_once(" == ")?;
    let v = v.trim();
    Some(v.strip_prefix('(').and_then(|v| v.strip_suffix(')')).unwrap_or(v))
}

/// A Python number compared by value (`lr == 0.001`, `___stack0 == 3`).
pub(in crate::analysis::judge) fn numeric(guard: &str) -> bool {
    compared_number(guard).is_some_and(|v| v.parse::<f64>().is_ok())
}

/// The float a guard compares with, when written to full precision (ten
/// significant digits or more: `0.8323994956551746`, not `0.5`).
pub(in crate::analysis::judge) fn full_precision_float(guard: &str) -> Option<f64> {
    let v = compared_number(guard)?;
    let mantissa = v.split(['e', 'E']).next()?;
    if !mantissa.contains('.') {
        return None;
    }
    let digits = mantissa
        .trim_start_matches(['-', '0', '.'])
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    (digits >= 10).then(|| v.parse().ok()).flatten()
}

/// The quoted line uses a container's length as a number (`len(self.buffer)
/// / CAPACITY`, `n * len(xs)`): an arithmetic operator next to the `len()`
/// call. The line itself, when it does.
pub(in crate::analysis::judge) fn length_as_number(g: &GuardFailure) -> Option<&str> {
    if !g.guard.trim_start().starts_with("len(") {
        return None;
    }
    let code = g.code.as_deref()?;
    let operator = |c: Option<char>| c.is_some_and(|c| "*/+-%".contains(c));
    let mut rest = code;
    while let Some(at) = rest.find("len(") {
        let before = rest[..at].trim_end().chars().last();
        let mut depth = 0usize;
        let close = rest[at + 3..].char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(at + 3 + i);
                    }
                }
                _ => {}
            }
            None
        })?;
        let after = rest[close + 1..].trim_start().chars().next();
        if operator(before) || operator(after) {
            return Some(code.trim());
        }
        rest = &rest[close + 1..];
    }
    None
}

/// An int the code steps by one between calls (`n == 0` failed, the new
/// entry holds `n == 1`): a counter, whose values never come back while it
/// counts, not a mode with a few values.
pub(in crate::analysis::judge) fn counter_step(g: &GuardFailure) -> bool {
    // A length or a key count is a container's (its own judgement).
    if g.guard.trim_start().starts_with("len(") {
        return false;
    }
    let Some(old) = compared_value(&g.guard)
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<i64>().ok())
    else {
        return false;
    };
    matches!(&g.now, Some(crate::reasons::GuardedNow::Constant(new)) if new.trim().parse::<i64>() == Ok(old + 1))
}

/// A dynamic Python int's 0/1 specialisation, as for sizes: torch holds
/// it as `2 <= n` (or `2 <= n <= 64`), so 0 and 1 compile once each (the
/// entry for 1 then fails `n == 1` with 0, while another failed entry of
/// the compile holds `2 <= n`). Not a size's guard.
pub(in crate::analysis::judge) fn int_zero_one(g: &GuardFailure, all: &[GuardFailure]) -> bool {
    let text = crate::reasons::guard_test(&g.guard);
    if text.contains(".size()") || text.starts_with("tensor '") {
        return false;
    }
    let name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_[]'.".contains(c));
    if let Some(rest) = text.strip_prefix("2 <= ") {
        return name(rest.split(" <= ").next().unwrap_or(rest));
    }
    let Some((lhs, value)) = text.rsplit_once(" == ") else {
        return false;
    };
    let subject = crate::reasons::culprit::canonical(lhs.trim());
    // Another entry of the frame holds it as `2 <= n`: it is dynamic, and
    // this entry is one of its two specialisations (not an id among many).
    let dynamic_elsewhere = all
        .iter()
        .any(|o| crate::reasons::culprit::canonical(&o.guard).starts_with(&format!("2 <= {subject}")));
    dynamic_elsewhere
        && matches!(value.trim(), "0" | "1")
        && name(lhs.trim())
        && g.changes
            .iter()
            .flatten()
            .any(|c| *c.subject == *subject && matches!(&*c.new, "0" | "1"))
}

/// A number torch kept a constant of the graph because an op needs it as a
/// Python number: the new entry still guards it `== value` (torch makes
/// ints and floats dynamic where it can), and the line the guard quotes
/// passes it to an operator (`torch.ops.torchvision.roi_pool(..., spatial_scale,
/// ...)` in a library's file), to a torch function or `range()` in yours
/// (`torch.linspace(-1, 1, res)`). Not `torch.tensor(x)`: a tensor made
/// from the number could be passed in instead. The callee, when it is one.
pub(in crate::analysis::judge) fn op_number(g: &GuardFailure) -> Option<String> {
    let value = compared_value(&g.guard)?;
    value.parse::<f64>().ok()?;
    if !matches!(g.now, Some(crate::reasons::GuardedNow::Constant(_))) {
        return None;
    }
    let code = g.code.as_deref()?;
    let subject = crate::reasons::failed_subject(&crate::reasons::culprit::canonical(&g.guard));
    let name = crate::reasons::culprit::python_name(&subject);
    let name = name.rsplit(['.', ' ']).next().unwrap_or(&name).to_string();
    let in_library = g
        .location
        .as_ref()
        .is_some_and(|l| crate::reasons::paths::owner(&l.file) != crate::reasons::paths::Owner::User);
    let calls = crate::analysis::judge::caller::calls::calls(code);
    const TENSOR_MAKERS: [&str; 4] = ["tensor", "as_tensor", "scalar_tensor", "asarray"];
    let makes_tensor = |callee: &str| TENSOR_MAKERS.contains(&callee.rsplit('.').next().unwrap_or(callee));
    // Ops whose number may as well be a tensor (`torch.lerp(e, p, weight)`
    // and `torch._foreach_lerp_` take a 0-dim tensor weight, `clamp_min` a
    // tensor floor): a tensor
    // can replace the number there, so it is no op that needs it. Not
    // add/sub, whose `alpha=` must stay a number.
    const TAKE_TENSORS: [&str; 23] = [
        // Its `tensor_qparams` overload takes scale and zero_point as tensors.
        "fake_quantize_per_tensor_affine",
        "lerp",
        "lerp_",
        // The foreach ops an EMA or optimizer step calls take a 0-dim
        // tensor (or a list of them) where they take a scalar.
        "_foreach_lerp_",
        "_foreach_lerp",
        "_foreach_mul_",
        "_foreach_mul",
        "_foreach_add_",
        "_foreach_add",
        "_foreach_div_",
        "_foreach_div",
        "clamp",
        "clamp_min",
        "clamp_max",
        "clip",
        "where",
        "pow",
        "mul",
        "div",
        "maximum",
        "minimum",
        "fmod",
        "remainder",
    ];
    let takes_tensor = |callee: &str| TAKE_TENSORS.contains(&callee.rsplit('.').next().unwrap_or(callee));
    if calls
        .iter()
        .any(|c| (makes_tensor(c.callee) || takes_tensor(c.callee)) && mentions(c, &name))
    {
        return None;
    }
    let op = |callee: &str| {
        callee.starts_with("torch.")
            || callee.starts_with("F.")
            || callee.starts_with("nn.functional.")
            || callee == "range"
    };
    // The innermost call that passes it (`polygamma` of
    // `torch.cat([x, torch.special.polygamma(order, z)])`): the one with the
    // shortest arguments.
    let called = calls
        .iter()
        .filter(|c| {
            (in_library && c.callee.starts_with("torch.ops.") && c.args.is_some())
                || (!in_library && op(c.callee) && !makes_tensor(c.callee) && mentions(c, &name))
        })
        .min_by_key(|c| c.args.as_ref().map_or(usize::MAX, |a| a.iter().map(|x| x.len()).sum()));
    let module_index = g
        .location
        .as_ref()
        .is_some_and(|l| l.file.replace('\\', "/").ends_with("torch/nn/modules/container.py"));
    match called {
        Some(c) => Some(c.callee.to_string()),
        // A ModuleList or Sequential indexed by the number: torch's index
        // check (`operator.index`) needs it concrete.
        None if module_index => Some("indexing an nn.ModuleList or nn.Sequential".to_string()),
        // A slice bound or an index in your code that the new entry still
        // holds as a constant: a tensor's slice or index takes a symbolic
        // number, so this one cuts or indexes a Python sequence (a list of
        // views, a ModuleList of heads), which needs the number.
        None if !in_library => slice_bound(code, &name)
            .map(|s| format!("the slice {s}"))
            .or_else(|| subscript_index(code, &name).map(|s| format!("the index {s}"))),
        None => None,
    }
}

/// The subscript of `code` indexed by `name` alone (`self.heads[task]`).
fn subscript_index<'c>(code: &'c str, name: &str) -> Option<&'c str> {
    let needle = format!("[{name}]");
    let at = code.find(&needle)?;
    let head = subscripted_from(code, at)?;
    Some(&code[head..at + needle.len()])
}

/// Where the name subscripted at `bracket` starts (`self.heads` of
/// `self.heads[task]`), when a name stands before the bracket.
fn subscripted_from(code: &str, bracket: usize) -> Option<usize> {
    let head = code[..bracket]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |k| k + 1);
    (head < bracket).then_some(head)
}

/// The subscript of `code` that slices by `name` (`FLIPS[:n_views]`), when
/// one does: `name` is a bound of a `start:stop` of the brackets.
pub(in crate::analysis::judge) fn slice_bound<'c>(code: &'c str, name: &str) -> Option<&'c str> {
    let bytes = code.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' => open.push(i),
            b']' => {
                let start = open.pop()?;
                let inner = &code[start + 1..i];
                // Only the subscript's own colons: no brackets inside.
                if inner.contains(['[', '(']) || !inner.contains(':') {
                    continue;
                }
                if inner.split(':').any(|bound| bound.trim() == name) {
                    return subscripted_from(code, start).map(|head| &code[head..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The call passes `name` (as a whole word) in one of its arguments.
fn mentions(call: &crate::analysis::judge::caller::calls::Call<'_>, name: &str) -> bool {
    call.args.iter().flatten().any(|a| {
        let value = a
            .split_once('=')
            .filter(|(_, v)| !v.starts_with('='))
            .map_or(*a, |(_, v)| v);
        value
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == name)
    })
}

/// A number the traced code needed as a Python number, by what the log
/// shows: the new entry still guards it `== value` and either an op takes
/// it (`op_number`), or torch tried to keep it symbolic and specialised it
/// back (the guard is placed by `remove_tensorify_specialized_graphargs`),
/// or a library's or torch's own code uses it where the guard points
/// (`(1 - p_t) ** gamma` in torchvision, F.pad's `value`). An optimizer's
/// settings are judged as such, not here.
pub(in crate::analysis::judge) fn specialised_number(g: &GuardFailure) -> bool {
    if op_number(g).is_some() {
        return true;
    }
    let Some(value) = compared_value(&g.guard) else {
        return false;
    };
    if value.parse::<f64>().is_err()
        || !matches!(g.now, Some(crate::reasons::GuardedNow::Constant(_)))
        || g.guard.contains("param_groups")
    {
        return false;
    }
    let tensorified = crate::reasons::tensorified(&g.raw);
    let argument = !crate::reasons::failed_subject(&g.guard).contains(['.', '[']);
    // Read in torch's own code (F.pad's `value`, handed to the op as a
    // number) as much as in a library's.
    let in_torch = g
        .location
        .as_ref()
        .is_some_and(|l| crate::reasons::paths::owner(&l.file) == crate::reasons::paths::Owner::Torch);
    argument && (tensorified || g.read_in_library() || in_torch)
}
