//! The output boundary: everything a command prints is a `View`, text for
//! people and JSON for machines, and `emit` is the one place that picks
//! between them. A new subject implements `View` once; no command spells
//! "JSON or text" itself.

use super::json;
use super::ndjson;
use super::text::fit::write_wrapped;
use super::text::workflow::JsonInert;
use super::text::Terminal;
use super::text::{check, diff, steps, summary};
use crate::activation_diff::Diff;
use crate::analysis::check::CheckVerdict;
use crate::analysis::steps::StepsAnalysis;
use crate::analysis::Findings;
use serde::Serialize;
use std::io::{self, Write};

/// Which of a view's two forms a command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// For a terminal (or a pipe) `width` columns wide, in colour or not.
    Text { width: usize, colour: bool },
    /// Pretty-printed JSON, one document: a stable contract (docs/json.md).
    Json,
    /// Compact JSON on one line: one of a stream of events (NDJSON).
    JsonLine,
    /// The view's rows, one flat JSON object a line (NDJSON), for engines
    /// that load them as a table.
    Records,
}

impl Format {
    pub fn new(json: bool, width: usize, colour: bool) -> Self {
        if json {
            Format::Json
        } else {
            Format::Text { width, colour }
        }
    }
}

/// A subject a command prints.
pub trait View {
    /// The JSON document.
    fn json(&self) -> impl Serialize + '_;
    /// The text; `out` already makes text from logs inert for the terminal,
    /// and colours only what the view asks it to (`Terminal::styled`).
    fn write_text(&self, out: &mut Terminal, width: usize) -> io::Result<()>;
    /// The rows, one JSON object a line, written as they are made; a view
    /// without rows writes its document on one line.
    fn write_records(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, &self.json())?;
        writeln!(out)
    }
}

/// Writes `view` to `out` in `format`.
/// JSON goes through `JsonInert` and text through `Terminal`: either may be
/// printed into a CI job log, whose runner must not read log text as a command.
pub fn emit(view: &impl View, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => {
            let mut out = JsonInert::new(out);
            serde_json::to_writer_pretty(&mut out, &view.json())?;
            writeln!(out)
        }
        Format::JsonLine => {
            let mut out = JsonInert::new(out);
            serde_json::to_writer(&mut out, &view.json())?;
            writeln!(out)
        }
        Format::Records => view.write_records(&mut JsonInert::new(out)),
        Format::Text { width, colour } => view.write_text(&mut Terminal::new(out, colour), width),
    }
}

/// `guardscope summary` (and the terminal part of `report`).
pub struct SummaryView<'a> {
    pub findings: &'a Findings<'a>,
    /// Every input error with file:line, not only the first few.
    pub verbose: bool,
}

impl View for SummaryView<'_> {
    fn json(&self) -> impl Serialize + '_ {
        json::summary(self.findings)
    }

    fn write_text(&self, out: &mut Terminal, width: usize) -> io::Result<()> {
        let opts = summary::TerminalOptions {
            width,
            verbose: self.verbose,
        };
        summary::write_summary(out, self.findings, &opts)
    }

    /// One record per compile (`summary --format ndjson`).
    fn write_records(&self, out: &mut dyn Write) -> io::Result<()> {
        ndjson::write(out, self.findings)
    }
}

/// `guardscope check`: the gate's verdict.
impl View for CheckVerdict {
    fn json(&self) -> impl Serialize + '_ {
        self
    }

    fn write_text(&self, out: &mut Terminal, width: usize) -> io::Result<()> {
        check::write_verdict(out, self, width)
    }
}

/// `guardscope diff`: two activation traces compared.
impl View for Diff {
    fn json(&self) -> impl Serialize + '_ {
        self
    }

    fn write_text(&self, out: &mut Terminal, _width: usize) -> io::Result<()> {
        diff::write_diff(out, self)
    }
}

/// `guardscope steps`: the post-mortem, with what could not be read.
pub struct StepsView<'a> {
    pub analysis: &'a StepsAnalysis,
    /// Bad step records (the first few, file:line) and how many in all.
    pub problems: Vec<String>,
    pub problem_count: u64,
    /// Input not read to its end: the post-mortem covers only what was read.
    pub unread_inputs: Vec<String>,
}

impl View for StepsView<'_> {
    fn json(&self) -> impl Serialize + '_ {
        #[derive(Serialize)]
        struct Document<'a> {
            #[serde(flatten)]
            analysis: &'a StepsAnalysis,
            problems: &'a [String],
            unread_inputs: &'a [String],
        }
        Document {
            analysis: self.analysis,
            problems: &self.problems,
            unread_inputs: &self.unread_inputs,
        }
    }

    fn write_text(&self, out: &mut Terminal, width: usize) -> io::Result<()> {
        out.write_all(steps::render(self.analysis, width).as_bytes())?;
        if self.problem_count > 0 {
            writeln!(out, "\n{} bad step record(s) skipped:", self.problem_count)?;
            for p in &self.problems {
                write_wrapped(out, p, width, "  ", "    ")?;
            }
        }
        if !self.unread_inputs.is_empty() {
            writeln!(out)?;
            write_wrapped(
                out,
                "error: input that could not be read (the above covers only what was read):",
                width,
                "",
                "  ",
            )?;
            for p in &self.unread_inputs {
                write_wrapped(out, p, width, "  ", "    ")?;
            }
        }
        Ok(())
    }
}
