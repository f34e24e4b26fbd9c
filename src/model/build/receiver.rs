//! What a compile's guard tree says of the object the frame was compiled
//! for: its class, and whether it is an nn.Module.

use crate::reasons::GuardSet;

/// The class the frame was compiled for: the method's receiver (`self`, or
/// `fn.__self__` where torch.compile wrapped a bound method), the wrapped
/// function's, or a wrapper's first argument's; None for a plain value.
pub(super) fn compiled_class(set: &GuardSet) -> Option<&str> {
    ["self", "fn.__self__", "fn", "args[0]"]
        .iter()
        .find_map(|root| set.root_types.get(*root))
        .map(String::as_str)
        .filter(|ty| !ty.starts_with("builtins.") && !is_plain_python_type(ty))
}

/// Whether the compiled method's receiver is an nn.Module, by the module
/// state the tree guards on it; None when the frame has no receiver.
pub(super) fn receiver_is_module(set: &GuardSet, lines: &str) -> Option<bool> {
    let receiver = ["self", "fn.__self__"]
        .into_iter()
        .find(|r| set.root_types.contains_key(*r))?;
    const MODULE_STATE: [&str; 7] = [
        "._modules",
        "._parameters",
        "._buffers",
        "._forward_hooks",
        ".training",
        ".__dict__['_modules']",
        ".__dict__['_parameters']",
    ];
    let root = match receiver {
        "self" => "L['self']",
        _ => "L['fn'].__self__",
    };
    // One pass over the tree's mentions of the receiver, not one per kind.
    Some(
        lines
            .match_indices(root)
            .any(|(at, m)| MODULE_STATE.iter().any(|s| lines[at + m.len()..].starts_with(s))),
    )
}

/// A class that is a value, not what was compiled (a wrapper's `fn` can be
/// a plain function, its `args[0]` a tensor).
fn is_plain_python_type(ty: &str) -> bool {
    !ty.contains('.')
        || matches!(
            ty,
            "functools.partial" | "torch.Tensor" | "torch.nn.parameter.Parameter"
        )
}
