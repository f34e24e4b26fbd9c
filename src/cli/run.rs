//! `guardscope run -- COMMAND`: runs a training command with TORCH_TRACE set
//! to a fresh directory, then prints the summary of what it logged (or,
//! with --check, the gate's verdict), the same views as `summary`,
//! `check` and `report`. When no TORCH_TRACE log comes of it, the
//! command's stderr (copied as it passed) is read as a text log instead.

mod child;
mod fallback;
mod tee;

use super::args::CheckFormat;
use super::args::{InputArgs, RunArgs};
use super::check::{gate, Printed};
use super::error::{self, written, CliError, Status};
use super::load::load_run;
use super::output::Output;
use super::report::{print_report_path, write_report};
use crate::analysis;
use crate::report::emit::SummaryView;
use crate::report::html::{PageInput as Page, PageOptions};
use crate::report::text::terminal_safe;
use child::Ended;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What makes a run a rehearsal (`guardscope rehearse`): the environment
/// that swaps the command's backend, and the label its verdict carries.
pub struct Predicted {
    pub env: Vec<(&'static str, std::ffi::OsString)>,
    /// Printed above the verdict: which level predicted it, what it cannot see.
    pub label: String,
    /// Written beside the logs, so that every later reading of them says
    /// they are predicted (`input::rehearsal`).
    pub mark: crate::input::rehearsal::Predicted,
}

pub fn run(args: RunArgs, out: Output) -> Result<Status, CliError> {
    run_with(args, out, None)
}

pub fn run_with(args: RunArgs, out: Output, predicted: Option<Predicted>) -> Result<Status, CliError> {
    if let Some(flag) = args.gate.given().filter(|_| !args.check) {
        // Refused before the command runs: without --check nothing reads it.
        return Err(CliError::BadInput(format!(
            "{flag} is a gate flag: it needs --check (guardscope run --check {flag} ...)"
        )));
    }
    let dir = trace_dir(args.trace_dir.as_deref())?;
    error::warn(&format!("TORCH_TRACE={} (kept)", dir.display()));
    if let Some(p) = &predicted {
        crate::input::rehearsal::write(&dir, &p.mark)
            .map_err(|e| CliError::BadInput(format!("cannot mark {} as a rehearsal's: {e}", dir.display())))?;
    }
    let env = predicted.as_ref().map(|p| &p.env[..]).unwrap_or(&[]);
    let copy_path = dir.join(fallback::STDERR_COPY);
    let (ended, copied) = child::run(&args.command, &dir, env, &copy_path).inspect_err(|_| {
        let _ = std::fs::remove_file(&copy_path);
        if args.trace_dir.is_none() {
            // Never started: the empty directory made for it is no use to keep.
            let _ = std::fs::remove_dir(&dir);
        }
    })?;
    let command = child::display(&args.command);
    let failed = |more: &str, after_output: bool| CliError::CommandFailed {
        why: format!("`{command}` {}{more}", ended.describe()),
        code: ended.exit_code(),
        after_output,
    };
    let input = InputArgs::all(vec![dir.clone()], args.quiet);
    let mut from_text = None;
    let loaded = if holds_logs(&dir) {
        // The trace holds all the text does and more: the copy is not kept.
        let _ = std::fs::remove_file(&copy_path);
        match (load_run(&input.paths, &input, args.report.is_some()), ended) {
            (Ok(run), _) => run,
            (Err(e), Ended::Exited(0)) => return Err(e),
            (Err(e), _) => return Err(failed(&format!("; its logs hold nothing to summarise ({e})"), false)),
        }
    } else {
        match fallback::read_stderr(copied.as_ref(), args.quiet, args.report.is_some()) {
            Ok((run, path)) => {
                fallback::announce(&command, &dir, &path, &run);
                fallback::warn_partial(copied.as_ref());
                from_text = Some(path);
                run
            }
            Err(why) => {
                return Err(match ended {
                    Ended::Exited(0) => CliError::BadInput(format!(
                        "`{command}` wrote no TORCH_TRACE log into {}: it compiled nothing (no torch.compile \
                         call ran), it is not a torch program, or TORCH_TRACE did not reach it (a wrapper \
                         that resets the environment); {why}",
                        dir.display()
                    )),
                    _ => failed(&format!(", before writing any TORCH_TRACE log ({why})"), false),
                });
            }
        }
    };
    warn_if_cut(&loaded.problems, &dir);
    let findings = analysis::analyse(&loaded);
    let index = match &args.report {
        Some(output) => {
            let page = Page {
                findings: &findings,
                steps: &[],
                activations: None,
                title: title(&args.command),
                options: PageOptions {
                    no_links: args.no_links,
                    ..PageOptions::default()
                },
            };
            Some(write_report(page, output, args.overwrite)?)
        }
        None => None,
    };
    // A failed command is never judged by the gate: what its logs hold is
    // context for its own failure, which decides the exit code.
    let status = if args.check && ended == Ended::Exited(0) {
        let baseline = match &args.gate.baseline[..] {
            [] => None,
            paths => Some(load_run(paths, &input, false)?),
        };
        if let Some(refusal) = from_text
            .as_ref()
            .and_then(|_| fallback::gate_refusal(&loaded, copied.as_ref()))
        {
            return Err(refusal);
        }
        let baseline = baseline.as_ref().map(analysis::analyse);
        let opts = args.gate.options(args.allow_unfinished);
        let format = if args.json {
            CheckFormat::Json
        } else {
            CheckFormat::Text
        };
        if let (Some(p), false) = (&predicted, args.json) {
            written(writeln!(io::stdout().lock(), "{}\n", p.label))?;
        }
        let printed = Printed {
            format,
            junit: args.gate.junit.as_deref(),
            repo_root: None,
        };
        gate(&findings, baseline.as_ref(), &opts, out, &printed)
    } else {
        let view = SummaryView {
            findings: &findings,
            verbose: false,
        };
        out.print(&view).map(|()| Status::Success)
    };
    if !args.json {
        let logs = match &from_text {
            Some(path) => format!("{} (the command's stderr; no TORCH_TRACE log)", path.display()),
            None => dir.display().to_string(),
        };
        let logs = terminal_safe(&logs).into_owned();
        written(writeln!(io::stdout().lock(), "\nLogs: {logs}"))?;
        if let Some(index) = &index {
            print_report_path(index, false)?;
        }
    }
    match ended {
        Ended::Exited(0) => status,
        _ => Err(failed(" (the output above is of the logs it wrote)", true)),
    }
}

/// The directory TORCH_TRACE points at: the one asked for (created, or
/// empty, so another run's logs are not summarised with this one), or a
/// fresh one that outlives guardscope.
fn trace_dir(chosen: Option<&Path>) -> Result<PathBuf, CliError> {
    let Some(dir) = chosen else {
        return tempfile::Builder::new()
            .prefix("guardscope-run-")
            .tempdir()
            .map(tempfile::TempDir::keep)
            .map_err(|e| CliError::BadInput(format!("cannot create a trace directory: {e}")));
    };
    let fail = |e: io::Error| CliError::BadInput(format!("--trace-dir {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(fail)?;
    if std::fs::read_dir(dir).map_err(fail)?.next().is_some() {
        return Err(CliError::BadInput(format!(
            "--trace-dir {} is not empty: its logs would be summarised with this run's; \
             name a new or empty directory",
            dir.display()
        )));
    }
    Ok(dir.to_path_buf())
}

/// A log that ends mid-line was cut while written: most often the disk
/// filled (torch's logging reports each failed write and goes on), or the
/// command was killed. Said once, with the space left where the logs are.
fn warn_if_cut(problems: &crate::input::problems::Problems, dir: &Path) {
    use crate::input::problems::ProblemKind;
    let cut = problems.count_of(ProblemKind::TruncatedPayload) + problems.count_of(ProblemKind::TruncatedLine);
    if cut == 0 {
        return;
    }
    let free = match free_bytes(dir) {
        Some(free) => format!(" ({} MB free there now)", free >> 20),
        None => String::new(),
    };
    error::warn(&format!(
        "{cut} log(s) in {} ends cut off mid-line: the disk holding it may be full{free}, or the \
         command was killed while writing; what came after is not in the log",
        terminal_safe(&dir.display().to_string())
    ));
}

#[cfg(unix)]
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed struct for a NUL-terminated path.
    unsafe {
        let mut stat: libc::statvfs = std::mem::zeroed();
        (libc::statvfs(path.as_ptr(), &mut stat) == 0).then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
    }
}

#[cfg(not(unix))]
fn free_bytes(_dir: &Path) -> Option<u64> {
    None
}

/// Whether the command left any TORCH_TRACE log (one per process) in `dir`.
fn holds_logs(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .any(|e| e.file_type().is_file() && e.file_name().to_string_lossy().starts_with("dedicated_log_torch_trace"))
}

/// The page's title: the script the command ran, else the program.
fn title(command: &[std::ffi::OsString]) -> String {
    let script = command
        .iter()
        .map(Path::new)
        .find(|p| p.extension().is_some_and(|e| e == "py"));
    let name = script.or(command.first().map(Path::new));
    name.and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "guardscope run".to_string())
}
