//! A run killed with SIGKILL mid-compile leaves a log of whole lines that
//! ends with a compile that never finished: the log is not the whole run,
//! so every gate fails closed on it (exit 2, as for a line cut in the
//! middle) unless `--allow-unfinished` says the run was stopped on purpose.
//!
//! The log in tests/data/killed_mid_compile is real (torch 2.15, killed by
//! tests/run/killed_mid_compile.py; its README says how); one test kills a
//! real run again under `guardscope run --check`.

mod common;

use common::ci_formats::{check, parse_commands, valid_sarif, FORMATS};
use common::{guardscope, python, root};
use serde_json::Value;
use std::path::Path;

const KILLED: &str = "tests/data/killed_mid_compile";

#[test]
fn a_run_killed_mid_compile_fails_closed_in_every_format() {
    let junit = tempfile::NamedTempFile::new().unwrap();
    let junit_path = junit.path().to_str().unwrap();
    for format in FORMATS {
        // The budget would pass what was read: 3 recompiles, 5 allowed.
        let out = check(&[
            KILLED,
            "--max-recompiles",
            "5",
            "--format",
            format,
            "--junit",
            junit_path,
        ]);
        assert_eq!(out.code, 2, "--format {format}: {}\n{}", out.stdout, out.stderr);
        assert!(!out.stdout.contains("PASS"), "--format {format}: {}", out.stdout);
        assert!(
            out.stdout.contains("0/3") && out.stdout.contains("never finished"),
            "--format {format} names the unfinished compile: {}",
            out.stdout
        );
        let junit = std::fs::read_to_string(junit.path()).unwrap();
        assert!(
            junit.contains("unreadable_input") && junit.contains("never finished"),
            "{junit}"
        );
    }
    let json: Value = serde_json::from_str(&check(&[KILLED, "--max-recompiles", "5", "--json"]).stdout).unwrap();
    assert_eq!(json["passed"], false);
    assert_eq!(json["unfinished_compiles"].as_array().unwrap().len(), 1);
    assert_eq!(json["unread_inputs"], json["unfinished_compiles"]);
    assert_eq!(json["offending"].as_array().unwrap().len(), 3);
    let message = json["message"].as_str().unwrap();
    assert!(
        message.starts_with("FAIL: input not fully read (1 compile unfinished: the log ends mid-compile)"),
        "{message}"
    );

    let sarif = valid_sarif(&check(&[KILLED, "--max-recompiles", "5", "--format", "sarif"]).stdout);
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(invocation["exitCode"], 2);

    let github = check(&[KILLED, "--max-recompiles", "5", "--format", "github"]);
    let (commands, plain) = parse_commands(&github.stdout);
    let unread: Vec<_> = commands
        .iter()
        .filter(|c| c.message.contains("never finished"))
        .collect();
    assert_eq!(unread.len(), 1, "{}", github.stdout);
    assert_eq!(unread[0].name, "error");
    assert!(
        plain.last().unwrap().starts_with("FAIL: input not fully read"),
        "{plain:?}"
    );

    let markdown = check(&[KILLED, "--max-recompiles", "5", "--format", "markdown"]).stdout;
    assert!(markdown.starts_with("## guardscope check: ❌ FAIL\n"), "{markdown}");
}

#[test]
fn allow_unfinished_judges_what_was_read_and_says_so_in_every_format() {
    let junit = tempfile::NamedTempFile::new().unwrap();
    let junit_path = junit.path().to_str().unwrap();
    for format in FORMATS {
        let out = check(&[
            KILLED,
            "--max-recompiles",
            "5",
            "--allow-unfinished",
            "--format",
            format,
            "--junit",
            junit_path,
        ]);
        let junit = std::fs::read_to_string(junit.path()).unwrap();
        assert!(
            junit.contains("not judged (--allow-unfinished") && junit.contains("0/3"),
            "{junit}"
        );
        assert_eq!(out.code, 0, "--format {format}: {}\n{}", out.stdout, out.stderr);
        assert!(
            out.stdout
                .contains("1 compile unfinished, not judged (--allow-unfinished"),
            "--format {format}: {}",
            out.stdout
        );
    }
    // Still over the budget is still a failure.
    let out = check(&[KILLED, "--max-recompiles", "2", "--allow-unfinished"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
}

#[test]
fn an_unfinished_compile_before_the_last_event_fails_too() {
    // A rank killed mid-compile beside one that went on (a finished run's
    // log, copied in): the unfinished compile is not the input's last event.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join(KILLED).join("dedicated_log_torch_trace_killed.log.gz"),
        dir.path().join("a_killed.log.gz"),
    )
    .unwrap();
    let fixed = root().join("samples/traces/collision_fixed");
    for entry in std::fs::read_dir(&fixed).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(
            entry.path(),
            dir.path().join(format!("z_{}", entry.file_name().to_string_lossy())),
        )
        .unwrap();
    }
    let input = dir.path().to_str().unwrap();
    let out = check(&[input, "--max-recompiles", "50", "--json"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let unfinished = json["unfinished_compiles"].as_array().unwrap();
    assert_eq!(unfinished.len(), 1, "{unfinished:?}");
    assert!(
        unfinished[0].as_str().unwrap().contains("a_killed.log.gz:"),
        "{unfinished:?}"
    );
}

#[test]
fn a_real_run_killed_mid_compile_fails_run_check() {
    // The script kills its own child with SIGKILL mid-compile and exits 0,
    // as a launcher whose worker died may: the command succeeded, the log
    // it left is not the whole run.
    let py = python();
    let script = root().join("tests/run/killed_mid_compile.py");
    let args: Vec<&Path> = vec![
        Path::new("run"),
        Path::new("--check"),
        Path::new("--max-recompiles"),
        Path::new("50"),
        Path::new("--"),
        py.as_path(),
        script.as_path(),
    ];
    let out = guardscope(args);
    assert_eq!(out.code, 2, "stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("never finished"), "{}", out.stdout);
    assert!(out.stdout.contains("FAIL: input not fully read"), "{}", out.stdout);
}
