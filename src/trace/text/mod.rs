//! Dynamo's text logs (`TORCH_LOGS=recompiles` in a job's stderr, a CI
//! log, a block pasted into an issue) read into the same events a
//! TORCH_TRACE log yields: a line's prefixes (`prefix`), a recompile's
//! lines gathered (`block`), the events they become (`events`).
//!
//! A job's log is mostly its own output: a line is looked at only when it
//! holds one of Dynamo's words or continues a block being read.

mod block;
mod events;
mod guards;
mod prefix;
mod scan;

use super::event::Event;
use super::stats::{ParseStats, TextStats};
use crate::input::problems::{ProblemKind, Problems};
use block::{Block, Origin};
use prefix::{LineView, Tag};
use std::collections::HashMap;
use std::io::BufRead;
use std::sync::Arc;

/// Longest line looked at; a longer one is read by its start.
const LINE_CAP: usize = 1 << 20;
/// Lines of a pasted graph break taken after its first, at most.
const PASTED_BREAK_LINES: usize = 80;

/// The parser and where its events go, as the scan's sink.
struct Feed<'a, 'p> {
    parser: &'a mut TextParser<'p>,
    out: &'a mut dyn FnMut(Event),
}

impl scan::Lines for Feed<'_, '_> {
    fn every_line(&self) -> bool {
        self.parser.open.values().any(|o| !o.logged())
    }

    fn line(&mut self, bytes: &[u8], number: u64) {
        self.parser.feed_line(bytes, number, self.out);
    }
}

/// Who wrote a line: its rank and process, when its prefixes say.
type Key = (Option<u32>, Option<u64>);

enum Open {
    Recompile(Block),
    GraphBreak(GraphBreak),
}

impl Open {
    fn logged(&self) -> bool {
        match self {
            Open::Recompile(b) => b.origin.logged,
            Open::GraphBreak(g) => g.origin.logged,
        }
    }
}

struct GraphBreak {
    origin: Origin,
    compile: Option<super::envelope::CompileRef>,
    text: String,
    lines: usize,
}

impl GraphBreak {
    fn take(&mut self, v: &LineView) -> bool {
        let goes_on = if self.origin.logged {
            v.tag == Some(Tag::GraphBreaks) && v.compile == self.compile
        } else {
            !v.is_logged() && self.lines < PASTED_BREAK_LINES
        };
        if goes_on {
            self.text.push('\n');
            self.text.push_str(&v.body);
            self.lines += 1;
        }
        goes_on
    }
}

pub struct TextParser<'p> {
    file: Arc<str>,
    problems: &'p mut Problems,
    open: HashMap<Key, Open>,
    /// The latest compile the limit refused, kept until the log moves on:
    /// a `FailOnRecompileLimitHit` traceback may follow it.
    refused: Option<Block>,
    emitter: events::Emitter,
    /// `[__guards]` trees being read.
    trees: guards::Trees<Key>,
    stats: TextStats,
    /// The ranks whose lines the log holds (`[rankN]:`), with the process
    /// their glog prefix names.
    ranks: std::collections::BTreeMap<u32, Option<u64>>,
}

impl<'p> TextParser<'p> {
    pub fn new(file: Arc<str>, problems: &'p mut Problems) -> Self {
        TextParser {
            file,
            problems,
            open: HashMap::new(),
            refused: None,
            emitter: events::Emitter::default(),
            trees: guards::Trees::default(),
            stats: TextStats::default(),
            ranks: std::collections::BTreeMap::new(),
        }
    }

    /// Reads a whole stream, handing each event to `on_event`.
    pub fn run<R: BufRead>(mut self, reader: R, on_event: &mut dyn FnMut(Event)) -> ParseStats {
        let mut pids = Vec::new();
        let on_event = &mut |ev: Event| {
            if !pids.contains(&ev.pid) {
                pids.push(ev.pid);
            }
            on_event(ev)
        };
        let mut feed = Feed {
            parser: &mut self,
            out: on_event,
        };
        let (count, bytes) = match scan::scan(reader, LINE_CAP, &mut feed) {
            Ok(read) => read,
            Err(e) => {
                self.problems.push_file_level(
                    &self.file,
                    ProblemKind::Io,
                    format!("read error: {e}; rest of file skipped"),
                );
                (0, 0)
            }
        };
        self.flush(on_event);
        self.emitter.quiet_ranks(&self.ranks, on_event);
        self.stats.guard_sets = self.emitter.trees_given;
        ParseStats {
            lines: count,
            bytes,
            pids: {
                pids.sort_unstable();
                pids
            },
            text: Some(self.stats),
            ..ParseStats::default()
        }
    }

