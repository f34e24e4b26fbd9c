//! A large log is cut into parts parsed on threads of their own (issue 22):
//! the model must be exactly the one a single parse of the whole file
//! builds, problems, line numbers and counters included, on every real
//! sample and every hostile input, however many parts it is cut into.
//! (Mutated logs: `fuzz_parser.rs`.)

mod common;

use guardscope::input;
use guardscope::load::{load_sources, LoadOptions};
use guardscope::trace::{chunks, ParseOptions};
use rayon::prelude::*;
use std::path::Path;

/// The whole model of one file, parsed in `parts` parts.
fn model(path: &Path, parts: usize, verify_all_payloads: bool) -> String {
    model_ahead(path, parts, verify_all_payloads, None)
}

/// The same, with the event memory parts may hold ahead of the builder.
fn model_ahead(path: &Path, parts: usize, verify_all_payloads: bool, ahead_bytes: Option<usize>) -> String {
    let sources = input::discover(&[path.to_path_buf()]).expect("discover").sources;
    assert_eq!(sources.len(), 1, "{}", path.display());
    let run = load_sources(
        &sources,
        &LoadOptions {
            parse: ParseOptions {
                verify_all_payloads,
                ..ParseOptions::default()
            },
            parts: Some(parts),
            ahead_bytes,
            ..LoadOptions::default()
        },
    )
    .expect("load");
    format!("{run:#?}")
}

#[test]
fn every_sample_and_hostile_log_parses_the_same_in_parts() {
    // Parts are read through memory maps, as the CLI reads them.
    input::use_memory_maps();
    let work = tempfile::tempdir().unwrap();
    let logs = common::all_trace_logs();
    assert!(logs.len() > 100, "found {} logs", logs.len());
    // One log per thread: a single parse leaves most of a core idle, and
    // this test is one of `make test`'s longest.
    let cut: usize = logs
        .par_iter()
        .enumerate()
        .map(|(i, log)| {
            // A gzip file is never cut (its parts cannot be found without
            // inflating it): cut its text instead.
            let plain = work.path().join(format!("{i}.log"));
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut input::open(log).expect("open"), &mut text).unwrap_or_default();
            std::fs::write(&plain, &text).unwrap();
            for verify in [false, true] {
                let whole = model(&plain, 1, verify);
                for parts in [2, 3, 7, 64] {
                    let in_parts = model(&plain, parts, verify);
                    assert!(
                        whole == in_parts,
                        "{} in {parts} parts (verify_all {verify}) differs:\n{}",
                        log.display(),
                        first_difference(&whole, &in_parts)
                    );
                }
                // Every part after the builder's waits for it (a byte of
                // room): the same model, and no part waits forever.
                let waiting = model_ahead(&plain, 7, verify, Some(1));
                assert!(
                    whole == waiting,
                    "{} in 7 parts that wait for the builder (verify_all {verify}) differs:\n{}",
                    log.display(),
                    first_difference(&whole, &waiting)
                );
            }
            usize::from(chunks::split(&text, 2).len() == 2)
        })
        .sum();
    // The comparison means something only if files were really cut.
    assert!(
        cut * 10 >= logs.len() * 9,
        "only {cut} of {} logs could be cut",
        logs.len()
    );
}

fn first_difference(a: &str, b: &str) -> String {
    let at = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
    let around = |s: &str| {
        s.lines()
            .skip(at.saturating_sub(3))
            .take(7)
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!("--- whole, line {at}:\n{}\n--- in parts:\n{}", around(a), around(b))
}

/// HAND-MADE corner (found by the proptest in fuzz_parser.rs): a line over
/// the line cap that is not payload ends a run of orphan payload lines like
/// any other line, so a part may start at it. Before, the whole-file parse
/// kept the run going across it and reported one orphan run where parts
/// reported two.
#[test]
fn a_line_over_the_cap_ends_an_orphan_run_as_a_part_start_does() {
    input::use_memory_maps();
    let mut text: Vec<u8> = (0..50)
        .flat_map(|i| format!("\torphan payload {i:03}\n").into_bytes())
        .collect();
    text.extend(std::iter::repeat_n(b'{', 100));
    text.extend(b"\n\tanother orphan\n");
    text.extend(b"I1121 11:35:10.695000 2524 torch/_dynamo/convert_frame.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orphans.log");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(
        chunks::split(&text, 2)[1].start,
        50 * 20,
        "the second part starts at the long line"
    );
    let sources = input::discover(std::slice::from_ref(&path)).unwrap().sources;
    let load = |parts| {
        let opts = LoadOptions {
            parse: ParseOptions {
                line_cap: 64,
                ..ParseOptions::default()
            },
            parts: Some(parts),
            ..LoadOptions::default()
        };
        load_sources(&sources, &opts).unwrap()
    };
    let whole = load(1);
    let orphan_lines: Vec<u64> = whole
        .problems
        .first
        .iter()
        .filter(|p| p.kind == input::ProblemKind::OrphanPayload)
        .map(|p| p.line)
        .collect();
    assert_eq!(orphan_lines, [1, 52], "two orphan runs, split by the long line 51");
    assert_eq!(format!("{whole:#?}"), format!("{:#?}", load(2)));
}
