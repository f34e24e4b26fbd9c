//! One recompile and what caused it: the unit every view and the culprit
//! groups read, apart from `Findings` (the run analysed), which builds it.

use super::cause::{CallSite, UserLine};
use super::judge::judgement::Judgement;
use super::judge::verdict::Severity;
use crate::model::{Compile, Frame};
use crate::reasons::{GuardFailure, RecompileReason};

/// One recompile and what caused it.
pub struct Finding<'r> {
    pub frame: &'r Frame,
    pub compile: &'r Compile,
    /// Each failed entry's reason classified, in log (cache) order.
    pub reasons: Vec<RecompileReason>,
    /// Index into `reasons` (and the compile's `recompile_reasons`) of the
    /// entry that caused the recompile: the one closest to the new call.
    pub cause_index: Option<usize>,
    /// The cause: that entry's reason, `cache_limit` for a compile Dynamo
    /// refused, "unknown" when the log has no reason; with the call site.
    pub cause: RecompileReason,
    pub severity: Severity,
    /// Who owns the changed value and what in the log decided the severity.
    pub judgement: Judgement,
    /// Another entry was as close to the new call but failed for another
    /// kind of reason: the cause is then a best guess.
    pub ambiguous: bool,
    pub called_from: Option<CallSite>,
    /// Every user frame of the compile's stack, outermost first.
    pub user_calls: Vec<CallSite>,
    /// The line of the user's code this recompile is about, and where the
    /// log gave it; None when the log holds no line of the user's code.
    pub user_line: Option<UserLine>,
}

impl<'r> Finding<'r> {
    /// The raw guard failure of the cause, when the log has one.
    pub fn guard(&self) -> Option<&'r GuardFailure> {
        self.cause_index.map(|i| &self.compile.recompile_reasons[i])
    }

    /// The category of the cause entry's own reason (for a compile refused
    /// at the limit, what filled the cache, not `cache_limit`).
    pub fn cause_category(&self) -> crate::reasons::Category {
        self.cause_index
            .map_or(self.cause.category, |i| self.reasons[i].category)
    }

    /// The cause as the log states it: None when the log holds no reason
    /// (the `--json` contract's `cause: null`), where `cause` says "unknown".
    pub fn logged_cause(&self) -> Option<&RecompileReason> {
        (self.cause_index.is_some() || self.compile.cache_limit).then_some(&self.cause)
    }
}
