//! Inputs that explain themselves: each wrong input, given to the real
//! binary, gets exit code 2 and one line naming the command that reads it;
//! renamed logs are found by their first line; `-` reads stdin.
//!
//! Real inputs: activation traces (samples/activations/), StepLogger records
//! (samples/steps/), TORCH_TRACE logs (samples/traces/, tests/data/tlparse/).

mod common;

use common::{assert_clean_failure, guardscope, root, Output};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const ACTIVATIONS: &str = "samples/activations/base.jsonl.gz";
const STEPS: &str = "samples/steps/collision.jsonl";
const TRACE_DIR: &str = "samples/traces/collision";
const TRACE_LOG: &str = "samples/traces/collision/dedicated_log_torch_trace.log.gz";

const USE_DIFF: &str = "use `guardscope diff` or `report --activations`";
const USE_STEPS: &str = "use `guardscope steps` or `report --steps`";
const USE_TRACE_FLAG: &str = "pass the step files, and the trace with `--trace`";

/// Exit 2, one line, and the exact advice.
fn fails_with(out: &Output, message: &str) {
    assert_clean_failure(out);
    assert_eq!(out.stderr.trim(), format!("guardscope: {message}"));
}

fn gunzipped(path: &str) -> Vec<u8> {
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(root().join(path)).unwrap()),
        &mut text,
    )
    .unwrap();
    text
}

#[test]
fn an_activation_trace_given_for_a_trace_log_names_diff() {
    let message = format!("{ACTIVATIONS}: this is an activation trace, not a TORCH_TRACE log: {USE_DIFF}");
    let report_dir = tempfile::tempdir().unwrap();
    let report_dir = report_dir.path().join("r");
    fails_with(&guardscope(["summary", ACTIVATIONS]), &message);
    fails_with(&guardscope(["check", ACTIVATIONS]), &message);
    fails_with(
        &guardscope([
            "report".as_ref(),
            ACTIVATIONS.as_ref(),
            "-o".as_ref(),
            report_dir.as_os_str(),
        ]),
        &message,
    );
    // Plain as well as gzip.
    let plain = tempfile::tempdir().unwrap();
    let path = plain.path().join("acts.jsonl");
    std::fs::write(&path, gunzipped(ACTIVATIONS)).unwrap();
    let out = guardscope(["summary".as_ref(), path.as_os_str()]);
    fails_with(
        &out,
        &format!(
            "{}: this is an activation trace, not a TORCH_TRACE log: {USE_DIFF}",
            path.display()
        ),
    );
}

#[test]
fn step_records_given_for_a_trace_log_name_steps() {
    let message = format!("{STEPS}: these are StepLogger records, not a TORCH_TRACE log: {USE_STEPS}");
    fails_with(&guardscope(["summary", STEPS]), &message);
    fails_with(&guardscope(["check", STEPS]), &message);
    // A directory of them: samples/steps/ranks holds two ranks' records.
    fails_with(
        &guardscope(["summary", "samples/steps/ranks"]),
        "samples/steps/ranks: no TORCH_TRACE logs, but 2 files of StepLogger records: \
         use `guardscope steps FILES` or `report --steps FILES`",
    );
}

