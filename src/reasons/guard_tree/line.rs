//! What one line of a guard tree guards, read by its guard kind into the
//! set's `subject -> value` pairs. Subjects are written as `subject.rs`
//! names a failed guard's (locals without `L['..']`), so a failure finds
//! its value in the new compile's set.

use crate::reasons::assignment;
use crate::reasons::culprit::{canonical, strip_locals};
use crate::reasons::guard_site::{self, GuardSite};
use crate::reasons::split::Assignment;
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

/// Where a tree line's guard starts. Searches are built once: building one
/// per line cost more than searching (trees have thousands of lines).
static TREE_BRANCH: LazyLock<memchr::memmem::Finder<'static>> = LazyLock::new(|| memchr::memmem::Finder::new("+- "));

/// `s.split_once(": ")`, by a byte search instead of a substring searcher.
fn split_at_colon_space(s: &str) -> Option<(&str, &str)> {
    let bytes = s.as_bytes();
    let at = memchr::memchr_iter(b':', bytes).find(|&i| bytes.get(i + 1) == Some(&b' '))?;
    Some((&s[..at], &s[at + 2..]))
}

/// Where a line's guards go: the parts of a guard set, lent by its owner,
/// so that reading a line knows nothing of the set it fills.
pub(in crate::reasons) struct LineSink<'s> {
    pub values: &'s mut Vec<(Arc<str>, Arc<str>)>,
    pub root_types: &'s mut BTreeMap<String, String>,
    pub sites: &'s mut Vec<GuardSite>,
    pub assignments: &'s mut Vec<(String, Assignment)>,
}

/// The value of a subject guarded as a tensor (`TENSOR_MATCH`) or as None
/// (`NONE_MATCH`): what it is, for comparing two compiles, not a constant
/// of either graph.
pub const TENSOR_VALUE: &str = "a tensor";
pub const NONE_VALUE: &str = "None";

