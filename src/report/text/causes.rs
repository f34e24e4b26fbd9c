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
