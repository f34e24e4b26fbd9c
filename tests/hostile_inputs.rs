//! Inputs a user can throw at guardscope by accident: truncated logs, empty
//! and binary files, bad paths, cut gzip streams. Each gives a clear message
//! and never a panic; whatever is readable still reaches the model.

mod common;

use common::{assert_clean_failure, guardscope, root, strings, summary_json};
use std::io::Write;

fn collision_log() -> String {
    guardscope::input::read_to_string(&root().join("samples/traces/collision/dedicated_log_torch_trace.log.gz"))
        .unwrap()
}

#[test]
fn log_cut_mid_payload_keeps_earlier_compiles_and_marks_the_last_unfinished() {
    let log = collision_log();
    // Cut inside the first payload that follows 0/2's dynamo_start, mid-line,
    // as when the training process is killed while writing.
    let start = log.find(r#""frame_compile_id": 2, "attempt": 0"#).expect("0/2 events");
    let payload = start + log[start..].find("\n\t").expect("a payload after 0/2 starts") + 1;
    let cut = payload + log[payload..].find('\n').unwrap() / 2;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dedicated_log_torch_trace_cut.log");
    std::fs::write(&path, &log[..cut]).unwrap();

    // The cut payload is one guardscope skips: only --verify-all hashes it
    // and can tell it was cut; the unfinished compile shows either way.
    let default = summary_json(&path);
    assert_eq!(default["frames"][0]["compiles"][2]["finished"], false);
    let out = guardscope([
        "summary".as_ref(),
        "--json".as_ref(),
        "--verify-all".as_ref(),
        path.as_os_str(),
    ]);
    let s: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let compiles = s["frames"][0]["compiles"].as_array().unwrap();
    let ids = strings(&s["frames"][0]["compiles"], "compile_id");
    assert_eq!(ids, ["0/0", "0/1", "0/2"]);
    assert_eq!(compiles[1]["finished"], true);
    assert_eq!(
        compiles[2]["finished"], false,
        "the killed compile is unfinished, not missing"
    );
    assert_eq!(s["totals"]["unfinished_compiles"], 1);
    assert_eq!(s["problems"]["by_kind"]["truncated_payload"], 1);
    let first = s["problems"]["first"][0].as_str().unwrap();
    assert!(
        first.contains("dedicated_log_torch_trace_cut.log:") && first.contains("payload cut off at end of file"),
        "{first}"
    );

    let text = guardscope(["summary".as_ref(), path.as_os_str()]);
    assert_eq!(text.code, 0);
    assert!(text.stdout.contains("1 compile(s) unfinished"), "{}", text.stdout);
}

#[test]
fn cut_gzip_stream_reports_a_read_error_and_keeps_what_was_read() {
    let gz = std::fs::read(root().join("samples/traces/collision/dedicated_log_torch_trace.log.gz")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dedicated_log_torch_trace.log.gz");
    std::fs::write(&path, &gz[..gz.len() * 2 / 3]).unwrap();
    let s = summary_json(&path);
    assert_eq!(s["problems"]["by_kind"]["io"], 1, "{:?}", s["problems"]);
    assert!(s["frames"][0]["compiles"].as_array().unwrap().len() >= 2);
}

#[test]
fn empty_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.log");
    std::fs::write(&path, b"").unwrap();
    let out = guardscope(["summary".as_ref(), path.as_os_str()]);
    assert_clean_failure(&out);
    assert!(
        out.stderr.contains("empty.log:0: file is empty: no TORCH_TRACE events"),
        "{}",
        out.stderr
    );
}

#[test]
fn binary_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.bin");
    // Deterministic junk with NULs, high bytes, and a few newlines.
    let junk: Vec<u8> = (0u32..200_000)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::File::create(&path).unwrap().write_all(&junk).unwrap();
    let out = guardscope(["summary".as_ref(), path.as_os_str()]);
    assert_clean_failure(&out);
    assert!(out.stderr.contains("no TORCH_TRACE events in"), "{}", out.stderr);
    assert!(out.stderr.contains("not a trace log?"), "{}", out.stderr);
}

#[test]
fn missing_path_is_a_clear_error() {
    let out = guardscope(["summary", "no/such/trace"]);
    assert_clean_failure(&out);
    assert_eq!(
        out.stderr.trim(),
        "guardscope: no/such/trace: no such file or directory"
    );
}

#[test]
fn empty_directory_and_directory_without_logs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = guardscope(["summary".as_ref(), dir.path().as_os_str()]);
    assert_clean_failure(&out);
    assert!(out.stderr.ends_with(": directory is empty\n"), "{}", out.stderr);

    std::fs::write(dir.path().join("notes.txt"), b"hello").unwrap();
    let out = guardscope(["summary".as_ref(), dir.path().as_os_str()]);
    assert_clean_failure(&out);
    assert!(
        out.stderr
            .contains("no TORCH_TRACE logs in this directory (1 other file read"),
        "{}",
        out.stderr
    );
}

#[test]
fn nested_trace_directories_are_walked() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("job/attempt_1");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::copy(
        root().join("samples/traces/collision/dedicated_log_torch_trace.log.gz"),
        nested.join("dedicated_log_torch_trace_rank_3_ab12cd34.log.gz"),
    )
    .unwrap();
    let s = summary_json(dir.path());
    assert_eq!(s["frames"][0]["rank"], 3);
    assert_eq!(s["recompiles"].as_array().unwrap().len(), 2);
}

#[test]
fn usage_errors_exit_2_and_help_teaches() {
    let out = guardscope(["summary"]);
    assert_eq!(out.code, 2);
    let out = guardscope(["frobnicate"]);
    assert_eq!(out.code, 2);
    let help = guardscope(["summary", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("TORCH_TRACE=/tmp/trace python train.py"));
    assert!(help.stdout.contains("Exit codes: 0 success"));
}

/// Before, a file whose lines end in a lone CR (old Mac tools) read as one
/// line: one TORCH_TRACE line too long to parse, one step record.
#[test]
fn cr_only_line_ends_read_as_lines_in_logs_and_step_files() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dedicated_log_torch_trace.log");
    std::fs::write(&log, collision_log().replace('\n', "\r")).unwrap();
    let original = summary_json(&root().join("samples/traces/collision"));
    let cr = summary_json(&log);
    assert_eq!(cr["problems"], original["problems"]);
    assert_eq!(cr["recompiles"], original["recompiles"]);
    assert_eq!(cr["recompiles"].as_array().unwrap().len(), 2);

    let steps = dir.path().join("steps.jsonl");
    let text = std::fs::read_to_string(root().join("samples/steps/collision.jsonl")).unwrap();
    std::fs::write(&steps, text.replace('\n', "\r")).unwrap();
    let json = |path: &std::path::Path| {
        let out = guardscope(["steps".as_ref(), "--json".as_ref(), path.as_os_str()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
    };
    // Each step with its line number: the same lines as the original.
    let rows = |v: &serde_json::Value| -> Vec<(u64, String)> {
        let slowest = v["slowest"].as_array().unwrap().iter();
        let line = |s: &serde_json::Value| s["record"].as_str().unwrap().rsplit(':').next().unwrap().to_owned();
        slowest.map(|s| (s["step"].as_u64().unwrap(), line(s))).collect()
    };
    let (original, cr) = (json(&root().join("samples/steps/collision.jsonl")), json(&steps));
    assert_eq!(rows(&cr), rows(&original));
    assert_eq!(rows(&cr).len(), 10);
    assert_eq!(cr["problems"], original["problems"]);
}
