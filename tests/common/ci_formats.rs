//! What the tests of `check --format` share: the inputs, the verdict they
//! are compared with, and readers of each format as GitHub reads it (the
//! SARIF schema, workflow commands, Markdown tables).

use super::{guardscope, root, Output};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A forward hook whose closure reads `collector.enabled`; the flag flips
/// after the first compile (samples/scripts/reasons/closure_hook_state.py).
pub const HOOK_FLAG: &str = "samples/traces/reasons/closure_hook_state";
/// A hook reading a module global flag, then appending to a list: three
/// recompiles, all in the hook's lines (tests/corpus, torch 2.15).
pub const HOOK_FLAG_FLIP: &str = "tests/corpus/logs/torch2.15.0/hook_flag_flip";
pub const FORMATS: [&str; 5] = ["text", "json", "sarif", "github", "markdown"];

pub fn check(args: &[&str]) -> Output {
    guardscope([&["check"], args].concat())
}

/// The verdict as `--json` has it: the facts each format must carry.
pub fn verdict(input: &str) -> Value {
    let out = check(&[input, "--json"]);
    serde_json::from_str(&out.stdout).expect("JSON verdict")
}

/// The directory a log's user files were under when it was recorded (the
/// logs hold absolute paths of the machine that made them), from the path
/// of its first offense's source and the part of it that is `relative`.
pub fn recorded_root(input: &str, relative: &str) -> String {
    let v = verdict(input);
    let source = v["offending"][0]["source"].as_str().unwrap();
    let file = source.rsplit_once(':').unwrap().0;
    file.strip_suffix(relative)
        .unwrap_or_else(|| panic!("{file} does not end with {relative}"))
        .to_string()
}

/// The OASIS SARIF 2.1.0 schema, compiled, with format assertions (uri,
/// date-time) on.
pub fn sarif_schema() -> (boon::Schemas, boon::SchemaIndex) {
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
pub fn sarif_errors(log: &Value) -> Option<String> {
    let (schemas, index) = sarif_schema();
    schemas.validate(log, index).err().map(|e| format!("{e:#}"))
}

/// Parses a SARIF log and asserts it is valid against the OASIS schema.
pub fn valid_sarif(stdout: &str) -> Value {
    let log: Value = serde_json::from_str(stdout).expect("SARIF is JSON");
    if let Some(errors) = sarif_errors(&log) {
        panic!("not SARIF 2.1.0: {errors}\n{stdout}");
    }
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    log
}

/// The uri and start line of a result's first location.
pub fn place(result: &Value) -> (String, Option<&str>, u64) {
    let physical = &result["locations"][0]["physicalLocation"];
    (
        physical["artifactLocation"]["uri"].as_str().unwrap().to_string(),
        physical["artifactLocation"]["uriBaseId"].as_str(),
        physical["region"]["startLine"].as_u64().unwrap(),
    )
}

pub fn line_of(site: &Value) -> u64 {
    site.as_str().unwrap().rsplit_once(':').unwrap().1.parse().unwrap()
}

/// One workflow command, as the Actions runner reads it.
#[derive(Debug)]
pub struct Command {
    pub name: String,
    pub properties: Vec<(String, String)>,
    pub message: String,
}

impl Command {
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

pub fn unescape_data(s: &str) -> String {
    s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
}

pub fn unescape_property(s: &str) -> String {
    unescape_data(&s.replace("%3A", ":").replace("%2C", ","))
}

/// `::name k=v,k=v::message` lines; the others are returned as plain text.
pub fn parse_commands(stdout: &str) -> (Vec<Command>, Vec<&str>) {
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

/// A hand-made log (not a real one) with one global_var recompile whose
/// function name holds `name`, in the frame's name of every format.
pub fn log_with_function(dir: &Path, name: &str) -> PathBuf {
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

/// The cells of a Markdown table row, split at unescaped `|`.
pub fn cells(row: &str) -> Vec<String> {
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
pub fn table_rows(markdown: &str) -> Vec<Vec<String>> {
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
