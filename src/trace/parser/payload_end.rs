//! How a payload ends: its md5 verdict, the problems reported at its
//! envelope's line, and the event its kept text becomes. What ended it
//! matters: only the end of the file can cut a payload mid-line.

use super::Parser;
use crate::input::problems::{excerpt, ProblemKind};
use crate::trace::event::{decode_recompile_reasons, Event, EventData};
use crate::trace::payload::{hex, PayloadUse};
use md5::Digest;

/// What ended a payload.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PayloadEnd {
    /// A line that is not payload (it is read already).
    Line,
    /// The end of a part of the file that such a line follows.
    PartEnd,
    /// The end of the file.
    Eof,
}

impl Parser<'_> {
    pub(super) fn finish_pending(&mut self, end: PayloadEnd) -> Option<Event> {
        let p = self.pending.take()?;
        let at_eof = end == PayloadEnd::Eof;
        if p.lines == 0 {
            let (kind, what) = if at_eof {
                (
                    ProblemKind::TruncatedPayload,
                    "payload missing: file ends right after its envelope",
                )
            } else {
                (
                    ProblemKind::MissingPayload,
                    "envelope announces a payload but none follows",
                )
            };
            self.problems.push(&self.file, p.line, kind, what);
        } else if let Some(hasher) = p.hasher.clone() {
            let actual = hex(&hasher.finalize());
            if actual.eq_ignore_ascii_case(&p.expected_md5) {
                self.stats.md5_ok += 1;
            } else {
                self.stats.md5_mismatch += 1;
                // Only a last line without its newline proves the writer died
                // mid-payload; otherwise the payload itself is corrupt.
                let (kind, what) = if at_eof && self.last_unterminated {
                    (ProblemKind::TruncatedPayload, "payload cut off at end of file")
                } else {
                    (ProblemKind::Md5Mismatch, "payload md5 does not match has_payload")
                };
                // The line that ended the payload is counted already.
                let last = self.lines_before + self.stats.lines - u64::from(end == PayloadEnd::Line);
                self.problems.push(
                    &self.file,
                    p.line,
                    kind,
                    format!(
                        "{what} (payload lines {}-{last}): expected {}, got {actual}; event kept",
                        p.line + 1,
                        excerpt(p.expected_md5.as_bytes())
                    ),
                );
            }
        } else {
            // Without the hash a cut payload cannot be told from a complete
            // one whose file lacks the final newline (tlparse's test logs
            // do; a full disk leaves the same shape).
            self.stats.md5_unchecked += 1;
            if at_eof && self.last_unterminated {
                let last = self.lines_before + self.stats.lines;
                self.stats.unchecked_at_eof = Some((p.line, last));
            }
        }
        // Valid UTF-8 (nearly always) becomes the text without a copy.
        let text = String::from_utf8(p.kept).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        let data = match p.payload_use {
            PayloadUse::Ignore if p.compile.is_empty() => return None,
            PayloadUse::Ignore => EventData::Seen,
            PayloadUse::CacheLookup(_) if p.compile.is_empty() => return None,
            PayloadUse::CacheLookup(lookup) => EventData::CacheLookup(lookup),
            PayloadUse::RecompileReasons => EventData::RecompileReasons(decode_recompile_reasons(&text)),
            PayloadUse::GraphBreak => EventData::GraphBreak(text),
            // Only its guard lines were kept while streaming.
            PayloadUse::GuardTree => EventData::GuardTree(text),
            PayloadUse::OutputGraph => match p.graph.map(|g| g.finish()) {
                Some(g) if !(g.reads.is_empty() && g.assigned.is_empty()) => EventData::OutputGraph(Box::new(g)),
                _ => EventData::Seen,
            },
        };
        Some(Event {
            line: p.line,
            time: p.time,
            pid: p.pid,
            rank: p.rank,
            compile: p.compile,
            data,
        })
    }
}
