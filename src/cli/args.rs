//! The command line's flags, arguments and help texts (clap).

use crate::activation_diff as ad;
use crate::reasons::Category;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

pub const AFTER_HELP: &str = "\
Inputs: a TORCH_TRACE log (`.log` or `.log.gz`), `-` for stdin (plain or
gzip), or a directory holding them (searched recursively for
dedicated_log_torch_trace*.log[.gz], one per rank or process; without such
names, the files whose first line is a TORCH_TRACE line). Not a tlparse
output directory: pass its raw.log. Produce one with:
TORCH_TRACE=/tmp/trace python train.py

Exit codes: 0 success · 1 a check found a problem · 2 bad usage or unreadable
input · 3 internal error (please report it).";

/// `summary` never finds "a problem": it has no exit code 1.
const SUMMARY_HELP: &str = "\
Example:  guardscope summary /tmp/trace --trace-events /tmp/compiles.json
          (then open compiles.json in ui.perfetto.dev: one track per rank and
          frame, each compile a slice with its cause)
          guardscope summary /tmp/trace --format ndjson > compiles.ndjson
          (one JSON record per compile, for DuckDB: see docs/fleet.md)

Inputs: a TORCH_TRACE log (`.log` or `.log.gz`), `-` for stdin (plain or
gzip), or a directory holding them (searched recursively for
dedicated_log_torch_trace*.log[.gz], one per rank or process; without such
names, the files whose first line is a TORCH_TRACE line). Not a tlparse
output directory: pass its raw.log. Produce one with:
TORCH_TRACE=/tmp/trace python train.py

Several runs in one directory (a rerun beside the last run's log) are named
on the summary's second line; the ranks of one torchrun launch are one run.
Pick one with --latest or --run N:
Example:  guardscope summary /tmp/rerun --latest

Exit codes: 0 success · 2 bad usage or unreadable input · 3 internal error
(please report it).";

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
    /// Follow the TORCH_TRACE logs a running job writes: one line per recompile as it happens.
    #[command(after_help = WATCH_HELP)]
    Watch(WatchArgs),
}

const WATCH_HELP: &str = "\
Follows DIR (a TORCH_TRACE directory, or one log file) while a job writes
into it: new `.log` files (one per rank or process) and the lines added to
each, read every 200 ms. Each recompile is one line as soon as its compile
finishes: the frame, the cause's category and culprit, the user line it
was called from, and its compile time; a frame that hits the recompile
limit gets a line saying so. No change to the training code: only
TORCH_TRACE set for the job.

Example:  guardscope watch /tmp/trace
          guardscope watch /tmp/trace --until-exit 4242 --json >> recompiles.ndjson

A half-written last line is read when it is complete; a log truncated or
replaced (rotated) is read again from its start. DIR need not exist yet.
Runs until Ctrl-C, or with --until-exit PID until that process has exited
(then reads what is left and exits 0).

Exit codes: 0 success (the process of --until-exit ended, or stdout was
closed) · 2 bad usage or an unreadable DIR · 3 internal error.";

#[derive(Args, Debug)]
pub struct WatchArgs {
    /// The TORCH_TRACE directory the job writes (or one of its `.log` files).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Stop once the process PID has exited (after reading what its logs hold by then).
    #[arg(long, value_name = "PID")]
    pub until_exit: Option<u32>,
    /// One JSON object per event, one per line (NDJSON), for log shippers.
    #[arg(long)]
    pub json: bool,
}

const COMPLETIONS_HELP: &str = "\
Example:  guardscope completions bash > ~/.local/share/bash-completion/completions/guardscope
          guardscope completions zsh > ~/.zfunc/_guardscope   (with fpath+=~/.zfunc)
          guardscope completions fish > ~/.config/fish/completions/guardscope.fish
          guardscope completions powershell >> $PROFILE

Exit codes: 0 success · 2 bad usage.";

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete guardscope's commands and flags in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

const MAN_HELP: &str = "\
Example:  guardscope man | man -l -
          guardscope man summary > guardscope-summary.1

Without COMMAND, the page of guardscope (every command, listed); with it,
the page of that command (all its flags).

