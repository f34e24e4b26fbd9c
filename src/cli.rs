//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.

use crate::analysis::{self, check::CheckOptions};
use crate::load;
use crate::model::Run;
use crate::reasons::Category;
use crate::report::{self, json, terminal};
use crate::trace::ParseOptions;
use clap::{Args, Parser, Subcommand};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// Exit codes, documented in `--help` and the README.
pub mod exit {
    pub const OK: i32 = 0;
    /// A check or diff found a problem (used by `check` and `diff`).
    pub const FOUND_PROBLEM: i32 = 1;
    /// Bad usage, or input that cannot be read or holds no trace events.
    pub const BAD_INPUT: i32 = 2;
    /// A bug in guardscope (never a panic's 101).
    pub const INTERNAL: i32 = 3;
}

const AFTER_HELP: &str = "\
Inputs: a TORCH_TRACE log (`.log` or `.log.gz`), or a directory holding them
(searched recursively for dedicated_log_torch_trace*.log[.gz], one per rank or
process). Produce one with:  TORCH_TRACE=/tmp/trace python train.py

Exit codes: 0 success · 1 a check found a problem · 2 bad usage or unreadable
input · 3 internal error (please report it).";

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
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Summarize the compiles of a run: frames, recompiles and their reasons.
    #[command(after_help = AFTER_HELP)]
    Summary(SummaryArgs),
    /// Fail (exit 1) when a run recompiles, or recompiles more than a baseline run.
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
}

const CHECK_HELP: &str = "\
Without --baseline, every recompile counts (except --allow'ed categories).
With --baseline, only recompiles the baseline run does not also have count:
run the same steps twice, e.g. with and without new hooks, and compare.
Frames are matched by function, file and first line (frame ids shift when a
graph break is added); new frames are a warning unless --max-new-frames.

Categories for --allow: shape_lazy_buffer shape_input stride dtype device
requires_grad closure_hook_state closure_state global_var torch_global_state
nn_module_attr object_id type_change constant_value container_len dict_keys
hooks_changed cache_limit other

Exit codes: 0 pass · 1 check failed · 2 bad usage or unreadable input ·
3 internal error.";

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
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the verdict as JUnit XML to FILE, for CI test reports.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

fn parse_category(name: &str) -> Result<Category, String> {
    Category::parse(name).ok_or_else(|| {
        let all: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        format!("unknown category '{name}'; one of: {}", all.join(", "))
    })
}

#[derive(Args, Debug)]
pub struct InputArgs {
    /// TORCH_TRACE log files or directories.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Only verify the md5 of payloads guardscope reads (faster on huge logs;
    /// the others are counted as unchecked).
    #[arg(long)]
    pub fast: bool,
}

#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the model as JSON (a stable contract; see the README).
    #[arg(long)]
    pub json: bool,
    /// List every parse problem with file:line.
    #[arg(short, long)]
    pub verbose: bool,
}

/// Runs the CLI on `args` (including the program name) and returns the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { exit::BAD_INPUT } else { exit::OK };
            let _ = e.print();
            return code;
        }
    };
    let result = std::panic::catch_unwind(|| dispatch(cli));
    match result {
        Ok(code) => code,
        Err(_) => {
            eprintln!("guardscope: internal error (a bug); please report it with the command and, if you can, the log");
            exit::INTERNAL
        }
    }
}

fn dispatch(cli: Cli) -> i32 {
    match cli.command {
        Command::Summary(args) => summary(args),
        Command::Check(args) => check(args),
    }
}

fn parse_options(input: &InputArgs) -> ParseOptions {
    ParseOptions {
        verify_all_payloads: !input.fast,
        ..ParseOptions::default()
    }
}

/// Loads a run, or prints the one-line reason it cannot and gives exit code 2.
fn load_run(paths: &[PathBuf], input: &InputArgs) -> Result<Run, i32> {
    let run = load::load(paths, &parse_options(input)).map_err(|e| {
        eprintln!("guardscope: {e}");
        exit::BAD_INPUT
    })?;
    if run.envelope_count() == 0 {
        // The file-level verdict (line 0) says more than the first bad line.
        let problems = &run.problems.first;
        let why = problems.iter().find(|p| p.line == 0).or(problems.first());
        let why = why.map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no TORCH_TRACE events found: {why}");
        return Err(exit::BAD_INPUT);
    }
    Ok(run)
}

fn check(args: CheckArgs) -> i32 {
    let candidate = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let baseline = if args.baseline.is_empty() {
        None
    } else {
        match load_run(&args.baseline, &args.input) {
            Ok(run) => Some(run),
            Err(code) => return code,
        }
    };
    let opts = CheckOptions {
        max_recompiles: args.max_recompiles,
        allow: args.allow,
        max_new_frames: args.max_new_frames,
    };
    let verdict = analysis::check::check(&candidate, baseline.as_ref(), &opts);
    if let Some(path) = &args.junit {
        if let Err(e) = std::fs::write(path, report::check::junit(&verdict)) {
            eprintln!("guardscope: cannot write {}: {e}", path.display());
            return exit::BAD_INPUT;
        }
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &verdict)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        report::check::write_verdict(&mut out, &verdict)
    };
    match written {
        Ok(()) | Err(_) if verdict.passed => exit::OK,
        _ => exit::FOUND_PROBLEM,
    }
}

fn summary(args: SummaryArgs) -> i32 {
    let run = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &json::summary(&run))
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: args.verbose,
        };
        terminal::write_summary(&mut out, &run, &opts)
    };
    match written {
        Ok(()) => exit::OK,
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("guardscope: cannot write output: {e}");
            exit::BAD_INPUT
        }
    }
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(if io::stdout().is_terminal() { 120 } else { 160 })
}
