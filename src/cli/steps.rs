//! `guardscope steps`: the slow-step post-mortem from StepLogger records.

use super::args::{InputArgs, StepsArgs};
use super::error::{CliError, Status};
use super::load::load_run;
use super::output::Output;
use crate::analysis::steps::{analyse, screen};
use crate::input::{self, Content, Problems};
use crate::model::Step;
use crate::records;
use crate::report::emit::StepsView;
use std::path::{Path, PathBuf};

/// Which command reads step files: the advice for a trace given as one differs.
#[derive(Clone, Copy)]
pub(crate) enum StepsFor {
    /// `guardscope steps FILES --trace PATH`.
    Steps,
    /// `guardscope report PATH --steps FILES`.
    Report,
}

impl StepsFor {
    fn what(self) -> &'static str {
        match self {
            StepsFor::Steps => "the steps files",
            StepsFor::Report => "--steps files",
        }
    }

    fn trace_advice(self) -> &'static str {
        match self {
            StepsFor::Steps => "pass the step files, and the trace with `--trace`",
            StepsFor::Report => "pass the trace as report's PATH, and the step files with `--steps`",
        }
    }
}

/// Reads every steps file (those of a directory given: see
/// `step_files_in`); an unreadable file, a directory without step files, a
/// file of another kind (a TORCH_TRACE log, an activation trace) or no
/// record at all is an error, bad lines are problems.
pub(crate) fn read_step_files(paths: &[PathBuf], cmd: StepsFor) -> Result<(Vec<Step>, Problems), CliError> {
    let mut problems = Problems::default();
    let mut steps = Vec::new();
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            // A run's output directory (a Trainer's output_dir) holds its
            // step files among checkpoints and logs: they are taken by content.
            let found = step_files_in(path);
            if found.is_empty() {
                return Err(directory_given(path, cmd));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    for path in &files {
        let read = records::read_steps(path, &mut problems)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
        if read.is_empty() {
            if let Some(wrong) = wrong_kind(path, cmd) {
                return Err(wrong);
            }
        }
        steps.extend(read);
    }
    if !paths.is_empty() && steps.is_empty() {
        let why = problems.first.first().map(ToString::to_string).unwrap_or_default();
        return Err(CliError::BadInput(format!("no step records in {}: {why}", cmd.what())));
    }
    Ok((steps, problems))
}

/// The files directly in `dir` that hold StepLogger records (told by their
/// first line, a few KB read each), in name order with rank 2 before 10.
pub(crate) fn step_files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| matches!(input::sniff::sniff(p), Some(Content::StepRecords)))
        .collect();
    files.sort_by_key(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (input::rank_from_name(&name), name)
    });
    files
}

fn directory_given(dir: &Path, cmd: StepsFor) -> CliError {
    let is_trace = input::discover(&[dir.to_path_buf()]).is_ok_and(|found| !found.sources.is_empty());
    let what = if is_trace {
        "a TORCH_TRACE directory, not step records".to_string()
    } else {
        format!(
            "a directory; step files are what StepLogger writes (e.g. {})",
            dir.join("steps_*.jsonl").display()
        )
    };
    CliError::BadInput(format!("{}: {what}: {}", dir.display(), cmd.trace_advice()))
}

/// A file without step records that is another guardscope input.
fn wrong_kind(path: &Path, cmd: StepsFor) -> Option<CliError> {
    let advice = match input::sniff::sniff(path)? {
        Content::TorchTrace => format!("a TORCH_TRACE log, not step records: {}", cmd.trace_advice()),
        Content::Activations => {
            "an activation trace, not step records: use `guardscope diff` or `report --activations`".to_string()
        }
        _ => return None,
    };
    Some(CliError::BadInput(format!("{}: {advice}", path.display())))
}

pub fn steps(args: StepsArgs, out: Output) -> Result<Status, CliError> {
    let (steps, problems) = read_step_files(&args.files, StepsFor::Steps)?;
    let trace = if args.trace.is_empty() {
        None
    } else {
        let input = InputArgs::all(args.trace.clone(), args.quiet);
        Some(load_run(&args.trace, &input, false)?)
    };
    let mut problems = problems;
    let steps = screen(steps, trace.as_ref(), &mut problems);
    // Analysed once: each joined recompile's verdict is summary's.
    let findings = trace.as_ref().map(crate::analysis::analyse);
    let analysis = analyse(&steps, findings.as_ref(), args.top);
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
    out.print(&view)?;
    if view.unread_inputs.is_empty() {
        Ok(Status::Success)
    } else {
        Err(CliError::Incomplete(format!(
            "input not fully read ({} problem(s)); see the list above",
            view.unread_inputs.len()
        )))
    }
}
