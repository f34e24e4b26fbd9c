//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.

use crate::load;
use crate::report::{json, terminal};
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
    }
}

fn parse_options(input: &InputArgs) -> ParseOptions {
    ParseOptions {
        verify_all_payloads: !input.fast,
        ..ParseOptions::default()
    }
}

fn summary(args: SummaryArgs) -> i32 {
    let run = match load::load(&args.input.paths, &parse_options(&args.input)) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("guardscope: {e}");
            return exit::BAD_INPUT;
        }
    };
    if run.envelope_count() == 0 {
        // The file-level verdict (line 0) says more than the first bad line.
        let problems = &run.problems.first;
        let why = problems.iter().find(|p| p.line == 0).or(problems.first());
        let why = why.map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no TORCH_TRACE events found: {why}");
        return exit::BAD_INPUT;
    }
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
