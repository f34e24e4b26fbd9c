//! `guardscope watch`: one event per recompile read from a growing log,
//! as one NDJSON object or one line of text.

use super::emit::View;
use super::format::{secs, utc};
use super::paths::display_site;
use super::text::{style, Terminal};
use crate::analysis::{Finding, FrameRef};
use crate::reasons::Category;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Clone, Debug, Serialize)]
pub struct WatchEvent {
    /// "recompile", or "recompile_limit" when Dynamo refused to compile the
    /// frame again (it runs uncompiled from then on).
    pub event: &'static str,
    /// The log the event was read from.
    pub log: String,
    /// Its line of `compilation_metrics`, the line that finished the compile.
    pub line: u64,
    pub frame: FrameRef,
    pub compile_id: String,
    pub category: Category,
    /// The guard-text form read (`summary --json`'s `form`); false
    /// `recognised`: guardscope does not read the text (fail closed).
    pub form: &'static str,
    pub recognised: bool,
    pub culprit: String,
    pub called_from: Option<String>,
    /// Forward compile time, seconds.
    pub duration_s: Option<f64>,
    /// Unix seconds at which the compile started.
    pub start: Option<f64>,
    pub failed: bool,
    pub advice: String,
    /// Judged on the log so far: later compiles may still show a repeat.
    pub severity: crate::analysis::Severity,
    pub owner: crate::analysis::ValueOwner,
    pub evidence: crate::analysis::judge::evidence::Evidence,
    /// The cache entry whose failed guard is the cause (`0/1`), when the
    /// log names it.
    pub cause_entry: Option<String>,
}

impl WatchEvent {
    pub fn new(log: &str, finding: &Finding<'_>) -> Self {
        let c = finding.compile;
        WatchEvent {
            event: if c.cache_limit { "recompile_limit" } else { "recompile" },
            log: log.to_string(),
            line: c.last_log_line,
            frame: FrameRef::of(finding.frame),
            compile_id: c.compile_id.clone(),
            category: finding.cause.category,
            form: finding.cause.form,
            recognised: finding.cause.recognised(),
            culprit: finding.cause.culprit.clone(),
            called_from: finding.cause.called_from.clone(),
            duration_s: c.duration_s,
            start: c.start,
            failed: c.failed,
            advice: finding.cause.advice.clone(),
            severity: finding.severity,
            owner: finding.judgement.ownership.owner,
            evidence: finding.judgement.evidence.clone(),
            cause_entry: finding.guard().and_then(|g| g.entry.clone()),
        }
    }
}

impl View for WatchEvent {
    fn json(&self) -> impl Serialize + '_ {
        self
    }

    fn write_text(&self, out: &mut Terminal, _width: usize) -> io::Result<()> {
        // The clock only: a watch runs today.
        let when = self.start.map(utc).unwrap_or_default();
        let clock = when.split(' ').nth(1).unwrap_or("?");
        let rank = self.frame.rank.map(|r| format!("rank {r} ")).unwrap_or_default();
        let site = match (&self.frame.file, self.frame.line) {
            (Some(f), Some(l)) => format!(" ({})", display_site(&format!("{f}:{l}"))),
            _ => String::new(),
        };
        write!(out, "{clock}  {rank}{}{site} {}  ", self.frame.name, self.compile_id)?;
        if self.event == "recompile_limit" {
            out.styled(style::fail(), "hit the recompile limit: runs uncompiled from now on")?;
            write!(out, "  last cause ")?;
        }
        out.styled(style::category(self.category), self.category.name())?;
        write!(out, ": {}", self.culprit)?;
        if let Some(site) = &self.called_from {
            write!(out, "  called from {}", display_site(site))?;
        }
        if let Some(s) = self.duration_s {
            write!(out, "  {}", secs(s))?;
        }
        // The verdict on the log so far, what decided it, whose value it is.
        write!(
            out,
            "  [{}: {}; {}",
            self.severity.name(),
            self.evidence.kind.name().replace('_', " "),
            self.owner.words()
        )?;
        if let Some(entry) = &self.cause_entry {
            write!(out, "; entry {entry}")?;
        }
        writeln!(out, "]")
    }
}
