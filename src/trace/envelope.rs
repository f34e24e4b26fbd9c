//! The JSON object after the glog prefix. Its first non-metadata key names the
//! event kind; the metadata keys locate the event in a compile.

use super::json_scan::Scan;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Where an event belongs: torch's `CompileId` plus the restart attempt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompileRef {
    pub frame_id: Option<u32>,
    pub frame_compile_id: Option<u32>,
    pub attempt: Option<u32>,
    pub compiled_autograd_id: Option<u32>,
}

impl CompileRef {
    pub fn is_empty(&self) -> bool {
        self.frame_id.is_none() && self.frame_compile_id.is_none() && self.compiled_autograd_id.is_none()
    }
}

#[derive(Debug)]
pub struct Envelope<'a> {
    pub kind: Cow<'a, str>,
    /// The JSON text of the value under the kind key, left unparsed until
    /// someone needs it.
    pub body: &'a str,
    pub compile: CompileRef,
    pub has_payload: Option<Cow<'a, str>>,
    pub rank: Option<u32>,
}

const METADATA_KEYS: [&str; 7] = [
    "frame_id",
    "frame_compile_id",
    "attempt",
    "compiled_autograd_id",
    "has_payload",
    "rank",
    "stack",
];

pub fn parse(message: &str) -> Result<Envelope<'_>, String> {
    match parse_fast(message) {
        Some(env) => Ok(env),
        None => parse_with_serde(message),
    }
}

/// What serde_json reads of an envelope: the reference the fast path is
/// held to (tests/envelope_fast_path.rs), and the reader of what it leaves.
#[doc(hidden)]
pub fn parse_with_serde(message: &str) -> Result<Envelope<'_>, String> {
    let mut de = serde_json::Deserializer::from_str(message);
    let env = (&mut de).deserialize_map(EnvelopeVisitor).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(env)
}

/// The envelope read by a scan that skips the body without building
/// anything: serde_json's walk over the bodies of the ~10,000 envelopes of
/// an inductor log was a third of the parse. The same envelope as serde_json
/// reads (keys in the same order of precedence) where it succeeds; `None`
/// where it is unsure, and `parse` asks serde_json.
#[doc(hidden)]
pub fn parse_fast(message: &str) -> Option<Envelope<'_>> {
    fn u32_or_null(s: &mut Scan<'_>) -> Option<Option<u32>> {
        if s.null() {
            Some(None)
        } else {
            s.u32().map(Some)
        }
    }
    let mut s = Scan::new(message);
    s.eat(b'{')?;
    let mut kind: Option<(&str, &str)> = None;
    let mut stack = None;
    let mut compile = CompileRef::default();
    let mut has_payload = None;
    let mut rank = None;
    loop {
        let key = s.plain_string()?;
        s.eat(b':')?;
        match key {
            "frame_id" => compile.frame_id = u32_or_null(&mut s)?,
            "frame_compile_id" => compile.frame_compile_id = u32_or_null(&mut s)?,
            "attempt" => compile.attempt = u32_or_null(&mut s)?,
            "compiled_autograd_id" => compile.compiled_autograd_id = u32_or_null(&mut s)?,
            "has_payload" => has_payload = if s.null() { None } else { Some(s.plain_string()?) },
            "rank" => rank = u32_or_null(&mut s)?,
            "stack" => stack = Some(s.value()?),
            _ if kind.is_none() => kind = Some((key, s.value()?)),
            _ => _ = s.value()?,
        }
        s.skip_ws();
        match s.peek()? {
            b',' => s.at += 1,
            b'}' => {
                s.at += 1;
                break;
            }
            _ => return None,
        }
    }
    s.skip_ws();
    if s.at != message.len() {
        return None;
    }
    let (kind, body) = kind_and_body(kind.map(|(k, b)| (Cow::Borrowed(k), b)), stack)?;
    Some(Envelope {
        kind,
        body,
        compile,
        has_payload: has_payload.map(Cow::Borrowed),
        rank,
    })
}

struct EnvelopeVisitor;

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object naming one event kind")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kind: Option<(Cow<'de, str>, &'de RawValue)> = None;
        let mut stack: Option<&'de RawValue> = None;
        let mut compile = CompileRef::default();
        let mut has_payload = None;
        let mut rank = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "frame_id" => compile.frame_id = map.next_value::<Option<u32>>()?,
                "frame_compile_id" => compile.frame_compile_id = map.next_value::<Option<u32>>()?,
                "attempt" => compile.attempt = map.next_value::<Option<u32>>()?,
                "compiled_autograd_id" => compile.compiled_autograd_id = map.next_value::<Option<u32>>()?,
                "has_payload" => has_payload = map.next_value::<Option<Cow<'de, str>>>()?,
                "rank" => rank = map.next_value::<Option<u32>>()?,
                "stack" => stack = Some(map.next_value::<&'de RawValue>()?),
                _ if kind.is_none() => {
                    let body = map.next_value::<&'de RawValue>()?;
                    kind = Some((key, body));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (kind, body) = kind_and_body(kind.map(|(k, b)| (k, b.get())), stack.map(RawValue::get))
            .ok_or_else(|| de::Error::custom("envelope names no event kind"))?;
        Ok(Envelope {
            kind,
            body,
            compile,
            has_payload,
            rank,
        })
    }
}

/// The event's kind and body: `stack` rides along with some kinds
/// (guard_added, ...); it is the kind only when nothing else is there.
fn kind_and_body<'a>(kind: Option<(Cow<'a, str>, &'a str)>, stack: Option<&'a str>) -> Option<(Cow<'a, str>, &'a str)> {
    kind.or_else(|| stack.map(|s| (Cow::Borrowed("stack"), s)))
}

/// Whether `key` is metadata rather than an event kind (exposed for tests).
pub fn is_metadata_key(key: &str) -> bool {
    METADATA_KEYS.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kind_and_compile_fields() {
        let e = parse(
            r#"{"dynamo_start": {"stack": []}, "compiled_autograd_id": null, "frame_id": 3, "frame_compile_id": 1, "attempt": 0, "has_payload": "abc"}"#,
        )
        .unwrap();
        assert_eq!(e.kind, "dynamo_start");
        assert_eq!(e.body, r#"{"stack": []}"#);
        assert_eq!(e.compile.frame_id, Some(3));
        assert_eq!(e.compile.frame_compile_id, Some(1));
        assert_eq!(e.compile.attempt, Some(0));
        assert_eq!(e.compile.compiled_autograd_id, None);
        assert_eq!(e.has_payload.as_deref(), Some("abc"));
    }

    #[test]
    fn stack_is_metadata_unless_alone() {
        let e = parse(r#"{"stack": [1], "guard_added": {"expr": "x"}}"#).unwrap();
        assert_eq!(e.kind, "guard_added");
        let e = parse(r#"{"stack": [1]}"#).unwrap();
        assert_eq!(e.kind, "stack");
    }

    #[test]
    fn wrong_types_and_garbage_are_errors_not_panics() {
        for bad in [
            r#"{"frame_id": "zero", "x": {}}"#,
            r#"{"frame_id": -1, "x": {}}"#,
            r#"[1, 2]"#,
            r#"{}"#,
            r#"{"x": {}} trailing"#,
            r#"{"x": "#,
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn escaped_keys_still_work() {
        let e = parse(r#"{"dyn\u0061mo_start": {}}"#).unwrap();
        assert_eq!(e.kind, "dynamo_start");
        assert!(is_metadata_key("attempt"));
    }
}
