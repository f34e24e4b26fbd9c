//! `summary --format ndjson` on every real log: each line is one JSON
//! object of the documented schema, one per compile, and says what
//! `summary --json` says of the same compile (a view, not a second analysis).

mod common;

use common::{guardscope, root, summary_json};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fields of schema 1, in order (docs/json.md lists the same).
const FIELDS: &[&str] = &[
    "schema",
    "run",
    "run_key",
    "run_start",
    "rank",
    "pid",
    "generation",
    "frame_id",
    "function",
    "file",
    "line",
    "compile_id",
    "attempts",
    "start",
    "seconds",
    "backward_seconds",
    "recompile",
    "category",
    "culprit",
    "called_from_file",
    "called_from_line",
    "called_from_code",
    "severity",
    "problem",
    "failed",
    "cache_limit",
    "finished",
    "log",
    "log_line",
];

/// Every directory of real logs: the samples, the third-party corpus on
/// torch 2.15 (DDP ranks among them) and a directory holding two runs.
fn real_inputs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for base in ["samples/traces", "tests/corpus/logs/torch2.15.0"] {
        collect_log_dirs(&root().join(base), &mut dirs);
    }
    dirs.push(root().join("tests/data/two_runs"));
    dirs.sort();
    assert!(
        dirs.len() >= 50,
        "expected the samples and the corpus, found {}",
        dirs.len()
    );
    dirs
}

fn collect_log_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    if entries.iter().any(|p| p.to_string_lossy().contains(".log")) {
        out.push(dir.to_path_buf());
    }
    for p in entries.iter().filter(|p| p.is_dir()) {
        collect_log_dirs(p, out);
    }
}

fn ndjson(path: &Path) -> Vec<serde_json::Map<String, Value>> {
    let out = guardscope([Path::new("summary"), Path::new("--format"), Path::new("ndjson"), path]);
    assert_eq!(out.code, 0, "{}: {}", path.display(), out.stderr);
    assert!(out.stdout.ends_with('\n') || out.stdout.is_empty());
    out.stdout
        .lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(Value::Object(o)) => o,
            other => panic!("{}: not a JSON object: {line} ({other:?})", path.display()),
        })
        .collect()
}

