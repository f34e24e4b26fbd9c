//! When the command wrote no TORCH_TRACE log (a wrapper or launcher that
//! resets the environment, a node whose temp dir is not this one), its
//! stderr, copied as it passed, is read as a text log instead: the
//! `TORCH_LOGS=recompiles` lines `run` asked for, if they reached it.

use super::tee::Copied;
use crate::cli::args::InputArgs;
use crate::cli::error::{self, CliError};
use crate::cli::load::{load_run, text_logs_without_recompiles};
use crate::model::Run;
use crate::report::text::terminal_safe;
use crate::report::text_log::MISSING;
use std::path::{Path, PathBuf};

/// The name of the copy of the command's stderr in the trace directory
/// (not a log name: `summary DIR` reads only the TORCH_TRACE logs there).
pub const STDERR_COPY: &str = "stderr.txt";

/// The run read from the command's stderr, or None (with the sentence the
/// no-log error adds) when it holds none of Dynamo's lines or no copy was made.
pub fn read_stderr(copied: Option<&Copied>, quiet: bool, guard_trees: bool) -> Result<(Run, PathBuf), String> {
    let path = match copied {
        None => return Err("its stderr was not copied".into()),
        Some(Copied::Whole(path) | Copied::Partial(path, _)) => path,
    };
    let input = InputArgs::all(vec![path.clone()], quiet);
    match load_run(&input.paths, &input, guard_trees) {
        Ok(run) => Ok((run, path.clone())),
        Err(_) => Err(format!(
            "its stderr ({}) holds none of Dynamo's lines either: TORCH_LOGS={} did not reach it \
             or nothing recompiled",
            shown(path),
            super::child::TORCH_LOGS
        )),
    }
}

/// Says, once, that the run is read from text and what this text cannot show.
pub fn announce(command: &str, dir: &Path, path: &Path, run: &Run) {
    let guard_sets = run.text_log().is_some_and(|t| t.guard_sets > 0);
    let missing: Vec<&str> = MISSING
        .iter()
        .filter(|(key, _)| !(guard_sets && *key == "guard_sets"))
        .map(|(_, what)| *what)
        .collect();
    error::warn(&format!(
        "`{command}` wrote no TORCH_TRACE log into {} (TORCH_TRACE did not reach it: a wrapper or \
         launcher that resets the environment, or a machine that writes elsewhere); reading its \
         stderr ({}) as a text log instead. A text log cannot show {}; pass TORCH_TRACE through to \
         the command to see them",
        shown(dir),
        shown(path),
        missing.join("; ")
    ));
}

/// The gate's refusals on a run read from stderr, as `check` refuses text:
/// no recompile line at all is also what TORCH_LOGS lost on the way looks
/// like, and a copy cut short may have lost the lines that mattered.
pub fn gate_refusal(run: &Run, copied: Option<&Copied>) -> Option<CliError> {
    if let Some(Copied::Partial(path, why)) = copied {
        return Some(CliError::Incomplete(format!(
            "{} may not hold all of the command's stderr ({why}); the check fails closed",
            shown(path)
        )));
    }
    let silent = text_logs_without_recompiles(run);
    (!silent.is_empty()).then(|| {
        CliError::BadInput(format!(
            "{}: the command's stderr holds no recompile line, which cannot tell a run without \
             recompiles from one that TORCH_LOGS={} never reached; pass TORCH_TRACE through to the \
             command, or, if it ran with TORCH_LOGS=recompiles, `guardscope check \
             --recompiles-logged {}`",
            silent.join(", "),
            super::child::TORCH_LOGS,
            silent.join(" ")
        ))
    })
}

/// Warns that the copy was cut short (said once, whatever the command).
pub fn warn_partial(copied: Option<&Copied>) {
    if let Some(Copied::Partial(path, why)) = copied {
        error::warn(&format!(
            "{} may not hold all of the command's stderr: {why}",
            shown(path)
        ));
    }
}

fn shown(path: &Path) -> String {
    terminal_safe(&path.display().to_string()).into_owned()
}
