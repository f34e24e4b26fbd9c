//! Which line of a cache entry's guard tree a recompile reason names: the
//! failed guard, for the report to highlight. Reasons spell guards as
//! the tree does up to `L[...]` and torch version details (`canonical`);
//! tensor failures name the tensor (`tensor 'x' size mismatch ...`), whose
//! guard is the tree's `TENSOR_MATCH` line for it; a changed global state
//! is its `GLOBAL_STATE` line.

use super::culprit::{canonical, strip_locals};
use super::split::{guarded_tensor, GuardFailure};

/// Whether `line` (one line of a `dynamo_cpp_guards_str` tree) is the guard
/// that `failure` reports as failed.
pub fn guard_line_failed(line: &str, failure: &GuardFailure) -> bool {
    let Some(at) = line.find("+- ") else {
        return false;
    };
    let Some((kind, body)) = line[at + 3..].split_once(": ") else {
        return false;
    };
    let guard = failure.guard.trim();
    if let Some(tensor) = guarded_tensor(guard) {
        return kind == "TENSOR_MATCH"
            && body
                .strip_prefix("check_tensor(")
                .and_then(|b| b.split_once(", "))
                .is_some_and(|(src, _)| strip_locals(src) == strip_locals(tensor));
    }
    if guard.starts_with("GLOBAL_STATE changed") {
        return kind == "GLOBAL_STATE";
    }
    if kind == "GuardManager" || kind == "TENSOR_MATCH" || kind == "GLOBAL_STATE" {
        return false;
    }
    let code = body.split("  # ").next().unwrap_or(body).trim_end();
    let wanted = guard.split("  # ").next().unwrap_or(guard).trim_end();
    code == wanted || canonical(code) == canonical(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons::split;

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
