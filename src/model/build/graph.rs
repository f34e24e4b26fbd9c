//! What a frame's output graphs tell about its guards: where the graph
//! first read a module's parameter (the user's line of a guard that names
//! none), and which locals a resume function received from the code before
//! its graph break (`torch_dynamo_resume_in_detect_at_52`'s `keep` was
//! assigned at `keep = scores > score_thresh`, line 51, by `detect`): such a
//! local is a value computed before the break, not an argument its caller
//! passed.

use crate::reasons::paths::{owner, resumed_function as resumed, Owner};
use crate::reasons::{self, GuardFailure, GuardSite, Location};
use crate::trace::graph_reads::GraphSummary;

/// Adds what one graph says to its frame's: the reads in the user's code,
/// as guard sites (a read in torch's or a library's code is no line of the
/// user's), and the names its traced lines assign in the frame's own file;
/// an input or a name already known keeps its first site.
pub(super) fn note(
    g: &GraphSummary,
    file: Option<&str>,
    reads: &mut Vec<GuardSite>,
    assigned: &mut Vec<(u32, Box<str>)>,
) {
    let sites = g
        .reads
        .iter()
        .filter_map(|r| reasons::graph_read_site(&r.input, &r.site, r.code.as_deref()));
    // Kept sorted by input: a model's graph has an input per parameter.
    for site in sites {
        if let Err(at) = reads.binary_search_by(|known| known.subject.cmp(&site.subject)) {
            reads.insert(at, site);
        }
    }
    let own = g.assigned.iter().filter(|a| file.is_some_and(|f| f == a.file));
    for a in own {
        if !assigned.iter().any(|(l, n)| *l == a.line && **n == *a.name) {
            assigned.push((a.line, a.name.as_str().into()));
        }
    }
}

/// The assignments one frame's graphs made, borrowed from the frame's
/// state while the frames of its file are finished.
pub(super) struct FrameAssignments<'a> {
    pub pid: u64,
    pub generation: u32,
    pub file: &'a str,
    pub function: &'a str,
    /// `co_firstlineno`: where the function starts.
    pub first_line: u32,
    pub names: &'a [(u32, Box<str>)],
}

