//! Every file in tests/hostile/ (see its README) through `summary --json`,
//! `report` and `check`: never a panic or an internal error, a one-line
//! message when nothing is readable, and otherwise the problems counted and
//! the valid events kept. One row per file says what must come out.

mod common;

use common::{guardscope, root, strings};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

struct Expect {
    file: &'static str,
    /// Exit code of `summary` and `report`: 0, or 2 when nothing is readable.
    code: i32,
    /// Problem kinds with their exact counts; every other kind is 0.
    problems: &'static [(&'static str, u64)],
    /// Compile ids, frame by frame.
    compiles: &'static [&'static str],
    /// Recompiles with the category of their cause (None: no reason logged).
    recompiles: &'static [(&'static str, Option<&'static str>)],
}

const REAL: &[&str] = &["0/0", "0/1"];
const REAL_RECOMPILE: &[(&str, Option<&str>)] = &[("0/1", Some("global_var"))];

const fn real(file: &'static str, problems: &'static [(&'static str, u64)]) -> Expect {
    Expect {
        file,
        code: 0,
        problems,
        compiles: REAL,
        recompiles: REAL_RECOMPILE,
    }
}

const fn unreadable(file: &'static str) -> Expect {
    Expect {
        file,
        code: 2,
        problems: &[],
        compiles: &[],
        recompiles: &[],
    }
}

const CORPUS: &[Expect] = &[
    real("real_snippet.log", &[]),
    real("real_nul_bytes.log", &[("not_glog", 1), ("bad_json", 1)]),
    real("real_invalid_utf8.log", &[("invalid_utf8", 1)]),
    real("real_crlf.log", &[]), // CRLF is tolerated, not a problem
    Expect {
        // The second run of 0/1 reads as a new generation, as after torch._dynamo.reset().
        compiles: &["0/0", "0/1", "0/1"],
        recompiles: &[("0/1", Some("global_var")), ("0/1", None)],
        ..real("real_duplicate_compile_ids.log", &[])
    },
    real("real_out_of_order_ids.log", &[]),
    real("real_unknown_kinds.log", &[("unknown_kind", 1)]),
    real("real_md5_mismatch.log", &[("md5_mismatch", 1)]),
    Expect {
        compiles: &["0/0"],
        recompiles: &[],
        ..real("real_cut.log.gz", &[("io", 1)])
    },
    real("real_cut_mid_json.log", &[("truncated_line", 1)]),
    real("real_huge_line.log.gz", &[("line_too_long", 1)]),
    Expect {
        file: "wrong_types.log",
        code: 0,
        problems: &[("bad_json", 3), ("bad_event", 3)],
        compiles: &["1/0", "2/0", "3/1", "7/0"],
        recompiles: &[("3/1", None)],
    },
    Expect {
        file: "odd_envelopes.log",
        code: 0,
        problems: &[("not_glog", 2), ("bad_json", 6), ("unknown_kind", 1)],
        compiles: &["7/0"],
        recompiles: &[],
    },
    Expect {
        file: "orphan_and_missing_payloads.log",
        code: 0,
        problems: &[("missing_payload", 1), ("orphan_payload", 1)],
        compiles: &["7/0", "7/1"],
        recompiles: &[("7/1", None)],
    },
    unreadable("binary_noise.bin"),
    unreadable("gzip_header_only.log.gz"),
];

fn corpus_dir() -> PathBuf {
    root().join("tests/hostile")
}

fn compile_ids(summary: &serde_json::Value) -> Vec<String> {
    let frames = summary["frames"].as_array().unwrap();
    frames
        .iter()
        .flat_map(|f| strings(&f["compiles"], "compile_id"))
        .map(str::to_owned)
        .collect()
}

fn assert_no_crash(what: &str, out: &common::Output) {
    assert!(
        [0, 1, 2].contains(&out.code),
        "{what}: exit {} (3 is a bug, 101 a panic)\n{}",
        out.code,
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "{what}: {}", out.stderr);
    if out.code == 2 {
        assert_eq!(out.stderr.trim().lines().count(), 1, "{what}: one line: {}", out.stderr);
    }
}

/// Runs the three commands on `path` and checks what `expect` says.
fn check_file(path: &Path, expect: &Expect) {
    let name = expect.file;
    let out = guardscope(["summary".as_ref(), "--json".as_ref(), path.as_os_str()]);
    assert_no_crash(&format!("summary {name}"), &out);
    assert_eq!(out.code, expect.code, "summary {name}: {}", out.stderr);

    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let rep = guardscope([
        "report".as_ref(),
        "-q".as_ref(),
        "-o".as_ref(),
        report.as_os_str(),
        path.as_os_str(),
    ]);
    assert_no_crash(&format!("report {name}"), &rep);
    assert_eq!(rep.code, expect.code, "report {name}: {}", rep.stderr);

    let check = guardscope(["check".as_ref(), path.as_os_str()]);
    assert_no_crash(&format!("check {name}"), &check);
    // A file not read to its end, or cut by its writer's end (what came
    // after is lost), fails the gate closed, whatever was read; so does a
    // compile the log never finishes (its compilation_metrics missing or
    // unreadable: the log is not the whole run).
    let unfinished = serde_json::from_str::<serde_json::Value>(&out.stdout)
        .ok()
        .and_then(|s| s["totals"]["unfinished_compiles"].as_u64())
        .unwrap_or(0);
    let read_error = unfinished > 0
        || expect
            .problems
            .iter()
            .any(|(kind, _)| matches!(*kind, "io" | "truncated_line" | "truncated_payload"));
    let check_code = match (expect.code, expect.recompiles.is_empty()) {
        (2, _) => 2,
        _ if read_error => 2,
        (_, true) => 0,
        (_, false) => 1,
    };
    assert_eq!(check.code, check_code, "check {name}: {}", check.stderr);

    if expect.code != 0 {
        assert!(
            !report.join("index.html").exists(),
            "{name}: no report from an unreadable input"
        );
        return;
    }
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let ids = compile_ids(&summary);
    assert_eq!(ids, expect.compiles, "{name}: compiles");
    let recompiles: Vec<(String, Option<String>)> = summary["recompiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let category = r["cause"]["category"].as_str().map(str::to_owned);
            (r["compile_id"].as_str().unwrap().to_owned(), category)
        })
        .collect();
    let expected: Vec<(String, Option<String>)> = expect
        .recompiles
        .iter()
        .map(|(id, c)| (id.to_string(), c.map(str::to_owned)))
        .collect();
    assert_eq!(recompiles, expected, "{name}: recompiles");

    let problems = &summary["problems"];
    let total: u64 = expect.problems.iter().map(|(_, n)| n).sum();
    assert_eq!(problems["count"], total, "{name}: {problems}");
    for (kind, count) in expect.problems {
        assert_eq!(problems["by_kind"][kind], *count, "{name}: {kind} in {problems}");
    }
    let first = problems["first"].as_array().unwrap();
    assert_eq!(
        first.len() as u64,
        total.min(200),
        "{name}: every problem has a file:line"
    );
    for line in first {
        assert!(line.as_str().unwrap().contains(&format!("{name}:")), "{name}: {line}");
    }

    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap()).unwrap();
    assert_eq!(written, summary, "{name}: the report's summary.json is summary --json");
    assert!(report.join("index.html").exists());
}

