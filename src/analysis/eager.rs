//! Frames Dynamo did not compile: what the model runs eagerly, and why.
//!
//! A compile that fails leaves its frame uncompiled. A graph break Dynamo
//! cannot resume from (one inside a loop) and any other `Unsupported` or
//! `UserError` is a "soft" failure: Dynamo suppresses it whatever
//! `suppress_errors` says and marks the frame's code to be skipped, so the
//! function runs eagerly on every later call while the frames it calls
//! (each block of a model that loops over them) are compiled on their own.
//! A suppressed hard error does the same; an unsuppressed one reaches the
//! caller. A frame at the recompile limit keeps its compiled entries and runs
//! eagerly for every call none of them matches. The log records that each
//! happened, not how often the frame ran: the cost is said per call.

use super::frame_ref::FrameRef;
use crate::model::{Compile, Frame, Run};
use crate::reasons::graph_break::parse;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct EagerFrame {
    pub frame: FrameRef,
    /// The compile that left the frame uncompiled.
    pub compile_id: String,
    /// `skipped`: Dynamo skips the frame, it runs eagerly every call;
    /// `recompile_limit`: calls none of its compiled entries match run
    /// eagerly; `compile_raised`: the compile's error reached the caller;
    /// `compile_failed`: the log does not say which of the first and the last.
    pub why: &'static str,
    /// What made it so, in one line (`a graph break inside a loop: ...`).
    pub because: String,
    /// The user's line that caused it (`file:line`, full path as logged):
    /// the innermost user line of the break, else the frame's first line.
    pub user_line: Option<String>,
    /// The source of `user_line`, when the log quotes it.
    pub user_code: Option<String>,
    /// What it costs on each call, in words (`runs eagerly every call`).
    pub per_call: String,
    /// What to change, when guardscope knows.
    pub fix: Option<String>,
}

impl EagerFrame {
    /// `forward (model.py:42) is not compiled: it runs eagerly every call,
    /// because ...`: how every view names it.
    pub fn sentence(&self, site: impl Fn(&str) -> String) -> String {
        let name = match (&self.frame.file, self.frame.line) {
            (Some(file), Some(line)) => format!("{} ({})", self.frame.name, site(&format!("{file}:{line}"))),
            _ => self.frame.name.clone(),
        };
        let at = match (&self.user_line, &self.user_code) {
            (Some(l), Some(code)) => format!(" at {}: {code}", site(l)),
            (Some(l), None) => format!(" at {}", site(l)),
            _ => String::new(),
        };
        format!(
            "{name} is not compiled: {}, because {}{at} ({})",
            self.per_call, self.because, self.compile_id
        )
    }
}

/// Each frame that is not compiled, once (its first compile that left it
/// so), in run order.
pub fn eager_frames(run: &Run) -> Vec<EagerFrame> {
    let mut out = Vec::new();
    for f in &run.frames {
        if let Some(c) = f.compiles.iter().find(|c| c.finished && (c.failed || c.cache_limit)) {
            out.push(eager_frame(f, c));
        }
    }
    out
}

/// Whether Dynamo always swallows this failure and skips the frame.
fn soft(c: &Compile) -> bool {
    let skipped = c
        .fail_reason
        .as_deref()
        .is_some_and(|r| r.contains("Skipping the frame") || r.contains("frame skipped"));
    skipped || matches!(c.fail_type.as_deref(), Some("Unsupported" | "UserError"))
}