/// The locals a resume function received from the code before its break:
/// names the function it resumes (or an earlier resume of it) assigned in
/// its traced lines, from its first line up to the break.
pub(super) fn carried_names(
    pid: u64,
    generation: u32,
    file: Option<&str>,
    function: Option<&str>,
    all: &[FrameAssignments<'_>],
) -> Vec<Box<str>> {
    let (Some(file), Some((name, at))) = (file, function.and_then(resumed)) else {
        return Vec::new();
    };
    let same_function = |f: &str| f == name || resumed(f).is_some_and(|(n, line)| n == name && line < at);
    let here = |a: &&FrameAssignments| a.pid == pid && a.generation == generation && a.file == file;
    // The function itself: of several of that name in the file, the one
    // that starts last before the break.
    let Some(start) = all
        .iter()
        .filter(here)
        .filter(|a| a.function == name && a.first_line <= at)
        .map(|a| a.first_line)
        .max()
    else {
        return Vec::new();
    };
    let mut names: Vec<&str> = all
        .iter()
        .filter(here)
        .filter(|a| same_function(a.function))
        .flat_map(|a| a.names.iter())
        .filter(|(line, _)| (start..at).contains(line))
        .map(|(_, n)| &**n)
        .collect();
    names.sort_unstable();
    names.dedup();
    names.into_iter().map(Box::from).collect()
}

/// Marks each failed guard on one of `names` as carried across the break.
/// Its line, when the guard names none, is where the code after the break
/// resumes and reads it (in the user's file only); so is the line of a
/// value the break left on the stack (`___stack0`: what the call that broke
/// the graph returned, on that line).
pub(super) fn mark_carried(failures: &mut [GuardFailure], names: &[Box<str>], file: &str, function: &str) {
    let resumes_at = resumed(function)
        .filter(|_| owner(file) == Owner::User)
        .map(|(name, line)| Location {
            file: file.to_string(),
            line,
            function: Some(name.to_string()),
        });
    if names.is_empty() && resumes_at.is_none() {
        return;
    }
    for g in failures {
        let subject = reasons::failed_subject(&g.guard);
        let root = reasons::subject::root_of(&subject);
        g.carried = names.iter().any(|n| **n == *root);
        let on_stack = root.starts_with("___stack");
        if (g.carried || on_stack) && g.source.is_none() && g.read_at.is_none() {
            g.read_at = resumes_at.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resume_function_names_what_it_resumes() {
        assert_eq!(resumed("torch_dynamo_resume_in_detect_at_52"), Some(("detect", 52)));
        assert_eq!(resumed("torch_dynamo_resume_in_get_item_at_7"), Some(("get_item", 7)));
        assert_eq!(resumed("forward"), None);
    }

    #[test]
    fn only_what_the_resumed_function_assigned_before_the_break_is_carried() {
        let names =
            |list: &[(u32, &str)]| -> Vec<(u32, Box<str>)> { list.iter().map(|(l, n)| (*l, (*n).into())).collect() };
        let (detect, other) = (
            names(&[(50, "scores"), (51, "keep"), (60, "late")]),
            names(&[(12, "labels")]),
        );
        let frame = |function, first_line, names| FrameAssignments {
            pid: 1,
            generation: 0,
            file: "/p/train.py",
            function,
            first_line,
            names,
        };
        let all = [
            frame("detect", 48, &detect[..]),
            // Another function's assignment of the same name does not count.
            frame("other", 10, &other[..]),
        ];
        assert_eq!(
            carried_names(
                1,
                0,
                Some("/p/train.py"),
                Some("torch_dynamo_resume_in_detect_at_52"),
                &all
            ),
            ["keep".into(), "scores".into()] as [Box<str>; 2]
        );
        assert!(carried_names(
            2,
            0,
            Some("/p/train.py"),
            Some("torch_dynamo_resume_in_detect_at_52"),
            &all
        )
        .is_empty());
        let mut g = [
            reasons::split("1/0: tensor 'keep' size mismatch at index 0. expected 5376, actual 5040"),
            reasons::split("1/0: tensor 'image' size mismatch at index 1. expected 256, actual 192"),
        ];
        mark_carried(
            &mut g,
            &["keep".into(), "scores".into()],
            "/p/train.py",
            "torch_dynamo_resume_in_detect_at_52",
        );
        assert!(g[0].carried && !g[1].carried);
        // Its line: where the code after the break resumes.
        assert_eq!(
            g[0].read_at.as_ref().map(Location::short).as_deref(),
            Some("/p/train.py:52")
        );
        assert_eq!(g[1].read_at, None);
    }

    #[test]
    fn a_value_the_break_left_on_the_stack_is_read_at_the_break_line() {
        // moe_router: `top = ....tolist()` broke the graph at line 17; the
        // resumed graph indexes a ModuleList with it, inside torch.
        let mut g = [
            reasons::split("1/1: ___stack0[1] == 1  # idx = operator.index(idx)  # nn/modules/container.py:374 in _get_abs_string_index"),
            reasons::split("1/1: tensor 'x' size mismatch at index 0. expected 8, actual 4"),
        ];
        mark_carried(&mut g, &[], "/p/train.py", "torch_dynamo_resume_in_forward_at_17");
        assert_eq!(
            g[0].read_at.as_ref().map(Location::short).as_deref(),
            Some("/p/train.py:17")
        );
        assert!(!g[0].carried);
        assert_eq!(g[1].read_at, None);
        // In a library's file the break line is not the user's.
        let mut lib = [reasons::split(
            "3/0: tensor '___stack0' size mismatch at index 0. expected 3, actual 4",
        )];
        mark_carried(
            &mut lib,
            &[],
            "/usr/lib/python3.11/site-packages/transformers/models/modernbert/modeling_modernbert.py",
            "torch_dynamo_resume_in_forward_at_534",
        );
        assert_eq!(lib[0].read_at, None);
    }
}
