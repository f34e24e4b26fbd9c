//! `guardscope steps`: the slow-step post-mortem from StepLogger records.

use super::args::{InputArgs, StepsArgs};
use super::error::{CliError, Status};
use super::load::load_run;
use super::output::print;
use crate::analysis::steps::{analyse, screen};
use crate::input::Problems;
use crate::model::Step;
use crate::records;
use crate::report::emit::StepsView;
use std::path::PathBuf;

/// Reads every steps file; an unreadable file or no record at all is an
/// error, bad lines are problems.
pub(crate) fn read_step_files(paths: &[PathBuf], what: &str) -> Result<(Vec<Step>, Problems), CliError> {
    let mut problems = Problems::default();
    let mut steps = Vec::new();
    for path in paths {
        let read = records::read_steps(path, &mut problems)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
        steps.extend(read);
    }
    if !paths.is_empty() && steps.is_empty() {
        let why = problems.first.first().map(ToString::to_string).unwrap_or_default();
        return Err(CliError::BadInput(format!("no step records in {what}: {why}")));
    }
    Ok((steps, problems))
}

pub fn steps(args: StepsArgs) -> Result<Status, CliError> {
    let (steps, problems) = read_step_files(&args.files, "the steps files")?;
    let trace = if args.trace.is_empty() {
        None
    } else {
        let input = InputArgs {
            paths: args.trace.clone(),
            verify_all: false,
            quiet: args.quiet,
        };
        Some(load_run(&args.trace, &input)?)
    };
    let mut problems = problems;
    let steps = screen(steps, trace.as_ref(), &mut problems);
    let analysis = analyse(&steps, trace.as_ref(), args.top);
    // Input not read to its end (a cut gzip, a rank's log that cannot be
    // opened) leaves a partial post-mortem: shown, listed, and exit 2.
    let mut unread = problems.unread();
    if let Some(run) = &trace {
        unread.extend(run.problems.unread());
    }
    let view = StepsView {
        analysis: &analysis,
        problems: problems.first.iter().map(ToString::to_string).collect(),
        problem_count: problems.count,
        unread_inputs: unread,
    };
    print(&view, args.json)?;
    if view.unread_inputs.is_empty() {
        Ok(Status::Success)
    } else {
        Err(CliError::Incomplete(format!(
            "input not fully read ({} problem(s)); see the list above",
            view.unread_inputs.len()
        )))
    }
}
