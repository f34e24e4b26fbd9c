//! The run's counts, before any analysis.

use crate::model::Run;
use serde::Serialize;

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Totals {
    /// Distinct frames: a function compiled on 64 ranks is one frame.
    pub frames: usize,
    /// Frames counted once per process (each rank's copy): what `frames`
    /// was before frames were matched across ranks.
    pub process_frames: usize,
    pub compiles: usize,
    pub recompiles: usize,
    /// Distinct causes of those recompiles: one change that recompiles
    /// every frame a model's graph breaks split it into is one cause
    /// (`Findings::causes`).
    pub recompile_causes: usize,
    pub failed_compiles: usize,
    pub unfinished_compiles: usize,
    pub cache_limit_hits: usize,
    /// Distinct graph breaks: by reason and user line, across frames and ranks.
    pub graph_breaks: usize,
    /// Compile seconds summed over every compile of every process.
    pub compile_seconds: f64,
    /// Seconds in which some process was compiling (overlapping compiles of
    /// parallel ranks counted once): what the job waited.
    pub compile_wall_seconds: f64,
    pub recompile_seconds: f64,
    pub processes: usize,
    pub ranks: usize,
}

pub fn totals(run: &Run) -> Totals {
    let mut t = Totals {
        frames: run.frames.len(),
        process_frames: run.frames.len(),
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
    // graph_breaks, frames (across ranks), recompile_causes and
    // compile_wall_seconds: set by `analyse`.
    t.processes = processes.len();
    t.ranks = ranks.len();
    t
}
