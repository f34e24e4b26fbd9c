//! Everything the views say about a run, analysed once per command. The
//! terminal summary, `--json`, the HTML page, `check` and the Python
//! compile events all borrow one `Findings`: every recompile with each
//! failed entry's reason classified once, the cause picked among them, its
//! severity, call site and guard diff; culprit groups, counts by category,
//! lone ranks, distinct graph breaks and totals. Renderers read it; they do not classify.

use super::cause::{cause_index, context, entry_distance_ties, frame_call_site, user_calls, user_line, BreakCallers};
use super::cost::{cost, Cost};
use super::culprits::{group, CulpritGroup};
use super::finding::Finding;
use super::frame_groups::{compare_copies, group_frames, wall_clock_seconds, FrameGroup};
use super::graph_breaks::{distinct, GraphBreak};
use super::judge::{judge_frame, Judgement, Severity};
use super::ranks::{lone_ranks, LoneRank};
use super::{totals::totals, totals::Totals};
use crate::model::{Compile, Frame, Run};
use crate::reasons::classify;
use crate::reasons::{Category, RecompileReason};
use std::collections::{BTreeMap, HashMap};

pub struct Findings<'r> {
    pub run: &'r Run,
    pub totals: Totals,
    /// The frames, each rank's copies of one function as one group.
    pub frames: Vec<FrameGroup<'r>>,
    /// Every recompile, frames in run order, compiles in id order.
    pub recompiles: Vec<Finding<'r>>,
    /// Recompiles grouped by frame and culprit: problems first, then by cost.
    pub culprits: Vec<CulpritGroup>,
    /// Recompiles per cause category, most first (ties by category order).
    pub by_category: Vec<(Category, usize)>,
    pub lone_ranks: Vec<LoneRank>,
    /// The causes of the recompiles, each once: one change that
    /// recompiled several frames (or every rank) is one, in the order
    /// each first happened.
    pub causes: Vec<super::shared_causes::SharedCause>,
    /// For each of `recompiles`, the index of its cause in `causes`.
    pub cause_of: Vec<usize>,
    /// The entries of a list of fixes, as indexes into `culprits`: the
    /// groups of different frames one cause recompiled are one entry.
    pub fix_entries: Vec<Vec<usize>>,
    /// Distinct graph breaks (by reason and user line), most logged first.
    pub graph_breaks: Vec<GraphBreak<'r>>,
    /// Guard checks, cache hits and misses, eager fallbacks.
    pub cost: Cost,
    /// Frames Dynamo did not compile (skipped, failed, over the recompile
    /// limit), each once, in run order.
    pub eager_frames: Vec<super::eager::EagerFrame>,
    /// Compile (by address) -> index into `recompiles`.
    index: HashMap<*const Compile, usize>,
}

impl<'r> Findings<'r> {
    /// The finding of one compile, if it is a recompile.
    pub fn of(&self, compile: &Compile) -> Option<&Finding<'r>> {
        self.index
            .get(&(compile as *const Compile))
            .map(|&i| &self.recompiles[i])
    }

    /// The cause a recompile shares with other frames' recompiles.
    pub fn shared_cause(&self, compile: &Compile) -> Option<&super::shared_causes::SharedCause> {
        let i = *self.index.get(&(compile as *const Compile))?;
        self.causes.get(self.cause_of[i])
    }
}

pub fn analyse(run: &Run) -> Findings<'_> {
    let groups = group_frames(run);
    let lone = lone_ranks(run, &groups);
    let mut recompiles = Vec::new();
    let pins = super::judge::run_pins::pinned_sizes(run);
    let breaks = BreakCallers::of_run(run);
    for frame in &run.frames {
        let start = recompiles.len();
        for compile in frame
            .compiles
            .iter()
            .filter(|c| c.frame_compile_id.is_some_and(|n| n > 0))
        {
            recompiles.push(finding(frame, compile, &breaks));
        }
        judge_frame(&mut recompiles[start..], &pins);
    }
    let mut counts: BTreeMap<Category, usize> = BTreeMap::new();
    for f in &recompiles {
        *counts.entry(f.cause.category).or_default() += 1;
    }
    let mut by_category: Vec<(Category, usize)> = counts.into_iter().collect();
    by_category.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let index = recompiles
        .iter()
        .enumerate()
        .map(|(i, f)| (f.compile as *const Compile, i))
        .collect();
    let graph_breaks = distinct(run);
    let mut causes: HashMap<*const Frame, Vec<Category>> = HashMap::new();
    for f in &recompiles {
        causes
            .entry(f.frame as *const Frame)
            .or_default()
            .push(f.cause.category);
    }
    let frames = compare_copies(groups, |f| {
        causes.get(&(f as *const Frame)).cloned().unwrap_or_default()
    });
    mark_recompiles_most_ranks_did_not_have(&frames, &mut recompiles);
    let (causes, cause_of) = super::shared_causes::shared_causes(&recompiles);
    let mut totals = totals(run);
    totals.recompile_causes = causes.len();
    totals.graph_breaks = graph_breaks.len();
    totals.frames = frames.len();
    totals.compile_wall_seconds = wall_clock_seconds(run);
    let culprits = group(&recompiles);
    let fix_entries = super::shared_causes::fix_entries(&culprits, &causes);
    Findings {
        run,
        totals,
        frames,
        graph_breaks,
        culprits,
        fix_entries,
        causes,
        cause_of,
        recompiles,
        by_category,
        lone_ranks: lone,
        cost: cost(run),
        eager_frames: super::eager::eager_frames(run),
        index,
    }
}

