//! `guardscope check`: the recompile gate, against a budget or a baseline run.

use super::args::{CheckArgs, InputArgs};
use super::error::{CliError, Status};
use super::load::load_run;
use super::output::Output;
use crate::analysis::{self, check::CheckOptions, Findings};
use crate::report::junit;
use std::path::Path;

pub fn check(args: CheckArgs, out: Output) -> Result<Status, CliError> {
    let candidate = load_run(&args.input.paths, &args.input, false)?;
    let baseline = match &args.baseline[..] {
        [] => None,
        // --latest / --run pick the candidate's run: the baseline is read whole.
        paths => {
            let whole = InputArgs {
                verify_all: args.input.verify_all,
                ..InputArgs::all(paths.to_vec(), args.input.quiet)
            };
            Some(load_run(paths, &whole, false)?)
        }
    };
    let opts = CheckOptions {
        max_recompiles: args.max_recompiles,
        allow: args.allow,
        max_new_frames: args.max_new_frames,
        max_new_graph_breaks: args.max_new_graph_breaks,
    };
    let candidate = analysis::analyse(&candidate);
    let baseline = baseline.as_ref().map(analysis::analyse);
    gate(&candidate, baseline.as_ref(), &opts, out, args.junit.as_deref())
}

/// Judges an analysed run, writes the JUnit file if asked, prints the
/// verdict and turns it into the exit status: `check` and `run --check`
/// are the same gate.
pub(super) fn gate(
    candidate: &Findings,
    baseline: Option<&Findings>,
    opts: &CheckOptions,
    out: Output,
    junit_file: Option<&Path>,
) -> Result<Status, CliError> {
    let verdict = analysis::check::check(candidate, baseline, opts);
    if let Some(path) = junit_file {
        std::fs::write(path, junit::junit(&verdict))
            .map_err(|e| CliError::BadInput(format!("cannot write {}: {e}", path.display())))?;
    }
    out.print(&verdict)?;
    if verdict.passed {
        Ok(Status::Success)
    } else if !verdict.unread_inputs.is_empty() {
        // The gate could not judge the run, which is not the same as finding
        // recompiles: exit 2, and the verdict lists what was lost.
        Err(CliError::Incomplete(
            "input not fully read; the check fails closed (the verdict lists what was lost)".into(),
        ))
    } else {
        Ok(Status::FoundProblem)
    }
}
