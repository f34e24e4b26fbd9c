//! The user's line that called a library function a compiled frame runs,
//! where the frame's own `dynamo_start` stack skips it. When a compiled
//! function of the user's graph-breaks inside a library call
//! (`return binary_calibration_error(probs, target, n_bins=n_bins)`), Dynamo
//! compiles the library function as a frame of its own, and its stack goes
//! from the training loop's line straight to the library: the user's
//! function in between runs as compiled code torch does not list. The graph
//! break's "User code traceback" lists the whole chain, so the call is read
//! there: the user's line directly above the library function.

use super::call_site::CallSite;
use crate::model::{Compile, Frame, Run};
use crate::reasons::graph_break::user_traceback;
use crate::reasons::paths::{owner, resumed_function, Owner};
use std::collections::HashMap;

/// A user line that called a library function, and the user lines above it
/// (outermost first): the path that led there.
struct Call {
    site: CallSite,
    above: Vec<(String, u32)>,
}

/// The calls into library functions that the run's graph breaks record,
/// by (run, the library function's file, its name).
#[derive(Default)]
pub struct BreakCallers {
    calls: HashMap<(usize, String, String), Vec<Call>>,
}

impl BreakCallers {
    pub fn of_run(run: &Run) -> Self {
        let mut calls: HashMap<(usize, String, String), Vec<Call>> = HashMap::new();
        for frame in &run.frames {
            for text in frame.compiles.iter().flat_map(|c| c.graph_breaks.iter()) {
                let chain = user_traceback(text);
                for at in 1..chain.len() {
                    let ((site, code), (callee, _)) = (&chain[at - 1], &chain[at]);
                    if owner(&site.file) != Owner::User || owner(&callee.file) == Owner::User {
                        continue;
                    }
                    let Some(name) = callee.function.clone() else {
                        continue;
                    };
                    let above = chain[..at - 1]
                        .iter()
                        .filter(|(f, _)| owner(&f.file) == Owner::User)
                        .map(|(f, _)| (f.file.clone(), f.line))
                        .collect();
                    let key = (frame.run, callee.file.clone(), name);
                    let known = calls.entry(key).or_default();
                    if !known
                        .iter()
                        .any(|c| c.site.file == site.file && c.site.line == site.line)
                    {
                        known.push(Call {
                            site: CallSite {
                                file: site.file.clone(),
                                line: site.line,
                                function: site.function.clone(),
                                code: code.clone(),
                            },
                            above,
                        });
                    }
                }
            }
        }
        BreakCallers { calls }
    }

    /// The user's line that called the library function `frame` compiles
    /// (or resumes), on the path the compile's stack shows: every user line
    /// of that stack is above the call in the traceback. None when no graph
    /// break recorded such a call, or two different lines fit.
    pub fn caller(&self, frame: &Frame, compile: &Compile) -> Option<CallSite> {
        let file = frame.file.as_deref()?;
        if owner(file) == Owner::User {
            return None;
        }
        let function = frame.function.as_deref()?;
        let name = resumed_function(function).map_or(function, |(name, _)| name);
        let known = self.calls.get(&(frame.run, file.to_string(), name.to_string()))?;
        let on_stack: Vec<(&str, u32)> = compile
            .stack
            .iter()
            .filter_map(|f| Some((f.file.as_deref()?, f.line?)))
            .filter(|(f, _)| owner(f) == Owner::User)
            .collect();
        let mut fits = known.iter().filter(|c| {
            on_stack
                .iter()
                .all(|(f, l)| c.above.iter().any(|(af, al)| af == f && al == l))
        });
        let first = fits.next()?;
        fits.next().is_none().then(|| first.site.clone())
    }
}
