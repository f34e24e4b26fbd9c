//! What the gate matches two runs by: a frame as the user's code names it,
//! and a graph break one run has and the other lacks. Its own file, so that
//! the gate and its parts (`compiled`) both read it and none reaches back.

use crate::analysis::frame_ref::FrameRef;
use crate::model::Frame;
use serde::Serialize;
use std::sync::Arc;

/// A graph break the candidate logs and the baseline does not: matched as
/// the analysis tells breaks apart, by reason and user line.
#[derive(Clone, Debug, Serialize)]
pub struct NewGraphBreak {
    pub reason: String,
    pub user_line: Option<String>,
    pub user_code: Option<String>,
    pub registry_id: Option<String>,
    /// torch's `Hint:` lines (what to change), as `summary --json` has them.
    pub hints: Vec<String>,
    pub compile_ids: Vec<String>,
    /// The frames it breaks (`forward (model.py:43)`).
    pub frames: Vec<String>,
    /// What it costs each call of those frames, in words.
    pub per_call: String,
}

/// A frame as the user's code names it. Frame ids shift when a graph break
/// is added, so runs are matched by function, file and first line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct FrameKey {
    pub rank: Option<u32>,
    pub function: Option<Arc<str>>,
    pub file: Option<Arc<str>>,
    pub line: Option<u32>,
}

impl FrameKey {
    pub(super) fn of(f: &Frame) -> Self {
        FrameKey {
            rank: f.rank,
            function: f.function.clone(),
            file: f.file.clone(),
            line: f.line,
        }
    }

    pub(super) fn of_ref(f: &FrameRef) -> Self {
        FrameKey {
            rank: f.rank,
            function: f.function.clone(),
            file: f.file.clone(),
            line: f.line,
        }
    }
}
