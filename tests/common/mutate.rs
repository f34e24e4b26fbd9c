//! Mutations of real input files, shared by the fuzz tests
//! (`fuzz_parser.rs` for TORCH_TRACE logs, `fuzz_records.rs` for step and
//! activation JSONL): byte and line edits that stand for a file cut short,
//! corrupted bytes, inserted junk, lines duplicated, lost or reordered, and
//! giant lines. Each test adds the edits that know its format.

use proptest::prelude::*;

/// Cases of each fuzzing proptest: 256 (the full count, `cargo test` and
/// `make test-long`), fewer where GUARDSCOPE_FUZZ_CASES says (`make test`,
/// for time), more for a long run (PROPTEST_CASES, which wins).
pub fn fuzz_config() -> ProptestConfig {
    let from = |name| std::env::var(name).ok().and_then(|n| n.parse().ok());
    ProptestConfig {
        cases: from("PROPTEST_CASES")
            .or_else(|| from("GUARDSCOPE_FUZZ_CASES"))
            .unwrap_or(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[derive(Debug, Clone)]
pub enum Edit {
    Truncate(f64),
    FlipBytes(Vec<(f64, u8)>),
    Insert(f64, Vec<u8>),
    DuplicateLines(f64, usize),
    DeleteLines(f64, usize),
    SwapLines(f64, f64),
    GiantLine(f64, usize),
}

/// The edits, inserting one of `junk` (or random bytes) and giant lines of
/// the given sizes; positions are fractions of the text.
pub fn edit(junk: Vec<Vec<u8>>, giants: [usize; 2]) -> impl Strategy<Value = Edit> {
    let at = 0.0..1.0f64;
    let inserts = prop_oneof![prop::collection::vec(any::<u8>(), 1..64), prop::sample::select(junk),];
    prop_oneof![
        at.clone().prop_map(Edit::Truncate),
        prop::collection::vec((at.clone(), any::<u8>()), 1..16).prop_map(Edit::FlipBytes),
        (at.clone(), inserts).prop_map(|(a, b)| Edit::Insert(a, b)),
        (at.clone(), 1..40usize).prop_map(|(a, n)| Edit::DuplicateLines(a, n)),
        (at.clone(), 1..40usize).prop_map(|(a, n)| Edit::DeleteLines(a, n)),
        (at.clone(), at.clone()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (at, prop::sample::select(giants.to_vec())).prop_map(|(a, n)| Edit::GiantLine(a, n)),
    ]
}

/// Junk every format should survive: zeros, invalid UTF-8, stray payload
/// tabs, CR line ends.
pub fn common_junk() -> Vec<Vec<u8>> {
    vec![
        vec![0u8; 32],
        b"\xff\xfe\xc3(\xa0\xa1\xe2\x28\xa1".to_vec(),
        b"\n\t\t\t\n\t".to_vec(),
        b"\r\r\n\r".to_vec(),
    ]
}

pub fn apply_edit(text: &mut Vec<u8>, e: &Edit) {
    let lines = line_starts(text);
    let line_at = |at: f64| -> (usize, usize) {
        let i = pos(lines.len().saturating_sub(1), at);
        let start = lines.get(i).copied().unwrap_or(0);
        let end = lines.get(i + 1).copied().unwrap_or(text.len());
        (start, end)
    };
    match e {
        Edit::Truncate(at) => text.truncate(pos(text.len(), *at)),
        Edit::FlipBytes(flips) => {
            for (at, b) in flips {
                let i = pos(text.len(), *at);
                if i < text.len() {
                    text[i] = *b;
                }
            }
        }
        Edit::Insert(at, bytes) => {
            let i = pos(text.len(), *at);
            text.splice(i..i, bytes.iter().copied());
        }
        Edit::DuplicateLines(at, n) => {
            let (start, _) = line_at(*at);
            let end = line_at_nth(&lines, start, *n, text.len());
            let copy = text[start..end].to_vec();
            text.splice(end..end, copy);
        }
        Edit::DeleteLines(at, n) => {
            let (start, _) = line_at(*at);
            let end = line_at_nth(&lines, start, *n, text.len());
            text.drain(start..end);
        }
        Edit::SwapLines(a, b) => {
            let (a, b) = (line_at(*a), line_at(*b));
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first.1 <= second.0 {
                let x = text[first.0..first.1].to_vec();
                let y = text[second.0..second.1].to_vec();
                text.splice(second.0..second.1, x);
                text.splice(first.0..first.1, y);
            }
        }
        Edit::GiantLine(at, n) => {
            let (start, _) = line_at(*at);
            let mut giant = vec![b'{'; *n];
            giant.push(b'\n');
            text.splice(start..start, giant);
        }
    }
}

pub fn pos(len: usize, at: f64) -> usize {
    ((len as f64 * at) as usize).min(len)
}

pub fn line_starts(text: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text).map(|i| i + 1))
        .filter(|&i| i < text.len())
        .collect()
}

fn line_at_nth(lines: &[usize], start: usize, n: usize, len: usize) -> usize {
    let i = lines.iter().position(|&s| s == start).unwrap_or(0);
    lines.get(i + n).copied().unwrap_or(len)
}

/// memchr, not `windows`: a giant line makes the text megabytes long, and
/// a byte-by-byte scan of it dominates a case in debug builds.
pub fn occurrences(text: &[u8], key: &[u8]) -> Vec<usize> {
    memchr::memmem::find_iter(text, key).collect()
}

/// Where the `n`-th (modulo the count) occurrence of `key` starts.
pub fn nth_occurrence(text: &[u8], key: &[u8], n: usize) -> Option<usize> {
    let hits = occurrences(text, key);
    hits.get(n % hits.len().max(1)).copied()
}

/// Replaces the JSON value starting at `from` (up to `,`, `}` or the line end).
pub fn retype_at(text: &mut Vec<u8>, from: usize, value: &str) {
    let to = text[from..]
        .iter()
        .position(|b| matches!(b, b',' | b'}' | b'\n'))
        .map_or(text.len(), |p| from + p);
    text.splice(from..to, value.bytes());
}
