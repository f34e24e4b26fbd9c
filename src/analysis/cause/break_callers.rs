//! The user's line that called the function a compiled frame runs, where
//! the frame's own `dynamo_start` stack skips it. When a compiled function
//! of the user's graph-breaks inside a library call
//! (`return binary_calibration_error(probs, target, n_bins=n_bins)`), Dynamo
//! compiles the library function as a frame of its own, and its stack goes
//! from the training loop's line straight to the library: the user's
//! function in between runs as compiled code torch does not list. The graph
//! break's "User code traceback" lists the whole chain, so the call is read
//! there: the user's line directly above the library function. The same
//! holds for a function of the user's decorated with `@torch.compile`,
//! whose stack names only its own `def` line.
//!
//! The tracebacks of the same call come first: the compile's own, and the
//! one logged just before it in the same process (the caller's compile,
//! which broke the graph where the frame begins). A traceback of another
//! call may come from another line: it counts only on the path the
//! compile's own symbol stack shows.
//!
//! Only compiles with a graph break are kept (a log of a million frames
//! that never break keeps nothing), keyed by the function called, so a
//! recompile looks up its own function's calls and nothing else.

use super::call_site::CallSite;
use crate::model::{Compile, Frame, Run};
use crate::reasons::graph_break::user_traceback;
use crate::reasons::paths::{owner, resumed_function, Owner};
use std::collections::HashMap;

/// A user line that called a function, and the user lines above it
/// (outermost first): the path that led there.
struct Call {
    site: CallSite,
    above: Vec<(String, u32)>,
    /// The log lines of the compiles that are this call's own: the one
    /// whose graph break recorded it and the next one in its process.
    own: [u64; 2],
}

/// (run, process, the called function's file, its name).
type Callee = (usize, u64, String, String);

/// The calls from the user's code that the run's graph breaks record, by
/// the function called.
#[derive(Default)]
pub struct BreakCallers {
    calls: HashMap<Callee, Vec<Call>>,
}

impl BreakCallers {
    pub fn of_run(run: &Run) -> Self {
        let mut found = Vec::new();
        for frame in &run.frames {
            for compile in frame.compiles.iter().filter(|c| !c.graph_breaks.is_empty()) {
                for text in &compile.graph_breaks {
                    for call in calls_in(text) {
                        found.push((frame.run, frame.pid, compile.log_line, call));
                    }
                }
            }
        }
        if found.is_empty() {
            return BreakCallers::default();
        }
        // The compile after each one in its process: only the processes
        // whose graph breaks recorded a call.
        let mut lines: HashMap<(usize, u64), Vec<u64>> = HashMap::new();
        for (run, pid, _, _) in &found {
            lines.entry((*run, *pid)).or_default();
        }
        for frame in &run.frames {
            if let Some(l) = lines.get_mut(&(frame.run, frame.pid)) {
                l.extend(frame.compiles.iter().map(|c| c.log_line));
            }
        }
        for l in lines.values_mut() {
            l.sort_unstable();
        }
        let mut calls: HashMap<Callee, Vec<Call>> = HashMap::new();
        for (run, pid, at, (callee_file, callee, mut call)) in found {
            let process = &lines[&(run, pid)];
            let next = process[process.partition_point(|&l| l <= at)..]
                .first()
                .copied()
                .unwrap_or(at);
            call.own = [at, next];
            calls.entry((run, pid, callee_file, callee)).or_default().push(call);
        }
        BreakCallers { calls }
    }

    /// The user's line that called the function `frame` compiles (or
    /// resumes), on the path the compile's stack shows: every user line of
    /// that stack is above the call in the traceback. The tracebacks of the
    /// same call first (this compile's, the one logged just before it in
    /// the process); else any of the run's, when the user's line that the
    /// compile's symbol stack names (if it logged one) is on their path.
    /// None when no traceback records such a call, or two different lines
    /// fit.
    pub fn caller(&self, frame: &Frame, compile: &Compile) -> Option<CallSite> {
        if self.calls.is_empty() {
            return None;
        }
        let file = frame.file.as_deref()?;
        let function = frame.function.as_deref()?;
        let name = resumed_function(function).map_or(function, |(name, _)| name);
        let known = self
            .calls
            .get(&(frame.run, frame.pid, file.to_string(), name.to_string()))?;
        // The compiled frame's own entry (its `def` line, for a decorated
        // function of the user's) is the callee, not above it.
        let callers = compile.stack.split_last().map_or(&[][..], |(_, rest)| rest);
        let mut on_stack: Vec<(&str, u32)> = callers
            .iter()
            .filter_map(|f| Some((f.file.as_deref()?, f.line?)))
            .filter(|(f, _)| owner(f) == Owner::User)
            .collect();
        let on_path = |c: &Call, path: &[(&str, u32)]| {
            path.iter().all(|(f, l)| {
                c.above.iter().any(|(af, al)| af == f && al == l) || (c.site.file == *f && c.site.line == *l)
            })
        };
        let same_call = known
            .iter()
            .filter(|c| c.own.contains(&compile.log_line) && on_path(c, &on_stack));
        if let Some(site) = one_site(same_call) {
            return Some(site);
        }
        // Another call's traceback: only on the path this compile's own
        // symbol stack shows (a function called from two lines).
        if let Some(symbol) = compile.symbol_caller() {
            on_stack.push((symbol.file.as_deref()?, symbol.line?));
        }
        one_site(known.iter().filter(|c| on_path(c, &on_stack)))
    }
}

/// The one site the calls name, or None when they name none or several.
fn one_site<'a>(calls: impl Iterator<Item = &'a Call>) -> Option<CallSite> {
    let mut sites: Vec<&CallSite> = calls.map(|c| &c.site).collect();
    sites.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    sites.dedup_by(|a, b| a.file == b.file && a.line == b.line);
    match sites.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// The calls from a user line into another function that one graph break's
/// traceback lists: (the called function's file, its name, the call).
fn calls_in(text: &str) -> Vec<(String, String, Call)> {
    let chain = user_traceback(text);
    let mut calls = Vec::new();
    for at in 1..chain.len() {
        let (callee, _) = &chain[at];
        // A library's function: the innermost user line above it led there
        // (through the library's own calls). A function of the user's: only
        // the line directly above calls it.
        let from = if owner(&callee.file) == Owner::User {
            Some(at - 1).filter(|&i| owner(&chain[i].0.file) == Owner::User)
        } else {
            (0..at).rev().find(|&i| owner(&chain[i].0.file) == Owner::User)
        };
        let (Some(from), Some(name)) = (from, callee.function.clone()) else {
            continue;
        };
        let (site, code) = &chain[from];
        let call = Call {
            site: CallSite {
                file: site.file.clone(),
                line: site.line,
                function: site.function.clone(),
                code: code.clone(),
            },
            above: chain[..from]
                .iter()
                .filter(|(f, _)| owner(&f.file) == Owner::User)
                .map(|(f, _)| (f.file.clone(), f.line))
                .collect(),
            own: [0, 0],
        };
        calls.push((callee.file.clone(), name, call));
    }
    calls
}
