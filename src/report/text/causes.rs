//! The summary's one-off recompiles, one cause once: when one change
//! recompiled several frames at one call (a model split by graph breaks),
//! its first frame's line stands for the cause and the others fold into
//! one line under it.

use crate::analysis::{CulpritGroup, Findings, SharedCause};
use crate::report::format::plural;

/// The cause, shared with other frames, that a frame's one-off group is
/// part of; None for a cause of one frame.
pub fn shared_by<'a>(findings: &'a Findings<'_>, g: &CulpritGroup) -> Option<(usize, &'a SharedCause)> {
    findings.causes.iter().enumerate().find(|(_, c)| {
        c.frames.len() > 1
            && c.frames.contains(&g.frame.name)
            && g.compile_ids.iter().all(|id| c.compile_ids.contains(id))
    })
}

/// How many causes `groups` come to: a cause several frames share once.
pub fn count(findings: &Findings<'_>, groups: &[&CulpritGroup]) -> usize {
    let mut shared = std::collections::HashSet::new();
    groups
        .iter()
        .filter(|g| shared_by(findings, g).is_none_or(|(i, _)| shared.insert(i)))
        .count()
}

/// `4 recompiles` or, when fewer causes made them, `4 recompiles from 1 cause`.
pub fn recompiles_from(recompiles: usize, causes: usize) -> String {
    let n = plural(recompiles, "recompile", "recompiles");
    match causes < recompiles {
        true => format!("{n} from {}", plural(causes, "cause", "causes")),
        false => n,
    }
}

/// The line under a shared cause's first frame: the other frames it
/// recompiled at the same call.
pub fn others(c: &SharedCause, shown: &CulpritGroup) -> String {
    let rest: Vec<String> = c
        .compile_ids
        .iter()
        .zip(&c.frames)
        .filter(|(id, _)| !shown.compile_ids.contains(id))
        .map(|(id, name)| format!("{id} {name}"))
        .collect();
    format!(
        "the same change ({}) at the same call also recompiled {}: {} (one cause, {:.2} s in all)",
        c.change,
        plural(rest.len(), "frame", "frames"),
        rest.join(", "),
        c.seconds
    )
}

/// The head of a What-to-fix entry for a cause that recompiled several
/// frames: how many recompiles in how many frames, the frames named.
pub fn entry_head(entry: &[&CulpritGroup], culprit: &str, category: &str, timed: bool) -> String {
    let n: usize = entry.iter().map(|g| g.compile_ids.len()).sum();
    let seconds: f64 = entry.iter().map(|g| g.seconds).sum();
    let frames: Vec<String> = entry
        .iter()
        .map(|g| format!("frame {} {}", g.frame.frame_id, g.frame.name))
        .collect();
    let seconds = match timed {
        true => format!("{seconds:.2} s"),
        false => "time not logged".to_string(),
    };
    format!(
        "{} in {} ({}) caused by {culprit} [{category}], {seconds}: one change at one call recompiled each of these frames",
        plural(n, "recompile", "recompiles"),
        plural(entry.len(), "frame", "frames"),
        frames.join(", "),
    )
}

/// A line for each frame of an entry: its recompiles of the cause.
pub fn also(g: &CulpritGroup, timed: bool) -> String {
    let seconds = match timed {
        true => format!(", {:.2} s", g.seconds),
        false => String::new(),
    };
    format!(
        "frame {} ({}): {} ({}){seconds}",
        g.frame.frame_id,
        g.frame.name,
        plural(g.compile_ids.len(), "recompile", "recompiles"),
        compile_ids(g)
    )
}

/// A group's compile ids, cut with a count when long; across ranks each
/// id once (every rank has its own `0/1`).
pub fn compile_ids(g: &CulpritGroup) -> String {
    const SHOWN: usize = 8;
    let mut ids: Vec<&str> = g.compile_ids.iter().map(String::as_str).collect();
    if g.ranks.len() > 1 {
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(*id));
    }
    if ids.len() <= SHOWN {
        return ids.join(", ");
    }
    format!("{}, … {} more", ids[..SHOWN].join(", "), ids.len() - SHOWN)
}
