//! `guardscope diff` on real activation traces made by guardscope's own hooks
//! with real torch (samples/activations/make_traces.py), plus bad input.

mod common;

use common::{assert_clean_failure, guardscope, strings};
use flate2::read::GzDecoder;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

const BASE: &str = "samples/activations/base.jsonl.gz";

fn sample(name: &str) -> String {
    format!("samples/activations/{name}.jsonl.gz")
}

/// `guardscope diff --json A B EXTRA...`: (exit code, parsed output).
fn diff_json(a: &str, b: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["diff", "--json", a, b];
    args.extend_from_slice(extra);
    let out = guardscope(&args);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let json = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    (out.code, json)
}

fn gunzip(path: &str) -> String {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(common::root().join(path)).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_same_model_run_twice_is_equal_and_exits_0() {
    for other in ["base_again", "compiled"] {
        let (code, d) = diff_json(BASE, &sample(other), &[]);
        assert_eq!(code, 0, "{other}: {d}");
        assert_eq!(d["verdict"], "equal");
        assert_eq!((d["compared"].as_u64(), d["divergent"].as_u64()), (Some(126), Some(0)));
        assert_eq!(d["values_compared"], 126 * 6);
        assert_eq!(d["first_divergence"], Value::Null);
        assert_eq!(
            (d["only_in_a"]["records"].as_u64(), d["only_in_b"]["records"].as_u64()),
            (Some(0), Some(0))
        );
        assert_eq!(d["a"]["records"], 126);
        assert_eq!(d["steps"].as_array().unwrap().len(), 6);
    }
    let text = guardscope(["diff", BASE, &sample("base_again")]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout.contains("EQUAL: all 126 aligned records within tolerance."),
        "{}",
        text.stdout
    );
}

#[test]
fn a_perturbed_middle_layer_is_the_first_divergence_and_earlier_layers_stay_equal() {
    let (code, d) = diff_json(BASE, &sample("perturbed"), &["--show", "1000"]);
    assert_eq!(code, 1);
    assert_eq!(d["verdict"], "divergent");
    let first = &d["first_divergence"];
    assert_eq!(first["module"], "blocks.2.fc1");
    assert_eq!((first["step"].as_i64(), first["call"].as_u64()), (Some(0), Some(0)));
    assert_eq!(
        (first["line_a"].as_u64(), first["line_b"].as_u64()),
        (Some(12), Some(12))
    );
    assert_eq!(first["tensor"], "out");
    // Every stat of the perturbed layer's output moved by more than 1%.
    assert_eq!(
        strings(&first["stats"], "stat"),
        ["abs_mean", "sum", "min", "max", "mean", "std"]
    );
    let sum = &first["stats"][1];
    let (a, b) = (sum["a"].as_f64().unwrap(), sum["b"].as_f64().unwrap());
    assert!((sum["rel_error"].as_f64().unwrap() - (a - b).abs() / a.abs().max(b.abs())).abs() < 1e-12);

    // Nothing upstream of blocks.2.fc1 diverges, at any step: the divergent
    // records are the perturbed layer and what it feeds.
    let mut all = vec![first.clone()];
    all.extend(d["next_divergences"].as_array().unwrap().iter().cloned());
    assert_eq!(all.len() as u64, d["divergent"].as_u64().unwrap());
    let downstream = [
        "blocks.2.fc1",
        "blocks.2.act",
        "blocks.2.fc2",
        "blocks.2",
        "blocks.3.ln",
        "blocks.3.fc1",
        "blocks.3.act",
        "blocks.3.fc2",
        "blocks.3",
        "head",
    ]; // fmt: skip
    for v in &all {
        let module = v["module"].as_str().unwrap();
        assert!(downstream.contains(&module), "{module} diverges: {v}");
    }
    // In A's execution order: step, then line.
    let order: Vec<(i64, u64)> = all
        .iter()
        .map(|v| (v["step"].as_i64().unwrap(), v["line_a"].as_u64().unwrap()))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    // blocks.2.fc1 diverges at every step; per step, the modules counted.
    let steps = d["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6);
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], i as i64);
        assert_eq!(s["compared"], 21);
        assert_eq!(s["divergent"], s["divergent_modules"]);
        assert!(all
            .iter()
            .any(|v| v["step"] == i as i64 && v["module"] == "blocks.2.fc1"));
    }
    let text = guardscope(["diff", BASE, &sample("perturbed")]);
    assert_eq!(text.code, 1);
    assert!(
        text.stdout
            .contains("First divergence (in A's order):\n  step 0 · blocks.2.fc1 · out · call 0"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_renamed_prefix_is_one_sided_until_stripped() {
    let (code, d) = diff_json(BASE, &sample("renamed"), &[]);
    assert_eq!(code, 1);
    assert_eq!(d["compared"], 0);
    assert_eq!(
        (d["only_in_a"]["records"].as_u64(), d["only_in_b"]["records"].as_u64()),
        (Some(126), Some(126))
    );
    let groups = &d["only_in_b"]["groups"];
    assert_eq!(groups.as_array().unwrap().len(), 21);
    assert_eq!(groups[0]["module"], "transformer.blocks.0.ln");
    assert_eq!(
        (groups[0]["records"].as_u64(), groups[0]["first_line"].as_u64()),
        (Some(6), Some(1))
    );
    assert!(
        d["hint"]
            .as_str()
            .unwrap()
            .ends_with("try --strip-prefix B=transformer."),
        "{}",
        d["hint"]
    );

    let (code, d) = diff_json(BASE, &sample("renamed"), &["--strip-prefix", "B=transformer."]);
    assert_eq!(code, 0, "{d}");
    assert_eq!((d["compared"].as_u64(), d["divergent"].as_u64()), (Some(126), Some(0)));
    // The other way round, and with a --map file instead.
    let (code, _) = diff_json(&sample("renamed"), BASE, &["--strip-prefix", "A=transformer."]);
    assert_eq!(code, 0);
    let dir = tempfile::tempdir().unwrap();
    let map = write(
        dir.path(),
        "names.txt",
        "# the port nests the model\n^transformer\\.(.*)$ -> ${1}\n",
    );
    let map_arg = format!("B={}", map.display());
    let (code, d) = diff_json(BASE, &sample("renamed"), &["--map", &map_arg]);
    assert_eq!(code, 0, "{d}");
    assert_eq!(d["compared"], 126);
}

#[test]
fn the_renamed_and_perturbed_names_show_both_originals() {
    // The mapped name aligns; each side's own name is reported.
    let (code, d) = diff_json(
        &sample("renamed"),
        &sample("perturbed"),
        &["--strip-prefix", "A=transformer."],
    );
    assert_eq!(code, 1);
    let first = &d["first_divergence"];
    assert_eq!(first["module"], "blocks.2.fc1");
    assert_eq!(first["module_a"], "transformer.blocks.2.fc1");
    assert_eq!(first["module_b"], "blocks.2.fc1");
}

#[test]
fn nan_facing_numbers_diverges_and_nan_facing_nan_is_not_comparable() {
    let (code, d) = diff_json(BASE, &sample("nan"), &[]);
    assert_eq!(code, 1);
    let first = &d["first_divergence"];
    assert_eq!(first["module"], "blocks.3.fc2");
    assert_eq!(first["step"], 0);
    assert_eq!(first["max_rel_error"], "inf");
    assert_eq!(first["stats"][0]["b"], "nan");
    assert!(first["stats"][0]["a"].is_f64());
    // blocks.3.fc2, blocks.3 and head, at 6 steps.
    assert_eq!(d["divergent"], 18);

    let (code, d) = diff_json(&sample("nan"), &sample("nan"), &[]);
    assert_eq!(code, 0, "{d}");
    assert_eq!(d["not_comparable"], 18 * 6);
    assert_eq!(d["values_compared"], 126 * 6);
}

/// Rewrites one of our traces in the reference format: no "call", Python's
/// `json.dumps` spacing, bare NaN. The values are the real trace's.
fn to_reference_format(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut record: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        assert!(record.remove("call").is_some());
        let fields: Vec<String> = record
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) if s == "nan" => format!("\"{k}\": NaN"),
                _ => format!("\"{k}\": {v}"),
            })
            .collect();
        out.push_str(&format!("{{{}}}\n", fields.join(", ")));
    }
    out
}

