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

use super::change::{GuardChange, GuardedNow};
use super::paths::{owner, Owner, PathResolver};
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
    /// For a guard that names no line (a module's parameter, its list of
    /// submodules): the user's line where the compiled graph first read the
    /// value (`guard_site::locate_read`).
    pub read_at: Option<Location>,
    /// In a resume function (after a graph break): the guarded local was
    /// assigned by the code before the break, so it is a value computed
    /// there and carried across, not an argument a caller passed.
    pub carried: bool,
    /// Every guarded value that differs between the failed entry and the
    /// new compile (None when either guard tree is missing from the log).
    pub changes: Option<Vec<GuardChange>>,
    /// How the new compile guards what this entry failed on (None when
    /// the log lacks the new compile's guard tree).
    pub now: Option<GuardedNow>,
    /// The stack trace shows the guarded value was read inside a module
    /// hook (`hook_result = hook(self, args, result)` on the way in).
    pub in_hook: bool,
    /// The value whose length or emptiness failed (`len(X) != 2`, `not X`)
    /// is a dict: the failed entry guards its keys one by one
    /// (`list(dict.keys(X))[i]`, a `ModelOutput` included) or names its
    /// class dict. Its set of keys changed, not a list's length.
    pub dict_subject: bool,
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
    let (head, second) = split_second_source(head);
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
    // `(unknown source ..., please file a bug)`: Dynamo had no source line.
    parts.retain(|p| !p.trim_start().starts_with("(unknown source"));
    if parts.len() > 1 {
        let last = parts[parts.len() - 1].trim();
        if let Some(loc) = parse_location(last) {
            location = Some(loc);
            parts.pop();
        }
        if parts.len() > 1 {
            code = Some(parts[1..].join("  # ").trim().trim_start_matches("# ").to_string());
        }
    }
    // The first source is torch's (a bound every dynamic dim gets) and the
    // second the user's (a branch that bounded it): the user's line is it.
    if let Some((code2, loc2)) = second {
        if location.as_ref().is_none_or(|l| owner(&l.file) != Owner::User) && owner(&loc2.file) == Owner::User {
            code = Some(code2);
            location = Some(loc2);
        }
    }
    line = parts.first().copied().unwrap_or(line);
    let guard = line.trim_end().trim_end_matches('#').trim_end().to_string();
    let user_stack = stack_text
        .map(|t| t.lines().filter_map(stack_frame).collect::<Vec<_>>())
        .unwrap_or_default();
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
        read_at: None,
        carried: false,
        changes: None,
        now: None,
        in_hook: stack_text.is_some_and(|s| s.contains("= hook(")),
        dict_subject: false,
    }
}

/// A guard whose parts come from two lines (a range `2 <= x.size()[1] <=
/// 128`: torch bounded it below, a branch of the user's above) carries both
/// sources, joined by "and": `g  # code1  # loc1 (note) and code2  # loc2
/// (torch's loc)`. Splits off the second, when the first ends in a
/// location and a note and the second in a location.
fn split_second_source(line: &str) -> (&str, Option<(String, Location)>) {
    for (i, _) in line.match_indices(") and ") {
        let first = &line[..=i];
        let Some(last) = first.rsplit("  # ").next().filter(|_| first.contains("  # ")) else {
            continue;
        };
        let ends_in_location = last
            .find(" (")
            .is_some_and(|j| parse_location(last[..j].trim()).is_some());
        let rest = &line[i + ") and ".len()..];
        let Some((code, loc)) = rest.rsplit_once("  # ") else {
            continue;
        };
        let loc = match loc.find(" (") {
            Some(j) if loc.ends_with(')') => &loc[..j],
            _ => loc,
        };
        if let (true, Some(loc)) = (ends_in_location, parse_location(loc.trim())) {
            return (first, Some((code.trim().to_string(), loc)));
        }
    }
    (line, None)
}

