//! Which logs are one run: a directory can hold a rerun or yesterday's
//! stale log beside today's, and merging them shows two frames that cannot
//! be told apart.
//!
//! The rule, from the logs torch writes: each process writes its own log,
//! and a launch (one `python`, or every rank of one `torchrun`) writes one
//! log per rank. So, taking the logs in order of their first event:
//!
//! - a log whose first event has the same pid and time as one already seen
//!   is a copy of that process's log: same run;
//! - a log of a rank the newest run does not have yet joins it (the ranks of
//!   a launch: in the torch 2.15 `ddp_gloo` corpus log they start 75 ms apart);
//! - a log of a rank the newest run already has (or a second log without a
//!   rank) starts a new run: that rank was launched again.
//!
//! Start times are compared only to order the logs, never against a window:
//! the ranks of tlparse's `multi_rank_schedule` start five hours apart and
//! are one run, while a rerun of a 10 s script starts seconds after the
//! first. A log with no event belongs to no run.

use super::{InputFile, Run};
use crate::input::Problems;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// One launch found in the inputs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunInfo {
    /// Unix seconds of its earliest log's first event (glog time read as UTC).
    pub start: Option<f64>,
    pub pids: Vec<u64>,
    pub ranks: Vec<u32>,
    /// Its logs, as the inputs name them.
    pub files: Vec<String>,
    /// Whether its frames are in the `Run` (all are, without `--latest` / `--run`).
    pub selected: bool,
}

/// Which run a command looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunSelect {
    #[default]
    All,
    /// The run that started last.
    Latest,
    /// The Nth run, 0 being the oldest.
    Index(usize),
}

impl RunSelect {
    /// Whether run `index` of `count` is looked at.
    pub fn keeps(self, index: usize, count: usize) -> bool {
        match self {
            RunSelect::All => true,
            RunSelect::Latest => index + 1 == count,
            RunSelect::Index(n) => index == n,
        }
    }
}

/// The runs of these files, oldest first, and each file's run (None for a
/// file with no event).
pub fn group_runs(files: &[&InputFile]) -> (Vec<RunInfo>, Vec<Option<usize>>) {
    let mut order: Vec<usize> = (0..files.len()).filter(|&i| files[i].start.is_some()).collect();
    // Input order breaks ties, so the grouping does not depend on scheduling.
    order.sort_by(|&a, &b| {
        files[a]
            .start
            .partial_cmp(&files[b].start)
            .unwrap_or(std::cmp::Ordering::Equal)
    });

    let mut runs: Vec<RunInfo> = Vec::new();
    // Thousands of rank logs are read at once: no scan per file.
    let mut run_ranks: Vec<HashSet<Option<u32>>> = Vec::new();
    let mut first_events: HashMap<(u64, u64), usize> = HashMap::new();
    let mut of_file = vec![None; files.len()];
    for i in order {
        let f = files[i];
        let (Some(pid), Some(start)) = (f.pid, f.start) else {
            continue;
        };
        let copy = first_events.get(&(pid, start.to_bits()));
        let run = match (copy, run_ranks.last()) {
            (Some(&run), _) => run,
            (None, Some(ranks)) if !ranks.contains(&f.rank) => runs.len() - 1,
            _ => {
                runs.push(RunInfo {
                    start: Some(start),
                    ..RunInfo::default()
                });
                run_ranks.push(HashSet::new());
                runs.len() - 1
            }
        };
        first_events.insert((pid, start.to_bits()), run);
        run_ranks[run].insert(f.rank);
        let info = &mut runs[run];
        if !info.pids.contains(&pid) {
            info.pids.push(pid);
        }
        if let Some(rank) = f.rank.filter(|r| !info.ranks.contains(r)) {
            info.ranks.push(rank);
        }
        of_file[i] = Some(run);
    }
    for (i, f) in files.iter().enumerate() {
        if let Some(run) = of_file[i] {
            runs[run].files.push(f.path.clone());
        }
    }
    for r in &mut runs {
        r.pids.sort_unstable();
        r.ranks.sort_unstable();
    }
    (runs, of_file)
}

/// Concatenates per-file runs in input order.
pub fn merge(parts: Vec<(Run, Problems)>) -> Run {
    let mut run = Run::default();
    for (part, problems) in parts {
        append(&mut run.frames, part.frames);
        append(&mut run.compiled_autograd, part.compiled_autograd);
        run.inputs.extend(part.inputs);
        run.problems.merge(problems);
    }
    run
}

/// `to.extend(from)`, but into an empty `to` the vector itself is moved: with
/// one log (or one big one) a copy would hold every frame twice for a moment.
fn append<T>(to: &mut Vec<T>, from: Vec<T>) {
    if to.is_empty() {
        *to = from;
    } else {
        to.extend(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand-made file descriptions (no log behind them): the corner cases of the rule.
    fn file(name: &str, rank: Option<u32>, pid: u64, start: f64) -> InputFile {
        InputFile {
            path: name.into(),
            rank,
            pid: Some(pid),
            start: Some(start),
            end: None,
            run: None,
            stats: Default::default(),
        }
    }

    fn runs_of(files: &[InputFile]) -> Vec<Option<usize>> {
        group_runs(&files.iter().collect::<Vec<_>>()).1
    }

    #[test]
    fn a_rerun_of_every_rank_is_a_second_run() {
        let files = [
            file("b0", Some(0), 20, 200.0),
            file("a0", Some(0), 10, 100.0),
            file("a1", Some(1), 11, 100.1),
            file("b1", Some(1), 21, 200.2),
        ];
        assert_eq!(runs_of(&files), [Some(1), Some(0), Some(0), Some(1)]);
    }

    #[test]
    fn two_logs_without_rank_are_two_runs_however_close() {
        let files = [file("a", None, 10, 100.0), file("b", None, 11, 101.0)];
        assert_eq!(runs_of(&files), [Some(0), Some(1)]);
    }

    #[test]
    fn a_copied_log_is_the_same_run() {
        let files = [file("a", None, 10, 100.0), file("copy", None, 10, 100.0)];
        assert_eq!(runs_of(&files), [Some(0), Some(0)]);
    }

    #[test]
    fn a_file_without_events_is_in_no_run() {
        let mut empty = file("empty", None, 0, 0.0);
        empty.start = None;
        let files = [file("a", None, 10, 100.0), empty];
        assert_eq!(runs_of(&files), [Some(0), None]);
    }

    #[test]
    fn selection() {
        assert!(RunSelect::Latest.keeps(1, 2) && !RunSelect::Latest.keeps(0, 2));
        assert!(RunSelect::Index(0).keeps(0, 2) && RunSelect::All.keeps(0, 2));
    }
}
