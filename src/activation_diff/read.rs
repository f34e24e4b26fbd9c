//! Streaming reader of activation-trace JSONL (ours and the reference
//! format), one thread per file, handing records over in bounded batches.
//!
//! A record is `{"module", "tensor", "step", <stats>..., "shape", "dtype"}`
//! with our optional `"call"` (see `activations::format`). Without
//! `call` (the reference format), a record's call is the number of earlier
//! records of the same module and tensor in the same step, which is what our
//! hooks write, so the two formats align with each other. A step lower than
//! the previous record's starts a new *pass* (a second run in the same file):
//! passes are aligned one by one.
//!
//! Bad lines never stop the read: they are counted and kept as
//! `file:line: reason`, and the line is skipped.

use super::compare::RecordedStat;
use super::decode::{decode, Layout};
use super::names::{FastMap, Interner, NameMap, Shapes};
use crate::activations::format::{MODULE, STEP, TENSOR};
use crate::input::problems::excerpt;
use crate::input::{self, JsonlLines, ProblemKind, Problems};
use std::collections::hash_map::Entry;
use std::io::{self, BufRead};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Longest record kept; longer lines are reported and skipped.
const MAX_RECORD: usize = 1 << 20;
/// Records per batch and batches in flight: the reader runs at most this far
/// ahead of the aligner, whatever the file's size.
const BATCH: usize = 2048;
const BATCHES_IN_FLIGHT: usize = 4;

/// A record's stats. Their vectors go back to the reader that made them
/// (`SideReader::recycle`): freed by the aligner's thread instead, each
/// cost both threads a trip through malloc's locked paths (a quarter of
/// the aligner's time and a tenth of each reader's).
pub type Stats = Vec<(u32, RecordedStat)>;

/// One record. Names are ids into the reading side's interner (the aligner
/// translates them); `module` is the mapped name, `original` as written.
#[derive(Clone, Debug)]
pub struct Record {
    /// Position among the file's records, from 0: the execution order.
    pub seq: u64,
    pub line: u64,
    pub pass: u32,
    pub step: i64,
    pub module: u32,
    pub original: u32,
    pub tensor: u32,
    pub call: u64,
    pub stats: Stats,
    /// An id into the reading side's `Shapes` (the aligner translates it).
    pub shape: Option<u32>,
    pub dtype: Option<u32>,
}

impl Record {
    /// Where the record sits in the step order of its file.
    pub fn position(&self) -> (u32, i64) {
        (self.pass, self.step)
    }
}

pub struct Batch {
    /// Names interned since the previous batch, in id order.
    pub names: Vec<Arc<str>>,
    /// Shapes likewise.
    pub shapes: Vec<Arc<[i64]>>,
    pub records: Vec<Record>,
}

#[derive(Debug, Default)]
pub struct ReadSummary {
    pub lines: u64,
    pub records: u64,
    pub passes: u32,
    /// Distinct (pass, step) positions.
    pub steps: u64,
    pub problems: Problems,
}

/// A file being read on its own thread.
pub struct SideReader {
    rx: Receiver<Batch>,
    spent: SyncSender<Vec<Stats>>,
    handle: JoinHandle<ReadSummary>,
}

impl SideReader {
    /// Opens `path` (plain or gzip, by content) and starts reading it. Only
    /// an unopenable file is an error.
    pub fn spawn(path: &Path, map: NameMap) -> io::Result<SideReader> {
        let reader = input::open(path)?;
        let display: Arc<str> = path.display().to_string().into();
        let (tx, rx) = sync_channel(BATCHES_IN_FLIGHT);
        let (spent, returned) = sync_channel(BATCHES_IN_FLIGHT);
        let handle = std::thread::spawn(move || {
            let mut side = SideState::new(display, map);
            side.returned = Some(returned);
            side.read(reader, &mut |batch| tx.send(batch).is_ok());
            side.finish()
        });
        Ok(SideReader { rx, spent, handle })
    }

    /// Hands emptied stats vectors back for reuse; dropped if the reader
    /// has enough already.
    pub fn recycle(&self, stats: Vec<Stats>) {
        let _ = self.spent.try_send(stats);
    }

    /// The next batch, or None at the end of the file.
    pub fn next_batch(&self) -> Option<Batch> {
        self.rx.recv().ok()
    }

