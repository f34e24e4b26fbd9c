//! The compile timeline as a Chrome trace (the Trace Event Format's JSON
//! object form), which ui.perfetto.dev and chrome://tracing open: one
//! process per rank (or per process of a single-rank run), one thread per
//! frame, each compile a complete slice named by its compile id with its
//! cause in `args`; a compile that took several attempts has one nested
//! slice per attempt; training steps on a track of their own.
//!
//! Events are serialized one at a time straight to the writer: a run of
//! thousands of ranks never exists as one JSON value in memory.

use crate::analysis::{Finding, Findings};
use crate::model::{Compile, Frame, Step};
use crate::report::paths;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The thread of a process on which its training steps are drawn: frame
/// threads count from 1.
const STEPS_TID: u64 = 0;

/// Writes the trace of `findings` (and `steps`, when given) to `out`.
pub fn write(out: &mut dyn Write, findings: &Findings, steps: &[Step]) -> io::Result<()> {
    let trace = Trace::new(findings, steps);
    let mut serializer = serde_json::Serializer::new(&mut *out);
    trace.serialize(&mut serializer).map_err(io::Error::from)?;
    writeln!(out)
}

struct Trace<'a> {
    findings: &'a Findings<'a>,
    steps: &'a [Step],
    processes: Processes,
    /// Unix seconds of the earliest compile or step: trace time 0.
    origin: f64,
}

/// Which trace process (pid) each of the run's processes is drawn in.
struct Processes {
    /// (rank, OS pid) -> trace pid.
    pids: BTreeMap<(Option<u32>, u64), u64>,
    /// Trace pid -> its name, in the order they are listed.
    names: BTreeMap<u64, String>,
    /// The process of `run.compiled_autograd`, which belongs to no frame.
    compiled_autograd: Option<u64>,
}

impl Processes {
    fn new(frames: &[Frame], steps: &[Step], has_compiled_autograd: bool) -> Self {
        let mut os_pids: BTreeMap<Option<u32>, Vec<u64>> = BTreeMap::new();
        for f in frames {
            let seen = os_pids.entry(f.rank).or_default();
            if !seen.contains(&f.pid) {
                seen.push(f.pid);
            }
        }
        let mut pids = BTreeMap::new();
        let mut names = BTreeMap::new();
        for (rank, of_rank) in &os_pids {
            for &os_pid in of_rank {
                // A rank is its own process unless two runs share the rank
                // (a rerun into the same directory): then the OS pid tells them apart.
                let (pid, name) = match rank {
                    Some(r) if of_rank.len() == 1 => (u64::from(*r), format!("rank {r}")),
                    Some(r) => (os_pid, format!("rank {r} (pid {os_pid})")),
                    None => (os_pid, format!("process {os_pid}")),
                };
                pids.insert((*rank, os_pid), pid);
                names.insert(pid, name);
            }
        }
        for rank in steps.iter().map(|s| s.rank) {
            if Self::of_rank(&pids, rank).is_none() {
                let pid = u64::from(rank.unwrap_or(0));
                names
                    .entry(pid)
                    .or_insert_with(|| format!("rank {}", rank.unwrap_or(0)));
                pids.insert((rank, pid), pid);
            }
        }
        let compiled_autograd = has_compiled_autograd.then(|| {
            let pid = names.keys().next_back().map_or(0, |p| p + 1);
            names.insert(pid, "compiled autograd".to_string());
            pid
        });
        Processes {
            pids,
            names,
            compiled_autograd,
        }
    }

    /// The process that a step of `rank` belongs to: that rank's, or the
    /// only process when the steps name no rank.
    fn of_rank(pids: &BTreeMap<(Option<u32>, u64), u64>, rank: Option<u32>) -> Option<u64> {
        match rank {
            Some(r) => pids.iter().find(|((of, _), _)| *of == Some(r)).map(|(_, pid)| *pid),
            None if pids.len() == 1 => pids.values().next().copied(),
            None => None,
        }
    }
}

impl<'a> Trace<'a> {
    fn new(findings: &'a Findings<'a>, steps: &'a [Step]) -> Self {
        let run = findings.run;
        let starts = run
            .compiles()
            .filter_map(|(_, c)| c.start)
            .chain(run.compiled_autograd.iter().filter_map(|c| c.start))
            .chain(steps.iter().map(|s| s.start));
        let origin = starts.fold(f64::INFINITY, f64::min);
        Trace {
            findings,
            steps,
            processes: Processes::new(&run.frames, steps, !run.compiled_autograd.is_empty()),
            origin: if origin.is_finite() { origin } else { 0.0 },
        }
    }

    fn micros(&self, unix_s: f64) -> f64 {
        ((unix_s - self.origin) * 1e6).max(0.0)
    }

