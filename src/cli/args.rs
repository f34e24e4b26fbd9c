//! The command line's flags and arguments, each with its one-line help
//! (clap); the long help after them is in help.rs.

use super::help::{
    check_help, AFTER_HELP, COMPLETIONS_HELP, DIFF_HELP, MAN_HELP, REHEARSE_HELP, REPORT_HELP, RUN_HELP, STEPS_HELP,
    SUMMARY_HELP, WATCH_HELP,
};
use crate::activation_diff as ad;
use crate::reasons::Category;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

mod launch;
pub use launch::{RehearseArgs, RunArgs};

#[derive(Parser, Debug)]
#[command(
    name = "guardscope",
    version,
    about = "Explains torch.compile recompilations: which frame, which guard, what it cost.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour the text output: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: clap::ColorChoice,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarize the compiles of a run: frames, recompiles and their reasons.
    #[command(after_help = SUMMARY_HELP)]
    Summary(SummaryArgs),
    /// Fail (exit 1) when a run recompiles, or recompiles more than a baseline run.
    #[command(after_help = check_help())]
    Check(CheckArgs),
    /// Write an HTML report (one self-contained page) and summary.json.
    #[command(after_help = REPORT_HELP)]
    Report(ReportArgs),
    /// Compare two activation traces: the first divergent layer, step by step.
    #[command(after_help = DIFF_HELP)]
    Diff(DiffArgs),
    /// Slow-step post-mortem from guardscope.StepLogger records: the slowest
    /// steps and the compiles inside them.
    #[command(after_help = STEPS_HELP)]
    Steps(StepsArgs),
    /// Print a shell completion script for bash, zsh, fish, PowerShell or Elvish.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), of guardscope or of one command.
    #[command(after_help = MAN_HELP)]
    Man(ManArgs),
    /// Run a training command with TORCH_TRACE set, then summarize (or check) its compiles.
    #[command(after_help = RUN_HELP)]
    Run(RunArgs),
    /// Rehearse a job's compiles: run a short version of it with every torch.compile on a
    /// cheap backend, then gate on the recompiles it predicts.
    #[command(after_help = REHEARSE_HELP)]
    Rehearse(RehearseArgs),
    /// Follow the TORCH_TRACE logs a running job writes: one line per recompile as it happens.
    #[command(after_help = WATCH_HELP)]
    Watch(WatchArgs),
}

