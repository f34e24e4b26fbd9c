//! What the caller passed where a guarded argument is: for
//! `logits = compiled(tokens[:, :-1])` and a guard on the callee's `x`, the
//! expression `tokens[:, :-1]`. A shape fix names what the caller holds,
//! not the callee's parameter name.

// The line's calls are read here and by the fix (which op parameter a
// value feeds).
pub(super) mod calls;

use calls::Call;

/// The caller's expression for one argument.
#[derive(Clone, Debug, PartialEq)]
pub struct CallerArg {
    pub expr: String,
}

impl CallerArg {
    /// A plain name (`tokens`, `batch.input_ids`) or an item of a dict it
    /// holds (`batch["input_ids"]`, the same tensor the call gets): it can
    /// be marked as is.
    pub fn is_name(&self) -> bool {
        let (name, keys) = match self.expr.find('[') {
            Some(i) => self.expr.split_at(i),
            None => (self.expr.as_str(), ""),
        };
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && string_keys(keys)
    }
}

/// `["a"]['b']`: only string subscripts (an item, not a slice or a copy).
fn string_keys(mut keys: &str) -> bool {
    while !keys.is_empty() {
        let Some(rest) = keys.strip_prefix('[') else {
            return false;
        };
        let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            return false;
        };
        let Some(end) = rest[1..].find(q) else {
            return false;
        };
        let key = &rest[1..1 + end];
        let Some(after) = rest[1 + end + 1..].strip_prefix(']') else {
            return false;
        };
        if key.contains(['[', ']', '\\']) {
            return false;
        }
        keys = after;
    }
    true
}

/// The expression the compiled call on `code` passes for `guarded`
/// (`args[N]`, a wrapper's positional argument; `kwargs['k']`; or the
/// callee's parameter name). `function` is the compiled function's name:
/// a call of it by name is the compiled call. Otherwise the compiled call
/// is the one call on the line that could be it (not torch's, a builtin's,
/// or a tensor method) whose arguments say what it passes for `guarded`.
/// None when the line does not say, or could mean two things: several
/// calls that fit, a call the line does not close, several positional
/// arguments for a parameter name, a decorator line.
pub fn caller_arg(code: &str, guarded: &str, function: Option<&str>) -> Option<CallerArg> {
    let code = code.trim();
    if code.starts_with('@') {
        return None;
    }
    let all = calls::calls(code);
    let by_name: Vec<&Call<'_>> = all
        .iter()
        .filter(|c| function.is_some_and(|f| c.name() == f) && !c.on_a_result())
        .collect();
    let candidates: Vec<&Call<'_>> = if by_name.is_empty() {
        all.iter().filter(|c| could_be_compiled(c)).collect()
    } else {
        by_name
    };
    // A call whose arguments the line does not show may be the one.
    if candidates.iter().any(|c| c.args.is_none()) {
        return None;
    }
    let mut passed = candidates
        .iter()
        .filter_map(|c| passed_for(c.args.as_deref()?, guarded));
    let first = passed.next()?;
    match passed.all(|e| e == first) {
        true => Some(CallerArg { expr: first }),
        false => None,
    }
}

/// What one call's arguments pass for `guarded`.
fn passed_for(args: &[&str], guarded: &str) -> Option<String> {
    let mut positional = Vec::new();
    let mut keywords = Vec::new();
    let mut spread = None;
    for &a in args {
        if let Some(d) = a.strip_prefix("**") {
            spread = Some(d.trim());
        } else {
            match keyword(a) {
                Some(kv) => keywords.push(kv),
                None => positional.push(a),
            }
        }
    }
    if let Some(n) = guarded.strip_prefix("args[").and_then(|r| r.strip_suffix(']')) {
        let n = n.parse::<usize>().ok()?;
        // `f(a, *rest)`: args[2] is rest[1].
        return match positional.iter().position(|p| p.starts_with('*')) {
            Some(star) if star <= n => {
                let rest = positional[star].trim_start_matches('*').trim();
                (star + 1 == positional.len()).then(|| format!("{rest}[{}]", n - star))
            }
            _ => positional.get(n).map(|e| e.to_string()),
        };
    }
    let name = guarded
        .strip_prefix("kwargs['")
        .and_then(|r| r.strip_suffix("']"))
        .unwrap_or(guarded);
    if let Some((_, e)) = keywords.iter().find(|(k, _)| *k == name) {
        return Some(e.to_string());
    }
    if let Some(d) = spread {
        return Some(format!("{d}[\"{name}\"]"));
    }
    if guarded.starts_with("kwargs[") || !keywords.is_empty() {
        return None;
    }
    match positional.as_slice() {
        [only] if !only.starts_with('*') => Some(only.to_string()),
        _ => None,
    }
}

