//! `check --format github`: GitHub Actions workflow commands. Printed by a
//! step, each `::error file=...,line=...::` line becomes an annotation on
//! that line of the pull request's diff (and in the run's summary); the
//! verdict follows as a plain line. GitHub shows 10 annotations of each
//! level per step: past that, one says how many were left out.
//!
//! Everything from a log is escaped as the Actions runner unescapes it
//! (actions/toolkit's command.ts): otherwise a newline in a culprit would
//! end the command, and the next line of text could be a command of its own.

use super::ci::{break_sentence, cut, eager_sentence, inert, sentence, RepoRoot, Site};
use super::text::check::frame;
use super::text::workflow_inert;
use crate::analysis::check::{CheckVerdict, Offense};
use crate::analysis::Severity;

/// The annotations of a verdict, one per counted recompile, then the
/// problems not tied to a recompile, then the verdict line.
pub fn github(v: &CheckVerdict, root: &RepoRoot) -> String {
    let mut commands = Vec::new();
    // Input not read first: it is why a gate fails closed, and GitHub shows
    // only the first annotations of each level.
    for p in &v.unread_inputs {
        let props = [(
            "title",
            "guardscope: input not read (the gate fails closed)".to_string(),
        )];
        commands.push(("error", command_line("error", &props, p)));
    }
    for o in &v.offending {
        commands.push(annotation(o, root));
    }
    for e in &v.eager_frames {
        let command = if v.eager_frames_failed { "error" } else { "warning" };
        let mut props = site_props(root.site_of(e.user_line.as_deref()));
        props.push((
            "title",
            format!("guardscope: {} runs eagerly (not compiled)", e.frame.name),
        ));
        commands.push((command, command_line(command, &props, &eager_sentence(e, root))));
    }
    for g in &v.new_graph_breaks {
        let command = if v.new_graph_breaks_failed { "error" } else { "warning" };
        let mut props = site_props(root.site_of(g.user_line.as_deref()));
        props.push((
            "title",
            "guardscope: a graph break the baseline does not have".to_string(),
        ));
        commands.push((command, command_line(command, &props, &break_sentence(g, root))));
    }
    for k in &v.new_frames {
        let command = if v.new_frames_failed { "error" } else { "warning" };
        let mut props = Vec::new();
        if let (Some(file), Some(line)) = (&k.file, k.line) {
            props.push(("file", root.name(file).as_str().to_string()));
            props.push(("line", line.to_string()));
        }
        props.push(("title", "guardscope: a frame the baseline does not have".to_string()));
        let message = format!(
            "{} is compiled as a frame of its own in this run only (a new graph break?)",
            k.function.as_deref().unwrap_or("?")
        );
        commands.push((command, command_line(command, &props, &message)));
    }
    let mut out = capped(commands);
    // A plain line, not a command: the runner prints it as it is, so it
    // must not start with `::` (the message is guardscope's own words).
    if !v.failed_budgets.is_empty() {
        out.push_str(&format!("budgets exceeded: {}\n", v.failed_budgets.join(", ")));
    }
    // The verdict closes the output: a step that keeps the last line keeps it.
    out.push_str(&inert(&v.message));
    out.push('\n');
    out
}

/// A line for a check that could not run at all (no such input).
pub fn failure(message: &str) -> String {
    command_line("error", &[("title", "guardscope check failed".to_string())], message)
}

/// Annotations GitHub shows of each level (error, warning) per step; it
/// drops the rest without a word.
const SHOWN_PER_LEVEL: usize = 10;
/// Characters of a message and a title: GitHub truncates longer ones.
const MAX_MESSAGE_CHARS: usize = 4_000;
const MAX_TITLE_CHARS: usize = 200;

/// The commands in order, at most `SHOWN_PER_LEVEL` of each level: when a
/// level has more, its last one shown says how many were left out.
fn capped(commands: Vec<(&str, String)>) -> String {
    let mut out = String::new();
    for level in ["error", "warning"] {
        let of_level: Vec<&String> = commands.iter().filter(|(l, _)| *l == level).map(|(_, c)| c).collect();
        if of_level.len() <= SHOWN_PER_LEVEL {
            of_level.iter().for_each(|c| out.push_str(c));
            continue;
        }
        of_level[..SHOWN_PER_LEVEL - 1].iter().for_each(|c| out.push_str(c));
        let left = of_level.len() - (SHOWN_PER_LEVEL - 1);
        let message = format!(
            "{left} more {level} annotations left out: GitHub shows {SHOWN_PER_LEVEL} of each level per step; \
             `guardscope check` (text or --json) lists them all"
        );
        let title = [("title", format!("guardscope: {left} more {level}s"))];
        out.push_str(&command_line(level, &title, &message));
    }
    out
}

fn annotation(o: &Offense, root: &RepoRoot) -> (&'static str, String) {
    let command = match o.severity {
        Severity::Problem => "error",
        Severity::Expected => "warning",
    };
    let mut props = site_props(root.site(o));
    let title = format!(
        "guardscope: {} recompile ({}) of {}",
        o.cause.category.name(),
        o.severity.name(),
        frame(o)
    );
    props.push(("title", title));
    (command, command_line(command, &props, &sentence(o)))
}

/// `file=` and `line=` of a place, when there is one.
fn site_props(site: Option<Site>) -> Vec<(&'static str, String)> {
    site.map(|s| vec![("file", s.file.as_str().to_string()), ("line", s.line.to_string())])
        .unwrap_or_default()
}

/// `::command key=value,...::message\n`, each part escaped; a `##[` from a
/// log is broken too (`##\x5b`), as in every output a job log shows, so
/// no runner that looks for legacy commands anywhere in a line finds one.
fn command_line(command: &str, props: &[(&str, String)], message: &str) -> String {
    let props: Vec<String> = props
        .iter()
        .map(|(k, v)| {
            let v = if *k == "title" {
                cut(v, MAX_TITLE_CHARS)
            } else {
                v.into()
            };
            format!("{k}={}", workflow_inert(&escape_property(&inert(&v))))
        })
        .collect();
    let space = if props.is_empty() { "" } else { " " };
    format!(
        "::{command}{space}{}::{}\n",
        props.join(","),
        workflow_inert(&escape_data(&inert(&cut(message, MAX_MESSAGE_CHARS))))
    )
}

/// A message: `%`, CR and LF encoded.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value: also `:` and `,`, which end a value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_and_newlines_cannot_end_a_command() {
        assert_eq!(escape_data("50% a\r\nb::c"), "50%25 a%0D%0Ab::c");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        let line = command_line("error", &[("title", "x,y:z".into())], "m\n::error::x");
        assert_eq!(line, "::error title=x%2Cy%3Az::m%0A::error::x\n");
        assert_eq!(line.lines().count(), 1);
        let line = command_line("error", &[("title", "##[x".into())], "k ##[add-mask]s");
        assert_eq!(line, "::error title=##\\x5bx::k ##\\x5badd-mask]s\n");
    }
}
