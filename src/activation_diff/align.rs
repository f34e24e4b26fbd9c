//! The alignment window: pairs records of two traces by (pass, step,
//! module, tensor, call) while both files stream past.
//!
//! Each file is in step order, so once both sides have read beyond a
//! position (pass, step), no record of an earlier position can still find
//! a partner: those left pending are one-sided, are counted, and dropped.
//! The reader always advances the side that is behind, so the window holds
//! about one step of records per side; only misalignment (a side that skips
//! steps or modules) makes it larger, never the size of the files.

use super::compare::{relative_error, Outcome, Tolerance, Value};
use super::names::{FastMap, FastSet, Interner};
use super::outcome::*;
use super::read::Record;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::Arc;

/// Per-step rows kept for the output; further steps are only counted.
pub const MAX_STEP_ROWS: usize = 10_000;
/// One-sided groups listed per side (all are counted).
pub const MAX_GROUPS: usize = 100;

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
    /// `--stats`: the ids wanted, each with how many values it compared.
    stat_filter: Option<Vec<(u32, u64)>>,
    pending: [BTreeMap<Position, FastMap<Key, Record>>; 2],
    /// Position of the last record read from each side; None before the first.
    pos: [Option<Position>; 2],
    done: [bool; 2],
    acc: Totals,
    observer: Option<&'o mut dyn Observer>,
}