/// Whether a call could be the compiled one: not torch's or a common
/// library's function, not a builtin, not a tensor method.
fn could_be_compiled(c: &Call<'_>) -> bool {
    const LIBRARIES: [&str; 12] = [
        "torch",
        "F",
        "nn",
        "np",
        "numpy",
        "math",
        "functional",
        "random",
        "os",
        "json",
        "logging",
        "itertools",
    ];
    const BUILTINS: [&str; 26] = [
        "print",
        "len",
        "range",
        "list",
        "tuple",
        "dict",
        "set",
        "int",
        "float",
        "str",
        "bool",
        "sum",
        "min",
        "max",
        "abs",
        "zip",
        "enumerate",
        "isinstance",
        "sorted",
        "map",
        "filter",
        "any",
        "all",
        "getattr",
        "round",
        "next",
    ];
    const TENSOR_METHODS: [&str; 32] = [
        "to",
        "reshape",
        "view",
        "float",
        "half",
        "bfloat16",
        "long",
        "int",
        "cuda",
        "cpu",
        "sum",
        "mean",
        "contiguous",
        "unsqueeze",
        "squeeze",
        "transpose",
        "permute",
        "flatten",
        "detach",
        "clone",
        "item",
        "numpy",
        "size",
        "expand",
        "repeat",
        "masked_fill",
        "softmax",
        "log_softmax",
        "argmax",
        "logsumexp",
        "backward",
        "tolist",
    ];
    if c.on_a_result() {
        return false;
    }
    match c.callee.contains('.') {
        true => !LIBRARIES.contains(&c.root()) && !TENSOR_METHODS.contains(&c.name()),
        false => !BUILTINS.contains(&c.callee),
    }
}

/// `name=value` (not `==`).
fn keyword(part: &str) -> Option<(&str, &str)> {
    let eq = part.find('=')?;
    let name = part[..eq].trim();
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (valid && !part[eq + 1..].starts_with('=')).then(|| (name, part[eq + 1..].trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callers_expression_for_a_guarded_argument() {
        let line = "logits = compiled(tokens[:, :-1])";
        let arg = caller_arg(line, "x", None).unwrap();
        assert_eq!(arg.expr, "tokens[:, :-1]");
        assert!(!arg.is_name());
        assert_eq!(caller_arg(line, "args[0]", None).unwrap().expr, "tokens[:, :-1]");
        let kw = "out = model(input_ids=batch.ids, labels=y)";
        let ids = caller_arg(kw, "kwargs['input_ids']", None).unwrap();
        assert_eq!(ids.expr, "batch.ids");
        assert!(ids.is_name());
        assert_eq!(caller_arg("y = f(a, b)", "x", None), None);
        assert_eq!(caller_arg("@torch.compile(backend=\"eager\")", "x", None), None);
        assert_eq!(
            caller_arg("loss = compiled(tokens).logsumexp(-1).mean()", "x", None)
                .unwrap()
                .expr,
            "tokens"
        );
    }

    fn passed(code: &str, guarded: &str) -> Option<String> {
        caller_arg(code, guarded, None).map(|c| c.expr)
    }

    #[test]
    fn the_compiled_call_not_an_enclosing_expression() {
        let issue = "loss = F.cross_entropy(compiled(ids).reshape(-1, 64), labels.reshape(-1))";
        assert_eq!(passed(issue, "x").as_deref(), Some("ids"));
        assert_eq!(
            passed("y = torch.relu(net(batch['ids'][:, :-1]))", "x").as_deref(),
            Some("batch['ids'][:, :-1]")
        );
        assert_eq!(passed("total = summarize(net(ids), 3)", "x").as_deref(), Some("ids"));
        assert_eq!(
            passed("z = self.model(x=ids, scale=2.0).float()", "x").as_deref(),
            Some("ids")
        );
        let spread = caller_arg("out = model(**batch)", "kwargs['input_ids']", None).unwrap();
        assert_eq!(spread.expr, "batch[\"input_ids\"]");
        assert!(spread.is_name(), "a dict's item is the tensor the call gets");
        assert!(!CallerArg {
            expr: "batch['ids'][:, :-1]".into()
        }
        .is_name());
        assert_eq!(
            passed("out = model(head, *rest)", "args[2]").as_deref(),
            Some("rest[1]")
        );
    }

    #[test]
    fn a_line_that_could_mean_two_things_names_nothing() {
        // Either call could be the compiled one.
        assert_eq!(passed("y = outer(inner(ids))", "x"), None);
        // The arguments are on the next lines.
        assert_eq!(passed("m = model(", "x"), None);
        assert_eq!(passed("loss = criterion(model(ids),", "x"), None);
        // Which positional argument is `b` depends on the signature.
        assert_eq!(passed("p = pair(weights, ids)", "b"), None);
        // A keyword argument beside one positional: the positional may not be `x`.
        assert_eq!(passed("out = net(ids, mask=m)", "x"), None);
    }

    #[test]
    fn a_call_of_the_compiled_function_by_name_is_the_compiled_call() {
        let line = "y = outer(step(ids))";
        assert_eq!(caller_arg(line, "x", Some("step")).unwrap().expr, "ids");
        assert_eq!(caller_arg(line, "x", Some("outer")).unwrap().expr, "step(ids)");
    }
}
