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

pub fn guardscope<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_guardscope"))
        .args(args)
        .current_dir(root())
        .env("COLUMNS", "200")
        .output()
        .expect("guardscope runs");
    Output {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `guardscope summary --json PATH`, asserting success.
pub fn summary_json(path: &Path) -> serde_json::Value {
    let out = guardscope([Path::new("summary"), Path::new("--json"), path]);
    assert_eq!(out.code, 0, "summary failed: {}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

/// A panic would exit 101 (or 3 from our guard) and print a backtrace.
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
