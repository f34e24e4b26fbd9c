//! `guardscope rehearse -- python SCRIPT`: the real binary runs a real torch
//! script that compiles with Inductor (tests/python/_rehearse_scenarios.py:
//! an MLP over batches 16, 16, 16, 7, then eval) and every compile goes to
//! the eager backend instead, with the recompiles Inductor's run has (0/1
//! shape_input, 0/2 torch_global_state, measured on a real Inductor run).
//!
//! The script runs under GUARDSCOPE_TEST_PYTHON, else `.venv/bin/python`.

mod common;

use common::{guardscope, guardscope_env, python, root, Output};
use std::path::{Path, PathBuf};

fn scenario() -> PathBuf {
    root().join("tests/python/_rehearse_scenarios.py")
}

fn rehearse(flags: &[&str], env: &[(&str, &str)]) -> Output {
    let py = python();
    let script = scenario();
    let mut args: Vec<&Path> = vec![Path::new("rehearse")];
    args.extend(flags.iter().map(Path::new));
    args.extend([
        Path::new("--"),
        py.as_path(),
        script.as_path(),
        Path::new("mlp"),
        Path::new("inductor"),
    ]);
    guardscope_env(args, env)
}

/// The directory the command's logs were kept in.
fn logs_dir(out: &Output) -> PathBuf {
    let line = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("guardscope: TORCH_TRACE="))
        .and_then(|l| l.strip_suffix(" (kept)"))
        .unwrap_or_else(|| panic!("no TORCH_TRACE note on stderr:\n{}", out.stderr));
    PathBuf::from(line)
}

/// The whole text of the log the command wrote (one process: one log;
/// beside it, only the rehearsal's mark).
fn log_text(out: &Output) -> String {
    let dir = logs_dir(out);
    let (logs, others): (Vec<_>, Vec<_>) = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .partition(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("dedicated_log_torch_trace")
        });
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert_eq!(others, [dir.join("guardscope-rehearsal.json")]);
    let text = std::fs::read_to_string(&logs[0]).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    text
}

#[test]
fn an_inductor_script_is_rehearsed_on_eager_and_gated_on_the_predicted_recompiles() {
    let out = rehearse(&[], &[]);
    assert_eq!(out.code, 1, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .starts_with("Predicted (eager run: every torch.compile on backend=eager"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("0/1 frame 0 (MLP.forward) [shape_input, expected]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("0/2 frame 0 (MLP.forward) [torch_global_state, expected]"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("FAIL: 2 recompiles (allowed: 0)"), "{}", out.stdout);
    let log = log_text(&out);
    assert_eq!(log.matches("\"dynamo_start\"").count(), 3);
    // Inductor never ran: no generated code, not even AOT autograd's graphs.
    assert!(!log.contains("\"inductor_output_code\"") && !log.contains("\"aot_joint_graph\""));
}

#[test]
fn the_rehearsals_logs_read_later_say_their_findings_are_predicted() {
    let out = rehearse(&["--allow", "shape_input", "--allow", "torch_global_state"], &[]);
    assert_eq!(out.code, 0, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    let dir = logs_dir(&out);
    let summary = guardscope_env(vec![Path::new("summary"), Path::new("--json"), dir.as_path()], &[]);
    assert_eq!(summary.code, 0, "{}", summary.stderr);
    let doc: serde_json::Value = serde_json::from_str(&summary.stdout).unwrap();
    assert_eq!(doc["predicted"]["level"], "eager run");
    assert_eq!(doc["predicted"]["backend"], "eager");
    let recompiles = doc["recompiles"].as_array().unwrap();
    assert_eq!(recompiles.len(), 2);
    assert!(
        recompiles.iter().all(|r| r["predicted"] == "eager run"),
        "{recompiles:?}"
    );
    let page = dir.join("page");
    let report = guardscope_env(
        vec![Path::new("report"), dir.as_path(), Path::new("-o"), page.as_path()],
        &[],
    );
    assert_eq!(report.code, 0, "{}", report.stderr);
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(
        html.contains(
            "<b>Predicted, not measured:</b> these logs are a rehearsal's (eager run, every compile on backend=eager)"
        ),
        "no banner"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_real_runs_summary_has_no_predicted_field() {
    let sample = root().join("samples/steps/collision_trace");
    let doc = guardscope_env(vec![Path::new("summary"), Path::new("--json"), sample.as_path()], &[]);
    assert_eq!(doc.code, 0, "{}", doc.stderr);
    assert!(!doc.stdout.contains("\"predicted\""), "{}", doc.stdout);
}

#[test]
fn the_gates_flags_excuse_the_expected_categories() {
    let out = rehearse(&["--allow", "shape_input", "--allow", "torch_global_state"], &[]);
    assert_eq!(out.code, 0, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    let _ = log_text(&out);
}

#[test]
fn aot_eager_traces_the_backward_without_generating_code() {
    let out = rehearse(&["--backend", "aot_eager", "--json"], &[]);
    assert_eq!(out.code, 1, "stderr:\n{}", out.stderr);
    let verdict: serde_json::Value = serde_json::from_str(&out.stdout).expect("the verdict as JSON, alone on stdout");
    assert_eq!(verdict["passed"], false);
    assert_eq!(verdict["offending"].as_array().unwrap().len(), 2);
    let log = log_text(&out);
    assert!(log.contains("\"aot_joint_graph\"") && !log.contains("\"inductor_output_code\""));
}

#[test]
fn the_sitecustomize_a_rehearsal_shadows_still_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("sitecustomize.py"),
        "import sys\nprint('own sitecustomize ran', file=sys.stderr)\n",
    )
    .unwrap();
    let path = dir.path().to_str().unwrap();
    let out = rehearse(
        &["--allow", "shape_input", "--allow", "torch_global_state"],
        &[("PYTHONPATH", path)],
    );
    assert_eq!(out.code, 0, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("own sitecustomize ran"), "{}", out.stderr);
    assert!(!log_text(&out).contains("\"inductor_output_code\""));
}

#[test]
fn rehearse_without_a_command_is_bad_usage() {
    let out = guardscope(["rehearse"]);
    assert_eq!(out.code, 2);
}

/// The cause budget gates a rehearsal as it gates `check`: the MLP's two
/// recompiles come from two changes (a batch size, then grad mode), so a
/// budget of one cause fails and one of two passes.
#[test]
fn the_cause_budget_gates_a_rehearsal() {
    let out = rehearse(&["--max-recompile-causes", "1"], &[]);
    assert_eq!(out.code, 1, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    let verdict = out.stdout.lines().rev().find(|l| l.starts_with("FAIL")).unwrap_or("");
    assert!(verdict.contains("2 causes"), "{}", out.stdout);
    let _ = log_text(&out);
    let out = rehearse(&["--max-recompile-causes", "2"], &[]);
    assert_eq!(out.code, 0, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    let _ = log_text(&out);
}
