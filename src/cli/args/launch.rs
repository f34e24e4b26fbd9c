//! The flags of the commands that launch the user's training command:
//! `run` (with TORCH_TRACE set) and `rehearse` (the same run on a cheap
//! backend).

use super::parse_category;
use crate::analysis::check::{budgets, CheckOptions};
use crate::reasons::Category;
use clap::Args;
use std::path::PathBuf;

/// The gate flags `run --check` and `rehearse` share (`check` has its own,
/// for logs already written). Each is an Option with no clap default, so
/// `run` can tell one given without --check (`given`).
#[derive(Args, Debug, Default)]
pub struct GateArgs {
    /// Recompiles tolerated before failing (default 0; none when only
    /// --max-recompile-causes is given).
    #[arg(long, value_name = "N")]
    pub max_recompiles: Option<usize>,
    /// Causes of recompiles tolerated before failing: one cause can recompile many frames.
    ///
    /// One change at one call (a new padded length through a model graph
    /// breaks split into frames) recompiles each frame it reaches: one
    /// cause, several recompiles. Given alone, only causes are budgeted.
    #[arg(long, value_name = "N")]
    pub max_recompile_causes: Option<usize>,
    /// A baseline run (logs or directories) to compare against.
    #[arg(long, value_name = "PATH")]
    pub baseline: Vec<PathBuf>,
    /// Do not count recompiles of this category (repeatable).
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub allow: Vec<Category>,
    /// Fail when the run has more than N frames the baseline lacks (default: warn only).
    #[arg(long, value_name = "N")]
    pub max_new_frames: Option<usize>,
    /// With --baseline: distinct graph breaks the baseline lacks tolerated (default 0).
    #[arg(long, value_name = "N")]
    pub max_new_graph_breaks: Option<usize>,
    /// Frames that run eagerly (skipped, failed, over the recompile limit) tolerated (default 0).
    #[arg(long, value_name = "N")]
    pub max_eager_frames: Option<usize>,
    /// Also write the verdict as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

impl GateArgs {
    /// The first gate flag given, for `run` to refuse it without --check.
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.max_recompiles.is_some(), "--max-recompiles"),
            (self.max_recompile_causes.is_some(), "--max-recompile-causes"),
            (!self.baseline.is_empty(), "--baseline"),
            (!self.allow.is_empty(), "--allow"),
            (self.max_new_frames.is_some(), "--max-new-frames"),
            (self.max_new_graph_breaks.is_some(), "--max-new-graph-breaks"),
            (self.max_eager_frames.is_some(), "--max-eager-frames"),
            (self.junit.is_some(), "--junit"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// The gate's options, defaults filled in.
    pub fn options(&self, allow_unfinished: bool) -> CheckOptions {
        let (max_recompiles, max_recompile_causes) = budgets(self.max_recompiles, self.max_recompile_causes);
        CheckOptions {
            max_recompiles,
            max_recompile_causes,
            allow: self.allow.clone(),
            max_new_frames: self.max_new_frames,
            max_new_graph_breaks: self.max_new_graph_breaks.unwrap_or(0),
            max_eager_frames: self.max_eager_frames.unwrap_or(0),
            allow_unfinished,
        }
    }
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The directory TORCH_TRACE is set to: created, or an empty one
    /// (default: a fresh guardscope-run-* directory in the system temp dir, kept).
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// Also write the HTML report and summary.json into DIR.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write the --report into DIR even if it holds files guardscope did not write.
    #[arg(long, requires = "report")]
    pub overwrite: bool,
    /// With --report: no file:// or vscode:// links on the page's source lines.
    #[arg(long, requires = "report")]
    pub no_links: bool,
    /// Gate on recompiles as the `check` command does: its verdict and exit code.
    #[arg(long)]
    pub check: bool,
    /// The gate's budgets and baseline (each needs --check).
    #[command(flatten)]
    pub gate: GateArgs,
    /// With --check: the run may be stopped on purpose (killed, timed out): a
    /// compile its log never finishes does not fail the check.
    #[arg(long, requires = "check")]
    pub allow_unfinished: bool,
    /// Print the summary (with --check, the verdict) as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar while reading the logs.
    #[arg(short, long)]
    pub quiet: bool,
    /// The command to run, after `--` (e.g. `-- torchrun --nproc-per-node 2 train.py`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Args, Debug)]
pub struct RehearseArgs {
    /// The backend every torch.compile of the command is given: eager (Dynamo's guards,
    /// no code generation) or aot_eager (also traces the backward as Inductor does).
    #[arg(long, value_name = "BACKEND", default_value = "eager", value_parser = ["eager", "aot_eager"])]
    pub backend: String,
    /// The directory TORCH_TRACE is set to (as `run --trace-dir`).
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// Also write the HTML report and summary.json into DIR.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// The gate's budgets and baseline, as `run --check` takes them.
    #[command(flatten)]
    pub gate: GateArgs,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar while reading the logs.
    #[arg(short, long)]
    pub quiet: bool,
    /// The command to rehearse, after `--` (e.g. `-- python train.py --max-steps 20`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

impl RehearseArgs {
    /// The same run as `guardscope run --check` with these flags; the
    /// backend is the only thing a rehearsal adds.
    pub fn into_run(self) -> (RunArgs, String) {
        let run = RunArgs {
            trace_dir: self.trace_dir,
            report: self.report,
            overwrite: false,
            no_links: false,
            check: true,
            gate: self.gate,
            // A rehearsal runs to its end: a compile it never finished is
            // input not read, and fails closed.
            allow_unfinished: false,
            json: self.json,
            quiet: self.quiet,
            command: self.command,
        };
        (run, self.backend)
    }
}
