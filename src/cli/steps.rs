//! `guardscope steps`: the slow-step post-mortem from StepLogger records.

use super::{exit, load_run, InputArgs, StepsArgs};
use crate::analysis::steps::{analyse, screen};
use crate::input::Problems;
use crate::model::Step;
use crate::records;
use crate::report::steps as steps_report;
use crate::report::text::{terminal_safe, SafeWriter};
use std::io::{self, Write};
use std::path::PathBuf;

/// Reads every steps file; an unreadable file or no record at all is exit 2
/// (with the reason printed), bad lines are problems.
pub(crate) fn read_step_files(paths: &[PathBuf], what: &str) -> Result<(Vec<Step>, Problems), i32> {
    let mut problems = Problems::default();
    let mut steps = Vec::new();
    for path in paths {
        match records::read_steps(path, &mut problems) {
            Ok(s) => steps.extend(s),
            Err(e) => {
                let why = format!("{}: {e}", path.display());
                eprintln!("guardscope: {}", terminal_safe(&why));
                return Err(exit::BAD_INPUT);
            }
        }
    }
    if !paths.is_empty() && steps.is_empty() {
        let why = problems.first.first().map(ToString::to_string).unwrap_or_default();
        eprintln!("guardscope: no step records in {what}: {}", terminal_safe(&why));
        return Err(exit::BAD_INPUT);
    }
    Ok((steps, problems))
}

pub fn steps(args: StepsArgs) -> i32 {
    let (steps, problems) = match read_step_files(&args.files, "the steps files") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let trace = if args.trace.is_empty() {
        None
    } else {
        let input = InputArgs {
            paths: args.trace.clone(),
            verify_all: false,
            quiet: args.quiet,
        };
        match load_run(&args.trace, &input) {
            Ok(run) => Some(run),
            Err(code) => return code,
        }
    };
    let mut problems = problems;
    let steps = screen(steps, trace.as_ref(), &mut problems);
    let analysis = analyse(&steps, trace.as_ref(), args.top);
    // Input not read to its end (a cut gzip, a rank's log that cannot be
    // opened) leaves a partial post-mortem: shown, listed, and exit 2.
    let mut unread = problems.unread();
    if let Some(run) = &trace {
        unread.extend(run.problems.unread());
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        #[derive(serde::Serialize)]
        struct Output<'a> {
            #[serde(flatten)]
            analysis: &'a crate::analysis::steps::StepsAnalysis,
            problems: Vec<String>,
            unread_inputs: &'a [String],
        }
        let output = Output {
            analysis: &analysis,
            problems: problems.first.iter().map(ToString::to_string).collect(),
            unread_inputs: &unread,
        };
        serde_json::to_writer_pretty(&mut out, &output)
            .map_err(io::Error::from)
            .and_then(|_| writeln!(out))
    } else {
        let mut text = steps_report::render(&analysis);
        if problems.count > 0 {
            text.push_str(&format!("\n{} bad step record(s) skipped:\n", problems.count));
            for p in &problems.first {
                text.push_str(&format!("  {p}\n"));
            }
        }
        if !unread.is_empty() {
            text.push_str("\nerror: input that could not be read (the above covers only what was read):\n");
            for p in &unread {
                text.push_str(&format!("  {p}\n"));
            }
        }
        SafeWriter::new(&mut out).write_all(text.as_bytes())
    };
    match super::output_written(written) {
        exit::OK if !unread.is_empty() => {
            eprintln!(
                "guardscope: input not fully read ({} problem(s)); see the list above",
                unread.len()
            );
            exit::BAD_INPUT
        }
        code => code,
    }
}
