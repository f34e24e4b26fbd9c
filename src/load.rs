//! The pipeline from paths to a `Run`: discover files, parse each one
//! streaming (files in parallel) while another thread folds its events into
//! the model, merge in input order so the result does not depend on
//! scheduling.

use crate::input::{self, Content, Discovery, InputError, LogSource, MappedLog, SkipReason};
use crate::input::{ProblemKind, Problems};
use crate::model::{self, Run, RunBuilder, RunSelect};
use crate::trace::{chunks, EventData, ParseOptions, Parser};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

mod parts;
mod text;
use parts::{lines_before_each, parse_beside_building};

#[derive(Clone)]
pub struct LoadOptions {
    pub parse: ParseOptions,
    /// Files parsed at once; None uses every core.
    pub threads: Option<usize>,
    /// Receives every byte read from disk, for a progress bar.
    pub bytes_read: Option<Arc<AtomicU64>>,
    /// Which run to keep when the logs hold several (a rerun, a stale log).
    pub select: RunSelect,
    /// Parts each plain file is cut into, parsed at once; None cuts large
    /// files when cores are left over (see `parts_for`).
    pub parts: Option<usize>,
    /// Keep each compile's guard tree for the HTML report. The trees are
    /// most of what a model holds per compile (~25 KB on small HF models),
    /// and only the report shows them.
    pub guard_trees: bool,
    /// Event memory the parts after the builder's may hold before their
    /// parsers wait (`load::parts`); None: 128 MiB. Tests set it tiny so
    /// that every part waits for the builder.
    pub ahead_bytes: Option<usize>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            parse: ParseOptions::default(),
            threads: None,
            bytes_read: None,
            select: RunSelect::default(),
            parts: None,
            guard_trees: true,
            ahead_bytes: None,
        }
    }
}

/// A part smaller than this is not worth a thread of its own.
const PART_AT_LEAST: u64 = 16 << 20;

/// How many parts to cut `source` into: one per core that the files parsed
/// at once and the threads building their models leave idle.
fn parts_for(source: &LogSource, files: usize, cores: usize) -> usize {
    let per_file = cores / files.max(1);
    // One core of each file's share builds its model.
    let spare = per_file.saturating_sub(1);
    if spare < 2 {
        return 1;
    }
    spare.min((source.size / PART_AT_LEAST) as usize).max(1)
}

/// Parses one log file into its part of the run, cut into `parts` parsed
/// on threads of their own where it can be (a plain file, mapped). A file
/// that cannot be opened is a problem of the run, not the end of it.
pub fn load_source(source: &LogSource, load: &LoadOptions, parts: usize) -> (Run, Problems) {
    let stdin = input::is_stdin(&source.path);
    if !stdin && input::sniff::reads_as_text(&source.path) {
        let (run, problems) = text::load_text_log(source, load, None);
        if run.text_log().is_some_and(|t| t.dynamo_lines > 0) || problems.count_of(ProblemKind::Io) > 0 {
            return (run, problems);
        }
        // Not a line of Dynamo's: perhaps a trace log whose first KB are
        // damaged, which the trace reader reads; if it finds no event
        // either, the text reader's word on it stands.
        let (trace, trace_problems) = load_trace(source, load, parts);
        return match trace.envelope_count() {
            0 => (run, problems),
            _ => (trace, trace_problems),
        };
    }
    load_trace(source, load, parts)
}

