//! The streaming TORCH_TRACE parser: glog line -> envelope -> typed event,
//! with payload collection and diagnostics; how a payload ends (its md5
//! verdict, the event it becomes) is `payload_end`.

use super::body;
use super::envelope::{self, CompileRef, Envelope};
use super::event::{Event, EventData};
use super::glog;
use super::kinds::is_known_kind;
use super::lines::{LineReader, PayloadLine};
use super::payload::{is_kept_guard_line, payload_use, PayloadUse, Pending, KEPT_PAYLOAD_CAP};
use super::stats::ParseStats;
use crate::input::problems::{excerpt, ProblemKind, Problems};
use md5::{Digest, Md5};
use std::io::BufRead;
use std::sync::Arc;

mod payload_end;
use payload_end::PayloadEnd;

#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Verify the md5 of every payload, not only of the payloads guardscope
    /// reads. Off by default: payloads are ~90% of an inductor log's bytes,
    /// and hashing them all costs more than the rest of the parse.
    pub verify_all_payloads: bool,
    /// Longest line kept in memory; longer lines are reported and skipped.
    pub line_cap: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            verify_all_payloads: false,
            line_cap: 16 << 20,
        }
    }
}

pub struct Parser<'p> {
    file: Arc<str>,
    opts: ParseOptions,
    problems: &'p mut Problems,
    stats: ParseStats,
    pending: Option<Pending>,
    orphan_run: bool,
    /// The last line read had no newline: the writer stopped mid-line.
    last_unterminated: bool,
    /// Lines of the file before the part being parsed (see `run_part`).
    lines_before: u64,
}

impl<'p> Parser<'p> {
    pub fn new(file: Arc<str>, opts: ParseOptions, problems: &'p mut Problems) -> Self {
        Parser {
            file,
            opts,
            problems,
            stats: ParseStats::default(),
            pending: None,
            orphan_run: false,
            last_unterminated: false,
            lines_before: 0,
        }
    }

    /// Parses a whole stream, handing each decoded event to `on_event`.
    pub fn run<R: BufRead>(self, reader: R, on_event: &mut dyn FnMut(Event)) -> ParseStats {
        self.run_part(reader, 0, true, on_event)
    }

