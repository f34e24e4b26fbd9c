//! `guardscope check --format sarif|github|markdown`: the gate's verdict
//! where reviewers look, read back as GitHub would read it: SARIF against
//! the OASIS schema, workflow commands through their unescaping, Markdown
//! tables cell by cell. The format never changes the exit code.

mod common;

use common::{assert_clean_failure, guardscope, root};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A forward hook whose closure reads `collector.enabled`; the flag flips
/// after the first compile (samples/scripts/reasons/closure_hook_state.py).
const HOOK_FLAG: &str = "samples/traces/reasons/closure_hook_state";
/// A hook reading a module global flag, then appending to a list: three
/// recompiles, all in the hook's lines (tests/corpus, torch 2.15).
const HOOK_FLAG_FLIP: &str = "tests/corpus/logs/torch2.15.0/hook_flag_flip";
const FORMATS: [&str; 5] = ["text", "json", "sarif", "github", "markdown"];

fn check(args: &[&str]) -> common::Output {
    guardscope([&["check"], args].concat())
}

/// The verdict as `--json` has it: the facts each format must carry.
fn verdict(input: &str) -> Value {
    let out = check(&[input, "--json"]);
    serde_json::from_str(&out.stdout).expect("JSON verdict")
}

/// The directory a log's user files were under when it was recorded (the
/// logs hold absolute paths of the machine that made them), from the path
/// of its first offense's source and the part of it that is `relative`.
fn recorded_root(input: &str, relative: &str) -> String {
    let v = verdict(input);
    let source = v["offending"][0]["source"].as_str().unwrap();
    let file = source.rsplit_once(':').unwrap().0;
    file.strip_suffix(relative)
        .unwrap_or_else(|| panic!("{file} does not end with {relative}"))
        .to_string()
}

/// The OASIS SARIF 2.1.0 schema, compiled, with format assertions (uri,
/// date-time) on.
fn sarif_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(root().join("tests/data/sarif-schema-2.1.0.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let id = schema["id"].as_str().unwrap().to_string();
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.enable_format_assertions();
    compiler.add_resource(&id, schema).unwrap();
    let index = compiler.compile(&id, &mut schemas).expect("the OASIS schema compiles");
    (schemas, index)
}

/// Whether `log` is valid SARIF 2.1.0, and if not, why (every nested cause).
fn sarif_errors(log: &Value) -> Option<String> {
    let (schemas, index) = sarif_schema();
    schemas.validate(log, index).err().map(|e| format!("{e:#}"))
}

/// Parses a SARIF log and asserts it is valid against the OASIS schema.
fn valid_sarif(stdout: &str) -> Value {
    let log: Value = serde_json::from_str(stdout).expect("SARIF is JSON");
    if let Some(errors) = sarif_errors(&log) {
        panic!("not SARIF 2.1.0: {errors}\n{stdout}");
    }
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    log
}

/// The uri and start line of a result's first location.
fn place(result: &Value) -> (String, Option<&str>, u64) {
    let physical = &result["locations"][0]["physicalLocation"];
    (
        physical["artifactLocation"]["uri"].as_str().unwrap().to_string(),
        physical["artifactLocation"]["uriBaseId"].as_str(),
        physical["region"]["startLine"].as_u64().unwrap(),
    )
}

fn line_of(site: &Value) -> u64 {
    site.as_str().unwrap().rsplit_once(':').unwrap().1.parse().unwrap()
}

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
    let out = check(&["samples/traces/collision_fixed", "--format", "sarif"]);
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

/// One workflow command, as the Actions runner reads it.
#[derive(Debug)]
struct Command {
    name: String,
    properties: Vec<(String, String)>,
    message: String,
}

impl Command {
    fn property(&self, key: &str) -> Option<&str> {
        self.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

fn unescape_data(s: &str) -> String {
    s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
}

fn unescape_property(s: &str) -> String {
    unescape_data(&s.replace("%3A", ":").replace("%2C", ","))
}

/// `::name k=v,k=v::message` lines; the others are returned as plain text.
fn parse_commands(stdout: &str) -> (Vec<Command>, Vec<&str>) {
    let (mut commands, mut plain) = (Vec::new(), Vec::new());
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("::") else {
            plain.push(line);
            continue;
        };
        let (head, message) = rest.split_once("::").expect("a command has `::` before its message");
        let (name, props) = head.split_once(' ').unwrap_or((head, ""));
        let properties = props
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').expect("key=value");
                (k.to_string(), unescape_property(v))
            })
            .collect();
        commands.push(Command {
            name: name.to_string(),
            properties,
            message: unescape_data(message),
        });
    }
    (commands, plain)
}

