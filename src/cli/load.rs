//! Loading the TORCH_TRACE logs a command was given, with a progress bar.

use super::args::InputArgs;
use super::error::CliError;
use super::progress::Progress;
use crate::input::{self, Content, Discovery};
use crate::load::{self, LoadOptions};
use crate::model::{Run, RunSelect};
use crate::trace::ParseOptions;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

/// Loads a run, or says in one line why it cannot (no file, no trace event).
/// `guard_trees`: whether compiles keep their guard trees (see
/// `LoadOptions::guard_trees`), for commands that render HTML.
pub fn load_run(paths: &[PathBuf], input: &InputArgs, guard_trees: bool) -> Result<Run, CliError> {
    load_found(&input::discover(paths)?, input, guard_trees)
}

/// `load_run` after discovery: the Python `load` discovers first, to raise
/// FileNotFoundError for a missing path and ValueError for the rest.
pub(crate) fn load_found(found: &Discovery, input: &InputArgs, guard_trees: bool) -> Result<Run, CliError> {
    load_found_with(found, input, guard_trees, false)
}

/// `load_run` for `check --recompiles-logged`: text logs without a single
/// Dynamo line are a run with no compile (the user says TORCH_LOGS was
/// set), not a file that is no log at all.
pub fn load_run_quiet_text(paths: &[PathBuf], input: &InputArgs, quiet_text_ok: bool) -> Result<Run, CliError> {
    load_found_with(&input::discover(paths)?, input, false, quiet_text_ok)
}

fn load_found_with(
    found: &Discovery,
    input: &InputArgs,
    guard_trees: bool,
    quiet_text_ok: bool,
) -> Result<Run, CliError> {
    let total: u64 = found.sources.iter().map(|s| s.size).sum();
    let bar = Progress::start(total, !input.quiet && io::stderr().is_terminal());
    let opts = LoadOptions {
        parse: ParseOptions {
            verify_all_payloads: input.verify_all,
            ..ParseOptions::default()
        },
        threads: None,
        parts: None,
        ahead_bytes: None,
        guard_trees,
        bytes_read: Some(bar.counter()),
        select: match (input.latest, input.run) {
            (true, _) => RunSelect::Latest,
            (false, Some(n)) => RunSelect::Index(n),
            (false, None) => RunSelect::All,
        },
    };
    let run = load::load_discovered(found, &opts);
    bar.finish();
    let run = run?;
    // With no run at all, the no-events error below says more.
    if let Some(n) = input.run.filter(|&n| !run.runs.is_empty() && n >= run.runs.len()) {
        let held = match run.runs.len() {
            1 => "1 run (--run 0)".to_string(),
            k => format!("{k} runs (--run 0 to {})", k - 1),
        };
        return Err(CliError::BadInput(format!("--run {n}: the logs hold {held}")));
    }
    let all_text = !run.inputs.is_empty() && run.inputs.iter().all(|i| i.stats.text.is_some());
    let silent_text = quiet_text_ok && all_text && run.problems.count_of(input::ProblemKind::Io) == 0;
    if run.envelope_count() == 0 && !silent_text {
        if let Some(advice) = found.sources.iter().find_map(wrong_kind) {
            return Err(CliError::BadInput(advice));
        }
        // The file-level verdict (line 0) says more than the first bad line.
        let problems = &run.problems.first;
        let why = problems.iter().find(|p| p.line == 0).or(problems.first());
        let why = why.map(ToString::to_string).unwrap_or_default();
        return Err(CliError::BadInput(format!("no TORCH_TRACE events found: {why}")));
    }
    Ok(run)
}

/// The text logs of a run that hold no recompile line at all, named for
/// check's refusal: such a log cannot show recompiles unless the job ran
/// with TORCH_LOGS=recompiles.
pub fn text_logs_without_recompiles(run: &Run) -> Vec<&str> {
    run.inputs
        .iter()
        .filter(|i| {
            i.stats
                .text
                .as_ref()
                .is_some_and(|t| t.recompile_blocks + t.limit_warnings == 0)
        })
        .map(|i| i.path.as_str())
        .collect()
}

/// A source that is another guardscope input, with the command that reads it.
fn wrong_kind(source: &input::LogSource) -> Option<String> {
    let advice = match input::sniff::sniff(&source.path)? {
        Content::Activations => {
            "this is an activation trace, not a TORCH_TRACE log: use `guardscope diff` or `report --activations`"
        }
        Content::StepRecords => {
            "these are StepLogger records, not a TORCH_TRACE log: use `guardscope steps` or `report --steps`"
        }
        _ => return None,
    };
    Some(format!("{}: {advice}", source.display))
}