Exit codes: 0 success · 2 bad usage.";

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print, e.g. summary (default: guardscope's own).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

const RUN_HELP: &str = "\
Runs COMMAND with your environment and TORCH_TRACE set to a fresh directory
(kept, its path printed; --trace-dir to choose one), then prints the summary
of the logs it wrote: one per process, so a torchrun job's ranks are all
summarised. Ctrl-C or a SIGTERM/SIGHUP sent to guardscope reaches the
command; guardscope then still summarises what the logs hold.

Example:  guardscope run --check -- python train.py --steps 20

With --check, the check's verdict is printed instead of the summary and the
exit code is the check's (its options are those of `check`, see its --help).
--report DIR also writes the HTML page and summary.json, as `report` does.

When the command fails, its failure is one line on stderr (after what its
logs hold) and guardscope exits with the command's own code, never a pass:
its exit code as is, or 128 + the signal number when a signal ended it
(130 for Ctrl-C), as a shell reports it.

Exit codes: 0 success · 1 --check failed · 2 bad usage, a command that
cannot be started, or one that wrote no TORCH_TRACE log (nothing compiled)
· 3 internal error · otherwise the command's own failure, as above.";

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

const STEPS_HELP: &str = "\
Reads the per-step JSONL that guardscope.StepLogger writes (one file per rank)
and prints the slowest steps with their wall time, its ratio to the median
step without compiles of the same rank (the steps that compiled nothing:
when most steps compile, the median of all is a compile step; none there,
it says so), and the compiles inside each (recompiles with their
classified cause and source line); then how much of the run went to
compiling after the first step, and the steps at which one rank recompiled
while the others did not (they wait for it at the next collective).

Example:  guardscope steps steps_*.jsonl --trace /tmp/trace
          (the files of StepLogger(\"steps_<rank>.jsonl\"))

With --trace, each compile is joined with the TORCH_TRACE log of the same run
by compile id (and start time, which tells apart compile ids reused after
torch._dynamo.reset()); the log's detail (failed guard, attempts, log line)
is shown, and compiles that a step record does not list but that started
inside the step are added.

Exit codes: 0 success · 2 bad usage, unreadable input (also a steps file or
trace log read only in part: the output lists it) or no step records ·
3 internal error.";

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

const REPORT_HELP: &str = "\
Writes DIR/index.html (open it from disk or attach it to a CI run: no network
needed), DIR/summary.json (the same data as `summary --json`) and
DIR/compile_trace.json (the compile timeline, with --steps the steps, as a
Chrome trace for ui.perfetto.dev or chrome://tracing), then prints the
terminal summary and the page's path.

Example:  guardscope report /tmp/trace -o /tmp/trace-report --open

With -q, neither the summary nor a progress bar is printed, only the path.

The page links your source lines to the files (file:// and
vscode://file/PATH:LINE); --no-links leaves them as text.

guardscope only writes into a directory it created, or an empty one; pass
--overwrite to write into another (only index.html, summary.json and
compile_trace.json are replaced).

Exit codes: 0 success · 2 bad usage, unreadable input or unwritable output ·
3 internal error.";

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

const CHECK_HELP_HEAD: &str = "\
Without --baseline, every recompile counts (except --allow'ed categories).
With --baseline, only recompiles the baseline run does not also have count:
run the same steps twice, e.g. with and without new hooks, and compare.
Frames are matched by function, file and first line (frame ids shift when a
graph break is added); new frames are a warning unless --max-new-frames.
Graph breaks are matched by reason and user line; those the baseline does
not log are a warning unless --max-new-graph-breaks N (fail above N).";

const CHECK_HELP_TAIL: &str = "\
Output for CI (docs/ci.md): --format sarif (upload it to GitHub code
scanning), github (annotations on the lines, in a GitHub Actions log) or
markdown (append it to $GITHUB_STEP_SUMMARY); each names the user's line of
every counted recompile, relative to --repo-root.
Example:  guardscope check /tmp/hooks --baseline /tmp/base --format sarif > guardscope.sarif

A log that cannot be read completely (a rank's file unreadable, a gzip
stream cut short) fails the check with exit 2, the problems listed in every
format and in --junit: the gate never passes on input it did not see. The
format never changes the exit code.

Exit codes: 0 pass · 1 check failed · 2 bad usage or unreadable input ·
3 internal error.";

/// `check --help` after the flags. The --allow categories are listed from
/// the category table (src/reasons/category.rs), so a new category is in the
/// help the day its row is added; a hand-kept list had fallen behind.
fn check_help() -> String {
    let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    let list = crate::report::format::wrap_words(&format!("Categories for --allow: {}", names.join(" ")), 76);
    format!("{CHECK_HELP_HEAD}\n\n{}\n\n{CHECK_HELP_TAIL}", list.join("\n"))
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Baseline run (logs or directories) of the same program to compare against.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub baseline: Vec<PathBuf>,
    /// Recompiles tolerated before failing.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_recompiles: usize,
    /// Do not count recompiles of this category (repeatable), e.g. nn_module_attr for train/eval switches.
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub allow: Vec<Category>,
    /// Fail when the run has more than N frames the baseline lacks (default: warn only).
    #[arg(long, value_name = "N")]
    pub max_new_frames: Option<usize>,
    /// Fail when the run logs more than N distinct graph breaks (reason and
    /// user line) the baseline lacks (default: warn only). Needs --baseline.
    #[arg(long, value_name = "N", requires = "baseline")]
    pub max_new_graph_breaks: Option<usize>,
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

pub const DIFF_HELP: &str = "\
Aligns the records of two activation traces (JSONL from
guardscope.trace_activations, or the reference format without \"call\"; plain
or .gz) by (step, module, tensor, call), compares every stat both have, and
reports the first divergent record in A's execution order, the next ones, a
per-step summary, and records present on one side only. Both files are
streamed; memory does not grow with their size.

Tolerance: a stat is equal when |a - b| <= atol + rtol * max(|a|, |b|).
The defaults (rtol 1e-2, atol 1e-4) are for bf16 noise: bf16 keeps 8
significant bits (one rounding moves a value by up to 0.4%) and reductions add
a few roundings, while real port bugs move stats by more. For float32 parity
try --rtol 1e-5 --atol 1e-7. Shapes and dtypes must match exactly. A NaN
facing a number is a divergence; NaN on both sides, null and \"<error: ...>\"
are not comparable (counted, never a divergence); other strings are
malformed (counted as problems). A diff that compared no value fails.

Ports whose module paths differ: strip a prefix on one side, and/or rename
with regex rules (one `REGEX -> REPLACEMENT` per line, applied in order, `#`
comments; the replacement may use ${1}):

  guardscope diff ref.jsonl port.jsonl.gz --strip-prefix A=transformer. --strip-prefix B=model.
  guardscope diff ref.jsonl port.jsonl --map B=names.txt
      names.txt:  ^layers\\.(\\d+)\\.self_attn$ -> blocks.${1}.attn

Exit codes: 0 equal within tolerance · 1 divergent, no record aligned, no
stat value compared (all null, <error> or malformed), or records on one
side only (unless --allow-missing) · 2 bad usage (e.g. a
--stats name no aligned record has), unreadable file (also one read only in
part: verdict `unreadable`) or a file without records · 3 internal error.";

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
