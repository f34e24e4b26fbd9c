//! The compile timeline: plain data, serializable, built from trace events.
//!
//! A `Run` holds the frames of every process found in the inputs; a frame
//! holds its compiles (`frame_compile_id`), a compile its attempts.

mod build;
mod compile_events;
mod guard_sets;
mod guard_tree;
mod runs;
mod steps;

pub use build::RunBuilder;
pub use compile_events::{compile_id_string, is_cache_limit_reason};
pub use guard_tree::{GuardLine, GuardTree, GUARD_LINES_KEPT};
pub use runs::{group_runs, merge, RunInfo, RunSelect};
pub use steps::{median_wall_ms, steady_median_wall_ms, Step, StepCause, StepCompile};

use crate::input::Problems;
use crate::reasons::GuardFailure;
use crate::trace::ParseStats;
use serde::Serialize;
use smallvec::SmallVec;
use std::sync::Arc;

#[derive(Clone, Debug, Default, Serialize)]
pub struct Run {
    pub inputs: Vec<InputFile>,
    pub frames: Vec<Frame>,
    /// Compiled-autograd graphs that belong to no Dynamo frame (`!0`).
    pub compiled_autograd: Vec<Compile>,
    pub problems: Problems,
    /// Every run the inputs hold, oldest first (one per launch: see
    /// `runs.rs`), including those left out by `--latest` / `--run`.
    pub runs: Vec<RunInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct InputFile {
    pub path: String,
    pub rank: Option<u32>,
    /// Process of the file's first event.
    pub pid: Option<u64>,
    /// Unix seconds of the file's first event (its glog time read as UTC).
    pub start: Option<f64>,
    /// Unix seconds of its last event, on the same clock as `start`.
    pub end: Option<f64>,
    /// Index into `Run::runs`; None for a file with no event.
    pub run: Option<usize>,
    pub stats: ParseStats,
}

#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    pub rank: Option<u32>,
    pub pid: u64,
    /// Increments each time `torch._dynamo.reset()` restarts compile ids.
    pub generation: u32,
    pub frame_id: u32,
    /// Names are held once per log (see `compile_events::Interned`): the
    /// processes and ranks of a job compile the same functions.
    pub function: Option<Arc<str>>,
    pub file: Option<Arc<str>>,
    /// First line of the compiled function (`co_firstlineno`).
    pub line: Option<u32>,
    /// The class of the module the frame was compiled for (`L['self']` or
    /// `L['fn']` in its guards), when it is one: names a frame that is only
    /// a library wrapper (`wrapper`, `inner`) by what was compiled.
    pub module_class: Option<Arc<str>>,
    /// Index into `Run::runs` of the run (launch) the frame's log belongs to.
    pub run: usize,
    pub compiles: Vec<Compile>,
}

impl Frame {
    pub fn compile_seconds(&self) -> f64 {
        self.compiles.iter().filter_map(|c| c.duration_s).sum()
    }