#[test]
fn a_reference_format_file_without_call_aligns_with_ours() {
    let dir = tempfile::tempdir().unwrap();
    let reference = write(dir.path(), "ref.jsonl", &to_reference_format(&gunzip(&sample("nan"))));
    assert!(std::fs::read_to_string(&reference)
        .unwrap()
        .contains("\"abs_mean\": NaN, "));
    let (code, d) = diff_json(&sample("nan"), reference.to_str().unwrap(), &[]);
    assert_eq!(code, 0, "{d}");
    assert_eq!(
        (d["compared"].as_u64(), d["b"]["malformed"].as_u64()),
        (Some(126), Some(0))
    );
    let (code, d) = diff_json(reference.to_str().unwrap(), BASE, &[]);
    assert_eq!(code, 1);
    assert_eq!(d["first_divergence"]["module"], "blocks.3.fc2");
}

#[test]
fn a_hand_made_reference_file_calls_a_module_twice_per_step() {
    // HAND-MADE, in the reference's documented shape (no "call", shape as a
    // stat, no dtype); a module called twice per step aligns call by call.
    let dir = tempfile::tempdir().unwrap();
    let a = write(
        dir.path(),
        "a.jsonl",
        r#"{"module": "block.layers.0", "tensor": "out", "step": 0, "abs_mean": 1.234, "sum": -5.678, "max": 9.012, "shape": [1, 4096, 5120]}
{"module": "block.layers.0", "tensor": "out", "step": 0, "abs_mean": 2.0, "sum": 1.0, "max": 3.0, "shape": [1, 4096, 5120]}
{"module": "block.layers.0", "tensor": "out", "step": 1, "abs_mean": 1.0, "sum": 1.0, "max": 1.0, "shape": [1, 4096, 5120]}
"#,
    );
    let b = write(
        dir.path(),
        "b.jsonl",
        r#"{"module":"block.layers.0","tensor":"out","step":0,"abs_mean":1.234,"sum":-5.678,"max":9.012,"shape":[1,4096,5120],"call":0}
{"module":"block.layers.0","tensor":"out","step":0,"abs_mean":2.5,"sum":1.0,"max":3.0,"shape":[1,4096,5120],"call":1}
{"module":"block.layers.0","tensor":"out","step":1,"abs_mean":1.0,"sum":1.0,"max":1.0,"shape":[1,4096,5121],"call":0}
"#,
    );
    let (code, d) = diff_json(a.to_str().unwrap(), b.to_str().unwrap(), &["--show", "5"]);
    assert_eq!(code, 1);
    assert_eq!((d["compared"].as_u64(), d["divergent"].as_u64()), (Some(3), Some(2)));
    let first = &d["first_divergence"];
    assert_eq!((first["step"].as_i64(), first["call"].as_u64()), (Some(0), Some(1)));
    assert_eq!(strings(&first["stats"], "stat"), ["abs_mean"]);
    assert_eq!(first["stats"][0]["rel_error"], 0.2);
    let second = &d["next_divergences"][0];
    assert_eq!(second["shape"]["b"], serde_json::json!([1, 4096, 5121]));
    assert_eq!(second["max_rel_error"], "inf");
}

