//! A frame as every report names it.

use crate::model::Frame;
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
