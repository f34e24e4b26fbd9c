//! Records from statistics reduced inside a `torch.compile` graph.
//!
//! Under `torch.compile` the hooks do not hand whole tensors to the custom op:
//! that would force the compiler to keep every observed intermediate in a
//! buffer of its own and to call an opaque consumer on it. They reduce each
//! tensor in the graph instead (float64 sums, which the compiler fuses into
//! the kernels producing the tensor) and hand over a few float64 "parts" per
//! tensor, its sizes and a layout string. This module turns those parts into
//! the same [`Summary`], hence the same records, as the one-pass kernel.
//!
//! Parts per tensor, in this order, only those `Need` asks for: `sum`,
//! `abs_sum`, then the sums of `x - x[0]` and of its square (the kernel's
//! shifted variance sums), then `min` and `max`. Where a part has no meaning
//! (variance sums below two elements, min/max of an empty tensor) the graph
//! puts any value there and it is ignored, as the kernel ignores them.

use super::stats::{Need, Summary};
use super::tracer::{RecordError, TensorInfo, Tracer};

/// Separates the tensors of a layout string (as the names of the op's
/// full-tensor twin: Python's `_op.SEP`).
pub const TENSOR_SEP: char = '\u{1f}';
/// Separates the fields of one tensor in a layout string: name, dtype, ndim.
pub const FIELD_SEP: char = '\u{1e}';

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Sum,
    AbsSum,
    ShiftedSum,
    ShiftedSquares,
    Min,
    Max,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Sum => "sum",
            Part::AbsSum => "abs_sum",
            Part::ShiftedSum => "shifted_sum",
            Part::ShiftedSquares => "shifted_squares",
            Part::Min => "min",
            Part::Max => "max",
        }
    }
}

/// The parts reduced for each tensor when a trace needs `need`, in order.
pub fn parts(need: Need) -> Vec<Part> {
    let mut parts = vec![Part::Sum];
    if need.abs {
        parts.push(Part::AbsSum);
    }
    if need.var {
        parts.extend([Part::ShiftedSum, Part::ShiftedSquares]);
    }
    if need.min_max {
        parts.extend([Part::Min, Part::Max]);
    }
    parts
}

/// The summary of a tensor of `count` elements from its reduced `values`
/// (one per part), with the kernel's rules for what is undefined.
pub fn summary(parts: &[Part], values: &[f64], count: u64) -> Summary {
    let mut s = Summary {
        count,
        sum: f64::NAN,
        abs_sum: f64::NAN,
        var: f64::NAN,
        min: f64::NAN,
        max: f64::NAN,
    };
    let (mut dsum, mut dsq) = (f64::NAN, f64::NAN);
    for (&part, &v) in parts.iter().zip(values) {
        match part {
            Part::Sum => s.sum = v,
            Part::AbsSum => s.abs_sum = v,
            Part::ShiftedSum => dsum = v,
            Part::ShiftedSquares => dsq = v,
            Part::Min => s.min = v,
            Part::Max => s.max = v,
        }
    }
    // As the kernel: a non-finite sum (a NaN or an infinity inside) leaves the
    // variance undefined; the graph's min/max already propagate NaN as torch's.
    if count >= 2 && s.sum.is_finite() {
        let n = count as f64;
        s.var = ((dsq - dsum * dsum / n) / (n - 1.0)).max(0.0);
    }
    s
}

/// One tensor of a layout string.
#[derive(Debug, PartialEq)]
pub struct LayoutTensor<'a> {
    pub name: &'a str,
    pub dtype: &'a str,
    pub shape: &'a [i64],
}

/// Splits `layout` (`name FIELD_SEP dtype FIELD_SEP ndim`, tensors joined by
/// `TENSOR_SEP`) and hands each tensor its dims from `sizes`, in order.
pub fn parse_layout<'a>(layout: &'a str, sizes: &'a [i64]) -> Result<Vec<LayoutTensor<'a>>, String> {
    let mut tensors = Vec::new();
    let mut rest = sizes;
    for entry in layout.split(TENSOR_SEP) {
        let mut fields = entry.split(FIELD_SEP);
        let (Some(name), Some(dtype), Some(ndim), None) = (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("bad layout entry {entry:?}"));
        };
        let ndim: usize = ndim
            .parse()
            .map_err(|_| format!("bad ndim in layout entry {entry:?}"))?;
        if ndim > rest.len() {
            return Err(format!("{} sizes for layout {layout:?}", sizes.len()));
        }
        let (shape, tail) = rest.split_at(ndim);
        rest = tail;
        tensors.push(LayoutTensor { name, dtype, shape });
    }
    if !rest.is_empty() {
        return Err(format!("{} sizes for layout {layout:?}", sizes.len()));
    }
    Ok(tensors)
}

