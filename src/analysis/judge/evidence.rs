//! What the log shows happened after a recompile: the second stage of
//! judging it. Whether a recompile matters is read from the rest of the
//! log, not from its category: did torch make the value dynamic (the new
//! entry's guards hold it symbolically), did the same cause compile the
//! frame again, did the frame hit the recompile limit, did the call break a
//! range the user declared, or is it one of a bounded set of variants
//! (train/eval, an adapter, prefill/decode, sizes 0 and 1) each compiled
//! once.

use super::guard_text::{
    declared_range, numeric, pinned, size_modulus, small_size, traced_bound, value_or_none_test, zero_one_bound,
    zero_one_change,
};
use super::owner::ValueOwner;
use super::verdict::Severity;
use crate::reasons::subject::{function_mode_state, size_relation};
use crate::reasons::{Category, GuardedNow};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// Dynamo refused the compile: the frame runs eagerly from here.
    LimitHit,
    /// The refusal raised into the user's call (`FailOnRecompileLimitHit`).
    LimitRaised,
    /// The recompile's own compile failed (it raised, or Dynamo gave the
    /// frame up): no entry was cached, so nothing became dynamic, whatever
    /// the next compile shows.
    CompileFailed,
    /// A size outside the range the user declared with `mark_dynamic`.
    DeclaredRange,
    /// The same cause compiled the frame again (and would go on).
    Repeats,
    /// One rank recompiled where most ranks did not.
    RankAlone,
    /// `automatic_dynamic_shapes` is off: every new size compiles.
    StaticShapes,
    /// State the user's code changes while running, read inside the
    /// compiled code, still a constant of the new graph.
    HiddenState,
    /// A number or object the new entry still holds as a constant: the
    /// next value compiles again.
    StaysSpecialised,
    /// Torch made it dynamic: later values compile nothing.
    BecameDynamic,
    /// One of a bounded set of variants, compiled once each.
    OnePerVariant,
    /// A size changed with automatic dynamic shapes on, yet the new entry
    /// holds the dim static: `mark_static`, or an op that specialises it.
    Pinned,
    /// State created or set once, on the first call.
    FirstCall,
    /// State the user's code changed once while running, read inside the
    /// compiled code as a constant; no later compile failed on it.
    ChangedOnce,
    /// Compiled once; no later compile failed on it.
    DidNotRecur,
    /// No row of the table reads the guard text: nothing is known of the
    /// value, so it counts as a problem until someone reads the text.
    NotRecognised,
}

impl EvidenceKind {
    pub fn name(self) -> &'static str {
        match self {
            EvidenceKind::LimitHit => "limit_hit",
            EvidenceKind::LimitRaised => "limit_raised",
            EvidenceKind::CompileFailed => "compile_failed",
            EvidenceKind::DeclaredRange => "declared_range",
            EvidenceKind::Repeats => "repeats",
            EvidenceKind::RankAlone => "rank_alone",
            EvidenceKind::StaticShapes => "static_shapes",
            EvidenceKind::HiddenState => "hidden_state",
            EvidenceKind::StaysSpecialised => "stays_specialised",
            EvidenceKind::BecameDynamic => "became_dynamic",
            EvidenceKind::Pinned => "pinned",
            EvidenceKind::OnePerVariant => "one_per_variant",
            EvidenceKind::FirstCall => "first_call",
            EvidenceKind::ChangedOnce => "changed_once",
            EvidenceKind::DidNotRecur => "did_not_recur",
            EvidenceKind::NotRecognised => "not_recognised",
        }
    }

    /// The verdict this evidence gives.
    pub fn severity(self) -> Severity {
        match self {
            EvidenceKind::LimitHit
            | EvidenceKind::LimitRaised
            | EvidenceKind::CompileFailed
            | EvidenceKind::DeclaredRange
            | EvidenceKind::Repeats
            | EvidenceKind::RankAlone
            | EvidenceKind::StaticShapes
            | EvidenceKind::HiddenState
            | EvidenceKind::StaysSpecialised
            | EvidenceKind::Pinned
            | EvidenceKind::NotRecognised => Severity::Problem,
            EvidenceKind::BecameDynamic
            | EvidenceKind::OnePerVariant
            | EvidenceKind::FirstCall
            | EvidenceKind::ChangedOnce
            | EvidenceKind::DidNotRecur => Severity::Expected,
        }
    }
}