    pub fn finish(self) -> ReadSummary {
        drop(self.rx);
        self.handle.join().unwrap_or_else(|_| {
            let mut summary = ReadSummary::default();
            summary.problems.count += 1;
            summary
        })
    }
}

/// Per-file reading state: names, passes, and the keys of the current step
/// (to number calls and catch duplicates); reset at every step change.
struct SideState {
    display: Arc<str>,
    map: NameMap,
    names: Interner,
    sent_names: usize,
    shapes: Shapes,
    sent_shapes: usize,
    /// original name id -> mapped name id (mapping runs once per name).
    mapped: FastMap<u32, u32>,
    last_step: Option<i64>,
    pass: u32,
    occurrences: FastMap<(u32, u32), u64>,
    seen: FastMap<(u32, u32, u64), u64>,
    guess: Guesses,
    layout: Layout,
    /// Stats vectors to reuse, and where the aligner returns them.
    spare: Vec<Stats>,
    returned: Option<Receiver<Vec<Stats>>>,
    summary: ReadSummary,
}

/// The names the previous records had in each place, for
/// `Interner::intern_guessed`. Ids are those of the side's interner.
#[derive(Default)]
struct Guesses {
    /// Module id -> the module that followed it last time: a step runs its
    /// modules in the order of the step before.
    next_module: Vec<u32>,
    last_module: Option<u32>,
    tensor: u32,
    dtype: u32,
    /// By position among a record's stats.
    stats: Vec<u32>,
    shape: Option<u32>,
}

impl Guesses {
    fn module(&self) -> u32 {
        self.last_module
            .and_then(|last| self.next_module.get(last as usize).copied())
            .unwrap_or(u32::MAX)
    }

    fn module_was(&mut self, id: u32) {
        if let Some(last) = self.last_module {
            let last = last as usize;
            if self.next_module.len() <= last {
                self.next_module.resize(last + 1, u32::MAX);
            }
            self.next_module[last] = id;
        }
        self.last_module = Some(id);
    }

    fn stat(&self, position: usize) -> u32 {
        self.stats.get(position).copied().unwrap_or(u32::MAX)
    }

    fn stat_was(&mut self, position: usize, id: u32) {
        if self.stats.len() <= position {
            self.stats.resize(position + 1, u32::MAX);
        }
        self.stats[position] = id;
    }
}

impl SideState {
    fn new(display: Arc<str>, map: NameMap) -> Self {
        SideState {
            display,
            map,
            names: Interner::default(),
            sent_names: 0,
            shapes: Shapes::default(),
            sent_shapes: 0,
            mapped: FastMap::default(),
            last_step: None,
            pass: 0,
            occurrences: FastMap::default(),
            seen: FastMap::default(),
            guess: Guesses {
                tensor: u32::MAX,
                dtype: u32::MAX,
                ..Guesses::default()
            },
            layout: Layout::default(),
            spare: Vec::new(),
            returned: None,
            summary: ReadSummary::default(),
        }
    }

    /// The shape's id, without hashing it when it is the previous record's.
    fn shape(&mut self, dims: &[i64]) -> u32 {
        match self.guess.shape {
            Some(id) if self.shapes.get(id) == dims => id,
            _ => {
                let id = self.shapes.intern(dims);
                self.guess.shape = Some(id);
                id
            }
        }
    }

    /// An empty stats vector, reused when the aligner has returned some.
    fn stats_vec(&mut self, len: usize) -> Stats {
        if self.spare.is_empty() {
            if let Some(bundle) = self.returned.as_ref().and_then(|r| r.try_recv().ok()) {
                self.spare = bundle;
            }
        }
        match self.spare.pop() {
            Some(mut stats) => {
                stats.clear();
                stats.reserve(len);
                stats
            }
            None => Vec::with_capacity(len),
        }
    }

    /// Reads every line, handing batches to `emit` until it returns false.
    fn read(&mut self, reader: Box<dyn BufRead + Send>, emit: &mut dyn FnMut(Batch) -> bool) {
        let mut lines = JsonlLines::new(reader, Arc::clone(&self.display), MAX_RECORD);
        let mut records = Vec::with_capacity(BATCH);
        while let Some((line, text)) = lines.next_line(&mut self.summary.problems) {
            self.summary.lines = line;
            match self.parse(text, line) {
                Ok(record) => records.push(record),
                Err((kind, why)) => self.summary.problems.push(&self.display, line, kind, why),
            }
            if records.len() == BATCH && !emit(self.batch(&mut records)) {
                return;
            }
        }
        self.summary.lines = lines.lines();
        if !records.is_empty() || self.names.len() > self.sent_names || self.shapes.len() > self.sent_shapes {
            emit(self.batch(&mut records));
        }
    }

