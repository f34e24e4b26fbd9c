//! The flags of the commands that launch the user's training command:
//! `run` (with TORCH_TRACE set) and `rehearse` (the same run on a cheap
//! backend).

use super::parse_category;
use crate::reasons::Category;
use clap::Args;
use std::path::PathBuf;

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
    /// With --check: recompiles tolerated before failing.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    pub max_recompiles: usize,
    /// With --check: a baseline run (logs or directories) to compare against.
    #[arg(long, value_name = "PATH", requires = "check")]
    pub baseline: Vec<PathBuf>,
    /// With --check: do not count recompiles of this category (repeatable).
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category, requires = "check")]
    pub allow: Vec<Category>,
    /// With --check: fail when the run has more than N frames the baseline lacks.
    #[arg(long, value_name = "N", requires = "check")]
    pub max_new_frames: Option<usize>,
    /// With --check --baseline: distinct graph breaks the baseline lacks tolerated.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    pub max_new_graph_breaks: usize,
    /// With --check: frames that run eagerly (skipped, failed, over the recompile limit) tolerated.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    pub max_eager_frames: usize,
    /// With --check: the run may be stopped on purpose (killed, timed out): a
    /// compile its log never finishes does not fail the check.
    #[arg(long, requires = "check")]
    pub allow_unfinished: bool,
    /// With --check: also write the verdict as JUnit XML to FILE.
    #[arg(long, value_name = "FILE", requires = "check")]
    pub junit: Option<PathBuf>,
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
    /// Predicted recompiles tolerated before failing.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_recompiles: usize,
    /// A baseline run (logs or directories) to compare against.
    #[arg(long, value_name = "PATH")]
    pub baseline: Vec<PathBuf>,
    /// Do not count predicted recompiles of this category (repeatable).
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub allow: Vec<Category>,
    /// Fail when the rehearsal has more than N frames the baseline lacks.
    #[arg(long, value_name = "N")]
    pub max_new_frames: Option<usize>,
    /// With --baseline: distinct graph breaks the baseline lacks tolerated.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_new_graph_breaks: usize,
    /// Predicted frames that run eagerly (skipped, failed, over the recompile limit) tolerated.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_eager_frames: usize,
    /// Also write the verdict as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
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
            max_recompiles: self.max_recompiles,
            baseline: self.baseline,
            allow: self.allow,
            max_new_frames: self.max_new_frames,
            max_new_graph_breaks: self.max_new_graph_breaks,
            max_eager_frames: self.max_eager_frames,
            // A rehearsal runs to its end: a compile it never finished is
            // input not read, and fails closed.
            allow_unfinished: false,
            junit: self.junit,
            json: self.json,
            quiet: self.quiet,
            command: self.command,
        };
        (run, self.backend)
    }
}
