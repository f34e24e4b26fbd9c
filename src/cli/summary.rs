//! `guardscope summary`: the run's frames, recompiles and their causes.

use super::args::SummaryArgs;
use super::error::{written, CliError, Status};
use super::load::load_run;
use super::output::terminal_width;
use crate::analysis;
use crate::report::text::SafeWriter;
use crate::report::{json, terminal};
use std::io::{self, Write};

pub fn summary(args: SummaryArgs) -> Result<Status, CliError> {
    let run = load_run(&args.input.paths, &args.input)?;
    let findings = analysis::analyse(&run);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    written(if args.json {
        serde_json::to_writer_pretty(&mut out, &json::summary(&findings))
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: args.verbose,
        };
        terminal::write_summary(&mut SafeWriter::new(&mut out), &findings, &opts)
    })?;
    Ok(Status::Success)
}
