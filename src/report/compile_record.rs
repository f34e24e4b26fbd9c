//! One compile's own facts, under one set of names wherever a compile is
//! written out: `summary --json` (`frames[].compiles[]`) and the compile
//! events the Python helper hands to users (StepLogger records,
//! `compile_events()`), so a field means the same everywhere.

use crate::model::Compile;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct CompileRecord<'a> {
    pub compile_id: &'a str,
    /// Dynamo's attempts at the frame (a restart after a graph break is one more).
    pub attempts: usize,
    /// Unix seconds.
    pub start: Option<f64>,
    /// Forward (Dynamo frame) compile time, seconds.
    pub duration_s: Option<f64>,
    /// The AOT backward graph's compile, seconds, when it has happened.
    pub backward_duration_s: Option<f64>,
    pub failed: bool,
    pub fail_type: Option<&'a str>,
    pub fail_reason: Option<&'a str>,
    /// False while the compile is still running (or its process died).
    pub finished: bool,
    /// Dynamo gave up on the frame at its recompile limit.
    pub cache_limit: bool,
    pub restart_reasons: &'a [String],
}

impl<'a> CompileRecord<'a> {
    pub fn new(c: &'a Compile) -> Self {
        CompileRecord {
            compile_id: &c.compile_id,
            attempts: c.attempts.len().max(1),
            start: c.start,
            duration_s: c.duration_s,
            backward_duration_s: c.backward.as_ref().and_then(|b| b.duration_s),
            failed: c.failed,
            fail_type: c.fail_type.as_deref(),
            fail_reason: c.fail_reason.as_deref(),
            finished: c.finished,
            cache_limit: c.cache_limit,
            restart_reasons: &c.restart_reasons,
        }
    }
}
