//! Activation statistics: which ones exist, and one pass over an `f32` buffer
//! that computes every requested one at once.
//!
//! Sums are accumulated in `f64` (see `kernel`), so they match a float64
//! computation to ~1e-15 relative whatever the length. The variance uses sums
//! shifted by the first element, which keeps `E[x^2] - E[x]^2` from cancelling
//! when the mean is large compared with the spread.

use std::fmt;

use super::format;
use super::kernel::{self, combine};

/// A statistic the activation trace can record, named as in the reference
/// format (`abs_mean, sum, min, max, mean, std, shape, dtype`; the names
/// live in `format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stat {
    AbsMean,
    Sum,
    Min,
    Max,
    Mean,
    Std,
    Shape,
    Dtype,
}

impl Stat {
    pub const ALL: [Stat; 8] = [
        Stat::AbsMean,
        Stat::Sum,
        Stat::Min,
        Stat::Max,
        Stat::Mean,
        Stat::Std,
        Stat::Shape,
        Stat::Dtype,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stat::AbsMean => format::ABS_MEAN,
            Stat::Sum => format::SUM,
            Stat::Min => format::MIN,
            Stat::Max => format::MAX,
            Stat::Mean => format::MEAN,
            Stat::Std => format::STD,
            Stat::Shape => format::SHAPE,
            Stat::Dtype => format::DTYPE,
        }
    }

    pub fn parse(name: &str) -> Option<Stat> {
        Stat::ALL.into_iter().find(|s| s.name() == name.trim())
    }

    /// `shape` and `dtype` describe the tensor; every other stat is a number
    /// computed from its values.
    pub fn is_value(self) -> bool {
        !matches!(self, Stat::Shape | Stat::Dtype)
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The value statistics a trace records, in the order the user asked for
/// them (duplicates dropped). `shape` and `dtype` are accepted but not kept:
/// every record carries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatSet {
    values: Vec<Stat>,
}

impl StatSet {
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<StatSet, String> {
        let mut values = Vec::new();
        for name in names {
            let name = name.as_ref();
            let stat = Stat::parse(name).ok_or_else(|| {
                let known: Vec<&str> = Stat::ALL.iter().map(|s| s.name()).collect();
                format!("unknown activation stat {name:?}; known stats: {}", known.join(", "))
            })?;
            if stat.is_value() && !values.contains(&stat) {
                values.push(stat);
            }
        }
        Ok(StatSet { values })
    }

    /// The value stats, in record order.
    pub fn values(&self) -> &[Stat] {
        &self.values
    }

    /// What the pass over the data has to compute for these stats.
    pub fn need(&self) -> Need {
        let has = |s: Stat| self.values.contains(&s);
        Need {
            abs: has(Stat::AbsMean),
            var: has(Stat::Std),
            min_max: has(Stat::Min) || has(Stat::Max),
        }
    }
}

/// The optional parts of a pass (the plain sum is always computed: it is
/// nearly free and tells whether a NaN is present).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need {
    pub abs: bool,
    pub var: bool,
    pub min_max: bool,
}

impl Need {
    pub const ALL: Need = Need {
        abs: true,
        var: true,
        min_max: true,
    };
}

/// What one pass found. Fields that were not asked for are NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub sum: f64,
    pub abs_sum: f64,
    /// Unbiased variance (divides by `count - 1`, like `torch.var`).
    pub var: f64,
    /// NaN if any element is NaN (as `torch.min`); +inf when empty.
    pub min: f64,
    /// NaN if any element is NaN (as `torch.max`); -inf when empty.
    pub max: f64,
}

/// A recorded statistic: a number, "no value" (min/max of an empty tensor),
/// or the reason it could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Undefined,
    Error(String),
}

