//! Recompiles grouped by what caused them, most expensive first: "3
//! recompiles of frame 0 caused by collector.capture_activation_norms,
//! 61.2 s" is worth more than three raw lines.

use super::finding::Finding;
use super::{frame_ref::FrameRef, judge::Severity};
use crate::reasons::RecompileReason;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct CulpritGroup {
    #[serde(flatten)]
    pub frame: FrameRef,
    #[serde(flatten)]
    pub cause: RecompileReason,
    pub compile_ids: Vec<String>,
    /// Every rank whose copy of the frame recompiled for this cause, in
    /// order (empty for a log without ranks): in a distributed run the
    /// same cause on 64 ranks is one group, not 64. `frame` names the first.
    pub ranks: Vec<u32>,
    /// The `torch._dynamo.reset()` generation of each of `compile_ids`:
    /// after a reset, ids restart at 0/0 and repeat.
    #[serde(skip)]
    pub generations: Vec<u32>,
    pub seconds: f64,
    /// A problem when any of its recompiles is.
    pub severity: Severity,
    /// Who owns the value (of the recompile that decided the severity).
    pub owner: super::judge::ValueOwner,
    /// What in the log decided the group's severity.
    pub evidence: super::judge::evidence::Evidence,
    /// The user's line of its first recompile, `{site, from}` (as on
    /// recompiles); null when the log holds none.
    pub user_line: Option<super::cause::UserLine>,
}

/// A hook's closure state is one cause whatever it holds: its flag and the
/// list it appends to are one group, with the hook fix.
fn same_hook_state(g: &CulpritGroup, r: &Finding<'_>) -> bool {
    let hook = |c: &RecompileReason| c.category == crate::reasons::Category::ClosureHookState;
    hook(&g.cause)
        && hook(&r.cause)
        && super::judge::root_name(&g.cause.culprit) == super::judge::root_name(&r.cause.culprit)
}

pub(super) fn group(recompiles: &[Finding<'_>]) -> Vec<CulpritGroup> {
    let mut groups: Vec<CulpritGroup> = Vec::new();
    for r in recompiles {
        let cause = &r.cause;
        let f = r.frame;
        // A rank's copy of a frame is the frame (as in `frame_groups`);
        // processes without a rank are never merged.
        let same = |g: &CulpritGroup| {
            let same_process = match (g.frame.rank, f.rank) {
                (Some(_), Some(_)) => true,
                (None, None) => g.frame.pid == f.pid,
                _ => false,
            };
            same_process
                && (g.frame.run, g.frame.frame_id, &g.frame.function) == (f.run, f.frame_id, &f.function)
                && (same_hook_state(g, r) || (g.cause.category, &g.cause.culprit) == (cause.category, &cause.culprit))
        };
        let secs = r.compile.duration_s.unwrap_or(0.0);
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => {
                g.compile_ids.push(r.compile.compile_id.clone());
                g.generations.push(f.generation);
                g.seconds += secs;
                if r.severity < g.severity {
                    g.evidence = r.judgement.evidence.clone();
                    g.owner = r.judgement.ownership.owner;
                }
                g.severity = g.severity.min(r.severity);
                if let Some(rank) = f.rank.filter(|r| !g.ranks.contains(r)) {
                    g.ranks.push(rank);
                }
            }
            None => groups.push(CulpritGroup {
                frame: FrameRef::of(f),
                cause: cause.clone(),
                compile_ids: vec![r.compile.compile_id.clone()],
                ranks: f.rank.into_iter().collect(),
                generations: vec![f.generation],
                seconds: secs,
                severity: r.severity,
                owner: r.judgement.ownership.owner,
                evidence: r.judgement.evidence.clone(),
                user_line: r.user_line.clone(),
            }),
        }
    }
    // Problems first; within each, the most expensive first.
    groups.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then(b.seconds.total_cmp(&a.seconds))
            .then(b.compile_ids.len().cmp(&a.compile_ids.len()))
    });
    groups
}
