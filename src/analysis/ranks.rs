//! Ranks that recompiled when the others did not. In a distributed job a
//! rank that recompiles alone stalls every other rank at the next
//! collective, so it is said plainly, not only drawn.

use super::frame_ref::frame_name;
use crate::model::{Frame, Run};
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

/// Each (rank, frame) whose recompile count differs from most ranks'
/// (a rank without the frame counts as not recompiling it). `groups` are
/// the run's frames matched across ranks (`frame_groups::group_frames`).
pub fn lone_ranks(run: &Run, groups: &[Vec<&Frame>]) -> Vec<LoneRank> {
    let mut ranks: Vec<u32> = run.frames.iter().filter_map(|f| f.rank).collect();
    ranks.sort_unstable();
    ranks.dedup();
    if ranks.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for copies in groups.iter().filter(|g| g.iter().any(|f| f.rank.is_some())) {
        let per_rank: BTreeMap<u32, usize> = copies
            .iter()
            .filter_map(|f| Some((f.rank?, f.compiles.len().saturating_sub(1))))
            .collect();
        let by_rank: Vec<usize> = ranks.iter().map(|r| per_rank.get(r).copied().unwrap_or(0)).collect();
        let majority = mode(&by_rank);
        for (rank, n) in &per_rank {
            if *n != majority {
                out.push(LoneRank {
                    rank: *rank,
                    frame_id: copies[0].frame_id,
                    frame: frame_name(copies[0]),
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

/// A recompile one rank made where most ranks did not, whatever its
/// cause, is a problem: its fix (the cause's after the rank's) and the
/// evidence, in the words every surface gives (summary from the logs,
/// steps from the records).
pub fn rank_alone(rank: u32, cause_advice: &str) -> (String, super::judge::evidence::Evidence) {
    let advice = format!(
        "Rank {rank} recompiled where most ranks did not, and the others wait for it at the next collective: make every rank see the same shapes and values (for a short last batch, drop_last=True in the DistributedSampler's DataLoader). The cause itself: {cause_advice}"
    );
    let evidence = super::judge::evidence::Evidence::new(
        super::judge::EvidenceKind::RankAlone,
        format!("rank {rank} recompiled where most ranks did not: the others wait for it at the next collective"),
    );
    (advice, evidence)
}