impl Summary {
    /// The value of `stat` with torch's semantics on `detach().float()`:
    /// `sum` of an empty tensor is 0, its `mean`/`abs_mean`/`std` are NaN,
    /// `std` of one element is NaN, and its `min`/`max` have no value.
    pub fn value(&self, stat: Stat) -> Value {
        let n = self.count as f64;
        match stat {
            Stat::Sum => Value::Number(self.sum),
            Stat::Mean => Value::Number(if self.count == 0 { f64::NAN } else { self.sum / n }),
            Stat::AbsMean => Value::Number(if self.count == 0 { f64::NAN } else { self.abs_sum / n }),
            Stat::Std => Value::Number(self.var.sqrt()),
            Stat::Min if self.count == 0 => Value::Undefined,
            Stat::Max if self.count == 0 => Value::Undefined,
            Stat::Min => Value::Number(self.min),
            Stat::Max => Value::Number(self.max),
            Stat::Shape | Stat::Dtype => Value::Error(format!("{stat} is not a value statistic")),
        }
    }
}

/// Computes, in one pass over `data`, the parts of the summary `need` asks for.
pub fn summarize(data: &[f32], need: Need) -> Summary {
    match (need.abs, need.var, need.min_max) {
        (false, false, false) => finish::<false, false, false>(data),
        (false, false, true) => finish::<false, false, true>(data),
        (false, true, false) => finish::<false, true, false>(data),
        (false, true, true) => finish::<false, true, true>(data),
        (true, false, false) => finish::<true, false, false>(data),
        (true, false, true) => finish::<true, false, true>(data),
        (true, true, false) => finish::<true, true, false>(data),
        (true, true, true) => finish::<true, true, true>(data),
    }
}

