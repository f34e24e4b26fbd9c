//! Joining step records with a TORCH_TRACE run of the same process: each
//! step's compiles get what the log knows of them (function, duration,
//! cause, attempts), and compiles the record missed are added by time.

use crate::analysis::findings::Findings;
use crate::model::{Compile, Frame, Run, Step, StepCause, StepCompile};
use serde::Serialize;
use std::collections::HashMap;

/// A trace compile is joined to a step by time when it started within the
/// step. Steps follow each other closely (a compile starts a millisecond
/// into its step), so the only slack is for the records' rounding.
const TIME_SLACK_S: f64 = 1e-4;

#[derive(Clone, Debug, Serialize)]
pub struct TraceDetail {
    /// `id` (the record named the compile) or `time` (it started inside the step).
    pub matched_by: &'static str,
    /// Where the compile starts in the log, `file:line`.
    pub log: String,
    /// The guard that failed (the cause's), as Dynamo printed it.
    pub guard: Option<String>,
    pub attempts: usize,
    pub restart_reasons: Vec<String>,
    pub graph_op_count: Option<u64>,
    pub guard_count: Option<u64>,
    pub backend_s: Option<f64>,
}

/// Fills each step's compiles from the trace: by compile id (the start time
/// picks among `torch._dynamo.reset()` generations), and adds trace
/// compiles that started inside a step the record does not list. Returns
/// the trace's detail by (step index, compile index). A recompile's
/// verdict (severity, evidence, owner, fix) is the one `summary` gives,
/// from `findings` of the whole run: a StepLogger judges from its own
/// rank's log, and cannot see that the other ranks did not recompile.
pub(super) fn join(steps: &mut [Step], findings: &Findings<'_>) -> HashMap<(usize, usize), TraceDetail> {
    let run = findings.run;
    let mut details = HashMap::new();
    let mut by_id: HashMap<(u32, &str), Vec<(&Frame, &Compile)>> = HashMap::new();
    for (frame, compile) in run.compiles() {
        by_id
            .entry((frame.rank.unwrap_or(0), compile.compile_id.as_str()))
            .or_default()
            .push((frame, compile));
    }
    for (i, step) in steps.iter_mut().enumerate() {
        let rank = step.rank.unwrap_or(0);
        let (lo, hi) = (step.start - TIME_SLACK_S, step.end());
        let within = |c: &Compile| c.start.is_some_and(|t| t >= lo && t < hi);
        for (j, sc) in step.compiles.iter_mut().enumerate() {
            let id = sc.compile_id.clone();
            let found = by_id.get(&(rank, id.as_str())).and_then(|cands| {
                cands
                    .iter()
                    .find(|(_, c)| within(c))
                    .or((cands.len() == 1).then(|| &cands[0]))
            });
            if let Some((frame, compile)) = found {
                fill(sc, frame, compile, findings);
                details.insert((i, j), detail(run, frame, compile, "id"));
            }
        }
        let listed: Vec<String> = step.compiles.iter().map(|c| c.compile_id.clone()).collect();
        for (frame, compile) in run.compiles() {
            if frame.rank.unwrap_or(0) == rank && within(compile) && !listed.contains(&compile.compile_id) {
                let mut sc = StepCompile {
                    compile_id: compile.compile_id.clone(),
                    ..StepCompile::default()
                };
                fill(&mut sc, frame, compile, findings);
                details.insert((i, step.compiles.len()), detail(run, frame, compile, "time"));
                step.compiles.push(sc);
            }
        }
    }
    details
}

fn detail(run: &Run, frame: &Frame, compile: &Compile, matched_by: &'static str) -> TraceDetail {
    let file = run
        .inputs
        .iter()
        .find(|i| i.stats.pids.contains(&frame.pid))
        .or(run.inputs.first())
        .map_or("?", |i| i.path.as_str());
    TraceDetail {
        matched_by,
        log: format!("{file}:{}", compile.log_line),
        guard: crate::analysis::cause::cause_of(compile).map(|g| g.guard.clone()),
        attempts: compile.attempts.len().max(1),
        restart_reasons: compile.restart_reasons.clone(),
        graph_op_count: compile.graph_op_count,
        guard_count: compile.guard_count,
        backend_s: compile.breakdown().backend_s,
    }
}

/// The trace knows more than a step record: keep what the record says,
/// fill in what it lacks.
fn fill(sc: &mut StepCompile, frame: &Frame, compile: &Compile, findings: &Findings<'_>) {
    sc.name = sc
        .name
        .take()
        .or_else(|| Some(crate::analysis::frame_ref::frame_name(frame)));
    sc.function = sc
        .function
        .take()
        .or_else(|| frame.function.as_deref().map(String::from));
    sc.file = sc.file.take().or_else(|| frame.file.as_deref().map(String::from));
    sc.line = sc.line.or(frame.line);
    sc.recompile = sc.recompile.or(Some(compile.frame_compile_id.is_some_and(|n| n > 0)));
    sc.seconds = sc.seconds.or(compile.duration_s);
    sc.backward_seconds = sc
        .backward_seconds
        .or_else(|| compile.backward.as_ref().and_then(|b| b.duration_s));
    sc.failed |= compile.failed;
    let Some(f) = findings.of(compile) else {
        return;
    };
    // The record's own cause keeps what it says of the change; the verdict
    // is the whole run's (analysed once, as summary and check read it).
    let logged = !compile.recompile_reasons.is_empty() || compile.cache_limit;
    if sc.cause.is_none() && sc.recompile == Some(true) && logged {
        let c = f.cause.clone();
        sc.cause = Some(StepCause {
            category: c.category.name().to_string(),
            label: Some(c.category.label().to_string()),
            culprit: c.culprit,
            source: c.source,
            ..StepCause::default()
        });
    }
    if let Some(cause) = &mut sc.cause {
        cause.severity = Some(f.severity.name().to_string());
        cause.evidence = Some(f.judgement.evidence.kind.name().to_string());
        cause.owner = Some(f.judgement.ownership.owner.name().to_string());
        cause.advice = (!f.cause.advice.is_empty()).then(|| f.cause.advice.clone());
    }
}