    pub fn attempts(&self) -> usize {
        self.compiles.iter().map(|c| c.attempts.len().max(1)).sum()
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Compile {
    /// torch's CompileId string: `F/N`, or `!A/F/N` / `!A` under compiled autograd.
    pub compile_id: String,
    pub frame_compile_id: Option<u32>,
    pub compiled_autograd_id: Option<u32>,
    /// Room for one inline: nearly every compile has one attempt.
    pub attempts: SmallVec<[Attempt; 1]>,
    /// Unix seconds at which the compile started.
    pub start: Option<f64>,
    /// Forward (Dynamo frame) compile time in seconds.
    pub duration_s: Option<f64>,
    /// The backend's share of the compile time, when the log gives one
    /// (`breakdown()` reads it): boxed, as most compiles of a fleet's
    /// frames lack it.
    pub phases: Option<Box<Phases>>,
    pub guard_count: Option<u64>,
    pub guards_added: u64,
    pub graph_op_count: Option<u64>,
    pub failed: bool,
    pub fail_type: Option<Arc<str>>,
    pub fail_reason: Option<Arc<str>>,
    /// Dynamo refused this compile because the frame hit the recompile limit.
    pub cache_limit: bool,
    /// `compilation_metrics` was seen: false for a log cut off mid-compile.
    pub finished: bool,
    pub restart_reasons: Vec<String>,
    pub graph_breaks: Vec<Arc<str>>,
    /// One per cache entry whose guards failed, as logged (cache order).
    pub recompile_reasons: Vec<GuardFailure>,
    /// The Python stack when Dynamo started, outermost first, full paths;
    /// the last entry is the compiled frame, the ones before it its callers.
    /// Shared with the compiles whose stack is the same (see `compile_events::Interned`).
    pub stack: Arc<[StackFrame]>,
    /// What the compile's symbol records say (`create_symbol`,
    /// `symbolic_shape_specialization`), boxed: most compiles of a fleet's
    /// logs create no symbol, and a pointer keeps them small.
    pub symbols: Option<Box<Symbols>>,
    /// Microseconds to check the new cache entry's guards once, as Dynamo
    /// measured it after the compile (`guard_latency_us`; torch >= 2.6).
    pub guard_latency_us: Option<f64>,
    /// Dynamo's `suppress_errors` for this compile: with it on, a compile
    /// that fails runs its call eagerly instead of raising.
    pub suppress_errors: Option<bool>,
    /// Compile cache lookups made for this compile (forward and backward),
    /// when it made any (`caches()` reads them).
    pub cache_lookups: Option<Box<CacheCounts>>,
    /// The compile's guard tree as the report shows it; None when the log
    /// has no `dynamo_cpp_guards_str` for it.
    pub guard_tree: Option<Box<GuardTree>>,
    /// `automatic_dynamic_shapes` in the compile's Dynamo config.
    pub automatic_dynamic: Option<bool>,
    /// Whether the frame's `self` is an `nn.Module`, from this compile's
    /// guard tree: a module's guards reach its `_modules`, `_parameters`,
    /// `_buffers` or hooks. None when the tree has no `self`.
    pub self_is_module: Option<bool>,
    /// `recompile_limit` in the compile's Dynamo config (the default is 8;
    /// `torch.compile(..., recompile_limit=)` shows here too); a byte, to keep
    /// a compile small: a limit above 255 is held as 255, one of 0 as None.
    pub recompile_limit: Option<std::num::NonZeroU8>,
    /// The minor version of the torch 2.x that compiled (15 for 2.15.0),
    /// from `compilation_metrics`; None for another major, 2.0, or none logged.
    pub torch_minor: Option<std::num::NonZeroU8>,
    /// Dims created with a range the user declared (`mark_dynamic(x, d,
    /// min=, max=)`), as (source `x.size()[d]`, range `[2, 16]`).
    pub declared_ranges: Vec<(String, String)>,
    pub backward: Option<Box<BackwardCompile>>,
    /// Line of the compile's first event in its log.
    pub log_line: u64,
    /// Line of its latest event: with `log_line`, which stretch of the log
    /// (and so which training step) the compile happened in.
    pub last_log_line: u64,
    /// Unix seconds of its latest event on the log's clock (glog time read
    /// as UTC, like `InputFile::end`), which `start` need not be on.
    pub last_log_time: Option<f64>,
}

impl Compile {
    /// Where the compile time went: `phases` beside the whole compile's.
    pub fn breakdown(&self) -> Breakdown {
        let p = self.phases.as_deref().copied().unwrap_or_default();
        Breakdown {
            entire_frame_s: self.duration_s,
            backend_s: p.backend_s,
            inductor_s: p.inductor_s,
            code_gen_s: p.code_gen_s,
        }
    }

    pub fn caches(&self) -> CacheCounts {
        self.cache_lookups.as_deref().copied().unwrap_or_default()
    }
}

/// One frame of a compile's stack. Its texts are held once per log: a
/// job's compiles share most of their callers' files and functions.
/// What a compile's symbol records say.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Symbols {
    /// The user's call into the compiled code on the Python stack that the
    /// compile's first `create_symbol` logged: the innermost frame of the
    /// user's code above torch. It names the caller even where `stack` does
    /// not (a `@torch.compile`-decorated function). None when that stack
    /// holds no user frame.
    pub caller: Option<Arc<StackFrame>>,
    /// Values this compile fixed while tracing (`symbolic_shape_specialization`):
    /// a dim or an int torch held symbolically until the traced code needed
    /// it as a number. Empty where the log has none (before torch 2.4).
    pub specialized: Vec<Specialization>,
}

impl Compile {
    /// The user's call into the compiled code that the symbol records name.
    pub fn symbol_caller(&self) -> Option<&StackFrame> {
        self.symbols.as_ref()?.caller.as_deref()
    }

