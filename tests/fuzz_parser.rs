//! Structured fuzzing of the whole pipeline (parse -> model -> analysis ->
//! JSON, terminal and HTML output) with mutations of REAL logs: cuts,
//! flipped bytes, junk and NUL bytes, invalid UTF-8, duplicated, deleted and
//! reordered lines, giant lines, and known fields given the wrong JSON type.
//! The property: nothing panics and every output still renders.
//!
//! `make test` runs 256 cases; for a long run:
//! `PROPTEST_CASES=200000 cargo test --release --test fuzz_parser`.

use guardscope::input::{self, LogSource};
use guardscope::model::{self, RunBuilder};
use guardscope::report::{html, json, terminal};
use guardscope::trace::{ParseOptions, Parser, Problems};
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
    Truncate(f64),
    FlipBytes(Vec<(f64, u8)>),
    Insert(f64, Vec<u8>),
    DuplicateLines(f64, usize),
    DeleteLines(f64, usize),
    SwapLines(f64, f64),
    GiantLine(f64, usize),
    Retype(usize, usize, usize),
    WrongMd5(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        at.clone().prop_map(Mutation::Truncate),
        prop::collection::vec((at.clone(), any::<u8>()), 1..16).prop_map(Mutation::FlipBytes),
        (
            at.clone(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..64),
                Just(vec![0u8; 32]),
                Just(b"\xff\xfe\xc3(\xa0\xa1\xe2\x28\xa1".to_vec()),
                Just(b"\n\t\t\t\n\t".to_vec()),
                Just(b"V1121 11:35:10.695000 1 x.py:1] {\"mystery_event\": {}}\n".to_vec()),
                Just(b"V1121 11:35:10.695000 1 x.py:1] {\"artifact\": {\"name\": \"recompile_reasons\"}, \"frame_id\": 0, \"frame_compile_id\": 9, \"has_payload\": \"00\"}\n".to_vec()),
            ]
        )
            .prop_map(|(a, b)| Mutation::Insert(a, b)),
        (at.clone(), 1..40usize).prop_map(|(a, n)| Mutation::DuplicateLines(a, n)),
        (at.clone(), 1..40usize).prop_map(|(a, n)| Mutation::DeleteLines(a, n)),
        (at.clone(), at.clone()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (at, prop_oneof![Just(1usize << 20), Just(17usize << 20)]).prop_map(|(a, n)| Mutation::GiantLine(a, n)),
        (0..1000usize, 0..FIELDS.len(), 0..VALUES.len()).prop_map(|(n, f, v)| Mutation::Retype(n, f, v)),
        (0..200usize).prop_map(Mutation::WrongMd5),
    ]
}

fn pos(len: usize, at: f64) -> usize {
    ((len as f64 * at) as usize).min(len)
}

fn line_starts(text: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr_iter(text).map(|i| i + 1))
        .filter(|&i| i < text.len())
        .collect()
}

fn memchr_iter(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i)
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    let lines = line_starts(text);
    let line_at = |at: f64| -> (usize, usize) {
        let i = pos(lines.len().saturating_sub(1), at);
        let start = lines.get(i).copied().unwrap_or(0);
        let end = lines.get(i + 1).copied().unwrap_or(text.len());
        (start, end)
    };
    match m {
        Mutation::Truncate(at) => text.truncate(pos(text.len(), *at)),
        Mutation::FlipBytes(flips) => {
            for (at, b) in flips {
                let i = pos(text.len(), *at);
                if i < text.len() {
                    text[i] = *b;
                }
            }
        }
        Mutation::Insert(at, bytes) => {
            let i = pos(text.len(), *at);
            text.splice(i..i, bytes.iter().copied());
        }
        Mutation::DuplicateLines(at, n) => {
            let (start, _) = line_at(*at);
            let end = lines
                .iter()
                .copied()
                .find(|&s| s > start)
                .map_or(text.len(), |_| line_at_nth(&lines, start, *n, text.len()));
            let copy = text[start..end].to_vec();
            text.splice(end..end, copy);
        }
        Mutation::DeleteLines(at, n) => {
            let (start, _) = line_at(*at);
            let end = line_at_nth(&lines, start, *n, text.len());
            text.drain(start..end);
        }
        Mutation::SwapLines(a, b) => {
            let (a, b) = (line_at(*a), line_at(*b));
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first.1 <= second.0 {
                let x = text[first.0..first.1].to_vec();
                let y = text[second.0..second.1].to_vec();
                text.splice(second.0..second.1, x);
                text.splice(first.0..first.1, y);
            }
        }
        Mutation::GiantLine(at, n) => {
            let (start, _) = line_at(*at);
            let mut giant = vec![b'{'; *n];
            giant.push(b'\n');
            text.splice(start..start, giant);
        }
        Mutation::Retype(n, f, v) => {
            let key = FIELDS[*f].as_bytes();
            if let Some(hit) = nth_occurrence(text, key, *n) {
                let from = hit + key.len();
                let to = text[from..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b'\n'))
                    .map_or(text.len(), |p| from + p);
                text.splice(from..to, VALUES[*v].bytes());
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

/// Where the `n`-th (modulo the count) occurrence of `key` starts.
fn nth_occurrence(text: &[u8], key: &[u8], n: usize) -> Option<usize> {
    let hits: Vec<usize> = text
        .windows(key.len())
        .enumerate()
        .filter(|(_, w)| *w == key)
        .map(|(i, _)| i)
        .collect();
    hits.get(n % hits.len().max(1)).copied()
}

fn line_at_nth(lines: &[usize], start: usize, n: usize, len: usize) -> usize {
    let i = lines.iter().position(|&s| s == start).unwrap_or(0);
    lines.get(i + n).copied().unwrap_or(len)
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
    let stats = Parser::new(source.display.clone(), opts, &mut problems).run(text, &mut |ev| builder.add(ev));
    let run = model::merge(vec![(builder.finish(&source, stats), problems)]);
    let findings = guardscope::analysis::analyse(&run);
    serde_json::to_string(&json::summary(&findings)).expect("JSON renders");
    let mut out = Vec::new();
    terminal::write_summary(
        &mut out,
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
    })
    .expect("HTML renders");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

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
}

#[test]
fn the_unmutated_corpus_parses_cleanly() {
    for text in corpus() {
        run_everything(text);
    }
}
