//! Everything wrong with an input, counted and kept with `file:line`, so a bad
//! line is reported and skipped instead of ending the parse.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// How many diagnostics are kept verbatim; the rest are only counted.
pub const KEPT_DIAGNOSTICS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// A line that is neither a glog envelope nor a TAB payload line.
    NotGlog,
    /// The envelope after the glog prefix is not valid JSON.
    BadJson,
    /// Invalid UTF-8 in an envelope (replaced, and the line still parsed).
    InvalidUtf8,
    /// A payload whose md5 differs from `has_payload`.
    Md5Mismatch,
    /// A payload cut off by the end of the file (the process was killed,
    /// the disk filled).
    TruncatedPayload,
    /// An envelope line cut off by the end of the file, as above.
    TruncatedLine,
    /// An envelope announced a payload and none followed.
    MissingPayload,
    /// Payload lines with no envelope announcing them.
    OrphanPayload,
    /// A line longer than the line cap; only its prefix was looked at.
    LineTooLong,
    /// An event kind guardscope does not know; counted and skipped.
    UnknownKind,
    /// A known event whose fields have unexpected types or values.
    BadEvent,
    /// A read error or a corrupt gzip stream; the rest of the file is lost.
    /// Also a file or directory that could not be opened.
    Io,
    /// An input passed over on purpose: the same file given twice, or a
    /// symlink loop. Nothing is lost, so it never fails a gate.
    SkippedInput,
}

impl ProblemKind {
    pub fn label(self) -> &'static str {
        match self {
            ProblemKind::NotGlog => "not a glog line",
            ProblemKind::BadJson => "bad JSON",
            ProblemKind::InvalidUtf8 => "invalid UTF-8",
            ProblemKind::Md5Mismatch => "md5 mismatch",
            ProblemKind::TruncatedPayload => "truncated payload",
            ProblemKind::TruncatedLine => "truncated line",
            ProblemKind::MissingPayload => "missing payload",
            ProblemKind::OrphanPayload => "orphan payload",
            ProblemKind::LineTooLong => "line too long",
            ProblemKind::UnknownKind => "unknown event kind",
            ProblemKind::BadEvent => "bad event",
            ProblemKind::Io => "read error",
            ProblemKind::SkippedInput => "input skipped",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub file: Arc<str>,
    pub line: u64,
    pub kind: ProblemKind,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Problems {
    pub count: u64,
    pub by_kind: BTreeMap<ProblemKind, u64>,
    pub first: Vec<Problem>,
}

impl Problems {
    pub fn push(&mut self, file: &Arc<str>, line: u64, kind: ProblemKind, message: impl Into<String>) {
        self.count += 1;
        *self.by_kind.entry(kind).or_default() += 1;
        if self.first.len() < KEPT_DIAGNOSTICS {
            self.first.push(Problem {
                file: Arc::clone(file),
                line,
                kind,
                message: message.into(),
            });
        }
    }

    /// Records a problem of the whole file (line 0). It is always kept, ahead
    /// of line diagnostics, so the verdict survives a flood of bad lines.
    pub fn push_file_level(&mut self, file: &Arc<str>, kind: ProblemKind, message: impl Into<String>) {
        self.count += 1;
        *self.by_kind.entry(kind).or_default() += 1;
        let at = self.first.iter().take_while(|p| p.line == 0).count();
        self.first.insert(
            at,
            Problem {
                file: Arc::clone(file),
                line: 0,
                kind,
                message: message.into(),
            },
        );
        self.first.truncate(KEPT_DIAGNOSTICS);
    }

    /// Whether another diagnostic would be kept verbatim: lets hot paths on
    /// junk input skip formatting messages that would only be counted.
    pub fn keeps_more(&self) -> bool {
        self.first.len() < KEPT_DIAGNOSTICS
    }

    pub fn merge(&mut self, other: Problems) {
        self.count += other.count;
        for (k, n) in other.by_kind {
            *self.by_kind.entry(k).or_default() += n;
        }
        let room = KEPT_DIAGNOSTICS.saturating_sub(self.first.len());
        self.first.extend(other.first.into_iter().take(room));
    }

    pub fn count_of(&self, kind: ProblemKind) -> u64 {
        self.by_kind.get(&kind).copied().unwrap_or(0)
    }

    /// Input that could not be read (a file or directory that cannot be
    /// opened, a read error, a cut gzip stream, a payload or line cut by
    /// the end of its file: the writer died or the disk filled, so what
    /// came after is missing), as `file:line: message`, with a last line counting those
    /// not kept verbatim. Empty when all input was read: a gate passes only
    /// then (it fails closed).
    pub fn unread(&self) -> Vec<String> {
        let lost = |kind: ProblemKind| {
            matches!(
                kind,
                ProblemKind::Io | ProblemKind::TruncatedPayload | ProblemKind::TruncatedLine
            )
        };
        let mut out: Vec<String> = self
            .first
            .iter()
            .filter(|p| lost(p.kind))
            .map(ToString::to_string)
            .collect();
        let all: u64 = self.by_kind.iter().filter(|(k, _)| lost(**k)).map(|(_, n)| n).sum();
        let more = all.saturating_sub(out.len() as u64);
        if more > 0 {
            out.push(format!("… and {more} more read error(s) or cut payload(s)"));
        }
        out
    }
}

/// A short, printable excerpt of raw bytes for a diagnostic message.
pub fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]);
    let mut out: String = text.chars().flat_map(char::escape_debug).collect();
    if bytes.len() > MAX {
        out.push('…');
    }
    out
}
