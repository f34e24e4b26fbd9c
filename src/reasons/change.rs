//! What differs between a failed cache entry and the new compile: each
//! guarded value that changed (`GuardChange`) and how the new compile
//! guards the failed subject (`GuardedNow`). `GuardFailure` carries both,
//! and the guard tree's comparisons fill them in, so they live below both.

use super::culprit::python_name;
use serde::Serialize;
use std::sync::Arc;

/// One guarded value that differs between an old cache entry and the new
/// compile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GuardChange {
    /// The guarded thing as the guard names it (`x.size()`, `grad_mode`).
    pub subject: Arc<str>,
    pub old: Arc<str>,
    pub new: Arc<str>,
}

/// How `new` reads for an entry the new call's shorter list lacks.
const ABSENT: &str = "absent (length ";

impl GuardChange {
    /// An entry of a list that the new call's list, `length` long, lacks:
    /// it differs, though the new compile guards nothing of it.
    pub fn absent(subject: Arc<str>, old: Arc<str>, length: usize) -> GuardChange {
        GuardChange {
            subject,
            old,
            new: Arc::from(format!("{ABSENT}{length})")),
        }
    }

    /// Whether this is an entry the new call's shorter list lacks.
    pub fn is_absent(&self) -> bool {
        self.new.starts_with(ABSENT)
    }

    /// The new compile guards a size or stride of `None`: automatic
    /// dynamic shapes made a dim dynamic there (a consequence of the
    /// recompile, not a cause of it).
    /// A bare `None` is the value None (`x is None` in the new entry),
    /// not a dim.
    pub fn new_is_dynamic(&self) -> bool {
        &*self.new != "None" && self.new.contains("None")
    }

    /// One line for people: `input_ids.size(): [4, 16] -> [4, 24]`,
    /// `grad_mode: true -> false`, `args[0]: a different object`.
    pub fn describe(&self) -> String {
        let mut subject = python_name(&self.subject);
        // `m._forward_hooks[list(dict.keys(...))[0]].__closure__[0].cell_contents.flag`
        if let (Some(hooks), Some(cell)) = (subject.find("._forward"), subject.find(".__closure__[")) {
            let cell_rest = subject[cell + ".__closure__".len()..].replace(".cell_contents", "");
            subject = format!("{} hook closure{cell_rest}", &subject[..hooks]);
        }
        if let Some(inner) = subject.strip_prefix("id(").and_then(|s| s.strip_suffix(')')) {
            return format!("{inner}: a different object");
        }
        if let Some(inner) = super::culprit::typed(&subject) {
            // An entry the new call's shorter list lacks: no type at all.
            if self.is_absent() {
                return format!("{inner}: {}", self.new);
            }
            return format!("{inner}: a different type");
        }
        if let Some(tensor) = subject.strip_suffix(" dispatch keys") {
            let keys = |s: &str| s.split(", ").map(str::to_string).collect::<Vec<_>>();
            let (old, new) = (keys(&self.old), keys(&self.new));
            let added: Vec<String> = new
                .iter()
                .filter(|k| !old.contains(k))
                .map(|k| format!("+{k}"))
                .collect();
            let removed: Vec<String> = old
                .iter()
                .filter(|k| !new.contains(k))
                .map(|k| format!("-{k}"))
                .collect();
            return format!("{tensor} dispatch keys: {}", [added, removed].concat().join(" "));
        }
        let dynamic = if self.new_is_dynamic() && !self.old.contains("None") {
            " (now dynamic)"
        } else {
            ""
        };
        format!("{subject}: {} -> {}{dynamic}", self.old, self.new)
    }
}

/// How the new compile guards the subject its cause entry failed on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "as", content = "value")]
pub enum GuardedNow {
    /// Still a constant of the graph: the next value compiles again.
    Constant(Arc<str>),
    /// Symbolic: a size of `None` at the dim that changed, so later sizes
    /// compile nothing (automatic dynamic shapes).
    Dynamic,
    /// The new entry has no value guard on it (a Python number made
    /// dynamic, or a value the new graph no longer reads).
    Unguarded,
    /// Held symbolically, yet an expression of it is guarded as a
    /// constant (`(1.0 + ((-1)*p)) == 0.95`: an op of the traced code
    /// needed the number), so the next value compiles again. The guard.
    Specialised(Arc<str>),
    /// A value the failed entry held as a Python number or as None that
    /// the new entry guards as a tensor: the call passed a tensor instead.
    Tensor,
}