    /// Parses one part of a file cut by `chunks::split`, whose first line is
    /// line `lines_before + 1` of the file: events and problems carry the
    /// file's line numbers. A part that is not the last ends before an
    /// envelope-like line, so a payload open at its end is finished as that
    /// line would finish it, not as the end of the file does.
    pub fn run_part<R: BufRead>(
        mut self,
        reader: R,
        lines_before: u64,
        last_part: bool,
        on_event: &mut dyn FnMut(Event),
    ) -> ParseStats {
        self.lines_before = lines_before;
        let mut lines = LineReader::numbered_after(reader, self.opts.line_cap, lines_before);
        loop {
            // Payload nobody reads or hashes: skipped a run at a time.
            if let Some(p) = self.pending.as_mut() {
                if p.hasher.is_none() && !p.payload_use.keeps_payload() {
                    let n = lines.skip_payload_lines();
                    if n > 0 {
                        p.skip_lines(n);
                        self.stats.lines += n;
                        self.stats.payload_lines += n;
                        self.last_unterminated = false;
                    }
                }
            }
            let keep = match &self.pending {
                Some(p) if p.payload_use.keeps_payload() => PayloadLine::Keep,
                _ => PayloadLine::Skip,
            };
            // Skipped payload lines stream into the pending hasher directly.
            let mut skipped_any = false;
            let pending = &mut self.pending;
            let result = lines.next_line(keep, &mut |chunk| {
                if let Some(p) = pending.as_mut() {
                    if !skipped_any {
                        skipped_any = true;
                        p.start_line();
                    }
                    if let Some(h) = p.hasher.as_mut() {
                        h.update(chunk);
                    }
                }
            });
            let line = match result {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    let at = self.lines_before + self.stats.lines + 1;
                    self.problems.push(
                        &self.file,
                        at,
                        ProblemKind::Io,
                        format!("read error: {e}; rest of file skipped"),
                    );
                    break;
                }
            };
            self.stats.lines += 1;
            self.last_unterminated = line.unterminated;
            let number = line.number;
            if line.skipped {
                self.stats.payload_lines += 1;
                match self.pending.as_mut() {
                    None => self.orphan(number),
                    // A payload line holding only its TAB: an empty line of payload.
                    Some(p) if !skipped_any => p.start_line(),
                    Some(_) => {}
                }
                continue;
            }
            let bytes = line.bytes;
            if line.truncated {
                if bytes.first() != Some(&b'\t') {
                    // Not payload: it ends a payload or an orphan run like
                    // any other line (a part of the file may start at it),
                    // and the payload's problems come first, as they do
                    // when a part ends before it.
                    self.orphan_run = false;
                    let ev = self.finish_pending(PayloadEnd::Line);
                    ev.into_iter().for_each(&mut *on_event);
                }
                self.problems.push(
                    &self.file,
                    number,
                    ProblemKind::LineTooLong,
                    format!(
                        "line of {} bytes exceeds the {} byte cap; skipped",
                        line.len, self.opts.line_cap
                    ),
                );
                continue;
            }
            if let Some(rest) = bytes.strip_prefix(b"\t") {
                self.stats.payload_lines += 1;
                match self.pending.as_mut() {
                    Some(p) => {
                        p.start_line();
                        if let Some(h) = p.hasher.as_mut() {
                            h.update(rest);
                        }
                        let room = KEPT_PAYLOAD_CAP.saturating_sub(p.kept.len());
                        if let Some(graph) = p.graph.as_mut() {
                            graph.feed(rest);
                        } else if p.payload_use != PayloadUse::GuardTree {
                            p.kept.extend_from_slice(&rest[..rest.len().min(room)]);
                        } else if is_kept_guard_line(rest) && rest.len() < room {
                            // Of a guard tree only the guards that carry a value
                            // are used; accessor lines (half the tree) are not stored.
                            p.kept.extend_from_slice(rest);
                            p.kept.push(b'\n');
                        }
                    }
                    None => self.orphan(number),
                }
                continue;
            }
            self.orphan_run = false;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                // torch writes empty payload lines without their TAB (export
                // logs); they only count if more payload follows.
                if let Some(p) = self.pending.as_mut() {
                    p.blank_run += 1;
                }
                continue;
            }
            let finished = self.finish_pending(PayloadEnd::Line);
            finished.into_iter().for_each(&mut *on_event);
            let unterminated = line.unterminated;
            if let Some(ev) = self.envelope_line(bytes, number, unterminated) {
                on_event(ev);
            }
        }
        self.stats.bytes = lines.bytes_read();
        let end = if last_part {
            PayloadEnd::Eof
        } else {
            PayloadEnd::PartEnd
        };
        if let Some(ev) = self.finish_pending(end) {
            on_event(ev);
        }
        self.stats.pids.sort_unstable();
        self.stats
    }

    fn orphan(&mut self, number: u64) {
        if !self.orphan_run {
            self.orphan_run = true;
            self.problems.push(
                &self.file,
                number,
                ProblemKind::OrphanPayload,
                "payload line with no envelope announcing it (has_payload); skipped",
            );
        }
    }

    fn envelope_line(&mut self, bytes: &[u8], number: u64, unterminated: bool) -> Option<Event> {
        let Some(g) = glog::parse(bytes) else {
            let message = if self.problems.keeps_more() {
                format!("not a TORCH_TRACE line: \"{}\"", excerpt(bytes))
            } else {
                String::new()
            };
            self.problems.push(&self.file, number, ProblemKind::NotGlog, message);
            return None;
        };
        let message = match std::str::from_utf8(g.message) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => {
                self.problems.push(
                    &self.file,
                    number,
                    ProblemKind::InvalidUtf8,
                    "invalid UTF-8 in envelope; replaced with U+FFFD",
                );
                String::from_utf8_lossy(g.message)
            }
        };
        let env = match envelope::parse(&message) {
            Ok(env) => env,
            Err(e) => {
                // A last line without its newline that does not parse was
                // cut by the writer's end: what came after it is lost.
                let (kind, cut) = if unterminated {
                    (ProblemKind::TruncatedLine, " (line cut off at end of file)")
                } else {
                    (ProblemKind::BadJson, "")
                };
                self.problems
                    .push(&self.file, number, kind, format!("bad envelope JSON: {e}{cut}"));
                return None;
            }
        };
        self.stats.envelopes += 1;
        if !self.stats.pids.contains(&g.pid) {
            self.stats.pids.push(g.pid);
        }
        // A kind's name is allocated once, not per envelope.
        match self.stats.kinds.get_mut(env.kind.as_ref()) {
            Some(n) => *n += 1,
            None => _ = self.stats.kinds.insert(env.kind.to_string(), 1),
        }
        if !is_known_kind(&env.kind) {
            self.problems.push(
                &self.file,
                number,
                ProblemKind::UnknownKind,
                format!(
                    "unknown event kind \"{}\"; counted and skipped",
                    excerpt(env.kind.as_bytes())
                ),
            );
        }
        // torch writes frame_id and frame_compile_id together (a CompileId);
        // one without the other is a damaged line, and taking it would
        // invent a compile `F/?`. Its payload, if any, is consumed unused.
        let damaged = env.compile.frame_id.is_some() && env.compile.frame_compile_id.is_none();
        if damaged {
            self.problems.push(
                &self.file,
                number,
                ProblemKind::BadEvent,
                format!(
                    "{}: frame_id without frame_compile_id; event skipped",
                    excerpt(env.kind.as_bytes())
                ),
            );
        }
        let (payload_use, compile) = if damaged {
            (PayloadUse::Ignore, CompileRef::default())
        } else {
            (payload_use(&env), env.compile)
        };
        if let Some(md5) = &env.has_payload {
            // Guard trees are big (a line per guard) and only lend tensor
            // guards a source line, so like skipped payloads they are hashed
            // only with verify_all; decoded payloads always are.
            let decoded = matches!(payload_use, PayloadUse::RecompileReasons | PayloadUse::GraphBreak);
            let hash = decoded || self.opts.verify_all_payloads;
            self.pending = Some(Pending {
                line: number,
                time: g.time,
                pid: g.pid,
                rank: env.rank,
                compile,
                expected_md5: md5.to_string(),
                payload_use,
                kept: Vec::new(),
                hasher: hash.then(Md5::new),
                lines: 0,
                blank_run: 0,
                graph: (payload_use == PayloadUse::OutputGraph).then(Box::default),
            });
            return None;
        }
        if damaged {
            return None;
        }
        let data = self.decode(&env, number)?;
        Some(Event {
            line: number,
            time: g.time,
            pid: g.pid,
            rank: env.rank,
            compile: env.compile,
            data,
        })
    }

    /// Decodes an envelope without payload into the event guardscope uses.
    fn decode(&mut self, env: &Envelope<'_>, number: u64) -> Option<EventData> {
        let decoded = body::decode(env);
        if let Some(e) = decoded.error {
            let kind = env.kind.to_string();
            self.bad_event(number, &kind, &e);
        }
        decoded.data
    }

    fn bad_event(&mut self, number: u64, kind: &str, error: &str) {
        self.problems
            .push(&self.file, number, ProblemKind::BadEvent, format!("{kind}: {error}"));
    }
}
