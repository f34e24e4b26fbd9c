//! `guardscope report`: load the run and any step logs, render the page,
//! write it and summary.json into the report directory.

use super::args::ReportArgs;
use super::error::{self, written, CliError, Status};
use super::load::load_run;
use super::output::Output;
use super::steps::{read_step_files, StepsFor};
use crate::activation_diff;
use crate::analysis;
use crate::report::emit::SummaryView;
use crate::report::html::{PageInput as Page, PageOptions};
use crate::report::output_dir::ReportDir;
use crate::report::text::terminal_safe;
use crate::report::{self, json, trace_events};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub fn report(args: ReportArgs, out: Output) -> Result<Status, CliError> {
    let run = load_run(&args.input.paths, &args.input, true)?;
    let (steps, problems) = read_step_files(&args.steps, StepsFor::Report)?;
    let activations = match &args.activations[..] {
        [] => None,
        [a] => Some(activation_diff::gather(a, None)?),
        [a, b] => Some(activation_diff::gather(a, Some(b))?),
        _ => {
            return Err(CliError::BadInput(
                "--activations: at most two traces (A, then B to compare with it)".into(),
            ))
        }
    };
    let mut run = run;
    let mut problems = problems;
    // Steps whose time cannot be right stay off the page's time axis.
    let steps = crate::analysis::steps::screen(steps, Some(&run), &mut problems);
    run.problems.merge(problems);

    let findings = analysis::analyse(&run);
    let page = Page {
        findings: &findings,
        steps: &steps,
        activations: activations.as_ref(),
        title: report_title(&args.input.paths),
        options: PageOptions {
            no_links: args.no_links,
            ..PageOptions::default()
        },
    };
    let index = write_report(page, &args.output, args.overwrite)?;
    if !args.input.quiet {
        let view = SummaryView {
            findings: &findings,
            verbose: false,
        };
        out.print(&view)?;
    }
    print_report_path(&index, !args.input.quiet)?;
    if args.open {
        open_in_browser(&index);
    }
    Ok(Status::Success)
}

/// Renders the page and writes it with summary.json into `output` (a
/// directory guardscope created or an empty one, unless `overwrite`):
/// `report` and `run --report` write the same files. Returns index.html's path.
pub(crate) fn write_report(mut page: Page, output: &Path, overwrite: bool) -> Result<PathBuf, CliError> {
    page.options.compile_trace = true;
    let html = report::html::render(&page).map_err(|e| CliError::Internal(format!("rendering the report: {e:?}")))?;
    ReportDir::prepare(output, overwrite)
        .map_err(|e| e.to_string())
        .and_then(|dir| {
            let fail = |e: io::Error| format!("{}: {e}", output.display());
            // Streamed: summary.json of thousands of ranks is tens of MB.
            dir.write_with("summary.json", |w| {
                serde_json::to_writer_pretty(&mut *w, &json::summary(page.findings))?;
                writeln!(w)
            })
            .map_err(fail)?;
            dir.write_with("compile_trace.json", |w| {
                trace_events::write(w, page.findings, page.steps)
            })
            .map_err(fail)?;
            dir.write("index.html", html.as_bytes()).map_err(fail)?;
            dir.commit("index.html").map_err(fail)
        })
        .map_err(CliError::BadInput)
}

/// The `Report: PATH` line, after a blank line when it follows a summary.
pub(super) fn print_report_path(index: &Path, after_summary: bool) -> Result<(), CliError> {
    let blank_line = if after_summary { "\n" } else { "" };
    let index = terminal_safe(&index.display().to_string()).into_owned();
    written(writeln!(io::stdout().lock(), "{blank_line}Report: {index}"))
}

/// The page title: the input's name, e.g. the TORCH_TRACE directory.
pub(crate) fn report_title(paths: &[PathBuf]) -> String {
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.display().to_string())
    };
    match paths {
        [one] => name(one),
        [first, rest @ ..] => format!("{} and {} more", name(first), rest.len()),
        [] => "guardscope report".to_string(),
    }
}

/// A page that no browser could take is still written: a warning on stderr
/// names it, the exit code stays 0.
fn open_in_browser(path: &Path) {
    if let Err(e) = super::open::open(path) {
        error::warn(&format!(
            "could not open a browser ({e}); the report is at {}",
            path.display()
        ));
    }
}
