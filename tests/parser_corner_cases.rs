//! Corner cases of the line/envelope/payload parser on small HAND-MADE
//! snippets (labelled as such: not real logs; real logs are in samples/ and
//! tests/data/). Each checks what is counted, reported, and kept.

use guardscope::input::{ProblemKind, Problems};
use guardscope::trace::{Event, EventData, ParseOptions, Parser};
use std::sync::Arc;

const PREFIX: &str = "V1121 11:35:10.695000 2524 torch/_dynamo/guards.py:1]";

fn md5_hex(s: &str) -> String {
    use md5::{Digest, Md5};
    Md5::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn parse(text: &[u8], opts: ParseOptions) -> (Vec<Event>, Problems, guardscope::trace::ParseStats) {
    let mut problems = Problems::default();
    let mut events = Vec::new();
    let stats = Parser::new(Arc::from("snippet.log"), opts, &mut problems).run(text, &mut |e| events.push(e));
    (events, problems, stats)
}

fn reasons_envelope(payload_md5: &str) -> String {
    format!(
        r#"{PREFIX} {{"artifact": {{"name": "recompile_reasons", "encoding": "json"}}, "frame_id": 0, "frame_compile_id": 1, "attempt": 0, "has_payload": "{payload_md5}"}}"#
    )
}

#[test]
fn multi_line_bare_string_reason_is_one_reason_with_verified_md5() {
    let payload = "0/0: x == 1  # if x:  # a.py:3 in f\nUser stack trace:\n  File \"/p/a.py\", line 3, in f";
    let body: String = payload.lines().map(|l| format!("\t{l}\n")).collect();
    let text = format!("{}\n{body}", reasons_envelope(&md5_hex(payload)));
    let (events, problems, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(problems.count, 0, "{:?}", problems.first);
    assert_eq!(stats.md5_ok, 1);
    let EventData::RecompileReasons(r) = &events[0].data else {
        panic!("{:?}", events[0].data)
    };
    assert_eq!(r, &vec![payload.to_string()]);
}

#[test]
fn payload_lines_without_envelope_are_reported_once_per_run() {
    let text = format!("\tstray one\n\tstray two\n{PREFIX} {{\"str\": [\"a.py\", 0]}}\n\tthree\n");
    let (_, problems, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(problems.count_of(ProblemKind::OrphanPayload), 2);
    assert_eq!(
        problems.first[0].to_string(),
        "snippet.log:1: payload line with no envelope announcing it (has_payload); skipped"
    );
    assert_eq!(problems.first[1].line, 4);
    assert_eq!(stats.envelopes, 1);
}

#[test]
fn unknown_kind_bad_json_and_non_glog_lines_are_counted_and_skipped() {
    let text = format!(
        "{PREFIX} {{\"from_the_future\": {{}}}}\n{PREFIX} {{\"dynamo_start\": \ngarbage line\n{PREFIX} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}}\n"
    );
    let (events, problems, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(problems.count_of(ProblemKind::UnknownKind), 1);
    assert_eq!(problems.count_of(ProblemKind::BadJson), 1);
    assert_eq!(problems.count_of(ProblemKind::NotGlog), 1);
    let lines: Vec<u64> = problems.first.iter().map(|p| p.line).collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(stats.kinds["from_the_future"], 1);
    assert_eq!(events.len(), 1, "the good line after the bad ones still parses");
}

#[test]
fn wrong_md5_is_reported_and_the_event_kept() {
    let text = format!(
        "{}\n\t\"0/0: x == 1\"\n",
        reasons_envelope("00000000000000000000000000000000")
    );
    let (events, problems, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(stats.md5_mismatch, 1);
    assert_eq!(problems.count_of(ProblemKind::Md5Mismatch), 1);
    assert_eq!(problems.first[0].line, 1);
    assert_eq!(events.len(), 1);
}

#[test]
fn invalid_utf8_is_replaced_and_the_line_still_parses() {
    let mut text = format!("{PREFIX} {{\"dynamo_start\": {{\"stack\": [{{\"line\": 1, \"name\": \"f").into_bytes();
    text.extend_from_slice(b"\xff\xfe");
    text.extend_from_slice(
        b"\", \"filename\": \"a.py\"}]}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n",
    );
    let (events, problems, _) = parse(&text, ParseOptions::default());
    assert_eq!(problems.count_of(ProblemKind::InvalidUtf8), 1);
    let EventData::DynamoStart { stack, .. } = &events[0].data else {
        panic!()
    };
    let f = stack.last().expect("one frame");
    assert_eq!(f.function.as_deref(), Some("f\u{fffd}\u{fffd}"));
}

#[test]
fn lines_over_the_cap_are_skipped_with_bounded_memory() {
    let huge = "x".repeat(10_000);
    let text = format!("{huge}\n{PREFIX} {{\"str\": [\"a.py\", 0]}}\n");
    let opts = ParseOptions {
        line_cap: 1024,
        ..ParseOptions::default()
    };
    let (_, problems, stats) = parse(text.as_bytes(), opts);
    assert_eq!(problems.count_of(ProblemKind::LineTooLong), 1);
    assert!(problems.first[0]
        .message
        .contains("line of 10000 bytes exceeds the 1024 byte cap"));
    assert_eq!(stats.envelopes, 1);
}

#[test]
fn envelope_announcing_a_payload_that_never_comes() {
    let text = format!("{}\n{PREFIX} {{\"str\": [\"a.py\", 0]}}\n", reasons_envelope("abc"));
    let (_, problems, _) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(problems.count_of(ProblemKind::MissingPayload), 1);
}

#[test]
fn skipped_payloads_are_unchecked_by_default_and_verified_with_verify_all() {
    let payload = "graph code\nmore code";
    let body: String = payload.lines().map(|l| format!("\t{l}\n")).collect();
    let text = format!(
        "{PREFIX} {{\"inductor_output_code\": {{}}, \"has_payload\": \"{}\"}}\n{body}",
        md5_hex(payload)
    );
    let verify_all = ParseOptions {
        verify_all_payloads: true,
        ..ParseOptions::default()
    };
    let (_, problems, stats) = parse(text.as_bytes(), verify_all);
    assert_eq!((stats.md5_ok, stats.md5_unchecked, problems.count), (1, 0, 0));
    let (_, _, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!((stats.md5_ok, stats.md5_unchecked), (0, 1));
    assert_eq!(stats.payload_lines, 2);
}

#[test]
fn frame_id_without_frame_compile_id_is_a_damaged_line_not_a_compile() {
    // HAND-MADE: a compile 0/0, then envelopes that lost frame_compile_id
    // (with and without a payload), as a mutated log would have them.
    let reason = "0/0: x == 1";
    let text = format!(
        "{PREFIX} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}}\n\
         {PREFIX} {{\"dynamo_start\": {{\"stack\": []}}, \"frame_id\": 3, \"attempt\": 0}}\n\
         {PREFIX} {{\"artifact\": {{\"name\": \"recompile_reasons\", \"encoding\": \"json\"}}, \"frame_id\": 0, \"frame_compile_id\": null, \"has_payload\": \"{}\"}}\n\t{reason}\n",
        md5_hex(reason)
    );
    let (events, problems, stats) = parse(text.as_bytes(), ParseOptions::default());
    assert_eq!(problems.count_of(ProblemKind::BadEvent), 2, "{:?}", problems.first);
    assert_eq!(
        problems.count, 2,
        "the payload is consumed, not orphaned: {:?}",
        problems.first
    );
    assert_eq!(
        problems.first[0].to_string(),
        "snippet.log:2: dynamo_start: frame_id without frame_compile_id; event skipped"
    );
    assert_eq!(events.len(), 1, "only 0/0: {events:?}");
    assert_eq!(events[0].compile.frame_compile_id, Some(0));
    assert_eq!(stats.envelopes, 3);

    // Through the model: no compile F/? is invented.
    let run = guardscope::load::load_text("snippet.log", text.as_bytes(), 2025);
    let ids: Vec<&str> = run
        .frames
        .iter()
        .flat_map(|f| f.compiles.iter().map(|c| c.compile_id.as_str()))
        .collect();
    assert_eq!(ids, ["0/0"]);
}
