//! The `guardscope` command line. It lives in the library so the binary and
//! the Python package's console script run exactly the same code.

mod args;
mod diff;
mod panics;
mod progress;
mod report;
mod steps;

pub use args::{CheckArgs, Cli, Command, InputArgs, ReportArgs, StepsArgs, SummaryArgs};

use crate::analysis::{self, check::CheckOptions};
use crate::input;
use crate::load::{self, LoadOptions};
use crate::model::Run;
use crate::report::text::{terminal_safe, SafeWriter};
use crate::report::{check as check_report, json, terminal};
use crate::trace::ParseOptions;
use clap::Parser;
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
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse_and_dispatch(args)));
    match (result, panics::take()) {
        (Ok(code), None) => code,
        (_, Some(panic)) => {
            eprintln!("{}", panics::message(&panic));
            exit::INTERNAL
        }
        (Err(_), None) => {
            eprintln!("{}", panics::message("unknown panic"));
            exit::INTERNAL
        }
    }
}

fn parse_and_dispatch<I, T>(args: I) -> i32
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
    dispatch(cli)
}

fn dispatch(cli: Cli) -> i32 {
    panics::deliberate_panic_for_tests();
    match cli.command {
        Command::Summary(args) => summary(args),
        Command::Check(args) => check(args),
        Command::Report(args) => report::report(args),
        Command::Diff(args) => diff::diff(args),
        Command::Steps(args) => steps::steps(args),
    }
}

fn parse_options(input: &InputArgs) -> ParseOptions {
    ParseOptions {
        verify_all_payloads: input.verify_all,
        ..ParseOptions::default()
    }
}

/// Loads a run, or prints the one-line reason it cannot and gives exit code 2.
fn load_run(paths: &[PathBuf], input: &InputArgs) -> Result<Run, i32> {
    let bad = |e: input::InputError| {
        eprintln!("guardscope: {}", terminal_safe(&e.to_string()));
        exit::BAD_INPUT
    };
    let found = input::discover(paths).map_err(bad)?;
    let total: u64 = found.sources.iter().map(|s| s.size).sum();
    let bar = progress::Progress::start(total, !input.quiet && io::stderr().is_terminal());
    let opts = LoadOptions {
        parse: parse_options(input),
        threads: None,
        bytes_read: Some(bar.counter()),
    };
    let run = load::load_discovered(&found, &opts);
    bar.finish();
    let run = run.map_err(bad)?;
    if run.envelope_count() == 0 {
        // The file-level verdict (line 0) says more than the first bad line.
        let problems = &run.problems.first;
        let why = problems.iter().find(|p| p.line == 0).or(problems.first());
        let why = why.map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no TORCH_TRACE events found: {}", terminal_safe(&why));
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
    let candidate = analysis::analyse(&candidate);
    let baseline = baseline.as_ref().map(analysis::analyse);
    let verdict = analysis::check::check(&candidate, baseline.as_ref(), &opts);
    if let Some(path) = &args.junit {
        if let Err(e) = std::fs::write(path, check_report::junit(&verdict)) {
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
        check_report::write_verdict(&mut SafeWriter::new(&mut out), &verdict)
    };
    // Unread input is exit 2 (the verdict lists it): the gate could not
    // judge the run, which is not the same as finding recompiles.
    match written {
        Ok(()) | Err(_) if verdict.passed => exit::OK,
        _ if !verdict.unread_inputs.is_empty() => {
            eprintln!("guardscope: input not fully read; the check fails closed (the verdict lists what was lost)");
            exit::BAD_INPUT
        }
        _ => exit::FOUND_PROBLEM,
    }
}

fn summary(args: SummaryArgs) -> i32 {
    let run = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let findings = analysis::analyse(&run);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &json::summary(&findings))
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: args.verbose,
        };
        terminal::write_summary(&mut SafeWriter::new(&mut out), &findings, &opts)
    };
    output_written(written)
}

/// The exit code once a command's output is written (or not).
pub(crate) fn output_written(written: io::Result<()>) -> i32 {
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

pub(crate) fn terminal_width() -> usize {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40);
    columns.unwrap_or_else(|| {
        if !io::stdout().is_terminal() {
            // A pipe or a file: no screen to fit, and lines an editor shows whole.
            return 160;
        }
        // Below 40 columns every line wraps anyway; the layout's floors assume 40.
        terminal_size::terminal_size_of(io::stdout()).map_or(120, |(w, _)| usize::from(w.0).max(40))
    })
}
