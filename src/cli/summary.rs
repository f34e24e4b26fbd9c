//! `guardscope summary`: the run's frames, recompiles and their causes.

use super::args::SummaryArgs;
use super::error::{CliError, Status};
use super::load::load_run;
use super::output::print;
use crate::analysis;
use crate::report::emit::SummaryView;

pub fn summary(args: SummaryArgs) -> Result<Status, CliError> {
    let run = load_run(&args.input.paths, &args.input)?;
    let findings = analysis::analyse(&run);
    let view = SummaryView {
        findings: &findings,
        verbose: args.verbose,
    };
    print(&view, args.json)?;
    Ok(Status::Success)
}
