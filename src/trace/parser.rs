//! The streaming TORCH_TRACE parser: glog line -> envelope -> typed event,
//! with payload collection, md5 verification and diagnostics.

use super::envelope::{self, CompileRef, Envelope};
use super::event::{decode_recompile_reasons, BwdCompilationMetrics, CompilationMetrics, Event, EventData, StackFrame};
use super::glog;
use super::kinds::is_known_kind;
use super::lines::{LineReader, PayloadLine};
use super::payload::{hex, is_kept_guard_line, payload_use, PayloadUse, Pending, KEPT_PAYLOAD_CAP};
use crate::input::problems::{excerpt, ProblemKind, Problems};
use md5::{Digest, Md5};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::sync::Arc;

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

/// Counters for one parsed file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ParseStats {
    pub lines: u64,
    pub bytes: u64,
    pub envelopes: u64,
    pub payload_lines: u64,
    /// Envelopes by event kind, including kinds guardscope does not use.
    pub kinds: BTreeMap<String, u64>,
    pub md5_ok: u64,
    pub md5_mismatch: u64,
    /// Payloads skipped without hashing (when not verifying all payloads).
    pub md5_unchecked: u64,
    pub pids: Vec<u64>,
}

pub struct Parser<'p> {
    file: Arc<str>,
    opts: ParseOptions,
    problems: &'p mut Problems,
    stats: ParseStats,
    pending: Option<Pending>,
    /// `{"str": [path, index]}` interning tables, one per process.
    interned: HashMap<u64, HashMap<u64, String>>,
    orphan_run: bool,
    /// The last line read had no newline: the writer stopped mid-line.
    last_unterminated: bool,
}

impl<'p> Parser<'p> {
    pub fn new(file: Arc<str>, opts: ParseOptions, problems: &'p mut Problems) -> Self {
        Parser {
            file,
            opts,
            problems,
            stats: ParseStats::default(),
            pending: None,
            interned: HashMap::new(),
            orphan_run: false,
            last_unterminated: false,
        }
    }

    /// Parses a whole stream, handing each decoded event to `on_event`.
    pub fn run<R: BufRead>(mut self, reader: R, on_event: &mut dyn FnMut(Event)) -> ParseStats {
        let mut lines = LineReader::new(reader, self.opts.line_cap);
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
                    let at = self.stats.lines + 1;
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
                self.problems.push(
                    &self.file,
                    number,
                    ProblemKind::LineTooLong,
                    format!(
                        "line of {} bytes exceeds the {} byte cap; skipped",
                        line.len, self.opts.line_cap
                    ),
                );
                if bytes.first() != Some(&b'\t') {
                    let ev = self.finish_pending(false);
                    ev.into_iter().for_each(&mut *on_event);
                }
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
                        if p.payload_use != PayloadUse::GuardTree {
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
            let finished = self.finish_pending(false);
            finished.into_iter().for_each(&mut *on_event);
            let unterminated = line.unterminated;
            if let Some(ev) = self.envelope_line(bytes, number, unterminated) {
                on_event(ev);
            }
        }
        self.stats.bytes = lines.bytes_read();
        if let Some(ev) = self.finish_pending(true) {
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
                let cut = if unterminated {
                    " (line cut off at end of file)"
                } else {
                    ""
                };
                self.problems.push(
                    &self.file,
                    number,
                    ProblemKind::BadJson,
                    format!("bad envelope JSON: {e}{cut}"),
                );
                return None;
            }
        };
        self.stats.envelopes += 1;
        if !self.stats.pids.contains(&g.pid) {
            self.stats.pids.push(g.pid);
        }
        *self.stats.kinds.entry(env.kind.to_string()).or_default() += 1;
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
            });
            return None;
        }
        if damaged {
            return None;
        }
        let data = self.decode(&env, g.pid, number)?;
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
    fn decode(&mut self, env: &Envelope<'_>, pid: u64, number: u64) -> Option<EventData> {
        let body = env.body.get();
        let result: Result<Option<EventData>, String> = match env.kind.as_ref() {
            "str" => match serde_json::from_str::<(String, u64)>(body) {
                Ok((path, index)) => {
                    self.interned.entry(pid).or_default().insert(index, path.clone());
                    Ok(Some(EventData::InternedPath(path)))
                }
                Err(e) => Err(e.to_string()),
            },
            "dynamo_start" => self
                .decode_dynamo_start(body, pid)
                .map(|stack| Some(EventData::DynamoStart { stack })),
            "compilation_metrics" => match serde_json::from_str::<CompilationMetrics>(body) {
                Ok(m) => Ok(Some(EventData::CompilationMetrics(Box::new(m)))),
                Err(e) => {
                    // Keep the compile as finished even when a field is odd.
                    self.bad_event(number, "compilation_metrics", &e.to_string());
                    return Some(EventData::CompilationMetrics(Box::default()));
                }
            },
            "bwd_compilation_metrics" => serde_json::from_str::<BwdCompilationMetrics>(body)
                .map(|m| Some(EventData::BwdCompilationMetrics(Box::new(m))))
                .map_err(|e| e.to_string()),
            "guard_added" | "guard_added_fast" => Ok(Some(EventData::GuardAdded)),
            _ if env.compile.is_empty() => Ok(None),
            _ => Ok(Some(EventData::Seen)),
        };
        match result {
            Ok(data) => data,
            Err(e) => {
                let kind = env.kind.to_string();
                self.bad_event(number, &kind, &e);
                None
            }
        }
    }

    fn bad_event(&mut self, number: u64, kind: &str, error: &str) {
        self.problems
            .push(&self.file, number, ProblemKind::BadEvent, format!("{kind}: {error}"));
    }

    fn decode_dynamo_start(&self, body: &str, pid: u64) -> Result<Vec<StackFrame>, String> {
        #[derive(serde::Deserialize)]
        struct Start {
            #[serde(default)]
            stack: Vec<Frame>,
        }
        #[derive(serde::Deserialize)]
        struct Frame {
            line: Option<u32>,
            name: Option<String>,
            filename: Option<serde_json::Value>,
            loc: Option<String>,
        }
        let start: Start = serde_json::from_str(body).map_err(|e| e.to_string())?;
        Ok(start
            .stack
            .into_iter()
            .map(|frame| StackFrame {
                file: match frame.filename {
                    Some(serde_json::Value::Number(n)) => n
                        .as_u64()
                        .and_then(|i| self.interned.get(&pid).and_then(|t| t.get(&i)).cloned()),
                    Some(serde_json::Value::String(s)) => Some(s),
                    _ => None,
                },
                line: frame.line,
                function: frame.name,
                code: frame.loc,
            })
            .collect())
    }

    fn finish_pending(&mut self, at_eof: bool) -> Option<Event> {
        let p = self.pending.take()?;
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
                let last = self.stats.lines - u64::from(!at_eof);
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
            // one whose file lacks the final newline (real logs do).
            self.stats.md5_unchecked += 1;
        }
        let text = String::from_utf8_lossy(&p.kept);
        let data = match p.payload_use {
            PayloadUse::Ignore if p.compile.is_empty() => return None,
            PayloadUse::Ignore => EventData::Seen,
            PayloadUse::CacheLookup(_) if p.compile.is_empty() => return None,
            PayloadUse::CacheLookup(lookup) => EventData::CacheLookup(lookup),
            PayloadUse::RecompileReasons => EventData::RecompileReasons(decode_recompile_reasons(&text)),
            PayloadUse::GraphBreak => EventData::GraphBreak(text.into_owned()),
            // Only its guard lines were kept while streaming.
            PayloadUse::GuardTree => EventData::GuardTree(text.into_owned()),
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
