//! The compile timeline as a Chrome trace (`summary --trace-events`,
//! `report`'s compile_trace.json), checked on real logs: the Trace Event
//! Format's schema as ui.perfetto.dev and chrome://tracing read it, and the
//! slices against the compiles `summary --json` reports.

mod common;

use common::guardscope;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Real logs: one rank, three ranks, graph breaks (restarted attempts),
/// and a frame that hit the recompile limit.
const SAMPLES: [&str; 4] = [
    "samples/traces/collision",
    "tests/data/tlparse/multi_rank_schedule",
    "samples/traces/graph_breaks",
    "samples/traces/reasons/cache_limit",
];

fn trace_of(sample: &str, dir: &Path) -> Value {
    let file = dir.join("trace.json");
    let out = guardscope(["summary", sample, "--trace-events", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{sample}: {}", out.stderr);
    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
}

fn summary_json(sample: &str) -> Value {
    let out = guardscope(["summary", sample, "--json"]);
    assert_eq!(out.code, 0, "{sample}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

fn events(trace: &Value) -> &Vec<Value> {
    trace["traceEvents"]
        .as_array()
        .expect("the JSON object form: traceEvents is an array")
}

/// The Trace Event Format as its viewers need it: every event placed
/// (name, ph, ts >= 0, pid, tid), complete slices with a duration, and
/// every process and thread a slice is on named by a metadata event.
fn check_schema(trace: &Value, sample: &str) {
    let mut named_processes = BTreeSet::new();
    let mut named_threads = BTreeSet::new();
    let mut used = BTreeSet::new();
    for e in events(trace) {
        assert!(e["name"].is_string(), "{sample}: {e}");
        assert!(e["ts"].as_f64().is_some_and(|ts| ts >= 0.0), "{sample}: {e}");
        let (pid, tid) = (e["pid"].as_u64().expect("pid"), e["tid"].as_u64().expect("tid"));
        match e["ph"].as_str().expect("ph") {
            "M" => match e["name"].as_str().unwrap() {
                "process_name" => assert!(named_processes.insert(pid), "{sample}: pid {pid} named twice"),
                "thread_name" => assert!(named_threads.insert((pid, tid)), "{sample}: {pid}/{tid} named twice"),
                "process_sort_index" | "thread_sort_index" => assert!(e["args"]["sort_index"].is_u64()),
                other => panic!("{sample}: unknown metadata {other}"),
            },
            "X" => {
                assert!(e["dur"].as_f64().is_some_and(|d| d >= 0.0), "{sample}: {e}");
                assert!(e["cat"].is_string(), "{sample}: {e}");
                used.insert((pid, tid));
            }
            other => panic!("{sample}: unexpected phase {other}"),
        }
    }
    assert!(!used.is_empty(), "{sample}: no slice");
    for (pid, tid) in used {
        assert!(
            named_processes.contains(&pid),
            "{sample}: pid {pid} has no process_name"
        );
        assert!(
            named_threads.contains(&(pid, tid)),
            "{sample}: {pid}/{tid} has no thread_name"
        );
    }
}

fn slices<'t>(trace: &'t Value, cats: &[&str]) -> Vec<&'t Value> {
    events(trace)
        .iter()
        .filter(|e| e["ph"] == "X" && cats.contains(&e["cat"].as_str().unwrap()))
        .collect()
}

/// (compile id, duration in µs rounded) -> how many.
type Tally = BTreeMap<(String, i64), usize>;

#[test]
fn the_trace_is_valid_and_its_slices_are_the_compiles_of_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    for sample in SAMPLES {
        let trace = trace_of(sample, dir.path());
        check_schema(&trace, sample);
        let summary = summary_json(sample);

        let mut expected = Tally::new();
        let mut unplaced = 0;
        let frames = summary["frames"].as_array().unwrap();
        let compiles = frames
            .iter()
            .flat_map(|f| f["compiles"].as_array().unwrap())
            .chain(summary["compiled_autograd"].as_array().unwrap());
        for c in compiles {
            if c["start"].is_null() {
                unplaced += 1;
                continue;
            }
            let dur = (c["duration_s"].as_f64().unwrap_or(0.0) * 1e6).round() as i64;
            *expected
                .entry((c["compile_id"].as_str().unwrap().to_string(), dur))
                .or_default() += 1;
        }
        let compile_slices = slices(&trace, &["compile", "recompile"]);
        let mut got = Tally::new();
        for s in &compile_slices {
            let key = (
                s["name"].as_str().unwrap().to_string(),
                s["dur"].as_f64().unwrap().round() as i64,
            );
            *got.entry(key).or_default() += 1;
        }
        assert_eq!(got, expected, "{sample}: slices vs summary --json compiles");
        assert_eq!(trace["otherData"]["compiles_without_start_time"], unplaced, "{sample}");

        // Recompiles are told apart, with the cause summary gives them.
        let recompiles = summary["recompiles"].as_array().unwrap();
        let recompile_slices = slices(&trace, &["recompile"]);
        assert_eq!(recompile_slices.len(), recompiles.len(), "{sample}");
        let causes = |it: &mut dyn Iterator<Item = (String, String)>| it.collect::<BTreeSet<_>>();
        let from_summary = causes(&mut recompiles.iter().map(|r| {
            let category = r["cause"]["category"].as_str().unwrap_or("other").to_string();
            (r["compile_id"].as_str().unwrap().to_string(), category)
        }));
        let from_trace = causes(&mut recompile_slices.iter().map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["args"]["category"].as_str().unwrap().to_string(),
            )
        }));
        assert_eq!(from_trace, from_summary, "{sample}");

        // One process per rank (or the process), one thread per frame.
        let processes = events(&trace).iter().filter(|e| e["name"] == "process_name").count();
        let ranks: BTreeSet<String> = frames.iter().map(|f| format!("{}/{}", f["rank"], f["pid"])).collect();
        assert_eq!(processes, ranks.len(), "{sample}");
        let threads = events(&trace).iter().filter(|e| e["name"] == "thread_name").count();
        assert_eq!(threads, frames.len(), "{sample}");
    }
}

