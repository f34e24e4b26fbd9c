//! JSONL records written by guardscope's Python helper (per-step logs),
//! read streaming with the same "count, report with file:line, keep going"
//! rules as TORCH_TRACE logs.

pub mod steps;

pub use steps::read_steps;
