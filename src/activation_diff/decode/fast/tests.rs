//! The fast path against the serde one: where it takes a line, the record
//! must be the one serde gives, floats bit for bit.

use super::number::{pow10, POW10};
use super::*;
use crate::activation_diff::decode::decode_serde;
use proptest::prelude::*;

/// A record as plain data, floats as bits (`-0` is not `0`).
type Flat = (
    [Option<String>; 3],
    Option<i64>,
    Option<u64>,
    Option<Vec<i64>>,
    Vec<(String, String)>,
);

fn flat(raw: &Raw) -> Flat {
    let name = |s: &Option<Cow<str>>| s.as_ref().map(|s| s.to_string());
    let stats = raw
        .stats
        .iter()
        .map(|(k, v)| {
            let v = match v {
                RecordedStat::Number(f) => format!("{:#x}", f.to_bits()),
                other => format!("{other:?}"),
            };
            (k.to_string(), v)
        })
        .collect();
    (
        [name(&raw.module), name(&raw.tensor), name(&raw.dtype)],
        raw.step,
        raw.call,
        raw.shape.clone(),
        stats,
    )
}

/// The fast path's record, after checking it against serde's.
fn fast_and_same(text: &str) -> Option<Flat> {
    same_after(text, &mut Layout::default())
}

/// Likewise, with what the lines before left in `layout`.
fn same_after(text: &str, layout: &mut Layout) -> Option<Flat> {
    let fast = decode(text.as_bytes(), layout).map(|raw| flat(&raw));
    let mut repaired = None;
    let serde = decode_serde(text.as_bytes(), &mut repaired).map(|raw| flat(&raw));
    if let Some(fast) = &fast {
        assert_eq!(Ok(fast), serde.as_ref().map_err(|e| &e.1), "{text}");
    }
    fast
}

fn taken(text: &str) -> Flat {
    fast_and_same(text).unwrap_or_else(|| panic!("left to serde: {text}"))
}

fn taken_after(text: &str, layout: &mut Layout) -> Flat {
    same_after(text, layout).unwrap_or_else(|| panic!("left to serde: {text}"))
}

fn left(text: &str) {
    assert_eq!(fast_and_same(text), None, "{text}");
}

const RECORD: &str = r#"{"module":"blocks.0.attn","tensor":"out","step":12,"abs_mean":0.8065909540908,"sum":-5.056557711213e-06,"max":3.12362122535,"std":1.00023842344,"shape":[1,4096,5120],"dtype":"torch.bfloat16","call":0}"#;

#[test]
fn the_common_record_is_taken() {
    let (names, step, call, shape, stats) = taken(RECORD);
    assert_eq!(names[0].as_deref(), Some("blocks.0.attn"));
    assert_eq!((step, call, shape), (Some(12), Some(0), Some(vec![1, 4096, 5120])));
    assert_eq!(stats.len(), 4);
}

