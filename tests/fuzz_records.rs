//! Structured fuzzing of the two JSONL readers, with mutations of REAL
//! records (the strategies of `fuzz_parser.rs`: cuts, flipped bytes, junk and
//! NUL bytes, invalid UTF-8, duplicated, deleted and reordered lines, giant
//! lines, known fields given the wrong JSON type):
//!
//! - step JSONL (StepLogger's) through the reader, the screening, the
//!   analysis and both renderings: nothing panics, and every line that is
//!   not valid JSON is counted as a problem;
//! - activation traces, mutated on the B side only, through `diff` against
//!   the untouched A side: nothing panics, and the verdict rule holds: a
//!   diff with no value compared as a number, or with B not read to its
//!   end, is never `equal` (the CLI's exit 0).
//!
//! 256 cases of each (`cargo test`, `make test-long`); `make test` runs 64
//! for time (GUARDSCOPE_FUZZ_CASES). For a long run:
//! `PROPTEST_CASES=200000 cargo test --release --test fuzz_records`.

mod common;

use common::mutate::{apply_edit, common_junk, edit, fuzz_config, nth_occurrence, occurrences, pos, retype_at, Edit};
use flate2::write::GzEncoder;
use guardscope::activation_diff::{self as ad, Diff, DiffError, DiffVerdict, NameMap};
use guardscope::analysis::steps::{analyse, screen};
use guardscope::input;
use guardscope::input::Problems;
use guardscope::model::Run;
use guardscope::records;
use guardscope::report::text::diff::write_diff;
use guardscope::report::text::steps as steps_report;
use guardscope::report::text::Terminal;
use guardscope::trace::ParseOptions;
use proptest::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Real step logs: one single-process run and the two ranks of another.
const STEP_FILES: &[&str] = &[
    "samples/steps/collision.jsonl",
    "samples/steps/ranks/steps_rank_0.jsonl",
    "samples/steps/ranks/steps_rank_1.jsonl",
];

/// Real activation traces: the same model eager, again, compiled, with
/// NaNs, perturbed, and with renamed modules.
const ACTIVATION_FILES: &[&str] = &[
    "samples/activations/base.jsonl.gz",
    "samples/activations/base_again.jsonl.gz",
    "samples/activations/compiled.jsonl.gz",
    "samples/activations/nan.jsonl.gz",
    "samples/activations/perturbed.jsonl.gz",
    "samples/activations/renamed.jsonl.gz",
];

/// The reader's cap on one step record (`records::steps::MAX_RECORD`).
const MAX_STEP_RECORD: usize = 4 << 20;

/// Whole lines of the first ~100 KB of each file, gunzipped: the mutations
/// work on text, and a small input keeps a case fast in debug builds.
fn load(paths: &[&str]) -> Vec<Vec<u8>> {
    paths
        .iter()
        .map(|p| {
            let text = input::read_to_string(&root().join(p)).expect("corpus file");
            let end = text.len().min(100 << 10);
            let cut = text.as_bytes()[..end]
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(end, |i| i + 1);
            text.as_bytes()[..cut].to_vec()
        })
        .collect()
}

fn step_corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    CORPUS.get_or_init(|| load(STEP_FILES))
}

fn activation_corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    CORPUS.get_or_init(|| load(ACTIVATION_FILES))
}

/// The TORCH_TRACE log of the run `collision.jsonl` timed, parsed once:
/// with it, screening and the analysis take their trace-joined paths.
fn collision_trace() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let opts = ParseOptions {
            line_cap: 1 << 20,
            verify_all_payloads: false,
        };
        guardscope::load::load(&[root().join("samples/steps/collision_trace")], &opts).expect("collision trace")
    })
}

