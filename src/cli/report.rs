//! `guardscope report`: load the run and any step logs, render the page,
//! write it and summary.json into the report directory.

use super::args::ReportArgs;
use super::{exit, load_run, terminal_width};
use crate::activation_diff;
use crate::analysis;
use crate::report::output_dir::ReportDir;
use crate::report::text::{terminal_safe, SafeWriter};
use crate::report::{self, json, terminal};
use std::io::{self, Write};
use std::path::PathBuf;

pub fn report(args: ReportArgs) -> i32 {
    let run = match load_run(&args.input.paths, &args.input) {
        Ok(run) => run,
        Err(code) => return code,
    };
    let (steps, problems) = match super::steps::read_step_files(&args.steps, "--steps files") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let activations = match &args.activations[..] {
        [] => None,
        [a] => Some(activation_diff::gather(a, None)),
        [a, b] => Some(activation_diff::gather(a, Some(b))),
        _ => {
            eprintln!("guardscope: --activations: at most two traces (A, then B to compare with it)");
            return exit::BAD_INPUT;
        }
    };
    let activations = match activations.transpose() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("guardscope: {}", terminal_safe(&e.to_string()));
            return exit::BAD_INPUT;
        }
    };
    let mut run = run;
    let mut problems = problems;
    // Steps whose time cannot be right stay off the page's time axis.
    let steps = crate::analysis::steps::screen(steps, Some(&run), &mut problems);
    run.problems.merge(problems);

    let title = report_title(&args.input.paths);
    let findings = analysis::analyse(&run);
    let html = match report::html::render(&report::html::PageInput {
        findings: &findings,
        steps: &steps,
        activations: activations.as_ref(),
        title,
    }) {
        Ok(html) => html,
        Err(e) => {
            eprintln!("guardscope: internal error rendering the report: {e:?}");
            return exit::INTERNAL;
        }
    };
    let written = ReportDir::prepare(&args.output, args.overwrite)
        .map_err(|e| e.to_string())
        .and_then(|dir| {
            let fail = |e: io::Error| format!("{}: {e}", args.output.display());
            // Streamed: summary.json of thousands of ranks is tens of MB.
            dir.write_with("summary.json", |w| {
                serde_json::to_writer_pretty(&mut *w, &json::summary(&findings))?;
                writeln!(w)
            })
            .map_err(fail)?;
            dir.write("index.html", html.as_bytes()).map_err(fail)
        });
    let index = match written {
        Ok(path) => path,
        Err(e) => {
            eprintln!("guardscope: {e}");
            return exit::BAD_INPUT;
        }
    };
    if !args.input.quiet {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let opts = terminal::TerminalOptions {
            width: terminal_width(),
            verbose: false,
        };
        let mut out = SafeWriter::new(&mut out);
        let _ = terminal::write_summary(&mut out, &findings, &opts).and_then(|_| writeln!(out));
    }
    println!("Report: {}", terminal_safe(&index.display().to_string()));
    if args.open {
        open_in_browser(&index);
    }
    exit::OK
}

/// The page title: the input's name, e.g. the TORCH_TRACE directory.
fn report_title(paths: &[PathBuf]) -> String {
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

fn open_in_browser(path: &std::path::Path) {
    if let Err(e) = opener::open(path) {
        eprintln!(
            "guardscope: could not open a browser ({e}); open {} yourself",
            path.display()
        );
    }
}
