//! Frames as a job has them: in a distributed run every rank compiles its
//! own copy of each function, and 64 ranks must read as one frame compiled
//! on 64 ranks, not as 64 frames. A copy whose compiles differ from most
//! ranks' (more of them, or other causes) is what a user needs to see: that
//! rank stalls all the others at the next collective.

use super::ranks::mode;
use crate::model::{Frame, Run};
use crate::reasons::Category;
use crate::words::plural;
use serde::Serialize;
use std::collections::BTreeMap;
use std::hash::BuildHasher;

/// One compiled function of a run, with each rank's (process's) copy.
#[derive(Debug)]
pub struct FrameGroup<'r> {
    /// The copies, in rank order; a single-process frame has one.
    pub copies: Vec<&'r Frame>,
    /// Compiles of the copy most ranks had.
    pub typical_compiles: usize,
    /// The copies that compiled differently from most ranks.
    pub differing: Vec<RankDifference>,
}

/// How one rank's copy of a frame differs from most ranks'.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankDifference {
    pub rank: u32,
    pub compiles: usize,
    /// The causes of its recompiles, in compile order.
    pub causes: Vec<Category>,
    pub typical_compiles: usize,
    pub typical_causes: Vec<Category>,
}

impl RankDifference {
    /// "r17: 2 compiles (most 1)", "r42: dtype (most shape_input)".
    pub fn short(&self) -> String {
        let names = |c: &[Category]| {
            if c.is_empty() {
                "none".to_string()
            } else {
                c.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
            }
        };
        if self.compiles != self.typical_compiles {
            format!(
                "r{}: {} (most {})",
                self.rank,
                plural(self.compiles, "compile", "compiles"),
                self.typical_compiles
            )
        } else {
            format!(
                "r{}: {} (most {})",
                self.rank,
                names(&self.causes),
                names(&self.typical_causes)
            )
        }
    }
}

impl FrameGroup<'_> {
    /// The copy that names the group (the lowest rank's).
    pub fn first(&self) -> &Frame {
        self.copies[0]
    }

    pub fn ranks(&self) -> impl Iterator<Item = u32> + '_ {
        self.copies.iter().filter_map(|f| f.rank)
    }

    /// Compile seconds of the slowest copy: ranks compile side by side, so
    /// this is what the job waited.
    pub fn slowest_seconds(&self) -> f64 {
        self.copies.iter().map(|f| f.compile_seconds()).fold(0.0, f64::max)
    }

    pub fn summed_seconds(&self) -> f64 {
        self.copies.iter().map(|f| f.compile_seconds()).sum()
    }

    /// Attempts of the copy most ranks had.
    pub fn typical_attempts(&self) -> usize {
        let attempts: Vec<usize> = self.copies.iter().map(|f| f.attempts()).collect();
        mode(&attempts)
    }
}

/// The run's frames grouped across ranks, in the order of each group's
/// first copy in `run.frames`. Copies are matched by run, reset generation,
/// frame id and function: torch numbers frames in the order a process first
/// reaches them, which ranks of one job share. Frames of a log without a
/// rank are never merged with another process's.
pub fn group_frames(run: &Run) -> Vec<Vec<&Frame>> {
    let key = |i: usize| {
        let f = &run.frames[i];
        (
            f.run,
            f.generation,
            f.frame_id,
            f.function.as_deref(),
            f.rank.is_none().then_some(f.pid),
        )
    };
    // Frames sorted by their key's hash (then position), not gathered in a
    // map of keys: a fleet's run has 10^5-10^6 frames, and a map of them
    // was the analysis's largest part.
    let hashes = foldhash::fast::RandomState::default();
    let mut order: Vec<(u64, usize)> = (0..run.frames.len()).map(|i| (hashes.hash_one(key(i)), i)).collect();
    order.sort_unstable();
    let mut groups: Vec<(usize, Vec<&Frame>)> = Vec::new();
    for same_hash in order.chunk_by(|a, b| a.0 == b.0) {
        if let [(_, i)] = same_hash {
            groups.push((*i, vec![&run.frames[*i]]));
            continue;
        }
        let mut rest: Vec<usize> = same_hash.iter().map(|&(_, i)| i).collect();
        // Keys that only share a hash are told apart here, each group in
        // frame order.
        while let Some(&first) = rest.first() {
            let (same, other): (Vec<usize>, Vec<usize>) = rest.iter().partition(|&&i| key(i) == key(first));
            groups.push((first, same.iter().map(|&i| &run.frames[i]).collect()));
            rest = other;
        }
    }
    drop(order);
    groups.sort_unstable_by_key(|&(first, _)| first);
    groups
        .into_iter()
        .map(|(_, mut g)| {
            g.sort_by_key(|f| f.rank);
            g
        })
        .collect()
}