    /// Every event, written as it is produced.
    fn write_events<S: SerializeSeq>(&self, seq: &mut S) -> Result<(), S::Error> {
        for (pid, name) in &self.processes.names {
            seq.serialize_element(&Metadata::process_name(*pid, name))?;
            seq.serialize_element(&Metadata::sort_index("process_sort_index", *pid, 0, *pid))?;
        }
        let run = self.findings.run;
        let mut next_tid: BTreeMap<u64, u64> = BTreeMap::new();
        for frame in &run.frames {
            let pid = self.processes.pids[&(frame.rank, frame.pid)];
            let tid = next_tid.entry(pid).or_insert(STEPS_TID);
            *tid += 1;
            seq.serialize_element(&Metadata::thread_name(pid, *tid, frame_name(frame)))?;
            seq.serialize_element(&Metadata::sort_index("thread_sort_index", pid, *tid, *tid))?;
            for compile in &frame.compiles {
                self.write_compile(seq, pid, *tid, Some(frame), compile)?;
            }
        }
        if let Some(pid) = self.processes.compiled_autograd {
            seq.serialize_element(&Metadata::thread_name(pid, 1, "compiled autograd".into()))?;
            for compile in &run.compiled_autograd {
                self.write_compile(seq, pid, 1, None, compile)?;
            }
        }
        let mut step_tracks = Vec::new();
        for step in self.steps {
            let pid = Processes::of_rank(&self.processes.pids, step.rank).unwrap_or(0);
            if !step_tracks.contains(&pid) {
                step_tracks.push(pid);
                seq.serialize_element(&Metadata::thread_name(pid, STEPS_TID, "steps".into()))?;
            }
            seq.serialize_element(&Event {
                name: format!("step {}", step.step),
                cat: "step",
                ph: "X",
                ts: self.micros(step.start),
                dur: Some(step.wall_ms * 1e3),
                pid,
                tid: STEPS_TID,
                args: StepArgs {
                    step: step.step,
                    wall_ms: step.wall_ms,
                    compiles: step.compiles.len(),
                    recompiles: step.compiles.iter().filter(|c| c.is_recompile()).count(),
                    record: format!("{}:{}", step.file, step.line),
                },
            })?;
        }
        Ok(())
    }

    /// A compile's slice and, when Dynamo restarted it, one slice per
    /// attempt inside it. A compile without a start time cannot be placed;
    /// the document's `otherData` counts them.
    fn write_compile<S: SerializeSeq>(
        &self,
        seq: &mut S,
        pid: u64,
        tid: u64,
        frame: Option<&Frame>,
        compile: &Compile,
    ) -> Result<(), S::Error> {
        let Some(start) = compile.start else {
            return Ok(());
        };
        let finding = self.findings.of(compile);
        let dur = compile.duration_s.map_or(0.0, |d| d * 1e6);
        let ts = self.micros(start);
        seq.serialize_element(&Event {
            name: compile.compile_id.clone(),
            cat: if finding.is_some() { "recompile" } else { "compile" },
            ph: "X",
            ts,
            dur: Some(dur),
            pid,
            tid,
            args: CompileArgs::new(frame, compile, finding),
        })?;
        if compile.attempts.len() < 2 {
            return Ok(());
        }
        let end = ts + dur;
        let starts: Vec<Option<f64>> = compile
            .attempts
            .iter()
            .map(|a| a.start.map(|s| self.micros(s)))
            .collect();
        for (i, attempt) in compile.attempts.iter().enumerate() {
            let Some(from) = starts[i] else { continue };
            let from = from.clamp(ts, end);
            let to = starts.get(i + 1).copied().flatten().unwrap_or(end).clamp(from, end);
            seq.serialize_element(&Event {
                name: format!("{}_{}", compile.compile_id, attempt.attempt),
                cat: "attempt",
                ph: "X",
                ts: from,
                dur: Some(to - from),
                pid,
                tid,
                args: AttemptArgs {
                    attempt: attempt.attempt,
                    restart_reason: i
                        .checked_sub(1)
                        .and_then(|r| compile.restart_reasons.get(r))
                        .map(String::as_str),
                    log_line: attempt.log_line,
                },
            })?;
        }
        Ok(())
    }
}

/// "forward train.py:12 · frame 0": what the compiled frame is and where.
fn frame_name(frame: &Frame) -> String {
    let function = frame.function.as_deref().unwrap_or("?");
    let file = frame.file.as_deref().map_or_else(|| "?".to_string(), paths::display);
    let line = frame.line.map_or_else(|| "?".to_string(), |l| l.to_string());
    let generation = if frame.generation > 0 {
        format!(" (after reset {})", frame.generation)
    } else {
        String::new()
    };
    format!("{function} {file}:{line} · frame {}{generation}", frame.frame_id)
}

