//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.
//!
//! One file per command; every flag is in `args.rs`. Commands return
//! `Result<Status, CliError>` (`error.rs`), which `run` turns into the exit
//! code, printing the error once.

mod args;
mod check;
mod completions;
mod diff;
mod error;
pub(crate) mod load;
mod man;
mod output;
mod panics;
mod progress;
pub(crate) mod report;
mod run;
mod steps;
mod summary;
mod watch;

pub use args::{CheckArgs, Cli, Command, DiffArgs, InputArgs, ReportArgs, RunArgs, StepsArgs, SummaryArgs, WatchArgs};
pub use error::{CliError, Status};

use clap::Parser;
use output::Output;

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

/// Runs the CLI on `args` (including the program name) and returns the exit code.
///
/// A panic anywhere in the run (a bug) ends in one line on stderr and exit
/// code 3, never a backtrace and 101; the Python console script calls this
/// too, so a bug cannot take the interpreter down either.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let _guard = panics::Guard::enter();
    // Known once the arguments are parsed: a panic after that still gets
    // its JSON error object under --json.
    let mut json = false;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse_and_dispatch(args, &mut json)));
    match (result, panics::take()) {
        (Ok(code), None) => code,
        (_, Some(panic)) => error::finish(Err(CliError::Internal(panic)), json),
        (Err(_), None) => error::finish(Err(CliError::Internal("unknown panic".into())), json),
    }
}

fn parse_and_dispatch<I, T>(args: I, json: &mut bool) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints its own usage errors (and --help, --version).
            let code = if e.use_stderr() { exit::BAD_INPUT } else { exit::OK };
            let _ = e.print();
            return code;
        }
    };
    *json = match &cli.command {
        Command::Summary(a) => a.json,
        Command::Check(a) => a.json,
        Command::Diff(a) => a.json,
        Command::Steps(a) => a.json,
        Command::Run(a) => a.json,
        Command::Watch(a) => a.json,
        Command::Report(_) | Command::Completions(_) | Command::Man(_) => false,
    };
    let out = Output::new(*json, cli.color);
    error::finish(dispatch(cli.command, out), *json)
}

fn dispatch(command: Command, out: Output) -> Result<Status, CliError> {
    panics::deliberate_panic_for_tests();
    match command {
        Command::Summary(args) => summary::summary(args, out),
        Command::Check(args) => check::check(args, out),
        Command::Report(args) => report::report(args, out.text()),
        Command::Diff(args) => diff::diff(args, out),
        Command::Steps(args) => steps::steps(args, out),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => man::man(args),
        Command::Run(args) => run::run(args, out),
        Command::Watch(args) => watch::watch(args, out),
    }
}
