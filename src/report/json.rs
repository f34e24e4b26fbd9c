//! The `--json` contract. Other tools rely on these field names: extend
//! them, never rename or remove them (documented in the README).

use super::compile_record::CompileRecord;
use crate::analysis::judge::evidence::Evidence;
use crate::analysis::{
    frame_name, Cost, CulpritGroup, Findings, FrameRef, RankDifference, Severity, Totals, ValueOwner,
};
use crate::input::rehearsal::{self, Predicted};
use crate::input::ProblemKind;
use crate::model::{Breakdown, CacheCounts, Compile, Frame, RunInfo};
use crate::reasons::{Category, GuardChange, GuardFailure, RecompileReason};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

#[derive(Serialize)]
pub struct SummaryDocument<'a> {
    pub version: &'static str,
    /// What the inputs were: `trace` (TORCH_TRACE logs) or `text` (Dynamo's
    /// TORCH_LOGS lines in a job's stderr; with any trace log, `mixed`).
    pub source: &'static str,
    /// For a run read from text: what the text held, what it lacks and the
    /// command that records it; absent for trace logs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_log: Option<crate::report::text_log::TextLogView>,
    /// A rehearsal's logs (`guardscope rehearse`, `guardscope.rehearse`):
    /// every finding is predicted, by this level; absent for a real run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted: Option<Predicted>,
    pub totals: Totals,
    pub frames: Frames<'a>,
    /// The frames matched across ranks: one per compiled function.
    pub frame_groups: FrameGroups<'a>,
    pub recompiles: Vec<RecompileView<'a>>,
    /// Recompiles grouped by culprit, most expensive first.
    pub culprits: Vec<CulpritGroup>,
    /// The recompiles' causes, each once: one change that recompiled
    /// several frames at one call (or every rank) is one; `recompiles[].cause_group` indexes it.
    pub causes: &'a [crate::analysis::SharedCause],
    pub compiled_autograd: Vec<CompileView<'a>>,
    pub inputs: Vec<InputView<'a>>,
    pub problems: ProblemsView,
    /// Every run in the inputs, oldest first; a frame's `run` indexes it.
    pub runs: &'a [RunInfo],
    /// Guard checks, compile cache hits and misses, eager fallbacks.
    pub cost: &'a Cost,
    /// Each distinct graph break (same reason at the same user line) once,
    /// most logged first: the list the summary text and the report show.
    pub graph_breaks: Vec<GraphBreakView<'a>>,
    /// Frames that run eagerly, not compiled (skipped, failed, over the
    /// recompile limit): the summary's "Not compiled" list.
    pub eager_frames: &'a [crate::analysis::EagerFrame],
}

#[derive(Serialize)]
pub struct GraphBreakView<'a> {
    pub reason: &'a str,
    /// The user's `file:line` (full path), null when the log names none.
    pub user_line: Option<&'a str>,
    pub user_code: Option<&'a str>,
    /// Where Dynamo broke, when inside a library rather than at `user_line`.
    pub library_line: Option<&'a str>,
    /// The graph-break registry id as logged (`gb0124`), when the log has one.
    pub registry_id: Option<&'a str>,
    /// torch's `Hint:` lines: what to change (those that only ask to report
    /// the break to PyTorch left out).
    pub hints: &'a [String],
    /// Times the log holds it (a frame re-logs its breaks at each recompile).
    pub count: usize,
    pub compile_ids: &'a [String],
    pub frames: &'a [FrameRef],
}

#[derive(Serialize)]
pub struct FrameView<'a> {
    pub rank: Option<u32>,
    pub frame_id: u32,
    pub function: Option<&'a str>,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    pub pid: u64,
    pub generation: u32,
    pub run: usize,
    pub compiles: Compiles<'a>,
}

/// The run's frames, each made into its view as it is written: a fleet's
/// run has 10^5-10^6 frames, and their views held at once cost more than
/// the frames.
pub struct Frames<'a>(&'a [Frame]);

impl Serialize for Frames<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|f| FrameView {
            rank: f.rank,
            frame_id: f.frame_id,
            function: f.function.as_deref(),
            file: f.file.as_deref(),
            line: f.line,
            pid: f.pid,
            generation: f.generation,
            run: f.run,
            compiles: Compiles(&f.compiles),
        }))
    }
}

pub struct Compiles<'a>(&'a [Compile]);

impl Serialize for Compiles<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(compile))
    }
}

/// The frame groups, each made into its view as it is written (see `Frames`).
pub struct FrameGroups<'a>(&'a Findings<'a>);

impl Serialize for FrameGroups<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(frame_groups(self.0))
    }
}

/// One compiled function with every rank's copy of it.
#[derive(Serialize)]
pub struct FrameGroupView<'a> {
    pub frame_id: u32,
    pub generation: u32,
    pub run: usize,
    pub name: String,
    pub function: Option<&'a str>,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    /// Ranks that compiled it (empty for a log without ranks).
    pub ranks: Vec<u32>,
    /// Indices into `frames` of its copies, one per process.
    pub frames: Vec<usize>,
    /// Compiles of the copy most ranks had.
    pub typical_compiles: usize,
    /// The slowest copy's compile seconds (ranks compile side by side).
    pub slowest_seconds: f64,
    pub summed_seconds: f64,
    /// The copies that compiled differently from most ranks.
    pub differing: &'a [RankDifference],
}

