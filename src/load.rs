//! The pipeline from paths to a `Run`: discover files, parse each one
//! streaming, fold its events into the model, merge in input order.

use crate::input::{self, InputError, LogSource};
use crate::model::{self, Run, RunBuilder};
use crate::trace::{ParseOptions, Parser, ProblemKind, Problems};

/// Parses one log file into its part of the run. A file that cannot be
/// opened is a problem of the run, not the end of it.
pub fn load_source(source: &LogSource, opts: &ParseOptions) -> (Run, Problems) {
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    let stats = match input::open(&source.path) {
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
        let what = if stats.lines == 0 {
            "file is empty: no TORCH_TRACE events".to_string()
        } else {
            format!("no TORCH_TRACE events in {} lines (not a trace log?)", stats.lines)
        };
        problems.push_file_level(&source.display, ProblemKind::NotGlog, what);
    }
    (builder.finish(source, stats), problems)
}

pub fn load(paths: &[std::path::PathBuf], opts: &ParseOptions) -> Result<Run, InputError> {
    let sources = input::discover(paths)?;
    let parts = sources.iter().map(|s| load_source(s, opts)).collect();
    Ok(model::merge(parts))
}