    fn batch(&mut self, records: &mut Vec<Record>) -> Batch {
        let names = self.names.since(self.sent_names).to_vec();
        self.sent_names = self.names.len();
        let shapes = self.shapes.since(self.sent_shapes).to_vec();
        self.sent_shapes = self.shapes.len();
        Batch {
            names,
            shapes,
            records: std::mem::replace(records, Vec::with_capacity(BATCH)),
        }
    }

    fn finish(mut self) -> ReadSummary {
        self.summary.passes = if self.summary.records > 0 { self.pass + 1 } else { 0 };
        self.summary
    }

    fn parse(&mut self, text: &[u8], line: u64) -> Result<Record, (ProblemKind, String)> {
        let mut repaired = None;
        let raw = decode(text, &mut self.layout, &mut repaired)?;
        let missing = |field: &str| (ProblemKind::BadEvent, format!("record without '{field}'"));
        let module = raw.module.ok_or_else(|| missing(MODULE))?;
        let tensor = raw.tensor.ok_or_else(|| missing(TENSOR))?;
        let step = raw.step.ok_or_else(|| missing(STEP))?;

        if self.last_step != Some(step) {
            if self.last_step.is_some_and(|last| step < last) {
                self.pass += 1;
            }
            self.last_step = Some(step);
            self.summary.steps += 1;
            self.occurrences.clear();
            self.seen.clear();
        }
        let original = self.names.intern_guessed(&module, self.guess.module());
        self.guess.module_was(original);
        let module = match self.mapped.get(&original) {
            Some(&id) => id,
            None => {
                let id = if self.map.is_identity() {
                    original
                } else {
                    let mapped = self.map.apply(&module);
                    self.names.intern(&mapped)
                };
                self.mapped.insert(original, id);
                id
            }
        };
        let tensor = self.names.intern_guessed(&tensor, self.guess.tensor);
        self.guess.tensor = tensor;
        let call = match raw.call {
            Some(call) => call,
            None => {
                let n = self.occurrences.entry((module, tensor)).or_default();
                *n += 1;
                *n - 1
            }
        };
        match self.seen.entry((module, tensor, call)) {
            Entry::Occupied(first) => {
                let why = format!(
                    "duplicate record: same step, module, tensor and call as line {}; skipped",
                    first.get()
                );
                return Err((ProblemKind::BadEvent, why));
            }
            Entry::Vacant(slot) => {
                slot.insert(line);
            }
        }
        // A stat that is not a number, null, "nan", "inf", "-inf" or
        // "<error...>" (e.g. "12.5") is malformed: left out of the
        // comparison and counted, so a trace of junk cannot look equal.
        let mut malformed = Vec::new();
        let mut stats = self.stats_vec(raw.stats.len());
        for (position, (name, value)) in raw.stats.into_iter().enumerate() {
            if value == RecordedStat::Other {
                malformed.push(excerpt(name.as_bytes()));
                continue;
            }
            let id = self.names.intern_guessed(&name, self.guess.stat(position));
            self.guess.stat_was(position, id);
            stats.push((id, value));
        }
        if !malformed.is_empty() {
            let why = format!(
                "malformed stat value{} for {} (not a number, null, \"nan\", \"inf\", \"-inf\" or \"<error...>\"); not compared",
                if malformed.len() == 1 { "" } else { "s" },
                malformed.join(", ")
            );
            self.summary
                .problems
                .push(&self.display, line, ProblemKind::BadEvent, why);
        }
        let dtype = raw.dtype.map(|d| {
            self.guess.dtype = self.names.intern_guessed(&d, self.guess.dtype);
            self.guess.dtype
        });
        let seq = self.summary.records;
        self.summary.records += 1;
        Ok(Record {
            seq,
            line,
            pass: self.pass,
            step,
            module,
            original,
            tensor,
            call,
            stats,
            shape: raw.shape.map(|dims| self.shape(&dims)),
            dtype,
        })
    }
}

#[cfg(test)]
mod tests;
