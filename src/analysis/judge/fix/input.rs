//! What the fix stage is written from, and the openings its parts share
//! ("Expected: ", "Expected once"): a file of its own, so that `fix` and its
//! parts (`shape`, `attribute`) both read it and none reaches back.

use super::follows::Follows;
use crate::analysis::judge::caller::CallerArg;
use crate::analysis::judge::evidence::{Evidence, EvidenceKind};
use crate::analysis::judge::owner::Ownership;
use crate::reasons::{GuardFailure, RecompileReason};

/// What the fix is written from.
pub struct FixInput<'a> {
    /// The cause as the rule table classified it (for a compile refused at
    /// the limit, the reason that filled the cache).
    pub reason: &'a RecompileReason,
    pub guard: Option<&'a GuardFailure>,
    /// Every failure the compile logged, the cause's among them: one can
    /// say what another's value is (a size that is also a dict key).
    pub failures: &'a [GuardFailure],
    pub ownership: &'a Ownership,
    pub evidence: &'a Evidence,
    /// What the caller passed where the guarded argument is, when the
    /// call line shows it.
    pub caller: Option<&'a CallerArg>,
    /// The recompile's compile: its Dynamo config (automatic dynamic
    /// shapes, the recompile limit).
    pub compile: &'a crate::model::Compile,
    /// Another value of the call this one follows, when the frame's other
    /// recompiles show one: the fix is then about that value.
    pub follows: Option<Follows>,
    /// A note on another value the same call changed that then recompiled
    /// the frame again (where that repeat began).
    pub partner: Option<String>,
    /// Another frame of the run whose new entry held this same size change
    /// static (`frame 4 (_pad_to_window_size)`): marking the dim dynamic
    /// would make torch raise there.
    pub pinned_elsewhere: Option<&'a str>,
    /// The frame's recompiles with this one's cause, this one included:
    /// one is a single change, not a set of values seen.
    pub cause_recompiles: usize,
}

/// "Expected: " when the evidence shows the value took a few values, each
/// compiled once.
pub(super) fn expected(input: &FixInput<'_>) -> &'static str {
    match input.evidence.kind {
        EvidenceKind::ChangedOnce | EvidenceKind::OnePerVariant => "Expected: ",
        _ => "",
    }
}

/// Says a hidden-state change cost one compile in this run, when the
/// evidence shows it did not repeat.
pub(super) fn once(input: &FixInput<'_>) -> &'static str {
    match input.evidence.kind {
        EvidenceKind::ChangedOnce => "Expected once here (it did not change again in this log), but avoidable: ",
        // A set of values each compiled once: it may well have changed
        // again (another key, the other mode), so not "once".
        EvidenceKind::OnePerVariant => "Expected (each value compiles once, reused when it returns), but avoidable: ",
        _ => "",
    }
}

pub(super) fn requires_grad_fix(input: &FixInput<'_>) -> String {
    format!(
        "Expected: requires_grad of {} changed (freezing or unfreezing, or a GAN step toggling a model): one compile per setting, reused when it returns. Nothing to undo; set requires_grad before compiling if it changes only once.",
        input.reason.culprit
    )
}
