//! What a command returns, and the one place that prints why it failed.
//!
//! Commands return `Result<Status, CliError>`; `cli::run` turns that into
//! the exit code and prints the error (or a panic) once, on stderr. Library
//! errors convert into `CliError` with `?`, so no command prints or picks an
//! exit code itself.
//!
//! With `--json`, a command that fails before writing its document also
//! prints the error as a JSON object on stdout,
//! `{"error": {"kind": "bad_input", "message": "...", "exit_code": 2}}`, so a
//! script reads JSON whatever happens. One that wrote its document and then
//! fails (`incomplete`: the document lists what was not read; `output`:
//! stdout itself failed) adds nothing to stdout: it stays one document.

use super::exit;
use crate::activation_diff::DiffError;
use crate::input::InputError;
use crate::report::text::{terminal_safe, workflow_inert};
use serde::Serialize;
use std::fmt;
use std::io::{self, Write};

/// How a command that ran to its end came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit 0.
    Success,
    /// Exit 1: a check or diff found what it guards against.
    FoundProblem,
}

/// Why a command could not do its job.
#[derive(Debug)]
pub enum CliError {
    /// Bad usage the argument parser cannot see, or input that cannot be
    /// read or holds nothing to work on (exit 2).
    BadInput(String),
    /// The output was written, but part of the input was not read, so it
    /// cannot stand as a verdict: the gate fails closed (exit 2).
    Incomplete(String),
    /// The command's own output could not be written (exit 2).
    Output(io::Error),
    /// A bug in guardscope (exit 3).
    Internal(String),
    /// The command `guardscope run` ran failed: its own exit code (or 128 +
    /// its signal), so a wrapped job never reads as a pass.
    /// `after_output`: the summary of its logs was already printed.
    CommandFailed { why: String, code: i32, after_output: bool },
}

impl CliError {
    /// The error's `kind` in the JSON error object.
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::BadInput(_) => "bad_input",
            CliError::Incomplete(_) => "incomplete",
            CliError::Output(_) => "output",
            CliError::Internal(_) => "internal",
            CliError::CommandFailed { .. } => "command_failed",
        }
    }

    /// Whether the command's own document may already be on stdout.
    pub(super) fn after_output(&self) -> bool {
        matches!(
            self,
            CliError::Incomplete(_) | CliError::Output(_) | CliError::CommandFailed { after_output: true, .. }
        )
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::BadInput(_) | CliError::Incomplete(_) | CliError::Output(_) => exit::BAD_INPUT,
            CliError::Internal(_) => exit::INTERNAL,
            CliError::CommandFailed { code, .. } => *code,
        }
    }
}

/// The outcome of writing a command's output. A closed pipe (`| head`) is
/// the reader's choice, not an error: the output ends there and the
/// command's verdict (its exit code) stands.
pub fn written(result: io::Result<()>) -> Result<(), CliError> {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::Output(e)),
        _ => Ok(()),
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(why) | CliError::Incomplete(why) | CliError::CommandFailed { why, .. } => {
                f.write_str(why)
            }
            CliError::Output(e) => write!(f, "cannot write output: {e}"),
            CliError::Internal(why) => write!(
                f,
                "internal error (a bug: {why}); please report it on {} with the command you ran \
                 and, if you can, the log",
                super::panics::REPORT_TO
            ),
        }
    }
}

impl std::error::Error for CliError {}

impl From<InputError> for CliError {
    fn from(e: InputError) -> Self {
        CliError::BadInput(e.to_string())
    }
}

impl From<DiffError> for CliError {
    fn from(e: DiffError) -> Self {
        CliError::BadInput(e.to_string())
    }
}

/// The exit code of a command's result, printing its error (if any) once.
pub fn finish(result: Result<Status, CliError>, json: bool) -> i32 {
    match result {
        Ok(Status::Success) => exit::OK,
        Ok(Status::FoundProblem) => exit::FOUND_PROBLEM,
        Err(e) => {
            let message = e.to_string();
            print_line(&message);
            if json && !e.after_output() {
                print_json_error(&e, &message);
            }
            e.exit_code()
        }
    }
}

#[derive(Serialize)]
struct ErrorDocument<'a> {
    error: ErrorObject<'a>,
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    kind: &'static str,
    message: &'a str,
    exit_code: i32,
}

fn print_json_error(e: &CliError, message: &str) {
    write_error_document(e.kind(), message, e.exit_code());
}

/// A command line clap refused (unknown flag, missing argument), as JSON:
/// kind `usage`; clap has already printed its full message on stderr.
pub fn print_usage_error_json(message: &str, exit_code: i32) {
    write_error_document("usage", message, exit_code);
}

fn write_error_document(kind: &'static str, message: &str, exit_code: i32) {
    let doc = ErrorDocument {
        error: ErrorObject {
            kind,
            message,
            exit_code,
        },
    };
    let mut out = io::stdout().lock();
    // stdout closed or full: the line on stderr and the exit code remain.
    let _ = serde_json::to_writer_pretty(&mut out, &doc)
        .map_err(io::Error::from)
        .and_then(|_| writeln!(out));
}

/// A warning that does not change the outcome (e.g. no browser to open),
/// or a note beside the output (where `run` keeps the logs).
pub fn warn(message: &str) {
    print_line(message);
}

/// Every line guardscope writes to stderr, but the progress bar and clap's
/// usage errors: one prefix, and text from logs made inert for the terminal.
fn print_line(message: &str) {
    // stderr lands in CI job logs too: no workflow command from a log.
    eprintln!("guardscope: {}", workflow_inert(&terminal_safe(message)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_kind_of_failure() {
        assert_eq!(finish(Ok(Status::Success), false), exit::OK);
        assert_eq!(finish(Ok(Status::FoundProblem), false), exit::FOUND_PROBLEM);
        assert_eq!(CliError::BadInput("x".into()).exit_code(), exit::BAD_INPUT);
        assert_eq!(CliError::Incomplete("x".into()).exit_code(), exit::BAD_INPUT);
        assert_eq!(CliError::Internal("x".into()).exit_code(), exit::INTERNAL);
        let disk_full = io::Error::other("no space left on device");
        assert_eq!(
            finish(written(Err(disk_full)).map(|_| Status::Success), false),
            exit::BAD_INPUT
        );
        let pipe = written(Err(io::ErrorKind::BrokenPipe.into()));
        assert_eq!(finish(pipe.map(|_| Status::FoundProblem), false), exit::FOUND_PROBLEM);
    }
}
