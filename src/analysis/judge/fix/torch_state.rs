//! The fix for torch's own state: inference tensors, hook dicts,
//! parametrize's cache, requires_grad, grad mode and the like.

use super::input::{requires_grad_fix, FixInput};
use crate::analysis::judge::owner::is_inference_change;
use crate::reasons::culprit::python_name;
use crate::reasons::Category;

pub(super) fn torch_state_fix(input: &FixInput<'_>) -> String {
    let r = input.reason;
    let g = input.guard.map(|g| g.guard.as_str()).unwrap_or("");
    if input.guard.is_some_and(is_inference_change) {
        let tensor = python_name(crate::reasons::subject::guarded_tensor(g).unwrap_or("the input"));
        return format!(
            "Not a device change: {tensor} was made under torch.inference_mode() (an inference tensor, without autograd keys) where the graph was compiled for a normal tensor, or the reverse: one compile per kind. Make the inputs the same way for every call (outside inference_mode, or run every call under it); if both kinds are intended, it is one compile each."
        );
    }
    if g.contains("parametrize") {
        return "torch.nn.utils.parametrize.cached() fills a cache the compiled code reads: one compile with it and one without, reused afterwards. Call the compiled model always inside, or always outside, parametrize.cached().".to_string();
    }
    if r.category == Category::RequiresGrad {
        return requires_grad_fix(input);
    }
    r.advice.clone()
}

/// Hooks added or removed after compiling: what to do about it, whoever
/// registered them.
pub(super) fn hooks_fix() -> String {
    "Expected once: a hook was added, removed or replaced after compiling (handle.remove() changes the module's hook dict): one compile per set of hooks, and removing the hook recompiles once. To switch a hook off and on, keep it registered and make it skip its work through state read outside the traced region (guardscope's trace_activations(...).disable() compiles nothing).".to_string()
}
