//! The envelope's fast path (a scan that skips bodies without building
//! them) must read every envelope exactly as serde_json does, or leave it
//! to serde_json: on every envelope of every real and hostile log, and on
//! those envelopes mutated byte by byte.

mod common;

use guardscope::input;
use guardscope::trace::envelope::{parse, parse_fast, parse_with_serde};
use proptest::prelude::*;
use std::sync::LazyLock;

/// The JSON after the glog prefix of each line of every log the tests and
/// samples use (gz inflated).
static ENVELOPES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let files = common::all_trace_logs();
    let mut out = Vec::new();
    for f in files {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut input::open(&f).expect("open"), &mut text).unwrap_or_default();
        for line in text.split(|&b| b == b'\n') {
            if line.first() == Some(&b'\t') {
                continue;
            }
            let Some(at) = memchr::memmem::find(line, b"] ") else {
                continue;
            };
            if let Ok(json) = std::str::from_utf8(&line[at + 2..]) {
                out.push(json.trim_end_matches('\r').to_string());
            }
        }
    }
    out
});

/// The fast path's answer, where it gives one, is serde_json's.
fn agrees(message: &str) -> Result<(), String> {
    if let Some(fast) = parse_fast(message) {
        let slow = parse_with_serde(message);
        let (fast, slow) = (format!("{fast:?}"), format!("{slow:?}"));
        if slow != format!("Ok({fast})") {
            return Err(format!("{message:?}\n fast: {fast}\n serde: {slow}"));
        }
    }
    Ok(())
}

#[test]
fn every_real_envelope_reads_as_serde_reads_it_and_nearly_all_fast() {
    let envelopes = &*ENVELOPES;
    assert!(envelopes.len() > 10_000, "found {} envelopes", envelopes.len());
    let mut fast = 0;
    for m in envelopes {
        agrees(m).unwrap();
        fast += usize::from(parse_fast(m).is_some());
        // The public parse is one or the other.
        assert_eq!(format!("{:?}", parse(m)), format!("{:?}", parse_with_serde(m)), "{m}");
    }
    // The speed-up is real only if torch's envelopes take the fast path.
    let valid = envelopes.iter().filter(|m| parse_with_serde(m).is_ok()).count();
    assert!(
        fast * 100 >= valid * 99,
        "only {fast} of {valid} valid envelopes took the fast path"
    );
}

/// HAND-MADE corners: spellings serde_json accepts or refuses that the
/// fast path must not read differently.
#[test]
fn corner_spellings_agree() {
    for m in [
        r#"{"a": 1, "frame_id": 2, "frame_id": 3, "b": 4}"#,
        r#"{"stack": [1], "stack": [2]}"#,
        r#"{"stack": []}"#,
        r#"{"frame_id": null, "has_payload": null, "rank": 0, "x": {}}"#,
        r#"{"frame_id": 4294967296, "x": {}}"#,
        r#"{"frame_id": 1.0, "x": {}}"#,
        r#"{"frame_id": -0, "x": {}}"#,
        r#"{"has_payload": "a\"b", "x": {}}"#,
        r#"{"x": "\ud800"}"#,
        r#"{"": 1}"#,
        r#" { "x" : [ ] } "#,
        "{\"x\": [1,\t2]}\u{a0}",
        r#"{"x": {"y": [true, false, null, -1.5e-3, "s"]}, "rank": 7}"#,
    ] {
        agrees(m).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Real envelopes with bytes deleted, replaced or inserted: the fast
    /// path agrees with serde_json or leaves the line to it.
    #[test]
    fn mutated_real_envelopes_agree(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(
            b"{}[]\":,\\ 0123456789.eE+-tfnulx\t\n\x01".to_vec(),
        )), 1..4),
    ) {
        let envelopes = &*ENVELOPES;
        let mut m = envelopes[pick.index(envelopes.len())].clone().into_bytes();
        for (at, op, byte) in edits {
            let i = at.index(m.len() + 1);
            match op {
                0 if i < m.len() => _ = m.remove(i),
                1 if i < m.len() => m[i] = byte,
                _ => m.insert(i, byte),
            }
        }
        if let Ok(m) = String::from_utf8(m) {
            prop_assert!(agrees(&m).is_ok(), "{}", agrees(&m).unwrap_err());
        }
    }
}
