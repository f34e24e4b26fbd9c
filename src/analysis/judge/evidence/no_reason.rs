//! The evidence of a compile the log gives no guard failure for: a retry
//! after the frame's previous compile failed, or the first compile of
//! another compiled region of the same function.

use super::facts::Facts;

/// Why a compile with no guard failure compiled.
pub(super) enum NoReason {
    /// The frame's previous compile failed (the evidence's words).
    Retry(String),
    /// Another compiled region's first compile (the evidence's words).
    OtherRegion(&'static str),
}

/// Why no guard failed, when none did and the log shows why.
pub(super) fn no_reason(f: &Facts<'_>) -> Option<NoReason> {
    if f.guard.is_some() {
        return None;
    }
    // The frame had no entry, because its previous compile failed; this
    // call compiled it again, and so will the next call that reaches the
    // failing code.
    if let Some(prev) = f.retry_of {
        return Some(NoReason::Retry(format!(
            "no guard failed: the frame's previous compile, {}, failed{}, so no entry was cached and this call compiled the frame again; calls that reach the failing code fail again",
            prev.compile_id,
            error_of(prev)
        )));
    }
    // The frame had entries, and torch logged no failure of any: this call
    // did not check them (a region of its own).
    f.other_region.then_some(NoReason::OtherRegion(
        "no guard failed and torch logged no reason, although the frame had compiled entries: this call did not check them, as when one function is compiled by more than one torch.compile call with isolate_recompiles=True (each keeps its own entries; torch 2.14 and later) or under other compile options; one compile per compiled region, reused by that region's later calls",
    ))
}

/// "the compile failed (ValueError: ...)": the error's type and first line.
pub(super) fn failed_compile(c: &crate::model::Compile) -> String {
    format!(
        "this recompile's compile failed{}: no entry was cached, so nothing became dynamic and nothing is reused: that call ran eagerly or raised, and so does the next one like it",
        error_of(c)
    )
}

/// " (ValueError: ...)": a failed compile's error type and first line.
fn error_of(c: &crate::model::Compile) -> String {
    let first = c
        .fail_reason
        .as_deref()
        .and_then(|r| r.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(|l| l.chars().take(200).collect::<String>());
    match (c.fail_type.as_deref(), first) {
        (Some(t), Some(l)) if !l.starts_with(t) => format!(" ({t}: {l})"),
        (_, Some(l)) => format!(" ({l})"),
        (Some(t), None) => format!(" ({t})"),
        (None, None) => String::new(),
    }
}