#[test]
fn the_table_lists_every_file_of_the_corpus() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !matches!(n.as_str(), "README.md" | "generate.py" | ".gitattributes"))
        .collect();
    let listed: BTreeSet<String> = CORPUS.iter().map(|e| e.file.to_owned()).collect();
    assert_eq!(on_disk, listed);
}

#[test]
fn every_hostile_file_is_survived_with_its_valid_events_kept() {
    for expect in CORPUS {
        check_file(&corpus_dir().join(expect.file), expect);
    }
}

#[test]
fn the_whole_corpus_at_once_still_yields_the_readable_events() {
    let mut args = vec!["summary".to_owned(), "--json".to_owned()];
    args.extend(CORPUS.iter().map(|e| format!("tests/hostile/{}", e.file)));
    let out = guardscope(&args);
    assert_no_crash("summary of everything", &out);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let expected: usize = CORPUS.iter().map(|e| e.compiles.len()).sum();
    assert_eq!(compile_ids(&summary).len(), expected);
    let least: u64 = CORPUS.iter().flat_map(|e| e.problems).map(|(_, n)| n).sum();
    assert!(
        summary["problems"]["count"].as_u64().unwrap() >= least + 2,
        "the two unreadable files count too"
    );
}

#[cfg(unix)]
#[test]
fn a_trace_directory_with_symlink_loops_is_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        corpus_dir().join("real_snippet.log"),
        dir.path().join("dedicated_log_torch_trace.log"),
    )
    .unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("loop")).unwrap();
    let itself = dir.path().join("dedicated_log_torch_trace_self.log");
    std::os::unix::fs::symlink(&itself, &itself).unwrap();
    let out = guardscope(["summary".as_ref(), "--json".as_ref(), dir.path().as_os_str()]);
    assert_no_crash("symlink loops", &out);
    // Symlinks are followed, but the loop is walked once (and named as a
    // skipped input), and the link to itself, which cannot be opened, is
    // named as unreadable rather than taken for a log.
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(compile_ids(&summary), REAL, "the real log is read once");
    assert_eq!(
        summary["problems"]["by_kind"]["skipped_input"], 1,
        "{}",
        summary["problems"]
    );
    assert_eq!(summary["problems"]["by_kind"]["io"], 1, "{}", summary["problems"]);
}
