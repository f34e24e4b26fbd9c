//! Splits Dynamo's graph-break text (`dynamo_graph_break_reason`) into what a
//! reader needs from its ~40 lines:
//!
//! ```text
//! Graph break in user code at /proj/model.py:36
//! Graph Break Reason: Encountered graph break when attempting to trace CALL: ...:
//!
//! Unsupported Tensor.item() call with capture_scalar_outputs=False
//!   Explanation: ...
//!  For more details about this graph break, please visit: .../gb/gb0124.html
//!
//! User code traceback:
//!   File "/proj/train.py", line 55, in <module>
//!     loss = compiled(x).pow(2).mean()
//!   ...
//! Traceback (most recent call last):   <- torch's own frames from here on
//! ```

use super::paths::{owner, Owner};
use super::split::{stack_frame, Location};
use regex::Regex;
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq)]
pub struct GraphBreakText {
    /// What broke, in one line (`Unsupported Tensor.item() call ...`).
    pub reason: String,
    /// Where Dynamo broke the graph (may be inside a library).
    pub at: Option<String>,
    /// The innermost frame of the user code traceback that is the user's
    /// own code, with its quoted source line.
    pub user_line: Option<Location>,
    pub user_code: Option<String>,
    /// The graph-break registry id (`gb0124`), where the text has one.
    pub registry_id: Option<String>,
    /// Torch's own `Hint:` lines (2.6+), in order: what to change. Hints
    /// that only ask to report the break to PyTorch are left out: they give
    /// the user nothing to do in their code.
    pub hints: Vec<String>,
}

fn registry_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\bgb/(gb\d{4})\.html\b|\b(gb\d{4})\b").expect("valid regex"))
}

pub fn parse(text: &str) -> GraphBreakText {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    let at = first
        .strip_prefix("Graph break in user code at ")
        .map(|s| s.trim().to_string());
    let reason = if at.is_some() {
        let mut rest = lines.skip_while(|l| !l.starts_with("Graph Break Reason:"));
        let stated = rest.next().map(|r| r.trim_start_matches("Graph Break Reason:").trim());
        // Torch 2.6+ states a generic sentence ending in ':' and the
        // specific reason on the next line; older ones give it in place.
        match (stated, rest.next()) {
            (Some(s), Some(next)) if s.ends_with(':') && !is_section(next) => next.to_string(),
            (Some(s), _) if !s.is_empty() => s.to_string(),
            _ => first.to_string(),
        }
    } else {
        first.to_string()
    };
    let registry_id = registry_re()
        .captures(text)
        .and_then(|c| c.get(1).or(c.get(2)))
        .map(|m| m.as_str().to_string());
    let (user_line, user_code) = user_frame(text);
    GraphBreakText {
        reason,
        at,
        user_line,
        user_code,
        registry_id,
        hints: hints(text),
    }
}

/// The `Hint:` lines of the explanation, which ends where a traceback begins
/// (user code quoted there could hold the word).
fn hints(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .take_while(|l| !is_section(l))
        .filter_map(|l| l.strip_prefix("Hint:"))
        .map(str::trim)
        .filter(|h| !h.is_empty() && !h.contains("issue to PyTorch") && !h.contains("issue with PyTorch"))
        .map(str::to_string)
        .collect()
}

fn is_section(line: &str) -> bool {
    line.starts_with("User code traceback:") || line.starts_with("Traceback (most recent call last)")
}

/// The frames of "User code traceback:" (it ends where torch's own
/// traceback begins), outermost first, each with its quoted source line:
/// the calls from the user's code down to where the graph broke, the
/// library functions between included.
pub fn user_traceback(text: &str) -> Vec<(Location, Option<String>)> {
    let Some(start) = text.find("User code traceback:") else {
        return Vec::new();
    };
    let body = &text[start..];
    let body = &body[..body.find("Traceback (most recent call last)").unwrap_or(body.len())];
    // Each frame's line is followed by the source it quotes, if any.
    let lines: Vec<&str> = body.lines().collect();
    (0..lines.len())
        .filter_map(|i| {
            let frame = stack_frame(lines[i])?;
            let code = lines
                .get(i + 1)
                .map(|l| l.trim())
                .filter(|l| !l.is_empty() && !l.starts_with("File \""))
                .map(str::to_string);
            Some((frame, code))
        })
        .collect()
}

