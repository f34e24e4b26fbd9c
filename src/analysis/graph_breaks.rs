//! The run's graph breaks, each distinct break once: Dynamo logs a ~40-line
//! text per break and re-logs a frame's breaks at every recompile, and
//! every rank logs its own copy. Two breaks are the same when they have the
//! same reason at the same user line.

use super::frame_ref::FrameRef;
use crate::model::Run;
use crate::reasons::graph_break::{parse, GraphBreakText};

#[derive(Clone, Debug)]
pub struct GraphBreak<'r> {
    /// What broke, in one line.
    pub reason: String,
    /// The user's line (`file:line`, full path): the innermost user frame
    /// of the break's traceback, else where Dynamo broke.
    pub user_line: Option<String>,
    /// The source of `user_line`, as the traceback quotes it.
    pub user_code: Option<String>,
    /// Where Dynamo broke, when that is not `user_line` (inside a library).
    pub library_line: Option<String>,
    /// The graph-break registry id (`gb0124`), where the log's text has one.
    pub registry_id: Option<String>,
    /// What to change: torch's own `Hint:` lines (empty when the log
    /// states none, or only asks to report the break to PyTorch), except
    /// where they cannot be followed: for a function kept out of the graph
    /// on purpose, and for a break inside torch's or a library's code,
    /// guardscope's advice stands in their place (see `advice`).
    pub hints: Vec<String>,
    /// Times the log holds this break.
    pub count: usize,
    /// The compiles that logged it, in run order (`0/0`, `rank 1 1/0`).
    pub compile_ids: Vec<String>,
    /// The frames it broke, in run order, each once.
    pub frames: Vec<FrameRef>,
    /// The first occurrence's text as logged.
    pub text: &'r str,
}

/// Distinct graph breaks, most logged first (ties in run order).
pub fn distinct(run: &Run) -> Vec<GraphBreak<'_>> {
    let mut out: Vec<GraphBreak<'_>> = Vec::new();
    for f in &run.frames {
        for c in &f.compiles {
            for text in &c.graph_breaks {
                let parsed = parse(text);
                let user_line = user_line(&parsed);
                let same = |g: &GraphBreak<'_>| g.reason == parsed.reason && g.user_line == user_line;
                let id = match f.rank {
                    Some(r) if run.has_several_ranks() => format!("rank {r} {}", c.compile_id),
                    _ => c.compile_id.clone(),
                };
                let g = match out.iter_mut().position(|g| same(g)) {
                    Some(i) => &mut out[i],
                    None => {
                        out.push(new_break(parsed, user_line, text));
                        out.last_mut().expect("just pushed")
                    }
                };
                g.count += 1;
                if !g.compile_ids.contains(&id) {
                    g.compile_ids.push(id);
                }
                let same_frame = |r: &FrameRef| (r.rank, r.pid, r.frame_id) == (f.rank, f.pid, f.frame_id);
                if !g.frames.iter().any(same_frame) {
                    g.frames.push(FrameRef::of(f));
                }
            }
        }
    }
    // A stable sort keeps run order among equal counts.
    out.sort_by_key(|g| std::cmp::Reverse(g.count));
    out
}

fn user_line(g: &GraphBreakText) -> Option<String> {
    g.user_line.as_ref().map(|l| l.short()).or_else(|| g.at.clone())
}

fn new_break<'r>(parsed: GraphBreakText, user_line: Option<String>, text: &'r str) -> GraphBreak<'r> {
    let library_line = parsed.at.filter(|at| Some(at) != user_line.as_ref());
    let hints = advice(&parsed.reason, parsed.registry_id.as_deref(), library_line.as_deref())
        .or_else(|| skipped_library_function(text))
        .map_or(parsed.hints, |a| vec![a]);
    GraphBreak {
        reason: parsed.reason,
        user_code: parsed.user_code,
        library_line,
        registry_id: parsed.registry_id,
        hints,
        user_line,
        count: 0,
        compile_ids: Vec::new(),
        frames: Vec::new(),
        text,
    }
}

/// guardscope's advice where torch's hints cannot be followed, or would
/// undo a fix: a call to a function decorated with `torch._dynamo.disable`
/// (torch says to remove the decorator, which a hook kept out of the graph
/// on guardscope's advice needs), and a break inside torch's or a library's
/// code (torch's hint names code the user did not write).
fn advice(reason: &str, registry_id: Option<&str>, library_line: Option<&str>) -> Option<String> {
    let disabled = registry_id.is_some_and(|id| id.eq_ignore_ascii_case("gb0098"))
        || reason.contains("torch.compiler.disable()`d function");
    if disabled {
        return Some(
            "A function decorated with torch._dynamo.disable (or torch.compiler.disable) is called here, \
             such as a hook kept out of the graph on purpose: if it is, keep the decorator. It costs one graph \
             break per call; inside a loop Dynamo skips the whole enclosing function, which then runs eagerly \
             (see the frames that are not compiled): compile each block instead of the model so the call falls \
             between compiled graphs."
                .to_string(),
        );
    }
    let lib = library_line?;
    let file = lib
        .rsplit_once("site-packages/")
        .map(|(_, tail)| tail)
        .unwrap_or_else(|| lib.rsplit(['/', '\\']).next().unwrap_or(lib));
    Some(format!(
        "The break is inside {file} (torch's or a library's code, not yours), reached from your line: \
         its cause is in that code, so torch's hint does not apply to yours. Call that code outside the \
         compiled region, or accept the break."
    ))
}

