//! `guardscope check`: the recompile gate, against a budget or a baseline run.

use super::args::{CheckArgs, CheckFormat, InputArgs};
use super::error::{CliError, Status};
use super::exit;
use super::load::{load_run_quiet_text, text_logs_without_recompiles};
use super::output::{print_verbatim, Output};
use crate::analysis::check::{budgets, CheckOptions};
use crate::analysis::{self, Findings};
use crate::report::ci::RepoRoot;
use crate::report::{github, junit, markdown, sarif};
use std::path::{Path, PathBuf};

pub fn check(args: CheckArgs, out: Output) -> Result<Status, CliError> {
    let format = args.format();
    let result = load_and_gate(args, out, format);
    if let Err(e) = &result {
        // Nothing printed yet (no such input, say): the CI step that reads
        // stdout still gets a document in its format, one that fails.
        if !e.after_output() {
            let document = match format {
                CheckFormat::Sarif => Some(sarif::failure(&e.to_string(), e.exit_code())),
                CheckFormat::Github => Some(github::failure(&e.to_string())),
                CheckFormat::Markdown => Some(markdown::failure(&e.to_string())),
                CheckFormat::Text | CheckFormat::Json => None,
            };
            if let Some(document) = document {
                // The error itself stands either way: stdout is a courtesy.
                let _ = print_verbatim(document.as_bytes());
            }
        }
    }
    result
}

fn load_and_gate(args: CheckArgs, out: Output, format: CheckFormat) -> Result<Status, CliError> {
    let logged = args.recompiles_logged;
    // A job's log without Dynamo's lines is refused below, in check's words.
    let candidate = load_run_quiet_text(&args.input.paths, &args.input, true)?;
    let baseline = match &args.baseline[..] {
        [] => None,
        // --latest / --run pick the candidate's run: the baseline is read whole.
        paths => {
            let whole = InputArgs {
                verify_all: args.input.verify_all,
                ..InputArgs::all(paths.to_vec(), args.input.quiet)
            };
            Some(load_run_quiet_text(paths, &whole, true)?)
        }
    };
    let silent: Vec<&str> = [Some(&candidate), baseline.as_ref()]
        .into_iter()
        .flatten()
        .flat_map(text_logs_without_recompiles)
        .collect();
    if !silent.is_empty() && !logged {
        // No recompile line in a job's stderr is what TORCH_LOGS unset looks
        // like too: the gate cannot pass on it.
        return Err(CliError::BadInput(format!(
            "{}: a text log without a single recompile line cannot show recompiles (TORCH_LOGS=recompiles \
             may not have been set); run the job with TORCH_LOGS=recompiles or TORCH_TRACE=DIR, or pass \
             --recompiles-logged if it ran with TORCH_LOGS=recompiles",
            silent.join(", ")
        )));
    }
    let (max_recompiles, max_recompile_causes) = budgets(args.max_recompiles, args.max_recompile_causes);
    let opts = CheckOptions {
        max_recompiles,
        max_recompile_causes,
        allow: args.allow,
        max_new_frames: args.max_new_frames,
        max_new_graph_breaks: args.max_new_graph_breaks.unwrap_or(0),
        max_eager_frames: args.max_eager_frames,
        allow_unfinished: args.allow_unfinished,
    };
    let candidate = analysis::analyse(&candidate);
    let baseline = baseline.as_ref().map(analysis::analyse);
    let printed = Printed {
        format,
        junit: args.junit.as_deref(),
        repo_root: args.repo_root.as_deref(),
    };
    gate(&candidate, baseline.as_ref(), &opts, out, &printed)
}

/// How the gate's verdict is printed and where else it is written.
pub(super) struct Printed<'a> {
    pub format: CheckFormat,
    pub junit: Option<&'a Path>,
    /// `--repo-root`, for the formats that name files for CI.
    pub repo_root: Option<&'a Path>,
}

/// Judges an analysed run, writes the JUnit file if asked, prints the
/// verdict and turns it into the exit status: `check` and `run --check`
/// are the same gate. The verdict alone decides the status; the format
/// only prints it.
pub(super) fn gate(
    candidate: &Findings,
    baseline: Option<&Findings>,
    opts: &CheckOptions,
    out: Output,
    printed: &Printed,
) -> Result<Status, CliError> {
    let verdict = analysis::check::check(candidate, baseline, opts);
    if let Some(path) = printed.junit {
        std::fs::write(path, junit::junit(&verdict))
            .map_err(|e| CliError::BadInput(format!("cannot write {}: {e}", path.display())))?;
    }
    let outcome = if verdict.passed {
        Ok(Status::Success)
    } else if !verdict.unread_inputs.is_empty() {
        // The gate could not judge the run, which is not the same as finding
        // recompiles: exit 2, and the verdict lists what was lost.
        Err(CliError::Incomplete(
            "input not fully read; the check fails closed (the verdict lists what was lost)".into(),
        ))
    } else {
        Ok(Status::FoundProblem)
    };
    let root = || RepoRoot::new(&repo_root(printed.repo_root));
    match printed.format {
        CheckFormat::Text | CheckFormat::Json => out.print(&verdict)?,
        CheckFormat::Sarif => {
            let code = match &outcome {
                Ok(Status::Success) => exit::OK,
                Ok(Status::FoundProblem) => exit::FOUND_PROBLEM,
                Err(e) => e.exit_code(),
            };
            print_verbatim(sarif::sarif(&verdict, &root(), code).as_bytes())?
        }
        CheckFormat::Github => print_verbatim(github::github(&verdict, &root()).as_bytes())?,
        CheckFormat::Markdown => print_verbatim(markdown::markdown(&verdict, &root()).as_bytes())?,
    }
    outcome
}

/// The directory CI formats name files from: `--repo-root`, else the work
/// tree of the git repository holding the current directory (the first
/// directory upwards with a `.git`, a directory or a worktree's file),
/// else the current directory. Found without running git, which CI
/// containers may lack.
fn repo_root(explicit: Option<&Path>) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if let Some(dir) = explicit {
        return cwd.join(dir);
    }
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf()
}
