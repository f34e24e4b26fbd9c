use super::*;
use crate::activation_diff::names::parse_rules;

/// Reads `text` as one side would; returns (names, records, summary).
fn read_text(text: &str, map: NameMap) -> (Interner, Vec<Record>, ReadSummary) {
    let mut side = SideState::new("t.jsonl".into(), map);
    let mut names = Interner::default();
    let mut records = Vec::new();
    let reader: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
    side.read(reader, &mut |batch| {
        for n in &batch.names {
            names.intern(n);
        }
        records.extend(batch.records);
        true
    });
    (names, records, side.finish())
}

fn stat<'a>(names: &Interner, r: &'a Record, name: &str) -> Option<&'a RecordedStat> {
    r.stats.iter().find(|(s, _)| &**names.name(*s) == name).map(|(_, v)| v)
}

// HAND-MADE reference-format lines (no "call"; bare NaN/Infinity as Python's
// json.dumps writes them), not produced by a real hook.
const REFERENCE: &str = r#"{"module": "block.layers.0", "tensor": "out", "step": 0, "abs_mean": 1.234, "sum": -5.678, "max": 9.012, "shape": [1, 4096, 5120]}
{"module": "block.layers.0", "tensor": "out", "step": 0, "abs_mean": 1.5, "sum": NaN, "max": Infinity, "shape": [1, 4096, 5120]}
{"module": "block.layers.1", "tensor": "out", "step": 0, "abs_mean": "<error: RuntimeError: boom>", "sum": null, "max": -Infinity, "note": "NaN inside a string"}
{"module": "block.layers.0", "tensor": "out", "step": 1, "abs_mean": 2, "sum": 3, "max": 4}
"#;

#[test]
fn reference_format_without_call_numbers_calls_within_each_step() {
    let (names, records, summary) = read_text(REFERENCE, NameMap::default());
    // Only the string stat "note" is malformed (below).
    assert_eq!(summary.problems.count, 1, "{:?}", summary.problems.first);
    assert_eq!(
        (summary.lines, summary.records, summary.steps, summary.passes),
        (4, 4, 2, 1)
    );
    let calls: Vec<(i64, u64)> = records.iter().map(|r| (r.step, r.call)).collect();
    assert_eq!(calls, [(0, 0), (0, 1), (0, 0), (1, 0)]);
    assert_eq!(&**names.name(records[0].module), "block.layers.0");
    // Shapes travel as ids, each sent once with the batch that first has it.
    let mut side = SideState::new("t.jsonl".into(), NameMap::default());
    let mut shapes = Vec::new();
    side.read(Box::new(io::Cursor::new(REFERENCE.as_bytes().to_vec())), &mut |batch| {
        shapes.extend(batch.shapes);
        true
    });
    assert_eq!(shapes, [Arc::from(&[1, 4096, 5120][..])]);
    assert_eq!(
        (records[0].shape, records[1].shape, records[2].shape),
        (Some(0), Some(0), None)
    );
    assert_eq!(records[0].dtype, None);
    assert_eq!(
        stat(&names, &records[0], "abs_mean"),
        Some(&RecordedStat::Number(1.234))
    );
    assert_eq!(stat(&names, &records[1], "sum"), Some(&RecordedStat::Nan));
    assert_eq!(
        stat(&names, &records[1], "max"),
        Some(&RecordedStat::Number(f64::INFINITY))
    );
    assert_eq!(stat(&names, &records[2], "abs_mean"), Some(&RecordedStat::Error));
    assert_eq!(stat(&names, &records[2], "sum"), Some(&RecordedStat::Null));
    assert_eq!(
        stat(&names, &records[2], "max"),
        Some(&RecordedStat::Number(f64::NEG_INFINITY))
    );
    // A string that happens to contain "NaN" is left alone by the repair,
    // and as a stat it is malformed: counted, and not compared.
    assert_eq!(stat(&names, &records[2], "note"), None);
    let problem = &summary.problems.first[0];
    assert_eq!(problem.line, 3);
    assert!(
        problem.message.starts_with("malformed stat value for note "),
        "{}",
        problem.message
    );
    assert_eq!(records.iter().map(|r| r.seq).collect::<Vec<_>>(), [0, 1, 2, 3]);
}

