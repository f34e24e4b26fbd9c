//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.
//!
//! One file per command; every flag is in `args.rs`, the long help shown
//! after the flags in `help.rs`. Commands return
//! `Result<Status, CliError>` (`error.rs`), which `run` turns into the exit
//! code, printing the error once.

mod args;
mod check;
mod completions;
mod diff;
mod error;
mod help;
pub(crate) mod load;
mod man;
mod open;
mod output;
mod panics;
mod progress;
mod rehearse;
pub(crate) mod report;
mod run;
mod steps;
mod summary;
mod watch;
mod watch_text;

pub use args::{
    CheckArgs, CheckFormat, Cli, Command, DiffArgs, InputArgs, RehearseArgs, ReportArgs, RunArgs, StepsArgs,
    SummaryArgs, SummaryFormat, WatchArgs,
};
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
    // The CLI owns its process, so it may install the SIGBUS handler that
    // memory-mapped reading needs.
    crate::input::use_memory_maps();
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

/// clap's error in one line, as the JSON `message`: its first paragraph
/// ("unexpected argument '--jsn' found"), without the "error:" label.
fn usage_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.split("\n\n").next().unwrap_or_default();
    let words: Vec<&str> = first.split_whitespace().collect();
    words.join(" ").trim_start_matches("error: ").to_string()
}

fn parse_and_dispatch<I, T>(args: I, json: &mut bool) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints its own usage errors (and --help, --version).
            let code = if e.use_stderr() { exit::BAD_INPUT } else { exit::OK };
            let _ = e.print();
            // A script that asked for JSON gets JSON even when its command
            // line is wrong: the flag is looked for in the raw words, before
            // `--` (what follows belongs to `run`'s child).
            let words: Vec<&std::ffi::OsString> = args.iter().take_while(|a| *a != "--").collect();
            let asks_json = words.iter().any(|a| *a == "--json" || *a == "--format=json")
                || words.windows(2).any(|w| w[0] == "--format" && w[1] == "json");
            if e.use_stderr() && asks_json {
                error::print_usage_error_json(&usage_message(&e), code);
            }
            return code;
        }
    };
    *json = match &cli.command {
        Command::Summary(a) => a.format() == SummaryFormat::Json,
        Command::Check(a) => a.format() == CheckFormat::Json,
        Command::Diff(a) => a.json,
        Command::Steps(a) => a.json,
        Command::Run(a) => a.json,
        Command::Rehearse(a) => a.json,
        Command::Watch(a) => a.json,
        Command::Report(_) | Command::Completions(_) | Command::Man(_) => false,
    };
    // NDJSON keeps stdout rows only: an error is the line on stderr.
    let records = matches!(&cli.command, Command::Summary(a) if a.format() == SummaryFormat::Ndjson);
    let out = Output::new(*json, records, cli.color);
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
        Command::Rehearse(args) => rehearse::rehearse(args, out),
        Command::Watch(args) => watch::watch(args, out),
    }
}
