//! Step records are never lost without a word: a step file cut mid-line
//! fails as a TORCH_TRACE log cut mid-line does, and the records of every
//! process and attempt are read (issue 41). The files are the real
//! StepLogger and TORCH_TRACE samples, cut or copied as a full disk, a
//! second process or a resumed run leaves them.

mod common;

use common::guardscope;
use std::io::Read;

const STEPS: &str = "samples/steps/collision.jsonl";
const TRACE: &str = "samples/traces/collision/dedicated_log_torch_trace.log.gz";

/// `text` cut in the middle of its last line, as a full disk leaves it.
fn cut_last_line(text: &str) -> String {
    let body = text.trim_end_matches('\n');
    let last = body.rfind('\n').map_or(0, |i| i + 1);
    let keep = last + (body.len() - last) / 2;
    body[..keep].to_string()
}

/// Before, `steps` read the cut file, said nothing of the lost line and
/// exited 0, while `check` of a trace cut the same way exits 2 (the
/// parser's rule: a last line without its newline that does not parse was
/// cut by the writer's end).
#[test]
fn a_step_file_cut_mid_line_fails_like_a_cut_trace() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();

    let mut trace = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(root.join(TRACE)).unwrap())
        .read_to_string(&mut trace)
        .unwrap();
    let cut_trace = dir.path().join("dedicated_log_torch_trace.log");
    std::fs::write(&cut_trace, cut_last_line(&trace)).unwrap();
    let out = guardscope(["check", "--max-recompiles", "5", cut_trace.to_str().unwrap()]);
    assert_eq!(out.code, 2, "the trace rule: {}", out.stderr);

    let steps = std::fs::read_to_string(root.join(STEPS)).unwrap();
    let whole = steps.lines().count();
    let cut_steps = dir.path().join("steps_0.jsonl");
    std::fs::write(&cut_steps, cut_last_line(&steps)).unwrap();
    let out = guardscope(["steps", cut_steps.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("input not fully read"), "{}", out.stderr);
    let at = format!("steps_0.jsonl:{whole}: not a step record");
    assert!(
        out.stdout.contains(&at) && out.stdout.contains("(line cut off at end of file)"),
        "{}",
        out.stdout
    );
    // What was read is still shown: every step before the cut one.
    assert!(
        out.stdout.starts_with(&format!("{} steps · 1 rank", whole - 1)),
        "{}",
        out.stdout
    );
    let json = guardscope(["steps", "--json", cut_steps.to_str().unwrap()]);
    assert_eq!(json.code, 2, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["unread_inputs"].as_array().map(Vec::len), Some(1), "{v}");

    // The same file whole, or with its last newline missing but its record
    // whole, is read whole: exit 0.
    std::fs::write(&cut_steps, steps.trim_end_matches('\n')).unwrap();
    let out = guardscope(["steps", cut_steps.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with(&format!("{whole} steps")), "{}", out.stdout);
}
