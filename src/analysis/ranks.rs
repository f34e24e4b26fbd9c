//! Ranks that recompiled when the others did not. In a distributed job a
//! rank that recompiles alone stalls every other rank at the next
//! collective, so it is said plainly, not only drawn.

use super::frame_name;
use crate::model::Run;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoneRank {
    pub rank: u32,
    pub frame_id: u32,
    pub frame: String,
    /// This rank's recompiles of the frame.
    pub recompiles: usize,
    /// What most ranks did.
    pub majority: usize,
}

impl LoneRank {
    pub fn sentence(&self) -> String {
        let times = |n: usize| match n {
            0 => "never".to_string(),
            1 => "once".to_string(),
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        format!(
            "rank {} recompiled frame {} ({}) {}; the other ranks {}",
            self.rank,
            self.frame_id,
            self.frame,
            times(self.recompiles),
            times(self.majority)
        )
    }
}

/// Each (rank, frame) whose recompile count differs from most ranks'.
/// Frames are matched across ranks by reset generation, id and function.
pub fn lone_ranks(run: &Run) -> Vec<LoneRank> {
    let mut ranks: Vec<u32> = run.frames.iter().filter_map(|f| f.rank).collect();
    ranks.sort_unstable();
    ranks.dedup();
    if ranks.len() < 2 {
        return Vec::new();
    }
    type Key<'a> = (u32, u32, &'a str);
    let mut counts: BTreeMap<Key<'_>, (String, BTreeMap<u32, usize>)> = BTreeMap::new();
    for f in &run.frames {
        let Some(rank) = f.rank else { continue };
        let key = (f.generation, f.frame_id, f.function.as_deref().unwrap_or("?"));
        let entry = counts.entry(key).or_insert_with(|| (frame_name(f), BTreeMap::new()));
        *entry.1.entry(rank).or_default() += f.compiles.len().saturating_sub(1);
    }
    let mut out = Vec::new();
    for ((_, frame_id, _), (name, per_rank)) in counts {
        let by_rank: Vec<usize> = ranks.iter().map(|r| per_rank.get(r).copied().unwrap_or(0)).collect();
        let majority = mode(&by_rank);
        for (rank, n) in ranks.iter().zip(&by_rank) {
            if *n != majority && per_rank.contains_key(rank) {
                out.push(LoneRank {
                    rank: *rank,
                    frame_id,
                    frame: name.clone(),
                    recompiles: *n,
                    majority,
                });
            }
        }
    }
    out
}

/// The most common value; ties go to the smaller count.
pub fn mode(values: &[usize]) -> usize {
    let mut freq: BTreeMap<usize, usize> = BTreeMap::new();
    for v in values {
        *freq.entry(*v).or_default() += 1;
    }
    freq.iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map_or(0, |(v, _)| *v)
}