/// A rank recompiling when most do not stalls the others at the next
/// collective, whatever the cause: each recompile of a rank's copy beyond
/// what most ranks' copies had (by cause, counted) is a problem. The
/// recompiles it shares with the others keep their own severity (every
/// rank's train -> eval recompile stays expected).
fn mark_recompiles_most_ranks_did_not_have(frames: &[FrameGroup<'_>], recompiles: &mut [Finding<'_>]) {
    for g in frames {
        for d in &g.differing {
            let Some(copy) = g.copies.iter().find(|f| f.rank == Some(d.rank)) else {
                continue;
            };
            let mut shared = d.typical_causes.clone();
            for r in recompiles.iter_mut().filter(|r| std::ptr::eq(r.frame, *copy)) {
                match shared.iter().position(|c| *c == r.cause.category) {
                    Some(i) => {
                        shared.remove(i);
                    }
                    None => {
                        r.severity = Severity::Problem;
                        let (advice, evidence) = super::ranks::rank_alone(d.rank, &r.cause.advice);
                        r.cause.advice = advice;
                        r.judgement.evidence = evidence;
                    }
                }
            }
        }
    }
}

pub(super) fn finding<'r>(frame: &'r Frame, compile: &'r Compile, breaks: &BreakCallers) -> Finding<'r> {
    let ctx = context(frame, compile);
    let reasons = classify::classify_all(&compile.recompile_reasons, &ctx);
    let cause_index = cause_index(compile);
    let chosen = cause_index.map(|i| reasons[i].clone());
    let mut cause = if compile.cache_limit {
        crate::reasons::limit::cache_limit(chosen)
    } else {
        chosen.unwrap_or_else(|| unknown(compile))
    };
    if cause.source.is_none() {
        if let Some((site, code)) = cause_index.and_then(|i| super::cause::same_value_line(frame, compile, i)) {
            cause.source = Some(site);
            cause.code = cause.code.take().or(code);
        }
    }
    let called_from = frame_call_site(frame, compile, breaks);
    if let Some(site) = &called_from {
        cause.called_from = Some(site.short());
        cause.called_from_code = site.code.clone();
    }
    if let Some(g) = cause_index.map(|i| &compile.recompile_reasons[i]) {
        super::cause::lead_with_failed_subject(&mut cause.changed, g);
    }
    let ambiguous = cause_index.is_some_and(|i| {
        entry_distance_ties(compile, i)
            .into_iter()
            .any(|j| reasons[j].category != reasons[i].category)
    });
    // Where the graph reads a parameter says nothing of its requires_grad,
    // which the user flips where they freeze or unfreeze it: as for any
    // tensor guard, the line is the call.
    let read_at = cause_index
        .and_then(|i| compile.recompile_reasons[i].read_at.as_ref())
        .filter(|_| cause.category != crate::reasons::Category::RequiresGrad);
    let user_line = user_line(frame, compile, cause.source.as_deref(), read_at, called_from.as_ref());
    Finding {
        frame,
        compile,
        user_line,
        cause_index,
        cause,
        severity: Severity::Expected,
        judgement: Judgement::default(),
        ambiguous,
        called_from,
        user_calls: user_calls(compile),
        reasons,
    }
}

/// An explicit "unknown" when the log holds no reason for a recompile
/// (e.g. the payload was lost).
fn unknown(compile: &Compile) -> RecompileReason {
    RecompileReason {
        category: Category::Other,
        form: crate::reasons::classify::NO_REASON,
        culprit: "unknown (no recompile_reasons in the log)".to_string(),
        source: None,
        code: None,
        detail: compile.failed.then(|| "the compile failed".to_string()),
        advice: "The log has no recompile_reasons for this compile; rerun with TORCH_TRACE to capture them."
            .to_string(),
        called_from: None,
        called_from_code: None,
        library_line: None,
        changed: Vec::new(),
    }
}
