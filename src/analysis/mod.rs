//! Questions asked of the model: which compiles are recompiles, what caused
//! each one, and the run's totals.

pub mod check;
mod culprits;
pub mod steps;

pub use culprits::{group_by_culprit, CulpritGroup};

use crate::model::{Compile, Frame, Run};
use crate::reasons::{classify, GuardFailure, RecompileReason};
use serde::Serialize;

/// A compile of a frame after its first one (`frame_compile_id > 0`).
pub struct Recompile<'a> {
    pub frame: &'a Frame,
    pub compile: &'a Compile,
}

impl<'a> Recompile<'a> {
    /// The reason for this recompile: every existing cache entry contributes
    /// one reason, so older causes repeat; the new cause is the reason of the
    /// newest failed entry (highest `F/M`), whatever the order in the log.
    pub fn cause(&self) -> Option<&'a GuardFailure> {
        cause_of(self.compile)
    }
}

/// A frame as reports name it: where it runs and which user code it is.
#[derive(Clone, Debug, Serialize)]
pub struct FrameRef {
    pub rank: Option<u32>,
    pub pid: u64,
    pub frame_id: u32,
    pub function: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
}

impl FrameRef {
    pub fn of(f: &Frame) -> Self {
        FrameRef {
            rank: f.rank,
            pid: f.pid,
            frame_id: f.frame_id,
            function: f.function.clone(),
            file: f.file.clone(),
            line: f.line,
        }
    }
}

/// The classified cause, or an explicit "unknown" when the log holds no
/// reason for this recompile (e.g. the payload was lost).
pub fn cause_or_unknown(compile: &Compile) -> RecompileReason {
    classified_cause(compile).unwrap_or_else(|| RecompileReason {
        category: crate::reasons::Category::Other,
        culprit: "unknown (no recompile_reasons in the log)".to_string(),
        source: None,
        code: None,
        detail: compile.failed.then(|| "the compile failed".to_string()),
        advice: "The log has no recompile_reasons for this compile; rerun with TORCH_TRACE to capture them."
            .to_string(),
    })
}

/// The classified cause of a recompile: the newest failed entry's reason,
/// or `cache_limit` when Dynamo refused to compile at all.
pub fn classified_cause(compile: &Compile) -> Option<RecompileReason> {
    let newest = cause_of(compile);
    if compile.cache_limit {
        return Some(classify::cache_limit(newest));
    }
    newest.map(classify::classify)
}

pub fn cause_of(compile: &Compile) -> Option<&GuardFailure> {
    compile
        .recompile_reasons
        .iter()
        .enumerate()
        .max_by_key(|(i, r)| (entry_number(r.entry.as_deref()), usize::MAX - i))
        .map(|(_, r)| r)
}

/// The `M` of `F/M` (or of `!A/F/M`); entries without an id sort first.
fn entry_number(entry: Option<&str>) -> Option<u32> {
    entry?.rsplit('/').next()?.parse().ok()
}

pub fn recompiles(run: &Run) -> Vec<Recompile<'_>> {
    run.compiles()
        .filter(|(_, c)| c.frame_compile_id.is_some_and(|n| n > 0))
        .map(|(frame, compile)| Recompile { frame, compile })
        .collect()
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Totals {
    pub frames: usize,
    pub compiles: usize,
    pub recompiles: usize,
    pub failed_compiles: usize,
    pub unfinished_compiles: usize,
    pub cache_limit_hits: usize,
    pub graph_breaks: usize,
    pub compile_seconds: f64,
    pub recompile_seconds: f64,
    pub processes: usize,
    pub ranks: usize,
}

pub fn totals(run: &Run) -> Totals {
    let mut t = Totals {
        frames: run.frames.len(),
        ..Totals::default()
    };
    let mut processes = std::collections::BTreeSet::new();
    let mut ranks = std::collections::BTreeSet::new();
    for f in &run.frames {
        processes.insert((f.rank, f.pid));
        if let Some(r) = f.rank {
            ranks.insert(r);
        }
    }
    for (_, c) in run.compiles() {
        t.compiles += 1;
        let secs = c.duration_s.unwrap_or(0.0);
        t.compile_seconds += secs;
        if c.frame_compile_id.is_some_and(|n| n > 0) {
            t.recompiles += 1;
            t.recompile_seconds += secs;
        }
        t.failed_compiles += usize::from(c.failed);
        t.unfinished_compiles += usize::from(!c.finished);
        t.cache_limit_hits += usize::from(c.cache_limit);
    }
    // Dynamo re-emits a frame's graph breaks at every recompile; count the
    // distinct breaks once per frame.
    t.graph_breaks = run
        .frames
        .iter()
        .map(|f| {
            let mut seen: Vec<&str> = f
                .compiles
                .iter()
                .flat_map(|c| c.graph_breaks.iter().map(String::as_str))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        })
        .sum();
    t.processes = processes.len();
    t.ranks = ranks.len();
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasons::split;

    #[test]
    fn cause_is_the_newest_failed_entry_not_the_first_line() {
        let c = Compile {
            recompile_reasons: vec![split("0/1: b == 2"), split("0/0: a == 1"), split("0/2: c == 3")],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().guard, "c == 3");
    }

    #[test]
    fn cause_without_entry_ids_is_the_first_reason() {
        let c = Compile {
            recompile_reasons: vec![split("x == 1"), split("y == 2")],
            ..Compile::default()
        };
        assert_eq!(cause_of(&c).unwrap().guard, "x == 1");
    }
}
