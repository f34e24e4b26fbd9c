//! The fix for an attribute a library's own code sets: a mode it switches,
//! a parameter it resizes, a count it keeps, a setting it makes on the
//! first call. Never an edit of the library's code.

use super::input::{requires_grad_fix, FixInput};
use crate::analysis::judge::evidence::EvidenceKind;
use crate::analysis::judge::owner::Via;
use crate::reasons::Category;

pub(super) fn library_attribute_fix(input: &FixInput<'_>) -> String {
    let r = input.reason;
    let who = input.ownership.set_by.as_deref().unwrap_or("a library");
    // Its own code filled it in on the first call (a cache it keeps):
    // nothing for the user to set, before compiling or after.
    if let (Some(Via::OwnAssignment(a)), EvidenceKind::FirstCall) = (&input.ownership.via, input.evidence.kind) {
        // A field of the model's config is also the user's to set first.
        let avoid = r
            .culprit
            .split_once(".config.")
            .map(|(_, field)| format!(" To avoid even this one, set it before compiling (model.config.{field} = ...)."))
            .unwrap_or_default();
        return format!(
            "Expected once: {who}'s own code set {} on the first call (`{}`), after the first compile read it unset: one recompile, and no later compile failed on its being set. No action needed.{avoid}",
            r.culprit, a.code
        );
    }
    match r.category {
        Category::OptimizerHyperparam => {
            let lr = r.culprit.contains("['lr']");
            if input.evidence.kind == EvidenceKind::ChangedOnce {
                let avoid = if lr {
                    "give the optimizer its lr as a tensor (torch.optim.AdamW(params, lr=torch.tensor(1e-3))), so a change is a tensor update"
                } else {
                    "set it before compiling the optimizer step, or compile only the model and leave opt.step() uncompiled"
                };
                return format!(
                    "Expected once: {} changed once while training and the compiled optimizer step reads it as a constant: one recompile, none while it stays. No action needed; to avoid even this one, {avoid}.",
                    r.culprit
                );
            }
            if input.evidence.kind == EvidenceKind::BecameDynamic {
                "Expected once here: the scheduler changed the optimizer's lr and torch made it dynamic at this recompile (the new entry no longer guards its value), so later values compiled nothing in this run. To avoid even this recompile (other optimizers and torch versions keep lr static and compile every value), give the optimizer its lr as a tensor: torch.optim.AdamW(params, lr=torch.tensor(1e-3)).".to_string()
            } else {
                r.advice.clone()
            }
        }
        // A library model's parameters frozen or unfrozen (`requires_grad_`
        // on its encoder): a setting, not a resize.
        Category::RequiresGrad => requires_grad_fix(input),
        _ if input
            .guard
            .is_some_and(|g| crate::reasons::subject::size_mismatch_dim(&g.guard).is_some()) =>
        {
            format!(
            "Expected once: {who} (resize_token_embeddings after adding tokens, or another that rebuilds a layer) gave {} another size, and parameter shapes are compiled static: one recompile for each such change, none while the size stays. No action needed; to avoid it, make the change before torch.compile (add the tokens and resize first).",
            r.culprit
        )
        }
        // Unset (None) until the library's forward filled it in: lazy
        // initialisation, not a number a setting could make dynamic.
        Category::NnModuleAttr
            if input.evidence.kind == EvidenceKind::FirstCall
                && input.guard.is_some_and(|g| crate::reasons::guard_test(&g.guard).ends_with(" is None")) =>
        {
            format!(
                "Expected once: {who} filled in {} on the first call (lazy initialisation: the first compile read it unset): one recompile, and no later compile failed on it. No action needed; a warm-up call before compiling avoids even this one.",
                r.culprit
            )
        }
        Category::NnModuleAttr if input.evidence.kind == EvidenceKind::FirstCall => r.advice.clone(),
        // A count or state the library's own code advances, which torch now
        // holds symbolically: the change cost one compile, the next none.
        _ if input.evidence.kind == EvidenceKind::BecameDynamic => format!(
            "Expected once: {who} changed {} as it runs (state its own code keeps), and torch made it dynamic at this recompile, so later values compile nothing. No action needed.",
            r.culprit
        ),
        // Only a public setting is the user's to set first; a private
        // attribute (`self._step_index`) is state the library keeps.
        _ if input.evidence.kind == EvidenceKind::FirstCall => {
            let private = r
                .culprit
                .rsplit(['.', '['])
                .next()
                .is_some_and(|a| crate::analysis::judge::guard_text::private_name(a.trim_start_matches('\'')));
            let avoid = if private {
                " No action needed: it is state the library keeps, not a setting of yours."
            } else {
                " Set it before compiling so it never changes."
            };
            format!("Expected once: {who} set {} on the first call.{avoid}", r.culprit)
        }
        // Not a mode: the library's code changes it at every call (a count
        // it keeps), so the fix is to keep that call out of the graph. A
        // value that filled the frame's cache is no mode either.
        _ if matches!(
            input.evidence.kind,
            EvidenceKind::Repeats | EvidenceKind::LimitHit | EvidenceKind::LimitRaised
        ) =>
        {
            let at = input
                .guard
                .and_then(|g| g.source.as_deref())
                .map(|s| format!(" (your call at {})", s.rsplit(['/', '\\']).next().unwrap_or(s)))
                .unwrap_or_default();
            let unspec = if input.guard.is_some_and(crate::analysis::judge::guard_text::module_int_hint) {
                " For an int attribute of an nn.Module, torch._dynamo.config.allow_unspec_int_on_nn_module = True makes it dynamic instead (one more recompile, none after)."
            } else {
                ""
            };
            // The value is written by the library's own code as it runs
            // (the log quotes the store): name that line, and never ask
            // the user to set the library's state.
            if let Some(Via::OwnAssignment(a)) = &input.ownership.via {
                return format!(
                    "{who}'s own code assigns {} as the compiled code runs (`{}`){at}, and the compiled code reads it back as a constant: each new value it writes compiles again, until the recompile limit. It is {who}'s state, not a setting to change: if it follows your inputs (a cache of their length, say), pad or bucket them to a few sizes so that each value compiles once and is reused, or keep that module outside the compiled function (torch.compiler.disable on it).{unspec}",
                    r.culprit, a.code
                );
            }
            // State behind a property the line reads (Lightning's
            // self.global_step): named by the property, not by the library's
            // internal path, which the user never wrote.
            if let Some(holder) = who.strip_suffix(" (behind a property your code reads)") {
                let property = input
                    .guard
                    .and_then(|g| g.code.as_deref())
                    .and_then(public_attribute_of_self)
                    .map_or_else(|| "a property".to_string(), |p| format!("self.{p}"));
                return format!(
                    "Your line reads {property}, a property whose value {holder} keeps and advances at every call{at}; the compiled code reads it as a constant, so each new value compiles again, until the recompile limit. Read it outside the compiled function and pass it in as a tensor (torch.tensor(value)), or keep the code that needs it outside the compiled function.{unspec}"
                );
            }
            format!(
                "The code of {who} changes {} at every call{at} and the compiled code reads it as a constant: each new value compiles again, until the recompile limit. Keep that library call outside the compiled function (call it on the outputs the compiled function returns), or wrap it with torch.compiler.disable.{unspec}",
                r.culprit
            )
        }
        _ => format!(
            "Expected: {who} switched {} (a mode of the library, not a value you pass): one compile per mode, reused when the mode returns. No action needed in your calls; to avoid compiling at the switch, compile after switching, or keep one compiled model per mode.",
            r.culprit
        ),
    }
}

/// The first `self.name` a line reads that is a public attribute, not a
/// call (`self.global_step` of `level = base / (1 + self.global_step)`).
fn public_attribute_of_self(code: &str) -> Option<&str> {
    code.match_indices("self.").find_map(|(at, _)| {
        // `self.`, not the end of another name (`myself.`).
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
            return None;
        }
        let rest = &code[at + "self.".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let call = rest[end..].starts_with('(');
        (!name.is_empty() && !name.starts_with('_') && !call).then_some(name)
    })
}