#[test]
fn malformed_lines_are_counted_with_their_line_and_skipped() {
    let text = [
        r#"{"module":"a","tensor":"out","step":0,"sum":1.0,"call":0}"#,
        "not json at all",
        "",
        r#"{"tensor":"out","step":0,"sum":1.0}"#,
        r#"{"module":"b","tensor":"out","step":"3","sum":1.0}"#,
        r#"{"module":"a","tensor":"out","step":0,"sum":2.0,"call":0}"#,
        r#"[1, 2]"#,
        r#"{"module":"c","tensor":"out","step":0,"shape":"big"}"#,
        r#"{"module":"c","tensor":"out","step":0,"sum":1.0} trailing"#,
        r#"{"module":"d","tensor":"out","step":0,"sum":1.0}"#,
    ]
    .join("\n");
    let (names, records, summary) = read_text(&text, NameMap::default());
    let kept: Vec<&str> = records.iter().map(|r| &**names.name(r.module)).collect();
    assert_eq!(kept, ["a", "d"]);
    assert_eq!(records[1].line, 10);
    let lines: Vec<u64> = summary.problems.first.iter().map(|p| p.line).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7, 8, 9]);
    assert_eq!(summary.problems.count, 7);
    let msg = |i: usize| summary.problems.first[i].to_string();
    assert!(msg(0).starts_with("t.jsonl:2: bad JSON"), "{}", msg(0));
    assert_eq!(msg(1), "t.jsonl:4: record without 'module'");
    assert!(msg(2).contains("'step': invalid type: string \"3\""), "{}", msg(2));
    assert_eq!(
        msg(3),
        "t.jsonl:6: duplicate record: same step, module, tensor and call as line 1; skipped"
    );
    assert!(msg(5).contains("'shape'"), "{}", msg(5));
}

#[test]
fn an_overlong_line_is_reported_not_kept() {
    let long = format!(
        "{{\"module\":\"{}\",\"tensor\":\"out\",\"step\":0}}\n",
        "x".repeat(MAX_RECORD)
    );
    let text = format!("{long}{}\n", r#"{"module":"a","tensor":"out","step":0}"#);
    let (_, records, summary) = read_text(&text, NameMap::default());
    assert_eq!(records.len(), 1);
    assert_eq!(summary.problems.count_of(ProblemKind::LineTooLong), 1);
    assert_eq!(summary.problems.first[0].line, 1);
}

#[test]
fn a_step_going_back_starts_a_new_pass() {
    let text = ["0", "1", "2", "0", "1"]
        .iter()
        .map(|s| format!("{{\"module\":\"m\",\"tensor\":\"out\",\"step\":{s},\"call\":0}}\n"))
        .collect::<String>();
    let (_, records, summary) = read_text(&text, NameMap::default());
    let positions: Vec<(u32, i64)> = records.iter().map(Record::position).collect();
    assert_eq!(positions, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]);
    assert_eq!((summary.passes, summary.steps, summary.problems.count), (2, 5, 0));
}

#[test]
fn names_are_mapped_once_and_the_original_is_kept() {
    let map = NameMap {
        strip: vec!["model.".into()],
        rules: parse_rules(r"^layers\.(\d+)$ -> blocks.${1}", "m").unwrap(),
    };
    let text = r#"{"module":"model.layers.3","tensor":"out[0]","step":0}
{"module":"model.head","tensor":"out","step":0}
"#;
    let (names, records, _) = read_text(text, map);
    let pairs: Vec<(&str, &str)> = records
        .iter()
        .map(|r| (&**names.name(r.module), &**names.name(r.original)))
        .collect();
    assert_eq!(pairs, [("blocks.3", "model.layers.3"), ("head", "model.head")]);
    assert_eq!(&**names.name(records[0].tensor), "out[0]");
}