#[test]
fn a_trace_given_to_steps_says_to_pass_it_with_trace() {
    fails_with(
        &guardscope(["steps", TRACE_DIR]),
        &format!("{TRACE_DIR}: a TORCH_TRACE directory, not step records: {USE_TRACE_FLAG}"),
    );
    fails_with(
        &guardscope(["steps", TRACE_LOG]),
        &format!("{TRACE_LOG}: a TORCH_TRACE log, not step records: {USE_TRACE_FLAG}"),
    );
    // A directory without step files (its activation traces are not);
    // one that holds them is read (tests/steps_cli.rs).
    fails_with(
        &guardscope(["steps", "samples/activations"]),
        &format!(
            "samples/activations: a directory; step files are what StepLogger writes \
             (e.g. samples/activations/steps_*.jsonl): {USE_TRACE_FLAG}"
        ),
    );
    fails_with(
        &guardscope(["steps", ACTIVATIONS]),
        &format!("{ACTIVATIONS}: an activation trace, not step records: {USE_DIFF}"),
    );
    // report --steps: the trace goes to report's PATH instead.
    let out_dir = tempfile::tempdir().unwrap();
    let out_dir = out_dir.path().join("r");
    let out = guardscope([
        "report".as_ref(),
        TRACE_DIR.as_ref(),
        "--steps".as_ref(),
        TRACE_LOG.as_ref(),
        "-o".as_ref(),
        out_dir.as_os_str(),
    ]);
    fails_with(
        &out,
        &format!(
            "{TRACE_LOG}: a TORCH_TRACE log, not step records: \
             pass the trace as report's PATH, and the step files with `--steps`"
        ),
    );
}

#[test]
fn a_trace_or_step_records_given_to_diff_name_their_command() {
    const USE_SUMMARY: &str = "use `guardscope summary`, `check` or `report`";
    // Either side, file or directory.
    fails_with(
        &guardscope(["diff", TRACE_DIR, ACTIVATIONS]),
        &format!("{TRACE_DIR}: a TORCH_TRACE directory, not an activation trace: {USE_SUMMARY}"),
    );
    fails_with(
        &guardscope(["diff", ACTIVATIONS, TRACE_LOG]),
        &format!("{TRACE_LOG}: a TORCH_TRACE log, not an activation trace: {USE_SUMMARY}"),
    );
    fails_with(
        &guardscope(["diff", ACTIVATIONS, STEPS]),
        &format!("{STEPS}: StepLogger records, not an activation trace: {USE_STEPS}"),
    );
    fails_with(
        &guardscope(["diff", "samples/steps/ranks", ACTIVATIONS]),
        &format!("samples/steps/ranks: a directory of StepLogger records, not an activation trace: {USE_STEPS}"),
    );
    fails_with(
        &guardscope(["diff", "samples/activations", ACTIVATIONS]),
        "samples/activations: a directory: diff compares two activation trace files \
         (JSONL of guardscope.trace_activations)",
    );
}

/// The layout `tlparse LOG -o tl_out` (tlparse 0.4.3) writes: raw.log, a
/// byte-for-byte copy of the log, beside index.html,
/// compile_directory.json, raw.jsonl and one folder per compile. raw.log
/// here is a real log; the other files are stand-ins with the real names
/// (their content is not read).
fn tlparse_output(dir: &Path, log: &str) {
    std::fs::create_dir_all(dir.join("-_0_0_0")).unwrap();
    std::fs::write(dir.join("raw.log"), gunzipped(log)).unwrap();
    for name in [
        "index.html",
        "compile_directory.json",
        "raw.jsonl",
        "-_0_0_0/dynamo_output_graph_0.txt",
    ] {
        std::fs::write(dir.join(name), "stand-in\n").unwrap();
    }
}

