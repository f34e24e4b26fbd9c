//! Finding the logs of a run in what the user names: unreadable entries are
//! named and skipped (and fail a gate), symlinked logs are followed, and
//! the same file named twice is read once.

mod common;

use common::{guardscope, root, summary_json};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn sample_log(name: &str) -> PathBuf {
    root()
        .join("samples/traces")
        .join(name)
        .join("dedicated_log_torch_trace.log.gz")
}

fn problems(summary: &Value) -> Vec<String> {
    summary["problems"]["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

fn input_count(summary: &Value) -> usize {
    summary["inputs"].as_array().unwrap().len()
}

#[cfg(unix)]
#[test]
fn an_unreadable_subdirectory_is_named_and_skipped_and_the_rest_analysed() {
    let dir = common::shared_tempdir();
    std::fs::copy(
        sample_log("collision_fixed"),
        dir.path().join("dedicated_log_torch_trace_rank_0.log.gz"),
    )
    .unwrap();
    let node1 = dir.path().join("node1");
    std::fs::create_dir(&node1).unwrap();
    std::fs::copy(
        sample_log("collision"),
        node1.join("dedicated_log_torch_trace_rank_1.log.gz"),
    )
    .unwrap();
    common::set_mode(&node1, 0o000);

    let out = common::guardscope_unprivileged(["summary".as_ref(), "--json".as_ref(), dir.path().as_os_str()]);
    assert_eq!(out.code, 0, "the readable rank is analysed: {}", out.stderr);
    let s: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(input_count(&s), 1);
    assert_eq!(s["problems"]["by_kind"]["io"], 1, "{:?}", s["problems"]);
    let first = &problems(&s)[0];
    assert!(
        first.contains("node1") && first.contains("Permission denied"),
        "{first}"
    );
    // Per the gate's rule, lost input never passes.
    let check = common::guardscope_unprivileged(["check".as_ref(), dir.path().as_os_str()]);
    assert_eq!(check.code, 2, "{}", check.stdout);
    assert!(check.stdout.contains("node1"), "{}", check.stdout);
    common::set_mode(&node1, 0o755);
}

#[cfg(unix)]
#[test]
fn symlinked_rank_logs_and_directories_are_followed() {
    let store = tempfile::tempdir().unwrap();
    let gathered = tempfile::tempdir().unwrap();
    // Logs gathered from nodes as links, a file link and a directory link.
    let rank0 = store.path().join("node0.log.gz");
    std::fs::copy(sample_log("collision"), &rank0).unwrap();
    std::os::unix::fs::symlink(&rank0, gathered.path().join("dedicated_log_torch_trace_rank_0.log.gz")).unwrap();
    let node1 = store.path().join("node1");
    std::fs::create_dir(&node1).unwrap();
    std::fs::copy(
        sample_log("collision_fixed"),
        node1.join("dedicated_log_torch_trace_rank_1.log.gz"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&node1, gathered.path().join("node1")).unwrap();
    // A dangling link named unlike a log is just another file.
    std::os::unix::fs::symlink("/nonexistent", gathered.path().join("notes.txt")).unwrap();

    let s = summary_json(gathered.path());
    assert_eq!(input_count(&s), 2, "{:?}", s["inputs"]);
    assert_eq!(s["totals"]["ranks"], 2);
    assert_eq!(s["problems"]["count"], 0, "{:?}", s["problems"]);
    let check = guardscope(["check".as_ref(), gathered.path().as_os_str()]);
    assert_eq!(check.code, 1, "rank 0 recompiles: {}", check.stdout);
}

fn collision_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dedicated_log_torch_trace.log.gz");
    std::fs::copy(sample_log("collision"), &file).unwrap();
    (dir, file)
}

#[cfg(unix)]
#[test]
fn a_hard_link_to_a_log_is_the_same_log_and_read_once() {
    // Two names, one inode (a gathered directory that links a rank's log
    // under a second name): counting both would double its recompiles.
    let (dir, file) = collision_dir();
    let second = dir.path().join("dedicated_log_torch_trace_copy.log.gz");
    std::fs::hard_link(&file, &second).unwrap();
    for args in [vec![dir.path()], vec![file.as_path(), second.as_path()]] {
        let mut a: Vec<&std::ffi::OsStr> = vec!["summary".as_ref(), "--json".as_ref()];
        a.extend(args.iter().map(|p| p.as_os_str()));
        let out = guardscope(a);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let s: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(input_count(&s), 1, "{args:?}");
        assert_eq!(s["totals"]["recompiles"], 2, "{args:?}");
        let first = &problems(&s)[0];
        assert!(first.contains("same file as"), "{first}");
    }
}

#[test]
fn the_same_log_named_twice_is_read_once_and_said_so() {
    let (dir, file) = collision_dir();
    let args = |extra: &[&Path]| {
        let mut a: Vec<&std::ffi::OsStr> = vec!["summary".as_ref(), "--json".as_ref()];
        a.extend(extra.iter().map(|p| p.as_os_str()));
        guardscope(a)
    };
    for twice in [
        [dir.path(), file.as_path()],
        [file.as_path(), file.as_path()],
        [dir.path(), dir.path()],
    ] {
        let out = args(&twice);
        assert_eq!(out.code, 0, "{twice:?}: {}", out.stderr);
        let s: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(input_count(&s), 1, "{twice:?}");
        assert_eq!(s["totals"]["recompiles"], 2, "{twice:?}");
        assert_eq!(s["problems"]["by_kind"]["skipped_input"], 1, "{twice:?}");
        let first = &problems(&s)[0];
        assert!(first.contains("same file as"), "{first}");
    }
    let check = guardscope(["check".as_ref(), dir.path().as_os_str(), file.as_os_str()]);
    assert_eq!(check.code, 1);
    assert_eq!(
        check.stdout.lines().last(),
        Some("FAIL: 2 recompiles (allowed: 0)"),
        "not counted twice, and a duplicate is no lost input: {}",
        check.stdout
    );
}
