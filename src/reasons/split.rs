//! Splits one raw recompile reason into what Dynamo packed into it:
//!
//! ```text
//! 0/1: <guard code, padded to 60 columns>  # <source line>  # <file>:<line> in <fn> (HINT: ...)
//! User stack trace:
//!   File "/path/model.py", line 60, in activation_hook
//!     if not collector.capture_activation_norms:
//! ```
//!
//! Every part but the guard is optional; tensor guards carry none of them.

use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub function: Option<String>,
}

impl Location {
    /// `file.py:LINE`, the way users and editors name a line.
    pub fn short(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GuardFailure {
    /// The cache entry whose guard failed (`0/1`), when the text names it.
    pub entry: Option<String>,
    /// The reason exactly as logged.
    pub raw: String,
    /// The failing guard expression (or Dynamo's sentence for tensor guards).
    pub guard: String,
    /// The user's source line that produced the guard, as Dynamo quotes it.
    pub code: Option<String>,
    /// Where the guard comment points (may be inside torch).
    pub location: Option<Location>,
    /// The user's `file.py:LINE`: the guard comment's location, or when that
    /// points into torch, the innermost user frame of the stack trace.
    pub source: Option<String>,
    pub hint: Option<String>,
    pub user_stack: Vec<Location>,
}

fn entry_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\s*(!?\d+(?:/\d+){1,2}):\s").expect("valid regex"))
}

fn location_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^(?P<file>\S+?):(?P<line>\d+)(?: in (?P<func>\S+))?$").expect("valid regex"))
}

fn stack_frame_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?"#).expect("valid regex")
    })
}

pub fn split(raw: &str) -> GuardFailure {
    let (entry, body) = match entry_re().captures(raw) {
        Some(c) => {
            let whole = c.get(0).expect("group 0");
            (Some(c[1].to_string()), &raw[whole.end()..])
        }
        None => (None, raw),
    };
    let (head, stack_text) = match body.find("User stack trace:") {
        Some(i) => (&body[..i], Some(&body[i + "User stack trace:".len()..])),
        None => (body, None),
    };
    // The guard sits on the head's first line; anything after that line that
    // is not the stack trace is kept in the guard text (never dropped).
    let head = head.trim_end();
    let (mut line, mut hint) = take_hint(head);
    // Some guards end in a plain note instead of a HINT: `in f (user code
    // shown is first use of this value--...)`. Keep it as the hint.
    if hint.is_none() {
        if let Some((rest, note)) = take_trailing_note(line) {
            line = rest;
            hint = Some(note);
        }
    }
    let mut code = None;
    let mut location = None;
    let mut parts: Vec<&str> = line.split("  # ").collect();
    if parts.len() > 1 {
        let last = parts[parts.len() - 1].trim();
        if let Some(loc) = parse_location(last) {
            location = Some(loc);
            parts.pop();
        }
        if parts.len() > 1 {
            code = Some(parts[1..].join("  # ").trim().trim_start_matches("# ").to_string());
        }
        line = parts[0];
    }
    let guard = line.trim_end().trim_end_matches('#').trim_end().to_string();
    let user_stack = stack_text.map(parse_stack).unwrap_or_default();
    let source = pick_source(location.as_ref(), &user_stack);
    GuardFailure {
        entry,
        raw: raw.to_string(),
        guard,
        code: code.filter(|c| !c.is_empty()),
        location,
        source,
        hint,
        user_stack,
    }
}

/// Removes a trailing `(HINT: ...)` and returns it.
fn take_hint(head: &str) -> (&str, Option<String>) {
    match head.rfind("(HINT:") {
        Some(i) if head.ends_with(')') => {
            let hint = head[i + "(HINT:".len()..head.len() - 1].trim().to_string();
            (head[..i].trim_end(), Some(hint))
        }
        _ => (head, None),
    }
}