    /// Takes one line of the log (its number in the log given), handing on
    /// the events of what it ends.
    pub fn feed_line(&mut self, bytes: &[u8], number: u64, out: &mut dyn FnMut(Event)) {
        let dynamo = prefix::might_be_dynamo(bytes);
        // A logged block's lines all hold Dynamo's words; a pasted
        // one's further lines need not.
        let pasted_open = self.open.values().any(|o| !o.logged());
        if !dynamo && !pasted_open && !self.new_rank(bytes) {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        let view = prefix::view(&text);
        if let Some(rank) = view.rank {
            let pid = self.ranks.entry(rank).or_default();
            *pid = pid.or(view.pid);
        }
        if !dynamo && !pasted_open {
            return;
        }
        self.line(view, number, dynamo, out);
    }

    /// Whether a line names a rank (`[rank3]:`) not seen yet: under
    /// torchrun every line has one, and only a rank's first line is taken
    /// apart for it (its process comes with its Dynamo lines).
    fn new_rank(&self, bytes: &[u8]) -> bool {
        let Some(at) = memchr::memmem::find(bytes, b"[rank") else {
            return false;
        };
        let digits = &bytes[at + 5..];
        let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
        let rank = std::str::from_utf8(&digits[..n])
            .ok()
            .and_then(|d| d.parse::<u32>().ok());
        rank.is_none_or(|r| !self.ranks.contains_key(&r))
    }

    /// Ends every block being read, as the end of the log does: `watch -`
    /// calls it when the job has printed nothing for a moment, so that a
    /// recompile is told without waiting for the job's next line.
    pub fn flush(&mut self, out: &mut dyn FnMut(Event)) {
        self.close_all(out);
        for tree in self.trees.finish() {
            self.emitter.guard_tree(tree, out);
        }
        if let Some(b) = self.refused.take() {
            self.emitter.block(b, out);
        }
    }

    fn line(&mut self, v: LineView, number: u64, dynamo: bool, out: &mut dyn FnMut(Event)) {
        let key = (v.rank, v.pid);
        let body: &str = &v.body;
        let trimmed = body.trim_start();
        let origin = Origin {
            line: number,
            time: v.time,
            pid: v.pid,
            rank: v.rank,
            logged: v.is_logged(),
        };
        if v.is_logged() && v.tag == Some(Tag::Guards) {
            // A guard tree is never part of a recompile's lines, whichever
            // block of this writer is open.
            self.stats.dynamo_lines += 1;
            if let Some(tree) = self.trees.line(key, &v, origin) {
                self.emitter.guard_tree(tree, out);
            }
            return;
        }
        if let Some((name, file, first_line)) = Block::header(body) {
            self.close(key, out);
            let mut b = Block::new(origin, v.compile);
            (b.function, b.file, b.first_line) = (Some(name), Some(file), first_line);
            self.begin(key, Open::Recompile(b));
            self.stats.recompile_blocks += 1;
            return;
        }
        if body.contains("hit config.recompile_limit") || body.contains("hit config.cache_size_limit") {
            self.stats.limit_warnings += 1;
            self.stats.dynamo_lines += 1;
            let same = matches!(self.open.get(&key), Some(Open::Recompile(b))
                if v.compile.is_none() || b.compile.is_none() || b.compile == v.compile);
            if !same {
                self.close(key, out);
                self.open.insert(key, Open::Recompile(Block::new(origin, v.compile)));
            }
            if let Some(Open::Recompile(b)) = self.open.get_mut(&key) {
                b.refused = true;
                b.in_reasons = false;
            }
            return;
        }
        if trimmed.starts_with("Graph break in user code at ") {
            self.close(key, out);
            self.stats.graph_breaks += 1;
            let text = trimmed.to_string();
            let g = GraphBreak {
                origin,
                compile: v.compile,
                text,
                lines: 0,
            };
            self.begin(key, Open::GraphBreak(g));
            return;
        }
        if body.contains("FailOnRecompileLimitHit") {
            let open = match self.open.get_mut(&key) {
                Some(Open::Recompile(b)) if b.refused => Some(b),
                _ => None,
            };
            if let Some(b) = open.or(self.refused.as_mut()) {
                b.hard_failure = true;
                self.stats.dynamo_lines += 1;
            }
            return;
        }
        let taken = match self.open.get_mut(&key) {
            Some(Open::Recompile(b)) => b.take(body),
            Some(Open::GraphBreak(g)) => g.take(&v),
            None => false,
        };
        if taken {
            self.stats.dynamo_lines += 1;
            return;
        }
        self.close(key, out);
        let pasted = trimmed.starts_with("triggered by the following guard failure")
            || trimmed.strip_prefix("- ").and_then(block::entry_id).is_some();
        if pasted {
            // A reason block without its header (pasted alone).
            let mut b = Block::new(origin, v.compile);
            b.take(body);
            self.begin(key, Open::Recompile(b));
            self.stats.recompile_blocks += 1;
            return;
        }
        if v.is_logged() && matches!(v.tag, Some(Tag::Recompiles | Tag::RecompilesVerbose | Tag::GraphBreaks)) {
            self.stats.dynamo_lines += 1;
        } else if !dynamo {
            // A job's own line: a pasted block has ended (a logged one goes
            // on; its writer prints it whole, but other processes may not).
            self.close_pasted(out);
        }
    }

    fn begin(&mut self, key: Key, open: Open) {
        self.stats.dynamo_lines += 1;
        self.open.insert(key, open);
    }

    fn close(&mut self, key: Key, out: &mut dyn FnMut(Event)) {
        match self.open.remove(&key) {
            Some(Open::Recompile(b)) if b.refused => {
                if let Some(older) = self.refused.replace(b) {
                    self.emitter.block(older, out);
                }
            }
            Some(Open::Recompile(b)) => self.emitter.block(b, out),
            Some(Open::GraphBreak(g)) => self.emitter.graph_break(g.compile, g.origin, g.text, out),
            None => {}
        }
    }

    fn close_pasted(&mut self, out: &mut dyn FnMut(Event)) {
        let mut keys: Vec<Key> = self.open.iter().filter(|(_, o)| !o.logged()).map(|(k, _)| *k).collect();
        keys.sort();
        for key in keys {
            self.close(key, out);
        }
    }

    fn close_all(&mut self, out: &mut dyn FnMut(Event)) {
        let mut keys: Vec<Key> = self.open.keys().copied().collect();
        keys.sort();
        for key in keys {
            self.close(key, out);
        }
    }
}
