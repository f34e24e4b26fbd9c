//! `guardscope check --format sarif`, read back against the OASIS SARIF
//! 2.1.0 schema, and what every format shares: the exit code is the gate's,
//! and input not read fails closed in each. The github and markdown formats
//! are read back in tests/check_annotations.rs.

mod common;

use common::ci_formats::*;
use common::{assert_clean_failure, root};
use serde_json::Value;
use std::path::PathBuf;

/// A run that passes the gate: no recompile, every frame compiled (real
/// torch 2.15, tests/corpus).
const PASSING: &str = "tests/corpus/logs/torch2.15.0/lambda_per_call";

#[test]
fn sarif_of_a_hook_flag_run_is_valid_and_places_each_result_on_the_hook() {
    let expected = verdict(HOOK_FLAG);
    let offending = expected["offending"].as_array().unwrap();
    assert_eq!(offending.len(), 1);
    let relative = "samples/scripts/reasons/closure_hook_state.py";
    let repo = recorded_root(HOOK_FLAG, relative);
    let out = check(&[HOOK_FLAG, "--format", "sarif", "--repo-root", &repo]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let log = valid_sarif(&out.stdout);
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "guardscope");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 1, "one rule per category used");
    assert_eq!(rules[0]["id"], "closure_hook_state");
    assert!(!rules[0]["shortDescription"]["text"].as_str().unwrap().is_empty());
    assert!(!rules[0]["help"]["text"].as_str().unwrap().is_empty());

    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), offending.len(), "one result per counted recompile");
    let r = &results[0];
    assert_eq!(r["ruleId"], "closure_hook_state");
    assert_eq!(r["level"], "error", "a problem");
    let (uri, base, line) = place(r);
    assert_eq!(uri, relative);
    assert_eq!(base, Some("%SRCROOT%"));
    assert_eq!(line, line_of(&offending[0]["source"]), "the hook's line");
    assert_eq!(line, 19);
    let message = r["message"]["text"].as_str().unwrap();
    assert!(message.starts_with("collector.enabled changed"), "{message}");
    assert!(message.contains("False -> True"), "what changed: {message}");
    assert!(
        message.contains(offending[0]["advice"].as_str().unwrap()),
        "the fix: {message}"
    );
    let fingerprint = r["partialFingerprints"].as_object().unwrap();
    assert_eq!(fingerprint.len(), 1);
    // The called-from line rides along.
    assert_eq!(r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 35);
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    assert_eq!(invocation["exitCode"], 1);
    let verdict_note = invocation["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["descriptor"]["id"] == "verdict")
        .expect("the verdict is a notification");
    assert_eq!(verdict_note["level"], "error");
    assert_eq!(verdict_note["message"]["text"], "FAIL: 1 recompile (allowed: 0)");

    // The validator does reject what SARIF forbids.
    for (pointer, wrong) in [
        ("/runs/0/results/0/level", Value::from("fatal")),
        (
            "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
            0.into(),
        ),
        ("/runs/0/tool/driver/rules/0/help", "not an object".into()),
    ] {
        let mut broken = log.clone();
        *broken.pointer_mut(pointer).unwrap() = wrong;
        let errors = sarif_errors(&broken).unwrap_or_else(|| panic!("{pointer} accepted"));
        assert!(errors.contains(pointer), "{pointer}: {errors}");
    }

    // The same findings from another checkout: the same fingerprint, so
    // code scanning keeps one alert across runs.
    let again = valid_sarif(&check(&[HOOK_FLAG, "--format", "sarif", "--repo-root", &repo]).stdout);
    assert_eq!(
        again["runs"][0]["results"][0]["partialFingerprints"],
        r["partialFingerprints"]
    );
}