impl Tracer {
    /// Records call `call` of `module` from values reduced in a graph: for
    /// each tensor of `layout`, one value per part of [`parts`].
    pub fn record_reduced(
        &self,
        module: usize,
        call: u64,
        layout: &str,
        sizes: &[i64],
        values: &[f64],
    ) -> Result<(), RecordError> {
        let invalid = RecordError::BadInput;
        let tensors = parse_layout(layout, sizes).map_err(invalid)?;
        let parts = parts(self.stats().need());
        if values.len() != parts.len() * tensors.len() {
            return Err(invalid(format!(
                "{} reduced values for {} tensors of {} parts",
                values.len(),
                tensors.len(),
                parts.len()
            )));
        }
        for (tensor, chunk) in tensors.iter().zip(values.chunks_exact(parts.len())) {
            let count = tensor.shape.iter().map(|&d| d.max(0) as u64).product();
            let info = TensorInfo {
                module,
                tensor: tensor.name,
                call,
                shape: tensor.shape,
                dtype: tensor.dtype,
            };
            self.record_summary(&info, &summary(&parts, chunk, count))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activations::stats::{summarize, Stat, StatSet, Value};

    /// What the graph computes, done here in f64 from the same data.
    fn reduce(parts: &[Part], data: &[f32]) -> Vec<f64> {
        let d: Vec<f64> = data.iter().map(|&x| x as f64).collect();
        let shift = d.first().copied().unwrap_or(0.0);
        parts
            .iter()
            .map(|part| match part {
                Part::Sum => d.iter().sum(),
                Part::AbsSum => d.iter().map(|x| x.abs()).sum(),
                Part::ShiftedSum => d.iter().map(|x| x - shift).sum(),
                Part::ShiftedSquares => d.iter().map(|x| (x - shift) * (x - shift)).sum(),
                // torch.amin/amax propagate NaN; any value stands in for an empty tensor.
                Part::Min if d.iter().any(|x| x.is_nan()) => f64::NAN,
                Part::Max if d.iter().any(|x| x.is_nan()) => f64::NAN,
                Part::Min => d.iter().copied().fold(f64::INFINITY, f64::min),
                Part::Max => d.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            })
            .collect()
    }

    fn values(summary: &Summary) -> Vec<Value> {
        StatSet::parse(&["abs_mean", "sum", "min", "max", "mean", "std"])
            .unwrap()
            .values()
            .iter()
            .map(|&s| summary.value(s))
            .collect()
    }

    fn close(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
            }
            _ => a == b,
        }
    }

    #[test]
    fn reduced_parts_give_the_values_of_the_one_pass_kernel() {
        let all = parts(Need::ALL);
        let cases: Vec<Vec<f32>> = vec![
            (0..1000)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.013 + 1e3)
                .collect(),
            vec![1.0, f32::NAN, -2.0],
            vec![1.0, f32::INFINITY, -2.0],
            vec![f32::INFINITY, f32::NEG_INFINITY, 1.0],
            vec![3.0],
            vec![],
        ];
        for data in cases {
            let kernel = summarize(&data, Need::ALL);
            let reduced = summary(&all, &reduce(&all, &data), data.len() as u64);
            for (k, r) in values(&kernel).iter().zip(values(&reduced).iter()) {
                assert!(close(k, r), "{data:?}: kernel {k:?}, reduced {r:?}");
            }
        }
    }

    #[test]
    fn parts_follow_what_the_stats_need() {
        let need = |names: &[&str]| StatSet::parse(names).unwrap().need();
        assert_eq!(parts(need(&["sum"])), [Part::Sum]);
        assert_eq!(parts(need(&["abs_mean", "sum"])), [Part::Sum, Part::AbsSum]);
        assert_eq!(
            parts(need(&["max", "std"])),
            [Part::Sum, Part::ShiftedSum, Part::ShiftedSquares, Part::Min, Part::Max]
        );
        assert_eq!(Part::ShiftedSquares.name(), "shifted_squares");
        assert_eq!(Stat::Std.name(), "std");
    }

    #[test]
    fn layouts_split_into_tensors_with_their_dims() {
        let layout =
            "out[0]\u{1e}torch.float32\u{1e}2\u{1f}out[1]\u{1e}torch.bool\u{1e}0\u{1f}out[2]\u{1e}torch.int64\u{1e}1";
        let got = parse_layout(layout, &[3, 4, 0]).unwrap();
        assert_eq!(
            got,
            [
                LayoutTensor {
                    name: "out[0]",
                    dtype: "torch.float32",
                    shape: &[3, 4]
                },
                LayoutTensor {
                    name: "out[1]",
                    dtype: "torch.bool",
                    shape: &[]
                },
                LayoutTensor {
                    name: "out[2]",
                    dtype: "torch.int64",
                    shape: &[0]
                },
            ]
        );
        assert!(parse_layout(layout, &[3, 4]).is_err());
        assert!(parse_layout(layout, &[3, 4, 0, 1]).is_err());
        assert!(parse_layout("out\u{1e}torch.float32", &[]).is_err());
        assert!(parse_layout("out\u{1e}torch.float32\u{1e}x", &[]).is_err());
    }

    #[test]
    fn a_module_call_becomes_one_record_per_tensor() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let stats = StatSet::parse(&["sum", "max", "std"]).unwrap();
        let t = Tracer::open(&path, stats, vec!["m".into()], None).unwrap();
        let parts = parts(t.stats().need());
        let (a, b): (Vec<f32>, Vec<f32>) = (vec![1.0, -4.0, 2.5, 0.5], vec![]);
        let mut values = reduce(&parts, &a);
        values.extend(reduce(&parts, &b).iter().map(|_| 0.0));
        let layout = "out[0]\u{1e}torch.float32\u{1e}2\u{1f}out[1]\u{1e}torch.bfloat16\u{1e}1";
        t.record_reduced(0, 3, layout, &[2, 2, 0], &values).unwrap();
        assert!(t.record_reduced(0, 3, layout, &[2, 2, 0], &values[1..]).is_err());
        t.close().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!((first["sum"].as_f64(), first["max"].as_f64()), (Some(0.0), Some(2.5)));
        let std = first["std"].as_f64().unwrap();
        assert!((std - (23.5f64 / 3.0).sqrt()).abs() < 1e-12, "{std}");
        assert_eq!(
            lines[1],
            "{\"module\":\"m\",\"tensor\":\"out[1]\",\"step\":0,\"sum\":0.0,\"max\":null,\"std\":\"nan\",\
             \"shape\":[0],\"dtype\":\"torch.bfloat16\",\"call\":3}"
        );
    }
}
