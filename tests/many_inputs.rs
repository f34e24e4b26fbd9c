//! Many files and many processes: a directory of rank logs parses in
//! parallel with the same result as one file at a time, and processes
//! whose logs were concatenated into one file stay apart.

mod common;

use common::{root, summary_json};
use guardscope::input;
use guardscope::load::{load_sources, LoadOptions};
use guardscope::report::json;
use std::io::Write;

/// Eight real logs of different programs, named as the ranks of one job.
fn eight_rank_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let samples = [
        "collision",
        "collision_fixed",
        "graph_breaks",
        "dynamic_shapes",
        "reasons/cache_limit",
        "reasons/closure_hook_state",
        "reasons/nn_module_attr",
        "reasons/torch_global_state",
    ];
    for (rank, sample) in samples.iter().enumerate() {
        let from = root()
            .join("samples/traces")
            .join(sample)
            .join("dedicated_log_torch_trace.log.gz");
        let to = dir
            .path()
            .join(format!("dedicated_log_torch_trace_rank_{rank}_x.log.gz"));
        std::fs::copy(from, to).unwrap();
    }
    dir
}

#[test]
fn parallel_parse_of_eight_ranks_equals_the_sequential_one() {
    let dir = eight_rank_dir();
    let sources = input::discover(&[dir.path().to_path_buf()]).unwrap().sources;
    assert_eq!(sources.len(), 8);
    let parse = |threads| {
        let run = load_sources(
            &sources,
            &LoadOptions {
                threads: Some(threads),
                ..LoadOptions::default()
            },
        )
        .unwrap();
        serde_json::to_value(json::summary(&guardscope::analysis::analyse(&run))).unwrap()
    };
    let sequential = parse(1);
    let parallel = parse(2);
    assert!(sequential == parallel, "parallel parse differs from sequential");
    let ranks: Vec<u64> = sequential["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(sequential["totals"]["ranks"], 8);
}

#[test]
fn processes_concatenated_into_one_file_are_kept_apart_by_pid() {
    let dir = tempfile::tempdir().unwrap();
    let joined = dir.path().join("dedicated_log_torch_trace.log");
    let mut out = std::fs::File::create(&joined).unwrap();
    for sample in ["collision", "graph_breaks"] {
        let log = root()
            .join("samples/traces")
            .join(sample)
            .join("dedicated_log_torch_trace.log.gz");
        out.write_all(input::read_to_string(&log).unwrap().as_bytes()).unwrap();
    }
    drop(out);
    let collision = summary_json(&root().join("samples/traces/collision"));
    let graph_breaks = summary_json(&root().join("samples/traces/graph_breaks"));
    let both = summary_json(&joined);
    assert_eq!(both["totals"]["processes"], 2);
    let n = |s: &serde_json::Value, k: &str| s["totals"][k].as_u64().unwrap();
    for k in ["frames", "compiles", "recompiles"] {
        assert_eq!(n(&both, k), n(&collision, k) + n(&graph_breaks, k), "{k}");
    }
    // Both processes have a frame 0; neither absorbed the other's compiles.
    let frame0: Vec<(u64, usize)> = both["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["frame_id"] == 0)
        .map(|f| (f["pid"].as_u64().unwrap(), f["compiles"].as_array().unwrap().len()))
        .collect();
    assert_eq!(frame0.len(), 2);
    assert_eq!(
        frame0[0].1,
        collision["frames"][0]["compiles"].as_array().unwrap().len()
    );
    assert_eq!(
        frame0[1].1,
        graph_breaks["frames"][0]["compiles"].as_array().unwrap().len()
    );
}