#[test]
fn github_annotations_point_at_the_hook_and_carry_the_fix() {
    let expected = verdict(HOOK_FLAG_FLIP);
    let offending = expected["offending"].as_array().unwrap();
    let repo = recorded_root(HOOK_FLAG_FLIP, "train.py");
    let out = check(&[HOOK_FLAG_FLIP, "--format", "github", "--repo-root", &repo]);
    assert_eq!(out.code, 1);
    let (commands, plain) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), offending.len(), "{}", out.stdout);
    for (c, o) in commands.iter().zip(offending) {
        assert_eq!(c.name, "error");
        assert_eq!(c.property("file"), Some("train.py"));
        assert_eq!(
            c.property("line").unwrap().parse::<u64>().unwrap(),
            line_of(&o["source"])
        );
        let title = c.property("title").unwrap();
        assert!(title.contains(o["category"].as_str().unwrap()), "{title}");
        assert!(title.contains("frame 0 (Sequential via inner)"), "{title}");
        assert!(c.message.contains(o["culprit"].as_str().unwrap()), "{}", c.message);
        assert!(c.message.contains(o["advice"].as_str().unwrap()), "{}", c.message);
    }
    assert_eq!(plain, ["FAIL: 3 recompiles (allowed: 0)"]);

    // Without --repo-root: the sample's absolute path, its line still there.
    let out = check(&[HOOK_FLAG, "--format", "github"]);
    let (commands, _) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), 1);
    let file = commands[0].property("file").unwrap();
    assert!(
        file.ends_with("samples/scripts/reasons/closure_hook_state.py"),
        "{file}"
    );
    assert_eq!(commands[0].property("line"), Some("19"));
}

