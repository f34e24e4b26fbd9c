//! Recompiles grouped by what caused them, most expensive first: "3
//! recompiles of frame 0 caused by collector.capture_activation_norms,
//! 61.2 s" is worth more than three raw lines.

use super::{classified_cause, recompiles};
use crate::model::Run;
use crate::reasons::{Category, RecompileReason};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct CulpritGroup {
    pub rank: Option<u32>,
    pub pid: u64,
    pub frame_id: u32,
    pub function: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub category: Category,
    pub culprit: String,
    pub source: Option<String>,
    pub code: Option<String>,
    pub detail: Option<String>,
    pub advice: String,
    pub compile_ids: Vec<String>,
    pub seconds: f64,
}

pub fn group_by_culprit(run: &Run) -> Vec<CulpritGroup> {
    let mut groups: Vec<CulpritGroup> = Vec::new();
    for r in recompiles(run) {
        let cause = classified_cause(r.compile).unwrap_or_else(|| unexplained(r.compile.failed));
        let f = r.frame;
        let same = |g: &CulpritGroup| {
            g.pid == f.pid
                && g.rank == f.rank
                && g.frame_id == f.frame_id
                && g.category == cause.category
                && g.culprit == cause.culprit
        };
        let secs = r.compile.duration_s.unwrap_or(0.0);
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => {
                g.compile_ids.push(r.compile.compile_id.clone());
                g.seconds += secs;
            }
            None => groups.push(CulpritGroup {
                rank: f.rank,
                pid: f.pid,
                frame_id: f.frame_id,
                function: f.function.clone(),
                file: f.file.clone(),
                line: f.line,
                category: cause.category,
                culprit: cause.culprit,
                source: cause.source,
                code: cause.code,
                detail: cause.detail,
                advice: cause.advice,
                compile_ids: vec![r.compile.compile_id.clone()],
                seconds: secs,
            }),
        }
    }
    groups.sort_by(|a, b| {
        b.seconds
            .total_cmp(&a.seconds)
            .then(b.compile_ids.len().cmp(&a.compile_ids.len()))
    });
    groups
}

/// A recompile whose log holds no reason (e.g. the log lost that payload).
fn unexplained(failed: bool) -> RecompileReason {
    RecompileReason {
        category: Category::Other,
        culprit: "unknown (no recompile_reasons in the log)".to_string(),
        source: None,
        code: None,
        detail: failed.then(|| "the compile failed".to_string()),
        advice: "The log has no recompile_reasons for this compile; rerun with TORCH_TRACE to capture them."
            .to_string(),
    }
}
