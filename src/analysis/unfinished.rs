//! Compiles a log shows starting and never finishing. Dynamo logs
//! `compilation_metrics` when a compile ends, even a failed one, so a
//! compile without it was under way when the log stopped: the process was
//! killed (SIGKILL, the OOM killer, a scheduler's time limit) or the log
//! was copied while the run went on. Either way the log is not the whole
//! run, and a gate that judged it would judge a prefix.

use super::frame_ref::frame_name;
use crate::model::Run;

/// Each compile of `run` that never finished, as `file:line: why` (the line
/// of its first event), in frame order. Every one counts, not only the
/// log's last event: a rank killed early beside ranks that went on, or an
/// older run's log in the same directory, leaves a compile unfinished in
/// the middle of the input.
pub fn unfinished_compiles(run: &Run) -> Vec<String> {
    run.compiles()
        .filter(|(_, c)| !c.finished)
        .map(|(f, c)| {
            // The log a frame came from: the one whose process (and rank) it is.
            let file = run
                .inputs
                .iter()
                .find(|i| i.pid == Some(f.pid) && i.rank == f.rank)
                .or_else(|| run.inputs.iter().find(|i| i.rank == f.rank && i.pid.is_none()))
                .map_or("(log)", |i| i.path.as_str());
            let rank = f.rank.map(|r| format!("rank {r} ")).unwrap_or_default();
            format!(
                "{file}:{}: compile {} of {rank}frame {} ({}) never finished: the log ends before its \
                 compilation_metrics (the process was killed, or the log copied, mid-compile), so the log \
                 is not the whole run",
                c.log_line,
                c.compile_id,
                f.frame_id,
                frame_name(f)
            )
        })
        .collect()
}
