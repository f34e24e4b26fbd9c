//! `guardscope check`, the pre-merge gate: exit codes, baseline comparison,
//! allowed categories, JSON and JUnit output, on real sample logs.

mod common;

use common::{assert_clean_failure, guardscope, strings, RECORDED_IN};
use serde_json::Value;

#[test]
fn collision_fails_and_names_each_recompile_with_its_fix() {
    let out = guardscope(["check", "samples/traces/collision"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stdout.contains(
        "0/1 frame 0 (TinyDecoder.forward) [shape_lazy_buffer, problem] pos_encoding.pos_enc_cache (buffer), 1.47 s"
    ));
    assert!(out.stdout.contains(
        "0/2 frame 0 (TinyDecoder.forward) [closure_hook_state, problem] collector.capture_activation_norms, 3.74 s"
    ));
    assert!(out.stdout.contains("Recompiles (2 problems, 0 expected one-offs"));
    // Text shows the log's full path relative to the current directory when
    // under it, so only the tail is fixed wherever the repository lives.
    assert!(out.stdout.contains("samples/scripts/_collision_model.py:180"));
    assert!(!out.stdout.contains("at mples/"), "never torch's shortened path");
    assert!(out.stdout.contains("fix: The hook reads mutable state"));
    // Whose value it is, and the cache entry whose guard failed.
    assert!(
        out.stdout
            .contains("owner: a variable a closure captures (cause: cache entry 0/1)"),
        "{}",
        out.stdout
    );
    assert_eq!(out.stdout.lines().last(), Some("FAIL: 2 recompiles (allowed: 0)"));
}

#[test]
fn a_fix_that_leaves_a_frame_uncompiled_fails() {
    // collision_fixed disables its hooks, called inside TinyDecoder.forward's
    // loop over its layers: Dynamo skips forward, which runs eagerly.
    let out = guardscope(["check", "samples/traces/collision_fixed"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("error: frames that run eagerly, not compiled:\n  forward (samples/scripts/_collision_model.py:117) is not compiled: it runs eagerly every call"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stdout.lines().last(),
        Some("FAIL: 1 frame runs eagerly (allowed: 0): forward; 0 recompiles (allowed: 0)")
    );
    let tolerated = guardscope(["check", "samples/traces/collision_fixed", "--max-eager-frames", "1"]);
    assert_eq!(tolerated.code, 0, "{}", tolerated.stdout);
    assert!(tolerated.stdout.contains("warning: frames that run eagerly"));
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
        format!("{RECORDED_IN}/samples/scripts/_collision_model.py:180")
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

/// A run every frame of which compiles once (real torch 2.15, tests/corpus).
const PASSING: &str = "tests/corpus/logs/torch2.15.0/lambda_per_call";

#[test]
fn new_frames_warn_unless_limited() {
    // collision_fixed has 4 frames collision lacks (one per @disable boundary);
    // its skipped forward and its new break are tolerated here.
    let out = guardscope([
        "check",
        "samples/traces/collision_fixed",
        "--baseline",
        "samples/traces/collision",
        "--max-eager-frames",
        "1",
        "--max-new-graph-breaks",
        "1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("warning: frames the baseline does not have"));
    assert!(
        // The verdict line is wrapped at the terminal's width.
        out.stdout
            .replace("\n  ", " ")
            .contains("4 new frame(s) versus the baseline (warning only)"),
        "{}",
        out.stdout
    );
    let strict = guardscope([
        "check",
        "samples/traces/collision_fixed",
        "--baseline",
        "samples/traces/collision",
        "--max-eager-frames",
        "1",
        "--max-new-graph-breaks",
        "1",
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

    let pass = guardscope(["check".as_ref(), PASSING.as_ref(), "--junit".as_ref(), path.as_os_str()]);
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

/// A directory of two ranks: rank 0 a run without recompiles, rank 1 the
/// collision run (2 recompiles), which the caller then makes unreadable.
fn two_rank_dir() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = common::shared_tempdir();
    let samples = common::root().join("samples/traces");
    std::fs::copy(
        common::root().join(PASSING).join("dedicated_log_torch_trace.log.gz"),
        dir.path().join("dedicated_log_torch_trace_rank_0_a.log.gz"),
    )
    .unwrap();
    let rank1 = dir.path().join("dedicated_log_torch_trace_rank_1_b.log.gz");
    std::fs::copy(samples.join("collision/dedicated_log_torch_trace.log.gz"), &rank1).unwrap();
    (dir, rank1)
}

#[test]
fn a_rank_log_cut_after_its_gzip_header_fails_the_gate_in_text_json_and_junit() {
    let (dir, rank1) = two_rank_dir();
    let readable = guardscope(["check".as_ref(), dir.path().as_os_str()]);
    assert_eq!(readable.code, 1, "both ranks read: rank 1 recompiles");
    std::fs::copy(common::root().join("tests/hostile/gzip_header_only.log.gz"), &rank1).unwrap();
    let junit = dir.path().join("junit.xml");

    let text = guardscope([
        "check".as_ref(),
        dir.path().as_os_str(),
        "--junit".as_ref(),
        junit.as_os_str(),
    ]);
    assert_eq!(text.code, 2, "never a silent PASS: {}", text.stdout);
    assert!(!text.stdout.contains("PASS"), "{}", text.stdout);
    assert!(
        text.stdout
            .contains("error: input that could not be read (the gate fails closed):"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(&rank1.display().to_string()), "{}", text.stdout);
    let last = text.stdout.lines().last().unwrap();
    assert!(
        last.starts_with("FAIL: input not fully read (1 read error); in what was read, 0 recompiles"),
        "{last}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"failures="1""#) && xml.contains(r#"type="unreadable_input""#),
        "{xml}"
    );
    assert!(
        xml.contains("unreadable input: ") && xml.contains("rank_1_b.log.gz"),
        "{xml}"
    );

    let json = guardscope(["check".as_ref(), "--json".as_ref(), dir.path().as_os_str()]);
    assert_eq!(json.code, 2);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["passed"], false);
    let unread = v["unread_inputs"].as_array().unwrap();
    assert_eq!(unread.len(), 1, "{unread:?}");
    assert!(unread[0].as_str().unwrap().contains("rank_1_b.log.gz"), "{unread:?}");

    // An unreadable baseline cannot excuse anything either.
    let base = guardscope([
        "check".as_ref(),
        "samples/traces/collision_fixed".as_ref(),
        "--baseline".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(base.code, 2, "{}", base.stdout);
}

#[cfg(unix)]
#[test]
fn a_rank_log_without_read_permission_fails_the_gate() {
    let (dir, rank1) = two_rank_dir();
    common::set_mode(&rank1, 0o000);
    let out = common::guardscope_unprivileged(["check".as_ref(), dir.path().as_os_str()]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("Permission denied"), "{}", out.stdout);
    assert!(out.stdout.contains("rank_1_b.log.gz"), "{}", out.stdout);
    assert!(
        out.stdout.lines().last().unwrap().starts_with("FAIL: "),
        "{}",
        out.stdout
    );
    common::set_mode(&rank1, 0o644);
}
