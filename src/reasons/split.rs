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

/// A line the compile traced that assigns an attribute (`self.cached_len =
/// n`), read from the guard Dynamo installs before tracing the store
/// (`reasons::assignment`): who writes a value, where the guard on it says
/// only who reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assignment {
    pub code: String,
    pub location: Location,
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
    /// Where the compiled code itself assigns the guarded attribute (from
    /// the failed entry's guard tree): a library's forward that keeps a
    /// cache writes what the guard then fails on.
    pub assigned_at: Option<Assignment>,
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

/// A guard's test without the `  # source line  # file:line` comment Dynamo
/// appends to it, trimmed. Every reader of a guard's code goes through this
/// one cut, so a torch version that spells the comment differently is
/// handled here.
pub fn guard_test(text: &str) -> &str {
    text.split("  #").next().unwrap_or(text).trim()
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
        assigned_at: None,
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
    /// Replaces the shortened paths of the guard comment (and of the store
    /// that assigns the guarded attribute) with the full ones
    /// the log holds, and picks the user's line again from the full paths.
    pub fn resolve_paths(&mut self, paths: &PathResolver) {
        let assigned = self.assigned_at.as_mut().map(|a| &mut a.location);
        for loc in self.location.as_mut().into_iter().chain(assigned) {
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
mod tests;