/// Removes the trailing hints and returns them, first first: `(HINT: ...)`,
/// newer torch's `[HINT: ...]`, and torch 2.11's two groups in a row
/// (`(HINT: guard on "module_id") (HINT: torch.compile considers integer
/// attributes ...)`), joined by "; ".
fn take_hint(head: &str) -> (&str, Option<String>) {
    let mut rest = head.trim_end();
    let mut hints: Vec<&str> = Vec::new();
    loop {
        let found = [("(HINT:", ')'), ("[HINT:", ']')].iter().find_map(|(open, close)| {
            let i = rest.rfind(open)?;
            rest.ends_with(*close)
                .then(|| (i, &rest[i + open.len()..rest.len() - 1]))
        });
        match found {
            Some((i, hint)) => {
                hints.push(hint.trim());
                rest = rest[..i].trim_end();
            }
            None => break,
        }
    }
    if hints.is_empty() {
        return (head, None);
    }
    hints.reverse();
    (rest, Some(hints.join("; ")))
}

/// Splits `... in f (note)` into `... in f` and `note`, only when what
/// precedes the note is a location (so guards ending in `)` are untouched).
fn take_trailing_note(line: &str) -> Option<(&str, String)> {
    let body = line.strip_suffix(')')?;
    // The note follows the last location: a guard's own parentheses
    // (`((1 + (x.size()[0] // 2)) % 4) == 3`) come before it.
    let last = body.rfind("  # ")?;
    let open = last + body[last..].find(" (")?;
    let before = &line[..open];
    let last = before.rsplit("  # ").next()?;
    if before.contains("  # ") && parse_location(last.trim()).is_some() {
        Some((before, body[open + 2..].to_string()))
    } else {
        None
    }
}

pub(super) fn parse_location(text: &str) -> Option<Location> {
    // Torch-internal sites come wrapped: `(_dynamo/output_graph.py:3552 in f)`.
    let text = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(text);
    let c = location_re().captures(text)?;
    Some(Location {
        file: c["file"].to_string(),
        line: c["line"].parse().ok()?,
        function: c.name("func").map(|m| m.as_str().to_string()),
    })
}

/// One `File "...", line N, in f` line of a Python traceback.
pub(super) fn stack_frame(line: &str) -> Option<Location> {
    let c = stack_frame_re().captures(line)?;
    Some(Location {
        file: c["file"].to_string(),
        line: c["line"].parse().ok()?,
        function: c.name("func").map(|m| m.as_str().to_string()),
    })
}

fn pick_source(location: Option<&Location>, stack: &[Location]) -> Option<String> {
    if let Some(loc) = location.filter(|l| owner(&l.file) == Owner::User) {
        return Some(loc.short());
    }
    // The guard comment points into torch or a library (or is absent): the
    // user's line is the innermost user frame of the stack, if any.
    let user = stack.iter().rev().find(|f| owner(&f.file) == Owner::User)?;
    Some(user.short())
}

impl GuardFailure {
    /// Replaces the shortened paths of the guard comment with the full ones
    /// the log holds, and picks the user's line again from the full paths.
    pub fn resolve_paths(&mut self, paths: &PathResolver) {
        if let Some(loc) = self.location.as_mut() {
            if let Some(full) = paths.resolve(&loc.file) {
                loc.file = full;
            }
        }
        self.source = pick_source(self.location.as_ref(), &self.user_stack);
    }

    /// The guard comment's location when it points into an installed
    /// library (`transformers/models/gpt2/modeling_gpt2.py:542`).
    pub fn library_location(&self) -> Option<&Location> {
        self.location
            .as_ref()
            .filter(|l| owner(&l.file) == Owner::Library && !l.file.starts_with('<'))
    }
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
    fn a_range_bounded_by_torch_and_by_a_user_branch_points_at_the_branch() {
        // tests/scenarios2's checkpoint_memory_budget log (torch 2.14).
        let raw = "0/1: 2 <= tokens.size()[1] <= 128  # return F.embedding(  # nn/modules/sparse.py:189 in forward (user code shown is first use of this value--the guard itself is not due user code but due to 0/1 specialization in the framework; to avoid specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim)) and h = checkpoint(layer, h, use_reentrant=False) if save_memory else layer(h)  # ome/user/proj/checkpoint_memory_budget/train.py:31 in forward (_dynamo/variables/tensor.py:2849 in evaluate_expr)";
        let g = split(raw);
        assert_eq!(g.guard, "2 <= tokens.size()[1] <= 128");
        assert_eq!(
            g.source.as_deref(),
            Some("ome/user/proj/checkpoint_memory_budget/train.py:31")
        );
        assert_eq!(
            g.code.as_deref(),
            Some("h = checkpoint(layer, h, use_reentrant=False) if save_memory else layer(h)")
        );
        assert!(g.hint.unwrap().starts_with("user code shown is first use"));
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
        // The stack's path is the full one: never shortened the way torch does.
        assert_eq!(g.source.as_deref(), Some("/home/u/proj/train.py:41"));
    }

