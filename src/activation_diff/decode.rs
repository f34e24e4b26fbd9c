//! One line of an activation trace decoded into its fields, by hand rather
//! than by derive: names stay borrowed from the line when they have no
//! escapes (no allocation per record), every key that is not a field is a
//! statistic, and Python's bare `NaN` / `Infinity` (what `json.dumps`
//! writes, and so the reference hook) are read as our `"nan"` / `"inf"`.
//! `fast` takes the common lines without serde; this visitor is for the
//! rest, and says what is wrong with a bad line.

use super::compare::RecordedStat;
use crate::activations::format::{self, CALL, DTYPE, MODULE, SHAPE, STEP, TENSOR};
use crate::input::problems::excerpt;
use crate::input::ProblemKind;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

mod fast;

pub use fast::Layout;

/// Decodes one trimmed, non-blank line. A line with bare constants is
/// repaired into `repaired` first, which the fields may then borrow from.
/// `layout` is what the fast path remembers of the file's lines before.
pub fn decode<'t>(
    text: &'t [u8],
    layout: &mut Layout,
    repaired: &'t mut Option<Vec<u8>>,
) -> Result<Raw<'t>, (ProblemKind, String)> {
    match fast::decode(text, layout) {
        Some(raw) => Ok(raw),
        None => decode_serde(text, repaired),
    }
}

/// The general path, for every line the fast one leaves.
fn decode_serde<'t>(text: &'t [u8], repaired: &'t mut Option<Vec<u8>>) -> Result<Raw<'t>, (ProblemKind, String)> {
    match serde_json::from_slice::<Raw>(text) {
        Ok(raw) => Ok(raw),
        Err(first) => {
            let fixed = repaired.insert(repair_non_standard(text).ok_or_else(|| bad_json(text, &first))?);
            serde_json::from_slice::<Raw>(fixed).map_err(|_| bad_json(text, &first))
        }
    }
}

/// Only on the failure path: tells JSON that is not a record (the error
/// names the field) from text that is not JSON (the error says where).
fn bad_json(text: &[u8], e: &serde_json::Error) -> (ProblemKind, String) {
    match serde_json::from_slice::<IgnoredAny>(text) {
        Ok(_) => (ProblemKind::BadEvent, format!("not an activation record: {e}")),
        Err(syntax) => (ProblemKind::BadJson, format!("bad JSON ({syntax}): {}", excerpt(text))),
    }
}

/// Replaces bare `NaN`, `Infinity` and `-Infinity` outside strings with
/// `"nan"`, `"inf"`, `"-inf"`; None when there is none.
fn repair_non_standard(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() + 8);
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let token: Option<(&[u8], &str)> = [
            (&b"-Infinity"[..], format::NEG_INF),
            (b"Infinity", format::INF),
            (b"NaN", format::NAN),
        ]
        .into_iter()
        .find(|(bare, _)| rest.starts_with(bare));
        if let Some((bare, ours)) = token {
            out.push(b'"');
            out.extend_from_slice(ours.as_bytes());
            out.push(b'"');
            i += bare.len();
            changed = true;
            continue;
        }
        in_string = c == b'"';
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
}

/// A record as parsed, names still borrowed from the line when possible.
#[derive(Debug)]
pub struct Raw<'a> {
    pub module: Option<Cow<'a, str>>,
    pub tensor: Option<Cow<'a, str>>,
    pub step: Option<i64>,
    pub call: Option<u64>,
    pub shape: Option<Vec<i64>>,
    pub dtype: Option<Cow<'a, str>>,
    pub stats: Vec<(Cow<'a, str>, RecordedStat)>,
}

impl Raw<'_> {
    /// A record with no field read yet, room for `stats` statistics.
    pub fn empty(stats: usize) -> Self {
        Raw {
            module: None,
            tensor: None,
            step: None,
            call: None,
            shape: None,
            dtype: None,
            stats: Vec::with_capacity(stats),
        }
    }
}

impl<'de> Deserialize<'de> for Raw<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw<'de>, A::Error> {
        let mut raw = Raw::empty(0);
        fn field<E: de::Error>(name: &'static str) -> impl Fn(E) -> E {
            move |e| E::custom(format!("'{name}': {e}"))
        }
        while let Some(Str(key)) = map.next_key()? {
            match &*key {
                MODULE => raw.module = Some(map.next_value::<Str>().map_err(field(MODULE))?.0),
                TENSOR => raw.tensor = Some(map.next_value::<Str>().map_err(field(TENSOR))?.0),
                STEP => raw.step = Some(map.next_value().map_err(field(STEP))?),
                CALL => raw.call = Some(map.next_value().map_err(field(CALL))?),
                SHAPE => raw.shape = Some(map.next_value().map_err(field(SHAPE))?),
                DTYPE => raw.dtype = Some(map.next_value::<Str>().map_err(field(DTYPE))?.0),
                _ => {
                    let value = map.next_value()?;
                    raw.stats.push((key, value));
                }
            }
        }
        Ok(raw)
    }
}

/// A string, borrowed from the input when it has no escapes.
struct Str<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for RecordedStat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = RecordedStat;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a statistic")
    }
    fn visit_f64<E>(self, v: f64) -> Result<RecordedStat, E> {
        Ok(RecordedStat::Number(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RecordedStat, E> {
        Ok(RecordedStat::Number(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RecordedStat, E> {
        Ok(RecordedStat::Number(v as f64))
    }
    fn visit_str<E>(self, v: &str) -> Result<RecordedStat, E> {
        Ok(stat_from_str(v))
    }
    fn visit_unit<E>(self) -> Result<RecordedStat, E> {
        Ok(RecordedStat::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<RecordedStat, E> {
        Ok(RecordedStat::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RecordedStat, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(RecordedStat::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RecordedStat, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(RecordedStat::Other)
    }
}

/// A stat written as a string.
fn stat_from_str(v: &str) -> RecordedStat {
    match v {
        // Besides ours, the spellings other writers use.
        format::NAN | "NaN" | "-nan" => RecordedStat::Nan,
        format::INF | "+inf" | "Infinity" => RecordedStat::Number(f64::INFINITY),
        format::NEG_INF | "-Infinity" => RecordedStat::Number(f64::NEG_INFINITY),
        _ if v.starts_with(format::ERROR_PREFIX) => RecordedStat::Error,
        _ => RecordedStat::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_constants_are_repaired_only_outside_strings() {
        let fixed = repair_non_standard(br#"{"a": NaN, "b": -Infinity, "c": "NaN \" Infinity"}"#).unwrap();
        assert_eq!(
            String::from_utf8(fixed).unwrap(),
            r#"{"a": "nan", "b": "-inf", "c": "NaN \" Infinity"}"#
        );
        assert_eq!(repair_non_standard(br#"{"a": 1}"#), None);
    }
}
