//! Recompiles that one change caused, across frames: when graph breaks
//! split a model into frames (a logging call in transformers makes a GPT-2
//! step several), one new padded length recompiles each frame it reaches,
//! one after another in the same call. Those recompiles are one cause:
//! counted once beside the compiles, listed once, warned about once.
//!
//! Culprit groups (culprits.rs) are per frame: the same culprit of one
//! frame on every rank. A shared cause is per change: the same change
//! (category, what changed from what to what) at the same call, met by
//! consecutive recompiles of different frames of one process; the same
//! group on every rank is one cause too.

use super::finding::Finding;
use super::judge::Severity;
use crate::reasons::subject::size_mismatch;
use serde::Serialize;
use std::collections::HashMap;

/// One cause and every recompile it made.
#[derive(Clone, Debug, Serialize)]
pub struct SharedCause {
    /// The compile ids it made, in the order they happened (first rank's).
    pub compile_ids: Vec<String>,
    /// The frames it recompiled, as reports name them, in that order.
    pub frames: Vec<String>,
    /// The category of its recompiles (`summary --json`'s `category`).
    pub category: crate::reasons::Category,
    /// What changed, without the name each frame gives it: `dim 1: 16 ->
    /// 24` for a size, else the failed guard.
    pub change: String,
    /// The user's line that made the call, when the log holds it.
    pub called_from: Option<String>,
    /// Every rank on which it happened (empty without ranks).
    pub ranks: Vec<u32>,
    /// Compile seconds of all its recompiles, every rank's.
    pub seconds: f64,
    /// A problem when any of its recompiles is.
    pub severity: Severity,
}

/// The shared causes of `recompiles`, in the order each first happened,
/// and for each recompile the index of its cause.
pub fn shared_causes(recompiles: &[Finding<'_>]) -> (Vec<SharedCause>, Vec<usize>) {
    let mut order: Vec<usize> = (0..recompiles.len()).collect();
    // In time order within each process: the log's lines are that order
    // even where the clock is missing.
    order.sort_by_key(|&i| {
        let f = &recompiles[i];
        (
            f.frame.run,
            f.frame.rank,
            f.frame.pid,
            f.frame.generation,
            f.compile.log_line,
        )
    });
    let keys: Vec<String> = recompiles.iter().map(key).collect();
    // Per process: runs of consecutive recompiles with one key, each frame once.
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        let joins = runs.last().is_some_and(|run: &Vec<usize>| {
            let j = run[0];
            let (a, b) = (recompiles[i].frame, recompiles[j].frame);
            (a.run, a.rank, a.pid, a.generation) == (b.run, b.rank, b.pid, b.generation)
                && keys[i] == keys[j]
                && !run.iter().any(|&k| std::ptr::eq(recompiles[k].frame, a))
        });
        match joins {
            true => runs.last_mut().unwrap().push(i),
            false => runs.push(vec![i]),
        }
    }
    // The same run of frames on every rank is one cause: matched by key,
    // frames and how many such runs the rank had before.
    let mut seen: HashMap<(usize, u32, String, Vec<String>), usize> = HashMap::new();
    let mut by_rank_key: HashMap<String, usize> = HashMap::new();
    let mut causes: Vec<SharedCause> = Vec::new();
    let mut index = vec![0; recompiles.len()];
    for run in runs {
        let first = &recompiles[run[0]];
        let frames: Vec<String> = run
            .iter()
            .map(|&i| super::frame_ref::frame_name(recompiles[i].frame))
            .collect();
        let merge = first.frame.rank.map(|rank| {
            let nth = by_rank_key
                .entry(format!("{rank}\u{0}{}\u{0}{}", keys[run[0]], frames.join("\u{0}")))
                .or_default();
            *nth += 1;
            (
                first.frame.run,
                first.frame.generation,
                format!("{}#{nth}", keys[run[0]]),
                frames.clone(),
            )
        });
        let at = match merge.as_ref().and_then(|m| seen.get(m)) {
            Some(&at) => at,
            None => {
                causes.push(SharedCause {
                    compile_ids: run.iter().map(|&i| recompiles[i].compile.compile_id.clone()).collect(),
                    frames,
                    category: first.cause.category,
                    change: change(first),
                    called_from: first.cause.called_from.clone(),
                    ranks: Vec::new(),
                    seconds: 0.0,
                    severity: Severity::Expected,
                });
                if let Some(m) = merge {
                    seen.insert(m, causes.len() - 1);
                }
                causes.len() - 1
            }
        };
        let cause = &mut causes[at];
        for &i in &run {
            let f = &recompiles[i];
            index[i] = at;
            cause.seconds += f.compile.duration_s.unwrap_or(0.0);
            cause.severity = cause.severity.min(f.severity);
            if let Some(rank) = f.frame.rank.filter(|r| !cause.ranks.contains(r)) {
                cause.ranks.push(rank);
            }
        }
    }
    (causes, index)
}

/// Recompiles with one key at one call are one cause: the category, the
/// change without the name the frame gives the value, and the call line.
fn key(f: &Finding<'_>) -> String {
    format!(
        "{}\u{0}{}\u{0}{}",
        f.cause.category.name(),
        change(f),
        f.cause.called_from.as_deref().unwrap_or("")
    )
}

/// What changed, as every frame that saw it would say it.
fn change(f: &Finding<'_>) -> String {
    let Some(g) = f.guard() else {
        return f.cause.culprit.clone();
    };
    let guard = g.guard.trim();
    if let Some(m) = size_mismatch(guard) {
        return format!("dim {}: {} -> {}", m.dim, m.expected, m.actual);
    }
    // `tensor 'kwargs['x']' dtype mismatch. ...`: the text after the name.
    if let Some(rest) = guard.strip_prefix("tensor '") {
        if let Some(end) = rest.find("' ") {
            return rest[end + 2..].to_string();
        }
    }
    guard.to_string()
}

/// The entries of a list of fixes: culprit groups (`culprits`, in their
/// order) of different frames that share a cause spanning frames are one
/// entry (the frames one change at one call recompiled); each entry's
/// groups in list order, entries in the order of their first group.
/// Groups of different severity stay apart (they are listed apart).
pub fn fix_entries(culprits: &[super::culprits::CulpritGroup], causes: &[SharedCause]) -> Vec<Vec<usize>> {
    let spans = |c: &SharedCause| c.frames.iter().any(|f| *f != c.frames[0]);
    let touches = |g: &super::culprits::CulpritGroup, c: &SharedCause| {
        c.frames.contains(&g.frame.name) && g.compile_ids.iter().any(|id| c.compile_ids.contains(id))
    };
    // Union-find over the groups, joined through each cause that spans frames.
    let mut parent: Vec<usize> = (0..culprits.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for c in causes.iter().filter(|c| spans(c)) {
        let members: Vec<usize> = (0..culprits.len()).filter(|&i| touches(&culprits[i], c)).collect();
        for &i in &members[1..] {
            let (a, b) = (root(&mut parent, members[0]), root(&mut parent, i));
            if a != b && culprits[a].severity == culprits[b].severity {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut entries: Vec<Vec<usize>> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for i in 0..culprits.len() {
        let r = root(&mut parent, i);
        match at.get(&r) {
            Some(&e) => entries[e].push(i),
            None => {
                at.insert(r, entries.len());
                entries.push(vec![i]);
            }
        }
    }
    entries
}
