//! `guardscope check`, the pre-merge gate: exit codes, baseline comparison,
//! allowed categories, JSON and JUnit output, on real sample logs.

mod common;

use common::{assert_clean_failure, guardscope, strings};
use serde_json::Value;

#[test]
fn collision_fails_and_names_each_recompile_with_its_fix() {
    let out = guardscope(["check", "samples/traces/collision"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stdout.contains(
        "0/1 frame 0 (TinyDecoder.forward) [shape_lazy_buffer, problem] pos_encoding.pos_enc_cache (buffer), 0.56 s"
    ));
    assert!(out.stdout.contains(
        "0/2 frame 0 (TinyDecoder.forward) [closure_hook_state, problem] collector.capture_activation_norms, 0.56 s"
    ));
    assert!(out.stdout.contains("Recompiles (2 problems, 0 expected one-offs"));
    // Text shows the log's full path relative to the current directory when
    // under it, so only the tail is fixed wherever the repository lives.
    assert!(out.stdout.contains("samples/scripts/_collision_model.py:180"));
    assert!(!out.stdout.contains("at mples/"), "never torch's shortened path");
    assert!(out.stdout.contains("fix: The hook reads mutable state"));
    assert_eq!(out.stdout.lines().last(), Some("FAIL: 2 recompiles (allowed: 0)"));
}

#[test]
fn fixed_run_passes() {
    let out = guardscope(["check", "samples/traces/collision_fixed"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert_eq!(out.stdout.trim(), "PASS: 0 recompiles (allowed: 0)");
}

#[test]
fn max_recompiles_raises_the_limit() {
    assert_eq!(
        guardscope(["check", "samples/traces/collision", "--max-recompiles", "2"]).code,
        0
    );
    assert_eq!(
        guardscope(["check", "samples/traces/collision", "--max-recompiles", "1"]).code,
        1
    );
}

#[test]
fn against_a_baseline_only_new_recompiles_count() {
    let out = guardscope([
        "check",
        "samples/traces/collision",
        "--baseline",
        "samples/traces/collision_fixed",
        "--json",
    ]);
    assert_eq!(out.code, 1);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["mode"], "baseline");
    assert_eq!(v["passed"], false);
    let ids = strings(&v["offending"], "compile_id");
    assert_eq!(ids, ["0/1", "0/2"]);
    assert_eq!(v["offending"][1]["category"], "closure_hook_state");
    // The JSON keeps the full path, as the log has it.
    assert_eq!(
        v["offending"][1]["source"],
        "/work/main/samples/scripts/_collision_model.py:180"
    );
    // The same run as its own baseline adds nothing.
    let same = guardscope([
        "check",
        "samples/traces/collision",
        "--baseline",
        "samples/traces/collision",
    ]);
    assert_eq!(same.code, 0, "{}", same.stdout);
    assert!(same.stdout.contains("PASS: 0 new recompiles"));
}

#[test]
fn new_frames_warn_unless_limited() {
    // collision_fixed has 4 frames collision lacks (one per @disable boundary).
    let out = guardscope([
        "check",
        "samples/traces/collision_fixed",
        "--baseline",
        "samples/traces/collision",
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("warning: frames the baseline does not have"));
    assert!(
        out.stdout.contains("4 new frame(s) versus the baseline (warning only)"),
        "{}",
        out.stdout
    );
    let strict = guardscope([
        "check",
        "samples/traces/collision_fixed",
        "--baseline",
        "samples/traces/collision",
        "--max-new-frames",
        "0",
    ]);
    assert_eq!(strict.code, 1, "{}", strict.stdout);
}

#[test]
fn allowed_categories_are_excused_and_listed() {
    let out = guardscope([
        "check",
        "samples/traces/reasons/nn_module_attr",
        "--allow",
        "nn_module_attr",
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("Excused by --allow:"));
    assert!(out
        .stdout
        .contains("PASS: 0 recompiles (allowed: 0), 2 excused by --allow"));
    let wrong = guardscope(["check", "samples/traces/collision", "--allow", "bogus"]);
    assert_eq!(wrong.code, 2);
    assert!(wrong
        .stderr
        .contains("unknown category 'bogus'; one of: shape_lazy_buffer"));
}

#[test]
fn junit_report_is_written_for_ci() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("guardscope.xml");
    let out = guardscope([
        "check".as_ref(),
        "samples/traces/collision".as_ref(),
        "--junit".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(out.code, 1);
    let xml = std::fs::read_to_string(&path).unwrap();
    assert!(
        xml.contains(r#"<testsuite name="guardscope check" tests="1" failures="1" errors="0">"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="FAIL: 2 recompiles (allowed: 0)" type="recompiles">"#),
        "{xml}"
    );
    assert!(xml.contains("[closure_hook_state] collector.capture_activation_norms at "));
    assert!(xml.contains("samples/scripts/_collision_model.py:180"));

    let pass = guardscope([
        "check".as_ref(),
        "samples/traces/collision_fixed".as_ref(),
        "--junit".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(pass.code, 0);
    let xml = std::fs::read_to_string(&path).unwrap();
    assert!(xml.contains(r#"failures="0""#) && !xml.contains("<failure"), "{xml}");
}

#[test]
fn unreadable_inputs_exit_2() {
    assert_clean_failure(&guardscope(["check", "no/such/dir"]));
    assert_clean_failure(&guardscope([
        "check",
        "samples/traces/collision",
        "--baseline",
        "no/such/baseline",
    ]));
}
