//! The fix for a value that follows another one the same call passed: one
//! graph per value of that other one, so the advice is about it, not about
//! the value whose guard happened to fail first.

/// What the frame's other recompiles showed the value follows.
pub enum Follows {
    /// A number an op takes as a Python number, or one the call passed and
    /// the entry holds as a constant (the evidence's words).
    Number(String),
    /// Another string the call passed that the entry holds as a constant
    /// (its change, described).
    String(String),
}

pub(super) fn follows_fix(follows: &Follows) -> String {
    match follows {
        Follows::Number(why) => format!(
            "Expected: {why}. No action needed while its values are a fixed few (stages, levels); a tensor cannot replace a number an op takes. To have one graph, compute what needs the number outside the compiled function and pass the result in."
        ),
        Follows::String(string) => format!(
            "Expected: this call also passed another string ({string}), which the compiled code holds as a constant: one graph per string, each compiled once and reused when it returns, and the tensors differ with it. No action needed while the strings are a fixed few; to share one graph, compile the code that calls this function (the whole model) rather than the function called with each string."
        ),
    }
}