#[test]
fn sarif_names_every_hook_line_of_a_global_flag_hook() {
    let expected = verdict(HOOK_FLAG_FLIP);
    let offending = expected["offending"].as_array().unwrap();
    assert_eq!(offending.len(), 3);
    let repo = recorded_root(HOOK_FLAG_FLIP, "train.py");
    let out = check(&[HOOK_FLAG_FLIP, "--format", "sarif", "--repo-root", &repo]);
    assert_eq!(out.code, 1);
    let log = valid_sarif(&out.stdout);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let rule_ids: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rule_ids, ["closure_hook_state", "container_len"]);
    for (r, o) in results.iter().zip(offending) {
        assert_eq!(r["ruleId"], o["category"]);
        assert_eq!(r["level"], "error");
        let rule_index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rule_ids[rule_index], o["category"]);
        let (uri, base, line) = place(r);
        assert_eq!((uri.as_str(), base), ("train.py", Some("%SRCROOT%")));
        assert_eq!(line, line_of(&o["source"]));
        let message = r["message"]["text"].as_str().unwrap();
        assert!(message.contains(o["culprit"].as_str().unwrap()), "{message}");
        assert!(message.contains(o["advice"].as_str().unwrap()), "{message}");
    }
    let lines: Vec<u64> = results.iter().map(|r| place(r).2).collect();
    assert_eq!(lines, [18, 19, 19]);
}

#[test]
fn sarif_names_a_file_outside_the_repository_by_its_absolute_uri() {
    // Run from this checkout: the sample's script was recorded elsewhere
    // unless this checkout is where the samples were made.
    let out = check(&[HOOK_FLAG, "--format", "sarif", "--repo-root", "/nonexistent/repo"]);
    assert_eq!(out.code, 1);
    let log = valid_sarif(&out.stdout);
    let (uri, base, line) = place(&log["runs"][0]["results"][0]);
    assert!(uri.starts_with("file:///"), "{uri}");
    assert!(uri.ends_with("/samples/scripts/reasons/closure_hook_state.py"), "{uri}");
    assert_eq!((base, line), (None, 19), "no base id on an absolute URI");
    assert_eq!(
        log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        "file:///nonexistent/repo/"
    );
}

#[test]
fn a_passing_run_is_sarif_without_results() {
    let out = check(&[PASSING, "--format", "sarif"]);
    assert_eq!(out.code, 0);
    let log = valid_sarif(&out.stdout);
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["invocations"][0]["exitCode"], 0);
    let notes = run["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(notes[0]["message"]["text"], "PASS: 0 recompiles (allowed: 0)");
}

#[test]
fn every_format_exits_as_the_gate_decides() {
    let cases: [(&[&str], i32); 7] = [
        // collision_fixed's forward is skipped by Dynamo: it runs eagerly.
        (&["samples/traces/collision_fixed"], 1),
        (&["samples/traces/collision_fixed", "--max-eager-frames", "1"], 0),
        (&["samples/traces/collision"], 1),
        (&[PASSING], 0),
        (&["samples/traces/collision", "--max-recompiles", "2"], 0),
        (
            &["samples/traces/collision", "--baseline", "samples/traces/collision"],
            0,
        ),
        (
            &[
                "samples/traces/collision_fixed",
                "--baseline",
                "samples/traces/collision",
                "--max-new-frames",
                "0",
            ],
            1,
        ),
    ];
    for (args, code) in cases {
        for format in FORMATS {
            let out = check(&[args, &["--format", format]].concat());
            assert_eq!(out.code, code, "{args:?} --format {format}: {}", out.stderr);
            assert!(out.stderr.is_empty(), "{args:?} --format {format}: {}", out.stderr);
        }
    }
    // --json is --format json; both at once is bad usage.
    let json = check(&["samples/traces/collision", "--json"]);
    assert_eq!(
        json.stdout,
        check(&["samples/traces/collision", "--format", "json"]).stdout
    );
    assert_eq!(
        check(&["samples/traces/collision", "--json", "--format", "sarif"]).code,
        2
    );
}

