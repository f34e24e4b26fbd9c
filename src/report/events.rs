//! Compile events: one flat, self-contained record per compile, the form
//! in which the Python helper hands compiles to users (`StepLogger` records,
//! `compile_events()`, `RecompileError`). Unlike the `--json` contract,
//! which is organised by frame, each event carries its frame and its
//! classified cause, so a per-step record needs nothing else to be read.

use super::compile_record::CompileRecord;
use super::format::clip;
use crate::analysis::{Finding, Findings};
use crate::model::{Compile, Frame};
use crate::reasons::{Category, GuardFailure, RecompileReason};
use serde::Serialize;

/// Graph-break texts hold Dynamo's explanation and a user stack; a step
/// record keeps one line, enough to recognise the break.
const GRAPH_BREAK_CHARS: usize = 300;

#[derive(Clone, Debug, Serialize)]
pub struct CompileEvent<'a> {
    #[serde(flatten)]
    pub record: CompileRecord<'a>,
    pub frame_id: u32,
    pub pid: u64,
    /// Increments when `torch._dynamo.reset()` restarts compile ids.
    pub generation: u32,
    /// The frame as `summary` and `steps` name it (`analysis::frame_name`):
    /// `Sequential via inner` where `function` is torch's wrapper `inner`.
    pub name: String,
    pub function: Option<std::sync::Arc<str>>,
    pub file: Option<std::sync::Arc<str>>,
    pub line: Option<u32>,
    /// A compile of a frame after its first (`frame_compile_id > 0`).
    pub recompile: bool,
    /// `duration_s` under the name the Python events had first (documented).
    pub seconds: Option<f64>,
    /// `backward_duration_s` under the name the Python events had first.
    pub backward_seconds: Option<f64>,
    pub graph_breaks: Vec<String>,
    /// Why a recompile happened: the newest failed cache entry, classified.
    pub cause: Option<Cause>,
    /// Every cache entry's failed guard, classified (older causes repeat).
    pub reasons: Vec<Reason>,
    /// Lines of the compile's first and latest event in the log it was
    /// read from: which stretch of the log (so which step) it belongs to.
    pub first_line: u64,
    pub last_line: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Cause {
    pub category: Category,
    pub label: &'static str,
    /// The stable id of the guard-text form (`summary --json`'s `form`).
    pub form: &'static str,
    /// False when guardscope does not read the guard text: the gates count
    /// it whatever their budget (fail closed).
    pub recognised: bool,
    pub culprit: String,
    /// The user's source line of the failed guard, `file.py:LINE` (full path).
    pub source: Option<String>,
    pub code: Option<String>,
    /// The user's line that called into the compiled code (full path).
    pub called_from: Option<String>,
    /// Guarded values that differ between the failed entry and this compile.
    pub changed: Vec<crate::reasons::GuardChange>,
    pub detail: Option<String>,
    pub advice: String,
    pub guard: Option<String>,
    /// The cache entry whose failed guard is the cause, `F/M` (the one
    /// closest to the new call, as `summary --json`'s `cause_entry`).
    pub entry: Option<String>,
    /// "problem" or "expected", judged from the log (as `summary`).
    pub severity: &'static str,
    /// Who owns the value (`summary --json`'s `owner`).
    pub owner: crate::analysis::ValueOwner,
    /// What in the log decided the severity.
    pub evidence: crate::analysis::judge::evidence::Evidence,
    /// The first compile id of the cause it shares with other frames'
    /// recompiles: recompiles with one `group` are one cause (one change
    /// at one call that recompiled every frame graph breaks split a model
    /// into), counted once.
    pub group: Option<String>,
    /// What changed, as every frame that saw it would say it (`dim 1: 16
    /// -> 24`); `summary --json`'s `causes[].change`.
    pub change: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Reason {
    /// The cache entry whose guard failed, `F/M`.
    pub entry: Option<String>,
    pub guard: String,
    pub category: Category,
    pub culprit: String,
    pub source: Option<String>,
    pub raw: String,
}

/// Every compile of the run, frames first (in frame order).
pub fn compile_events<'a>(findings: &'a Findings<'a>) -> Vec<CompileEvent<'a>> {
    findings
        .run
        .compiles()
        .map(|(frame, compile)| event(frame, compile, findings.of(compile), findings.shared_cause(compile)))
        .collect()
}

fn event<'a>(
    frame: &Frame,
    c: &'a Compile,
    finding: Option<&Finding<'_>>,
    shared: Option<&crate::analysis::SharedCause>,
) -> CompileEvent<'a> {
    let recompile = c.frame_compile_id.is_some_and(|n| n > 0);
    let cause = finding.map(|f| cause_view(f, shared));
    let record = CompileRecord::new(c);
    CompileEvent {
        seconds: record.duration_s,
        backward_seconds: record.backward_duration_s,
        record,
        frame_id: frame.frame_id,
        pid: frame.pid,
        generation: frame.generation,
        name: crate::analysis::frame_name(frame),
        function: frame.function.clone(),
        file: frame.file.clone(),
        line: frame.line,
        recompile,
        graph_breaks: c.graph_breaks.iter().map(|t| graph_break_line(t)).collect(),
        cause,
        reasons: match finding {
            Some(f) => c.recompile_reasons.iter().zip(&f.reasons).map(reason).collect(),
            None => Vec::new(),
        },
        first_line: c.log_line,
        last_line: c.last_log_line,
    }
}

