//! Reads per-step JSONL: one object per line with at least `step`, `start`
//! (unix seconds) and `wall_ms`; `rank`, `pid`, `session` (the StepLogger
//! that wrote it: one attempt of the run) and `compiles` (objects with a
//! `compile_id`, and what else StepLogger writes about them) when present.
//! Other fields are ignored so the format can grow without breaking
//! readers, and a compile field of an unexpected type is dropped, not the
//! whole step.

use crate::input::{self, JsonlLines};
use crate::input::{ProblemKind, Problems};
use crate::model::{Step, StepCause, StepCompile};
use serde::Deserialize;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// Longest record kept; longer lines are reported and skipped.
const MAX_RECORD: usize = 4 << 20;

/// Unix seconds of 3000-01-01: a later `start` is not a time.
const LATEST_START: f64 = 32_503_680_000.0;

/// 11.6 days: a longer step is a broken record, not a slow step.
const MAX_WALL_MS: f64 = 1e9;

#[derive(Deserialize)]
struct StepRecord {
    step: Option<serde_json::Value>,
    start: Option<f64>,
    wall_ms: Option<f64>,
    rank: Option<u32>,
    pid: Option<u32>,
    session: Option<String>,
    #[serde(default)]
    compiles: Vec<serde_json::Value>,
}

/// Reads every step of one file. Bad lines become problems with file:line;
/// only an unopenable file is an error.
pub fn read_steps(path: &Path, problems: &mut Problems) -> io::Result<Vec<Step>> {
    let display: Arc<str> = path.display().to_string().into();
    let name_rank = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(input::rank_from_name);
    let mut lines = JsonlLines::new(input::open(path)?, Arc::clone(&display), MAX_RECORD);
    let mut steps = Vec::new();
    while let Some((number, bytes)) = lines.next_line(problems) {
        let text = String::from_utf8_lossy(bytes);
        // Unicode whitespace too: a line of only that is blank, not bad JSON.
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match parse_record(text) {
            Ok(mut step) => {
                step.rank = step.rank.or(name_rank);
                step.file = display.to_string();
                step.line = number;
                steps.push(step);
            }
            // A last line cut mid-record: as a TORCH_TRACE log's (the
            // parser's `TruncatedLine`), the file is read only in part.
            Err((ProblemKind::BadJson, why)) if lines.unterminated() => problems.push(
                &display,
                number,
                ProblemKind::TruncatedLine,
                format!("{why} (line cut off at end of file)"),
            ),
            Err((kind, why)) => problems.push(&display, number, kind, why),
        }
    }
    Ok(steps)
}

fn parse_record(text: &str) -> Result<Step, (ProblemKind, String)> {
    let r: StepRecord =
        serde_json::from_str(text).map_err(|e| (ProblemKind::BadJson, format!("not a step record: {e}")))?;
    let step = r.step.as_ref().and_then(serde_json::Value::as_u64).ok_or((
        ProblemKind::BadEvent,
        "step record without a non-negative integer 'step'".to_string(),
    ))?;
    let start = r
        .start
        .filter(|s| s.is_finite())
        .ok_or((ProblemKind::BadEvent, format!("step {step}: no numeric 'start'")))?;
    // Debug formatting: 1e308 stays `1e308`, not 309 digits.
    if !(0.0..=LATEST_START).contains(&start) {
        let why = format!("step {step}: 'start' {start:?} is not a time between 1970 and the year 3000");
        return Err((ProblemKind::BadEvent, why));
    }
    let wall_ms = r
        .wall_ms
        .filter(|w| w.is_finite() && *w >= 0.0)
        .ok_or((ProblemKind::BadEvent, format!("step {step}: no non-negative 'wall_ms'")))?;
    if wall_ms > MAX_WALL_MS {
        let why = format!("step {step}: 'wall_ms' {wall_ms:?} is longer than {MAX_WALL_MS:?} ms (11.6 days)");
        return Err((ProblemKind::BadEvent, why));
    }
    Ok(Step {
        rank: r.rank,
        pid: r.pid,
        session: r.session,
        step,
        start,
        wall_ms,
        compiles: r.compiles.iter().filter_map(compile_record).collect(),
        file: String::new(),
        line: 0,
    })
}