/// Splits `... in f (note)` into `... in f` and `note`, only when what
/// precedes the note is a location (so guards ending in `)` are untouched).
fn take_trailing_note(line: &str) -> Option<(&str, String)> {
    let body = line.strip_suffix(')')?;
    let open = body.find(" (")?;
    let before = &line[..open];
    let last = before.rsplit("  # ").next()?;
    if before.contains("  # ") && parse_location(last.trim()).is_some() {
        Some((before, body[open + 2..].to_string()))
    } else {
        None
    }
}

fn parse_location(text: &str) -> Option<Location> {
    let c = location_re().captures(text)?;
    Some(Location {
        file: c["file"].to_string(),
        line: c["line"].parse().ok()?,
        function: c.name("func").map(|m| m.as_str().to_string()),
    })
}

fn parse_stack(text: &str) -> Vec<Location> {
    text.lines()
        .filter_map(|l| {
            let c = stack_frame_re().captures(l)?;
            Some(Location {
                file: c["file"].to_string(),
                line: c["line"].parse().ok()?,
                function: c.name("func").map(|m| m.as_str().to_string()),
            })
        })
        .collect()
}

fn pick_source(location: Option<&Location>, stack: &[Location]) -> Option<String> {
    if let Some(loc) = location.filter(|l| !is_torch_path(&l.file)) {
        return Some(loc.short());
    }
    // Guard comment points into torch (or is absent): the user's line is the
    // innermost user frame of the stack. None when every frame is torch's.
    let user = stack.iter().rev().find(|f| !is_torch_path(&f.file))?;
    Some(format!("{}:{}", shorten(&user.file, stack), user.line))
}

