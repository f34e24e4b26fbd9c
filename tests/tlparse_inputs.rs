//! Real logs from other torch versions (tests/data/tlparse, see NOTICE.md):
//! everything parses, clean logs verify every md5, corrupt ones report the
//! bad lines and still produce the rest of the model.

mod common;

use common::{guardscope, root, strings, summary_json};
use serde_json::Value;

fn data(name: &str) -> std::path::PathBuf {
    root().join("tests/data/tlparse").join(name)
}

fn input(s: &Value) -> &Value {
    &s["inputs"][0]
}

/// `summary --json --verify-all`: every payload's md5 checked.
fn verified(path: &std::path::Path) -> Value {
    let out = guardscope([
        std::path::Path::new("summary"),
        "--json".as_ref(),
        "--verify-all".as_ref(),
        path,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("valid JSON")
}

#[test]
fn clean_logs_have_exact_event_counts_and_no_md5_failures() {
    // (file, lines, envelopes, payloads verified, compile ids)
    let cases: [(&str, u64, u64, u64, &[&str]); 5] = [
        ("simple.log.gz", 2224, 76, 59, &["0/0"]),
        ("comp_metrics.log.gz", 65, 26, 6, &["0/0", "1/0", "2/0"]),
        ("comp_failure.log.gz", 178, 21, 8, &["0/0"]),
        ("artifacts.log.gz", 53, 20, 5, &["0/0"]),
        (
            "cache_hit_miss.log.gz",
            7541,
            380,
            159,
            &["0/0", "1/0", "0/0", "1/0", "0/0", "1/0"],
        ),
    ];
    for (name, lines, envelopes, md5_ok, ids) in cases {
        let s = verified(&data(name));
        let i = input(&s);
        assert_eq!(i["lines"], lines, "{name}");
        assert_eq!(i["envelopes"], envelopes, "{name}");
        assert_eq!(i["md5_ok"], md5_ok, "{name}");
        assert_eq!(i["md5_mismatch"], 0, "{name}");
        assert_eq!(s["problems"]["count"], 0, "{name}: {:?}", s["problems"]["first"]);
        let got: Vec<&str> = s["frames"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| {
                f["compiles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["compile_id"].as_str().unwrap())
            })
            .collect();
        assert_eq!(got, ids, "{name}");
    }
}

#[test]
fn simple_log_event_kinds_are_all_counted() {
    let s = summary_json(&data("simple.log.gz"));
    let kinds = &input(&s)["kinds"];
    assert_eq!(kinds["chromium_event"], 50);
    assert_eq!(kinds["str"], 12);
    assert_eq!(kinds["dynamo_start"], 1);
    assert_eq!(kinds["compilation_metrics"], 1);
    let total: u64 = kinds.as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total, 76);
}

#[test]
fn old_logs_with_thread_ids_and_no_start_time_still_give_durations() {
    // comp_metrics.log carries a 15-digit thread id where newer logs put the pid.
    let s = summary_json(&data("comp_metrics.log.gz"));
    assert_eq!(s["frames"][0]["pid"], 139877824898048u64);
    assert_eq!(s["frames"][1]["function"], "torch_dynamo_resume_in_fn_at_9551");
    assert_eq!(
        s["frames"][0]["compiles"][0]["duration_s"].as_f64().unwrap(),
        0.012439489364624023
    );
    // simple.log has no start_time: the glog timestamp is used.
    let s = summary_json(&data("simple.log.gz"));
    assert!(s["frames"][0]["compiles"][0]["start"].as_f64().unwrap() > 0.0);
    assert_eq!(s["frames"][0]["compiles"][0]["duration_s"].as_f64().unwrap(), 1.659332);
}

#[test]
fn corrupted_payload_is_reported_with_its_line_and_the_rest_survives() {
    // The corrupt payload is a chromium_event's, which guardscope skips
    // unhashed. But the file ends mid-line inside a payload (no final
    // newline), which a cut file does too: so it is read again hashing
    // every payload, and the corrupt one is found by default as well.
    let default = summary_json(&data("simple_corrupted_json.log.gz"));
    assert_eq!(default["problems"]["by_kind"]["md5_mismatch"], 1);
    assert_eq!(input(&default)["md5_unchecked"], 0);
    assert_eq!(
        default["problems"]["by_kind"].get("truncated_payload"),
        None,
        "the last payload is whole"
    );
    // The same file with its final newline is read once, unhashed.
    let gz = std::fs::read(data("simple_corrupted_json.log.gz")).unwrap();
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    text.push(b'\n');
    let dir = tempfile::tempdir().unwrap();
    let ended = dir.path().join("simple_corrupted_json.log");
    std::fs::write(&ended, &text).unwrap();
    let once = summary_json(&ended);
    assert_eq!(once["problems"]["count"], 0);
    assert_eq!(input(&once)["md5_unchecked"], 59);
    let s = verified(&data("simple_corrupted_json.log.gz"));
    assert_eq!(s["problems"]["count"], 1);
    let first = s["problems"]["first"][0].as_str().unwrap();
    assert!(
        first.starts_with("tests/data/tlparse/simple_corrupted_json.log.gz:13: payload md5 does not match has_payload (payload lines 14-23)")
            || first.contains("simple_corrupted_json.log.gz:13: payload md5 does not match"),
        "{first}"
    );
    assert_eq!(s["problems"]["by_kind"]["md5_mismatch"], 1);
    // Everything else is still there: the same model as the clean log.
    let clean = summary_json(&data("simple.log.gz"));
    assert_eq!(s["frames"], clean["frames"]);
    assert_eq!(input(&s)["envelopes"], 76);
    assert_eq!(input(&s)["md5_ok"], 58);

    let text = guardscope([
        "summary",
        "--verify-all",
        "tests/data/tlparse/simple_corrupted_json.log.gz",
    ]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout
            .contains("1 input error(s): md5 mismatch 1; run with --verbose to list them"),
        "{}",
        text.stdout
    );
    let verbose = guardscope([
        "summary",
        "-v",
        "--verify-all",
        "tests/data/tlparse/simple_corrupted_json.log.gz",
    ]);
    assert!(
        verbose
            .stdout
            .contains("simple_corrupted_json.log.gz:13: payload md5 does not match"),
        "{}",
        verbose.stdout
    );
}

#[test]
fn multi_rank_directory_takes_ranks_from_file_names_and_skips_other_files() {
    let s = verified(&data("multi_rank_schedule"));
    let ranks: Vec<i64> = s["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rank"].as_i64().unwrap())
        .collect();
    assert_eq!(ranks, [0, 0, 1, 1, 2, 2]);
    assert_eq!(s["inputs"].as_array().unwrap().len(), 3);
    // rank 1's log has one corrupt payload; the other two are clean.
    assert_eq!(s["problems"]["count"], 1);
    assert!(s["problems"]["first"][0]
        .as_str()
        .unwrap()
        .contains("dedicated_log_torch_trace_rank_1_n8zycf07.log.gz:1081:"));

    // another.log.gz and some_other_file.txt.gz are not trace logs.
    let s = summary_json(&data("multi_rank_messy_input"));
    let paths = strings(&s["inputs"], "path");
    assert_eq!(paths.len(), 2);
    assert!(paths.iter().all(|p| p.contains("dedicated_log_torch_trace_rank_")));
    assert_eq!(s["totals"]["ranks"], 2);
}

#[test]
fn several_paths_are_merged_in_order() {
    let out = guardscope([
        "summary",
        "--json",
        "tests/data/tlparse/simple.log.gz",
        "tests/data/tlparse/comp_metrics.log.gz",
    ]);
    assert_eq!(out.code, 0);
    let s: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(s["frames"].as_array().unwrap().len(), 4);
    assert_eq!(s["totals"]["processes"], 2);
}

#[test]
fn export_logs_with_untabbed_blank_payload_lines_parse() {
    let s = summary_json(&data("export.log.gz"));
    assert_eq!(input(&s)["envelopes"], 60);
    // Blank lines inside the payload are not reported as non-glog lines.
    assert_eq!(s["problems"]["by_kind"].get("not_glog"), None);
}
