//! Training steps as the per-step JSONL of the Python helper records them.

use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Step {
    /// From the record's `rank`, else from the file name (`rank_3`).
    pub rank: Option<u32>,
    pub step: u64,
    /// Unix seconds at which the step began.
    pub start: f64,
    pub wall_ms: f64,
    /// Compile ids (`0/2`) of the compiles that happened inside the step.
    pub compile_ids: Vec<String>,
    /// The file and line the record came from, for diagnostics.
    pub file: String,
    pub line: u64,
}

/// The median wall time of `steps` (the upper one for an even count), 0 for none.
pub fn median_wall_ms<'a>(steps: impl IntoIterator<Item = &'a Step>) -> f64 {
    let mut walls: Vec<f64> = steps.into_iter().map(|s| s.wall_ms).collect();
    walls.sort_by(f64::total_cmp);
    walls.get(walls.len() / 2).copied().unwrap_or(0.0)
}

impl Step {
    pub fn end(&self) -> f64 {
        self.start + self.wall_ms / 1000.0
    }
}
