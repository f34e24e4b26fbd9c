//! What caused one recompile: which failed cache entry matters, its guard
//! classified in the frame's context, and the user's line that called in.

use crate::model::{Compile, Frame, StackFrame};
use crate::reasons::classify::Context;
use crate::reasons::failed_subject;
use crate::reasons::paths::{owner, resumed_function, Owner};
use crate::reasons::Location;
use serde::Serialize;

mod break_callers;
mod call_site;
mod entry;
pub(in crate::analysis) use break_callers::BreakCallers;
pub use call_site::{CallSite, TracedLine};
pub use entry::{cause_index, cause_of};
pub(in crate::analysis) use entry::{entry_distance_ties, lead_with_failed_subject};

/// The user's call into the compiled code: the innermost caller on the
/// compile's `dynamo_start` stack that is neither torch nor an installed
/// library (the compiled frame itself, the stack's last entry, excluded).
///
/// For a function decorated with `@torch.compile`, torch records the
/// function's own first line (the decorator, which calls nothing) and
/// sometimes only the outermost caller, not the call inside another
/// function. So a user line directly above the compiled function counts as
/// its caller only when it calls the function by name (a call through
/// torch.compile's wrapper or a module's `__call__` has torch frames in
/// between), and the compiled function's own line never does (for a
/// resume function, the function it resumes is the one called). None says
/// the log does not hold the caller.
pub fn call_site(compile: &Compile) -> Option<CallSite> {
    let (last, callers) = compile.stack.split_last()?;
    let at = callers.iter().rposition(|f| CallSite::of_user(f).is_some())?;
    let site = CallSite::of_user(&callers[at])?;
    let through_torch = at + 1 < callers.len();
    // A resume function runs the rest of the function the line called.
    let called = last
        .function
        .as_deref()
        .map(|f| resumed_function(f).map_or(f, |(name, _)| name));
    let direct_call = match called {
        Some(name) => site.code.as_deref().is_some_and(|code| calls(code, name)),
        None => false,
    };
    // A module's forward is called through the instance (`expert(x)`), and
    // torch 2.14 may log no module-call frames in between: a call on the
    // line above counts, unless that line is the forward's own decorator.
    let module_call = called == Some("forward")
        && site.code.as_deref().is_some_and(|code| code.contains('('))
        && !own_decorator(&callers[at], last);
    (through_torch || direct_call || module_call).then_some(site)
}

/// The caller frame is the compiled function's own definition (a
/// decorator line just above it, in the same file).
fn own_decorator(caller: &StackFrame, compiled: &StackFrame) -> bool {
    let same_file = caller.file.is_some() && caller.file == compiled.file;
    match (caller.line, compiled.line) {
        (Some(c), Some(f)) => same_file && c <= f && f - c <= 3,
        _ => false,
    }
}

/// Whether a line calls `name(...)`.
fn calls(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].trim_start().starts_with('(');
        after && !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The line of the user's code a recompile is about, and what in the log
/// gave it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UserLine {
    /// `file:line`, the full path.
    pub site: String,
    /// `guard` (the failed guard's comment points into the user's code),
    /// `graph` (the guard names no line; where the compiled code reads the
    /// value is in the user's code: the graph's first use of a module's
    /// parameter, or the line a resume function starts at for a value
    /// computed before its graph break),
    /// `caller` (the user's line that called the compiled code, from the
    /// compile's `dynamo_start` stack), `symbol_stack` (that line from the
    /// Python stack torch logged while creating a dynamic dim in this
    /// compile, or in every other compile of the frame that logged one:
    /// `dynamo_start` holds no caller for a decorated function),
    /// `outer_caller` (the outermost user line on the compile's stack: the
    /// call that led there, torch not recording the direct one) or
    /// `compiled_function` (the compiled function's own line: the log holds
    /// no caller, as for a call from a script's top level).
    pub from: &'static str,
}

/// The user's line for a recompile: the guard's line, else the line where
/// the compiled graph read the guarded state, else the caller's,
/// else the caller on a stack logged during the compile (or, the same
/// for all, during the frame's other compiles), else the
/// outermost user call on the compile's stack, else the compiled
/// function's own line when it is the user's. A compile the limit refused
/// logs no stack: the frame's previous compile's stand in. None: the log
/// has none.
pub fn user_line(
    frame: &Frame,
    compile: &Compile,
    source: Option<&str>,
    read_at: Option<&Location>,
    caller: Option<&CallSite>,
) -> Option<UserLine> {
    let line = |site: String, from| Some(UserLine { site, from });
    if let Some(site) = source {
        return line(site.to_string(), "guard");
    }
    if let Some(read) = read_at {
        return line(read.short(), "graph");
    }
    if let Some(c) = caller {
        return line(c.short(), "caller");
    }
    let logged = |c: &&Compile| !c.stack.is_empty() || c.symbol_caller().is_some();
    let stacks = if logged(&compile) {
        compile
    } else {
        frame
            .compiles
            .iter()
            .rfind(|c| c.frame_compile_id < compile.frame_compile_id && logged(c))?
    };
    if let Some(site) = stacks.symbol_caller().and_then(CallSite::of_user) {
        return line(site.short(), "symbol_stack");
    }
    // The direct call the frame's other compiles logged beats the outer
    // one this compile's stack holds (a decorated function called from a
    // helper: `dynamo_start` skips the helper's line).
    if let Some(site) = one_symbol_caller(frame) {
        return line(site.short(), "symbol_stack");
    }
    let (last, callers) = stacks.stack.split_last()?;
    if let Some(outer) = callers.iter().find_map(CallSite::of_user) {
        return line(outer.short(), "outer_caller");
    }
    CallSite::of_user(last).and_then(|own| line(own.short(), "compiled_function"))
}