    #[test]
    fn shortened_comment_path_is_resolved_to_the_full_one() {
        let raw = "0/1: self.on == True  # if self.on:  # ome/me/proj/train.py:30 in forward";
        let mut g = split(raw);
        let mut paths = PathResolver::default();
        paths.learn("/v/lib/python3.11/site-packages/torch/_dynamo/convert_frame.py");
        paths.learn("/home/me/proj/train.py");
        g.resolve_paths(&paths);
        assert_eq!(g.source.as_deref(), Some("/home/me/proj/train.py:30"));
        assert_eq!(g.location.unwrap().file, "/home/me/proj/train.py");
    }

    #[test]
    fn library_comment_gives_the_user_frame_and_keeps_the_library_line() {
        let raw = "0/0: ___check_obj_id(self.cfg, 1)  # if self.cfg.use_cache:  # transformers/models/gpt2/modeling_gpt2.py:542 in forward\nUser stack trace:\n  File \"/home/me/train.py\", line 16, in step\n    out = model(ids)\n  File \"/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py\", line 542, in forward\n    if self.cfg.use_cache:";
        let mut g = split(raw);
        let mut paths = PathResolver::default();
        paths.learn("/v/lib/python3.11/site-packages/torch/_dynamo/convert_frame.py");
        paths.learn("/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py");
        g.resolve_paths(&paths);
        assert_eq!(g.source.as_deref(), Some("/home/me/train.py:16"));
        assert_eq!(
            g.library_location().map(Location::short).as_deref(),
            Some("/v/lib/python3.11/site-packages/transformers/models/gpt2/modeling_gpt2.py:542")
        );
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
    fn torch_internal_and_unknown_sites_are_no_source() {
        // Both from real logs: torch 2.15 (SGD + StepLR) and torch 2.11.
        let g = split("2/2: self.param_groups[0]['lr'] == 0.05  # (_dynamo/output_graph.py:3552 in remove_tensorify_specialized_graphargs)");
        assert_eq!(g.guard, "self.param_groups[0]['lr'] == 0.05");
        assert_eq!(g.source, None);
        assert_eq!(g.location.unwrap().file, "_dynamo/output_graph.py");
        let g = split("0/1: ___as_tensor(self.param_groups[0]['lr']).item() == 0.005  # (unknown source ___as_tensor(self.param_groups[0]['lr']).item(), please file a bug)");
        assert_eq!(g.guard, "___as_tensor(self.param_groups[0]['lr']).item() == 0.005");
        assert_eq!((g.code, g.source), (None, None));
    }

    #[test]
    fn two_hints_and_bracket_hints() {
        // Hand-made snippets in the shape of torch 2.11 and newer texts.
        let g = split("0/3: self._modules['b']._forward_hooks[list(dict.keys(self._modules['b']._forward_hooks))[0]].__closure__[1].cell_contents == 7  # stats_op(x, module_id)  # ome/me/hooks.py:40 in hook (HINT: guard on \"module_id\") (HINT: torch.compile considers integer attributes of the nn.Module to be static.)");
        assert!(g.guard.ends_with("__closure__[1].cell_contents == 7"), "{}", g.guard);
        assert_eq!(g.location.as_ref().map(|l| l.line), Some(40));
        assert!(g
            .hint
            .as_deref()
            .unwrap()
            .starts_with("guard on \"module_id\"; torch.compile considers"));
        let g = split("0/1: n2 == 3  # if n2 > 2:  # m.py:5 in f [HINT: guard on \"n2\"]");
        assert_eq!(g.guard, "n2 == 3");
        assert_eq!(g.hint.as_deref(), Some("guard on \"n2\""));
        assert_eq!(g.source.as_deref(), Some("m.py:5"));
    }

    #[test]
    fn text_without_entry_prefix_is_kept_whole() {
        let g = split("GLOBAL_STATE changed: grad_mode ");
        assert_eq!(g.entry, None);
        assert_eq!(g.guard, "GLOBAL_STATE changed: grad_mode");
    }
}