/// A call, from the user's line, of a function torch marks as not traced
/// because its file is torch's or a library's (`Adam.step`, reached through
/// the LR scheduler's wrapper of it): torch's hints ("avoid calling the
/// function", "force tracing into it") ask the user to drop an optimizer
/// step or trace torch's own code. guardscope's advice in their place.
fn skipped_library_function(text: &str) -> Option<String> {
    let at = text.find("marked that the function `")? + "marked that the function `".len();
    let (function, rest) = text[at..].split_once('`')?;
    let file = rest.strip_prefix(" in file `")?.split('`').next()?.replace('\\', "/");
    let tail = file
        .rsplit_once("site-packages/")
        .map(|(_, t)| t.to_string())
        .or_else(|| file.find("/torch/").map(|i| file[i + 1..].to_string()))?;
    Some(format!(
        "Dynamo does not trace `{function}`: torch marks its file ({tail}) as skipped, so the call runs eagerly \
         between graphs (one graph break per call) and what it calls is compiled as frames of its own. It is not \
         your code: nothing to change in yours; accept the break."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::load::repo_sample as sample;

    #[test]
    fn the_sample_logs_three_breaks_of_two_kinds() {
        // samples/traces/graph_breaks (real torch 2.15): Tensor.item() at
        // line 36 once, an explicit graph_break() at line 39 logged again
        // at frame 1's recompile.
        let run = sample("samples/traces/graph_breaks");
        let breaks = distinct(&run);
        let got: Vec<(&str, Option<&str>, usize)> = breaks
            .iter()
            .map(|g| (g.reason.as_str(), g.registry_id.as_deref(), g.count))
            .collect();
        assert_eq!(
            got,
            [
                ("Call to `torch._dynamo.graph_break()`", Some("gb0025"), 2),
                (
                    "Unsupported Tensor.item() call with capture_scalar_outputs=False",
                    Some("gb0124"),
                    1
                ),
            ]
        );
        assert!(breaks[0]
            .user_line
            .as_deref()
            .unwrap()
            .ends_with("samples/scripts/graph_breaks.py:39"));
        assert_eq!(breaks[0].compile_ids, ["1/0", "1/1"]);
        assert_eq!(
            breaks[0].user_code.as_deref(),
            Some("torch._dynamo.graph_break()  # graph break: explicit")
        );
    }

    #[test]
    fn ranks_logging_the_same_break_count_as_one_break() {
        // tests/corpus ddp_gloo (real torch 2.15, two ranks).
        let run = sample("tests/corpus/logs/torch2.15.0/ddp_gloo");
        let breaks = distinct(&run);
        let logged: usize = run.compiles().map(|(_, c)| c.graph_breaks.len()).sum();
        assert_eq!(breaks.iter().map(|g| g.count).sum::<usize>(), logged);
        assert!(breaks.len() < logged, "{} distinct of {logged}", breaks.len());
        for g in &breaks {
            assert!(!g.reason.starts_with("Graph break in user code"), "{}", g.reason);
        }
        assert!(breaks
            .iter()
            .any(|g| g.compile_ids.iter().any(|id| id.starts_with("rank 1 "))));
    }
}

#[cfg(test)]
mod advice_tests {
    use super::*;

    fn breaks_of(path: &str) -> Vec<(String, Vec<String>)> {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let run = crate::load::load(&[p], &crate::trace::ParseOptions::default()).expect("sample loads");
        distinct(&run).into_iter().map(|g| (g.reason, g.hints)).collect()
    }

    #[test]
    fn a_hook_disabled_on_purpose_is_not_fixed_by_removing_the_decorator() {
        // samples/traces/hook_loop_disabled (real torch 2.15): the hook was
        // decorated as guardscope's hook fix says; torch's hint undoes it.
        let breaks = breaks_of("samples/traces/hook_loop_disabled");
        let hints = &breaks[0].1;
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(!hints[0].contains("Remove the"), "{}", hints[0]);
        assert!(hints[0].contains("keep the decorator"), "{}", hints[0]);
        assert!(hints[0].contains("inside a loop Dynamo skips the whole enclosing function"));
    }

    #[test]
    fn a_skipped_torch_function_called_from_user_code_is_not_the_users_to_avoid() {
        // samples/traces/fix_after/optimizer_lr_after (real torch 2.15): a
        // compiled opt.step() whose Adam.step torch marks as skipped; torch
        // says to avoid calling it.
        let breaks = breaks_of("samples/traces/fix_after/optimizer_lr_after");
        let (_, hints) = breaks
            .iter()
            .find(|(r, _)| r == "Attempted to call function marked as skipped")
            .expect("the skipped call");
        assert_eq!(hints.len(), 1, "{hints:?}");
        assert!(!hints[0].contains("Avoid calling"), "{}", hints[0]);
        assert!(hints[0].contains("`Adam.step`") && hints[0].contains("torch/optim/lr_scheduler.py"));
        assert!(hints[0].contains("one graph break per call"), "{}", hints[0]);
    }

    #[test]
    fn torchs_hints_about_library_code_are_not_given_as_the_users_fix() {
        // tests/corpus (real torch 2.15): DDP's logging call and the
        // graph_break() inside torch.optim's Adam.step.
        for (path, file) in [
            (
                "tests/corpus/logs/torch2.15.0/ddp_gloo",
                "torch/nn/parallel/distributed.py",
            ),
            (
                "tests/corpus/logs/torch2.15.0/optim_tensor_lr",
                "torch/optim/optimizer.py",
            ),
        ] {
            let breaks = breaks_of(path);
            let (_, hints) = breaks
                .iter()
                .find(|(_, h)| h.iter().any(|h| h.contains(file)))
                .unwrap_or_else(|| panic!("{path}: {breaks:?}"));
            assert!(hints[0].contains("not yours"), "{hints:?}");
            for h in hints {
                assert!(!h.contains("in your code") && !h.starts_with("Remove the"), "{h}");
            }
        }
    }
}
