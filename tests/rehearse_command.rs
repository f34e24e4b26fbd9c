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

/// The whole text of the log the command wrote (one process: one log).
fn log_text(out: &Output) -> String {
    let line = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("guardscope: TORCH_TRACE="))
        .and_then(|l| l.strip_suffix(" (kept)"))
        .unwrap_or_else(|| panic!("no TORCH_TRACE note on stderr:\n{}", out.stderr));
    let dir = PathBuf::from(line);
    let logs: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
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