#[test]
fn ranks_are_processes_named_by_rank() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace_of("tests/data/tlparse/multi_rank_schedule", dir.path());
    let names: BTreeMap<u64, &str> = events(&trace)
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| (e["pid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(names, BTreeMap::from([(0, "rank 0"), (1, "rank 1"), (2, "rank 2")]));
    let thread = events(&trace).iter().find(|e| e["name"] == "thread_name").unwrap();
    let name = thread["args"]["name"].as_str().unwrap();
    assert!(name.starts_with("graph_one ") && name.contains("test2.py:28"), "{name}");
}

#[test]
fn restarted_attempts_nest_inside_their_compile() {
    let dir = tempfile::tempdir().unwrap();
    let trace = trace_of("samples/traces/graph_breaks", dir.path());
    let attempts = slices(&trace, &["attempt"]);
    assert!(!attempts.is_empty(), "the graph-break sample restarts compiles");
    let compiles = slices(&trace, &["compile", "recompile"]);
    for a in attempts {
        let id = a["name"].as_str().unwrap().rsplit_once('_').unwrap().0;
        let parent = compiles
            .iter()
            .find(|c| c["name"] == id && c["pid"] == a["pid"] && c["tid"] == a["tid"])
            .unwrap_or_else(|| panic!("no compile {id} for {a}"));
        let (ts, end) = (
            parent["ts"].as_f64().unwrap(),
            parent["ts"].as_f64().unwrap() + parent["dur"].as_f64().unwrap(),
        );
        let (ats, aend) = (
            a["ts"].as_f64().unwrap(),
            a["ts"].as_f64().unwrap() + a["dur"].as_f64().unwrap(),
        );
        assert!(ts <= ats && aend <= end + 1e-3, "{a} outside {parent}");
    }
}

/// `report` writes the trace beside the page, with `--steps` on a track of
/// their own (the StepLogger records and trace log of one real run).
#[test]
fn report_writes_compile_trace_json_with_the_steps() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("report");
    let out = guardscope([
        "report",
        "samples/steps/collision_trace",
        "--steps",
        "samples/steps/collision.jsonl",
        "-q",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("compile_trace.json")).unwrap()).unwrap();
    check_schema(&trace, "report");
    let records = std::fs::read_to_string("samples/steps/collision.jsonl").unwrap();
    let steps = slices(&trace, &["step"]);
    assert_eq!(steps.len(), records.lines().filter(|l| !l.trim().is_empty()).count());
    let track = events(&trace)
        .iter()
        .find(|e| e["name"] == "thread_name" && e["pid"] == steps[0]["pid"] && e["tid"] == steps[0]["tid"])
        .unwrap();
    assert_eq!(track["args"]["name"], "steps");
    // The steps share the compiles' process and clock: a step that recompiled
    // overlaps a recompile slice.
    let recompiled = steps
        .iter()
        .find(|s| s["args"]["recompiles"].as_u64() > Some(0))
        .unwrap();
    let (from, to) = (
        recompiled["ts"].as_f64().unwrap(),
        recompiled["ts"].as_f64().unwrap() + recompiled["dur"].as_f64().unwrap(),
    );
    assert!(
        slices(&trace, &["recompile"]).iter().any(|c| {
            let ts = c["ts"].as_f64().unwrap();
            c["pid"] == recompiled["pid"] && from <= ts && ts <= to
        }),
        "{recompiled}"
    );
}
