//! Recompiles grouped by what caused them, most expensive first: "3
//! recompiles of frame 0 caused by collector.capture_activation_norms,
//! 61.2 s" is worth more than three raw lines.

use super::{cause_or_unknown, recompiles, FrameRef};
use crate::model::Run;
use crate::reasons::RecompileReason;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct CulpritGroup {
    #[serde(flatten)]
    pub frame: FrameRef,
    #[serde(flatten)]
    pub cause: RecompileReason,
    pub compile_ids: Vec<String>,
    pub seconds: f64,
}

pub fn group_by_culprit(run: &Run) -> Vec<CulpritGroup> {
    let mut groups: Vec<CulpritGroup> = Vec::new();
    for r in recompiles(run) {
        let cause = cause_or_unknown(r.compile);
        let f = r.frame;
        let same = |g: &CulpritGroup| {
            (g.frame.pid, g.frame.rank, g.frame.frame_id) == (f.pid, f.rank, f.frame_id)
                && (g.cause.category, &g.cause.culprit) == (cause.category, &cause.culprit)
        };
        let secs = r.compile.duration_s.unwrap_or(0.0);
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => {
                g.compile_ids.push(r.compile.compile_id.clone());
                g.seconds += secs;
            }
            None => groups.push(CulpritGroup {
                frame: FrameRef::of(f),
                cause,
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
