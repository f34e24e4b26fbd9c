//! Several runs in one input (a rerun, a stale log) as every format names
//! them: one line listing the runs, and which frames only the run tells apart.

use crate::model::Run;
use std::collections::HashSet;
use std::hash::BuildHasher;

/// Runs named in the line; older ones are counted.
const MAX_LISTED: usize = 4;

/// One line naming the runs when the logs hold several (a rerun, a stale
/// log), with what is shown and how to pick one.
pub fn runs_line(run: &Run) -> Option<String> {
    if !run.has_several_runs() {
        return None;
    }
    // A directory of stale logs can hold dozens: the newest matter most.
    let listed = run.runs.len().saturating_sub(MAX_LISTED);
    let mut each: Vec<String> = run.runs[listed..]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let who = match &r.pids[..] {
                [pid] => format!("pid {pid}"),
                pids => format!("{} processes", pids.len()),
            };
            let start = r.start.map_or("?".to_string(), log_clock);
            format!("--run {}: {who} at {start}", listed + i)
        })
        .collect();
    if listed > 0 {
        each.insert(0, format!("{listed} older"));
    }
    let shown: Vec<usize> = (0..run.runs.len()).filter(|&i| run.runs[i].selected).collect();
    let showing = match shown[..] {
        [i] => format!("showing run {i} only"),
        _ => "showing all of them merged: pick one with --latest or --run N".to_string(),
    };
    Some(format!(
        "{} runs in these logs ({}); {showing}",
        run.runs.len(),
        each.join(" · ")
    ))
}

/// A log's first-event time as written: glog logs the machine's local
/// clock with no zone, so no zone is claimed.
pub fn log_clock(unix: f64) -> String {
    let utc = crate::report::format::utc(unix);
    utc.get(..19).unwrap_or(&utc).to_string()
}

/// Frames that a row's function, file and line alone cannot tell apart:
/// the same code compiled by another process (another run, or a process
/// with the same rank).
pub fn colliding_frames(run: &Run) -> HashSet<usize> {
    let key = |i: usize| {
        let f = &run.frames[i];
        (&f.function, &f.file, f.line, f.rank, f.generation, f.frame_id)
    };
    // Frames sorted by their key's hash, not gathered in a map of keys: a
    // fleet's run has 10^5-10^6 frames, and nearly none collide.
    let hashes = foldhash::fast::RandomState::default();
    let mut order: Vec<(u64, usize)> = (0..run.frames.len()).map(|i| (hashes.hash_one(key(i)), i)).collect();
    order.sort_unstable();
    let mut colliding = HashSet::new();
    for same_hash in order.chunk_by_mut(|a, b| a.0 == b.0).filter(|c| c.len() > 1) {
        same_hash.sort_by(|a, b| key(a.1).cmp(&key(b.1)));
        for same in same_hash.chunk_by(|a, b| key(a.1) == key(b.1)) {
            let first = &run.frames[same[0].1];
            if same
                .iter()
                .any(|&(_, i)| run.frames[i].pid != first.pid || run.frames[i].run != first.run)
            {
                colliding.extend(same.iter().map(|&(_, i)| i));
            }
        }
    }
    colliding
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RunInfo;

    // Hand-made run list (no logs behind it): many stale runs in one line.
    #[test]
    fn many_runs_list_the_newest_and_count_the_rest() {
        let info = |i: u64| RunInfo {
            start: Some(1_795_417_625.0 + 60.0 * i as f64),
            pids: if i == 5 { vec![10, 11] } else { vec![i] },
            selected: i == 5,
            ..RunInfo::default()
        };
        let run = Run {
            runs: (0..6).map(info).collect(),
            ..Run::default()
        };
        assert_eq!(
            runs_line(&run).unwrap(),
            "6 runs in these logs (2 older · --run 2: pid 2 at 2026-11-23 07:09:05 · --run 3: pid 3 at 2026-11-23 07:10:05 \
             · --run 4: pid 4 at 2026-11-23 07:11:05 · --run 5: 2 processes at 2026-11-23 07:12:05); showing run 5 only"
        );
        assert_eq!(runs_line(&Run::default()), None);
    }
}