#[derive(Args, Debug)]
pub struct WatchArgs {
    /// The TORCH_TRACE directory the job writes (or one of its `.log` files);
    /// `-`: the job's stderr piped in, read as a text log (TORCH_LOGS=recompiles).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Stop once the process PID has exited (after reading what its logs hold by then).
    #[arg(long, value_name = "PID")]
    pub until_exit: Option<u32>,
    /// One JSON object per event, one per line (NDJSON), for log shippers.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete guardscope's commands and flags in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print, e.g. summary (default: guardscope's own).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

#[derive(Args, Debug)]
pub struct StepsArgs {
    /// Per-step JSONL files written by guardscope.StepLogger (plain or .gz),
    /// or a run's directory holding them (a Trainer's output_dir).
    #[arg(required = true, value_name = "STEPS.jsonl|DIR")]
    pub files: Vec<PathBuf>,
    /// TORCH_TRACE logs or directories of the same run, for fuller detail (repeatable).
    #[arg(long, value_name = "PATH")]
    pub trace: Vec<PathBuf>,
    /// How many of the slowest steps to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar while reading --trace logs.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Directory to write the report into.
    #[arg(short, long, value_name = "DIR", default_value = "guardscope-report")]
    pub output: PathBuf,
    /// Per-step JSONL written by guardscope.StepLogger (one file per rank; repeatable):
    /// step durations are drawn on the timeline.
    #[arg(long, value_name = "FILE")]
    pub steps: Vec<PathBuf>,
    /// Activation-trace JSONL written by guardscope.trace_activations: once for its
    /// stats over steps, twice (A, then B) to also mark where B first diverges.
    #[arg(long, value_name = "FILE")]
    pub activations: Vec<PathBuf>,
    /// Write into DIR even if it holds files guardscope did not write.
    #[arg(long)]
    pub overwrite: bool,
    /// Open the report in the default browser when done.
    #[arg(long)]
    pub open: bool,
    /// No links from the page's source lines to the files (file:// and
    /// vscode://file/PATH:LINE), e.g. for a page shared with people who do not have them.
    #[arg(long)]
    pub no_links: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Baseline run (logs or directories) of the same program to compare against.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub baseline: Vec<PathBuf>,
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
    /// Do not count recompiles of this category (repeatable), e.g. nn_module_attr for train/eval switches.
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub allow: Vec<Category>,
    /// Fail when the run has more than N frames the baseline lacks (default: warn only).
    #[arg(long, value_name = "N")]
    pub max_new_frames: Option<usize>,
    /// Fail when the run logs more than N distinct graph breaks (reason and
    /// user line) the baseline lacks (default 0). Needs --baseline.
    #[arg(long, value_name = "N", requires = "baseline")]
    pub max_new_graph_breaks: Option<usize>,
    /// Fail when more than N frames run eagerly, not compiled (Dynamo skipped
    /// them, their compile failed, or they hit the recompile limit); with
    /// --baseline, frames the baseline compiled.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_eager_frames: usize,
    /// The run was stopped on purpose (killed, timed out): a compile the log
    /// never finishes is named but does not fail the check (by default it
    /// does, exit 2: the log is not the whole run).
    #[arg(long)]
    pub allow_unfinished: bool,
    /// text; json: the verdict (docs/json.md); sarif: SARIF 2.1.0 for GitHub
    /// code scanning; github: workflow commands that annotate the lines in a
    /// GitHub Actions run; markdown: a table for $GITHUB_STEP_SUMMARY or a PR comment.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Also write the verdict as JUnit XML to FILE, for CI test reports.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Name the user's files relative to DIR in sarif, github and markdown
    /// output (default: the git work tree holding the current directory, else
    /// the current directory); files outside it stay absolute.
    #[arg(long, value_name = "DIR")]
    pub repo_root: Option<PathBuf>,
    /// The job ran with TORCH_LOGS=recompiles: a text log (its stderr)
    /// without recompile lines means nothing recompiled. Without this,
    /// check refuses such a log (exit 2): the lines may be missing only
    /// because TORCH_LOGS was not set.
    #[arg(long)]
    pub recompiles_logged: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    Text,
    Json,
    Sarif,
    Github,
    Markdown,
}

impl CheckArgs {
    /// `--json` is `--format json`; with another --format it is a usage error.
    pub fn format(&self) -> CheckFormat {
        if self.json {
            CheckFormat::Json
        } else {
            self.format
        }
    }
}

fn parse_category(name: &str) -> Result<Category, String> {
    Category::parse(name).ok_or_else(|| {
        let all: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        format!("unknown category '{name}'; one of: {}", all.join(", "))
    })
}

#[derive(Args, Debug)]
pub struct InputArgs {
    /// TORCH_TRACE log files or directories (`-`: stdin).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Verify the md5 of every payload, not only of those guardscope reads
    /// (the others are counted as unchecked); about 2.5x slower on inductor logs.
    #[arg(long)]
    pub verify_all: bool,
    /// No progress bar (it only appears on a terminal, after a second).
    #[arg(short, long)]
    pub quiet: bool,
    /// Only the newest run, when the logs hold several (a rerun, a stale log
    /// beside today's; the ranks of one torchrun launch are one run).
    #[arg(long, conflicts_with = "run")]
    pub latest: bool,
    /// Only the Nth run, 0 being the oldest (the summary lists them).
    #[arg(long, value_name = "N")]
    pub run: Option<usize>,
}

impl InputArgs {
    /// Every log under `paths`, no run picked: for a command's own trace
    /// directory or logs read beside the main input.
    pub fn all(paths: Vec<PathBuf>, quiet: bool) -> Self {
        InputArgs {
            paths,
            verify_all: false,
            quiet,
            latest: false,
            run: None,
        }
    }
}

#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// text; json: the model (a stable contract, docs/json.md); ndjson: one
    /// flat JSON record per compile, for DuckDB, Spark or BigQuery (docs/fleet.md).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = SummaryFormat::Text)]
    pub format: SummaryFormat,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// List every input error (a damaged line, an unreadable file) with file:line.
    #[arg(short, long)]
    pub verbose: bool,
    /// Also write the compile timeline to FILE as a Chrome trace (JSON), for
    /// ui.perfetto.dev or chrome://tracing.
    #[arg(long, value_name = "FILE")]
    pub trace_events: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryFormat {
    Text,
    Json,
    Ndjson,
}

impl SummaryArgs {
    /// `--json` is `--format json`; with another --format it is a usage error.
    pub fn format(&self) -> SummaryFormat {
        if self.json {
            SummaryFormat::Json
        } else {
            self.format
        }
    }
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The reference trace (JSONL, plain or .gz).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The trace to check against it.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Relative tolerance.
    #[arg(long, value_name = "F", default_value_t = ad::DEFAULT_RTOL, value_parser = non_negative)]
    pub rtol: f64,
    /// Absolute tolerance.
    #[arg(long, value_name = "F", default_value_t = ad::DEFAULT_ATOL, value_parser = non_negative)]
    pub atol: f64,
    /// Compare only these stats (comma-separated, e.g. abs_mean,max); default: every stat both sides have.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub stats: Vec<String>,
    /// Remove PREFIX from module names of side A, side B, or both (no `A=`/`B=`); repeatable.
    #[arg(long, value_name = "[A=|B=]PREFIX")]
    pub strip_prefix: Vec<String>,
    /// Rename modules of side A, B or both with the `REGEX -> REPLACEMENT` rules in FILE; repeatable.
    #[arg(long, value_name = "[A=|B=]FILE")]
    pub map: Vec<String>,
    /// Divergent records detailed after the first.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    /// Records on one side only are listed but do not fail the diff.
    #[arg(long)]
    pub allow_missing: bool,
    /// Print the result as JSON (a stable contract; see the README).
    #[arg(long)]
    pub json: bool,
}

fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a finite number >= 0")),
    }
}