/// `load_source` for a TORCH_TRACE log (or stdin, whichever it holds).
fn load_trace(source: &LogSource, load: &LoadOptions, parts: usize) -> (Run, Problems) {
    let (opts, bytes_read) = (&load.parse, &load.bytes_read);
    let stdin = input::is_stdin(&source.path);
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    if !load.guard_trees {
        builder.drop_guard_trees();
    }
    let mapped = (parts > 1 && !input::is_stdin(&source.path))
        .then(|| MappedLog::open(&source.path).ok().flatten())
        .flatten();
    let stats = match mapped {
        Some(log) => {
            let ranges = chunks::split(log.bytes(), parts);
            let before = lines_before_each(&log, &ranges);
            let readers = ranges.into_iter().map(|r| log.reader(r, bytes_read.clone()));
            parse_beside_building(source, load, readers.zip(before).collect(), &mut problems, &mut builder)
        }
        None => match input::open_counted(&source.path, bytes_read.clone()) {
            // What stdin holds is known once it is opened.
            Ok(reader) if stdin && input::sniff::reads_as_text(&source.path) => {
                return text::load_text_log(source, load, Some(reader));
            }
            Ok(reader) => parse_beside_building(source, load, vec![(reader, 0)], &mut problems, &mut builder),
            Err(e) => {
                problems.push_file_level(&source.display, ProblemKind::Io, format!("cannot open: {e}"));
                Default::default()
            }
        },
    };
    if let Some((line, last)) = stats.unchecked_at_eof {
        // A file whose last line, inside a payload nobody hashed, lacks its
        // newline was either cut (a full disk, a killed writer) or merely
        // written without one: read it again hashing every payload, a second
        // pass over a rare file, rather than pass a gate on a cut log.
        if !opts.verify_all_payloads && !input::is_stdin(&source.path) {
            let again = LoadOptions {
                parse: ParseOptions {
                    verify_all_payloads: true,
                    ..opts.clone()
                },
                bytes_read: None,
                ..load.clone()
            };
            return load_trace(source, &again, parts);
        }
        problems.push(
            &source.display,
            line,
            ProblemKind::TruncatedPayload,
            format!(
                "the input ends mid-line inside this event's payload (lines {}-{last}), which could not be \
                 read again to check its md5: taken as cut off",
                line + 1
            ),
        );
    }
    if stats.envelopes == 0 && problems.count_of(ProblemKind::Io) == 0 {
        // A few KB read again (stdin's were recorded): what it is instead.
        let what = match input::sniff::sniff(&source.path) {
            _ if stats.lines == 0 => "file is empty: no TORCH_TRACE events".to_string(),
            Some(c @ (Content::Activations | Content::StepRecords)) => {
                format!("{}, not a TORCH_TRACE log", c.describe())
            }
            _ => format!("no TORCH_TRACE events in {} lines (not a trace log?)", stats.lines),
        };
        problems.push_file_level(&source.display, ProblemKind::NotGlog, what);
    }
    (builder.finish(source, stats), problems)
}

/// A log committed in this repository (`samples/traces/...`), loaded for a
/// unit test that reads a real run.
#[cfg(test)]
pub(crate) fn repo_sample(path: &str) -> Run {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    load(&[p], &ParseOptions::default()).expect("sample loads")
}

pub fn load(paths: &[std::path::PathBuf], opts: &ParseOptions) -> Result<Run, InputError> {
    let found = input::discover(paths)?;
    load_discovered(
        &found,
        &LoadOptions {
            parse: opts.clone(),
            ..LoadOptions::default()
        },
    )
}

/// Parses what `discover` found; what it skipped becomes problems of the
/// run (an unreadable entry an `io` one, so gates fail closed on it).
pub fn load_discovered(found: &Discovery, opts: &LoadOptions) -> Result<Run, InputError> {
    let mut run = load_sources(&found.sources, opts)?;
    let mut skipped = Problems::default();
    for s in &found.skipped {
        let kind = match s.why {
            SkipReason::Unreadable(_) => ProblemKind::Io,
            SkipReason::Duplicate(_) | SkipReason::Loop(_) | SkipReason::TlparseOutput => ProblemKind::SkippedInput,
        };
        let file: Arc<str> = s.path.display().to_string().into();
        skipped.push_file_level(&file, kind, s.to_string());
    }
    // Ahead of the line diagnostics, as file-level problems always are.
    skipped.merge(std::mem::take(&mut run.problems));
    run.problems = skipped;
    Ok(run)
}

/// Parses already discovered sources, in parallel across files.
pub fn load_sources(sources: &[LogSource], opts: &LoadOptions) -> Result<Run, InputError> {
    let cores = opts.threads.unwrap_or_else(rayon::current_num_threads);
    let parse = |s: &LogSource| {
        let parts = opts.parts.unwrap_or_else(|| parts_for(s, sources.len(), cores));
        load_source(s, opts, parts)
    };
    let parts: Vec<(Run, Problems)> = match opts.threads {
        Some(1) => sources.iter().map(parse).collect(),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| InputError::Unreadable("thread pool".into(), std::io::Error::other(e)))?;
            pool.install(|| sources.par_iter().map(parse).collect())
        }
        // Indexed parallel iterators collect in input order.
        None => sources.par_iter().map(parse).collect(),
    };
    Ok(merge_runs(parts, opts.select))
}

