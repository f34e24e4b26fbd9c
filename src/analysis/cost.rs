//! What compiling costs beyond compile time: checking guards on every call
//! (`guard_latency_us`), the compile caches that spared (or did not spare)
//! work, and frames that fell back to eager: a frame that hit the recompile
//! limit runs uncompiled for the rest of the run, and a failed compile ran
//! its call eagerly when Dynamo suppressed the error. The log records when that happened and how much longer
//! it runs, not how often the frame ran or how much slower eager was, so
//! neither is estimated.

use super::frame_ref::FrameRef;
use crate::model::{CacheCounts, Run};
use serde::Serialize;

/// An expected recompile that took this long (in compile seconds, summed
/// over its group) is worth its fix in `summary` and `steps` text, which
/// otherwise fold expected recompiles to one line: past a second it shows
/// in a step's wall time however cheap the steps around it are.
pub const COSTLY_EXPECTED_SECONDS: f64 = 1.0;

#[derive(Clone, Debug, Default, Serialize)]
pub struct Cost {
    /// Compiles whose metrics carry `guard_latency_us`.
    pub guard_checks_measured: usize,
    /// Median and largest time to check one cache entry's guards, µs.
    pub guard_latency_median_us: Option<f64>,
    pub guard_latency_max_us: Option<f64>,
    /// The compile with the slowest guards.
    pub guard_latency_max_compile: Option<String>,
    /// Cache lookups of every compile together.
    pub caches: CacheCounts,
    /// Frames that ran eagerly after a compile, in run order.
    pub eager_fallbacks: Vec<EagerFallback>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EagerFallback {
    pub frame: FrameRef,
    pub compile_id: String,
    /// `recompile_limit`: the frame runs eagerly from then on;
    /// `compile_failed`: the compile raised (see `suppress_errors`).
    pub why: &'static str,
    /// torch's `fail_type` for a failed compile.
    pub fail_type: Option<std::sync::Arc<str>>,
    /// Dynamo's `suppress_errors` then: on, a failed compile's call ran
    /// eagerly; off, the error reached the caller unless Dynamo skipped
    /// the frame for it.
    pub suppress_errors: Option<bool>,
    /// Seconds of log after the compile's last event on its rank: the
    /// stretch in which an uncompiled frame ran (None when the log does not
    /// say, e.g. without timestamps).
    pub log_seconds_after: Option<f64>,
}

impl Cost {
    /// Whether the log says anything of these costs.
    pub fn is_empty(&self) -> bool {
        self.guard_checks_measured == 0 && self.caches.is_empty() && self.eager_fallbacks.is_empty()
    }
}

pub fn cost(run: &Run) -> Cost {
    let mut c = Cost::default();
    let mut latencies: Vec<(f64, &str)> = Vec::new();
    for (frame, compile) in run.compiles() {
        c.caches.add(&compile.caches());
        if let Some(us) = compile.guard_latency_us {
            latencies.push((us, &compile.compile_id));
        }
        let why = if compile.cache_limit {
            "recompile_limit"
        } else if compile.failed {
            "compile_failed"
        } else {
            continue;
        };
        let log_end = run
            .inputs
            .iter()
            .filter(|i| i.rank == frame.rank && i.pid == Some(frame.pid))
            .filter_map(|i| i.end)
            .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))));
        c.eager_fallbacks.push(EagerFallback {
            frame: FrameRef::of(frame),
            compile_id: compile.compile_id.clone(),
            why,
            fail_type: compile.fail_type.clone(),
            suppress_errors: compile.suppress_errors,
            log_seconds_after: log_end.zip(compile.last_log_time).map(|(end, at)| (end - at).max(0.0)),
        });
    }
    c.guard_checks_measured = latencies.len();
    if !latencies.is_empty() {
        latencies.sort_by(|a, b| a.0.total_cmp(&b.0));
        let n = latencies.len();
        c.guard_latency_median_us = Some(if n % 2 == 1 {
            latencies[n / 2].0
        } else {
            (latencies[n / 2 - 1].0 + latencies[n / 2].0) / 2.0
        });
        let (max, id) = latencies[n - 1];
        c.guard_latency_max_us = Some(max);
        c.guard_latency_max_compile = Some(id.to_string());
    }
    c
}
