//! One activation-trace record as one JSON line (the format: `format`).
//!
//! Every line is strict JSON. A finite number is written in its shortest
//! round-trip form; a non-finite one as the string `"nan"`, `"inf"` or
//! `"-inf"` (what Python's `float()` reads back); a statistic with no value
//! (min/max of an empty tensor) as `null`; a statistic that failed as the
//! string `"<error: ...>"`.

use std::io::Write;

use super::format::{self, CALL, DTYPE, MODULE, SHAPE, STEP, TENSOR};
use super::stats::{Stat, Value};

/// Appends `text` as a JSON string.
pub fn push_json_str(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *out, text).expect("writing to a Vec cannot fail");
}

/// Appends `value` as JSON: a number if finite, else `"nan"`, `"inf"` or `"-inf"`.
pub fn push_f64(out: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        serde_json::to_writer(&mut *out, &value).expect("writing to a Vec cannot fail");
    } else if value.is_nan() {
        push_plain_str(out, format::NAN);
    } else if value > 0.0 {
        push_plain_str(out, format::INF);
    } else {
        push_plain_str(out, format::NEG_INF);
    }
}

/// Appends a string that needs no escaping (the format's own names) without
/// running it through the JSON escaper.
fn push_plain_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// Appends `,"name":`, the start of every field but a record's first.
fn push_key(out: &mut Vec<u8>, name: &str) {
    out.push(b',');
    push_plain_str(out, name);
    out.push(b':');
}

pub fn push_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Number(v) => push_f64(out, *v),
        Value::Undefined => out.extend_from_slice(b"null"),
        Value::Error(message) => push_json_str(out, &format::error_value(message)),
    }
}

fn push_int(out: &mut Vec<u8>, value: i64) {
    write!(out, "{value}").expect("writing to a Vec cannot fail");
}

/// `{"module":"<name>","tensor":` — the part of a record fixed per module,
/// rendered once when the trace is attached.
pub fn module_prefix(module: &str) -> Vec<u8> {
    let mut out = b"{".to_vec();
    push_plain_str(&mut out, MODULE);
    out.push(b':');
    push_json_str(&mut out, module);
    push_key(&mut out, TENSOR);
    out
}

/// Everything a record holds besides its statistics.
pub struct Head<'a> {
    pub module_prefix: &'a [u8],
    pub tensor: &'a str,
    pub step: i64,
    pub call: u64,
    pub shape: &'a [i64],
    pub dtype: &'a str,
}

/// Appends one record and its newline to `out`.
pub fn push_record(out: &mut Vec<u8>, head: &Head<'_>, stats: impl IntoIterator<Item = (Stat, Value)>) {
    out.extend_from_slice(head.module_prefix);
    push_json_str(out, head.tensor);
    push_key(out, STEP);
    push_int(out, head.step);
    for (stat, value) in stats {
        push_key(out, stat.name());
        push_value(out, &value);
    }
    push_key(out, SHAPE);
    out.push(b'[');
    for (i, dim) in head.shape.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_int(out, *dim);
    }
    out.push(b']');
    push_key(out, DTYPE);
    push_json_str(out, head.dtype);
    push_key(out, CALL);
    push_int(out, head.call as i64);
    out.extend_from_slice(b"}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(stats: Vec<(Stat, Value)>, shape: &[i64]) -> String {
        let prefix = module_prefix("blocks.0.\"attn\"");
        let head = Head {
            module_prefix: &prefix,
            tensor: "out[0]",
            step: 12,
            call: 1,
            shape,
            dtype: "torch.bfloat16",
        };
        let mut out = Vec::new();
        push_record(&mut out, &head, stats);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_record_is_one_line_of_strict_json_in_the_documented_order() {
        let line = record(
            vec![
                (Stat::AbsMean, Value::Number(0.1)),
                (Stat::Sum, Value::Number(-3.0)),
                (Stat::Max, Value::Number(1e300)),
            ],
            &[2, 0, 5],
        );
        assert_eq!(
            line,
            "{\"module\":\"blocks.0.\\\"attn\\\"\",\"tensor\":\"out[0]\",\"step\":12,\"abs_mean\":0.1,\
             \"sum\":-3.0,\"max\":1e+300,\"shape\":[2,0,5],\"dtype\":\"torch.bfloat16\",\"call\":1}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed["max"], 1e300);
    }

    #[test]
    fn non_finite_missing_and_failed_values_stay_valid_json() {
        let line = record(
            vec![
                (Stat::Sum, Value::Number(f64::NAN)),
                (Stat::Mean, Value::Number(f64::INFINITY)),
                (Stat::Std, Value::Number(f64::NEG_INFINITY)),
                (Stat::Min, Value::Undefined),
                (Stat::Max, Value::Error("max(): \"boom\"".into())),
            ],
            &[],
        );
        assert_eq!(
            line,
            "{\"module\":\"blocks.0.\\\"attn\\\"\",\"tensor\":\"out[0]\",\"step\":12,\"sum\":\"nan\",\"mean\":\"inf\",\
             \"std\":\"-inf\",\"min\":null,\"max\":\"<error: max(): \\\"boom\\\">\",\"shape\":[],\"dtype\":\"torch.bfloat16\",\"call\":1}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed["sum"], "nan");
        assert_eq!(parsed["mean"], "inf");
        assert_eq!(parsed["std"], "-inf");
        assert_eq!(parsed["min"], serde_json::Value::Null);
        assert_eq!(parsed["max"], "<error: max(): \"boom\">");
        assert_eq!(parsed["shape"], serde_json::json!([]));
    }

    #[test]
    fn finite_floats_round_trip_exactly() {
        for v in [0.0, -0.0, 1.0 / 3.0, 123456789.125, 5e-324, f64::MAX, 2.5e-7] {
            let mut out = Vec::new();
            push_f64(&mut out, v);
            let back: f64 = serde_json::from_slice(&out).unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{}", String::from_utf8_lossy(&out));
        }
    }
}