fn finish<const ABS: bool, const VAR: bool, const MIN_MAX: bool>(data: &[f32]) -> Summary {
    let shift = data.first().map_or(0.0, |&x| x as f64);
    let lanes = kernel::pass::<ABS, VAR, MIN_MAX>(data, shift);
    let count = data.len() as u64;
    let n = count as f64;
    let sum = combine(&lanes.sum);
    // A NaN makes the sum NaN; comparisons skip NaNs, so look for one only then.
    let has_nan = sum.is_nan() && data.iter().any(|x| x.is_nan());
    let var = if !VAR || count < 2 || has_nan || !sum.is_finite() {
        f64::NAN
    } else {
        let (ds, dq) = (combine(&lanes.dsum), combine(&lanes.dsq));
        ((dq - ds * ds / n) / (n - 1.0)).max(0.0)
    };
    let (min, max) = if !MIN_MAX || has_nan {
        (f64::NAN, f64::NAN)
    } else {
        let lo = lanes.lo.iter().fold(f32::INFINITY, |a, &b| a.min(b));
        let hi = lanes.hi.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        (lo as f64, hi as f64)
    };
    Summary {
        count,
        sum,
        abs_sum: if ABS { combine(&lanes.abs) } else { f64::NAN },
        var,
        min,
        max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(data: &[f32]) -> (f64, f64, f64) {
        // Two-pass reference in f64.
        let n = data.len() as f64;
        let sum: f64 = data.iter().map(|&x| x as f64).sum();
        let mean = sum / n;
        let var = data.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (sum, data.iter().map(|&x| (x as f64).abs()).sum(), var)
    }

    fn pseudo_random(n: usize, offset: f32) -> Vec<f32> {
        let mut state = 0x2545_f491_u64;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 4.0 + offset
            })
            .collect()
    }

    #[test]
    fn every_stat_matches_a_two_pass_f64_reference_at_every_length() {
        for n in [1, 2, 15, 16, 17, 100, 1000, 4099] {
            let data = pseudo_random(n, 0.25);
            let s = summarize(&data, Need::ALL);
            let (sum, abs_sum, var) = exact(&data);
            assert_eq!(s.count, n as u64);
            assert!((s.sum - sum).abs() <= 1e-12 * abs_sum, "n={n}");
            assert!((s.abs_sum - abs_sum).abs() <= 1e-12 * abs_sum);
            if n > 1 {
                assert!((s.var - var).abs() <= 1e-10 * var, "n={n}: {} vs {var}", s.var);
            } else {
                assert!(s.var.is_nan());
            }
            let lo = data.iter().cloned().fold(f32::INFINITY, f32::min) as f64;
            let hi = data.iter().cloned().fold(f32::NEG_INFINITY, f32::max) as f64;
            assert_eq!((s.min, s.max), (lo, hi));
        }
    }

    #[test]
    fn a_large_mean_does_not_cancel_the_variance() {
        let data: Vec<f32> = pseudo_random(10_000, 0.0).iter().map(|x| 1.0e4 + x * 1e-2).collect();
        let (_, _, var) = exact(&data);
        let s = summarize(&data, Need::ALL);
        assert!((s.var - var).abs() <= 1e-9 * var, "{} vs {var}", s.var);
    }

    #[test]
    fn the_portable_and_the_vectorized_passes_agree_bit_for_bit() {
        // 12_345 = 771 chunks of 16 and a tail of 9.
        let mut data = pseudo_random(12_345, 1.0);
        data[100] = f32::NAN;
        let shift = data[0] as f64;
        let slow = kernel::portable::<true, true, true>(&data, shift);
        let mut versions = vec![("dispatched", kernel::pass::<true, true, true>(&data, shift))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is supported (checked).
                versions.push(("avx2", unsafe { kernel::avx2::pass::<true, true, true>(&data, shift) }));
            }
        }
        for (name, fast) in versions {
            for (a, b) in [
                (fast.sum, slow.sum),
                (fast.abs, slow.abs),
                (fast.dsum, slow.dsum),
                (fast.dsq, slow.dsq),
            ] {
                assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{name}");
            }
            assert_eq!((fast.lo, fast.hi), (slow.lo, slow.hi), "{name}");
        }
    }

    #[test]
    fn nan_inf_and_empty_follow_torch() {
        let mut data = pseudo_random(100, 0.0);
        data[37] = f32::NAN;
        let s = summarize(&data, Need::ALL);
        assert!(s.sum.is_nan() && s.min.is_nan() && s.max.is_nan() && s.var.is_nan());

        let s = summarize(&[1.0, f32::INFINITY, -2.0], Need::ALL);
        assert_eq!((s.sum, s.min, s.max), (f64::INFINITY, -2.0, f64::INFINITY));
        assert!(s.var.is_nan());
        assert_eq!(s.value(Stat::AbsMean), Value::Number(f64::INFINITY));

        let s = summarize(&[], Need::ALL);
        assert_eq!(s.value(Stat::Sum), Value::Number(0.0));
        assert_eq!(s.value(Stat::Min), Value::Undefined);
        assert_eq!(s.value(Stat::Max), Value::Undefined);
        for stat in [Stat::Mean, Stat::AbsMean, Stat::Std] {
            assert!(matches!(s.value(stat), Value::Number(v) if v.is_nan()), "{stat}");
        }
        let one = summarize(&[3.0], Need::ALL);
        assert_eq!(one.value(Stat::Mean), Value::Number(3.0));
        assert!(matches!(one.value(Stat::Std), Value::Number(v) if v.is_nan()));
    }

    #[test]
    fn stat_sets_keep_order_drop_duplicates_and_name_unknown_stats() {
        let set = StatSet::parse(&["sum", "shape", "abs_mean", "sum", " max"]).unwrap();
        assert_eq!(set.values(), &[Stat::Sum, Stat::AbsMean, Stat::Max]);
        assert_eq!(
            set.need(),
            Need {
                abs: true,
                var: false,
                min_max: true
            }
        );
        let err = StatSet::parse(&["sum", "median"]).unwrap_err();
        assert!(err.contains("\"median\"") && err.contains("abs_mean, sum, min, max, mean, std, shape, dtype"));
    }
}
