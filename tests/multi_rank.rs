//! Distributed runs read as one job: each compiled function once, with the
//! ranks that compiled it differently; compile time as the job waited it
//! (wall clock) beside the sum over processes; the same recompile on many
//! ranks said once. On real logs of several ranks (tests/corpus ddp_gloo:
//! DDP over gloo, rank 1 fed a short batch; samples/traces/ranks64: 64
//! ranks, two of them odd, then every rank recompiles for eval).

mod common;

use common::guardscope;
use serde_json::Value;

fn summary_json(path: &str) -> Value {
    let out = guardscope(["summary", path, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// The union of the compiles' [start, start + duration] intervals, from
/// the per-process frames of the JSON document.
fn union_of_compiles(doc: &Value) -> f64 {
    let mut spans: Vec<(f64, f64)> = doc["frames"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["compiles"].as_array().unwrap())
        .filter_map(|c| Some((c["start"].as_f64()?, c["start"].as_f64()? + c["duration_s"].as_f64()?)))
        .collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut total = 0.0;
    let mut end = f64::NEG_INFINITY;
    for (s, e) in spans {
        if e > end {
            total += e - s.max(end);
            end = e;
        }
    }
    total
}

#[test]
fn ddp_ranks_copies_are_one_frame_and_the_odd_rank_is_named() {
    let path = "tests/corpus/logs/torch2.15.0/ddp_gloo";
    let doc = summary_json(path);
    let t = &doc["totals"];
    assert_eq!(t["frames"], 4);
    assert_eq!(t["process_frames"], 8);
    assert_eq!(t["ranks"], 2);
    let (wall, summed) = (
        t["compile_wall_seconds"].as_f64().unwrap(),
        t["compile_seconds"].as_f64().unwrap(),
    );
    assert!((wall - union_of_compiles(&doc)).abs() < 1e-6, "{wall}");
    assert!(wall < summed, "two ranks compiled side by side: {wall} vs {summed}");

    let groups = doc["frame_groups"].as_array().unwrap();
    assert_eq!(groups.len(), 4);
    let ddp = &groups[0];
    assert_eq!(ddp["name"], "DistributedDataParallel via inner");
    assert_eq!(ddp["ranks"], serde_json::json!([0, 1]));
    assert_eq!(ddp["typical_compiles"], 1);
    assert_eq!(
        ddp["differing"],
        serde_json::json!([{"rank": 1, "compiles": 2, "causes": ["shape_input"], "typical_compiles": 1, "typical_causes": []}])
    );
    for g in &groups[1..] {
        assert_eq!(g["differing"], serde_json::json!([]), "{g}");
    }
    // Every copy is listed once, by its index in `frames`.
    let mut copies: Vec<u64> = groups
        .iter()
        .flat_map(|g| g["frames"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap()))
        .collect();
    copies.sort_unstable();
    assert_eq!(copies, (0..8).collect::<Vec<u64>>());

    let text = guardscope(["summary", path]).stdout;
    assert!(
        text.contains("4 frames (8 copies across 2 processes) · 9 compiles · 1 recompile"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{wall:.2} s compiling (wall clock; {summed:.2} s summed over processes;"
        )),
        "{text}"
    );
    let row = text
        .lines()
        .find(|l| l.starts_with("  0 ") && l.contains("DistributedDataParallel via inner"))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // frame, name (3 words), location, ranks, compiles, attempts, seconds, differs...
    assert_eq!(cells[0], "0", "{row}");
    assert_eq!(&cells[5..8], ["2", "1", "2"], "{row}");
    assert!(row.ends_with("r1: 2 compiles (most 1)"), "{row}");
    assert_eq!(text.matches("DistributedDataParallel via inner  ").count(), 1, "{text}");
}

#[test]
fn one_process_keeps_its_table_and_a_single_compile_time() {
    let doc = summary_json("samples/traces/collision");
    let t = &doc["totals"];
    assert_eq!(t["frames"], t["process_frames"]);
    let text = guardscope(["summary", "samples/traces/collision"]).stdout;
    assert!(!text.contains("wall clock"), "{text}");
    assert!(!text.contains("differs"), "{text}");
}

#[test]
fn sixty_four_ranks_read_as_one_frame_with_the_two_odd_ranks_as_problems() {
    let path = "samples/traces/ranks64";
    let doc = summary_json(path);
    let t = &doc["totals"];
    assert_eq!(
        (t["frames"].as_u64(), t["process_frames"].as_u64()),
        (Some(1), Some(64))
    );
    assert_eq!((t["ranks"].as_u64(), t["recompiles"].as_u64()), (Some(64), Some(66)));
    let wall = t["compile_wall_seconds"].as_f64().unwrap();
    assert!((wall - union_of_compiles(&doc)).abs() < 1e-6, "{wall}");

    let group = &doc["frame_groups"][0];
    assert_eq!(group["ranks"].as_array().unwrap().len(), 64);
    assert_eq!(group["typical_compiles"], 2);
    assert_eq!(
        group["differing"],
        serde_json::json!([
            {"rank": 17, "compiles": 3, "causes": ["shape_input", "torch_global_state"],
             "typical_compiles": 2, "typical_causes": ["torch_global_state"]},
            {"rank": 42, "compiles": 3, "causes": ["dtype", "torch_global_state"],
             "typical_compiles": 2, "typical_causes": ["torch_global_state"]},
        ])
    );

    // Every rank's train -> eval recompile is one expected group; only what
    // the odd ranks did beyond the others is a problem.
    let culprits: Vec<(String, String, usize, String)> = doc["culprits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["category"].as_str().unwrap().to_string(),
                c["severity"].as_str().unwrap().to_string(),
                c["ranks"].as_array().unwrap().len(),
                c["called_from"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    let expect = |cat: &str, sev: &str, ranks: usize, from: &str| (cat.into(), sev.into(), ranks, from.into());
    assert_eq!(
        culprits,
        [
            expect("shape_input", "problem", 1, "ranks64.py:39"),
            expect("dtype", "problem", 1, "ranks64.py:39"),
            expect("torch_global_state", "expected", 64, "ranks64.py:49"),
        ]
    );

    let text = guardscope(["summary", path]).stdout;
    assert!(
        text.contains("1 frame (64 copies across 64 processes) · 130 compiles · 66 recompiles"),
        "{text}"
    );
    assert!(
        text.contains("r17: 3 compiles (most 2); r42: 3 compiles (most 2)"),
        "{text}"
    );
    assert!(
        text.contains("0/1, 0/2 frame 0 (Sequential via inner) on 64 ranks (0-63): torch global state: grad_mode"),
        "{text}"
    );
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Recompiles"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split("  [").next().unwrap())
        .collect();
    assert_eq!(listed.len(), 4, "{listed:?}");
    assert!(listed[0].starts_with("  r0-16, 18-41, 43-63 0/1"), "{listed:?}");
    assert!(listed[2].starts_with("  r17, 42 0/2"), "{listed:?}");

    // check counts every rank's recompile and lists each once.
    let check = guardscope(["check", path]);
    assert_eq!(check.code, 1);
    assert!(
        check.stdout.contains("FAIL: 66 recompiles from 3 causes (allowed: 0)"),
        "{}",
        check.stdout
    );
    let entries: Vec<&str> = check.stdout.lines().filter(|l| l.starts_with("  0/")).collect();
    assert_eq!(entries.len(), 4, "{entries:?}");
    assert!(
        entries[0].starts_with("  0/1 rank 17 frame 0 (Sequential via inner) [shape_input, problem]"),
        "{entries:?}"
    );
    assert!(
        entries[1].starts_with("  0/1 rank 42 frame 0 (Sequential via inner) [dtype, problem]"),
        "{entries:?}"
    );
    assert!(
        entries[2].starts_with(
            "  0/1 frame 0 (Sequential via inner) on 62 ranks (0-16, 18-41, 43-63) [torch_global_state, expected]"
        ),
        "{entries:?}"
    );
    assert!(
        entries[3]
            .starts_with("  0/2 frame 0 (Sequential via inner) on 2 ranks (17, 42) [torch_global_state, expected]"),
        "{entries:?}"
    );
}