fn compile_record(v: &serde_json::Value) -> Option<StepCompile> {
    let text = |v: &serde_json::Value, k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let number = |k: &str| v.get(k).and_then(serde_json::Value::as_f64).filter(|x| x.is_finite());
    let cause = v.get("cause").filter(|c| c.is_object()).map(|c| StepCause {
        category: text(c, "category").unwrap_or_else(|| "other".to_string()),
        label: text(c, "label"),
        culprit: text(c, "culprit").unwrap_or_default(),
        source: text(c, "source"),
        severity: text(c, "severity"),
        evidence: c.get("evidence").and_then(|e| text(e, "kind")),
        owner: text(c, "owner"),
        entry: text(c, "entry"),
        advice: text(c, "advice").filter(|a| !a.is_empty()),
    });
    Some(StepCompile {
        compile_id: text(v, "compile_id")?,
        name: text(v, "name"),
        function: text(v, "function"),
        file: text(v, "file"),
        line: v
            .get("line")
            .and_then(serde_json::Value::as_u64)
            .and_then(|l| u32::try_from(l).ok()),
        recompile: v.get("recompile").and_then(serde_json::Value::as_bool),
        seconds: number("seconds"),
        backward_seconds: number("backward_seconds"),
        failed: v.get("failed").and_then(serde_json::Value::as_bool).unwrap_or(false),
        cause,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    // Hand-made step records for corner cases (real ones come from the
    // Python helper's StepLogger).
    #[test]
    fn good_records_are_read_and_bad_lines_reported_with_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps_rank_2.jsonl");
        let mut f = std::fs::File::create(&path).unwrap();
        writeln!(
            f,
            r#"{{"step": 0, "start": 100.0, "wall_ms": 1500.5, "compiles": [{{"compile_id": "0/0"}}]}}"#
        )
        .unwrap();
        writeln!(f, "not json").unwrap();
        writeln!(f).unwrap();
        writeln!(f, r#"{{"step": 1, "start": 101.6}}"#).unwrap();
        write!(
            f,
            r#"{{"step": 2, "start": 101.7, "wall_ms": 20, "rank": 5, "extra": [1]}}"#
        )
        .unwrap();
        drop(f);
        let mut problems = Problems::default();
        let steps = read_steps(&path, &mut problems).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!((steps[0].step, steps[0].rank, steps[0].line), (0, Some(2), 1));
        assert_eq!(steps[0].compile_ids().collect::<Vec<_>>(), ["0/0"]);
        assert_eq!((steps[1].step, steps[1].rank, steps[1].line), (2, Some(5), 5));
        assert_eq!(problems.count, 2);
        let lines: Vec<u64> = problems.first.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 4]);
        assert!(problems.first[1].message.contains("wall_ms"), "{}", problems.first[1]);
    }

    /// Before, these were read as steps: `start` -1e18 put the page's axis
    /// in the year -292275055, `wall_ms` 1e308 printed 309 digits.
    #[test]
    fn absurd_starts_and_durations_are_problems() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.jsonl");
        let lines = [
            r#"{"step": 1, "start": 1795257301.0, "wall_ms": 10}"#,
            r#"{"step": 2, "start": -1e18, "wall_ms": 10}"#,
            r#"{"step": 3, "start": 4e10, "wall_ms": 10}"#,
            r#"{"step": 4, "start": 1795257302.0, "wall_ms": 1e308}"#,
            r#"{"step": 5, "start": 1795257303.0, "wall_ms": -1}"#,
            r#"{"step": 6, "start": 1795257304.0, "wall_ms": 2e9}"#,
        ];
        std::fs::write(&path, lines.join("\n")).unwrap();
        let mut problems = Problems::default();
        let steps = read_steps(&path, &mut problems).unwrap();
        assert_eq!(steps.iter().map(|s| s.step).collect::<Vec<_>>(), [1]);
        let lines: Vec<u64> = problems.first.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6]);
        let messages: Vec<&str> = problems.first.iter().map(|p| p.message.as_str()).collect();
        assert!(messages[0].contains("'start' -1e18 is not a time"), "{messages:?}");
        assert!(messages[2].contains("'wall_ms' 1e308 is longer"), "{messages:?}");
    }

    #[test]
    fn a_line_without_newline_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.jsonl");
        std::fs::write(&path, vec![b'x'; MAX_RECORD * 2]).unwrap();
        let mut problems = Problems::default();
        assert!(read_steps(&path, &mut problems).unwrap().is_empty());
        assert_eq!(problems.count_of(ProblemKind::LineTooLong), 1);
    }
}
