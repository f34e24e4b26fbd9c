//! Judging an aligned pair: which stats differ beyond tolerance, the
//! largest relative error, and the detail of a divergence worth keeping.

use super::Aligner;
use crate::activation_diff::compare::{relative_error, Outcome, RecordedStat};
use crate::activation_diff::outcome::{Divergence, Mismatch, StatDiff};
use crate::activation_diff::read::Record;

/// Kept divergences, a max-heap on A's order so the latest one is dropped first.
pub(super) struct BySeq(pub(super) Divergence);

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

impl Aligner<'_> {
    fn stat_wanted(&self, stat: u32) -> bool {
        self.stat_filter
            .as_ref()
            .is_none_or(|f| f.iter().any(|(s, _)| *s == stat))
    }

    /// Compares without allocating; details are built only for kept divergences.
    pub(super) fn pair(&mut self, a: &Record, b: &Record) {
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
            if let (RecordedStat::Number(x), Some((_, RecordedStat::Number(y)))) =
                (va, b.stats.iter().find(|(s, _)| s == stat))
            {
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
                        (RecordedStat::Number(x), RecordedStat::Number(y)) => (x - y).abs(),
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
                a: self.shapes.get(*x).to_vec(),
                b: self.shapes.get(*y).to_vec(),
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
}
