//! Where each recompile reason points: the failed guard's line in the
//! user's code (from the guard trees and the graphs' reads), torch's
//! shortened paths given back in full, and what changed between the failed
//! entry and the new compile.

use crate::reasons;
use crate::reasons::paths::PathResolver;
use crate::reasons::{GuardFailure, GuardSet, GuardSite};

/// What a frame's log holds to locate its reasons with: its compiles'
/// guards (by compile id) and its graphs' reads.
pub(super) struct FrameGuards<'a> {
    pub sets: &'a dyn Fn(&str) -> Option<&'a GuardSet>,
    pub reads: &'a [GuardSite],
}

/// Points each failed entry's guard at its source line, gives torch's
/// shortened paths back in full and diffs the entry's guards with the new
/// compile's, from the frame's guard trees.
pub(super) fn locate_reasons(
    compile_id: &str,
    failures: &mut [GuardFailure],
    guards: &FrameGuards<'_>,
    paths: &PathResolver,
) {
    let set = guards.sets;
    let new = set(compile_id);
    for g in failures.iter_mut() {
        let old = g.entry.as_deref().and_then(set);
        if let Some(old) = old {
            reasons::locate(g, &old.sites);
        }
        // An entry compiled with an empty dict guards none of its keys; the
        // new compile read them at the same line.
        if let Some(new) = new {
            reasons::locate(g, &new.sites);
        }
        reasons::locate_read(g, guards.reads);
        g.resolve_paths(paths);
        if let Some(old) = old {
            g.dict_subject = old.holds_dict_of(&g.guard);
        }
        if let (Some(old), Some(new)) = (old, new) {
            g.changes = Some(old.changes_to(new));
        }
        if let Some(new) = new {
            g.now = Some(reasons::guarded_now(&g.guard, new));
        }
    }
    // A failed `S == V` says the call's S is no longer V, though the new
    // compile no longer guards S (made dynamic): every other entry that
    // holds S == V differs in it too, not only the one that reported it.
    let Some(new) = new else { return };
    let failed: Vec<(String, String)> = failures
        .iter()
        .filter_map(|g| reasons::constant_comparison(&g.guard))
        .filter(|(subject, _)| new.value(subject).is_none())
        .collect();
    for g in failures.iter_mut() {
        let Some(old) = g.entry.as_deref().and_then(set) else {
            continue;
        };
        let Some(changes) = g.changes.as_mut() else {
            continue;
        };
        for (subject, value) in &failed {
            let held = old.value(subject).is_some_and(|v| v == value);
            if held && !changes.iter().any(|ch| &*ch.subject == subject) {
                changes.push(reasons::GuardChange {
                    subject: subject.as_str().into(),
                    old: value.as_str().into(),
                    new: format!("another value (not {value})").into(),
                });
            }
        }
    }
}
