//! What the builder does for a log read while it grows (`guardscope
//! watch`): each compile is handed out when it finishes, and only what a
//! later event of its frame needs is kept of it.

use super::{find_compile, locate_compile, FrameExtra, RunBuilder};
use crate::model::{Attempt, Run};
use crate::reasons::paths::PathResolver;
use crate::trace::CompileRef;
use smallvec::SmallVec;

/// Guard trees `take_finished` keeps per frame: a recompile's failed entry
/// is one of the frame's cached compiles, at most Dynamo's recompile limit
/// (8 by default) of the latest.
const KEPT_GUARD_TREES: u32 = 64;

/// All that is kept of a compile `take_finished` handed out: a job's logs
/// can finish 10^5-10^6 compiles while `watch` follows them.
pub(super) struct Taken {
    frame_compile_id: Option<u32>,
    compiled_autograd_id: Option<u32>,
    /// Which attempts Dynamo started: a second start of one is a
    /// `torch._dynamo.reset()` (`RunBuilder::note_start`).
    attempts: SmallVec<[Attempt; 1]>,
}

fn find_taken(extra: Option<&FrameExtra>, r: CompileRef) -> Option<&Taken> {
    extra?
        .taken
        .iter()
        .rfind(|t| t.frame_compile_id == r.frame_compile_id && t.compiled_autograd_id == r.compiled_autograd_id)
}

pub(super) fn was_taken(extra: Option<&FrameExtra>, r: CompileRef) -> bool {
    find_taken(extra, r).is_some()
}

pub(super) fn taken_attempts(extra: Option<&FrameExtra>, r: CompileRef) -> Option<&[Attempt]> {
    find_taken(extra, r).map(|t| &t.attempts[..])
}

impl RunBuilder {
    /// The compile whose `compilation_metrics` event was just added, on its
    /// own (a `Run` of one frame holding only it, finished as `finish`
    /// finishes it), for a log read while it grows (`guardscope watch`).
    /// What it held is then dropped: the builder keeps its ids and started
    /// attempts (`Taken`), and the guard sets of its frame's latest
    /// `KEPT_GUARD_TREES` compiles, the ones a later recompile's failed
    /// entry can name.
    pub fn take_finished(&mut self, pid: u64, r: CompileRef) -> Option<Run> {
        let generation = self.generation.get(&pid).copied().unwrap_or(0);
        let at = *self.frame_index.get(&(pid, generation))?.get(&r.frame_id?)?;
        let rank = self.rank.or(self.envelope_rank);
        let state = &mut self.frames[at as usize];
        let i = find_compile(&state.frame.compiles, r)?;
        let mut compile = state.frame.compiles.remove(i);
        if state.frame.compiles.is_empty() {
            // Its room too: most frames compile once.
            state.frame.compiles = Vec::new();
        }
        let extra = state.extra.get_or_insert_default();
        extra.taken.push(Taken {
            frame_compile_id: compile.frame_compile_id,
            compiled_autograd_id: compile.compiled_autograd_id,
            attempts: compile.attempts.clone(),
        });
        let no_paths = PathResolver::default();
        locate_compile(&mut compile, Some(extra), self.paths.get(&pid).unwrap_or(&no_paths));
        if let Some(n) = compile.frame_compile_id {
            let number = |id: &str| id.rsplit('/').next().and_then(|n| n.parse::<u32>().ok());
            let kept = |id: &String| number(id).is_none_or(|m| m + KEPT_GUARD_TREES > n);
            extra.sets.retain(|id, _| kept(id));
            // `watch` reports no guard trees; they are kept only until then.
            extra.trees.clear();
        }
        self.shared.release_unused();
        let compiles = std::mem::take(&mut state.frame.compiles);
        let mut frame = state.frame.clone();
        state.frame.compiles = compiles;
        frame.compiles = vec![compile];
        frame.rank = frame.rank.or(rank);
        Some(Run {
            frames: vec![frame],
            ..Run::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::input::LogSource;
    use crate::model::{Frame, Run};

    fn start(frame: u32, n: u32) -> String {
        format!(
            "V1121 12:54:08.823000 5988 torch/_dynamo/convert_frame.py:309] {{\"dynamo_start\": {{\"stack\": \
             [{{\"line\": 10, \"name\": \"f{frame}\", \"filename\": \"/job/train.py\"}}]}}, \"frame_id\": {frame}, \
             \"frame_compile_id\": {n}, \"attempt\": 0}}\n"
        )
    }

    fn metrics(frame: u32, n: u32) -> String {
        format!(
            "V1121 12:54:10.361000 5988 torch/_dynamo/utils.py:2132] {{\"compilation_metrics\": {{\"co_name\": \
             \"f{frame}\", \"entire_frame_compile_time_s\": 0.01}}, \"frame_id\": {frame}, \"frame_compile_id\": {n}, \
             \"attempt\": 0}}\n"
        )
    }

    // Every compile is handed out whole, and a compile id that Dynamo
    // starts again after its compile was handed out (torch._dynamo.reset())
    // is still a new generation, though only its ids were kept.
    #[test]
    fn taken_compiles_keep_only_their_ids_and_a_reset_is_still_seen() {
        let text = [
            start(0, 0),
            metrics(0, 0),
            start(0, 1),
            metrics(0, 1),
            start(0, 0),
            metrics(0, 0),
        ]
        .concat();
        let source = LogSource {
            path: "t.log".into(),
            display: "t.log".into(),
            rank: None,
            year: 2025,
            size: text.len() as u64,
        };
        let mut log = crate::load::GrowingLog::new(source);
        let mut taken: Vec<Run> = Vec::new();
        log.feed(text.as_bytes(), true, &mut |run| taken.push(run));
        let frames: Vec<&Frame> = taken.iter().map(|r| &r.frames[0]).collect();
        let ids: Vec<(u32, &str, usize)> = frames
            .iter()
            .map(|f| {
                (
                    f.generation,
                    f.compiles[0].compile_id.as_str(),
                    f.compiles[0].attempts.len(),
                )
            })
            .collect();
        assert_eq!(ids, [(0, "0/0", 1), (0, "0/1", 1), (1, "0/0", 1)]);
        assert!(frames
            .iter()
            .all(|f| f.compiles[0].finished && f.function.as_deref() == Some("f0")));
        let builder = log.builder();
        assert!(builder.frames.iter().all(|s| s.frame.compiles.is_empty()));
        assert_eq!(
            builder
                .frames
                .iter()
                .map(|s| s.extra.as_ref().map_or(0, |e| e.taken.len()))
                .sum::<usize>(),
            3
        );
    }
}
