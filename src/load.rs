//! The pipeline from paths to a `Run`: discover files, parse each one
//! streaming (files in parallel), fold its events into the model, merge in
//! input order so the result does not depend on scheduling.

use crate::input::{self, Content, Discovery, InputError, LogSource, SkipReason};
use crate::input::{ProblemKind, Problems};
use crate::model::{self, Run, RunBuilder};
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
}

/// Parses one log file into its part of the run. A file that cannot be
/// opened is a problem of the run, not the end of it.
pub fn load_source(source: &LogSource, opts: &ParseOptions, bytes_read: Option<Arc<AtomicU64>>) -> (Run, Problems) {
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    let stats = match input::open_counted(&source.path, bytes_read) {
        Ok(reader) => {
            let parser = Parser::new(source.display.clone(), opts.clone(), &mut problems);
            parser.run(reader, &mut |ev| builder.add(ev))
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
    Ok(model::merge(parts))
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