#[test]
fn new_frames_failing_the_gate_are_not_silent() {
    let args = [
        "samples/traces/collision_fixed",
        "--baseline",
        "samples/traces/collision",
        "--max-new-frames",
        "0",
    ];
    let sarif = valid_sarif(&check(&[&args[..], &["--format", "sarif"]].concat()).stdout);
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    let frames = notes.iter().filter(|n| n["descriptor"]["id"] == "new_frame").count();
    assert_eq!(frames, 4, "{notes:?}");
    assert!(notes.iter().all(|n| n["level"] == "error"));
    let github = check(&[&args[..], &["--format", "github"]].concat());
    let (commands, _) = parse_commands(&github.stdout);
    let new_frames = commands
        .iter()
        .filter(|c| c.name == "error" && c.message.contains("is compiled as a frame of its own"));
    assert_eq!(new_frames.count(), 4);
    let markdown = check(&[&args[..], &["--format", "markdown"]].concat());
    assert!(markdown.stdout.contains("**Error**: frames the baseline does not have"));
}

/// Two ranks, the second's log cut after its gzip header.
fn cut_rank_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join(PASSING).join("dedicated_log_torch_trace.log.gz"),
        dir.path().join("dedicated_log_torch_trace_rank_0_a.log.gz"),
    )
    .unwrap();
    let rank1 = dir.path().join("dedicated_log_torch_trace_rank_1_b.log.gz");
    std::fs::copy(root().join("tests/hostile/gzip_header_only.log.gz"), &rank1).unwrap();
    (dir, rank1)
}

#[test]
fn a_cut_input_fails_closed_in_every_format() {
    let (dir, _) = cut_rank_dir();
    let input = dir.path().to_str().unwrap();
    for format in FORMATS {
        let out = check(&[input, "--format", format]);
        assert_eq!(out.code, 2, "--format {format}: {}", out.stdout);
        assert!(!out.stdout.contains("PASS"), "--format {format}: {}", out.stdout);
        assert!(
            out.stdout.contains("rank_1_b.log.gz"),
            "--format {format}: {}",
            out.stdout
        );
    }
    let sarif = valid_sarif(&check(&[input, "--format", "sarif"]).stdout);
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(invocation["exitCode"], 2);
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    let unread: Vec<&Value> = notes
        .iter()
        .filter(|n| n["descriptor"]["id"] == "unreadable_input")
        .collect();
    assert_eq!(unread.len(), 1, "{notes:?}");
    assert_eq!(unread[0]["level"], "error");

    let github = check(&[input, "--format", "github"]);
    let (commands, plain) = parse_commands(&github.stdout);
    assert_eq!(commands.len(), 1, "{}", github.stdout);
    assert_eq!(commands[0].name, "error");
    assert!(commands[0].message.contains("rank_1_b.log.gz"));
    assert!(plain[0].starts_with("FAIL: input not fully read"), "{plain:?}");

    let markdown = check(&[input, "--format", "markdown"]);
    assert!(markdown.stdout.starts_with("## guardscope check: ❌ FAIL\n"));
    assert!(markdown
        .stdout
        .contains("**Error**: input that could not be read (the gate fails closed):"));
}

#[test]
fn an_input_that_cannot_be_read_at_all_still_gets_a_failing_document() {
    for format in ["sarif", "github", "markdown"] {
        let out = check(&["no/such/dir", "--format", format]);
        assert_clean_failure(&out);
        match format {
            "sarif" => {
                let log = valid_sarif(&out.stdout);
                let invocation = &log["runs"][0]["invocations"][0];
                assert_eq!(invocation["executionSuccessful"], false);
                assert_eq!(invocation["exitCode"], 2);
                let text = invocation["toolExecutionNotifications"][0]["message"]["text"]
                    .as_str()
                    .unwrap();
                assert!(text.contains("no/such/dir"), "{text}");
            }
            "github" => {
                let (commands, _) = parse_commands(&out.stdout);
                assert_eq!(commands.len(), 1);
                assert_eq!(commands[0].name, "error");
                assert!(commands[0].message.contains("no/such/dir"));
            }
            _ => assert!(out.stdout.starts_with("## guardscope check: ❌ FAIL\n")),
        }
    }
}

#[test]
fn junit_is_still_written_beside_another_format() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("gs.xml");
    let out = check(&[
        "samples/traces/collision",
        "--format",
        "sarif",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
    valid_sarif(&out.stdout);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"failures="1""#), "{xml}");
}
