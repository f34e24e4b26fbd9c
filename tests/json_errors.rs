//! With `--json`, stdout is JSON whatever happens: a failure before the
//! command's document prints `{"error": {kind, message, exit_code}}` there
//! (and the line on stderr); a failure after it (input read only in part)
//! leaves the one document, which lists what was lost.

mod common;

use common::guardscope;
use serde_json::Value;

/// A gzip header followed by bytes that are no deflate stream: hand-made,
/// the corner case of a corrupt `.gz` (the real logs are in samples/).
fn corrupt_gzip(dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(name);
    let mut bytes = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3];
    bytes.extend_from_slice(b"this is not a deflate stream");
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn json_error(args: &[&str]) -> Value {
    let out = guardscope(args);
    assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {:?}", out.stdout));
    let error = &doc["error"];
    assert_eq!(error["kind"], "bad_input", "{args:?}: {doc}");
    assert_eq!(error["exit_code"], 2, "{args:?}");
    let message = error["message"].as_str().unwrap();
    // The same words as the line on stderr.
    assert_eq!(out.stderr.trim_end(), format!("guardscope: {message}"), "{args:?}");
    doc
}

#[test]
fn a_missing_file_is_a_json_error_for_every_json_command() {
    let missing = "no/such/trace.log";
    let real_a = "samples/activations/base.jsonl.gz";
    for args in [
        vec!["summary", missing, "--json"],
        vec!["check", missing, "--json"],
        vec!["steps", missing, "--json"],
        vec!["steps", "samples/steps/collision.jsonl", "--trace", missing, "--json"],
        vec!["diff", missing, real_a, "--json"],
        vec!["diff", real_a, missing, "--json"],
    ] {
        let doc = json_error(&args);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(missing), "{args:?}: {message}");
    }
}

#[test]
fn a_corrupt_gzip_is_a_json_error_for_every_json_command() {
    let dir = tempfile::tempdir().unwrap();
    let log = corrupt_gzip(dir.path(), "dedicated_log_torch_trace.log.gz");
    let steps = corrupt_gzip(dir.path(), "steps.jsonl.gz");
    let acts = corrupt_gzip(dir.path(), "acts.jsonl.gz");
    for args in [
        vec!["summary", &log, "--json"],
        vec!["check", &log, "--json"],
        vec!["steps", &steps, "--json"],
        vec!["diff", &acts, "samples/activations/base.jsonl.gz", "--json"],
    ] {
        let doc = json_error(&args);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains("deflate"), "{args:?}: {message}");
    }
}

/// A real log cut short: `check --json` writes its verdict (which lists the
/// lost input) and fails closed; stdout stays that one document.
#[test]
fn a_failure_after_the_document_adds_nothing_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::read(common::root().join("samples/traces/collision/dedicated_log_torch_trace.log.gz")).unwrap();
    let cut = dir.path().join("dedicated_log_torch_trace.log.gz");
    std::fs::write(&cut, &real[..real.len() / 2]).unwrap();
    let out = guardscope(["check", cut.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(doc["passed"], false);
    assert!(!doc["unread_inputs"].as_array().unwrap().is_empty(), "{doc}");
    assert!(doc.get("error").is_none());
}

#[test]
fn without_json_stdout_stays_empty_on_error() {
    let out = guardscope(["summary", "no/such/trace.log"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with("guardscope: no/such/trace.log"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_command_line_clap_refuses_is_a_json_usage_error() {
    for (args, words) in [
        (
            vec!["summary", "--jsn", "samples/traces/collision", "--json"],
            "'--jsn'",
        ),
        (vec!["check", "--json"], "<PATH>"),
        (vec!["summary", "--format", "json", "--bogus", "x"], "'--bogus'"),
        (vec!["summary", "--format=json", "--bogus", "x"], "'--bogus'"),
        (vec!["diff", "--json", "samples/activations/base.jsonl.gz"], "required"),
    ] {
        let out = guardscope(&args);
        assert_eq!(out.code, 2, "{args:?}");
        let doc: Value = serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: stdout is not JSON ({e}): {:?}", out.stdout));
        assert_eq!(doc["error"]["kind"], "usage", "{args:?}");
        assert_eq!(doc["error"]["exit_code"], 2, "{args:?}");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{args:?}: {message}");
        assert!(!message.starts_with("error"), "{message}");
        // clap's full text stays on stderr, with the usage line.
        assert!(out.stderr.contains("Usage: guardscope"), "{}", out.stderr);
    }
    // Without --json (or with it only among the child's words after `--`)
    // stdout stays empty.
    for args in [
        vec!["summary", "--jsn", "samples/traces/collision"],
        vec!["run", "--bogus", "--", "python", "--json"],
    ] {
        let out = guardscope(&args);
        assert_eq!(out.code, 2, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
    }
}