/// At most `MAX_REASON` characters of a logged line, marked when cut.
fn cut(line: &str) -> String {
    const MAX_REASON: usize = 200;
    match line.char_indices().nth(MAX_REASON) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

fn eager_frame(f: &Frame, c: &Compile) -> EagerFrame {
    let compiled = f.compiles.iter().filter(|c| !c.failed && !c.cache_limit).count();
    let raised = c
        .fail_type
        .as_deref()
        .is_some_and(|t| t.contains("FailOnRecompileLimitHit"));
    let why = if c.cache_limit && !raised {
        "recompile_limit"
    } else if c.cache_limit || (!soft(c) && c.suppress_errors == Some(false)) {
        "compile_raised"
    } else if soft(c) || c.suppress_errors == Some(true) {
        "skipped"
    } else {
        "compile_failed"
    };
    let per_call = match why {
        "skipped" if compiled == 0 => "it runs eagerly every call".to_string(),
        "skipped" => format!("from {} on it runs eagerly every call", c.compile_id),
        "recompile_limit" => format!("every call that none of its {compiled} compiled entries matches runs eagerly"),
        "compile_raised" => "the compile's error reached the caller".to_string(),
        _ => "that call ran eagerly or raised (the log does not say which)".to_string(),
    };
    let reason = c.fail_reason.as_deref().unwrap_or("");
    // One line of the error, cut: a failed compile's text can be megabytes
    // (summary --json keeps it whole in the compile's fail_reason).
    let first = reason.lines().map(str::trim).find(|l| !l.is_empty()).map(cut);
    let in_loop = reason.contains("graph break in loop");
    let because = if c.cache_limit {
        format!("it hit the recompile limit after {compiled} compiles")
    } else {
        match (first, in_loop) {
            (Some(first), true) if !first.starts_with("graph break in loop") => {
                format!("Dynamo skips a function with a graph break inside a loop ({first})")
            }
            (_, true) => "Dynamo skips a function with a graph break inside a loop".to_string(),
            (Some(first), false) => format!(
                "the compile failed ({}: {first})",
                c.fail_type.as_deref().unwrap_or("error")
            ),
            (None, false) => format!(
                "the compile failed ({})",
                c.fail_type.as_deref().unwrap_or("no error logged")
            ),
        }
    };
    // The break that caused it is logged with the compile; its user line
    // is the line to change.
    let text = c.graph_breaks.last().map(|t| parse(t));
    let from_break = text.as_ref().and_then(|t| t.user_line.as_ref().map(|l| l.short()));
    let user_code = text.and_then(|t| t.user_code).filter(|_| from_break.is_some());
    let user_line = from_break.or_else(|| {
        f.file
            .as_deref()
            .zip(f.line)
            .map(|(file, line)| format!("{file}:{line}"))
    });
    let fix = in_loop.then(|| {
        let disabled = reason.contains("torch.compiler.disable");
        let what = if disabled {
            "The break is a function decorated with torch._dynamo.disable (or torch.compiler.disable) called inside the loop, such as a hook kept out of the graph on purpose. "
        } else {
            ""
        };
        format!(
            "{what}A graph break inside a loop makes Dynamo skip the whole function, so nothing of it is compiled. \
             Keep the loop free of breaks: compile each block instead of the model (block.compile() on each: a \
             break there splits one block's graph instead of skipping the loop), or move what breaks out of the loop (after the \
             forward returns){}.",
            if disabled {
                ", or keep the hook's state where Dynamo cannot see it (a torch.library.custom_op) so the hook needs no disable"
            } else {
                ""
            }
        )
    });
    EagerFrame {
        frame: FrameRef::of(f),
        compile_id: c.compile_id.clone(),
        why,
        because,
        user_line,
        user_code,
        per_call,
        fix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::load::repo_sample as sample;

    #[test]
    fn a_disabled_hook_in_a_loop_skips_the_frame_that_loops() {
        // samples/traces/hook_loop_disabled (real torch 2.15).
        let run = sample("samples/traces/hook_loop_disabled");
        let eager = eager_frames(&run);
        assert_eq!(eager.len(), 1, "{eager:?}");
        let e = &eager[0];
        assert_eq!(
            (e.frame.name.as_str(), e.frame.line, e.why),
            ("forward", Some(43), "skipped")
        );
        assert_eq!(e.per_call, "it runs eagerly every call");
        assert!(
            e.because
                .starts_with("Dynamo skips a function with a graph break inside a loop (Skip calling"),
            "{}",
            e.because
        );
        assert!(e.user_line.as_deref().unwrap().ends_with("_hook_loop_model.py:46"));
        assert_eq!(e.user_code.as_deref(), Some("x = block(x)"));
        assert!(e.fix.as_deref().unwrap().contains("compile each block"));
        // Compiled as one graph without the decorator: nothing runs eagerly.
        assert!(eager_frames(&sample("samples/traces/hook_loop")).is_empty());
    }

    #[test]
    fn a_frame_at_the_recompile_limit_runs_eagerly_for_new_variants() {
        let run = sample("samples/traces/reasons/cache_limit");
        let eager = eager_frames(&run);
        assert_eq!(eager.len(), 1, "{eager:?}");
        assert_eq!(eager[0].why, "recompile_limit");
        assert!(eager[0]
            .per_call
            .starts_with("every call that none of its 2 compiled entries matches"));
    }
}
