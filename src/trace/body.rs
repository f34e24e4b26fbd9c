//! The body of an envelope without payload, decoded into the event
//! guardscope uses; kinds it only counts decode to nothing.

use super::envelope::Envelope;
use super::event::{BwdCompilationMetrics, CompilationMetrics, EventData, StackFrame};

pub(super) struct Decoded {
    pub data: Option<EventData>,
    /// Why the body could not be read as its kind says (a bad event).
    pub error: Option<String>,
}

pub(super) fn decode(env: &Envelope<'_>) -> Decoded {
    let body = env.body;
    let result: Result<Option<EventData>, String> = match env.kind.as_ref() {
        "str" => serde_json::from_str::<(String, u64)>(body)
            .map(|(path, index)| Some(EventData::InternedPath { path, index }))
            .map_err(|e| e.to_string()),
        "dynamo_start" => decode_dynamo_start(body).map(Some),
        "compilation_metrics" => match serde_json::from_str::<CompilationMetrics>(body) {
            Ok(m) => Ok(Some(EventData::CompilationMetrics(Box::new(m)))),
            Err(e) => {
                // Keep the compile as finished even when a field is odd.
                return Decoded {
                    data: Some(EventData::CompilationMetrics(Box::default())),
                    error: Some(e.to_string()),
                };
            }
        },
        "bwd_compilation_metrics" => serde_json::from_str::<BwdCompilationMetrics>(body)
            .map(|m| Some(EventData::BwdCompilationMetrics(Box::new(m))))
            .map_err(|e| e.to_string()),
        "guard_added" | "guard_added_fast" => Ok(Some(EventData::GuardAdded)),
        "create_symbol" => Ok(Some(decode_create_symbol(body).unwrap_or(EventData::Seen))),
        _ if env.compile.is_empty() => Ok(None),
        _ => Ok(Some(EventData::Seen)),
    };
    match result {
        Ok(data) => Decoded { data, error: None },
        Err(e) => Decoded {
            data: None,
            error: Some(e),
        },
    }
}

/// A symbol created with a value range other than the default: a range
/// the user declared (`mark_dynamic(min=, max=)`).
fn decode_create_symbol(body: &str) -> Option<EventData> {
    #[derive(serde::Deserialize)]
    struct Symbol {
        vr: Option<String>,
        source: Option<String>,
    }
    let s: Symbol = serde_json::from_str(body).ok()?;
    let (vr, source) = (s.vr?, s.source?);
    let (lower, upper) = vr.trim_matches(['[', ']']).split_once(", ")?;
    let declared = upper.trim() != "int_oo" || !matches!(lower.trim(), "0" | "1" | "2" | "-int_oo");
    declared.then_some(EventData::DeclaredRange { source, range: vr })
}

/// A `dynamo_start` stack, noting which of its frames name their file by an
/// index into the process's `str` table (the builder resolves those).
fn decode_dynamo_start(body: &str) -> Result<EventData, String> {
    #[derive(serde::Deserialize)]
    struct Start {
        #[serde(default)]
        stack: Vec<Frame>,
    }
    #[derive(serde::Deserialize)]
    struct Frame {
        line: Option<u32>,
        name: Option<String>,
        filename: Option<serde_json::Value>,
        loc: Option<String>,
    }
    let start: Start = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let mut interned_files = Vec::new();
    let stack = start
        .stack
        .into_iter()
        .enumerate()
        .map(|(i, frame)| StackFrame {
            file: match frame.filename {
                Some(serde_json::Value::Number(n)) => {
                    interned_files.extend(n.as_u64().map(|index| (i, index)));
                    None
                }
                Some(serde_json::Value::String(s)) => Some(s),
                _ => None,
            },
            line: frame.line,
            function: frame.name,
            code: frame.loc,
        })
        .collect();
    Ok(EventData::DynamoStart { stack, interned_files })
}