/// What decided a recompile's severity, in words that finish "because ...".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub kind: EvidenceKind,
    pub text: String,
    /// A size the new entry still holds static (pinned) that no later
    /// compile of the frame failed on: one per variant, which the fix stage
    /// and the cross-recompile stage tell from a pin that repeats. The JSON
    /// contract keeps the kind `one_per_variant`.
    #[serde(skip)]
    pub pinned_once: bool,
    /// For a repeat, what fixed the value to a number again after torch
    /// made it dynamic: marking it dynamic cannot help there. The frame is
    /// None where the log names no line (the traced code did).
    #[serde(skip)]
    pub fixed_by: Option<FixedBy>,
}

impl Evidence {
    pub fn new(kind: EvidenceKind, text: impl Into<String>) -> Self {
        Evidence {
            kind,
            text: text.into(),
            pinned_once: false,
            fixed_by: None,
        }
    }

    fn pinned_once() -> Self {
        Evidence {
            pinned_once: true,
            ..Evidence::new(
                EvidenceKind::OnePerVariant,
                "the new entry still holds the dim static (something pins it), but no later compile of this frame failed on it: each size seen compiled once and was reused",
            )
        }
    }
}

/// The evidence for one recompile, strongest first: the limit, a declared
/// range, a static-shapes config, a repeat, then what the new entry holds.
pub fn evidence(f: &Facts<'_>) -> Evidence {
    let c = f.compile;
    if c.fail_type
        .as_deref()
        .is_some_and(|t| t.contains("FailOnRecompileLimitHit"))
    {
        return Evidence::new(
            EvidenceKind::LimitRaised,
            "the frame hit the recompile limit and the call raised FailOnRecompileLimitHit",
        );
    }
    if c.cache_limit {
        return Evidence::new(
            EvidenceKind::LimitHit,
            "Dynamo refused this compile at the recompile limit: the frame runs eagerly from here on",
        );
    }
    let guard = f.guard.map(|g| g.guard.as_str()).unwrap_or("");
    if let Some(at) = f.filled_limit {
        return Evidence::new(
            EvidenceKind::Repeats,
            format!("the same cause filled the frame's cache: Dynamo refused {at} at the recompile limit"),
        );
    }
    // Fail closed: a text no row reads gets no verdict of its own (no
    // "a flag", no "made dynamic"); the gates count it.
    if !f.recognised && f.guard.is_some() {
        return Evidence::new(
            EvidenceKind::NotRecognised,
            format!(
                "not recognised: guardscope has no reading of this guard text, so it cannot say whether it recurs; counted as a problem. The raw text: {}",
                guard.trim()
            ),
        );
    }
    if let Some(range) = f.guard.and_then(|g| declared_range(g, f.declared)) {
        return Evidence::new(EvidenceKind::DeclaredRange, range);
    }
    // A compile that failed is judged as one, not by what the log shows
    // next (a declared range it broke, above, is the more exact reason):
    // its entry never existed, so a later compile with the same value is
    // no reuse, and nothing it would have made dynamic is.
    if c.failed && c.finished {
        return Evidence::new(EvidenceKind::CompileFailed, failed_compile(c));
    }
    match no_reason::no_reason(f) {
        Some(NoReason::Retry(why)) => return Evidence::new(EvidenceKind::CompileFailed, why),
        Some(NoReason::OtherRegion(why)) => return Evidence::new(EvidenceKind::OnePerVariant, why),
        None => {}
    }
    // Made symbolic, then pinned again by an expression the traced code
    // needed as a number: the next value compiles again.
    if let Some(GuardedNow::Specialised(expr)) = f.guard.and_then(|g| g.now.as_ref()) {
        return Evidence::new(
            EvidenceKind::Pinned,
            format!(
                "torch held the value symbolically, but the traced code needs a number made from it (an op's argument), so the new entry guards `{expr}`: each new value compiles again"
            ),
        );
    }
    let shape = matches!(f.category, Category::ShapeInput | Category::ShapeLazyBuffer);
    if shape && c.automatic_dynamic == Some(false) && !small_size(guard) {
        if let Some(why) = bounded(f) {
            return Evidence::new(EvidenceKind::OnePerVariant, why);
        }
        return Evidence::new(
            EvidenceKind::StaticShapes,
            "automatic_dynamic_shapes is off in this compile's config: the dim stays static and every new size compiles again",
        );
    }
    // A repeat whose new entry torch had made symbolic until a line of the
    // traced code needed it as a number (`for v in probes:`, `cot[:,
    // target] = 1.0`) and fixed it: the log names what pins it. Seen once,
    // the pin is judged below (one new size compiled once is no repeat).
    let repeats = f.same_cause.len() >= 2 && bounded(f).is_none();
    if let Some((why, pin)) = repeats.then(|| traced_pin(f)).flatten() {
        return Evidence {
            fixed_by: Some(pin),
            ..Evidence::new(EvidenceKind::Repeats, why)
        };
    }
    if repeats {
        return Evidence::new(
            EvidenceKind::Repeats,
            format!(
                "the same cause compiled this frame {} times ({})",
                f.same_cause.len(),
                f.same_cause.join(", ")
            ),
        );
    }
    // A size that is a key of a dict (one graph per key) is pinned by the
    // lookup, and bounded: not this.
    if let Some(g) = f
        .guard
        .filter(|g| shape && pinned(g, c.automatic_dynamic) && bounded(f).is_none())
    {
        // Pinned, and yet what the log shows next is no other size: no later
        // compile of the frame failed on it, so the few sizes seen (a short
        // last chunk, one width per data source) each compiled once and were
        // reused.
        if f.same_cause.len() < 2 {
            return Evidence::pinned_once();
        }
        if g.guard.contains("Guard failed on a parameter") {
            return Evidence::new(
                EvidenceKind::Pinned,
                format!(
                    "the size changed ({}) and automatic dynamic shapes are on, yet the new entry still holds dim {} static: the tensor is an nn.Parameter (the guard says so) and torch keeps parameter shapes static (force_parameter_static_shapes), so each new size compiles again",
                    g.guard.split(". ").nth(1).unwrap_or("").trim(),
                    crate::reasons::subject::size_mismatch_dim(&g.guard).unwrap_or(0)
                ),
            );
        }
        return Evidence::new(
            EvidenceKind::Pinned,
            format!(
                "the size changed ({}) and automatic dynamic shapes are on, yet the new entry still holds dim {} static: something pins it (torch._dynamo.mark_static on that dim, a Parameter under force_parameter_static_shapes, or an op in the traced code that specialises the size, as under vmap), so each new size compiles again",
                g.guard.split(". ").nth(1).unwrap_or("").trim(),
                crate::reasons::subject::size_mismatch_dim(&g.guard).unwrap_or(0)
            ),
        );
    }
    let now = f.guard.and_then(|g| g.now.as_ref());
    let dynamic = match now {
        Some(GuardedNow::Dynamic) => true,
        // A container's length is never made dynamic: unguarded, it was
        // read another way (its keys), not turned symbolic.
        Some(GuardedNow::Unguarded) => (numeric(guard) || shape) && !guard.trim_start().starts_with("len("),
        _ => false,
    };
    // A bound the traced code put on a dynamic size (a branch on it) that
    // this call crossed: one graph per side, not a dim made dynamic here.
    let crossed = f.form == "value.symbolic_relation"
        || f.guard.is_some_and(|g| {
            (traced_bound(g) || size_modulus(&g.guard).is_some() || size_relation(&g.guard))
                && !g.guard.trim_start().starts_with("tensor '")
        });
    if dynamic
        && !f.guard.is_some_and(value_or_none_test)
        && !small_size(guard)
        && !f.guard.is_some_and(|g| zero_one_bound(g, &f.compile.recompile_reasons))
        && f.guard.is_none_or(|g| zero_one_change(g).is_none())
        && !crossed
    {
        return Evidence::new(
            EvidenceKind::BecameDynamic,
            "the new entry guards it symbolically (torch made it dynamic): later values compile nothing",
        );
    }
    if f.category == Category::OptimizerState
        && (guard.contains("['params']") || guard.contains("len(self.param_groups)"))
    {
        return Evidence::new(
            EvidenceKind::FirstCall,
            "the parameters the optimizer updates changed (a .grad appeared: a layer was unfrozen, or a group was added): one compile per change, and no later compile failed on it",
        );
    }
    if matches!(f.category, Category::OptimizerState) || first_call_setting(f) {
        return Evidence::new(
            EvidenceKind::FirstCall,
            "state set once, on the first call; no later compile failed on it",
        );
    }
    // A library's model that rebuilt one of its own layers (a resized
    // embedding): one compile per rebuild, and the log shows no other.
    if f.ownership.owner == ValueOwner::LibraryAttribute && guard.trim_start().starts_with("tensor '") {
        let held = match now {
            Some(GuardedNow::Constant(v)) => format!(" (the new entry guards its size as {v})"),
            _ => String::new(),
        };
        return Evidence::new(
            EvidenceKind::ChangedOnce,
            format!("a method of the library's model changed the size of its own parameter once{held}; no later compile of this frame failed on it"),
        );
    }
    let mode = mode_switch(f);
    if f.ownership.owner.is_hidden_state() && !mode {
        let held = match now {
            Some(GuardedNow::Constant(v)) if guard.starts_with("tensor '") => {
                format!(" (the new entry guards its size as {v})")
            }
            Some(GuardedNow::Constant(v)) => format!(" (the new entry guards it == {v})"),
            _ => String::new(),
        };
        // A hook is instrumentation: it must add no compile at all, so its
        // state read inside the graph is a problem even when seen once. A
        // buffer the forward grows itself grows again with the next longer
        // input: the compiled code changes the state it guards on.
        let hook = f.category == Category::ClosureHookState
            || f.guard.is_some_and(|g| g.in_hook || function_mode_state(&g.guard));
        let grown_in_forward = f.category == Category::ShapeLazyBuffer;
        if hook || grown_in_forward {
            let what = variants::changed_state(f, hook);
            return Evidence::new(
                EvidenceKind::HiddenState,
                format!(
                    "{what} changed while running and the compiled code reads it as a constant{held}: each change compiles again"
                ),
            );
        }
        if let Some(why) = bounded(f) {
            return Evidence::new(EvidenceKind::OnePerVariant, why);
        }
        return Evidence::new(
            EvidenceKind::ChangedOnce,
            format!(
                "your code changed it once while running and the compiled code reads it as a constant{held}; no later compile of this frame failed on it, so it cost one recompile here (each further change would compile again)"
            ),
        );
    }
    if let Some(why) = bounded(f) {
        return Evidence::new(EvidenceKind::OnePerVariant, why);
    }
    // A library's code shared by its layers, handed another layer's
    // parameter: parameter shapes compile static, one graph per shape, and
    // no later compile of the frame failed on it.
    if shape
        && guard.contains("_parameters[")
        && f.ownership.owner == ValueOwner::LibraryArgument
        && f.same_cause.len() < 2
    {
        return Evidence::new(
            EvidenceKind::OnePerVariant,
            "the library's code was handed another layer's parameter (another shape; parameter shapes compile static): one compile per shape, and no later compile of this frame failed on it",
        );
    }
    // A module the user's code hands the frame (`attend(x, stage)`), whose
    // parameter has another shape: another module, compiled once for it.
    if shape && crate::reasons::subject::argument_module_parameter(guard) && f.same_cause.len() < 2 {
        return Evidence::new(
            EvidenceKind::OnePerVariant,
            "another module was passed in (its parameter has another shape; parameter shapes compile static): one compile per module, and no later compile of this frame failed on it",
        );
    }
    if let Some(why) = few_objects(f) {
        return Evidence::new(EvidenceKind::OnePerVariant, why);
    }
    // An optimizer setting your code or a scheduler changed, seen once:
    // what the log shows next is no other change.
    if let Some(GuardedNow::Constant(v)) = now.filter(|n| {
        guard.contains("param_groups[")
            && f.same_cause.len() < 2
            && matches!(n, GuardedNow::Constant(v) if v.trim().parse::<f64>().is_ok())
    }) {
        return Evidence::new(
            EvidenceKind::ChangedOnce,
            format!("the optimizer's setting changed once (the new entry holds it as {v}); no later compile of this frame failed on it, so it cost one recompile (a scheduler that keeps changing it would show as repeats)"),
        );
    }
    if let Some(GuardedNow::Constant(v)) = now {
        // What the log shows next decides: no later compile of the frame
        // failed on it, so the values seen (a list of 4 or of 3 feature
        // maps) each compiled once and were reused.
        // Only a plain value: an object's identity (a new object each call)
        // and torch's own bookkeeping (`___as_tensor(...).item()`) are not
        // a set of values that return.
        let literal = v.trim().parse::<f64>().is_ok()
            || matches!(v.trim(), "True" | "False" | "None")
            || v.trim().starts_with('\'');
        if f.same_cause.len() < 2 && literal && !guard.contains("___check_obj_id") && !guard.contains("id(") {
            return Evidence::new(
                EvidenceKind::OnePerVariant,
                format!("the new entry holds it as a constant ({v}), but no later compile of this frame failed on it: each value seen compiled once and was reused (a new value would compile again)"),
            );
        }
        return Evidence::new(
            EvidenceKind::StaysSpecialised,
            format!("the new entry still holds it as a constant ({v}): the next value compiles again"),
        );
    }
    Evidence::new(
        EvidenceKind::DidNotRecur,
        "compiled once; no later compile of this frame failed on it",
    )
}

mod bounded;
mod facts;
mod no_reason;
mod traced_pin;
pub use bounded::{bounded, open_string, OPEN_STRINGS};
use no_reason::{failed_compile, NoReason};
mod variants;
pub use facts::Facts;
use traced_pin::traced_pin;
pub use traced_pin::FixedBy;
use variants::{few_objects, first_call_setting, mode_switch};

#[cfg(test)]
mod tests;
