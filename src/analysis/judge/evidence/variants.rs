//! Variants the evidence stage reads as a few values, each compiled once:
//! the objects a method runs on and classes passed as values, a library's
//! or torch's modes, a setting a library makes on the first call.

use super::facts::Facts;
use crate::analysis::judge::guard_text;
use crate::analysis::judge::owner::{ValueOwner, Via};
use crate::reasons::culprit::canonical;
use crate::reasons::subject::{function_mode_state, size_shrank};
use crate::reasons::Category;

/// Why another function's code is one of a few variants.
pub(super) const FUNCTION_CODE: &str = "another function (another definition in the source: its code object is made once, where it is defined) compiled once for it, reused when it returns; functions are as few as their definitions";

/// An identity guard on the object a method runs on, or on a class passed
/// as a value, seen once: instances a method is called on and classes are
/// few, each compiled once. A new object every call shows up as a repeat.
/// A function's code, compiled once per definition.
pub(super) fn few_objects(f: &Facts<'_>) -> Option<String> {
    let g = f.guard?;
    // A function's code is made once, where it is defined: another code is
    // another definition in the source, and definitions are few, however
    // often one is made again (a lambda in a loop keeps its code).
    if f.category == Category::FunctionIdentity {
        return Some(FUNCTION_CODE.into());
    }
    if f.category != Category::ObjectId || f.same_cause.len() >= 2 {
        return None;
    }
    let guard = crate::reasons::culprit::canonical(&g.guard);
    if crate::reasons::classify::another_module(g) {
        return Some("another model object reached the frame torch.compile shares between models: one entry per model, compiled once each; it did not repeat in this log".into());
    }
    if crate::reasons::subject::receiver_identity(&guard) {
        return Some("the method ran on another instance, compiled once for it; it did not repeat in this log (a new instance every call would)".into());
    }
    if guard.contains("type=<class 'type'>") {
        return Some(
            "another class was passed, compiled once for it; classes are few, and it did not repeat in this log".into(),
        );
    }
    None
}

/// A library's mode (an adapter, an attention implementation, a cache
/// setting), `train()`/`eval()`, or a freeze: modes are few and return.
pub(super) fn mode_switch(f: &Facts<'_>) -> bool {
    let guard = f.guard.map(|g| g.guard.as_str()).unwrap_or("");
    // A tensor's size is no mode, whoever owns the tensor.
    matches!(
        f.ownership.owner,
        ValueOwner::LibraryAttribute | ValueOwner::LibraryArgument | ValueOwner::TorchState
    ) && !guard.contains("param_groups[")
        && !guard.trim_start().starts_with("tensor '")
        // A number takes more values than a mode has: what the log shows
        // next decides, as for any other number.
        && !guard_text::numeric(guard)
        || guard.contains(".training")
        || guard.contains("___dict_contains('forward'")
        || matches!(f.category, Category::RequiresGrad)
}

/// A value a library sets once, on the first call (`config.problem_type`).
pub(super) fn first_call_setting(f: &Facts<'_>) -> bool {
    f.ownership.owner == ValueOwner::LibraryAttribute
        && f.guard.is_some_and(|g| {
            g.guard.contains("problem_type")
                // The entry was compiled while it was None (`X is None`
                // failed) and the library's own traced code assigns it:
                // a cache it fills on the first call.
                || (canonical(&g.guard).trim_end().ends_with(" is None")
                    && matches!(f.ownership.via, Some(Via::OwnAssignment(_))))
                || g.changes
                    .iter()
                    .flatten()
                    .any(|c| &*c.old == "None" && &*c.new != "None")
        })
}

/// What changed, for state the compiled code reads that changed while
/// running: a mode's, a hook's, or a buffer (grown by forward, or resized
/// outside the compiled code when it got smaller and no traced line
/// assigns it).
pub(super) fn changed_state(f: &Facts<'_>, hook: bool) -> &'static str {
    if f.guard.is_some_and(|g| function_mode_state(&g.guard)) {
        "a torch-function mode's own state (its __torch_function__ changes it as ops run)"
    } else if hook {
        "a hook's state"
    } else if f
        .guard
        .is_some_and(|g| g.assigned_at.is_none() && size_shrank(&g.guard).is_some())
    {
        "a buffer your code resized outside the compiled function (it got smaller)"
    } else {
        "a buffer your forward grows or reassigns"
    }
}