const STEP_FIELDS: &[&str] = &[
    "\"step\": ",
    "\"start\": ",
    "\"wall_ms\": ",
    "\"rank\": ",
    "\"compiles\": ",
    "\"compile_id\": ",
    "\"function\": ",
    "\"line\": ",
    "\"recompile\": ",
    "\"seconds\": ",
    "\"backward_seconds\": ",
    "\"failed\": ",
    "\"cause\": ",
    "\"category\": ",
    "\"culprit\": ",
];

/// The six stats `trace_activations` writes for every tensor.
const STATS: &[&str] = &[
    "\"abs_mean\":",
    "\"sum\":",
    "\"min\":",
    "\"max\":",
    "\"mean\":",
    "\"std\":",
];

const ACTIVATION_FIELDS: &[&str] = &[
    "\"abs_mean\":",
    "\"sum\":",
    "\"min\":",
    "\"max\":",
    "\"mean\":",
    "\"std\":",
    "\"module\":",
    "\"tensor\":",
    "\"step\":",
    "\"call\":",
    "\"shape\":",
    "\"dtype\":",
];

const VALUES: &[&str] = &[
    "\"x\"",
    "null",
    "[]",
    "{}",
    "-1",
    "0",
    "1.5",
    "1e400",
    "-1e18",
    "1e308",
    "18446744073709551616",
    "true",
    "\"\\ud800\"",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    // What activation stats may legally be, and a malformed one.
    "NaN",
    "-Infinity",
    "\"nan\"",
    "\"inf\"",
    "\"<error: boom>\"",
    "\"12.5\"",
];

#[derive(Clone, Debug)]
enum Mutation {
    Edit(Edit),
    /// The `n`-th occurrence of field `f` gets value `v`.
    Retype(usize, usize, usize),
    /// Every stat of every record gets value `v`: the way to a B side whose
    /// values cannot be compared (all null, `<error>`, malformed).
    RetypeEveryStat(usize),
}

