//! What the caller passed where a guarded argument is: for
//! `logits = compiled(tokens[:, :-1])` and a guard on the callee's `x`, the
//! expression `tokens[:, :-1]`. A shape fix names what the caller holds,
//! not the callee's parameter name.

/// The caller's expression for one argument.
#[derive(Clone, Debug, PartialEq)]
pub struct CallerArg {
    pub expr: String,
}

impl CallerArg {
    /// A plain name (`tokens`, `batch.input_ids`): it can be marked as is.
    pub fn is_name(&self) -> bool {
        !self.expr.is_empty()
            && self
                .expr
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !self.expr.starts_with(|c: char| c.is_ascii_digit())
    }
}

/// The expression the call on `code` passes for `guarded`: `args[N]` (a
/// wrapper's positional argument), `kwargs['k']`, or the callee's parameter
/// name. None when the line does not say (several positional arguments
/// and a parameter name, a decorator line, no call).
pub fn caller_arg(code: &str, guarded: &str) -> Option<CallerArg> {
    let code = code.trim();
    if code.starts_with('@') {
        return None;
    }
    let (positional, keywords) = first_call_args(code)?;
    let pick = |e: &str| {
        Some(CallerArg {
            expr: e.trim().to_string(),
        })
    };
    if let Some(n) = guarded.strip_prefix("args[").and_then(|r| r.strip_suffix(']')) {
        return positional.get(n.parse::<usize>().ok()?).and_then(|e| pick(e));
    }
    let name = guarded
        .strip_prefix("kwargs['")
        .and_then(|r| r.strip_suffix("']"))
        .unwrap_or(guarded);
    if let Some((_, e)) = keywords.iter().find(|(k, _)| *k == name) {
        return pick(e);
    }
    if guarded.starts_with("kwargs[") {
        return None;
    }
    match (positional.as_slice(), keywords.is_empty()) {
        ([only], true) => pick(only),
        _ => None,
    }
}

/// The top-level arguments of the first call on a line: positional ones,
/// then `name=value` ones.
#[allow(clippy::type_complexity)]
fn first_call_args(code: &str) -> Option<(Vec<&str>, Vec<(&str, &str)>)> {
    // Skip an assignment's target: `a, b = f(x)`.
    let rhs = match code.find(" = ") {
        Some(i) if !code[..i].contains('(') => &code[i + 3..],
        _ => code,
    };
    let bytes = rhs.as_bytes();
    let open = (0..bytes.len())
        .find(|&i| bytes[i] == b'(' && i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))?;
    let mut depth = 0i32;
    let mut close = None;
    let mut quote: Option<u8> = None;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(' | b'[' | b'{') => depth += 1,
            (None, b')' | b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &rhs[open + 1..close?];
    let mut positional = Vec::new();
    let mut keywords = Vec::new();
    for part in crate::reasons::guard_tree::line::split_top_level(inner) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        match keyword(part) {
            Some((k, v)) => keywords.push((k, v)),
            None => positional.push(part),
        }
    }
    Some((positional, keywords))
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
        let arg = caller_arg(line, "x").unwrap();
        assert_eq!(arg.expr, "tokens[:, :-1]");
        assert!(!arg.is_name());
        assert_eq!(caller_arg(line, "args[0]").unwrap().expr, "tokens[:, :-1]");
        let kw = "out = model(input_ids=batch.ids, labels=y)";
        let ids = caller_arg(kw, "kwargs['input_ids']").unwrap();
        assert_eq!(ids.expr, "batch.ids");
        assert!(ids.is_name());
        assert_eq!(caller_arg("y = f(a, b)", "x"), None);
        assert_eq!(caller_arg("@torch.compile(backend=\"eager\")", "x"), None);
        assert_eq!(
            caller_arg("loss = compiled(tokens).logsumexp(-1).mean()", "x")
                .unwrap()
                .expr,
            "tokens"
        );
    }
}
