//! The pipeline from paths to a `Run`: discover files, parse each one
//! streaming (files in parallel) while another thread folds its events into
//! the model, merge in input order so the result does not depend on
//! scheduling.

use crate::input::{self, Content, Discovery, InputError, LogSource, SkipReason};
use crate::input::{ProblemKind, Problems};
use crate::model::{self, Run, RunBuilder, RunSelect};
use crate::trace::{EventData, ParseOptions, Parser};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

#[derive(Clone, Default)]
pub struct LoadOptions {
    pub parse: ParseOptions,
    /// Files parsed at once; None uses every core.
    pub threads: Option<usize>,
    /// Receives every byte read from disk, for a progress bar.
    pub bytes_read: Option<Arc<AtomicU64>>,
    /// Which run to keep when the logs hold several (a rerun, a stale log).
    pub select: RunSelect,
}

/// Parses one log file into its part of the run. A file that cannot be
/// opened is a problem of the run, not the end of it.
pub fn load_source(source: &LogSource, opts: &ParseOptions, bytes_read: Option<Arc<AtomicU64>>) -> (Run, Problems) {
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    let stats = match input::open_counted(&source.path, bytes_read) {
        Ok(reader) => {
            let parser = Parser::new(source.display.clone(), opts.clone(), &mut problems);
            parse_beside_building(parser, reader, &mut builder)
        }
        Err(e) => {
            problems.push_file_level(&source.display, ProblemKind::Io, format!("cannot open: {e}"));
            Default::default()
        }
    };
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

/// Events handed from the parsing thread to the building one at a time:
/// enough to make the hand-over cheap, few enough to keep memory flat.
const EVENT_BATCH: usize = 256;
const BATCHES_IN_FLIGHT: usize = 4;

/// Parses on a thread of its own while this one folds the events into the
/// model: the two halves overlap on two cores (guard trees make building a
/// third of the work on a large model). Events arrive in file order, so the
/// model is the one a single thread builds.
fn parse_beside_building<R: std::io::BufRead + Send>(
    parser: Parser<'_>,
    reader: R,
    builder: &mut RunBuilder,
) -> crate::trace::ParseStats {
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<crate::trace::Event>>(BATCHES_IN_FLIGHT);
    std::thread::scope(|scope| {
        let parsing = scope.spawn(move || {
            let mut batch = Vec::with_capacity(EVENT_BATCH);
            let stats = parser.run(reader, &mut |ev| {
                batch.push(ev);
                if batch.len() == EVENT_BATCH {
                    // The receiver lives until this thread is joined.
                    let _ = tx.send(std::mem::replace(&mut batch, Vec::with_capacity(EVENT_BATCH)));
                }
            });
            let _ = tx.send(batch);
            stats
        });
        for ev in rx.iter().flatten() {
            builder.add(ev);
        }
        match parsing.join() {
            Ok(stats) => stats,
            // A bug in the parser: the CLI's panic handler reports it.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
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
    let parse = |s: &LogSource| load_source(s, &opts.parse, opts.bytes_read.clone());
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
    let stats = parser.run(text, &mut |ev| builder.add(ev));
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

/// Parses a log while it is written (`reader` blocks for more, see
/// `input::follow`): each compile goes to `on_finished` on its own, as a
/// one-compile `Run`, when its `compilation_metrics` line is read. The
/// builder keeps only a stub of each finished compile (see
/// `RunBuilder::take_finished`), so memory does not grow with the log.
pub fn load_growing(source: &LogSource, reader: impl std::io::BufRead, on_finished: &mut dyn FnMut(Run)) -> Problems {
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    let parser = Parser::new(source.display.clone(), ParseOptions::default(), &mut problems);
    parser.run(reader, &mut |ev| {
        let finished = matches!(ev.data, EventData::CompilationMetrics(_)).then_some((ev.pid, ev.compile));
        builder.add(ev);
        if let Some(run) = finished.and_then(|(pid, r)| builder.take_finished(pid, r)) {
            on_finished(run);
        }
    });
    problems
}
