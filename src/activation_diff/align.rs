//! The alignment window: pairs records of two traces by (pass, step,
//! module, tensor, call) while both files stream past.
//!
//! Each file is in step order, so once both sides have read beyond a
//! position (pass, step), no record of an earlier position can still find
//! a partner: those left pending are one-sided, are counted, and dropped.
//! The reader always advances the side that is behind, so the window holds
//! about one step of records per side; only misalignment (a side that skips
//! steps or modules) makes it larger, never the size of the files.
//!
//! This file is the window; judging a pair is `pair`, and the diff once both
//! sides are done (verdict, one-sided groups, prefix hint) is `result`.

mod pair;
mod result;

use super::compare::Tolerance;
use super::names::{FastMap, FastSet, Interner, Shapes};
use super::outcome::{OneSidedGroup, StepRow};
use super::read::{Record, Stats};
use pair::BySeq;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::Arc;

/// Per-step rows kept for the output; further steps are only counted.
pub const MAX_STEP_ROWS: usize = 10_000;
/// One-sided groups listed per side (all are counted).
pub const MAX_GROUPS: usize = 100;

/// Emptied window maps kept for reuse (two sides, a few steps in flight).
const MAX_SPARE_MAPS: usize = 8;
/// Stats vectors returned to a reader at a time.
const MAX_SPENT: usize = 2048;
pub const A: usize = 0;
pub const B: usize = 1;

#[derive(Clone, Debug)]
pub struct Options {
    pub tolerance: Tolerance,
    /// Compare only these stats (None: every stat both sides have).
    pub stats: Option<Vec<String>>,
    /// How many divergent records to detail after the first.
    pub show: usize,
    /// Records on one side only do not make the verdict divergent.
    pub allow_missing: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: Tolerance::default(),
            stats: None,
            show: 10,
            allow_missing: false,
        }
    }
}

/// Sees every record and pairing as the diff makes them (the report's
/// charts); ids are the aligner's, names in `names`.
pub trait Observer {
    fn record(&mut self, _names: &Interner, _side: usize, _record: &Record) {}
    /// `rel` is the largest relative error of any stat both have, within
    /// tolerance or not (inf for NaN facing a number or a layout mismatch).
    fn pair(&mut self, _names: &Interner, _a: &Record, _b: &Record, _rel: f64, _divergent: bool) {}
    fn one_sided(&mut self, _names: &Interner, _side: usize, _record: &Record) {}
}

type Position = (u32, i64);
type Key = (u32, u32, u64);

pub struct Aligner<'o> {
    opts: Options,
    names: Interner,
    /// Per side: reader's name id -> our id.
    local: [Vec<u32>; 2],
    shapes: Shapes,
    /// Per side: reader's shape id -> our id.
    local_shapes: [Vec<u32>; 2],
    /// `--stats`: the ids wanted, each with how many values it compared.
    stat_filter: Option<Vec<(u32, u64)>>,
    pending: [BTreeMap<Position, FastMap<Key, Record>>; 2],
    /// Window maps drained empty, kept with their capacity for the next
    /// steps: a new map per step, grown by rehashing, was a seventh of
    /// the aligner's time.
    spare: Vec<FastMap<Key, Record>>,
    /// Per side: stats vectors of records done with, for the reader.
    spent: [Vec<Stats>; 2],
    /// Position of the last record read from each side; None before the first.
    pos: [Option<Position>; 2],
    done: [bool; 2],
    acc: Tally,
    observer: Option<&'o mut dyn Observer>,
}

#[derive(Default)]
struct Tally {
    compared: u64,
    divergent: u64,
    values_compared: u64,
    not_comparable: u64,
    kept: BinaryHeap<BySeq>,
    groups: [FastMap<(u32, u32), OneSidedGroup>; 2],
    one_sided: [u64; 2],
    live_steps: BTreeMap<Position, LiveStep>,
    steps: Vec<StepRow>,
    steps_omitted: u64,
}

#[derive(Default)]
struct LiveStep {
    row: StepRow,
    modules: FastSet<u32>,
}

impl<'o> Aligner<'o> {
    pub fn new(opts: Options, observer: Option<&'o mut dyn Observer>) -> Self {
        let mut names = Interner::default();
        let stat_filter = opts
            .stats
            .as_ref()
            .map(|list| list.iter().map(|s| (names.intern(s), 0)).collect());
        Aligner {
            opts,
            names,
            local: Default::default(),
            shapes: Shapes::default(),
            local_shapes: Default::default(),
            stat_filter,
            pending: Default::default(),
            spare: Vec::new(),
            spent: Default::default(),
            pos: [None; 2],
            done: [false; 2],
            acc: Tally::default(),
            observer,
        }
    }

    pub fn names(&self) -> &Interner {
        &self.names
    }

    /// Registers names a reader interned (in its id order).
    pub fn add_names(&mut self, side: usize, names: &[Arc<str>]) {
        for name in names {
            let id = self.names.intern(name);
            self.local[side].push(id);
        }
    }

