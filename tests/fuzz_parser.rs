//! Structured fuzzing of the whole pipeline (parse -> model -> analysis ->
//! JSON, terminal and HTML output) with mutations of REAL logs: cuts,
//! flipped bytes, junk and NUL bytes, invalid UTF-8, duplicated, deleted and
//! reordered lines, giant lines, and known fields given the wrong JSON type.
//! The properties: nothing panics, every output still renders, and a log
//! cut into parts parsed apart gives the model one parse gives.
//!
//! 256 cases of each (`cargo test`, `make test-long`); `make test` runs 64
//! for time (GUARDSCOPE_FUZZ_CASES). For a long run:
//! `PROPTEST_CASES=200000 cargo test --release --test fuzz_parser`.

mod common;

use common::mutate::{apply_edit, common_junk, edit, fuzz_config, nth_occurrence, retype_at, Edit};
use guardscope::input::Problems;
use guardscope::input::{self, LogSource};
use guardscope::load::{load_sources, LoadOptions};
use guardscope::model::{self, RunBuilder};
use guardscope::report::text::summary as terminal;
use guardscope::report::text::Terminal;
use guardscope::report::{html, json};
use guardscope::trace::{ParseOptions, Parser};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The first ~256 KB (whole lines) of real logs of several torch versions.
fn corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        [
            "samples/traces/collision/dedicated_log_torch_trace.log.gz",
            "samples/traces/graph_breaks/dedicated_log_torch_trace.log.gz",
            "samples/traces/reasons/cache_limit/dedicated_log_torch_trace.log.gz",
            "tests/data/tlparse/comp_failure.log.gz",
            "tests/data/tlparse/simple.log.gz",
            "tests/data/tlparse/cache_hit_miss.log.gz",
        ]
        .iter()
        .map(|p| {
            let text = input::read_to_string(&root.join(p)).expect("corpus log");
            let mut end = text.len().min(256 << 10);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let cut = text[..end].rfind('\n').map_or(end, |i| i + 1);
            text.as_bytes()[..cut].to_vec()
        })
        .collect()
    })
}

const FIELDS: &[&str] = &[
    "\"frame_id\": ",
    "\"frame_compile_id\": ",
    "\"attempt\": ",
    "\"has_payload\": ",
    "\"start_time\": ",
    "\"co_name\": ",
    "\"co_firstlineno\": ",
    "\"entire_frame_compile_time_s\": ",
    "\"fail_type\": ",
    "\"stack\": ",
    "\"name\": ",
    "\"str\": ",
    "\"compiled_autograd_id\": ",
];

const VALUES: &[&str] = &[
    "\"x\"",
    "null",
    "[]",
    "{}",
    "-1",
    "1e400",
    "18446744073709551616",
    "true",
    "\"\\ud800\"",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
];

#[derive(Clone, Debug)]
enum Mutation {
    Edit(Edit),
    Retype(usize, usize, usize),
    WrongMd5(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let mut junk = common_junk();
    junk.push(b"V1121 11:35:10.695000 1 x.py:1] {\"mystery_event\": {}}\n".to_vec());
    junk.push(b"V1121 11:35:10.695000 1 x.py:1] {\"artifact\": {\"name\": \"recompile_reasons\"}, \"frame_id\": 0, \"frame_compile_id\": 9, \"has_payload\": \"00\"}\n".to_vec());
    prop_oneof![
        7 => edit(junk, [1 << 20, 17 << 20]).prop_map(Mutation::Edit),
        1 => (0..1000usize, 0..FIELDS.len(), 0..VALUES.len()).prop_map(|(n, f, v)| Mutation::Retype(n, f, v)),
        1 => (0..200usize).prop_map(Mutation::WrongMd5),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    match m {
        Mutation::Edit(e) => apply_edit(text, e),
        Mutation::Retype(n, f, v) => {
            let key = FIELDS[*f].as_bytes();
            if let Some(hit) = nth_occurrence(text, key, *n) {
                retype_at(text, hit + key.len(), VALUES[*v]);
            }
        }
        Mutation::WrongMd5(n) => {
            let key = b"\"has_payload\": \"";
            if let Some(hit) = nth_occurrence(text, key, *n) {
                let i = hit + key.len();
                if i < text.len() {
                    text[i] = if text[i] == b'0' { b'1' } else { b'0' };
                }
            }
        }
    }
}

/// The whole pipeline on bytes, every output rendered.
fn run_everything(text: &[u8]) {
    let source = LogSource {
        path: PathBuf::from("fuzz.log"),
        display: Arc::from("fuzz.log"),
        rank: None,
        year: 2026,
        size: text.len() as u64,
    };
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(&source);
    let opts = ParseOptions {
        line_cap: 1 << 20,
        verify_all_payloads: true,
    };
    let stats = Parser::new(source.display.clone(), opts, &mut problems).run(text, &mut |mut ev| builder.add(&mut ev));
    let run = model::merge(vec![(builder.finish(&source, stats), problems)]);
    let findings = guardscope::analysis::analyse(&run);
    serde_json::to_string(&json::summary(&findings)).expect("JSON renders");
    let mut out = Vec::new();
    terminal::write_summary(
        &mut Terminal::new(&mut out, true),
        &findings,
        &terminal::TerminalOptions {
            width: 100,
            verbose: true,
        },
    )
    .expect("terminal summary renders");
    html::render(&html::PageInput {
        findings: &findings,
        steps: &[],
        activations: None,
        title: "fuzz".into(),
        options: Default::default(),
    })
    .expect("HTML renders");
}

proptest! {
    #![proptest_config(fuzz_config())]

    #[test]
    fn mutated_real_logs_never_crash(
        which in 0..6usize,
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let mut text = corpus()[which].clone();
        for m in &mutations {
            apply(&mut text, m);
        }
        run_everything(&text);
    }

    /// Cut into parts parsed apart (as the CLI parses a large file on many
    /// cores), a mutated log gives the model one parse gives.
    #[test]
    fn mutated_real_logs_parse_the_same_in_parts(
        which in 0..6usize,
        mutations in prop::collection::vec(mutation(), 1..5),
        parts in 2..40usize,
    ) {
        let mut text = corpus()[which].clone();
        for m in &mutations {
            apply(&mut text, m);
        }
        input::use_memory_maps();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fuzz.log");
        std::fs::write(&path, &text).unwrap();
        let model = |parts| {
            let sources = input::discover(std::slice::from_ref(&path)).unwrap().sources;
            let opts = LoadOptions { parts: Some(parts), ..LoadOptions::default() };
            format!("{:#?}", load_sources(&sources, &opts).unwrap())
        };
        let (whole, in_parts) = (model(1), model(parts));
        let at = whole.lines().zip(in_parts.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let around = |m: &str| m.lines().skip(at.saturating_sub(8)).take(12).collect::<Vec<_>>().join("\n");
        prop_assert!(whole == in_parts, "in {} parts, whole:\n{}\nin parts:\n{}", parts, around(&whole), around(&in_parts));
    }
}

#[test]
fn the_unmutated_corpus_parses_cleanly() {
    for text in corpus() {
        run_everything(text);
    }
}