#[test]
fn whitespace_unknown_keys_and_repeats_are_taken() {
    taken(" {\t\"module\" : \"m\" ,\r\n\"tensor\":\"t\", \"step\" : -3 , \"shape\" : [ ] , \"a\" : 1 } ");
    taken(r#"{}"#);
    taken(r#"{ }"#);
    taken(r#"{"": 1, "note": "x", "abs_mean": "<error: boom>", "z": null, "b": true, "c": false}"#);
    let (names, step, _, _, stats) = taken(r#"{"module":"a","step":1,"module":"b","step":2,"x":1,"x":2}"#);
    assert_eq!((names[0].as_deref(), step, stats.len()), (Some("b"), Some(2), 2));
}

#[test]
fn a_remembered_lead_gives_its_key_and_nothing_else() {
    let mut layout = Layout::default();
    let first = taken_after(RECORD, &mut layout);
    assert_eq!(taken_after(RECORD, &mut layout), first);
    // Other keys, spacing and order after the remembered ones.
    for text in [
        r#"{"module":"b","tensor":"out","step":13,"abs_mean":1,"sum":2,"max":3,"std":4,"shape":[1],"dtype":"x","call":1}"#,
        r#"{"module":"b","tensor":"out","step":13,"abs_mean":1,"max":3,"sum":2}"#,
        r#"{"module":"b", "tensor":"out","step" :13,"abs_mean" : 1}"#,
        r#"{"tensor":"out","module":"b"}"#,
        r#"{"module":"b"}"#,
        r#"{}"#,
        r#"{"module":"b","tensor":"out","step":13,"abs_mean": 1}"#,
        r#"{"module":"b","tensor":"out","step":13,"abs_mean":   1}"#,
        RECORD,
    ] {
        taken_after(text, &mut layout);
    }
    left(r#"{"module":"b","tensor":"out","step":13,"abs_mean":1,}"#);
    same_after(r#"{"module":"b","tensor":"out","step":13,"abs_mean":1,}"#, &mut layout);
}

#[test]
fn nan_and_infinity_bare_and_quoted_are_taken() {
    for text in [
        r#"{"a": NaN, "b": Infinity, "c": -Infinity}"#,
        r#"{"a": "NaN", "b": "Infinity", "c": "-Infinity"}"#,
        r#"{"a": "nan", "b": "inf", "c": "-inf", "d": "+inf", "e": "-nan"}"#,
    ] {
        let stats = taken(text).4;
        assert_eq!(stats[0].1, "Nan");
        assert_eq!(stats[1].1, format!("{:#x}", f64::INFINITY.to_bits()));
        assert_eq!(stats[2].1, format!("{:#x}", f64::NEG_INFINITY.to_bits()));
    }
    // Bare constants anywhere else, or misspelt, are serde's to report.
    left(r#"{"step": NaN}"#);
    left(r#"{"a": -NaN}"#);
    left(r#"{"a": Infinityx}"#);
    left(r#"{"a": nan}"#);
    left(r#"{"shape": [Infinity]}"#);
}

#[test]
fn numbers_are_serde_jsons_to_the_bit() {
    for n in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1e-5",
        "1E+5",
        "1e0",
        "-5.056557711213e-06",
        "0.30000000000000004",
        "123.456e-7",
        "5e-324",
        "2.2250738585072014e-308",
        "1.7976931348623157e308",
        "1e-400",
        "1e308",
        "18446744073709551615",
        "-9223372036854775808",
        "-9223372036854775809",
        "9007199254740993",
        "0.1e1",
        "10000000000000000000e-10",
        "4.9406564584124654e-324",
        "1e-330",
    ] {
        taken(&format!(r#"{{"a": {n}}}"#));
    }
}

#[test]
fn numbers_serde_reads_on_its_slow_path_or_rejects_are_left() {
    for n in [
        "18446744073709551616",
        "123456789012345678901234567890",
        "1e309",
        "1e400",
        "1e99999999999",
        "0e99999999999",
        "1.00000000000000000000000001",
        "100000000000000000000e-10",
        "01",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "-",
        "--1",
        "0x10",
        "1.5.2",
    ] {
        left(&format!(r#"{{"a": {n}}}"#));
    }
}

#[test]
fn fields_of_the_wrong_type_are_left() {
    for text in [
        r#"{"step": 1.0}"#,
        r#"{"step": -0}"#,
        r#"{"step": 9223372036854775808}"#,
        r#"{"call": -1}"#,
        r#"{"call": 1e0}"#,
        r#"{"shape": null}"#,
        r#"{"shape": [1, 2.0]}"#,
        r#"{"shape": [1,]}"#,
        r#"{"module": null}"#,
        r#"{"dtype": 5}"#,
    ] {
        left(text);
    }
    let (_, step, call, shape, _) =
        taken(r#"{"step": -9223372036854775808, "call": 18446744073709551615, "shape": [-1, 0]}"#);
    assert_eq!((step, call, shape), (Some(i64::MIN), Some(u64::MAX), Some(vec![-1, 0])));
}

#[test]
fn escapes_non_ascii_nesting_and_bad_syntax_are_left() {
    for text in [
        r#"{"module": "a\"b"}"#,
        r#"{"modul\u0065": "a"}"#,
        r#"{"dtype": "a\/b"}"#,
        "{\"module\": \"caf\u{e9}\"}",
        "{\"module\": \"a\u{1}b\"}",
        r#"{"a": [1, 2]}"#,
        r#"{"a": {"b": 1}}"#,
        r#"{"a": 1,}"#,
        r#"{"a": 1} x"#,
        r#"{"a": 1}{}"#,
        r#"{"a" 1}"#,
        r#"{"a": 1"#,
        "{\"a\":\u{c}1}",
        r#"[]"#,
        r#""a""#,
        r#"{a: 1}"#,
    ] {
        left(text);
    }
}

#[test]
fn the_pow10_table_is_the_literals() {
    assert_eq!(POW10[0], 1.0);
    for k in 0..=309 {
        assert_eq!(pow10(k), POW10.get(k).copied());
    }
    assert_eq!(POW10[22], 1e22);
    assert_eq!(POW10[23], 1e23);
    assert_eq!(POW10[308], 1e308);
}

#[test]
fn digits_are_read_eight_at_a_time_and_fewer_exactly() {
    for n in 1..=21 {
        let digits: String = "987654321098765432109".chars().take(n).collect();
        for tail in ["}", " }", ",\"x\": 1}", "e5}", ".5}", "e-5}", "7}"] {
            for lead in ["", "1", "0.", "12.", "-", "-0.000"] {
                if lead.contains('.') && tail.starts_with('.') {
                    continue;
                }
                let text = format!("{{\"a\": {lead}{digits}{tail}");
                // Up to 19 significant digits serde_json keeps in a u64.
                let significant = text.chars().filter(char::is_ascii_digit).count();
                if significant <= 19 {
                    taken(&text);
                } else {
                    fast_and_same(&text);
                }
            }
        }
    }
}

/// Pieces of records, good and bad, that the generator strings together.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|f| format!("{f:?}")),
        any::<f64>().prop_map(|f| format!("{f:e}")),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|u| u.to_string()),
        "-?(0|[1-9][0-9]{0,22})(\\.[0-9]{1,22})?([eE][+-]?[0-9]{1,4})?",
        "[-+.0-9eE]{1,8}",
        prop::sample::select(vec![
            "NaN",
            "Infinity",
            "-Infinity",
            "null",
            "true",
            "false",
            "\"nan\"",
            "\"inf\"",
            "\"-inf\"",
            "\"<error: x>\"",
            "\"12.5\"",
            "[]",
            "[1, -2]",
            "{\"a\": [NaN]}",
            "nul",
            "\"a\\\"b\"",
            "\"\"",
        ])
        .prop_map(str::to_string),
        "\"[ -~]{0,6}\"",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "module",
            "tensor",
            "step",
            "call",
            "shape",
            "dtype",
            "abs_mean",
            "sum",
            "s\\u0075m",
            "",
            "caf\u{e9}",
        ])
        .prop_map(|k| format!("\"{k}\"")),
        "\"[ -~]{0,5}\"",
    ]
}

fn line() -> impl Strategy<Value = String> {
    let ws = || prop::sample::select(vec!["", "", "", " ", "\t", "\r\n", "  "]);
    let entry = (key(), ws(), ws(), value(), ws()).prop_map(|(k, w1, w2, v, w3)| format!("{k}{w1}:{w2}{v}{w3}"));
    (prop::collection::vec(entry, 0..8), ws(), any::<bool>())
        .prop_map(|(entries, w, close)| format!("{{{w}{}{}", entries.join(","), if close { "}" } else { "" }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn taken_lines_decode_as_serde_decodes_them(text in line()) {
        fast_and_same(&text);
    }

    #[test]
    fn mutated_records_decode_as_serde_decodes_them(at in 0..RECORD.len(), byte in prop::sample::select(
        b"{}[],:\"\\ 0123456789.eE-+aNIn\x01\xc3".to_vec()), mode in 0..3u8) {
        let mut bytes = RECORD.as_bytes().to_vec();
        match mode {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => { bytes.remove(at); }
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            fast_and_same(text);
        }
    }

    #[test]
    fn lines_after_others_decode_as_serde_decodes_them(lines in prop::collection::vec(line(), 1..8)) {
        let mut layout = Layout::default();
        for text in &lines {
            same_after(text, &mut layout);
        }
    }

    #[test]
    fn mutated_records_after_the_record_decode_as_serde_decodes_them(
        edits in prop::collection::vec((0..RECORD.len(), prop::sample::select(b"{}[],:\" 0.aE\x01".to_vec())), 1..6)) {
        let mut layout = Layout::default();
        taken_after(RECORD, &mut layout);
        for (at, byte) in edits {
            let mut bytes = RECORD.as_bytes().to_vec();
            bytes.insert(at, byte);
            same_after(std::str::from_utf8(&bytes).unwrap(), &mut layout);
            taken_after(RECORD, &mut layout);
        }
    }

    #[test]
    fn every_sane_record_is_taken(step in any::<u32>(), values in prop::collection::vec(prop_oneof![-1e300..1e300f64, Just(f64::NAN)], 1..6)) {
        let stats: Vec<String> = values.iter().enumerate()
            .map(|(i, v)| format!("\"s{i}\": {}", if v.is_finite() { format!("{v:?}") } else { "NaN".into() }))
            .collect();
        taken(&format!(r#"{{"module": "m", "tensor": "t", "step": {step}, {}}}"#, stats.join(", ")));
    }
}