    /// Registers shapes a reader interned (in its id order).
    pub fn add_shapes(&mut self, side: usize, shapes: &[Arc<[i64]>]) {
        for shape in shapes {
            let id = self.shapes.intern(shape);
            self.local_shapes[side].push(id);
        }
    }

    /// The side to read next: the one behind (A on a tie); None when both are done.
    pub fn next_side(&self) -> Option<usize> {
        match self.done {
            [true, true] => None,
            [true, false] => Some(B),
            [false, true] => Some(A),
            [false, false] => Some(if self.pos[B] < self.pos[A] { B } else { A }),
        }
    }

    pub fn push(&mut self, side: usize, mut record: Record) {
        let map = &self.local[side];
        let id = |local: u32| map[local as usize];
        record.module = id(record.module);
        record.original = id(record.original);
        record.tensor = id(record.tensor);
        record.dtype = record.dtype.map(id);
        record.shape = record.shape.map(|s| self.local_shapes[side][s as usize]);
        for (stat, _) in &mut record.stats {
            *stat = id(*stat);
        }
        if let Some(o) = self.observer.as_deref_mut() {
            o.record(&self.names, side, &record);
        }
        let position = record.position();
        let key = (record.module, record.tensor, record.call);
        self.pos[side] = Some(position);
        let partner = self.pending[1 - side].get_mut(&position).and_then(|m| m.remove(&key));
        match partner {
            Some(other) => {
                if side == A {
                    self.pair(&record, &other);
                } else {
                    self.pair(&other, &record);
                }
                self.spend(side, record);
                self.spend(1 - side, other);
            }
            None => {
                let spare = &mut self.spare;
                let pending = self.pending[side].entry(position);
                pending
                    .or_insert_with(|| spare.pop().unwrap_or_default())
                    .insert(key, record);
            }
        }
        self.drain();
    }

    fn spend(&mut self, side: usize, record: Record) {
        if self.spent[side].len() < MAX_SPENT {
            self.spent[side].push(record.stats);
        }
    }

    /// The stats vectors of `side`'s records done with, once there are a
    /// batch's worth (for `SideReader::recycle`).
    pub fn take_spent(&mut self, side: usize) -> Option<Vec<Stats>> {
        (self.spent[side].len() >= MAX_SPENT).then(|| std::mem::take(&mut self.spent[side]))
    }

    /// The side has no more records.
    pub fn finish_side(&mut self, side: usize) {
        self.done[side] = true;
        self.drain();
    }

    /// Records pending in the window now (for tests of its bound).
    pub fn pending_len(&self) -> usize {
        self.pending.iter().flat_map(|p| p.values()).map(FastMap::len).sum()
    }

    /// Everything before both sides' positions is final.
    fn drain(&mut self) {
        let at = |side: usize| {
            if self.done[side] {
                (u32::MAX, i64::MAX)
            } else {
                self.pos[side].unwrap_or((0, i64::MIN))
            }
        };
        let watermark = at(A).min(at(B));
        for side in [A, B] {
            while let Some(entry) = self.pending[side].first_entry() {
                if *entry.key() >= watermark {
                    break;
                }
                let mut map = entry.remove();
                let mut records: Vec<Record> = map.drain().map(|(_, r)| r).collect();
                if self.spare.len() < MAX_SPARE_MAPS {
                    self.spare.push(map);
                }
                records.sort_unstable_by_key(|r| r.seq);
                for r in records {
                    self.one_sided(side, &r);
                    self.spend(side, r);
                }
            }
        }
        while let Some(entry) = self.acc.live_steps.first_entry() {
            if *entry.key() >= watermark {
                break;
            }
            let mut live = entry.remove();
            live.row.divergent_modules = live.modules.len() as u64;
            if self.acc.steps.len() < MAX_STEP_ROWS {
                self.acc.steps.push(live.row);
            } else {
                self.acc.steps_omitted += 1;
            }
        }
    }

    fn step_row(&mut self, position: Position) -> &mut LiveStep {
        self.acc.live_steps.entry(position).or_insert_with(|| LiveStep {
            row: StepRow {
                pass: position.0,
                step: position.1,
                ..StepRow::default()
            },
            modules: FastSet::default(),
        })
    }

    fn one_sided(&mut self, side: usize, r: &Record) {
        if let Some(o) = self.observer.as_deref_mut() {
            o.one_sided(&self.names, side, r);
        }
        self.acc.one_sided[side] += 1;
        let row = &mut self.step_row(r.position()).row;
        if side == A {
            row.only_in_a += 1;
        } else {
            row.only_in_b += 1;
        }
        let names = &self.names;
        let group = self.acc.groups[side]
            .entry((r.module, r.tensor))
            .or_insert_with(|| OneSidedGroup {
                module: names.name(r.module).to_string(),
                original: names.name(r.original).to_string(),
                tensor: names.name(r.tensor).to_string(),
                records: 0,
                first_pass: r.pass,
                first_step: r.step,
                first_line: r.line,
                first_seq: r.seq,
            });
        group.records += 1;
    }
}

#[cfg(test)]
mod tests;
