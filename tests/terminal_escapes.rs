//! Text from logs cannot drive the terminal: escape sequences, carriage
//! returns, bell and bidi overrides in function names, guard texts, file
//! names, step records and activation module names are printed escaped by
//! every text output (summary, check, report, steps, diff).

mod common;

use common::{guardscope, Output};
use std::path::Path;

const P: &str = "V1121 11:35:10.000000 2524 torch/_dynamo/convert_frame.py:1]";
/// Sets the window title, moves up a line and overwrites it, clears the screen.
const FUNCTION: &str = "f\u{1b}]0;pwned\u{7}\u{1b}[1A\r";
const FILE: &str = "evil\u{202e}yp.\u{9b}2J.py";
const REASON: &str = "0/0: G['MODE'] == 'a'\r\u{1b}[2KPASS: 0 recompiles (allowed: 0)";

fn md5_hex(s: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// HAND-MADE: frame 0 compiles twice, 0/1 a recompile with REASON.
fn log() -> String {
    let metrics = |id: u32, start: f64| {
        let m = serde_json::json!({"compilation_metrics": {
            "co_name": FUNCTION, "co_filename": FILE, "co_firstlineno": 3,
            "start_time": start, "entire_frame_compile_time_s": 0.5, "guard_count": 4},
            "frame_id": 0, "frame_compile_id": id, "attempt": 0});
        format!("{P} {m}\n")
    };
    let start = |id: u32| {
        format!("{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0}}\n")
    };
    // The payload is one line: the CR travels JSON-escaped inside a string.
    let payload = serde_json::to_string(&[REASON]).unwrap();
    let reasons = format!(
        "{P} {{\"artifact\": {{\"name\": \"recompile_reasons\", \"encoding\": \"json\"}}, \"frame_id\": 0, \"frame_compile_id\": 1, \"attempt\": 0, \"has_payload\": \"{}\"}}\n\t{payload}\n",
        md5_hex(&payload)
    );
    [
        start(0),
        metrics(0, 1_795_257_300.0),
        start(1),
        reasons,
        metrics(1, 1_795_257_302.0),
    ]
    .concat()
}

fn assert_inert(what: &str, out: &Output) {
    for text in [&out.stdout, &out.stderr] {
        let bad: Vec<char> = text
            .chars()
            .filter(|c| guardscope::report::text::is_unsafe(*c))
            .collect();
        assert!(bad.is_empty(), "{what}: raw {bad:?} in\n{text}");
    }
}

#[test]
fn log_text_reaches_every_text_output_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("dedicated_log_torch_trace.log");
    std::fs::write(&trace, log()).unwrap();
    let t = trace.as_os_str();

    let summary = guardscope(["summary".as_ref(), "-v".as_ref(), t]);
    assert_eq!(summary.code, 0, "{}", summary.stderr);
    assert_inert("summary", &summary);
    assert!(summary.stdout.contains("f\\x1b]0;pwned\\x07"), "{}", summary.stdout);

    let check = guardscope(["check".as_ref(), t]);
    assert_eq!(check.code, 1);
    assert_inert("check", &check);
    assert!(
        check.stdout.lines().last().unwrap().starts_with("FAIL: 1 recompile"),
        "{}",
        check.stdout
    );

    let report = dir.path().join("report");
    let out = guardscope(["report".as_ref(), "-o".as_ref(), report.as_os_str(), t]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_inert("report", &out);

    // A step record naming the hostile function.
    let step = serde_json::json!({"step": 1, "start": 1_795_257_301.0, "wall_ms": 900.0, "pid": 2524,
        "compile_s": 0.5, "recompiles": 1, "graph_breaks": 0,
        "compiles": [{"compile_id": "0/1", "frame_id": 0, "pid": 2524, "function": FUNCTION, "file": FILE,
            "line": 3, "recompile": true, "start": 1_795_257_301.0, "seconds": 0.5, "reason": REASON}]});
    let steps = dir.path().join("steps\u{1b}[2J.jsonl");
    std::fs::write(&steps, format!("{step}\n{{\"step\": \"\u{1b}]0;x\u{7}\"}}\n")).unwrap();
    let out = guardscope(["steps".as_ref(), steps.as_os_str()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_inert("steps", &out);
    let out = guardscope(["steps".as_ref(), steps.as_os_str(), "--trace".as_ref(), t]);
    assert_inert("steps --trace", &out);

    // Activation traces whose module names carry escapes.
    let record = |v: f64| {
        serde_json::json!({"module": "m\u{1b}]0;x\u{7}\u{202e}", "tensor": "out", "step": 0, "max": v}).to_string()
    };
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    std::fs::write(&a, record(1.0) + "\n").unwrap();
    std::fs::write(&b, record(2.0) + "\n\u{1b}[2Jjunk\n").unwrap();
    let out = guardscope([Path::new("diff").as_os_str(), a.as_os_str(), b.as_os_str()]);
    assert_eq!(out.code, 1);
    assert_inert("diff", &out);
    assert!(out.stdout.contains("m\\x1b]0;x\\x07\\u{202e}"), "{}", out.stdout);
}
