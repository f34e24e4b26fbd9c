//! The activation-trace format, in one place for the writer (`record`,
//! `stats`) and the reader (`activation_diff`), so the two cannot drift.
//!
//! One record per line:
//! `{"module": .., "tensor": .., "step": .., <stats>.., "shape": [..], "dtype": .., "call": ..}`.
//! The fields and stat names are those of the reference format, which has
//! no `call`; every key that is not a field is a statistic. A statistic is a
//! number, or one of the strings below, or `null` (no value: min/max of an
//! empty tensor).

pub const MODULE: &str = "module";
pub const TENSOR: &str = "tensor";
pub const STEP: &str = "step";
/// Ours only: which call of the module in the step this record is.
pub const CALL: &str = "call";
/// Both a field and a stat name (`Stat::Shape`), as in the reference format.
pub const SHAPE: &str = "shape";
/// Both a field and a stat name (`Stat::Dtype`), as in the reference format.
pub const DTYPE: &str = "dtype";

/// The value statistics (`Stat`'s names).
pub const ABS_MEAN: &str = "abs_mean";
pub const SUM: &str = "sum";
pub const MIN: &str = "min";
pub const MAX: &str = "max";
pub const MEAN: &str = "mean";
pub const STD: &str = "std";

/// Non-finite numbers, as strings: strict JSON, and what Python's `float()`
/// reads back.
pub const NAN: &str = "nan";
pub const INF: &str = "inf";
pub const NEG_INF: &str = "-inf";

/// How a statistic that could not be computed starts: `"<error: message>"`.
pub const ERROR_PREFIX: &str = "<error";

/// A failed statistic's value.
pub fn error_value(message: &str) -> String {
    format!("{ERROR_PREFIX}: {message}>")
}
