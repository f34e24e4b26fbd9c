//! What a change does to what runs compiled, against a baseline: frames
//! that now run eagerly, and graph breaks the baseline does not log, each
//! with the frames it splits and what that costs on every call.

use super::keys::{FrameKey, NewGraphBreak};
use crate::analysis::{eager::EagerFrame, findings::Findings, frame_ref::FrameRef};

/// The candidate's frames that run eagerly where the baseline's same frame
/// (by function, file and first line) did not, for the same reason. All of
/// them without a baseline.
pub(super) fn eager_frames(candidate: &Findings<'_>, baseline: Option<&Findings<'_>>) -> Vec<EagerFrame> {
    let known = |e: &EagerFrame| {
        baseline.is_some_and(|b| {
            b.eager_frames
                .iter()
                .any(|k| k.why == e.why && FrameKey::of_ref(&k.frame) == FrameKey::of_ref(&e.frame))
        })
    };
    candidate.eager_frames.iter().filter(|e| !known(e)).cloned().collect()
}

/// The candidate's distinct graph breaks that the baseline does not log.
pub(super) fn new_breaks(candidate: &Findings<'_>, baseline: &Findings<'_>) -> Vec<NewGraphBreak> {
    candidate
        .graph_breaks
        .iter()
        .filter(|g| {
            !baseline
                .graph_breaks
                .iter()
                .any(|b| b.reason == g.reason && b.user_line == g.user_line)
        })
        .map(|g| NewGraphBreak {
            reason: g.reason.clone(),
            user_line: g.user_line.clone(),
            user_code: g.user_code.clone(),
            registry_id: g.registry_id.clone(),
            hints: g.hints.clone(),
            compile_ids: g.compile_ids.clone(),
            frames: g.frames.iter().map(named).collect(),
            per_call: per_call(&g.frames, candidate, baseline),
        })
        .collect()
}

/// `forward (model.py:43)`.
fn named(f: &FrameRef) -> String {
    match (&f.file, f.line) {
        (Some(file), Some(line)) => {
            let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
            format!("{} ({name}:{line})", f.name)
        }
        _ => f.name.clone(),
    }
}

/// What the break costs each call of the frames it breaks: a frame Dynamo
/// skipped for it runs eagerly; any other is split into graphs with Python
/// between them, and one the baseline compiled whole says so.
fn per_call(frames: &[FrameRef], candidate: &Findings<'_>, baseline: &Findings<'_>) -> String {
    let skipped: Vec<String> = frames
        .iter()
        .filter(|f| {
            candidate.eager_frames.iter().any(|e| {
                e.why == "skipped" && (e.frame.rank, e.frame.pid, e.frame.frame_id) == (f.rank, f.pid, f.frame_id)
            })
        })
        .map(named)
        .collect();
    let split: Vec<&FrameRef> = frames.iter().filter(|f| !skipped.contains(&named(f))).collect();
    let mut parts = Vec::new();
    if !skipped.is_empty() {
        parts.push(format!(
            "Dynamo skips {} for it: runs eagerly every call",
            skipped.join(", ")
        ));
    }
    if !split.is_empty() {
        let whole_before: Vec<String> = split
            .iter()
            .filter(|f| was_one_graph(f, baseline))
            .map(|f| named(f))
            .collect();
        let names: Vec<String> = split.iter().map(|f| named(f)).collect();
        let mut s = format!(
            "splits {}: every call leaves the compiled graph here, runs this line in Python and resumes in another graph",
            names.join(", ")
        );
        if !whole_before.is_empty() {
            s.push_str(&format!(
                " ({} compiled as one graph in the baseline)",
                whole_before.join(", ")
            ));
        }
        parts.push(s);
    }
    parts.join("; ")
}

/// Whether the baseline compiled this frame, and without a graph break.
fn was_one_graph(f: &FrameRef, baseline: &Findings<'_>) -> bool {
    let key = FrameKey::of_ref(f);
    let frame = baseline.run.frames.iter().find(|b| FrameKey::of(b) == key);
    frame.is_some_and(|b| b.compiles.iter().all(|c| c.graph_breaks.is_empty() && !c.failed))
}
