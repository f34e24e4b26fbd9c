//! What a diff found, as plain data: `diff --json` prints it as is (a
//! documented contract), the terminal output and the report are views of it.

use super::compare::{ser_f64, RecordedStat, Tolerance};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffVerdict {
    /// At least one record pair aligned, every pair equal within tolerance,
    /// and (unless `--allow-missing`) no record on one side only.
    Equal,
    Divergent,
    /// Records aligned, none differs, but not one stat value was compared as
    /// numbers (no stats, or all null, NaN on both sides, `<error: ...>` or
    /// malformed): no evidence of parity, so never a pass.
    NothingCompared,
    /// A side could not be read to its end (a read error, a cut gzip
    /// stream): what was read is reported, but there is no verdict.
    Unreadable,
}

#[derive(Debug, Serialize)]
pub struct Diff {
    pub verdict: DiffVerdict,
    pub a: SideSummary,
    pub b: SideSummary,
    pub tolerance: Tolerance,
    /// The stats compared (`--stats`), or null for every stat both sides have.
    pub stats: Option<Vec<String>>,
    /// Whether records on one side only leave the verdict `equal`.
    pub allow_missing: bool,
    /// Record pairs aligned by (pass, step, module, tensor, call).
    pub compared: u64,
    pub equal: u64,
    pub divergent: u64,
    /// Stat values present on both sides, and those of them that could not
    /// be compared (NaN on both sides, null, `<error: ...>`): not
    /// divergences; when all of them are, the verdict is `nothing_compared`.
    pub values_compared: u64,
    pub not_comparable: u64,
    /// The divergent record that comes first in A's execution order.
    pub first_divergence: Option<Divergence>,
    /// The next ones in A's order (at most `--show`).
    pub next_divergences: Vec<Divergence>,
    pub only_in_a: OneSided,
    pub only_in_b: OneSided,
    /// Per (pass, step), in order; the first `MAX_STEP_ROWS` steps.
    pub steps: Vec<StepRow>,
    pub steps_omitted: u64,
    /// A suggested `--strip-prefix` when one-sided names differ by a prefix.
    pub hint: Option<String>,
    /// `--stats` names no aligned pair had on both sides (a typo, or a stat
    /// one trace did not record): the CLI refuses them as bad usage.
    #[serde(skip)]
    pub stats_never_compared: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct SideSummary {
    pub path: String,
    pub lines: u64,
    pub records: u64,
    /// Runs in the file: a step lower than the previous one starts a new pass.
    pub passes: u32,
    pub steps: u64,
    /// Lines that are not records (bad JSON, missing fields, duplicates, ...)
    /// and records with a malformed stat value (such a value is not compared).
    pub malformed: u64,
    /// The first of them as `file:line: reason`.
    pub problems: Vec<String>,
    /// Read errors among them: the rest of the file was not read.
    pub read_errors: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Divergence {
    pub pass: u32,
    pub step: i64,
    /// The name records were aligned by (after `--strip-prefix` / `--map`).
    pub module: String,
    /// The names as each file wrote them.
    pub module_a: String,
    pub module_b: String,
    pub tensor: String,
    pub call: u64,
    pub line_a: u64,
    pub line_b: u64,
    /// The stats beyond tolerance, in A's order.
    pub stats: Vec<StatDiff>,
    pub shape: Option<Mismatch<Vec<i64>>>,
    pub dtype: Option<Mismatch<String>>,
    /// Largest relative error among `stats`; inf for a NaN facing a number,
    /// an infinity facing a finite number, or a shape or dtype mismatch.
    #[serde(serialize_with = "ser_f64")]
    pub max_rel_error: f64,
    /// Stats present on both sides that could not be compared.
    pub not_comparable: Vec<String>,
    #[serde(skip)]
    pub seq_a: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct StatDiff {
    pub stat: String,
    pub a: RecordedStat,
    pub b: RecordedStat,
    #[serde(serialize_with = "ser_f64")]
    pub abs_error: f64,
    #[serde(serialize_with = "ser_f64")]
    pub rel_error: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Mismatch<T> {
    pub a: T,
    pub b: T,
}

#[derive(Debug, Default, Serialize)]
pub struct OneSided {
    pub records: u64,
    /// Grouped by module and tensor, in the order they first appeared.
    pub groups: Vec<OneSidedGroup>,
    pub groups_omitted: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct OneSidedGroup {
    pub module: String,
    /// As the file wrote it (differs from `module` when names are mapped).
    pub original: String,
    pub tensor: String,
    pub records: u64,
    pub first_pass: u32,
    pub first_step: i64,
    pub first_line: u64,
    #[serde(skip)]
    pub first_seq: u64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct StepRow {
    pub pass: u32,
    pub step: i64,
    pub compared: u64,
    pub divergent: u64,
    /// Distinct modules with at least one divergent record in this step.
    pub divergent_modules: u64,
    pub only_in_a: u64,
    pub only_in_b: u64,
    /// Largest relative error of any stat beyond tolerance (0 if none).
    #[serde(serialize_with = "ser_f64")]
    pub max_rel_error: f64,
}
