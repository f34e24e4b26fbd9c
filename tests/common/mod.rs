//! Runs the real `guardscope` binary, as a user would.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the sample scripts ran when their logs were recorded
/// (samples/generate.py): the JSON keeps this full path, text shows each
/// file from the checkout that reads it.
pub const RECORDED_IN: &str = "/tmp/guardscope-checkout";

/// Every TORCH_TRACE log the samples and tests hold (real, hostile and
/// corpus logs; `.gz` included), in a fixed order.
pub fn all_trace_logs() -> Vec<PathBuf> {
    let root = root();
    let mut files: Vec<PathBuf> = ["samples/traces", "tests/hostile", "tests/data", "tests/corpus/logs"]
        .iter()
        .flat_map(|d| walkdir::WalkDir::new(root.join(d)).sort_by_file_name())
        .map(|e| e.expect("walk").into_path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".log") || name.ends_with(".gz") || name.ends_with(".bin")
        })
        .collect();
    files.sort();
    files
}

pub fn guardscope<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    guardscope_env(args, &[])
}

/// `guardscope ARGS` with extra environment variables.
pub fn guardscope_env<I, S>(args: I, env: &[(&str, &str)]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(args)
        .current_dir(root())
        .env("COLUMNS", "200")
        .envs(env.iter().copied())
        .output()
        .expect("guardscope runs");
    Output {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `guardscope ARGS` as a user that mode-000 files keep out: as root (who
/// reads anything, as in CI containers) the run drops to `nobody`, so its
/// inputs must sit in a `shared_tempdir`.
#[cfg(unix)]
pub fn guardscope_unprivileged<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_guardscope"));
    command.args(args).current_dir(root()).env("COLUMNS", "200");
    if std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        command.uid(65534).gid(65534);
    }
    let out = command.output().expect("guardscope runs");
    Output {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A temporary directory anyone may enter and write in (see
/// `guardscope_unprivileged`).
#[cfg(unix)]
pub fn shared_tempdir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

/// Sets a file's or directory's mode (0o000: nobody but root may read it).
#[cfg(unix)]
pub fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `guardscope summary --json PATH`, asserting success.
pub fn summary_json(path: &Path) -> serde_json::Value {
    let out = guardscope([Path::new("summary"), Path::new("--json"), path]);
    assert_eq!(out.code, 0, "summary failed: {}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

/// A panic would exit 101 (or 3 from our guard) and print a backtrace.
/// The recompiles `summary --json` reports for one recorded held-out log,
/// `tests/<set>/logs/<torch>/<name>`.
pub fn recorded_recompiles(set: &str, torch: &str, name: &str) -> Vec<serde_json::Value> {
    let dir = root().join("tests").join(set).join("logs").join(torch).join(name);
    summary_json(&dir)["recompiles"].as_array().expect("recompiles").clone()
}

/// The recompile `id` of a list of them; a panic names it when missing.
pub fn recompile<'a>(all: &'a [serde_json::Value], id: &str) -> &'a serde_json::Value {
    all.iter()
        .find(|r| r["compile_id"] == id)
        .unwrap_or_else(|| panic!("no recompile {id}"))
}

pub fn assert_clean_failure(out: &Output) {
    assert_eq!(out.code, 2, "stderr: {}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim().lines().count(),
        1,
        "one-line error expected: {}",
        out.stderr
    );
}

/// The string `field` of every element of the JSON array `items`.
pub fn strings<'a>(items: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    let items = items.as_array().unwrap_or_else(|| panic!("not an array: {items}"));
    items
        .iter()
        .map(|v| v[field].as_str().unwrap_or_else(|| panic!("no string {field} in {v}")))
        .collect()
}

fn md5_hex(s: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A HAND-MADE TORCH_TRACE snippet (not a real log) whose every log-derived
/// string is hostile HTML: function and file names, the guard text and its
/// quoted source line. Frame 0 compiles twice; 0/1 is a global_var recompile.
pub fn hostile_log() -> String {
    const P: &str = "V1121 11:35:10.000000 2524 torch/_dynamo/convert_frame.py:1]";
    let function = "<script>alert(1)</script>";
    let file = "javascript:alert(2)//\"><img src=x onerror=alert(3)>\u{202e}\u{200b}.py";
    let reason = "0/0: G['MODE'] == '<script>alert(1)</script>'  # if MODE == \"\"><img src=x onerror=alert(4)>\":  # evil.py:7 in f";
    let metrics = |id: u32, start: f64, secs: f64| {
        let m = serde_json::json!({"compilation_metrics": {
            "co_name": function, "co_filename": file, "co_firstlineno": 3,
            "start_time": start, "entire_frame_compile_time_s": secs, "guard_count": 4},
            "frame_id": 0, "frame_compile_id": id, "attempt": 0});
        format!("{P} {m}\n")
    };
    let start = |id: u32| {
        format!("{P} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": {id}, \"attempt\": 0}}\n")
    };
    let reasons = format!(
        "{P} {{\"artifact\": {{\"name\": \"recompile_reasons\", \"encoding\": \"json\"}}, \"frame_id\": 0, \"frame_compile_id\": 1, \"attempt\": 0, \"has_payload\": \"{}\"}}\n\t{reason}\n",
        md5_hex(reason)
    );
    [
        start(0),
        metrics(0, 1_795_257_300.0, 1.0),
        start(1),
        reasons,
        metrics(1, 1_795_257_302.0, 0.5),
    ]
    .concat()
}
pub mod blind;
pub mod browser;
pub mod ci_formats;
pub mod mutate;

/// The Python with torch that the `run` tests start: GUARDSCOPE_TEST_PYTHON,
/// else the repository's `.venv/bin/python`, which `make test` creates
/// before `cargo test` runs.
pub fn python() -> PathBuf {
    let python = std::env::var_os("GUARDSCOPE_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".venv/bin/python"));
    assert!(
        python.exists(),
        "the `guardscope run` tests need Python with torch, and {} does not exist: run `make test` \
         (it creates .venv), or set GUARDSCOPE_TEST_PYTHON to a Python that has torch",
        python.display()
    );
    python
}

/// The scenario directories (those with a `truth.json`) of a corpus's logs
/// for one torch version, e.g. `tests/corpus/logs` and `torch2.15.0`, sorted.
pub fn truth_scenarios(logs: &str, version: &str) -> Vec<PathBuf> {
    let dir = root().join(logs).join(version);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|d| d.unwrap().path())
        .filter(|p| p.join("truth.json").is_file())
        .collect();
    out.sort();
    out
}

/// The directory of the `TORCH_TRACE=DIR (kept)` note `guardscope run`
/// writes on stderr.
pub fn run_trace_dir(out: &Output) -> PathBuf {
    let line = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("guardscope: TORCH_TRACE="));
    let dir = line.and_then(|l| l.strip_suffix(" (kept)"));
    PathBuf::from(dir.unwrap_or_else(|| panic!("no TORCH_TRACE note on stderr:\n{}", out.stderr)))
}