/// The innermost user-owned frame of the user code traceback.
fn user_frame(text: &str) -> (Option<Location>, Option<String>) {
    match user_traceback(text)
        .into_iter()
        .rev()
        .find(|(f, _)| owner(&f.file) == Owner::User)
    {
        Some((frame, code)) => (Some(frame), code),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trimmed from samples/traces/graph_breaks (torch 2.15): the shape of
    // the payload, the torch traceback cut short.
    const ITEM: &str = "Graph break in user code at /proj/graph_breaks.py:36\n\
        Graph Break Reason: Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):\n\
        \n\
        Unsupported Tensor.item() call with capture_scalar_outputs=False\n  \
          Explanation: Dynamo does not support tracing `Tensor.item()`.\n  \
          Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` to include these operations.\n  \
          Hint: Please file an issue to PyTorch.\n\
        \n \
        For more details about this graph break, please visit: https://example.invalid/gb/gb0124.html\n\
        \n\
        User code traceback:\n  \
          File \"/proj/graph_breaks.py\", line 55, in <module>\n    \
            loss = compiled(x).pow(2).mean()\n  \
          File \"/v/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1787, in _wrapped_call_impl\n    \
            return self._call_impl(*args, **kwargs)\n  \
          File \"/proj/graph_breaks.py\", line 36, in forward\n    \
            if h.abs().mean().item() > 0.5:\n\
        \n\
        Traceback (most recent call last):\n  \
          File \"/v/lib/python3.11/site-packages/torch/_dynamo/exc.py\", line 819, in unimplemented\n";

    #[test]
    fn reason_line_user_frame_and_registry_id() {
        let g = parse(ITEM);
        assert_eq!(
            g.reason,
            "Unsupported Tensor.item() call with capture_scalar_outputs=False"
        );
        assert_eq!(g.at.as_deref(), Some("/proj/graph_breaks.py:36"));
        assert_eq!(
            g.user_line.as_ref().map(Location::short).as_deref(),
            Some("/proj/graph_breaks.py:36")
        );
        assert_eq!(g.user_code.as_deref(), Some("if h.abs().mean().item() > 0.5:"));
        assert_eq!(g.registry_id.as_deref(), Some("gb0124"));
        // The fix torch states, without the request to report the break.
        assert_eq!(
            g.hints,
            ["Set `torch._dynamo.config.capture_scalar_outputs = True` to include these operations."]
        );
    }

    #[test]
    fn a_break_inside_a_library_points_at_the_users_innermost_line() {
        let text = "Graph break in user code at /v/lib/python3.11/site-packages/transformers/x.py:239\n\
            Graph Break Reason: Failed to handle graph break gracefully. Graph break encountered:\n\n\
            Unsupported context manager\n\n\
            User code traceback:\n  \
              File \"/home/u/train.py\", line 15, in <module>\n    \
                out = compiled(ids)\n  \
              File \"/v/lib/python3.11/site-packages/transformers/x.py\", line 239, in wrapper\n    \
                with lock:\n";
        let g = parse(text);
        assert_eq!(g.reason, "Unsupported context manager");
        assert_eq!(g.user_line.map(|l| l.short()).as_deref(), Some("/home/u/train.py:15"));
        assert_eq!(g.user_code.as_deref(), Some("out = compiled(ids)"));
        assert_eq!(g.registry_id, None);
    }

    #[test]
    fn other_texts_give_their_first_line() {
        let g = parse("\n  Unsupported: print\nUser stack");
        assert_eq!(g.reason, "Unsupported: print");
        assert_eq!((g.at, g.user_line), (None, None));
        let old = parse("Graph break in user code at /m.py:3\nGraph Break Reason: call_function print");
        assert_eq!(old.reason, "call_function print");
    }
}
