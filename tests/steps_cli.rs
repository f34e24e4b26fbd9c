//! `guardscope steps` (and the report's step lane) on the real StepLogger samples of samples/steps/
//! (samples/steps/generate.py: the collision run, and the same script as two
//! ranks where only rank 0 turns its metrics on).

mod common;

use common::{assert_clean_failure, guardscope, root};
use serde_json::Value;

fn steps_json(args: &[&str]) -> Value {
    let mut all = vec!["steps", "--json"];
    all.extend_from_slice(args);
    let out = guardscope(&all);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

fn records(path: &str) -> Vec<Value> {
    std::fs::read_to_string(root().join(path))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn collision_lists_step_12_among_the_slowest_with_its_cause() {
    let out = guardscope(["steps", "samples/steps/collision.jsonl"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Step 12's row and the lines its compiles wrap onto (up to the next row).
    let lines: Vec<&str> = out.stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.split_whitespace().next() == Some("12"))
        .expect("a row for step 12");
    let more = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("      ") && !l.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    let row = std::iter::once(lines[at].trim_end())
        .chain(more.map(|l| l.trim()))
        .collect::<Vec<_>>()
        .join(" ");
    // The user's file is shown relative to the current directory when
    // under it, else whole: either way it ends the same, with the verdict
    // the StepLogger judged from the log so far.
    assert!(
        row.contains(
            "0/2 forward (_collision_model.py:117) recompile 5.36 s + 0.08 s backward: forward-hook closure state: \
             collector.capture_activation_norms at "
        ) && row.contains("samples/scripts/_collision_model.py:180 [problem: hidden state; closure] fix: "),
        "{row}"
    );
    // A problem's fix follows it, written for the hook's state.
    assert!(row.ends_with("or use guardscope's hooks."), "{row}");
    assert!(
        out.stdout.starts_with("16 steps · 1 rank · median step "),
        "{}",
        out.stdout
    );

    let a = steps_json(&["samples/steps/collision.jsonl"]);
    let slowest: Vec<u64> = a["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_u64().unwrap())
        .collect();
    assert_eq!(&slowest[..3], [1, 12, 2]);
    assert_eq!(slowest.len(), 10);
    let step12 = &a["slowest"][1];
    assert_eq!(step12["compiles"][0]["cause"]["category"], "closure_hook_state");
    assert_eq!(
        step12["compiles"][0]["cause"]["culprit"],
        "collector.capture_activation_norms"
    );
    assert_eq!(step12["compiles"][0]["cause"]["severity"], "problem");
    assert_eq!(step12["compiles"][0]["cause"]["evidence"], "hidden_state");
    assert_eq!(step12["compiles"][0]["cause"]["owner"], "closure");
    assert!(step12["ratio_to_median"].as_f64().unwrap() > 50.0);
    assert_eq!(step12["record"], "samples/steps/collision.jsonl:12");

    // Compiling after the first step: exactly steps 2 and 12's compile time.
    let recs = records("samples/steps/collision.jsonl");
    let compile_s = |step: u64| {
        recs.iter().find(|r| r["step"] == step).unwrap()["compile_s"]
            .as_f64()
            .unwrap()
    };
    let after = a["compile_after_first_step_s"].as_f64().unwrap();
    assert!((after - (compile_s(2) + compile_s(12))).abs() < 1e-6, "{after}");
    assert!((a["compile_in_first_step_s"].as_f64().unwrap() - compile_s(1)).abs() < 1e-6);
    assert_eq!(a["lone_recompiles"], serde_json::json!([]));
}

#[test]
fn trace_join_adds_the_logs_detail_by_compile_id() {
    let a = steps_json(&[
        "samples/steps/collision.jsonl",
        "--trace",
        "samples/steps/collision_trace",
        "--top",
        "3",
    ]);
    assert_eq!(a["joined_trace"], true);
    let compiles: Vec<&Value> = a["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["compiles"].as_array().unwrap())
        .collect();
    let ids: Vec<&str> = compiles.iter().map(|c| c["compile_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["0/0", "0/2", "0/1"]);
    for c in &compiles {
        assert_eq!(c["trace"]["matched_by"], "id", "{c}");
        assert!(c["trace"]["log"]
            .as_str()
            .unwrap()
            .starts_with("samples/steps/collision_trace/dedicated_log_torch_trace.log.gz:"));
    }
    assert!(compiles[1]["trace"]["guard"]
        .as_str()
        .unwrap()
        .contains("capture_activation_norms"));
    assert!(compiles[2]["trace"]["guard"]
        .as_str()
        .unwrap()
        .contains("pos_enc_cache"));
}

#[test]
fn records_without_compiles_get_them_from_the_trace_by_time() {
    // The real records with their compile lists removed (as another step
    // logger would write them): the trace's compile start times place each
    // compile in its step.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bare.jsonl");
    let bare: Vec<String> = records("samples/steps/collision.jsonl")
        .into_iter()
        .map(|r| serde_json::json!({"step": r["step"], "start": r["start"], "wall_ms": r["wall_ms"]}).to_string())
        .collect();
    std::fs::write(&path, bare.join("\n")).unwrap();
    let a = steps_json(&[path.to_str().unwrap(), "--trace", "samples/steps/collision_trace"]);
    let by_step = |n: u64| {
        a["slowest"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["step"] == n)
            .unwrap_or_else(|| panic!("step {n} among the slowest"))
            .clone()
    };
    assert_eq!(by_step(1)["compiles"][0]["compile_id"], "0/0");
    assert_eq!(by_step(2)["compiles"][0]["compile_id"], "0/1");
    let twelve = by_step(12);
    assert_eq!(twelve["compiles"].as_array().unwrap().len(), 1);
    assert_eq!(twelve["compiles"][0]["compile_id"], "0/2");
    assert_eq!(twelve["compiles"][0]["trace"]["matched_by"], "time");
    assert_eq!(twelve["compiles"][0]["cause"]["category"], "closure_hook_state");
    assert_eq!(
        twelve["compiles"][0]["cause"]["source"],
        format!("{}/samples/scripts/_collision_model.py:180", common::RECORDED_IN)
    );
    let others: usize = a["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| ![1, 2, 12].contains(&s["step"].as_u64().unwrap()))
        .map(|s| s["compiles"].as_array().unwrap().len())
        .sum();
    assert_eq!(others, 0);
}

#[test]
fn a_run_directory_is_read_for_its_step_files_among_other_files() {
    // A Trainer's output_dir: step files beside checkpoints and configs.
    let dir = tempfile::tempdir().unwrap();
    for rank in [0, 1] {
        let name = format!("steps_rank_{rank}.jsonl");
        std::fs::copy(root().join("samples/steps/ranks").join(&name), dir.path().join(&name)).unwrap();
    }
    std::fs::write(dir.path().join("config.json"), "{\"hidden_size\": 32}\n").unwrap();
    std::fs::create_dir(dir.path().join("checkpoint-5")).unwrap();
    let from_dir = steps_json(&[dir.path().to_str().unwrap()]);
    let from_files = steps_json(&[
        "samples/steps/ranks/steps_rank_0.jsonl",
        "samples/steps/ranks/steps_rank_1.jsonl",
    ]);
    assert_eq!(from_dir["lone_recompiles"], from_files["lone_recompiles"]);
    assert_eq!(from_dir["ranks"], from_files["ranks"]);
    // Without step files, the directory is still refused with advice.
    std::fs::remove_file(dir.path().join("steps_rank_0.jsonl")).unwrap();
    std::fs::remove_file(dir.path().join("steps_rank_1.jsonl")).unwrap();
    let out = guardscope(["steps", dir.path().to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("step files are what StepLogger writes"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_rank_that_recompiles_alone_is_flagged() {
    let out = guardscope([
        "steps",
        "samples/steps/ranks/steps_rank_0.jsonl",
        "samples/steps/ranks/steps_rank_1.jsonl",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("32 steps · 2 ranks"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("  step 12: rank 0 recompiled (0/2), 1 of 2 ranks did not\n"),
        "{}",
        out.stdout
    );
    let a = steps_json(&[
        "samples/steps/ranks/steps_rank_0.jsonl",
        "samples/steps/ranks/steps_rank_1.jsonl",
    ]);
    assert_eq!(
        a["lone_recompiles"],
        serde_json::json!([{"attempt": 1, "step": 12, "ranks": [0], "of_ranks": 2, "compiles": ["0/2"]}])
    );
    let ranks: Vec<(u64, u64)> = a["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rank"].as_u64().unwrap(), r["recompiles"].as_u64().unwrap()))
        .collect();
    assert_eq!(ranks, [(0, 2), (1, 1)]);
}

#[test]
fn bad_records_are_reported_with_file_line_and_unreadable_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("steps.jsonl");
    let mut text = std::fs::read_to_string(root().join("samples/steps/collision.jsonl")).unwrap();
    text.push_str("{\"step\": \"seventeen\"}\n");
    std::fs::write(&path, text).unwrap();
    let out = guardscope(["steps", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("1 bad step record(s) skipped:"), "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!("{}:17: ", path.display())),
        "{}",
        out.stdout
    );

    assert_clean_failure(&guardscope(["steps", "no/such/steps.jsonl"]));
    let junk = dir.path().join("junk.jsonl");
    std::fs::write(&junk, "hello\n").unwrap();
    let out = guardscope(["steps", junk.to_str().unwrap()]);
    assert_clean_failure(&out);
    assert!(out.stderr.contains("no step records"), "{}", out.stderr);
    assert_eq!(guardscope(["steps"]).code, 2);
}

#[test]
fn a_steps_file_or_trace_read_only_in_part_is_listed_and_exits_2() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    // The steps file gzipped, then cut: the first records are read, the
    // rest is lost to a read error.
    let text = std::fs::read(root().join("samples/steps/collision.jsonl")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("steps_cut.jsonl.gz");
    std::fs::write(&cut, &gz[..gz.len() * 2 / 3]).unwrap();
    let out = guardscope(["steps".as_ref(), cut.as_os_str()]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stdout.contains("error: input that could not be read") && out.stdout.contains("steps_cut.jsonl.gz"),
        "{}",
        out.stdout
    );
    let json = guardscope(["steps".as_ref(), "--json".as_ref(), cut.as_os_str()]);
    assert_eq!(json.code, 2);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["unread_inputs"].as_array().unwrap().len(), 1, "{v}");

    // A --trace directory one of whose rank logs cannot be read.
    let traces = dir.path().join("trace");
    std::fs::create_dir(&traces).unwrap();
    std::fs::copy(
        root().join("samples/traces/collision/dedicated_log_torch_trace.log.gz"),
        traces.join("dedicated_log_torch_trace_rank_0.log.gz"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/hostile/gzip_header_only.log.gz"),
        traces.join("dedicated_log_torch_trace_rank_1.log.gz"),
    )
    .unwrap();
    let out = guardscope([
        "steps".as_ref(),
        "samples/steps/collision.jsonl".as_ref(),
        "--trace".as_ref(),
        traces.as_os_str(),
    ]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(out.stdout.contains("rank_1.log.gz"), "{}", out.stdout);
}

/// Before, a duplicate step was counted twice and a step of another year
/// was analysed like the others.
#[test]
fn repeated_and_far_off_step_records_are_problems_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("steps.jsonl");
    let mut text = std::fs::read_to_string(root().join("samples/steps/collision.jsonl")).unwrap();
    // 9 s into the run (samples/steps/collision.jsonl starts at 1795648332).
    // Step 3 again, by the same process (another process's would be kept).
    text.push_str("{\"step\": 3, \"start\": 1795648341.0, \"wall_ms\": 9000, \"pid\": 10991}\n");
    text.push_str("{\"step\": 40, \"start\": 1.0e9, \"wall_ms\": 9000}\n");
    std::fs::write(&path, text).unwrap();
    for trace in [None, Some("samples/steps/collision_trace")] {
        let mut args = vec![path.to_str().unwrap()];
        args.extend(trace.map(|t| ["--trace", t]).into_iter().flatten());
        let a = steps_json(&args);
        assert_eq!(a["steps"], 16, "{trace:?}");
        let problems: Vec<&str> = a["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].ends_with(&format!(
            "steps.jsonl:17: step 3 recorded again by pid 10991 (first at {}:3); left out",
            path.display()
        )));
        assert!(
            problems[1].contains("steps.jsonl:18: step 40: 'start' is "),
            "{problems:?}"
        );
        // The 9 s records are not among the slowest.
        assert!(a["slowest"].as_array().unwrap().iter().all(|s| s["wall_ms"] != 9000.0));
    }
    let text = guardscope(["steps", path.to_str().unwrap()]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("2 bad step record(s) skipped:"), "{}", text.stdout);
}

/// samples/steps/mostly_compiling.jsonl (samples/scripts/mostly_compiling.py,
/// real torch + StepLogger): steps 1-9 compile, 10-12 do not. The median of
/// all 12 steps is a compile step (~310 ms), against which a recompile step
/// looked ~1.4x; the base is the median of the steps without compiles.
const MOSTLY_COMPILING: &str = "samples/steps/mostly_compiling.jsonl";

#[test]
fn slowness_is_measured_against_the_steps_that_compiled_nothing() {
    let recs = records(MOSTLY_COMPILING);
    let compiled = |r: &Value| r["compiles"].as_array().is_some_and(|c| !c.is_empty());
    assert!(recs.iter().filter(|r| compiled(r)).count() > recs.len() / 2);
    let mut steady: Vec<f64> = recs
        .iter()
        .filter(|r| !compiled(r))
        .map(|r| r["wall_ms"].as_f64().unwrap())
        .collect();
    steady.sort_by(f64::total_cmp);
    let base = steady[steady.len() / 2];

    let a = steps_json(&[MOSTLY_COMPILING, "--top", "12"]);
    let rank = &a["ranks"][0];
    assert_eq!(rank["steady_steps"], steady.len());
    assert_eq!(rank["steady_median_wall_ms"].as_f64().unwrap(), base);
    for s in a["slowest"].as_array().unwrap() {
        let ratio = s["ratio_to_steady"].as_f64().unwrap();
        assert!((ratio - s["wall_ms"].as_f64().unwrap() / base).abs() < 1e-9, "{s}");
        if !s["compiles"].as_array().unwrap().is_empty() {
            // Every compile step is far slower than a step without compiles,
            // though most are near the median of all steps.
            assert!(ratio > 50.0, "{s}");
        }
    }
    let out = guardscope(["steps", MOSTLY_COMPILING]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with(&format!(
            "12 steps · 1 rank · median step without compiles {base:.1} ms (3 steps) · "
        )),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("step     wall ms  x steady"), "{}", out.stdout);
}

#[test]
fn when_every_step_compiled_there_is_no_base_and_it_says_so() {
    // The sample's compile steps alone: every one compiled.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all_compile.jsonl");
    let text = std::fs::read_to_string(root().join(MOSTLY_COMPILING)).unwrap();
    let kept: Vec<&str> = text.lines().take(9).collect();
    std::fs::write(&path, kept.join("\n")).unwrap();
    let path = path.to_str().unwrap();
    let a = steps_json(&[path]);
    assert_eq!(a["ranks"][0]["steady_steps"], 0);
    assert_eq!(a["ranks"][0]["steady_median_wall_ms"], Value::Null);
    assert!(a["slowest"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["ratio_to_steady"].is_null()));
    let out = guardscope(["steps", path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("median step without compiles none: all 9 compiled"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("No step without compiles to compare with: 'x steady' is left blank there."),
        "{}",
        out.stdout
    );
    let row = out
        .stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some("8"))
        .expect("a row for step 8");
    assert_eq!(row.split_whitespace().nth(2), Some("-"), "{row}");
}

#[test]
fn slow_steps_are_marked_against_the_steps_without_compiles() {
    // The report's timeline, on the same records: 9 of 12
    // steps compile, so the median of all steps is a compile step and only
    // step 1 reached twice it; against the 3 steps without compiles every
    // compile step is slow.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let out = guardscope([
        "report",
        "samples/traces/collision",
        "--steps",
        "samples/steps/mostly_compiling.jsonl",
        "-o",
        out_dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let html = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    // The 9 compile steps, and step 10, the first without a compile (2.7x:
    // its warm-up).
    assert_eq!(html.matches("<rect class=\"step slow\"").count(), 10);
    assert!(html.contains("12 steps, median step without compiles 3.41 ms (3 of them)."));
    assert!(html.contains("step 8 · 1152 ms (338.1× a step without compiles)"));
}
