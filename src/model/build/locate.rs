//! Where each recompile reason points: the failed guard's line in the
//! user's code (from the guard trees, the graphs' reads and the stacks of
//! the guards a compile added), torch's
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
    /// Per compile id: the user lines that called library or torch code
    /// where the compile added a guard (see `note_callers`).
    pub callers: &'a dyn Fn(&str) -> Option<&'a [LibraryCaller]>,
}

/// A line of library or torch code where a compile added a guard, and the
/// user's line that called into it (innermost user frame above it on the
/// traced stack): a symbolic guard's comment names only the former.
pub(super) struct LibraryCaller {
    file: Box<str>,
    line: u32,
    user: reasons::Location,
}

/// Most distinct library lines kept per compile (about 200 bytes each): a
/// library model adds thousands of guards from far fewer lines, and a
/// fleet's log holds 10^5-10^6 frames, so memory per frame stays bounded.
const CALLERS_PER_COMPILE: usize = 64;

/// Notes, from one `guard_added` stack, each library or torch line below
/// the innermost user frame, with that frame.
pub(super) fn note_callers(stack: &[crate::trace::event::StackFrame], into: &mut Vec<LibraryCaller>) {
    use reasons::paths::{owner, Owner};
    let user = |f: &crate::trace::event::StackFrame| f.file.as_deref().is_some_and(|p| owner(p) == Owner::User);
    let Some(at) = stack.iter().rposition(user) else {
        return;
    };
    let caller = &stack[at];
    let (Some(file), Some(line)) = (caller.file.as_deref(), caller.line) else {
        return;
    };
    for f in &stack[at + 1..] {
        let (Some(lib), Some(lib_line)) = (f.file.as_deref(), f.line) else {
            continue;
        };
        if into.len() >= CALLERS_PER_COMPILE {
            return;
        }
        if into.iter().any(|c| c.line == lib_line && &*c.file == lib) {
            continue;
        }
        into.push(LibraryCaller {
            file: lib.into(),
            line: lib_line,
            user: reasons::Location {
                file: file.to_string(),
                line,
                function: caller.function.clone(),
            },
        });
    }
}

/// A guard whose comment points into library or torch code and names no
/// user line (a symbolic guard on a value that code tested): the user's
/// line that called that code, from the failed entry's own guards.
fn locate_caller(g: &mut GuardFailure, callers: &[LibraryCaller]) {
    if g.source.is_some() {
        return;
    }
    // A module's own state that the library reads names no user line; a
    // size bound of a tensor the caller passed names the call (`locate`).
    let subject = reasons::failed_subject(&g.guard);
    let module_state = subject.contains("self.") || subject.starts_with("fn.");
    let size_bound = g.guard.contains(".size()[")
        && g.guard
            .split(['<', '>', '=', '*', ' ', '(', ')'])
            .any(|t| !t.is_empty() && t.parse::<i64>().is_ok());
    if module_state || size_bound {
        return;
    }
    let Some(at) = g.location.as_ref() else {
        return;
    };
    let same = |c: &&LibraryCaller| c.line == at.line && (c.file.ends_with(&*at.file) || at.file.ends_with(&*c.file));
    if let Some(c) = callers.iter().find(same) {
        g.source = Some(c.user.short());
    }
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
        if let Some(old) = old {
            g.assigned_at = old.assignment_of(&reasons::failed_subject(&g.guard)).cloned();
        }
        g.resolve_paths(paths);
        if let Some(callers) = g.entry.as_deref().and_then(guards.callers) {
            locate_caller(g, callers);
        }
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
