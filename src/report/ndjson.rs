//! `summary --format ndjson`: one flat JSON object per compile, for engines
//! that load newline-delimited JSON as a table (DuckDB, Spark, BigQuery).
//! A view of the analysed `Findings`: the category, culprit and severity are
//! those `summary --json` states, never classified again. The schema is
//! versioned (`schema`) and documented in docs/json.md: fields are added,
//! never renamed or removed, without a new version.

use super::format::utc;
use crate::analysis::{Findings, Severity};
use crate::model::{Compile, Frame, Run};
use crate::reasons::Category;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};

/// Bumped only when a field changes meaning or goes away.
pub const SCHEMA: u32 = 1;

#[derive(Serialize)]
pub struct CompileRow<'a> {
    pub schema: u32,
    /// Index into the document's runs (oldest first) of this input.
    pub run: usize,
    /// The same run across separate invocations: its start and lowest pid.
    pub run_key: &'a str,
    pub run_start: Option<f64>,
    pub rank: Option<u32>,
    pub pid: u64,
    pub generation: u32,
    pub frame_id: u32,
    pub function: Option<&'a str>,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    pub compile_id: &'a str,
    pub attempts: usize,
    pub start: Option<f64>,
    pub seconds: Option<f64>,
    pub backward_seconds: Option<f64>,
    pub recompile: bool,
    pub category: Option<Category>,
    pub culprit: Option<&'a str>,
    pub called_from_file: Option<&'a str>,
    pub called_from_line: Option<u32>,
    pub called_from_code: Option<&'a str>,
    pub severity: Option<Severity>,
    pub problem: bool,
    pub failed: bool,
    pub cache_limit: bool,
    pub finished: bool,
    /// The log the compile was read from, as the inputs name it.
    pub log: Option<&'a str>,
    pub log_line: u64,
}

/// Writes one line per compile of a frame, in frame order, as it goes: a
/// fleet's run of a million compiles never sits in memory as text.
pub fn write(out: &mut dyn Write, findings: &Findings) -> io::Result<()> {
    let run = findings.run;
    let keys: Vec<String> = run
        .runs
        .iter()
        .map(|r| run_key(r.start, r.pids.first().copied()))
        .collect();
    let logs = LogIndex::new(run);
    for (frame, compile) in run.compiles() {
        let row = row(findings, frame, compile, &keys, &logs);
        serde_json::to_writer(&mut *out, &row)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn row<'a>(
    findings: &'a Findings,
    frame: &'a Frame,
    c: &'a Compile,
    keys: &'a [String],
    logs: &LogIndex<'a>,
) -> CompileRow<'a> {
    let finding = findings.of(c);
    let called_from = finding.and_then(|f| f.called_from.as_ref());
    let severity = finding.map(|f| f.severity);
    CompileRow {
        schema: SCHEMA,
        run: frame.run,
        run_key: keys.get(frame.run).map_or("", String::as_str),
        run_start: findings.run.runs.get(frame.run).and_then(|r| r.start),
        rank: frame.rank,
        pid: frame.pid,
        generation: frame.generation,
        frame_id: frame.frame_id,
        function: frame.function.as_deref(),
        file: frame.file.as_deref(),
        line: frame.line,
        compile_id: &c.compile_id,
        attempts: c.attempts.len().max(1),
        start: c.start,
        seconds: c.duration_s,
        backward_seconds: c.backward.as_ref().and_then(|b| b.duration_s),
        recompile: c.frame_compile_id.is_some_and(|n| n > 0),
        category: finding.map(|f| f.cause.category),
        culprit: finding.map(|f| f.cause.culprit.as_str()),
        called_from_file: called_from.map(|s| s.file.as_str()),
        called_from_line: called_from.map(|s| s.line),
        called_from_code: called_from.and_then(|s| s.code.as_deref()),
        severity,
        problem: severity == Some(Severity::Problem),
        failed: c.failed,
        cache_limit: c.cache_limit,
        finished: c.finished,
        log: logs.of(frame),
        log_line: c.log_line,
    }
}

/// `2026-11-21T10:35:12.123Z-4242`: the same launch gets the same key from
/// any host or invocation, where `run` only counts runs within one.
fn run_key(start: Option<f64>, pid: Option<u64>) -> String {
    let when = start.map(utc).filter(|t| t != "?");
    let when = when.map_or("unknown".to_string(), |t| t.replacen(' ', "T", 1).replace(" UTC", "Z"));
    match pid {
        Some(pid) => format!("{when}-{pid}"),
        None => when,
    }
}

/// Which input a frame's events came from: its run, rank and pid (pids
/// repeat across hosts and reruns), else its pid alone.
struct LogIndex<'a> {
    exact: HashMap<(Option<usize>, Option<u32>, u64), &'a str>,
    by_pid: HashMap<u64, &'a str>,
}

impl<'a> LogIndex<'a> {
    fn new(run: &'a Run) -> Self {
        let mut exact = HashMap::new();
        let mut by_pid = HashMap::new();
        for input in &run.inputs {
            for &pid in &input.stats.pids {
                exact.entry((input.run, input.rank, pid)).or_insert(input.path.as_str());
                by_pid.entry(pid).or_insert(input.path.as_str());
            }
        }
        LogIndex { exact, by_pid }
    }

    fn of(&self, frame: &Frame) -> Option<&'a str> {
        self.exact
            .get(&(Some(frame.run), frame.rank, frame.pid))
            .or_else(|| self.by_pid.get(&frame.pid))
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_key_is_the_start_in_utc_and_the_pid() {
        assert_eq!(
            run_key(Some(1_763_721_312.123), Some(4242)),
            "2025-11-21T10:35:12.123Z-4242"
        );
        assert_eq!(run_key(None, Some(7)), "unknown-7");
        assert_eq!(run_key(Some(f64::NAN), None), "unknown");
    }
}
