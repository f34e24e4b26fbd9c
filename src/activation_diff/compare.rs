//! Comparing two values of one statistic: tolerances, and values that carry
//! no number (NaN, null, `"<error: ...>"`) and so cannot be compared.

use serde::{Serialize, Serializer};

/// Defaults sized for bf16 noise: bf16 keeps 8 significant bits, so one
/// rounding moves a value by up to 2^-8 ≈ 0.4%, and a reduction over a
/// tensor adds a few such roundings; 1% stays above that while the bugs a
/// parity check hunts (a wrong weight, a missing scale) move stats by more.
pub const DEFAULT_RTOL: f64 = 1e-2;
/// Stats that should be ~0 (mean or sum of a centred tensor) are pure noise
/// in relative terms; differences below this absolute level are ignored.
pub const DEFAULT_ATOL: f64 = 1e-4;

/// One statistic as a trace records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RecordedStat {
    /// A number, including ±inf (`"inf"`, `"-inf"` or a bare `Infinity`).
    Number(f64),
    /// `"nan"` (or a bare `NaN`).
    Nan,
    /// `null`: no value (min/max of an empty tensor).
    Null,
    /// `"<error: ...>"`: the stat could not be computed.
    Error,
    /// Anything else (a bool, a list, an unknown string).
    Other,
}

impl RecordedStat {
    /// The value as our traces write it: numbers, `"nan"`, `"inf"`, `null`.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            RecordedStat::Number(v) => json_f64(v),
            RecordedStat::Nan => "nan".into(),
            RecordedStat::Null => serde_json::Value::Null,
            RecordedStat::Error => "<error>".into(),
            RecordedStat::Other => "<not a number>".into(),
        }
    }
}

impl Serialize for RecordedStat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// A finite number as a JSON number; a non-finite one as `"nan"`, `"inf"`
/// or `"-inf"`, the encoding of the traces themselves (strict JSON).
pub fn json_f64(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into)
    } else if v.is_nan() {
        "nan".into()
    } else if v > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// `serialize_with` for f64 fields of the JSON output.
pub fn ser_f64<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    json_f64(*v).serialize(s)
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Tolerance {
    pub rtol: f64,
    pub atol: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            rtol: DEFAULT_RTOL,
            atol: DEFAULT_ATOL,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    Equal,
    /// Differs beyond tolerance; the relative error (may be inf).
    Differs(f64),
    NotComparable,
}

impl Tolerance {
    /// `|a - b| <= atol + rtol * max(|a|, |b|)`, symmetric so that swapping
    /// the traces never changes the verdict.
    ///
    /// A NaN facing a number differs (rel. error inf): a port that starts
    /// producing NaN is exactly what a parity check must catch, and every
    /// later layer is NaN too, so calling it "not comparable" would pass a
    /// broken port. NaN facing NaN, `null`, `<error>` and non-numbers on
    /// either side are not comparable: counted, never a divergence.
    pub fn compare(&self, a: RecordedStat, b: RecordedStat) -> Outcome {
        match (a, b) {
            (RecordedStat::Number(x), RecordedStat::Number(y)) => {
                if x == y {
                    return Outcome::Equal;
                }
                if x.is_infinite() || y.is_infinite() {
                    // The tolerance would scale to inf and accept anything.
                    return Outcome::Differs(f64::INFINITY);
                }
                let diff = (x - y).abs();
                let scale = x.abs().max(y.abs());
                if diff <= self.atol + self.rtol * scale {
                    Outcome::Equal
                } else {
                    Outcome::Differs(relative_error(x, y))
                }
            }
            (RecordedStat::Nan, RecordedStat::Number(_)) | (RecordedStat::Number(_), RecordedStat::Nan) => {
                Outcome::Differs(f64::INFINITY)
            }
            _ => Outcome::NotComparable,
        }
    }
}

/// `|a - b| / max(|a|, |b|)`: 0 for equal values, at most 2 for finite ones
/// (opposite signs), inf when one side is infinite and the other is not.
pub fn relative_error(a: f64, b: f64) -> f64 {
    if a == b {
        return 0.0;
    }
    let diff = (a - b).abs();
    if diff.is_nan() {
        return f64::INFINITY;
    }
    let scale = a.abs().max(b.abs());
    if scale.is_infinite() {
        f64::INFINITY
    } else {
        diff / scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RecordedStat::*;

    #[test]
    fn within_tolerance_is_equal_and_beyond_it_differs_with_its_relative_error() {
        let t = Tolerance { rtol: 1e-2, atol: 1e-4 };
        assert_eq!(t.compare(Number(1.0), Number(1.009)), Outcome::Equal);
        assert_eq!(t.compare(Number(1.009), Number(1.0)), Outcome::Equal);
        match t.compare(Number(1.0), Number(1.1)) {
            Outcome::Differs(rel) => assert!((rel - 0.1 / 1.1).abs() < 1e-12),
            other => panic!("{other:?}"),
        }
        // Near zero only atol counts.
        assert_eq!(t.compare(Number(0.0), Number(9e-5)), Outcome::Equal);
        assert!(matches!(t.compare(Number(0.0), Number(2e-4)), Outcome::Differs(_)));
    }

    #[test]
    fn infinities_compare_by_sign() {
        let t = Tolerance::default();
        let inf = f64::INFINITY;
        assert_eq!(t.compare(Number(inf), Number(inf)), Outcome::Equal);
        assert_eq!(t.compare(Number(inf), Number(-inf)), Outcome::Differs(inf));
        assert_eq!(t.compare(Number(inf), Number(1e300)), Outcome::Differs(inf));
    }

    #[test]
    fn values_without_a_number_are_not_comparable_except_nan_facing_a_number() {
        let t = Tolerance::default();
        for (a, b) in [
            (Nan, Nan),
            (Null, Null),
            (Error, Number(1.0)),
            (Number(1.0), Null),
            (Other, Other),
            (Error, Nan),
        ] {
            assert_eq!(t.compare(a, b), Outcome::NotComparable, "{a:?} {b:?}");
        }
        assert_eq!(t.compare(Nan, Number(0.5)), Outcome::Differs(f64::INFINITY));
        assert_eq!(t.compare(Number(0.5), Nan), Outcome::Differs(f64::INFINITY));
    }

    #[test]
    fn non_finite_numbers_are_written_like_the_traces_write_them() {
        assert_eq!(json_f64(f64::NAN), "nan");
        assert_eq!(json_f64(f64::NEG_INFINITY), "-inf");
        assert_eq!(json_f64(0.25), 0.25);
        assert_eq!(RecordedStat::Null.to_json(), serde_json::Value::Null);
    }
}
