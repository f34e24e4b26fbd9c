//! Two runs in one TORCH_TRACE directory (a rerun beside the previous log)
//! are reported as two runs, and `--latest` / `--run N` pick one; the ranks
//! of one launch stay one run. Real logs: tests/data/two_runs (collision.py
//! run twice, see its README), the torchrun corpus logs and tlparse's
//! multi-rank fixture.

mod common;

use common::{guardscope, summary_json};
use serde_json::Value;
use std::path::Path;

const TWO_RUNS: &str = "tests/data/two_runs";
const OLDER: &str = "tests/data/two_runs/dedicated_log_torch_trace_j2xih0ax.log.gz";
const NEWER: &str = "tests/data/two_runs/dedicated_log_torch_trace_y115vslz.log.gz";

fn json(args: &[&str]) -> Value {
    let out = guardscope(args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

/// Frames and recompiles without the fields that say which run of the
/// inputs they came from (a file read alone is run 0).
fn timeline(doc: &Value) -> (Value, Value, Value) {
    let strip = |items: &Value| {
        let mut items = items.clone();
        for item in items.as_array_mut().expect("a list") {
            item.as_object_mut().expect("an object").remove("run");
        }
        items
    };
    (strip(&doc["frames"]), strip(&doc["recompiles"]), doc["totals"].clone())
}

fn pids(doc: &Value) -> Vec<u64> {
    doc["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["pid"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_directory_with_a_rerun_holds_two_runs_oldest_first() {
    let doc = summary_json(Path::new(TWO_RUNS));
    let runs = doc["runs"].as_array().expect("runs list");
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(runs[0]["pids"], serde_json::json!([3216]));
    assert_eq!(runs[1]["pids"], serde_json::json!([3817]));
    assert!(runs[0]["start"].as_f64() < runs[1]["start"].as_f64());
    assert_eq!(runs[0]["files"], serde_json::json!([OLDER]));
    assert!(runs.iter().all(|r| r["selected"] == true), "no selection: all shown");
    let frame_runs: Vec<&Value> = doc["frames"].as_array().unwrap().iter().map(|f| &f["run"]).collect();
    assert_eq!(frame_runs, [0, 1]);
}

#[test]
fn the_text_names_the_runs_and_tells_the_two_frames_apart() {
    let out = guardscope(["summary", TWO_RUNS]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out.stdout.lines().nth(1).unwrap();
    assert!(line.starts_with("2 runs in these logs (--run 0: pid 3216 at 2026-11-23 07:07:05 · --run 1: pid 3817 at 2026-11-23 07:07:29)"), "{line}");
    assert!(line.ends_with("pick one with --latest or --run N"), "{line}");
    let rows: Vec<&str> = out
        .stdout
        .lines()
        // The frames table (paths depend on where the logs were made: not matched).
        .filter(|l| l.starts_with("  0 (run") && l.contains("TinyDecoder.forward"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", out.stdout);
    assert!(
        rows[0].starts_with("  0 (run 0, pid 3216, 2026-11-23 07:07:05)"),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].starts_with("  0 (run 1, pid 3817, 2026-11-23 07:07:29)"),
        "{}",
        rows[1]
    );
    // The later run's recompiles are named as such, like a rank > 0.
    let culprits = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("  1 recompile of run 1 frame 0 (TinyDecoder.forward"));
    assert_eq!(culprits.count(), 2, "{}", out.stdout);
    let check = guardscope(["check", TWO_RUNS]).stdout;
    assert!(check.contains("  0/2 run 1 frame 0 (TinyDecoder.forward) [closure_hook_state, problem] collector.capture_activation_norms, 7.62 s"), "{check}");
    assert!(check.contains("  0/2 frame 0 (TinyDecoder.forward) [closure_hook_state, problem] collector.capture_activation_norms, 1.68 s"), "{check}");
}

#[test]
fn latest_is_the_newer_log_read_alone() {
    let latest = json(&["summary", "--json", "--latest", TWO_RUNS]);
    let alone = summary_json(Path::new(NEWER));
    assert_eq!(pids(&latest), [3817]);
    assert_eq!(timeline(&latest), timeline(&alone));
    assert_eq!(latest["runs"][1]["selected"], true);
    assert_eq!(latest["runs"][0]["selected"], false);
    let text = guardscope(["summary", "--latest", TWO_RUNS]).stdout;
    assert!(text.contains("showing run 1 only"), "{text}");
    assert!(!text.contains("pid 3216,"), "the older run's frame is gone: {text}");
}

#[test]
fn run_0_is_the_older_log_read_alone() {
    let first = json(&["summary", "--json", "--run", "0", TWO_RUNS]);
    assert_eq!(pids(&first), [3216]);
    assert_eq!(timeline(&first), timeline(&summary_json(Path::new(OLDER))));
}

#[test]
fn a_run_that_is_not_there_is_a_one_line_error() {
    let out = guardscope(["summary", "--run", "2", TWO_RUNS]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr.trim(),
        "guardscope: --run 2: the logs hold 2 runs (--run 0 to 1)"
    );
    let out = guardscope(["summary", "--latest", "--run", "0", TWO_RUNS]);
    assert_eq!(out.code, 2, "clap refuses both: {}", out.stderr);
}

#[test]
fn the_ranks_of_one_launch_are_one_run() {
    for dir in [
        "tests/corpus/logs/torch2.15.0/ddp_gloo",
        "tests/corpus/logs/torch2.11.0/ddp_gloo",
        "tests/data/tlparse/multi_rank_schedule",
    ] {
        let doc = summary_json(Path::new(dir));
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1, "{dir}: {runs:?}");
        assert_eq!(
            runs[0]["files"].as_array().unwrap().len(),
            doc["inputs"].as_array().unwrap().len()
        );
        let text = guardscope(["summary", dir]).stdout;
        assert!(!text.contains("runs in these logs"), "{dir}: {text}");
        // --latest of a single launch is the whole launch.
        let latest = json(&["summary", "--json", "--latest", dir]);
        assert_eq!(latest["frames"], doc["frames"], "{dir}");
    }
    let ddp = summary_json(Path::new("tests/corpus/logs/torch2.15.0/ddp_gloo"));
    assert_eq!(ddp["runs"][0]["ranks"], serde_json::json!([0, 1]));
}

#[test]
fn check_latest_gates_only_the_newest_run() {
    // Each run recompiles twice: merged, the gate sees four.
    let merged = guardscope(["check", "--max-recompiles", "2", TWO_RUNS]);
    assert_eq!(merged.code, 1, "{}", merged.stdout);
    let latest = guardscope(["check", "--max-recompiles", "2", "--latest", TWO_RUNS]);
    assert_eq!(latest.code, 0, "{}", latest.stdout);
    let offending = |pick: &[&str]| {
        let out = guardscope([&["check", "--json"], pick, &[TWO_RUNS]].concat());
        assert_eq!(out.code, 1, "{}", out.stderr);
        let verdict: Value = serde_json::from_str(&out.stdout).expect("valid JSON");
        let seconds = |o: &Value| (o["duration_s"].as_f64().unwrap() * 100.0).round() / 100.0;
        verdict["offending"]
            .as_array()
            .unwrap()
            .iter()
            .map(seconds)
            .collect::<Vec<f64>>()
    };
    assert_eq!(offending(&[]).len(), 4);
    // 0/1 and 0/2 of each run, told apart by their compile times.
    assert_eq!(offending(&["--latest"]), [2.66, 7.62]);
    assert_eq!(offending(&["--run", "0"]), [2.26, 1.68]);
}

#[test]
fn report_latest_draws_only_the_newest_run() {
    let dir = common::shared_tempdir();
    let out_dir = dir.path().join("report");
    let out = guardscope([
        "report".as_ref(),
        "--latest".as_ref(),
        "-q".as_ref(),
        TWO_RUNS.as_ref(),
        "-o".as_ref(),
        out_dir.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(pids(&summary), [3817]);
    let page = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(page.contains("#frame-3817-0-0") && !page.contains("#frame-3216"));
    assert!(
        page.contains("2 runs in these logs"),
        "the page says it holds one of two runs"
    );
    assert!(page.contains("showing run 1 only"));
}