fn cause_view(f: &Finding<'_>, shared: Option<&crate::analysis::SharedCause>) -> Cause {
    let r = f.cause.clone();
    Cause {
        category: r.category,
        label: r.category.label(),
        form: r.form,
        recognised: r.recognised(),
        culprit: r.culprit,
        source: r.source,
        code: r.code,
        called_from: r.called_from,
        changed: r.changed,
        detail: r.detail,
        advice: r.advice,
        guard: f.guard().map(|g| g.guard.clone()),
        entry: f.guard().and_then(|g| g.entry.clone()),
        severity: f.severity.name(),
        owner: f.judgement.ownership.owner,
        evidence: f.judgement.evidence.clone(),
        group: shared.and_then(|c| c.compile_ids.first().cloned()),
        change: shared.map(|c| c.change.clone()),
    }
}

fn reason((g, c): (&GuardFailure, &RecompileReason)) -> Reason {
    Reason {
        entry: g.entry.clone(),
        guard: g.guard.clone(),
        category: c.category,
        culprit: c.culprit.clone(),
        source: c.source.clone(),
        raw: g.raw.clone(),
    }
}

/// `<what broke> at <file>:<line>` from Dynamo's text, which reads
/// "Graph break in user code at F:L", "Graph Break Reason: <boilerplate>",
/// then the specific reason; other texts give their first line.
fn graph_break_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    let line = match first.strip_prefix("Graph break in user code at ") {
        Some(at) => {
            let mut rest = lines.skip_while(|l| !l.starts_with("Graph Break Reason:"));
            let reason_line = rest.next();
            let headline = rest
                .next()
                .or(reason_line.map(|r| r.trim_start_matches("Graph Break Reason:").trim()));
            match headline {
                Some(h) => format!("{h} at {at}"),
                None => first.to_string(),
            }
        }
        None => first.to_string(),
    };
    clip(&line, GRAPH_BREAK_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_break_text_gives_its_reason_and_place_within_bounds() {
        // The shape of torch 2.15's dynamo_graph_break_reason payload.
        let text = "Graph break in user code at /m.py:36\nGraph Break Reason: Encountered graph break when \
                    attempting to trace CALL: a function call:\n\nUnsupported Tensor.item() call\n  Explanation: x";
        assert_eq!(graph_break_line(text), "Unsupported Tensor.item() call at /m.py:36");
        assert_eq!(
            graph_break_line("\n  Unsupported: print\nUser stack"),
            "Unsupported: print"
        );
        let long = "é".repeat(400);
        let cut = graph_break_line(&long);
        assert_eq!(cut.chars().count(), GRAPH_BREAK_CHARS + 1);
        assert!(cut.ends_with('…'));
    }
}
