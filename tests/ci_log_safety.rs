//! What a log says cannot act in CI, and CI outputs fit where they go.
//!
//! The logs here are HAND-MADE hostile snippets (not from torch): a frame's
//! file with a newline and a workflow command in it, a guard whose dict key
//! holds `##[add-mask]`, a URL and an `@mention`, a relative file
//! `javascript:...`, a guard of 1,000,000 characters, 30 recompiles. Each
//! is a valid TORCH_TRACE envelope sequence, so it reaches every output.

mod common;

use common::ci_formats::{check, parse_commands, valid_sarif};
use common::guardscope;
use serde_json::Value;
use std::path::{Path, PathBuf};

const P: &str = "V1121 11:35:10.000000 2524 torch/_dynamo/convert_frame.py:1]";

fn md5_hex(s: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A log of frame 0 (`file`, function `f`) compiled once, then once more
/// per guard in `guards`, each the failed guard of the compile before it;
/// the guard is read at `site` (`FILE:LINE`).
fn log(dir: &Path, file: &str, site: &str, guards: &[String]) -> PathBuf {
    let mut text = String::new();
    for id in 0..=guards.len() {
        text.push_str(&format!(
            "{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0}}\n"
        ));
        if id > 0 {
            let reason = format!("0/{}: {}  # if x:  # {site} in f", id - 1, guards[id - 1]);
            text.push_str(&format!(
                "{P} {{\"artifact\": {{\"name\": \"recompile_reasons\", \"encoding\": \"json\"}}, \"frame_id\": 0, \
                 \"frame_compile_id\": {id}, \"attempt\": 0, \"has_payload\": \"{}\"}}\n\t{reason}\n",
                md5_hex(&reason)
            ));
        }
        let m = serde_json::json!({"compilation_metrics": {
            "co_name": "f", "co_filename": file, "co_firstlineno": 3,
            "start_time": 1_795_257_300.0 + id as f64, "entire_frame_compile_time_s": 0.5, "guard_count": 4},
            "frame_id": 0, "frame_compile_id": id, "attempt": 0});
        text.push_str(&format!("{P} {m}\n"));
    }
    let path = dir.join("dedicated_log_torch_trace.log");
    std::fs::write(&path, text).unwrap();
    path
}

/// What GitHub's runner would run from a job log: a line whose first
/// non-blank characters are `::`, or `##[` anywhere.
fn workflow_commands(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|l| l.trim_start().starts_with("::") || l.contains("##["))
        .collect()
}

fn hostile_dir() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let guards = ["L['x']['##[add-mask]secret ##[set-output name=x;]y'] == 'a'".to_string()];
    log(
        dir.path(),
        "/repo/a\n::warning file=a,line=1::pwned\n  ::error::x.py",
        "/repo/b.py:7",
        &guards,
    );
    let input = dir.path().to_str().unwrap().to_string();
    (dir, input)
}

#[test]
fn text_outputs_for_a_job_log_carry_no_workflow_command_from_the_log() {
    let (_dir, input) = hostile_dir();
    for args in [
        vec!["summary", &input],
        vec!["summary", "-v", &input],
        vec!["check", &input],
        vec!["check", &input, "--format", "github"],
        vec!["check", &input, "--format", "markdown"],
    ] {
        let out = guardscope(&args);
        assert!(
            out.stdout.contains("secret"),
            "{args:?}: the key is shown: {}",
            out.stdout
        );
        // `--format github` prints commands of its own: one, checked below.
        let github = args.contains(&"github");
        let injected: Vec<&str> = workflow_commands(&out.stdout)
            .into_iter()
            .filter(|l| !github || l.contains("##["))
            .collect();
        assert_eq!(injected, Vec::<&str>::new(), "{args:?}:\n{}", out.stdout);
        assert_eq!(
            workflow_commands(&out.stderr),
            Vec::<&str>::new(),
            "{args:?}:\n{}",
            out.stderr
        );
    }
    // The escapes are the terminal's: `\x3a` opens the line, `\x5b` follows `##`.
    let out = guardscope(["check", &input]);
    assert!(out.stdout.contains("##\\x5badd-mask]secret"), "{}", out.stdout);
    let github = check(&[&input, "--format", "github"]);
    let (commands, _) = parse_commands(&github.stdout);
    assert_eq!(commands.len(), 1, "one annotation, no injected one: {}", github.stdout);
}