#[test]
fn every_record_parses_and_matches_summary_json_on_every_real_log() {
    let mut compiles_seen = 0;
    let mut recompiles_seen = 0;
    for dir in real_inputs() {
        let rows = ndjson(&dir);
        let doc = summary_json(&dir);
        let what = dir.display();
        for row in &rows {
            let keys: Vec<&str> = row.keys().map(String::as_str).collect();
            let mut want = FIELDS.to_vec();
            want.sort_unstable();
            let mut got = keys.clone();
            got.sort_unstable();
            assert_eq!(got, want, "{what}: fields of a record");
            assert_eq!(row["schema"], 1);
        }

        // One record per compile of a frame, in the document's order.
        let compiles: Vec<(&Value, &Value)> = doc["frames"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["compiles"].as_array().unwrap().iter().map(move |c| (f, c)))
            .collect();
        assert_eq!(rows.len(), compiles.len(), "{what}: records vs compiles");
        for (row, (frame, c)) in rows.iter().zip(&compiles) {
            for (r, d) in [
                ("rank", "rank"),
                ("pid", "pid"),
                ("run", "run"),
                ("generation", "generation"),
            ]
            .into_iter()
            .chain([
                ("frame_id", "frame_id"),
                ("function", "function"),
                ("file", "file"),
                ("line", "line"),
            ]) {
                assert_eq!(row[r], frame[d], "{what}: {r}");
            }
            for (r, d) in [
                ("compile_id", "compile_id"),
                ("attempts", "attempts"),
                ("start", "start"),
                ("seconds", "duration_s"),
                ("backward_seconds", "backward_duration_s"),
                ("failed", "failed"),
                ("cache_limit", "cache_limit"),
                ("finished", "finished"),
            ] {
                assert_eq!(row[r], c[d], "{what} {}: {r}", c["compile_id"]);
            }
            let run = &doc["runs"][row["run"].as_u64().unwrap() as usize];
            assert_eq!(row["run_start"], run["start"], "{what}: run_start");
            let key = row["run_key"].as_str().unwrap();
            assert!(key.ends_with(&format!("-{}", run["pids"][0])), "{what}: run key {key}");
            let log = row["log"].as_str().expect("every compile's log is known");
            assert!(
                doc["inputs"].as_array().unwrap().iter().any(|i| i["path"] == log),
                "{what}: log {log} is an input"
            );
            assert!(row["log_line"].as_u64().unwrap() >= 1);
        }
        compiles_seen += rows.len();

        // The recompiles, in order, with the cause summary --json gives them.
        let recompiles: Vec<_> = rows.iter().filter(|r| r["recompile"] == true).collect();
        let listed = doc["recompiles"].as_array().unwrap();
        assert_eq!(recompiles.len(), listed.len(), "{what}: recompiles");
        for (row, r) in recompiles.iter().zip(listed) {
            assert_eq!(row["compile_id"], r["compile_id"], "{what}");
            assert_eq!(row["pid"], r["pid"], "{what}");
            assert_eq!(row["severity"], r["severity"], "{what} {}", r["compile_id"]);
            assert_eq!(row["problem"], r["severity"] == "problem", "{what}");
            if !r["cause"].is_null() {
                assert_eq!(row["category"], r["cause"]["category"], "{what} {}", r["compile_id"]);
                assert_eq!(row["culprit"], r["cause"]["culprit"], "{what} {}", r["compile_id"]);
            }
            let called_from = match (&row["called_from_file"], &row["called_from_line"]) {
                (Value::String(f), Value::Number(l)) => Value::String(format!("{f}:{l}")),
                (Value::Null, Value::Null) => Value::Null,
                other => panic!("{what}: half a call site {other:?}"),
            };
            assert_eq!(called_from, r["called_from"], "{what} {}", r["compile_id"]);
        }
        for row in rows.iter().filter(|r| r["recompile"] == false) {
            assert!(row["category"].is_null() && row["severity"].is_null() && row["problem"] == false);
        }
        recompiles_seen += recompiles.len();

        // Summed per culprit group, the records give the groups' seconds. A
        // group may hold recompiles whose own culprits differ (a hook's flag
        // and the list it appends to are one cause): each record is counted
        // under the group that lists its compile id.
        let mut group_of: BTreeMap<(String, String, String, String), (String, String)> = BTreeMap::new();
        for g in doc["culprits"].as_array().unwrap() {
            let ranks: Vec<Value> = match g["ranks"].as_array() {
                Some(r) if !r.is_empty() => r.clone(),
                _ => vec![g["rank"].clone()],
            };
            for (i, id) in g["compile_ids"].as_array().unwrap().iter().enumerate() {
                // Across ranks the ids are listed once per rank, in rank order.
                let rank_ids: Vec<&Value> = if ranks.len() == g["compile_ids"].as_array().unwrap().len() {
                    vec![&ranks[i]]
                } else {
                    ranks.iter().collect()
                };
                for r in rank_ids {
                    let key = (
                        g["run"].to_string(),
                        r.to_string(),
                        g["frame_id"].to_string(),
                        id.to_string(),
                    );
                    group_of.insert(key, (g["category"].to_string(), g["culprit"].to_string()));
                }
            }
        }
        let mut from_rows: BTreeMap<(String, String), f64> = BTreeMap::new();
        for row in &recompiles {
            let at = (
                row["run"].to_string(),
                row["rank"].to_string(),
                row["frame_id"].to_string(),
                row["compile_id"].to_string(),
            );
            let key = group_of
                .get(&at)
                .cloned()
                .unwrap_or_else(|| panic!("{what}: no group lists {at:?}"));
            *from_rows.entry(key).or_default() += row["seconds"].as_f64().unwrap_or(0.0);
        }
        let mut from_groups: BTreeMap<(String, String), f64> = BTreeMap::new();
        for g in doc["culprits"].as_array().unwrap() {
            let key = (g["category"].to_string(), g["culprit"].to_string());
            *from_groups.entry(key).or_default() += g["seconds"].as_f64().unwrap();
        }
        assert_eq!(
            from_rows.keys().collect::<Vec<_>>(),
            from_groups.keys().collect::<Vec<_>>(),
            "{what}"
        );
        for (k, s) in &from_rows {
            assert!(
                (s - from_groups[k]).abs() < 1e-9,
                "{what} {k:?}: {s} vs {}",
                from_groups[k]
            );
        }
    }
    // The corpus is not empty by accident.
    assert!(
        compiles_seen > 200 && recompiles_seen > 50,
        "{compiles_seen} {recompiles_seen}"
    );
}

#[test]
fn docs_json_lists_exactly_the_fields_of_a_record() {
    let doc = std::fs::read_to_string(root().join("docs/json.md")).unwrap();
    let section = doc
        .split("## NDJSON")
        .nth(1)
        .expect("docs/json.md has an NDJSON section");
    let section = section.split("\n## ").next().unwrap();
    let documented: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    assert_eq!(documented, FIELDS);
}

#[test]
fn json_is_format_json_and_both_together_are_a_usage_error() {
    let dir = root().join("samples/traces/collision");
    let a = guardscope([Path::new("summary"), Path::new("--json"), &dir]);
    let b = guardscope([Path::new("summary"), Path::new("--format"), Path::new("json"), &dir]);
    assert_eq!((a.code, b.code), (0, 0));
    assert_eq!(a.stdout, b.stdout);
    let both = guardscope([
        Path::new("summary"),
        Path::new("--json"),
        Path::new("--format"),
        Path::new("ndjson"),
        &dir,
    ]);
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("cannot be used with"), "{}", both.stderr);
}

#[test]
fn an_unreadable_input_leaves_stdout_without_records() {
    let out = guardscope(["summary", "--format", "ndjson", "no/such/trace.log"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("no/such/trace.log"), "{}", out.stderr);
}