fn mutation(fields: usize) -> impl Strategy<Value = Mutation> {
    let mut junk = common_junk();
    junk.push(b"{\"step\": 3}\n".to_vec());
    junk.push(b"{\"module\":\"m\",\"tensor\":\"out\",\"step\":0,\"mean\":null}\n".to_vec());
    prop_oneof![
        // Giant lines under and over the readers' 4 MiB record cap.
        7 => edit(junk, [1 << 20, 5 << 20]).prop_map(Mutation::Edit),
        1 => (0..1000usize, 0..fields, 0..VALUES.len()).prop_map(|(n, f, v)| Mutation::Retype(n, f, v)),
        1 => (0..VALUES.len()).prop_map(Mutation::RetypeEveryStat),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation, fields: &[&str]) {
    match m {
        Mutation::Edit(e) => apply_edit(text, e),
        Mutation::Retype(n, f, v) => {
            let key = fields[*f].as_bytes();
            if let Some(hit) = nth_occurrence(text, key, *n) {
                retype_at(text, hit + key.len(), VALUES[*v]);
            }
        }
        Mutation::RetypeEveryStat(v) => {
            for key in STATS {
                let key = key.as_bytes();
                // From the end, so earlier offsets stay valid.
                for hit in occurrences(text, key).into_iter().rev() {
                    retype_at(text, hit + key.len(), VALUES[*v]);
                }
            }
        }
    }
}

/// The lines the readers see: ended by `\n`, `\r\n` or a lone `\r`, a last
/// one without an end included.
fn reader_lines(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', text) {
        // The LF of a CRLF: its line was ended by the CR.
        if i < start {
            continue;
        }
        out.push(&text[start..i]);
        start = if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Step records the reader must account for (each is a step or a problem)
/// and, among them, those certain to be problems: not JSON, or over the cap.
fn expected_step_lines(text: &[u8]) -> (u64, u64) {
    let (mut records, mut bad) = (0, 0);
    for line in reader_lines(text) {
        if line.len() > MAX_STEP_RECORD {
            records += 1;
            bad += 1;
            continue;
        }
        let line = String::from_utf8_lossy(line);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        records += 1;
        if serde_json::from_str::<serde_json::Value>(line).is_err() {
            bad += 1;
        }
    }
    (records, bad)
}

/// `guardscope steps` on the mutated file (and the untouched other rank,
/// and the trace when asked), as the CLI calls it, both outputs rendered.
fn run_steps(dir: &Path, which: usize, text: &[u8], with_other_rank: bool, with_trace: bool) {
    let name = Path::new(STEP_FILES[which]).file_name().unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let mut files = vec![path];
    if with_other_rank && which > 0 {
        files.push(root().join(STEP_FILES[3 - which]));
    }
    let mut problems = Problems::default();
    let mut steps = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let before = problems.count;
        let read = records::read_steps(f, &mut problems).expect("a written file opens");
        // Only the mutated file, and only when it is read as text (two
        // flipped bytes could make it start like gzip).
        if i == 0 && !text.starts_with(&[0x1f, 0x8b]) {
            let (lines, bad) = expected_step_lines(text);
            let found = problems.count - before;
            assert!(found >= bad, "{bad} lines are not JSON, {found} problems: {problems:?}");
            assert_eq!(read.len() as u64 + found, lines, "every record is a step or a problem");
        }
        steps.extend(read);
    }
    let trace = with_trace.then(collision_trace);
    let steps = screen(steps, trace, &mut problems);
    let findings = trace.map(guardscope::analysis::analyse);
    let analysis = analyse(&steps, findings.as_ref(), 10);
    serde_json::to_string(&analysis).expect("JSON renders");
    let text = steps_report::render(&analysis, 80);
    assert!(steps.is_empty() || !text.is_empty(), "a post-mortem of steps renders");
    for p in &problems.first {
        let _ = p.to_string();
    }
}

/// How B is written: plain, gzipped, or gzipped and cut (a killed writer).
#[derive(Clone, Debug)]
enum Packing {
    Plain,
    Gzip,
    CutGzip(f64),
}

fn write_b(path: &Path, text: &[u8], packing: &Packing) {
    let bytes = match packing {
        Packing::Plain => text.to_vec(),
        Packing::Gzip | Packing::CutGzip(_) => {
            let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(text).unwrap();
            let mut bytes = gz.finish().unwrap();
            if let Packing::CutGzip(at) = packing {
                // Strictly shorter: at least the last trailer byte goes.
                bytes.truncate(pos(bytes.len() - 1, *at));
            }
            bytes
        }
    };
    std::fs::write(path, bytes).unwrap();
}

/// `guardscope diff A B` with the CLI's default options, both outputs
/// rendered; the result, or why the CLI would exit 2.
fn run_diff(a: &Path, b: &Path) -> Result<Diff, DiffError> {
    let inputs = ad::Inputs {
        a,
        b,
        map_a: NameMap::default(),
        map_b: NameMap::default(),
    };
    let d = ad::diff(inputs, ad::Options::default(), None)?;
    serde_json::to_string(&d).expect("JSON renders");
    let mut out = Vec::new();
    write_diff(&mut Terminal::new(&mut out, true), &d).expect("text renders");
    Ok(d)
}

/// The verdict rule, in the CLI's terms: exit 0 (`equal`) only for a diff
/// that compared at least one value as numbers and read both sides whole.
fn check_verdict(d: &Diff, cut: bool) {
    let numbers = d.values_compared - d.not_comparable;
    if numbers == 0 {
        assert_ne!(d.verdict, DiffVerdict::Equal, "equal with no value compared: {d:#?}");
    }
    if d.a.read_errors + d.b.read_errors > 0 {
        assert_eq!(d.verdict, DiffVerdict::Unreadable, "{d:#?}");
    }
    if cut {
        assert!(d.b.read_errors > 0, "a cut gzip read as whole: {d:#?}");
        assert_ne!(d.verdict, DiffVerdict::Equal, "{d:#?}");
    }
    if d.verdict == DiffVerdict::Equal {
        assert!(d.compared > 0 && d.divergent == 0 && numbers > 0, "{d:#?}");
    }
}

proptest! {
    #![proptest_config(fuzz_config())]

    #[test]
    fn mutated_real_step_logs_never_crash_and_bad_lines_are_problems(
        which in 0..STEP_FILES.len(),
        mutations in prop::collection::vec(mutation(STEP_FIELDS.len()), 1..5),
        with_other_rank in any::<bool>(),
        with_trace in prop::bool::weighted(0.25),
    ) {
        let mut text = step_corpus()[which].clone();
        for m in &mutations {
            apply(&mut text, m, STEP_FIELDS);
        }
        let dir = tempfile::tempdir().unwrap();
        run_steps(dir.path(), which, &text, with_other_rank, with_trace);
    }

    #[test]
    fn mutated_activation_traces_never_pass_without_evidence(
        b_which in 0..ACTIVATION_FILES.len(),
        // Mostly B's own original as A, so an `equal` verdict is reachable.
        a_same in prop::bool::weighted(0.75),
        a_other in 0..ACTIVATION_FILES.len(),
        mutations in prop::collection::vec(mutation(ACTIVATION_FIELDS.len()), 0..4),
        packing in prop_oneof![
            3 => Just(Packing::Plain),
            1 => Just(Packing::Gzip),
            1 => (0.0..1.0f64).prop_map(Packing::CutGzip),
        ],
    ) {
        let mut text = activation_corpus()[b_which].clone();
        for m in &mutations {
            apply(&mut text, m, ACTIVATION_FIELDS);
        }
        let a = root().join(ACTIVATION_FILES[if a_same { b_which } else { a_other }]);
        let dir = tempfile::tempdir().unwrap();
        let b: PathBuf = dir.path().join("b.jsonl");
        write_b(&b, &text, &packing);
        match run_diff(&a, &b) {
            Ok(d) => check_verdict(&d, matches!(packing, Packing::CutGzip(_))),
            // No record in B: the CLI says why and exits 2, never 0.
            Err(DiffError::NoRecords { .. }) => {}
            Err(e) => panic!("both files exist and open: {e}"),
        }
    }
}

#[test]
fn the_unmutated_corpus_reads_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    for (which, text) in step_corpus().iter().enumerate() {
        run_steps(dir.path(), which, text, true, which == 0);
        let mut problems = Problems::default();
        records::read_steps(&root().join(STEP_FILES[which]), &mut problems).unwrap();
        assert_eq!(problems.count, 0, "{problems:?}");
    }
    let base = root().join(ACTIVATION_FILES[0]);
    let d = run_diff(&base, &root().join(ACTIVATION_FILES[1])).unwrap();
    assert_eq!(d.verdict, DiffVerdict::Equal);
    assert!(d.values_compared > d.not_comparable);
}

/// The rule's own case, without chance: B's every stat null, `<error>` or
/// malformed aligns every record and compares no number.
#[test]
fn a_b_side_without_a_comparable_value_is_never_equal() {
    let dir = tempfile::tempdir().unwrap();
    let base = root().join(ACTIVATION_FILES[0]);
    for v in ["null", "\"<error: boom>\"", "\"12.5\""] {
        let mut text = activation_corpus()[0].clone();
        let v = VALUES.iter().position(|x| *x == v).unwrap();
        apply(&mut text, &Mutation::RetypeEveryStat(v), ACTIVATION_FIELDS);
        let b = dir.path().join("b.jsonl");
        write_b(&b, &text, &Packing::Plain);
        let d = run_diff(&base, &b).unwrap();
        assert!(d.compared > 0, "{d:#?}");
        assert_eq!(d.verdict, DiffVerdict::NothingCompared, "{}", VALUES[v]);
        check_verdict(&d, false);
    }
}