#[derive(Serialize)]
pub struct CompileView<'a> {
    #[serde(flatten)]
    pub record: CompileRecord<'a>,
    pub compiled_autograd_id: Option<u32>,
    pub breakdown: Breakdown,
    pub guard_count: Option<u64>,
    pub graph_op_count: Option<u64>,
    pub graph_breaks: usize,
    pub guard_latency_us: Option<f64>,
    pub caches: CacheCounts,
}

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

#[derive(Serialize)]
pub struct InputView<'a> {
    pub path: &'a str,
    pub rank: Option<u32>,
    pub pids: &'a [u64],
    pub run: Option<usize>,
    pub start: Option<f64>,
    pub lines: u64,
    pub bytes: u64,
    pub envelopes: u64,
    pub kinds: &'a BTreeMap<String, u64>,
    pub md5_ok: u64,
    pub md5_mismatch: u64,
    pub md5_unchecked: u64,
}

#[derive(Serialize)]
pub struct ProblemsView {
    pub count: u64,
    pub first: Vec<String>,
    pub by_kind: BTreeMap<ProblemKind, u64>,
}

pub fn summary<'a>(findings: &'a Findings<'a>) -> SummaryDocument<'a> {
    let run = findings.run;
    let predicted = rehearsal::find(run.inputs.iter().map(|i| i.path.as_str()));
    let text_inputs = run.inputs.iter().filter(|i| i.stats.text.is_some()).count();
    SummaryDocument {
        version: env!("CARGO_PKG_VERSION"),
        source: match text_inputs {
            0 => "trace",
            n if n == run.inputs.len() => "text",
            _ => "mixed",
        },
        text_log: run.text_log().map(crate::report::text_log::TextLogView::new),
        predicted: predicted.clone(),
        totals: findings.totals.clone(),
        frames: Frames(&run.frames),
        frame_groups: FrameGroups(findings),
        recompiles: findings
            .recompiles
            .iter()
            .zip(&findings.cause_of)
            .map(|(r, &cause_group)| {
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
                    predicted: predicted.as_ref().map(|p| p.level.clone()),
                    cause_group,
                }
            })
            .collect(),
        culprits: findings.culprits.clone(),
        causes: &findings.causes,
        compiled_autograd: run.compiled_autograd.iter().map(compile).collect(),
        inputs: run
            .inputs
            .iter()
            .map(|i| InputView {
                path: &i.path,
                rank: i.rank,
                pids: &i.stats.pids,
                run: i.run,
                start: i.start,
                lines: i.stats.lines,
                bytes: i.stats.bytes,
                envelopes: i.stats.envelopes,
                kinds: &i.stats.kinds,
                md5_ok: i.stats.md5_ok,
                md5_mismatch: i.stats.md5_mismatch,
                md5_unchecked: i.stats.md5_unchecked,
            })
            .collect(),
        problems: ProblemsView {
            count: run.problems.count,
            first: run.problems.first.iter().map(ToString::to_string).collect(),
            by_kind: run.problems.by_kind.clone(),
        },
        runs: &run.runs,
        cost: &findings.cost,
        eager_frames: &findings.eager_frames,
        graph_breaks: findings
            .graph_breaks
            .iter()
            .map(|g| GraphBreakView {
                reason: &g.reason,
                user_line: g.user_line.as_deref(),
                user_code: g.user_code.as_deref(),
                library_line: g.library_line.as_deref(),
                registry_id: g.registry_id.as_deref(),
                hints: &g.hints,
                count: g.count,
                compile_ids: &g.compile_ids,
                frames: &g.frames,
            })
            .collect(),
    }
}

fn frame_groups<'a>(findings: &'a Findings<'a>) -> impl Iterator<Item = FrameGroupView<'a>> + 'a {
    let frames = &findings.run.frames;
    // Where a copy sits in `frames`, from its address: copies are borrowed
    // from there (a map of 10^6 addresses would be its own memory peak).
    let index = move |f: &Frame| {
        let i = (std::ptr::from_ref(f).addr().wrapping_sub(frames.as_ptr().addr())) / size_of::<Frame>().max(1);
        frames.get(i).filter(|g| std::ptr::eq(*g, f)).map(|_| i)
    };
    findings.frames.iter().map(move |g| {
        let f = g.first();
        FrameGroupView {
            frame_id: f.frame_id,
            generation: f.generation,
            run: f.run,
            name: frame_name(f),
            function: f.function.as_deref(),
            file: f.file.as_deref(),
            line: f.line,
            ranks: g.ranks().collect(),
            frames: g.copies.iter().filter_map(|c| index(c)).collect(),
            typical_compiles: g.typical_compiles,
            slowest_seconds: g.slowest_seconds(),
            summed_seconds: g.summed_seconds(),
            differing: &g.differing,
        }
    })
}

fn compile(c: &Compile) -> CompileView<'_> {
    CompileView {
        record: CompileRecord::new(c),
        compiled_autograd_id: c.compiled_autograd_id,
        breakdown: c.breakdown(),
        guard_count: c.guard_count,
        graph_op_count: c.graph_op_count,
        graph_breaks: c.graph_breaks.len(),
        guard_latency_us: c.guard_latency_us,
        caches: c.caches(),
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
