//! A text log (a job's stderr with `TORCH_LOGS=recompiles`) read into its
//! part of the run: the same builder as a TORCH_TRACE log, fed by the text
//! reader, on one thread (the text is mostly lines nobody reads).

use super::LoadOptions;
use crate::input::{self, LogSource, ProblemKind, Problems};
use crate::model::{Run, RunBuilder};
use crate::trace::TextParser;
use std::io::BufRead;

/// Reads `reader` (or opens the source) as a text log.
pub(super) fn load_text_log(
    source: &LogSource,
    load: &LoadOptions,
    reader: Option<Box<dyn BufRead + Send>>,
) -> (Run, Problems) {
    let mut problems = Problems::default();
    let mut builder = RunBuilder::new(source);
    if !load.guard_trees {
        builder.drop_guard_trees();
    }
    let reader = match reader {
        Some(r) => r,
        None => match input::open_counted(&source.path, load.bytes_read.clone()) {
            Ok(r) => r,
            Err(e) => {
                problems.push_file_level(&source.display, ProblemKind::Io, format!("cannot open: {e}"));
                return (builder.finish(source, Default::default()), problems);
            }
        },
    };
    let parser = TextParser::new(source.display.clone(), &mut problems);
    let stats = parser.run(reader, &mut |mut ev| builder.add(&mut ev));
    let text = stats.text.clone().unwrap_or_default();
    if text.dynamo_lines == 0 && problems.count_of(ProblemKind::Io) == 0 {
        let what = if stats.lines == 0 {
            "file is empty: no TORCH_TRACE events".to_string()
        } else {
            format!(
                "no TORCH_TRACE events and no Dynamo log lines (TORCH_LOGS=recompiles) in {} lines \
                 (not a trace log or a job's log?)",
                stats.lines
            )
        };
        problems.push_file_level(&source.display, ProblemKind::NotGlog, what);
    }
    (builder.finish(source, stats), problems)
}
