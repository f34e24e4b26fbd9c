//! The report's view of one or two traces, gathered while they stream past:
//! per module output, each stat over steps (sampled), where values were NaN
//! or infinite, and (two traces) the relative error per module and step.
//!
//! Bounded whatever the traces' size: at most `MAX_ROWS` module outputs
//! (the first seen), `MAX_STATS` stats, and `MAX_COLUMNS` step buckets;
//! when the steps outgrow the columns, buckets double in width and merge.

use super::align::Observer;
use super::compare::RecordedStat;
use super::names::Interner;
use super::read::Record;
use std::collections::HashMap;

pub const MAX_ROWS: usize = 40;
pub const MAX_STATS: usize = 4;
pub const MAX_COLUMNS: usize = 100;

/// What happened in one step bucket of one module output.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Largest relative error of a compared pair (None: nothing compared).
    pub max_rel: Option<f64>,
    pub compared: u32,
    pub divergent: u32,
    pub one_sided: u32,
    /// Records with a NaN or infinite stat (either side).
    pub nonfinite: u32,
}

impl Cell {
    fn merge(self, o: Cell) -> Cell {
        Cell {
            max_rel: match (self.max_rel, o.max_rel) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            },
            compared: self.compared + o.compared,
            divergent: self.divergent + o.divergent,
            one_sided: self.one_sided + o.one_sided,
            nonfinite: self.nonfinite + o.nonfinite,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Row {
    pub module: String,
    pub tensor: String,
    pub cells: Vec<Cell>,
    /// `samples[side][stat][bucket]`: the finite value of the bucket's first
    /// step (call 0), or None.
    pub samples: [Vec<Vec<Option<f64>>>; 2],
    pub nonfinite: u64,
    pub first_nonfinite_step: Option<i64>,
    pub divergent: u64,
    pub one_sided: u64,
}

#[derive(Debug)]
pub struct Overview {
    /// Stats drawn, in the order first seen.
    pub stats: Vec<String>,
    pub stats_omitted: usize,
    pub rows: Vec<Row>,
    /// Module outputs seen but not drawn.
    pub rows_omitted: usize,
    /// Step of bucket 0, and steps per bucket.
    pub origin: Option<i64>,
    pub stride: i64,
    /// Records not drawn: of a later pass, or before the first step.
    pub skipped: u64,
    index: HashMap<(u32, u32), Option<usize>>,
    stat_slots: HashMap<u32, Option<usize>>,
}

impl Default for Overview {
    fn default() -> Self {
        Overview {
            stats: Vec::new(),
            stats_omitted: 0,
            rows: Vec::new(),
            rows_omitted: 0,
            origin: None,
            stride: 1,
            skipped: 0,
            index: HashMap::new(),
            stat_slots: HashMap::new(),
        }
    }
}

impl Overview {
    pub fn new() -> Self {
        Self::default()
    }

    /// Buckets in use (the columns to draw).
    pub fn columns(&self) -> usize {
        self.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0)
    }

    /// The row and bucket of a record, growing the grid as needed; None when
    /// the record is not drawn.
    fn locate(&mut self, names: &Interner, r: &Record) -> Option<(usize, usize)> {
        if r.pass > 0 {
            self.skipped += 1;
            return None;
        }
        let origin = *self.origin.get_or_insert(r.step);
        if r.step < origin {
            self.skipped += 1;
            return None;
        }
        while (r.step - origin) / self.stride >= MAX_COLUMNS as i64 {
            self.widen();
        }
        let bucket = ((r.step - origin) / self.stride) as usize;
        let rows = self.rows.len();
        let slot = *self
            .index
            .entry((r.module, r.tensor))
            .or_insert_with(|| (rows < MAX_ROWS).then_some(rows));
        let row = slot?;
        if row == self.rows.len() {
            self.rows.push(Row {
                module: names.name(r.module).to_string(),
                tensor: names.name(r.tensor).to_string(),
                cells: Vec::new(),
                samples: Default::default(),
                nonfinite: 0,
                first_nonfinite_step: None,
                divergent: 0,
                one_sided: 0,
            });
        }
        let cells = &mut self.rows[row].cells;
        if cells.len() <= bucket {
            cells.resize(bucket + 1, Cell::default());
        }
        Some((row, bucket))
    }

    /// Doubles the bucket width, merging neighbours.
    fn widen(&mut self) {
        self.stride *= 2;
        for row in &mut self.rows {
            row.cells = row
                .cells
                .chunks(2)
                .map(|c| c.iter().fold(Cell::default(), |a, b| a.merge(*b)))
                .collect();
            for side in &mut row.samples {
                for series in side {
                    *series = series.chunks(2).map(|c| c.iter().find_map(|v| *v)).collect();
                }
            }
        }
    }

    fn stat_slot(&mut self, names: &Interner, stat: u32) -> Option<usize> {
        let n = self.stats.len();
        *self.stat_slots.entry(stat).or_insert_with(|| {
            if n < MAX_STATS {
                self.stats.push(names.name(stat).to_string());
                Some(n)
            } else {
                self.stats_omitted += 1;
                None
            }
        })
    }
}

impl Observer for Overview {
    fn record(&mut self, names: &Interner, side: usize, r: &Record) {
        let Some((row, bucket)) = self.locate(names, r) else {
            return;
        };
        let nonfinite = r
            .stats
            .iter()
            .any(|(_, v)| matches!(v, RecordedStat::Nan) || matches!(v, RecordedStat::Number(x) if !x.is_finite()));
        for (stat, value) in &r.stats {
            let (Some(slot), RecordedStat::Number(x)) = (self.stat_slot(names, *stat), value) else {
                continue;
            };
            if !x.is_finite() || r.call != 0 {
                continue;
            }
            let series = &mut self.rows[row].samples[side];
            if series.len() <= slot {
                series.resize(slot + 1, Vec::new());
            }
            let samples = &mut series[slot];
            if samples.len() <= bucket {
                samples.resize(bucket + 1, None);
            }
            samples[bucket].get_or_insert(*x);
        }
        let row = &mut self.rows[row];
        if nonfinite {
            row.cells[bucket].nonfinite += 1;
            row.nonfinite += 1;
            row.first_nonfinite_step.get_or_insert(r.step);
        }
    }