#[derive(Default)]
struct Totals {
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

/// Kept divergences, a max-heap on A's order so the latest one is dropped first.
struct BySeq(Divergence);

impl PartialEq for BySeq {
    fn eq(&self, other: &Self) -> bool {
        self.0.seq_a == other.0.seq_a
    }
}
impl Eq for BySeq {}
impl PartialOrd for BySeq {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for BySeq {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.seq_a.cmp(&other.0.seq_a)
    }
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
            stat_filter,
            pending: Default::default(),
            pos: [None; 2],
            done: [false; 2],
            acc: Totals::default(),
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
            Some(other) if side == A => self.pair(&record, &other),
            Some(other) => self.pair(&other, &record),
            None => {
                self.pending[side].entry(position).or_default().insert(key, record);
            }
        }
        self.drain();
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
                let mut records: Vec<Record> = entry.remove().into_values().collect();
                records.sort_unstable_by_key(|r| r.seq);
                for r in records {
                    self.one_sided(side, &r);
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

    fn stat_wanted(&self, stat: u32) -> bool {
        self.stat_filter
            .as_ref()
            .is_none_or(|f| f.iter().any(|(s, _)| *s == stat))
    }

    /// Compares without allocating; details are built only for kept divergences.
    fn pair(&mut self, a: &Record, b: &Record) {
        let tol = self.opts.tolerance;
        let mut max_rel: Option<f64> = None;
        for (stat, va) in &a.stats {
            if !self.stat_wanted(*stat) {
                continue;
            }
            let Some((_, vb)) = b.stats.iter().find(|(s, _)| s == stat) else {
                continue;
            };
            self.acc.values_compared += 1;
            if let Some(hits) = self
                .stat_filter
                .as_mut()
                .and_then(|f| f.iter_mut().find(|(s, _)| s == stat))
            {
                hits.1 += 1;
            }
            match tol.compare(*va, *vb) {
                Outcome::Equal => {}
                Outcome::Differs(rel) => max_rel = Some(max_rel.map_or(rel, |m| m.max(rel))),
                Outcome::NotComparable => self.acc.not_comparable += 1,
            }
        }
        let layout_differs = matches!((&a.shape, &b.shape), (Some(x), Some(y)) if x != y)
            || matches!((a.dtype, b.dtype), (Some(x), Some(y)) if x != y);
        if layout_differs {
            max_rel = Some(f64::INFINITY);
        }
        self.acc.compared += 1;
        if self.observer.is_some() {
            let rel = max_rel.unwrap_or_else(|| self.largest_relative_error(a, b));
            if let Some(o) = self.observer.as_deref_mut() {
                o.pair(&self.names, a, b, rel, max_rel.is_some());
            }
        }
        let live = self.step_row(a.position());
        live.row.compared += 1;
        let Some(rel) = max_rel else {
            return;
        };
        live.row.divergent += 1;
        live.row.max_rel_error = live.row.max_rel_error.max(rel);
        live.modules.insert(a.module);
        self.acc.divergent += 1;
        let room = self.acc.kept.len() <= self.opts.show;
        if room || self.acc.kept.peek().is_some_and(|k| a.seq < k.0.seq_a) {
            let detail = self.details(a, b, rel);
            self.acc.kept.push(BySeq(detail));
            if self.acc.kept.len() > self.opts.show + 1 {
                self.acc.kept.pop();
            }
        }
    }

    /// Of the compared numeric stats, within tolerance or not: only the
    /// report's heat strip wants it, to show the noise level.
    fn largest_relative_error(&self, a: &Record, b: &Record) -> f64 {
        let mut rel: f64 = 0.0;
        for (stat, va) in &a.stats {
            if !self.stat_wanted(*stat) {
                continue;
            }
            if let (Value::Number(x), Some((_, Value::Number(y)))) = (va, b.stats.iter().find(|(s, _)| s == stat)) {
                rel = rel.max(relative_error(*x, *y));
            }
        }
        rel
    }

    fn details(&self, a: &Record, b: &Record, max_rel: f64) -> Divergence {
        let tol = self.opts.tolerance;
        let name = |id: u32| self.names.name(id).to_string();
        let mut stats = Vec::new();
        let mut not_comparable = Vec::new();
        for (stat, va) in &a.stats {
            let Some((_, vb)) = b.stats.iter().find(|(s, _)| s == stat) else {
                continue;
            };
            if !self.stat_wanted(*stat) {
                continue;
            }
            match tol.compare(*va, *vb) {
                Outcome::Equal => {}
                Outcome::Differs(rel) => {
                    let abs_error = match (va, vb) {
                        (Value::Number(x), Value::Number(y)) => (x - y).abs(),
                        _ => f64::NAN,
                    };
                    stats.push(StatDiff {
                        stat: name(*stat),
                        a: *va,
                        b: *vb,
                        abs_error,
                        rel_error: rel,
                    });
                }
                Outcome::NotComparable => not_comparable.push(name(*stat)),
            }
        }
        let shape = match (&a.shape, &b.shape) {
            (Some(x), Some(y)) if x != y => Some(Mismatch {
                a: x.to_vec(),
                b: y.to_vec(),
            }),
            _ => None,
        };
        let dtype = match (a.dtype, b.dtype) {
            (Some(x), Some(y)) if x != y => Some(Mismatch { a: name(x), b: name(y) }),
            _ => None,
        };
        Divergence {
            pass: a.pass,
            step: a.step,
            module: name(a.module),
            module_a: name(a.original),
            module_b: name(b.original),
            tensor: name(a.tensor),
            call: a.call,
            line_a: a.line,
            line_b: b.line,
            stats,
            shape,
            dtype,
            max_rel_error: max_rel,
            not_comparable,
            seq_a: a.seq,
        }
    }

    /// The result, once both sides are done.
    pub fn finish(mut self, a: SideSummary, b: SideSummary) -> Diff {
        self.done = [true, true];
        self.drain();
        let never_compared = self
            .stat_filter
            .iter()
            .flatten()
            .filter(|(_, hits)| *hits == 0)
            .map(|(s, _)| self.names.name(*s).to_string())
            .collect();
        let acc = self.acc;
        let mut kept: Vec<Divergence> = acc.kept.into_sorted_vec().into_iter().map(|k| k.0).collect();
        let first = (!kept.is_empty()).then(|| kept.remove(0));
        let [ga, gb] = acc.groups;
        let only_in_a = one_sided(acc.one_sided[A], ga);
        let only_in_b = one_sided(acc.one_sided[B], gb);
        let hint = prefix_hint(&only_in_a, &only_in_b);
        let missing = acc.one_sided[A] + acc.one_sided[B];
        // Nothing aligned is no evidence of parity, whatever --allow-missing says.
        // Nor is a pairing whose every value was null, `<error>` or junk.
        let numbers_compared = acc.values_compared - acc.not_comparable;
        let verdict = if a.read_errors + b.read_errors > 0 {
            // Fail closed: what was not read might have differed.
            Verdict::Unreadable
        } else if acc.divergent > 0 || acc.compared == 0 || (missing > 0 && !self.opts.allow_missing) {
            Verdict::Divergent
        } else if numbers_compared == 0 {
            Verdict::NothingCompared
        } else {
            Verdict::Equal
        };
        Diff {
            verdict,
            a,
            b,
            tolerance: self.opts.tolerance,
            stats: self.opts.stats,
            allow_missing: self.opts.allow_missing,
            compared: acc.compared,
            equal: acc.compared - acc.divergent,
            divergent: acc.divergent,
            values_compared: acc.values_compared,
            not_comparable: acc.not_comparable,
            first_divergence: first,
            next_divergences: kept,
            only_in_a,
            only_in_b,
            steps: acc.steps,
            steps_omitted: acc.steps_omitted,
            hint,
            stats_never_compared: never_compared,
        }
    }
}

fn one_sided(records: u64, groups: FastMap<(u32, u32), OneSidedGroup>) -> OneSided {
    let mut groups: Vec<OneSidedGroup> = groups.into_values().collect();
    groups.sort_by_key(|g| g.first_seq);
    let omitted = groups.len().saturating_sub(MAX_GROUPS) as u64;
    groups.truncate(MAX_GROUPS);
    OneSided {
        records,
        groups,
        groups_omitted: omitted,
    }
}

/// `transformer.blocks.0` only in A and `blocks.0` only in B share the
/// dotted suffix `blocks.0`: suggest stripping what precedes it.
fn prefix_hint(a: &OneSided, b: &OneSided) -> Option<String> {
    let (ga, gb) = (a.groups.first()?, b.groups.first()?);
    let (pa, pb) = dotted_prefixes(&ga.original, &gb.original)?;
    let mut flags = Vec::new();
    if !pa.is_empty() {
        flags.push(format!("--strip-prefix A={pa}"));
    }
    if !pb.is_empty() {
        flags.push(format!("--strip-prefix B={pb}"));
    }
    Some(format!(
        "{} only in A and {} only in B differ by a prefix: try {}",
        ga.original,
        gb.original,
        flags.join(" ")
    ))
}

/// The prefixes before the longest common suffix of whole dotted parts, when
/// there is such a suffix and the names differ.
fn dotted_prefixes<'s>(a: &'s str, b: &'s str) -> Option<(&'s str, &'s str)> {
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    let common = pa.iter().rev().zip(pb.iter().rev()).take_while(|(x, y)| x == y).count();
    if common == 0 || (common == pa.len() && common == pb.len()) {
        return None;
    }
    let cut = |s: &'s str, parts: &[&str]| {
        let keep: usize = parts[parts.len() - common..].iter().map(|p| p.len() + 1).sum::<usize>() - 1;
        &s[..s.len() - keep]
    };
    Some((cut(a, &pa), cut(b, &pb)))
}

#[cfg(test)]
mod tests;
