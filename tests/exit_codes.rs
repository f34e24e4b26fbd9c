//! The documented exit codes: 0 success, 1 a check found a problem, 2 bad
//! usage or unreadable input, 3 internal error. A bug (a panic) must end in
//! one line and code 3, never a backtrace and Rust's 101.

mod common;

use common::{guardscope, guardscope_env};

const COLLISION: &str = "samples/traces/collision";
const STEPS: &str = "samples/steps/collision.jsonl";
const BASE: &str = "samples/activations/base.jsonl.gz";

#[test]
fn each_exit_code_means_what_the_readme_says() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let report = report.to_str().unwrap();
    let cases: [(&[&str], i32); 12] = [
        (&["summary", COLLISION], 0),
        (&["report", "-q", "-o", report, COLLISION], 0),
        (&["check", "--max-recompiles", "2", COLLISION], 0),
        (&["check", COLLISION], 1), // the sample recompiles twice
        (&["summary", "no/such/dir"], 2),
        (&["summary", "--no-such-flag", COLLISION], 2),
        (&["check", "--allow", "no_such_category", COLLISION], 2),
        (&["steps", STEPS], 0),
        (&["steps", "no/such/steps.jsonl"], 2),
        (&["diff", BASE, "samples/activations/base_again.jsonl.gz"], 0),
        (&["diff", BASE, "samples/activations/perturbed.jsonl.gz"], 1), // blocks.2.fc1 perturbed
        (&["diff", BASE, "no/such/trace.jsonl"], 2),
    ];
    for (args, code) in cases {
        let out = guardscope(args);
        assert_eq!(out.code, code, "guardscope {args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    }
}

#[test]
fn an_internal_error_exits_3_with_one_line_saying_where_to_report_it() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let commands: [&[&str]; 5] = [
        &["summary", COLLISION],
        &["check", COLLISION],
        &["report", "-q", "-o", report.to_str().unwrap(), COLLISION],
        &["steps", STEPS],
        &["diff", BASE, BASE],
    ];
    for args in commands {
        // RUST_BACKTRACE=1 would make the default hook print a backtrace.
        let out = guardscope_env(args, &[("GUARDSCOPE_DEBUG_PANIC", "1"), ("RUST_BACKTRACE", "1")]);
        assert_eq!(out.code, 3, "{args:?}: {}", out.stderr);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line, no backtrace: {}", out.stderr);
        let line = lines[0];
        assert!(
            line.starts_with("guardscope: internal error (a bug: deliberate panic"),
            "{line}"
        );
        assert!(
            line.contains("please report it on the guardscope issue tracker"),
            "{line}"
        );
        assert!(!line.contains("panicked") && !line.contains("RUST_BACKTRACE"), "{line}");
        assert_eq!(out.stdout, "", "nothing half-written on stdout");
    }
    assert!(!report.exists(), "no report written by a failed run");
    // Only the value 1 triggers it: the variable is a test switch, not a mode.
    assert_eq!(
        guardscope_env(["summary", COLLISION], &[("GUARDSCOPE_DEBUG_PANIC", "0")]).code,
        0
    );
}

#[test]
fn every_subcommand_help_states_the_exit_codes() {
    for command in ["summary", "check", "report", "steps", "diff"] {
        let out = guardscope([command, "--help"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains("Exit codes: 0"), "{command}: {help}");
        assert!(help.contains("· 2 bad usage"), "{command}: {help}");
        assert!(help.contains("· 3 internal error"), "{command}: {help}");
    }
    let check = guardscope(["check", "--help"]).stdout;
    assert!(check.contains("1 check failed"), "{check}");
    let diff = guardscope(["diff", "--help"]).stdout;
    assert!(diff.contains("1 divergent"), "{diff}");
    // Commands without a verdict promise no exit code 1.
    for command in ["summary", "report", "steps"] {
        let help = guardscope([command, "--help"]).stdout;
        let codes = &help[help.find("Exit codes:").unwrap()..];
        assert!(!codes.contains(" 1 "), "{command}: {codes}");
    }
}