/// Each group with the copies that differ from most ranks, given each
/// copy's recompile causes (`causes_of`, in compile order).
pub fn compare_copies<'r>(
    groups: Vec<Vec<&'r Frame>>,
    causes_of: impl Fn(&Frame) -> Vec<Category>,
) -> Vec<FrameGroup<'r>> {
    groups
        .into_iter()
        .map(|copies| {
            let counts: Vec<usize> = copies.iter().map(|f| f.compiles.len()).collect();
            let typical_compiles = mode(&counts);
            let causes: Vec<Vec<Category>> = copies.iter().map(|f| causes_of(f)).collect();
            let typical_causes = most_common(&causes);
            let differing = if copies.len() < 2 {
                Vec::new()
            } else {
                copies
                    .iter()
                    .zip(counts.iter().zip(&causes))
                    .filter(|(_, (n, c))| **n != typical_compiles || **c != typical_causes)
                    .filter_map(|(f, (n, c))| {
                        Some(RankDifference {
                            rank: f.rank?,
                            compiles: *n,
                            causes: c.clone(),
                            typical_compiles,
                            typical_causes: typical_causes.clone(),
                        })
                    })
                    .collect()
            };
            FrameGroup {
                copies,
                typical_compiles,
                differing,
            }
        })
        .collect()
}

/// The most common cause sequence; ties go to the shorter, then the first seen.
fn most_common(seqs: &[Vec<Category>]) -> Vec<Category> {
    let mut freq: BTreeMap<&[Category], (usize, usize)> = BTreeMap::new();
    for (i, s) in seqs.iter().enumerate() {
        freq.entry(s.as_slice()).or_insert((0, i)).0 += 1;
    }
    freq.into_iter()
        .max_by(|(a, (na, ia)), (b, (nb, ib))| na.cmp(nb).then(b.len().cmp(&a.len())).then(ib.cmp(ia)))
        .map(|(s, _)| s.to_vec())
        .unwrap_or_default()
}

/// Compile time as the job lived it: the union of every compile's interval
/// across processes, where the summed time counts parallel ranks' compiles
/// once each. A compile with no start time cannot be placed and counts in
/// full.
pub fn wall_clock_seconds(run: &Run) -> f64 {
    let mut spans: Vec<(f64, f64)> = Vec::new();
    let mut unplaced = 0.0;
    for (_, c) in run.compiles() {
        match (c.start, c.duration_s) {
            (Some(s), Some(d)) if d > 0.0 => spans.push((s, s + d)),
            (None, Some(d)) => unplaced += d,
            _ => {}
        }
    }
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut total = 0.0;
    let mut current: Option<(f64, f64)> = None;
    for (s, e) in spans {
        current = match current {
            Some((cs, ce)) if s <= ce => Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                total += ce - cs;
                Some((s, e))
            }
            None => Some((s, e)),
        };
    }
    if let Some((cs, ce)) = current {
        total += ce - cs;
    }
    total + unplaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Compile;

    fn frame(rank: Option<u32>, pid: u64, compiles: usize) -> Frame {
        Frame {
            rank,
            pid,
            generation: 0,
            frame_id: 0,
            function: Some("forward".into()),
            file: None,
            line: None,
            module_class: None,
            run: 0,
            compiles: vec![Compile::default(); compiles],
        }
    }

    #[test]
    fn copies_of_ranks_are_one_group_and_the_odd_rank_differs() {
        let run = Run {
            frames: (0..4)
                .map(|r| frame(Some(r), 10 + u64::from(r), if r == 2 { 2 } else { 1 }))
                .collect(),
            ..Run::default()
        };
        let groups = compare_copies(group_frames(&run), |f| {
            if f.compiles.len() > 1 {
                vec![Category::ShapeInput]
            } else {
                vec![]
            }
        });
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].copies.len(), 4);
        assert_eq!(groups[0].typical_compiles, 1);
        assert_eq!(groups[0].differing.len(), 1);
        assert_eq!(groups[0].differing[0].short(), "r2: 2 compiles (most 1)");
    }

    #[test]
    fn processes_without_ranks_are_never_merged() {
        let run = Run {
            frames: vec![frame(None, 1, 1), frame(None, 2, 1)],
            ..Run::default()
        };
        assert_eq!(group_frames(&run).len(), 2);
    }

    #[test]
    fn overlapping_compiles_count_once_in_wall_clock() {
        let compile = |start: f64, d: f64| Compile {
            start: Some(start),
            duration_s: Some(d),
            ..Compile::default()
        };
        let mut a = frame(Some(0), 1, 0);
        a.compiles = vec![compile(100.0, 2.0), compile(110.0, 1.0)];
        let mut b = frame(Some(1), 2, 0);
        b.compiles = vec![compile(101.0, 2.0)];
        let run = Run {
            frames: vec![a, b],
            ..Run::default()
        };
        // [100, 103] and [110, 111]: 4 s, where the sum is 5 s.
        assert!((wall_clock_seconds(&run) - 4.0).abs() < 1e-9);
    }
}
