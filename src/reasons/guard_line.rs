//! Which line of a cache entry's guard tree a recompile reason names: the
//! failed guard, for the report to highlight. Reasons spell guards as
//! the tree does up to `L[...]` and torch version details (`canonical`);
//! tensor failures name the tensor (`tensor 'x' size mismatch ...`), whose
//! guard is the tree's `TENSOR_MATCH` line for it; a changed global state
//! is its `GLOBAL_STATE` line.
//!
//! Trees run to thousands of lines per compile and every line is tried
//! against every failure of the frame, so both sides are prepared once:
//! a failure's wanted spelling up front, a line's canonical spelling only
//! when a plain comparison did not decide (it costs two regex passes).

use super::culprit::{canonical, strip_locals};
use super::split::GuardFailure;
use super::subject::guarded_tensor;
use std::cell::OnceCell;

/// A recompile's failed guard, spelled as the tree line it looks for: whether
/// a line of a `dynamo_cpp_guards_str` tree is the guard a reason reports
/// as failed.
pub struct FailedGuard<'a> {
    wanted: Wanted<'a>,
}

enum Wanted<'a> {
    /// The tree's `TENSOR_MATCH` line of this tensor (locals stripped).
    Tensor(String),
    GlobalState,
    /// A guard's code, as logged and in its canonical spelling.
    Code {
        text: &'a str,
        canonical: String,
    },
}

impl<'a> FailedGuard<'a> {
    pub fn new(failure: &'a GuardFailure) -> Self {
        let guard = failure.guard.trim();
        let wanted = if let Some(tensor) = guarded_tensor(guard) {
            Wanted::Tensor(strip_locals(tensor))
        } else if guard.starts_with("GLOBAL_STATE changed") {
            Wanted::GlobalState
        } else {
            let text = crate::reasons::split::guard_test(guard);
            Wanted::Code {
                text,
                canonical: canonical(text),
            }
        };
        FailedGuard { wanted }
    }

    /// Whether `line` is this guard.
    pub fn names(&self, line: &TreeLine<'_>) -> bool {
        let Some((kind, body)) = line.guard else {
            return false;
        };
        match &self.wanted {
            Wanted::Tensor(tensor) => {
                kind == "TENSOR_MATCH"
                    && line
                        .tensor
                        .get_or_init(|| {
                            body.strip_prefix("check_tensor(")
                                .and_then(|b| b.split_once(", "))
                                .map(|(src, _)| strip_locals(src))
                        })
                        .as_ref()
                        .is_some_and(|src| src == tensor)
            }
            Wanted::GlobalState => kind == "GLOBAL_STATE",
            Wanted::Code { .. } if matches!(kind, "GuardManager" | "TENSOR_MATCH" | "GLOBAL_STATE") => false,
            Wanted::Code {
                text,
                canonical: wanted,
            } => {
                let code = crate::reasons::split::guard_test(body);
                code == *text || *line.canonical.get_or_init(|| canonical(code)) == *wanted
            }
        }
    }
}

/// One line of a guard tree, split into its guard kind and body once.
pub struct TreeLine<'a> {
    guard: Option<(&'a str, &'a str)>,
    tensor: OnceCell<Option<String>>,
    canonical: OnceCell<String>,
}

impl<'a> TreeLine<'a> {
    pub fn new(line: &'a str) -> Self {
        let guard = line.find("+- ").and_then(|at| line[at + 3..].split_once(": "));
        TreeLine {
            guard,
            tensor: OnceCell::new(),
            canonical: OnceCell::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons::split;

    fn guard_line_failed(line: &str, failure: &GuardFailure) -> bool {
        FailedGuard::new(failure).names(&TreeLine::new(line))
    }

    // Guard lines of real torch 2.15 trees (tests/corpus, samples/traces).
    const STEP: &str = "| | +- EQUALS_MATCH: L['self'].step == 0                                           # self.step += 1  # ome/user/proj/module_step_counter/train.py:14 in forward";
    const TENSOR: &str = "| +- TENSOR_MATCH: check_tensor(L['args'][0], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, requires_grad=False, size=[4, 8], stride=[8, 1])  # x  # a.py:3 in f";
    const GLOBAL: &str = "| +- GLOBAL_STATE: ___check_global_state() against {\"grad_mode\":true}";

    #[test]
    fn reasons_find_their_guard() {
        let step = split("0/0: self.step == 0                                           # self.step += 1  # ome/user/proj/module_step_counter/train.py:14 in forward");
        assert!(guard_line_failed(STEP, &step));
        assert!(!guard_line_failed(TENSOR, &step));
        let tensor = split("0/0: tensor 'args[0]' size mismatch at index 0. expected 4, actual 8");
        assert!(guard_line_failed(TENSOR, &tensor));
        assert!(!guard_line_failed(STEP, &tensor));
        let global = split("0/0: GLOBAL_STATE changed: grad_mode ");
        assert!(guard_line_failed(GLOBAL, &global));
        assert!(!guard_line_failed(STEP, &global));
    }
}
