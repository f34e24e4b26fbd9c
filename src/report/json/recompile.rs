//! One recompile as `--json` shows it: the finding, its cause as the rule
//! table read it, every failed entry's reason, and the judgement.

use crate::analysis::judge::evidence::Evidence;
use crate::analysis::{Finding, Severity, ValueOwner};
use crate::input::rehearsal::Predicted;
use crate::reasons::{Category, GuardChange, GuardFailure, RecompileReason};
use serde::Serialize;

#[derive(Serialize)]
pub struct RecompileView<'a> {
    pub rank: Option<u32>,
    pub compile_id: &'a str,
    pub frame_id: u32,
    pub duration_s: Option<f64>,
    pub reasons: Vec<ReasonView<'a>>,
    pub pid: u64,
    pub run: usize,
    pub function: Option<&'a str>,
    pub failed: bool,
    pub cache_limit: bool,
    /// Index into `reasons` of the failed cache entry that caused this
    /// recompile (the one closest to the new call).
    pub cause_index: Option<usize>,
    pub cause: Option<CauseView<'a>>,
    /// The user's line that called into the compiled code, `file:line`:
    /// the innermost caller on the compile's stack that is neither torch
    /// nor an installed library.
    pub called_from: Option<String>,
    /// Every user frame on that stack, outermost first (the training
    /// loop's line, then the calls inside it).
    pub user_calls: Vec<String>,
    /// The line of the user's code the recompile is about, `{site, from}`
    /// (`from`: `guard`, `graph`, `caller`, `symbol_stack`, `outer_caller`,
    /// `compiled_function`);
    /// null when the log holds no line of the user's code.
    pub user_line: Option<&'a crate::analysis::UserLine>,
    /// "problem" or "expected".
    pub severity: Severity,
    /// Every guarded value that differs between the cause's cache entry and
    /// this compile (empty when the log lacks their guard trees).
    pub changed: Vec<GuardChange>,
    /// Another failed entry was as close to the new call but failed for
    /// another reason: the cause is then a best guess.
    pub cause_ambiguous: bool,
    /// The failed cache entry that caused it, `F/M` (the cause's `entry`).
    pub cause_entry: Option<&'a str>,
    /// Who owns the value that changed: `user_argument`,
    /// `library_argument`, `user_attribute`, `library_attribute`,
    /// `torch_state`, `global`, `closure` or `graph_break_value`.
    pub owner: ValueOwner,
    /// The library method or mechanism that sets it, when known.
    pub owner_set_by: Option<&'a str>,
    /// What in the log decided the severity: `{kind, text}`.
    pub evidence: &'a Evidence,
    /// The fix, as `cause.advice` holds it; here also when the log gives no
    /// reason (`cause` null: a compile again after a failed one).
    pub fix: &'a str,
    /// On a rehearsal's logs: the level that predicted this recompile
    /// (`meta rehearsal`, `eager run`); absent for a real run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted: Option<String>,
    /// Index into `causes` of the cause it shares with other frames' recompiles.
    pub cause_group: usize,
}

#[derive(Serialize)]
pub struct CauseView<'a> {
    pub category: Category,
    /// The stable id of the guard-text form the table read (`tensor.size`),
    /// `unrecognised` or `no_reason`.
    pub form: &'static str,
    /// False when no row read the text: the verdict is "not recognised",
    /// the advice only what the text (torch's HINT) says.
    pub recognised: bool,
    pub culprit: String,
    pub source: Option<String>,
    pub advice: String,
    pub detail: Option<String>,
    pub raw: Option<&'a str>,
    pub entry: Option<&'a str>,
    pub called_from: Option<String>,
    pub called_from_code: Option<String>,
    /// The guard's line when it points into an installed library.
    pub library_line: Option<String>,
    pub changed: Vec<GuardChange>,
}

#[derive(Serialize)]
pub struct ReasonView<'a> {
    pub entry: Option<&'a str>,
    pub raw: &'a str,
    pub guard: &'a str,
    pub source: Option<&'a str>,
    pub hint: Option<&'a str>,
    pub code: Option<&'a str>,
    pub location: Option<String>,
    pub function: Option<&'a str>,
    pub category: Category,
    pub form: &'static str,
    pub recognised: bool,
    pub culprit: String,
    pub advice: String,
    pub detail: Option<String>,
}

pub(super) fn view<'a>(r: &'a Finding<'a>, cause_group: usize, predicted: Option<&Predicted>) -> RecompileView<'a> {
    let cause = r.guard();
    RecompileView {
        rank: r.frame.rank,
        compile_id: &r.compile.compile_id,
        frame_id: r.frame.frame_id,
        duration_s: r.compile.duration_s,
        reasons: r.compile.recompile_reasons.iter().zip(&r.reasons).map(reason).collect(),
        pid: r.frame.pid,
        run: r.frame.run,
        function: r.frame.function.as_deref(),
        failed: r.compile.failed,
        cache_limit: r.compile.cache_limit,
        cause_index: r.cause_index,
        cause: r.logged_cause().map(|c| CauseView {
            category: c.category,
            form: c.form,
            recognised: c.recognised(),
            culprit: c.culprit.clone(),
            source: c.source.clone(),
            advice: c.advice.clone(),
            detail: c.detail.clone(),
            raw: cause.map(|g| g.raw.as_str()),
            entry: cause.and_then(|g| g.entry.as_deref()),
            called_from: c.called_from.clone(),
            called_from_code: c.called_from_code.clone(),
            library_line: c.library_line.clone(),
            changed: c.changed.clone(),
        }),
        called_from: r.called_from.as_ref().map(|s| s.short()),
        user_calls: r.user_calls.iter().map(|s| s.short()).collect(),
        user_line: r.user_line.as_ref(),
        severity: r.severity,
        changed: cause.and_then(|g| g.changes.clone()).unwrap_or_default(),
        cause_ambiguous: r.ambiguous,
        cause_entry: cause.and_then(|g| g.entry.as_deref()),
        owner: r.judgement.ownership.owner,
        owner_set_by: r.judgement.ownership.set_by.as_deref(),
        evidence: &r.judgement.evidence,
        fix: &r.cause.advice,
        predicted: predicted.map(|p| p.level.clone()),
        cause_group,
    }
}

fn reason<'a>((g, c): (&'a GuardFailure, &RecompileReason)) -> ReasonView<'a> {
    ReasonView {
        category: c.category,
        form: c.form,
        recognised: c.recognised(),
        culprit: c.culprit.clone(),
        advice: c.advice.clone(),
        detail: c.detail.clone(),
        entry: g.entry.as_deref(),
        raw: &g.raw,
        guard: &g.guard,
        source: g.source.as_deref(),
        hint: g.hint.as_deref(),
        code: g.code.as_deref(),
        location: g.location.as_ref().map(|l| l.short()),
        function: g.location.as_ref().and_then(|l| l.function.as_deref()),
    }
}