/// A hand-made log (not a real one) with one global_var recompile whose
/// function name holds `name`, in the frame's name of every format.
fn log_with_function(dir: &Path, name: &str) -> PathBuf {
    use md5::{Digest, Md5};
    const P: &str = "V1121 11:35:10.000000 2524 torch/_dynamo/convert_frame.py:1]";
    let reason = "0/0: G['MODE'] == 'a'  # if MODE == 'a':  # /repo/train.py:7 in f";
    let md5: String = Md5::digest(reason.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let metrics = |id: u32, start: f64| {
        let m = serde_json::json!({"compilation_metrics": {
            "co_name": name, "co_filename": "/repo/train.py", "co_firstlineno": 3,
            "start_time": start, "entire_frame_compile_time_s": 0.5, "guard_count": 4},
            "frame_id": 0, "frame_compile_id": id, "attempt": 0});
        format!("{P} {m}\n")
    };
    let start = |id: u32| {
        format!("{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0}}\n")
    };
    let reasons = format!(
        "{P} {{\"artifact\": {{\"name\": \"recompile_reasons\", \"encoding\": \"json\"}}, \"frame_id\": 0, \"frame_compile_id\": 1, \"attempt\": 0, \"has_payload\": \"{md5}\"}}\n\t{reason}\n"
    );
    let text = [
        start(0),
        metrics(0, 1_795_257_300.0),
        start(1),
        reasons,
        metrics(1, 1_795_257_302.0),
    ]
    .concat();
    let path = dir.join("dedicated_log_torch_trace.log");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn github_escapes_what_would_end_a_property_or_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let name = "f, g: 100%\n::warning::injected";
    let log = log_with_function(dir.path(), name);
    let log = log.to_str().unwrap();
    let out = check(&[log, "--format", "github", "--repo-root", "/repo"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let (commands, plain) = parse_commands(&out.stdout);
    assert_eq!(commands.len(), 1, "no injected command: {}", out.stdout);
    assert_eq!(plain, ["FAIL: 1 recompile (allowed: 0)"]);
    let c = &commands[0];
    assert_eq!(c.property("file"), Some("train.py"));
    assert_eq!(c.property("line"), Some("7"));
    let title = c.property("title").unwrap();
    assert!(title.contains(&format!("frame 0 ({name})")), "{title:?}");
    assert!(c.message.contains(&format!("frame 0 ({name})")), "{:?}", c.message);
    assert_eq!(c.properties.len(), 3, "{:?}", c.properties);
}

/// The cells of a Markdown table row, split at unescaped `|`.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().strip_prefix('|').unwrap().strip_suffix('|').unwrap();
    let (mut cells, mut cell, mut escaped) = (Vec::new(), String::new(), false);
    for c in inner.chars() {
        match c {
            '|' if !escaped => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
        escaped = c == '\\' && !escaped;
    }
    cells.push(cell);
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The table's body rows (after the header and its `|---|` line).
fn table_rows(markdown: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = markdown.lines().collect();
    let Some(header) = lines.iter().position(|l| l.starts_with("| frame |")) else {
        return Vec::new();
    };
    assert_eq!(
        cells(lines[header]),
        [
            "frame",
            "compile id",
            "category",
            "culprit",
            "file:line",
            "severity",
            "fix"
        ]
    );
    assert!(lines[header + 1].starts_with("|---|"));
    lines[header + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| cells(l))
        .collect()
}

#[test]
fn markdown_has_one_row_per_counted_recompile() {
    let expected = verdict(HOOK_FLAG_FLIP);
    let offending = expected["offending"].as_array().unwrap();
    let repo = recorded_root(HOOK_FLAG_FLIP, "train.py");
    let out = check(&[HOOK_FLAG_FLIP, "--format", "markdown", "--repo-root", &repo]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with("## guardscope check: ❌ FAIL\n"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("**FAIL**: 3 recompiles counted, budget 0 (`--max-recompiles`)."));
    let rows = table_rows(&out.stdout);
    assert_eq!(rows.len(), offending.len());
    for (row, o) in rows.iter().zip(offending) {
        assert_eq!(row.len(), 7, "{row:?}");
        assert_eq!(row[1], o["compile_id"].as_str().unwrap());
        assert_eq!(row[2], o["category"].as_str().unwrap());
        assert_eq!(row[4], format!("train.py:{}", line_of(&o["source"])));
        assert_eq!(row[5], "problem");
        assert_eq!(row[6], o["advice"].as_str().unwrap());
    }

    let pass = check(&["samples/traces/collision_fixed", "--format", "markdown"]);
    assert_eq!(pass.code, 0);
    assert!(
        pass.stdout.starts_with("## guardscope check: ✅ PASS\n"),
        "{}",
        pass.stdout
    );
    assert!(table_rows(&pass.stdout).is_empty());
}

#[test]
fn markdown_cells_escape_pipes_newlines_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_with_function(dir.path(), "a|b\n<img src=x>|c");
    let out = check(&[log.to_str().unwrap(), "--format", "markdown", "--repo-root", "/repo"]);
    assert_eq!(out.code, 1);
    let rows = table_rows(&out.stdout);
    assert_eq!(rows.len(), 1, "{}", out.stdout);
    assert_eq!(rows[0].len(), 7, "{:?}", rows[0]);
    assert_eq!(rows[0][0], "frame 0 (a\\|b<br>&lt;img src=x>\\|c)");
    assert_eq!(rows[0][4], "train.py:7");
    assert!(!out.stdout.contains("<img"), "{}", out.stdout);
}

#[test]
fn every_format_exits_as_the_gate_decides() {
    let cases: [(&[&str], i32); 5] = [
        (&["samples/traces/collision"], 1),
        (&["samples/traces/collision_fixed"], 0),
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
    assert_eq!(commands.iter().filter(|c| c.name == "error").count(), 4);
    let markdown = check(&[&args[..], &["--format", "markdown"]].concat());
    assert!(markdown.stdout.contains("**Error**: frames the baseline does not have"));
}

/// Two ranks, the second's log cut after its gzip header.
fn cut_rank_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let samples = root().join("samples/traces");
    std::fs::copy(
        samples.join("collision_fixed/dedicated_log_torch_trace.log.gz"),
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
