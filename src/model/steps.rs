//! Training steps as the per-step JSONL of the Python helper records them.

use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Step {
    /// From the record's `rank`, else from the file name (`rank_3`).
    pub rank: Option<u32>,
    /// The process that wrote the record (a forked child's own).
    pub pid: Option<u32>,
    /// The StepLogger that wrote it: each attempt of a run (a retried
    /// `train()`, a run resumed from a checkpoint) has its own.
    pub session: Option<String>,
    pub step: u64,
    /// Unix seconds at which the step began.
    pub start: f64,
    pub wall_ms: f64,
    /// The compiles that happened inside the step.
    pub compiles: Vec<StepCompile>,
    /// The file and line the record came from, for diagnostics.
    pub file: String,
    pub line: u64,
}

/// A compile as a step record names it. Only `compile_id` is required;
/// StepLogger writes the rest, other writers may not (`--trace` fills in).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepCompile {
    pub compile_id: String,
    /// The frame as `summary` names it (`analysis::frame_name`:
    /// `Sequential via inner`); None in records of older writers.
    pub name: Option<String>,
    pub function: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    /// None when the record does not say.
    pub recompile: Option<bool>,
    pub seconds: Option<f64>,
    pub backward_seconds: Option<f64>,
    pub failed: bool,
    pub cause: Option<StepCause>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepCause {
    /// Kept as text: a newer writer may know categories this reader does not.
    pub category: String,
    pub label: Option<String>,
    pub culprit: String,
    pub source: Option<String>,
    /// `expected` or `problem`, as the writer judged it from the log so far
    /// (StepLogger records carry it; a cause classified here does not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    /// The kind of evidence that decided it (`repeats`, `became_dynamic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Who owns the value that changed (`closure`, `user_argument`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The failed cache entry that is the cause (`0/1`; newer records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The fix, as the writer (or, for a cause classified here, guardscope) gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

impl StepCompile {
    /// Forward plus backward compile seconds, as far as known.
    pub fn total_seconds(&self) -> f64 {
        self.seconds.unwrap_or(0.0) + self.backward_seconds.unwrap_or(0.0)
    }

    /// A recompile, from the record or else from the id (`F/N`, N > 0).
    pub fn is_recompile(&self) -> bool {
        self.recompile.unwrap_or_else(|| {
            self.compile_id
                .rsplit('/')
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| n > 0)
        })
    }
}

/// The median wall time of `steps` (the upper one for an even count), 0 for none.
pub fn median_wall_ms<'a>(steps: impl IntoIterator<Item = &'a Step>) -> f64 {
    let mut walls: Vec<f64> = steps.into_iter().map(|s| s.wall_ms).collect();
    walls.sort_by(f64::total_cmp);
    walls.get(walls.len() / 2).copied().unwrap_or(0.0)
}

/// The median wall time of the steps that compiled nothing, None when every
/// step compiled. Slowness is measured against it: when most steps compile,
/// the median of all steps is itself a compile step and hides them all.
pub fn steady_median_wall_ms<'a>(steps: impl IntoIterator<Item = &'a Step>) -> Option<f64> {
    let steady: Vec<&Step> = steps.into_iter().filter(|s| s.compiles.is_empty()).collect();
    (!steady.is_empty()).then(|| median_wall_ms(steady))
}

impl Step {
    /// The records of one writer, one attempt of one rank: a step is
    /// recorded once per writer.
    pub fn writer(&self) -> (Option<u32>, Option<u32>, Option<&str>) {
        (self.rank, self.pid, self.session.as_deref())
    }

    pub fn end(&self) -> f64 {
        self.start + self.wall_ms / 1000.0
    }

    pub fn compile_ids(&self) -> impl Iterator<Item = &str> {
        self.compiles.iter().map(|c| c.compile_id.as_str())
    }
}
