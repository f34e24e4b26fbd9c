//! The `--json` contract. Other tools rely on these field names: extend
//! them, never rename or remove them (documented in the README).

use super::compile_record::CompileRecord;

mod recompile;
use crate::analysis::{frame_name, Cost, CulpritGroup, Findings, FrameRef, RankDifference, Totals};
use crate::input::rehearsal::{self, Predicted};
use crate::input::ProblemKind;
use crate::model::{Breakdown, CacheCounts, Compile, Frame, RunInfo};
pub use recompile::{CauseView, ReasonView, RecompileView};
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
            .map(|(r, &cause_group)| recompile::view(r, cause_group, predicted.as_ref()))
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