impl Serialize for Trace<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Events<'t>(&'t Trace<'t>);
        impl Serialize for Events<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(None)?;
                self.0.write_events(&mut seq)?;
                seq.end()
            }
        }
        let run = self.findings.run;
        let unplaced = run
            .compiles()
            .map(|(_, c)| c)
            .chain(&run.compiled_autograd)
            .filter(|c| c.start.is_none())
            .count();
        let mut doc = serializer.serialize_struct("Trace", 3)?;
        doc.serialize_field("traceEvents", &Events(self))?;
        doc.serialize_field("displayTimeUnit", "ms")?;
        doc.serialize_field(
            "otherData",
            &OtherData {
                producer: concat!("guardscope ", env!("CARGO_PKG_VERSION")),
                time_zero_unix_s: self.origin,
                compiles_without_start_time: unplaced,
            },
        )?;
        doc.end()
    }
}

#[derive(Serialize)]
struct OtherData {
    producer: &'static str,
    /// The Unix time (seconds) that trace time 0 stands for.
    time_zero_unix_s: f64,
    /// Compiles the log gives no start time for: not drawn.
    compiles_without_start_time: usize,
}

#[derive(Serialize)]
struct Event<A> {
    name: String,
    cat: &'static str,
    ph: &'static str,
    /// Microseconds since `otherData.time_zero_unix_s`.
    ts: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<f64>,
    pid: u64,
    tid: u64,
    args: A,
}

/// A metadata event ("ph": "M"): a process's or thread's name or place.
#[derive(Serialize)]
struct Metadata {
    name: &'static str,
    ph: &'static str,
    ts: f64,
    pid: u64,
    tid: u64,
    args: MetadataArgs,
}

#[derive(Serialize)]
#[serde(untagged)]
enum MetadataArgs {
    Name { name: String },
    SortIndex { sort_index: u64 },
}

impl Metadata {
    fn process_name(pid: u64, name: &str) -> Self {
        Self::new("process_name", pid, 0, MetadataArgs::Name { name: name.to_string() })
    }

    fn thread_name(pid: u64, tid: u64, name: String) -> Self {
        Self::new("thread_name", pid, tid, MetadataArgs::Name { name })
    }

    fn sort_index(kind: &'static str, pid: u64, tid: u64, index: u64) -> Self {
        Self::new(kind, pid, tid, MetadataArgs::SortIndex { sort_index: index })
    }

    fn new(name: &'static str, pid: u64, tid: u64, args: MetadataArgs) -> Self {
        Metadata {
            name,
            ph: "M",
            ts: 0.0,
            pid,
            tid,
            args,
        }
    }
}

/// What a compile slice shows when selected: the compile and, for a
/// recompile, its cause as `summary` states it.
#[derive(Serialize)]
struct CompileArgs<'a> {
    compile_id: &'a str,
    frame: Option<String>,
    recompile: bool,
    attempts: usize,
    duration_s: Option<f64>,
    backward_duration_s: Option<f64>,
    finished: bool,
    failed: bool,
    fail_reason: Option<&'a str>,
    cache_limit: bool,
    category: Option<&'static str>,
    culprit: Option<&'a str>,
    called_from: Option<String>,
    advice: Option<&'a str>,
    detail: Option<&'a str>,
    severity: Option<&'static str>,
    log_line: u64,
}

impl<'a> CompileArgs<'a> {
    fn new(frame: Option<&Frame>, c: &'a Compile, finding: Option<&'a Finding<'a>>) -> Self {
        let cause = finding.map(|f| &f.cause);
        CompileArgs {
            compile_id: &c.compile_id,
            frame: frame.map(frame_name),
            recompile: finding.is_some(),
            attempts: c.attempts.len().max(1),
            duration_s: c.duration_s,
            backward_duration_s: c.backward.as_ref().and_then(|b| b.duration_s),
            finished: c.finished,
            failed: c.failed,
            fail_reason: c.fail_reason.as_deref(),
            cache_limit: c.cache_limit,
            category: cause.map(|c| c.category.name()),
            culprit: cause.map(|c| c.culprit.as_str()),
            called_from: finding
                .and_then(|f| f.called_from.as_ref())
                .map(|s| paths::display_site(&s.short())),
            advice: cause.map(|c| c.advice.as_str()),
            detail: cause.and_then(|c| c.detail.as_deref()),
            severity: finding.map(|f| f.severity.name()),
            log_line: c.log_line,
        }
    }
}

#[derive(Serialize)]
struct AttemptArgs<'a> {
    attempt: u32,
    /// Why Dynamo restarted the compile before this attempt.
    restart_reason: Option<&'a str>,
    log_line: u64,
}

#[derive(Serialize)]
struct StepArgs {
    step: u64,
    wall_ms: f64,
    compiles: usize,
    recompiles: usize,
    /// The step record's file:line.
    record: String,
}