    fn pair(&mut self, names: &Interner, a: &Record, _b: &Record, rel: f64, divergent: bool) {
        let Some((row, bucket)) = self.locate(names, a) else {
            return;
        };
        let row = &mut self.rows[row];
        let cell = &mut row.cells[bucket];
        cell.compared += 1;
        cell.max_rel = Some(cell.max_rel.map_or(rel, |m| m.max(rel)));
        if divergent {
            cell.divergent += 1;
            row.divergent += 1;
        }
    }

    fn one_sided(&mut self, names: &Interner, _side: usize, r: &Record) {
        let Some((row, bucket)) = self.locate(names, r) else {
            return;
        };
        let row = &mut self.rows[row];
        row.cells[bucket].one_sided += 1;
        row.one_sided += 1;
    }
}

impl Overview {
    /// Finishes the counts kept on the side.
    pub fn finish(mut self) -> Self {
        self.rows_omitted = self.index.values().filter(|v| v.is_none()).count();
        self
    }
}

/// What the report shows of the `--activations` traces.
pub struct Activations {
    pub traces: Vec<super::outcome::SideSummary>,
    pub overview: Overview,
    /// When two traces were given.
    pub diff: Option<super::Diff>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activation_diff::A;
    use std::sync::Arc;

    fn names() -> Interner {
        let mut n = Interner::default();
        for s in ["m0", "m1", "out", "sum", "max"] {
            n.intern(s);
        }
        n
    }

    fn record(step: i64, module: u32, sum: RecordedStat) -> Record {
        Record {
            seq: 0,
            line: 1,
            pass: 0,
            step,
            module,
            original: module,
            tensor: 2,
            call: 0,
            stats: vec![(3, sum), (4, RecordedStat::Number(1.0))],
            shape: None,
            dtype: None,
        }
    }

    #[test]
    fn steps_beyond_the_columns_merge_buckets_and_keep_nonfinite_marks() {
        let names = names();
        let mut o = Overview::new();
        for step in 0..1000 {
            let sum = if step == 777 {
                RecordedStat::Nan
            } else {
                RecordedStat::Number(step as f64)
            };
            o.record(&names, A, &record(step, 0, sum));
        }
        let o = o.finish();
        assert!(
            o.columns() <= MAX_COLUMNS && o.columns() > MAX_COLUMNS / 2,
            "{}",
            o.columns()
        );
        assert_eq!(o.stride, 16);
        let row = &o.rows[0];
        assert_eq!((row.nonfinite, row.first_nonfinite_step), (1, Some(777)));
        let marked: Vec<usize> = (0..row.cells.len()).filter(|&i| row.cells[i].nonfinite > 0).collect();
        assert_eq!(marked, [777 / 16]);
        // Each bucket's sample is its first step's value.
        assert_eq!(row.samples[A][0][0], Some(0.0));
        assert_eq!(row.samples[A][0][1], Some(16.0));
        assert_eq!(o.stats, ["sum", "max"]);
    }

    #[test]
    fn rows_are_capped_and_the_rest_counted() {
        let mut names = Interner::default();
        let ids: Vec<u32> = (0..MAX_ROWS + 5).map(|i| names.intern(&format!("m{i}"))).collect();
        let (out, sum): (Arc<str>, Arc<str>) = ("out".into(), "sum".into());
        let (out, sum) = (names.intern(&out), names.intern(&sum));
        let mut o = Overview::new();
        for id in ids {
            let mut r = record(0, id, RecordedStat::Number(1.0));
            r.tensor = out;
            r.stats = vec![(sum, RecordedStat::Number(1.0))];
            o.record(&names, A, &r);
            o.pair(&names, &r, &r, 0.0, false);
        }
        let o = o.finish();
        assert_eq!((o.rows.len(), o.rows_omitted), (MAX_ROWS, 5));
        assert_eq!(o.rows[0].cells[0].compared, 1);
    }
}