/// Groups the parsed files into runs by their first events (known only now,
/// so no log is read twice), marks every frame with its run, and keeps the
/// selected run's files (and the files in no run: their problems stay).
fn merge_runs(mut parts: Vec<(Run, Problems)>, select: RunSelect) -> Run {
    let inputs: Vec<&model::InputFile> = parts.iter().flat_map(|(p, _)| &p.inputs).collect();
    let (mut runs, of_file) = model::group_runs(&inputs);
    let count = runs.len();
    for (i, r) in runs.iter_mut().enumerate() {
        r.selected = select.keeps(i, count);
    }
    // One builder part per file: its `inputs` has the one file.
    for ((part, _), run) in parts.iter_mut().zip(&of_file) {
        part.inputs.iter_mut().for_each(|f| f.run = *run);
        part.frames.iter_mut().for_each(|f| f.run = run.unwrap_or(0));
    }
    let kept = parts
        .into_iter()
        .zip(of_file)
        .filter(|(_, run)| run.is_none_or(|r| runs[r].selected))
        .map(|(part, _)| part)
        .collect();
    let mut run = model::merge(kept);
    run.runs = runs;
    run
}

/// Parses trace text already in memory (the in-process log the Python
/// helper keeps) with the same parser and builder as files on disk.
pub fn load_text(name: &str, text: &[u8], year: i32) -> Run {
    let source = LogSource {
        path: name.into(),
        display: name.into(),
        rank: None,
        year,
        size: text.len() as u64,
    };
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(&source);
    let parser = Parser::new(source.display.clone(), ParseOptions::default(), &mut problems);
    let stats = parser.run(text, &mut |mut ev| builder.add(&mut ev));
    let mut run = builder.finish(&source, stats);
    run.problems = problems;
    let (runs, of_file) = model::group_runs(&run.inputs.iter().collect::<Vec<_>>());
    run.inputs.iter_mut().zip(of_file).for_each(|(f, r)| f.run = r);
    run.runs = runs
        .into_iter()
        .map(|r| model::RunInfo { selected: true, ..r })
        .collect();
    run
}

/// A log parsed while it is written (`guardscope watch`), a piece at a
/// time as it grows: each compile goes to `on_finished` on its own, as a
/// one-compile `Run`, when its `compilation_metrics` line is read. The
/// builder keeps only a stub of each finished compile (see
/// `RunBuilder::take_finished`), so memory does not grow with the log, and
/// nothing of the file's bytes is kept between pieces.
pub struct GrowingLog {
    source: LogSource,
    builder: RunBuilder,
    /// Lines parsed so far: the next piece's lines are numbered after them.
    lines: u64,
    pub problems: Problems,
}

impl GrowingLog {
    pub fn new(source: LogSource) -> Self {
        let builder = RunBuilder::new(&source);
        GrowingLog {
            source,
            builder,
            lines: 0,
            problems: Problems::default(),
        }
    }

    pub fn source(&self) -> &LogSource {
        &self.source
    }

    #[cfg(test)]
    pub(crate) fn builder(&self) -> &RunBuilder {
        &self.builder
    }

    /// Parses the complete events at the start of `bytes` (all of them at
    /// the `end` of the log, when its writer is gone) and returns how many
    /// bytes that was: the rest, an unfinished line or an event whose
    /// payload may still grow, is read again with the next piece.
    pub fn feed(&mut self, bytes: &[u8], end: bool, on_finished: &mut dyn FnMut(Run)) -> usize {
        let upto = if end {
            bytes.len()
        } else {
            chunks::complete_events_end(bytes)
        };
        if upto == 0 {
            return 0;
        }
        let parser = Parser::new(self.source.display.clone(), ParseOptions::default(), &mut self.problems);
        let builder = &mut self.builder;
        let stats = parser.run_part(&bytes[..upto], self.lines, end, &mut |mut ev| {
            let finished = matches!(ev.data, EventData::CompilationMetrics(_)).then_some((ev.pid, ev.compile));
            builder.add(&mut ev);
            if let Some(run) = finished.and_then(|(pid, r)| builder.take_finished(pid, r)) {
                on_finished(run);
            }
        });
        self.lines += stats.lines;
        upto
    }
}