#[test]
fn json_outputs_keep_the_value_and_print_no_command() {
    let (_dir, input) = hostile_dir();
    for args in [
        vec!["summary", "--json", &input],
        vec!["check", "--json", &input],
        vec!["summary", "--format", "ndjson", &input],
        vec!["check", &input, "--format", "sarif"],
    ] {
        let out = guardscope(&args);
        assert_eq!(
            workflow_commands(&out.stdout),
            Vec::<&str>::new(),
            "{args:?}:\n{}",
            out.stdout
        );
        // Read back, the key is whole: `\u005b` is `[` to a JSON reader.
        let documents: Vec<Value> = serde_json::Deserializer::from_str(&out.stdout)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let read = Value::from(documents).to_string();
        assert!(read.contains("##[add-mask]secret"), "{args:?}: {read}");
    }
}

#[test]
fn markdown_never_links_or_mentions_and_sarif_uris_have_no_scheme() {
    let dir = tempfile::tempdir().unwrap();
    let guards = ["G['see https://evil.example/x @alice www.evil.example #12 bob@evil.example'] == 'a'".to_string()];
    log(
        dir.path(),
        "javascript:alert(1)//x.py",
        "javascript:alert(1)//x.py:7",
        &guards,
    );
    let input = dir.path().to_str().unwrap();
    let markdown = check(&[input, "--format", "markdown"]).stdout;
    assert!(markdown.contains("evil.example"), "{markdown}");
    for live in ["://", "@alice", "@evil", "www.", "#12"] {
        assert!(!markdown.contains(live), "{live} is live in:\n{markdown}");
    }
    let sarif = valid_sarif(&check(&[input, "--format", "sarif"]).stdout);
    let mut uris = 0;
    let text = sarif.to_string();
    for (at, _) in text.match_indices("\"artifactLocation\"") {
        let artifact: Value = serde_json::Deserializer::from_str(&text[at + 19..])
            .into_iter()
            .next()
            .unwrap()
            .unwrap();
        let uri = artifact["uri"].as_str().unwrap();
        if artifact.get("uriBaseId").is_some() {
            let scheme = uri.split_once(':').is_some_and(|(s, _)| !s.contains('/'));
            assert!(!scheme, "a scheme beside a uriBaseId: {artifact}");
            uris += 1;
        }
    }
    assert!(uris > 0, "{text}");
}

#[test]
fn a_megabyte_guard_and_many_recompiles_fit_every_ci_host() {
    let dir = tempfile::tempdir().unwrap();
    let mut guards = vec![format!("G['k{}'] == 'a'", "x".repeat(1_000_000))];
    guards.extend((1..30).map(|i| format!("G['mode{i}'] == 'a'")));
    log(dir.path(), "/repo/train.py", "/repo/train.py:7", &guards);
    let input = dir.path().to_str().unwrap();

    let markdown = check(&[input, "--format", "markdown"]).stdout;
    assert!(markdown.len() < 1 << 20, "{} bytes", markdown.len());
    assert!(markdown.starts_with("## guardscope check: ❌ FAIL\n"));
    assert!(markdown.contains("(cut: 1,000,"), "the cut says how long the text was");

    let github = check(&[input, "--format", "github"]);
    let (commands, plain) = parse_commands(&github.stdout);
    let errors: Vec<_> = commands.iter().filter(|c| c.name == "error").collect();
    let warnings: Vec<_> = commands.iter().filter(|c| c.name == "warning").collect();
    assert!(errors.len() <= 10 && warnings.len() <= 10, "{}", github.stdout);
    let left_out = errors
        .iter()
        .chain(&warnings)
        .find(|c| c.message.contains("more"))
        .unwrap_or_else(|| panic!("no note of what was left out:\n{}", github.stdout));
    assert!(left_out.message.contains("21 more"), "{}", left_out.message);
    assert!(
        commands.iter().all(|c| c.message.chars().count() <= 4_100),
        "long messages are cut"
    );
    assert!(plain.last().unwrap().starts_with("FAIL: 30 recompiles"), "{plain:?}");

    let sarif_text = check(&[input, "--format", "sarif"]).stdout;
    assert!(sarif_text.len() < 1 << 20, "{} bytes", sarif_text.len());
    let sarif = valid_sarif(&sarif_text);
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 30);
    let notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"].clone();
    assert_eq!(notes[0]["descriptor"]["id"], "verdict", "the verdict first: {notes}");
}