#[test]
fn malformed_lines_are_reported_with_file_and_line_and_the_rest_is_compared() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = gunzip(BASE);
    text.insert_str(0, "{\"module\": \"broken\n");
    text.push_str("{\"module\":\"x\",\"tensor\":\"out\",\"step\":\"late\"}\n");
    let b = write(dir.path(), "b.jsonl", &text);
    let (code, d) = diff_json(BASE, b.to_str().unwrap(), &[]);
    assert_eq!(code, 0, "{d}");
    assert_eq!(d["compared"], 126);
    assert_eq!(d["b"]["malformed"], 2);
    let problems: Vec<&str> = d["b"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        problems[0].starts_with(&format!("{}:1: bad JSON", b.display())),
        "{problems:?}"
    );
    assert!(
        problems[1].starts_with(&format!("{}:128: ", b.display())),
        "{problems:?}"
    );
    let out = guardscope(["diff", BASE, b.to_str().unwrap()]);
    assert!(
        out.stdout.contains("2 malformed lines in B (skipped):"),
        "{}",
        out.stdout
    );
}

#[test]
fn unreadable_or_empty_inputs_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.jsonl", "");
    let junk = write(dir.path(), "junk.jsonl", "hello\n[1,2]\n");
    let missing = dir.path().join("missing.jsonl");
    for (a, b, says) in [
        (
            BASE.to_string(),
            missing.display().to_string(),
            "No such file or directory",
        ),
        (
            empty.display().to_string(),
            BASE.to_string(),
            "no activation records in 0 lines",
        ),
        (
            BASE.to_string(),
            junk.display().to_string(),
            "no activation records in 2 lines (first problem: line 1: bad JSON",
        ),
        (
            BASE.to_string(),
            dir.path().display().to_string(),
            "a directory: diff compares two activation trace files",
        ),
    ] {
        let out = guardscope(["diff", &a, &b]);
        assert_clean_failure(&out);
        assert!(out.stderr.contains(says), "{}", out.stderr);
    }
    let out = guardscope(["diff", BASE, BASE, "--rtol", "-1"]);
    assert_eq!(out.code, 2);
    let out = guardscope(["diff", BASE, BASE, "--map", "B=/nonexistent.txt"]);
    assert_clean_failure(&out);
}