    /// The values this compile fixed while tracing.
    pub fn specialized(&self) -> &[Specialization] {
        self.symbols.as_ref().map_or(&[], |s| &s.specialized)
    }
}

/// A symbol the traced code fixed to one value: what it stood for
/// (`probes.size()[0]`, `target`), the value, and the traced line that
/// needed it as a number (`for v in probes:`), when logged.
#[derive(Clone, Debug, Serialize)]
pub struct Specialization {
    pub source: String,
    pub value: String,
    pub at: Option<Arc<StackFrame>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StackFrame {
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
    pub function: Option<Arc<str>>,
    /// The source line as Dynamo quotes it (`loc`).
    pub code: Option<Arc<str>>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Attempt {
    pub attempt: u32,
    /// Unix seconds: `dynamo_start` for the first attempt, the first event
    /// of a restarted one (torch logs no start for it).
    pub start: Option<f64>,
    pub log_line: u64,
    /// Dynamo logged `dynamo_start` for it (a restarted attempt need not).
    #[serde(skip)]
    pub(crate) dynamo_start: bool,
}

/// Hits and misses of the compile caches: the FX graph (inductor) and
/// AOTAutograd caches, from their `*_cache_hit` / `*_cache_miss` /
/// `*_cache_bypass` artifacts; the remote (shared) cache's from
/// `compilation_metrics`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheCounts {
    pub fx_graph_hits: u64,
    pub fx_graph_misses: u64,
    pub fx_graph_bypasses: u64,
    pub aot_autograd_hits: u64,
    pub aot_autograd_misses: u64,
    pub aot_autograd_bypasses: u64,
    pub remote_hits: u64,
    pub remote_misses: u64,
}

impl CacheCounts {
    pub fn add(&mut self, o: &CacheCounts) {
        self.fx_graph_hits += o.fx_graph_hits;
        self.fx_graph_misses += o.fx_graph_misses;
        self.fx_graph_bypasses += o.fx_graph_bypasses;
        self.aot_autograd_hits += o.aot_autograd_hits;
        self.aot_autograd_misses += o.aot_autograd_misses;
        self.aot_autograd_bypasses += o.aot_autograd_bypasses;
        self.remote_hits += o.remote_hits;
        self.remote_misses += o.remote_misses;
    }

    pub fn is_empty(&self) -> bool {
        *self == CacheCounts::default()
    }
}

/// Where the compile time went, as far as the log says.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Breakdown {
    pub entire_frame_s: Option<f64>,
    pub backend_s: Option<f64>,
    pub inductor_s: Option<f64>,
    pub code_gen_s: Option<f64>,
}

/// The parts of a compile's time that a backend reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Phases {
    pub backend_s: Option<f64>,
    pub inductor_s: Option<f64>,
    pub code_gen_s: Option<f64>,
}

/// The AOT backward graph, compiled lazily at the first `backward()`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BackwardCompile {
    pub duration_s: Option<f64>,
    pub inductor_s: Option<f64>,
    pub code_gen_s: Option<f64>,
    pub failed: bool,
    pub fail_reason: Option<Arc<str>>,
}

impl Run {
    pub fn compiles(&self) -> impl Iterator<Item = (&Frame, &Compile)> {
        self.frames.iter().flat_map(|f| f.compiles.iter().map(move |c| (f, c)))
    }

    /// Whether frames of a rank other than 0 exist: names then carry the rank.
    pub fn has_several_ranks(&self) -> bool {
        self.frames.iter().any(|f| f.rank.is_some_and(|r| r > 0))
    }

    /// Whether the inputs hold more than one run (a rerun, a stale log).
    pub fn has_several_runs(&self) -> bool {
        self.runs.len() > 1
    }

    /// Events found in all inputs together: TORCH_TRACE envelopes, and
    /// the lines of Dynamo's that text logs held.
    pub fn envelope_count(&self) -> u64 {
        let text = |i: &InputFile| i.stats.text.as_ref().map_or(0, |t| t.dynamo_lines);
        self.inputs.iter().map(|i| i.stats.envelopes + text(i)).sum()
    }

    /// What the inputs read as text logs held, when any was one
    /// (`TORCH_LOGS` lines in a job's stderr rather than TORCH_TRACE).
    pub fn text_log(&self) -> Option<crate::trace::TextStats> {
        let mut all: Option<crate::trace::TextStats> = None;
        for t in self.inputs.iter().filter_map(|i| i.stats.text.as_ref()) {
            all.get_or_insert_default().add(t);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fleet's logs hold 10^5-10^6 frames, nearly all compiled once: what
    /// a frame and its compile cost is most of the model's memory
    /// (docs/performance.md, `bench/frames_memory.sh`).
    #[test]
    fn a_frame_and_its_compile_stay_small() {
        eprintln!(
            "Frame {} Compile {} Attempt {} StackFrame {}",
            size_of::<Frame>(),
            size_of::<Compile>(),
            size_of::<Attempt>(),
            size_of::<StackFrame>()
        );
        assert!(size_of::<Frame>() <= 112, "{}", size_of::<Frame>());
        // 384 before the symbol records (`symbols`), one pointer.
        assert!(size_of::<Compile>() <= 392, "{}", size_of::<Compile>());
    }
}
