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

/// `text` with every record's pid set to `pid` (and its session, when
/// given): the records another process writes of the same steps.
fn as_written_by(text: &str, pid: u32, session: Option<&str>) -> String {
    text.lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["pid"] = pid.into();
            if let Some(s) = session {
                v["session"] = s.into();
            }
            format!("{v}\n")
        })
        .collect()
}

/// Before, the reader keyed records on (rank, step): the second process's
/// file (`steps.pid<PID>.jsonl`, which StepLogger writes beside a file
/// another process holds) was dropped whole as "recorded again; left out",
/// exit 0; and so was a resumed run's second attempt appended to the file.
#[test]
fn records_of_every_process_and_attempt_are_read_and_shown_apart() {
    let dir = tempfile::tempdir().unwrap();
    let steps = std::fs::read_to_string(common::root().join(STEPS)).unwrap();
    let whole = steps.lines().count();
    std::fs::write(dir.path().join("steps.jsonl"), &steps).unwrap();
    std::fs::write(
        dir.path().join("steps.pid424242.jsonl"),
        as_written_by(&steps, 424_242, None),
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let out = guardscope(["steps", d]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("recorded again"), "{}", out.stdout);
    assert!(
        out.stdout.starts_with(&format!("{} steps · 1 rank", 2 * whole)),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("attempt 2: pid 424242,"), "{}", out.stdout);
    let v: serde_json::Value = serde_json::from_str(&guardscope(["steps", "--json", d]).stdout).unwrap();
    let pids: Vec<u64> = v["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["pid"].as_u64().unwrap())
        .collect();
    assert_eq!(pids.len(), 2);
    assert!(pids.contains(&424_242), "{pids:?}");
    assert_eq!(v["ranks"][0]["attempts"], 2);
    assert_eq!(
        v["slowest"][0]["step"], v["slowest"][1]["step"],
        "the same slow step, once per process"
    );

    // One file, a second attempt appended (a resumed run: another process,
    // its own session), and a step recorded twice by one writer: that one
    // alone is left out, and said.
    let resumed = as_written_by(&steps, 777, Some("777-1"));
    let again = steps.lines().next().unwrap();
    std::fs::write(dir.path().join("steps.pid424242.jsonl"), "").unwrap();
    std::fs::write(dir.path().join("steps.jsonl"), format!("{steps}{resumed}{again}\n")).unwrap();
    let out = guardscope(["steps", d]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with(&format!("{} steps · 1 rank", 2 * whole)),
        "{}",
        out.stdout
    );
    let dropped = format!("steps.jsonl:{}: step 1 recorded again by pid 10991", 2 * whole + 1);
    assert!(out.stdout.contains(&dropped), "{}", out.stdout);
    assert_eq!(out.stdout.matches("recorded again").count(), 1, "{}", out.stdout);
}