/// The one user line that the frame's other compiles' symbol stacks name
/// as the caller, for a compile whose own stacks name none (a function
/// called from a script's top level, compiled again for a change that made
/// no dynamic symbol): the same call reached it. None when they name more
/// than one line, or none.
fn one_symbol_caller(frame: &Frame) -> Option<CallSite> {
    let mut sites = frame
        .compiles
        .iter()
        .filter_map(|c| c.symbol_caller().and_then(CallSite::of_user));
    let first = sites.next()?;
    sites.all(|s| s == first).then_some(first)
}

/// For a cause whose guard comment names no line of the user's (it points
/// into torch: `___stack1 == 7.0  # (_dynamo/output_graph.py:...)`), the
/// line and code another failed entry of the same frame gives for the same
/// guarded value: the value is read where it was, whichever entry failed on
/// it. Never for a tensor guard: an argument's line is the call (see
/// `guard_site::locate`).
pub fn same_value_line(frame: &Frame, compile: &Compile, cause: usize) -> Option<(String, Option<String>)> {
    let g = compile.recompile_reasons.get(cause)?;
    if g.source.is_some() || g.guard.starts_with("tensor '") {
        return None;
    }
    let subject = failed_subject(&g.guard);
    frame
        .compiles
        .iter()
        .rev()
        .flat_map(|c| c.recompile_reasons.iter())
        .filter(|r| !r.guard.starts_with("tensor '") && failed_subject(&r.guard) == subject)
        .find_map(|r| {
            let site = r.source.as_deref().filter(|s| owner(s) == Owner::User)?;
            Some((site.to_string(), r.code.clone()))
        })
}

/// Every frame of the user's code on the compile's stack, outermost first:
/// the training loop's line as well as the innermost call.
pub fn user_calls(compile: &Compile) -> Vec<CallSite> {
    compile.stack.iter().filter_map(CallSite::of_user).collect()
}

/// The call site of a compile, or for one without a stack (a compile the
/// recompile limit refused logs no `dynamo_start`) that of the frame's
/// latest earlier compile: the same call reached the frame again. Where
/// that stack skips the user's call into a library function the frame
/// compiles, a graph break's traceback gives it (`BreakCallers`).
pub fn frame_call_site(frame: &Frame, compile: &Compile, breaks: &BreakCallers) -> Option<CallSite> {
    let stacked = if compile.stack.is_empty() {
        frame
            .compiles
            .iter()
            .rfind(|c| c.frame_compile_id < compile.frame_compile_id && !c.stack.is_empty())
    } else {
        Some(compile)
    };
    let stacked = stacked?;
    // The traceback's line is on the stack's path, and never above the
    // stack's own caller: where both name one, it is the deeper (the
    // user's function the stack elides, `evaluate_batch` calling into
    // torchmetrics, rather than the loop that called it).
    breaks
        .caller(frame, stacked)
        .or_else(|| direct_caller(frame, stacked))
        .or_else(|| call_site(stacked))
}

/// The user's line that called the compiled function, from the full Python
/// stack torch logged while tracing this compile (a dynamic dim's
/// `create_symbol`): `dynamo_start`'s stack can leave that frame out (a
/// function under `@torch.no_grad()` calling the compiled one, a
/// `training_step` a Trainer calls), and then names only an outer line. Not
/// for a resume function: the frame above it on that stack is the
/// function it resumes, at its graph break, not the user's call.
fn direct_caller(frame: &Frame, compile: &Compile) -> Option<CallSite> {
    let resumes = frame.function.as_deref().is_some_and(|f| resumed_function(f).is_some());
    if resumes {
        return None;
    }
    compile.symbol_caller().and_then(CallSite::of_user)
}

pub(super) fn context<'a>(frame: &'a Frame, compile: &Compile) -> Context<'a> {
    let torch_optim = |file: &str| {
        let f = file.replace('\\', "/");
        f.contains("/torch/optim/") || f.starts_with("optim/")
    };
    Context {
        optimizer: frame.file.as_deref().is_some_and(torch_optim),
        generate: compile.stack.iter().any(|f| {
            f.function.as_deref() == Some("generate") && f.file.as_deref().is_some_and(|p| owner(p) == Owner::Library)
        }),
        automatic_dynamic: compile.automatic_dynamic,
        compiled_class: frame.module_class.as_deref(),
        // A module without submodules, parameters or buffers (RoIAlign)
        // shows none in its guards: its compiled frame is still `forward`.
        receiver_is_module: frame
            .compiles
            .iter()
            .find_map(|c| c.self_is_module)
            .map(|m| m || frame.function.as_deref() == Some("forward")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_call_site_skips_torch_and_libraries() {
        let f = |file: &str, line: u32, code: Option<&str>| StackFrame {
            file: Some(file.into()),
            line: Some(line),
            function: Some("f".into()),
            code: code.map(Into::into),
        };
        let c = Compile {
            stack: vec![
                f("/home/me/train.py", 30, Some("main()")),
                f("/home/me/train.py", 16, Some("out = model.generate(ids)")),
                f(
                    "/v/lib/python3.11/site-packages/transformers/generation/utils.py",
                    2500,
                    None,
                ),
                f("/v/lib/python3.11/site-packages/torch/nn/modules/module.py", 1787, None),
                f(
                    "/v/lib/python3.11/site-packages/transformers/utils/generic.py",
                    937,
                    None,
                ),
            ]
            .into(),
            ..Compile::default()
        };
        let site = call_site(&c).unwrap();
        assert_eq!(site.short(), "/home/me/train.py:16");
        assert_eq!(site.code.as_deref(), Some("out = model.generate(ids)"));
    }
}