#[test]
fn a_tlparse_output_directory_points_at_its_raw_log() {
    let tmp = tempfile::tempdir().unwrap();
    let tl_out = tmp.path().join("tl_out");
    tlparse_output(&tl_out, TRACE_LOG);
    let raw = tl_out.join("raw.log");
    let out = guardscope(["summary".as_ref(), tl_out.as_os_str()]);
    fails_with(
        &out,
        &format!(
            "{}: a tlparse output directory; its `raw.log` is the original log: `guardscope summary {}`",
            tl_out.display(),
            raw.display()
        ),
    );
    // The advice works: raw.log reads as the log it copies.
    let from_raw = guardscope(["summary".as_ref(), "--json".as_ref(), raw.as_os_str()]);
    let from_log = guardscope(["summary", "--json", TRACE_LOG]);
    assert_eq!(from_raw.code, 0, "{}", from_raw.stderr);
    let frames = |o: &Output| serde_json::from_str::<serde_json::Value>(&o.stdout).unwrap()["frames"].clone();
    assert_eq!(frames(&from_raw), frames(&from_log));

    // `tlparse DIR --all-ranks-html`: one such folder per rank, whose rank
    // the folder names.
    let all = tmp.path().join("tl_all");
    std::fs::create_dir(&all).unwrap();
    std::fs::write(all.join("index.html"), "stand-in\n").unwrap();
    tlparse_output(
        &all.join("rank_0"),
        "tests/data/tlparse/multi_rank_schedule/dedicated_log_torch_trace_rank_0_6u3fubwl.log.gz",
    );
    tlparse_output(
        &all.join("rank_1"),
        "tests/data/tlparse/multi_rank_schedule/dedicated_log_torch_trace_rank_1_n8zycf07.log.gz",
    );
    fails_with(
        &guardscope(["summary".as_ref(), all.as_os_str()]),
        &format!(
            "{}: a tlparse output directory; its `rank_*/raw.log` are the original logs: `guardscope summary {}`",
            all.display(),
            all.join("rank_*").join("raw.log").display()
        ),
    );
    let ranks = guardscope([
        "summary".as_ref(),
        "--json".as_ref(),
        all.join("rank_0/raw.log").as_os_str(),
        all.join("rank_1/raw.log").as_os_str(),
    ]);
    assert_eq!(ranks.code, 0, "{}", ranks.stderr);
    let s: serde_json::Value = serde_json::from_str(&ranks.stdout).unwrap();
    let ranks: Vec<_> = s["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["rank"].clone())
        .collect();
    assert_eq!(ranks, [serde_json::json!(0), serde_json::json!(1)]);
}

#[test]
fn a_tlparse_output_inside_a_trace_directory_is_not_read_twice() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join(TRACE_LOG),
        tmp.path().join("dedicated_log_torch_trace.log.gz"),
    )
    .unwrap();
    tlparse_output(&tmp.path().join("tl_out"), TRACE_LOG);
    let out = guardscope(["summary".as_ref(), "--json".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(s["inputs"].as_array().unwrap().len(), 1);
    assert_eq!(s["problems"]["by_kind"]["skipped_input"], 1, "{}", s["problems"]);
    let first = s["problems"]["first"][0].as_str().unwrap();
    assert!(first.contains("tl_out") && first.contains("tlparse output"), "{first}");
}

#[test]
fn renamed_logs_are_found_by_their_first_line() {
    let tmp = tempfile::tempdir().unwrap();
    // Real logs under names torch never writes, gzip and plain, among
    // files that are not logs.
    std::fs::copy(root().join(TRACE_LOG), tmp.path().join("node0.gz")).unwrap();
    std::fs::create_dir(tmp.path().join("rank_1")).unwrap();
    std::fs::write(
        tmp.path().join("rank_1/train.txt"),
        gunzipped("tests/data/tlparse/multi_rank_schedule/dedicated_log_torch_trace_rank_1_n8zycf07.log.gz"),
    )
    .unwrap();
    std::fs::copy(root().join(STEPS), tmp.path().join("steps_0.jsonl")).unwrap();
    std::fs::write(tmp.path().join("notes.md"), "# run 3\n").unwrap();
    std::fs::write(tmp.path().join("weights.bin"), vec![0u8; 1 << 20]).unwrap();
    let out = guardscope(["summary".as_ref(), "--json".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let inputs: Vec<(String, serde_json::Value)> = s["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["path"].as_str().unwrap().to_owned(), i["rank"].clone()))
        .collect();
    let at = |name: &str| tmp.path().join(name).display().to_string();
    assert_eq!(
        inputs,
        [
            (at("node0.gz"), serde_json::Value::Null),
            (at("rank_1/train.txt"), serde_json::json!(1))
        ]
    );
    assert_eq!(s["problems"]["count"], 0, "{}", s["problems"]);
}

#[test]
fn a_directory_without_logs_says_what_it_read() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.md"), "# run 3\n").unwrap();
    std::fs::write(tmp.path().join("weights.bin"), vec![7u8; 1 << 20]).unwrap();
    fails_with(
        &guardscope(["summary".as_ref(), tmp.path().as_os_str()]),
        &format!(
            "{}: no TORCH_TRACE logs in this directory (2 other files read, the first 4 KB of each: \
             none is named dedicated_log_torch_trace*.log[.gz] or starts with a TORCH_TRACE line)",
            tmp.path().display()
        ),
    );
}

/// `guardscope ARGS < input`.
fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(args)
        .current_dir(root())
        .env("COLUMNS", "200")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the child may answer before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Output {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn a_dash_reads_the_log_from_stdin_plain_or_gzip() {
    let gz = std::fs::read(root().join(TRACE_LOG)).unwrap();
    let plain = gunzipped(TRACE_LOG);
    for (what, bytes) in [("gzip", &gz), ("plain", &plain)] {
        for command in ["summary", "check"] {
            let piped = with_stdin(&[command, "-"], bytes);
            let file = guardscope([command, TRACE_LOG]);
            assert_eq!(
                (piped.code, &piped.stdout),
                (file.code, &file.stdout),
                "{command} of {what} stdin: {}",
                piped.stderr
            );
        }
        // --json differs only in the input's name.
        let piped = with_stdin(&["summary", "--json", "-"], bytes);
        let file = guardscope(["summary", "--json", TRACE_LOG]);
        assert_eq!(piped.code, 0, "{}", piped.stderr);
        assert_eq!(
            piped.stdout.replace("\"<stdin>\"", &format!("\"{TRACE_LOG}\"")),
            file.stdout,
            "{what}"
        );
    }
    let report = tempfile::tempdir().unwrap();
    let out = with_stdin(
        &["report", "-", "-q", "-o", report.path().join("r").to_str().unwrap()],
        &gz,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(report.path().join("r/index.html").is_file());
}

#[test]
fn stdin_of_the_wrong_kind_names_the_command_too() {
    let acts = std::fs::read(root().join(ACTIVATIONS)).unwrap();
    fails_with(
        &with_stdin(&["summary", "-"], &acts),
        &format!("<stdin>: this is an activation trace, not a TORCH_TRACE log: {USE_DIFF}"),
    );
    let steps = std::fs::read(root().join(STEPS)).unwrap();
    fails_with(
        &with_stdin(&["check", "-"], &steps),
        &format!("<stdin>: these are StepLogger records, not a TORCH_TRACE log: {USE_STEPS}"),
    );
    fails_with(
        &with_stdin(&["summary", "-", "-"], &steps),
        "`-` (stdin) can be given only once",
    );
}

/// The example of `steps --help` globs what `StepLogger("steps_<rank>.jsonl")`
/// writes, and the Python docstring shows the same call.
#[test]
fn the_steps_help_example_matches_what_step_logger_writes() {
    let help = guardscope(["steps", "--help"]).stdout;
    let example = help
        .lines()
        .find(|l| l.trim_start().starts_with("Example:"))
        .expect("an Example line");
    assert!(example.contains("guardscope steps steps_*.jsonl"), "{example}");
    let call = "StepLogger(\"steps_<rank>.jsonl\")";
    assert!(help.contains(call), "{help}");
    let python = std::fs::read_to_string(root().join("python/guardscope/_steps.py")).unwrap();
    assert!(
        python.contains(&format!("guardscope.{call}")),
        "the docstring's example changed"
    );
    // <rank> becomes the rank, which the glob matches.
    let written = "steps_<rank>.jsonl".replace("<rank>", "3");
    let (before, after) = ("steps_", ".jsonl");
    assert!(written.starts_with(before) && written.ends_with(after), "{written}");
}