#[test]
fn allow_missing_tolerates_a_skipped_layer_but_not_a_divergent_one() {
    let dir = tempfile::tempdir().unwrap();
    let skipped: String = gunzip(BASE)
        .lines()
        .filter(|l| !l.contains("\"blocks.1.act\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let b = write(dir.path(), "skipped.jsonl", &skipped);
    let b = b.to_str().unwrap();
    let (code, d) = diff_json(BASE, b, &[]);
    assert_eq!(code, 1);
    assert_eq!(d["only_in_a"]["records"], 6);
    assert_eq!(d["only_in_a"]["groups"][0]["module"], "blocks.1.act");
    assert_eq!(d["only_in_b"]["records"], 0);
    assert_eq!(d["divergent"], 0);
    let (code, _) = diff_json(BASE, b, &["--allow-missing"]);
    assert_eq!(code, 0);
    let (code, _) = diff_json(&sample("perturbed"), b, &["--allow-missing"]);
    assert_eq!(code, 1);
}

#[test]
fn stats_and_tolerance_flags_change_what_counts() {
    // Looser tolerances count fewer divergences; --stats limits what is compared.
    let (_, loose) = diff_json(BASE, &sample("perturbed"), &["--rtol", "0.5", "--atol", "10"]);
    let (_, strict) = diff_json(BASE, &sample("perturbed"), &[]);
    assert!(loose["divergent"].as_u64() < strict["divergent"].as_u64());
    let (_, only_max) = diff_json(BASE, &sample("perturbed"), &["--stats", "max"]);
    assert_eq!(only_max["values_compared"], 126);
    assert_eq!(only_max["stats"], serde_json::json!(["max"]));
    assert_eq!(strings(&only_max["first_divergence"]["stats"], "stat"), ["max"]);
    // A stat no record has (a typo) would make every diff "equal": refused.
    let out = guardscope(["diff", BASE, &sample("perturbed"), "--stats", "max,abs_mena"]);
    assert_clean_failure(&out);
    assert!(
        out.stderr
            .contains("--stats: no aligned record has abs_mena on both sides"),
        "{}",
        out.stderr
    );
}

/// BASE with every stat of every record replaced by `value` (JSON text),
/// or with no stats at all when `value` is None.
fn base_with_stats(value: Option<&str>) -> String {
    let mut out = String::new();
    for line in gunzip(BASE).lines() {
        let mut record: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        let stats: Vec<String> = record
            .keys()
            .filter(|k| !matches!(k.as_str(), "module" | "tensor" | "step" | "call" | "shape" | "dtype"))
            .cloned()
            .collect();
        for k in stats {
            match value {
                Some(v) => record.insert(k, serde_json::from_str(v).unwrap()),
                None => record.remove(&k),
            };
        }
        out.push_str(&format!("{}\n", Value::Object(record)));
    }
    out
}

#[test]
fn a_diff_that_compared_no_value_fails_instead_of_saying_equal() {
    let dir = tempfile::tempdir().unwrap();
    for (name, value) in [
        ("no_stats", None),
        ("null", Some("null")),
        ("error", Some("\"<error: meta tensor>\"")),
        ("strings", Some("\"12.5\"")),
    ] {
        let b = write(dir.path(), &format!("{name}.jsonl"), &base_with_stats(value));
        let b = b.to_str().unwrap();
        let (code, d) = diff_json(BASE, b, &[]);
        assert_eq!(code, 1, "{name}: {d}");
        assert_eq!(d["verdict"], "nothing_compared", "{name}");
        assert_eq!(d["compared"], 126, "{name}");
        assert_eq!(d["values_compared"], d["not_comparable"], "{name}");
        let text = guardscope(["diff", BASE, b]);
        assert_eq!(text.code, 1, "{name}");
        assert!(
            text.stdout
                .contains("NOT COMPARED: 126 records aligned, but no stat value could be compared"),
            "{name}: {}",
            text.stdout
        );
        assert!(!text.stdout.contains("EQUAL"), "{name}: {}", text.stdout);
    }
    // A string that is not nan/inf/-inf/<error...> is a malformed value:
    // one problem per record, naming the stats.
    let b = write(dir.path(), "one_string.jsonl", &{
        let mut text = gunzip(BASE);
        let first = text.find("\"max\":").unwrap();
        let end = first + text[first..].find([',', '}']).unwrap();
        text.replace_range(first..end, "\"max\":\"12.5\"");
        text
    });
    let (code, d) = diff_json(BASE, b.to_str().unwrap(), &[]);
    assert_eq!(code, 0, "the other values still compare: {d}");
    assert_eq!(d["b"]["malformed"], 1);
    let problem = d["b"]["problems"][0].as_str().unwrap();
    assert!(problem.contains(":1: malformed stat value for max "), "{problem}");
}

#[test]
fn a_trace_read_only_in_part_has_no_verdict_and_exits_2() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(gunzip(BASE).as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("cut.jsonl.gz");
    std::fs::write(&cut, &gz[..gz.len() * 2 / 3]).unwrap();
    let cut = cut.to_str().unwrap();
    // --allow-missing would excuse the records the cut lost: never a pass.
    for extra in [&[][..], &["--allow-missing"][..]] {
        let mut args = vec!["diff", "--json", BASE, cut];
        args.extend_from_slice(extra);
        let out = guardscope(&args);
        // Every exit 2 says why on stderr, also when the JSON is written.
        assert!(out.stderr.contains("read only in part"), "{}", out.stderr);
        let d: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(out.code, 2, "{extra:?}: {d}");
        assert_eq!(d["verdict"], "unreadable");
        assert_eq!(d["b"]["read_errors"], 1);
        assert!(d["b"]["records"].as_u64().unwrap() > 0);
    }
    let text = guardscope(["diff", BASE, cut, "--allow-missing"]);
    assert_eq!(text.code, 2);
    assert!(
        text.stdout.contains("UNREADABLE: B could not be read to its end"),
        "{}",
        text.stdout
    );
}
