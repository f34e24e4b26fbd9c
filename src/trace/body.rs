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
        "guard_added" | "guard_added_fast" => Ok(Some(decode_guard_added(body))),
        "create_symbol" => Ok(Some(decode_create_symbol(body).unwrap_or(EventData::Seen))),
        "symbolic_shape_specialization" => Ok(Some(decode_specialization(body).unwrap_or(EventData::Seen))),
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

/// A symbol created for a dynamic dim: the range the user declared for it
/// (`mark_dynamic(min=, max=)`) when it is not a default one, and the
/// Python stack at that moment. None when the event holds neither.
fn decode_create_symbol(body: &str) -> Option<EventData> {
    #[derive(serde::Deserialize)]
    struct Symbol {
        vr: Option<String>,
        source: Option<String>,
        #[serde(default)]
        stack: Vec<Frame>,
    }
    let s: Symbol = serde_json::from_str(body).ok()?;
    let declared = match (s.vr, s.source) {
        (Some(vr), Some(source)) => {
            let (lower, upper) = vr.trim_matches(['[', ']']).split_once(", ").unzip();
            let default = upper.is_some_and(|u| u.trim() == "int_oo")
                && lower.is_some_and(|l| matches!(l.trim(), "0" | "1" | "2" | "-int_oo"));
            (lower.is_some() && !default).then_some((source, vr))
        }
        _ => None,
    };
    let (stack, interned_files) = decode_stack(s.stack);
    (declared.is_some() || !stack.is_empty()).then_some(EventData::CreateSymbol {
        declared,
        stack,
        interned_files,
    })
}

/// A symbol fixed to one value: what it stood for, the value, and where
/// the traced code needed it. None when the event names no source.
fn decode_specialization(body: &str) -> Option<EventData> {
    #[derive(serde::Deserialize)]
    struct Specialization {
        #[serde(default)]
        sources: Vec<String>,
        value: Option<serde_json::Value>,
        // torch 2.12 writes `"user_stack": null` when the specialisation
        // happened outside user code: the record still says what was fixed.
        #[serde(default)]
        user_stack: Option<Vec<Frame>>,
    }
    let s: Specialization = serde_json::from_str(body).ok()?;
    let value = match s.value? {
        serde_json::Value::String(v) => v,
        v => v.to_string(),
    };
    let (user_stack, interned_files) = decode_stack(s.user_stack.unwrap_or_default());
    (!s.sources.is_empty()).then_some(EventData::Specialized {
        sources: s.sources,
        value,
        user_stack,
        interned_files,
    })
}

#[derive(serde::Deserialize)]
struct Frame {
    line: Option<u32>,
    name: Option<String>,
    filename: Option<serde_json::Value>,
    loc: Option<String>,
}

/// A logged stack's frames, and which of them name their file by an index
/// into the process's `str` table (the builder resolves those).
fn decode_stack(frames: Vec<Frame>) -> (Vec<StackFrame>, Vec<(usize, u64)>) {
    let mut interned_files = Vec::new();
    let stack = frames
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
    (stack, interned_files)
}

/// A guard added while tracing, with the traced code's stack (an event
/// that does not parse still counts as a guard added).
fn decode_guard_added(body: &str) -> EventData {
    #[derive(serde::Deserialize)]
    struct Added {
        #[serde(default)]
        user_stack: Vec<Frame>,
    }
    let frames = serde_json::from_str::<Added>(body).map_or_else(|_| Vec::new(), |a| a.user_stack);
    let (user_stack, interned_files) = decode_stack(frames);
    EventData::GuardAdded {
        user_stack,
        interned_files,
    }
}

/// A `dynamo_start` stack.
fn decode_dynamo_start(body: &str) -> Result<EventData, String> {
    #[derive(serde::Deserialize)]
    struct Start {
        #[serde(default)]
        stack: Vec<Frame>,
    }
    let start: Start = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let (stack, interned_files) = decode_stack(start.stack);
    Ok(EventData::DynamoStart { stack, interned_files })
}