impl LineSink<'_> {
    fn insert(&mut self, subject: String, value: String) {
        self.values.push((subject.into(), value.into()));
    }

    /// Adds what one line of a guard tree guards (lines that are not
    /// guards add nothing).
    pub(in crate::reasons) fn add_line(&mut self, line: &str) {
        let Some(at) = TREE_BRANCH.find(line.as_bytes()) else {
            return;
        };
        let guard = &line[at + 3..];
        // A traced store's guard holds no value the call changes: only
        // who writes the attribute, for the judge.
        if guard.starts_with(assignment::MARKER) {
            self.assignments.extend(assignment::parse_line(line));
            return;
        }
        // A dict's keys are guarded one by one: its first key's site is
        // enough to say where the dict was read.
        let first_key = guard.starts_with("EQUALS_MATCH: list(dict.keys(") && guard.contains("))[0] ==");
        // A submodule's class, or an attribute's absence, tested in user
        // code: where a guard on its children or on it was read.
        let module_or_attribute = (guard.starts_with("TYPE_MATCH: ___check_type_id(") && guard.contains("._modules['"))
            || guard.starts_with("NO_HASATTR: ");
        if guard.starts_with("TENSOR_MATCH: ") || first_key || module_or_attribute {
            self.sites.extend(guard_site::parse_line(line));
        }
        if let Some(manager) = guard.strip_prefix("GuardManager: source=") {
            self.add_root_type(manager);
            return;
        }
        let Some((kind, body)) = split_at_colon_space(guard) else {
            return;
        };
        let body = crate::reasons::split::guard_test(body);
        match kind {
            "TENSOR_MATCH" => self.add_tensor(body),
            "GLOBAL_STATE" => self.add_global_state(body),
            "ID_MATCH" | "TYPE_MATCH" => self.add_identity(kind, body),
            // What a value is when it is None: the same subject a tensor or a
            // number guard names when it is not, so an argument that was None
            // in one compile and a tensor in the other shows as a change.
            // An object (a cache, a config) is guarded by its type: None in
            // one compile and a DynamicCache in the other is its type too.
            "NONE_MATCH" => {
                if let Some(src) = body.strip_suffix(" is None") {
                    self.insert(canonical(src.trim()), NONE_VALUE.into());
                    self.insert(format!("type id({})", strip_locals(src.trim())), NONE_VALUE.into());
                }
            }
            _ => self.add_comparison(body),
        }
    }

    fn add_root_type(&mut self, manager: &str) {
        let Some(rest) = manager.strip_prefix("L['") else {
            return;
        };
        let Some((name, rest)) = rest.split_once("']") else {
            return;
        };
        // The root itself, not a manager below it (`L['self']._modules[..]`
        // names a submodule's class); the receiver of a compiled bound
        // method (`torch.compile(ema.step)`) is `fn.__self__`.
        let (name, rest) = match rest.strip_prefix("[0]") {
            Some(after) if name == "args" => ("args[0]", after),
            _ => match rest.strip_prefix(".__self__") {
                Some(after) if name == "fn" => ("fn.__self__", after),
                _ => (name, rest),
            },
        };
        if !rest.starts_with(',') {
            return;
        }
        let Some(ty) = rest
            .split_once("type=<class '")
            .and_then(|(_, t)| t.split_once('\''))
            .map(|(t, _)| t)
        else {
            return;
        };
        self.root_types.insert(name.to_string(), ty.to_string());
    }

    /// `check_tensor(SRC, Tensor, DispatchKeySet(...), DTYPE, device=D,
    /// requires_grad=B, size=[..], stride=[..])`.
    fn add_tensor(&mut self, body: &str) {
        let Some(args) = body.strip_prefix("check_tensor(").and_then(|b| b.strip_suffix(')')) else {
            return;
        };
        let Some((src, rest)) = args.split_once(", ") else {
            return;
        };
        let src = strip_locals(src);
        // A tensor, not None (see NONE_MATCH).
        self.insert(src.clone(), TENSOR_VALUE.into());
        let rest = rest.strip_prefix("Tensor, ").unwrap_or(rest);
        let (keys, rest) = match rest.strip_prefix("DispatchKeySet(") {
            Some(r) => match r.split_once("), ") {
                Some((keys, after)) => (Some(keys), after),
                None => (None, r),
            },
            None => (None, rest),
        };
        if let Some(keys) = keys {
            self.insert(format!("{src} dispatch keys"), keys.to_string());
        }
        let mut parts = split_top_level(rest);
        if let Some(first) = parts.first().filter(|p| !p.contains('=')) {
            self.insert(format!("{src}.dtype"), first.to_string());
            parts.remove(0);
        }
        for part in parts {
            if let Some((name, value)) = part.split_once('=') {
                let subject = match name {
                    "size" => format!("{src}.size()"),
                    "stride" => format!("{src}.stride()"),
                    other => format!("{src}.{other}"),
                };
                self.insert(subject, value.to_string());
            }
        }
    }

    /// `___check_global_state() against {"grad_mode":true,...}`.
    fn add_global_state(&mut self, body: &str) {
        let Some((_, json)) = body.split_once(" against ") else {
            return;
        };
        let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(json.trim()) else {
            return;
        };
        for (key, value) in map {
            match value {
                serde_json::Value::Object(inner) => {
                    for (k, v) in inner {
                        self.insert(format!("{key}.{k}"), v.to_string());
                    }
                }
                v => self.insert(key, v.to_string()),
            }
        }
    }

    /// `___check_obj_id(SRC, 1403...)`: the id itself means nothing to a
    /// user, but that it changed does (a new optimizer, a new lambda).
    fn add_identity(&mut self, kind: &str, body: &str) {
        let Some(args) = body
            .strip_prefix("___check_obj_id(")
            .or_else(|| body.strip_prefix("___check_type_id("))
        else {
            return;
        };
        // The source may hold parentheses and commas; the id is the first
        // `, DIGITS)` after it.
        let mut from = 0;
        while let Some(p) = args[from..].find(", ") {
            let start = from + p + 2;
            let digits = args[start..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && args[start + digits..].starts_with(')') {
                let what = if kind == "ID_MATCH" { "id" } else { "type id" };
                let src = strip_locals(&args[..from + p]);
                self.insert(format!("{what}({src})"), args[start..start + digits].to_string());
                return;
            }
            from = start;
        }
    }

    /// `EXPR == VALUE`, `len(X) == N`, `not ___dict_contains('k', D)`.
    fn add_comparison(&mut self, body: &str) {
        if let Some((lhs, rhs)) = body.rsplit_once(" == ") {
            self.insert(canonical(lhs.trim()), rhs.trim().to_string());
        } else if let Some(rest) = body.strip_prefix("not ___dict_contains(") {
            self.insert(format!("___dict_contains({}", strip_locals(rest)), "False".into());
        } else if body.starts_with("___dict_contains(") {
            self.insert(strip_locals(body), "True".into());
        }
    }
}

/// Splits `a, b=[1, 2], c` at commas outside brackets (trimmed; a trailing
/// comma leaves no empty part). Also splits a call's arguments for the
/// judge (`analysis::judge::caller`).
pub(crate) fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in s.char_indices() {
        match ch {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        parts.push(last);
    }
    parts
}
