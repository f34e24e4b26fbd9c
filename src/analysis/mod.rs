//! Questions asked of the model: which compiles are recompiles, what caused
//! each one, and the run's totals.

mod cause;
pub mod check;
mod cost;
mod culprits;
mod eager;
mod finding;
mod findings;
mod frame_groups;
mod graph_breaks;
pub mod judge;
mod ranks;
mod shared_causes;
pub mod steps;
mod unfinished;

pub use cause::{call_site, cause_of, frame_call_site, user_calls, CallSite, UserLine};
pub use cost::{Cost, EagerFallback, COSTLY_EXPECTED_SECONDS};
pub use culprits::CulpritGroup;
pub use eager::EagerFrame;
pub use finding::Finding;
pub use findings::{analyse, Findings};
pub use frame_groups::{FrameGroup, RankDifference};
pub use graph_breaks::GraphBreak;
pub use judge::{EvidenceKind, Judgement, Ownership, Severity, ValueOwner};
pub use ranks::{lone_ranks, mode as rank_mode, LoneRank};
pub use shared_causes::SharedCause;

use crate::model::{Frame, Run};
use serde::Serialize;
use std::sync::Arc;

/// A frame as reports name it: where it runs and which user code it is.
#[derive(Clone, Debug, Serialize)]
pub struct FrameRef {
    pub rank: Option<u32>,
    pub pid: u64,
    /// Index of the frame's run in the inputs (`Run::runs`; 0 the oldest).
    pub run: usize,
    pub frame_id: u32,
    /// What was compiled, as a user names it (see `frame_name`).
    pub name: String,
    pub function: Option<Arc<str>>,
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
}

impl FrameRef {
    pub fn of(f: &Frame) -> Self {
        FrameRef {
            rank: f.rank,
            pid: f.pid,
            run: f.run,
            frame_id: f.frame_id,
            name: frame_name(f),
            function: f.function.clone(),
            file: f.file.clone(),
            line: f.line,
        }
    }
}

/// What a frame compiled, as a user names it. Library wrappers become the
/// compiled frame (every Hugging Face model is `wrapper`, a compiled
/// `nn.Sequential` is `inner`), so a frame whose guards name the class of
/// the module it runs is named by that class: `GPT2LMHeadModel via
/// wrapper`, `Net.forward`, `Adam.step`.
pub fn frame_name(f: &Frame) -> String {
    const WRAPPERS: [&str; 7] = [
        "wrapper",
        "inner",
        "_fn",
        "__call__",
        "_call_impl",
        "_wrapped_call_impl",
        "compile_wrapper",
    ];
    let function = f.function.as_deref().unwrap_or("?");
    match f.module_class.as_deref().map(|c| c.rsplit('.').next().unwrap_or(c)) {
        Some(class) if WRAPPERS.contains(&function) => format!("{class} via {function}"),
        Some(class) if !function.starts_with('<') => format!("{class}.{function}"),
        _ => function.to_string(),
    }
}

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