/// Shortens an absolute stack path the way Dynamo shortens guard comments:
/// relative to the directory it shares with the torch install.
fn shorten<'a>(path: &'a str, stack: &[Location]) -> &'a str {
    let torch_root = stack
        .iter()
        .find_map(|f| f.file.find("/torch/").map(|i| &f.file[..i + 1]));
    let Some(root) = torch_root else { return basename(path) };
    let common = path
        .char_indices()
        .zip(root.chars())
        .take_while(|((_, a), b)| a == b)
        .filter(|((_, a), _)| *a == '/')
        .last()
        .map(|((i, _), _)| i + 1);
    match common {
        Some(i) if i > 1 => &path[i..],
        _ => basename(path),
    }
}

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Whether a path (full, or shortened the way guard comments shorten it)
/// points into torch itself rather than into user code.
pub fn is_torch_path(path: &str) -> bool {
    const TORCH_DIRS: [&str; 14] = [
        "nn/",
        "_dynamo/",
        "_inductor/",
        "_functorch/",
        "_higher_order_ops/",
        "_refs/",
        "_prims/",
        "_decomp/",
        "fx/",
        "utils/",
        "autograd/",
        "distributed/",
        "optim/",
        "amp/",
    ];
    let p = path.replace('\\', "/");
    p.contains("/torch/")
        || p.starts_with("torch/")
        || p.contains("site-packages/torch")
        || TORCH_DIRS.iter().any(|d| p.starts_with(d))
        || p == "functional.py"
        || p == "_tensor.py"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_guard_with_comment_location_and_hint() {
        let raw = "0/1: self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks[list(dict.keys(self._modules['dec_layers']._modules['0']._modules['multi_head_attention']._forward_hooks))[0]].__closure__[0].cell_contents.capture_activation_norms == False  # if not collector.capture_activation_norms:  # repro.py:60 in activation_hook (HINT: guard on \"collector\".capture_activation_norms)";
        let g = split(raw);
        assert_eq!(g.entry.as_deref(), Some("0/1"));
        assert!(
            g.guard.ends_with(".cell_contents.capture_activation_norms == False"),
            "{}",
            g.guard
        );
        assert!(g.guard.starts_with("self._modules['dec_layers']"));
        assert_eq!(g.code.as_deref(), Some("if not collector.capture_activation_norms:"));
        assert_eq!(
            g.location,
            Some(Location {
                file: "repro.py".into(),
                line: 60,
                function: Some("activation_hook".into())
            })
        );
        assert_eq!(g.source.as_deref(), Some("repro.py:60"));
        assert_eq!(
            g.hint.as_deref(),
            Some("guard on \"collector\".capture_activation_norms")
        );
        assert_eq!(g.raw, raw);
    }

    #[test]
    fn tensor_guard_has_no_comment() {
        let raw = "0/0: tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32";
        let g = split(raw);
        assert_eq!(g.entry.as_deref(), Some("0/0"));
        assert_eq!(
            g.guard,
            "tensor 'self._modules['pos_encoding']._buffers['pos_enc_cache']' size mismatch at index 0. expected 0, actual 32"
        );
        assert_eq!((g.code, g.location, g.source, g.hint), (None, None, None, None));
    }

    #[test]
    fn padded_guard_and_torch_location_use_the_user_stack() {
        let raw = "1/0: self.training == True                                     # if self.training:  # nn/modules/batchnorm.py:187 in forward\nUser stack trace:\n  File \"/home/u/proj/train.py\", line 41, in forward\n    x = self.bn(x)\n  File \"/usr/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py\", line 187, in forward\n    if self.training:\n";
        let g = split(raw);
        assert_eq!(g.guard, "self.training == True");
        assert_eq!(g.code.as_deref(), Some("if self.training:"));
        assert_eq!(
            g.location.as_ref().map(Location::short).as_deref(),
            Some("nn/modules/batchnorm.py:187")
        );
        assert_eq!(g.user_stack.len(), 2);
        // Nothing but `/` is shared with the torch install: just the file name.
        assert_eq!(g.source.as_deref(), Some("train.py:41"));
    }

    #[test]
    fn stack_path_is_shortened_like_dynamo_does() {
        let raw = "0/0: self._modules['drop'].training == True   # return F.dropout(x)  # nn/modules/dropout.py:73 in forward\nUser stack trace:\n  File \"/work/main/samples/m.py\", line 16, in forward\n    x = self.drop(x)\n  File \"/work/main/.venv/lib/python3.11/site-packages/torch/nn/modules/dropout.py\", line 73, in forward\n    return F.dropout(x)";
        assert_eq!(split(raw).source.as_deref(), Some("samples/m.py:16"));
    }

    #[test]
    fn no_source_when_every_frame_is_torch() {
        let raw = "0/0: not fn._modules['0']._forward_hooks   # input = module(input)  # nn/modules/container.py:259 in forward\nUser stack trace:\n  File \"/v/site-packages/torch/nn/modules/container.py\", line 259, in forward\n    input = module(input)";
        let g = split(raw);
        assert_eq!(g.source, None);
        assert_eq!(
            g.location.map(|l| l.short()).as_deref(),
            Some("nn/modules/container.py:259")
        );
    }

    #[test]
    fn plain_trailing_note_after_location_becomes_the_hint() {
        let raw = "0/1: 2 <= x.size()[0]  # return torch.relu(x) * 2  # s/x.py:13 in f (user code shown is first use of this value--the guard itself is not due user code)";
        let g = split(raw);
        assert_eq!(g.guard, "2 <= x.size()[0]");
        assert_eq!(g.source.as_deref(), Some("s/x.py:13"));
        assert_eq!(g.code.as_deref(), Some("return torch.relu(x) * 2"));
        assert!(g.hint.unwrap().starts_with("user code shown is first use"));
        // A guard that merely ends in `)` keeps its text.
        assert_eq!(split("0/0: ___check_obj_id(f, 1)").guard, "___check_obj_id(f, 1)");
    }

    #[test]
    fn text_without_entry_prefix_is_kept_whole() {
        let g = split("GLOBAL_STATE changed: grad_mode ");
        assert_eq!(g.entry, None);
        assert_eq!(g.guard, "GLOBAL_STATE changed: grad_mode");
    }

    #[test]
    fn torch_paths() {
        assert!(is_torch_path("nn/modules/module.py"));
        assert!(is_torch_path("/x/site-packages/torch/_dynamo/eval_frame.py"));
        assert!(!is_torch_path("repro.py"));
        assert!(!is_torch_path("/home/u/proj/nnet/model.py"));
    }
}
