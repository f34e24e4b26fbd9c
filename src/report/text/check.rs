//! A `check` verdict for the terminal: what failed the gate, and why.

use crate::analysis::check::{CheckVerdict, Offense};
use crate::analysis::Severity;
use crate::report::format::{fold_ranks, plural, rank_list};
use crate::report::paths::display_site;
use crate::report::text::fit::{wrap, write_labelled, write_wrapped};
use crate::report::text::summary::write_styled;
use crate::report::text::{style, Terminal};
use std::io::{self, Write};

/// The verdict in lines of at most `w` columns.
pub fn write_verdict(out: &mut Terminal, v: &CheckVerdict, w: usize) -> io::Result<()> {
    if !v.offending.is_empty() {
        let what = if v.mode == "baseline" {
            "Recompiles the baseline does not have"
        } else {
            "Recompiles"
        };
        let problems = v.offending.iter().filter(|o| o.severity == Severity::Problem).count();
        let causes = if v.offending_causes < v.offending.len() {
            format!(", from {}", plural(v.offending_causes, "cause", "causes"))
        } else {
            String::new()
        };
        let head = format!(
            "{what} ({}, {}{causes}; each counts unless --allow excuses its category):",
            plural(problems, "problem", "problems"),
            plural(v.offending.len() - problems, "expected one-off", "expected one-offs")
        );
        write_wrapped(out, &head, w, "", "  ")?;
        // The same recompile on many ranks is one entry (the budget still
        // counts each, as the sentence above does).
        let folded = fold_ranks(
            &v.offending,
            |o| o.frame.rank,
            |o| {
                Some((
                    (&o.compile_id, o.frame.run, o.frame.frame_id, &o.frame.function),
                    (o.cause.category, &o.cause.culprit, o.severity),
                ))
            },
            |a, b| a.duration_s > b.duration_s,
        );
        // A cause several frames share: its first recompile in full, the
        // others one line each.
        let mut first_of: std::collections::HashMap<usize, &str> = std::collections::HashMap::new();
        for (o, ranks) in folded {
            match first_of.get(&o.cause_group) {
                Some(first) => {
                    let line = format!("{}: the same cause as {first}", offense_head(o, &ranks));
                    write_wrapped(out, &line, w, "  ", "      ")?;
                }
                None => {
                    first_of.insert(o.cause_group, &o.compile_id);
                    write_offense(out, o, &ranks, w)?;
                }
            }
        }
        writeln!(out)?;
    }
    if !v.allowed.is_empty() {
        writeln!(out, "Excused by --allow:")?;
        for o in &v.allowed {
            let category = o.cause.category.name();
            let line = format!("{} {} [{category}] {}", o.compile_id, frame(o), o.cause.culprit);
            write_styled(
                out,
                &wrap(&line, w, "  ", "      "),
                &[(category, style::category(o.cause.category))],
            )?;
        }
        writeln!(out)?;
    }
    if !v.eager_frames.is_empty() {
        let (tag, tag_style) = if v.eager_frames_failed {
            ("error", style::fail())
        } else {
            ("warning", style::warn())
        };
        out.styled(tag_style, tag)?;
        let what = if v.mode == "baseline" {
            "frames that run eagerly, not compiled, where the baseline compiled them:"
        } else {
            "frames that run eagerly, not compiled:"
        };
        writeln!(out, ": {what}")?;
        for e in &v.eager_frames {
            write_wrapped(out, &e.sentence(display_site), w, "  ", "      ")?;
            if let Some(fix) = &e.fix {
                write_wrapped(out, fix, w, "      fix: ", "           ")?;
            }
        }
        writeln!(out)?;
    }
    if !v.new_frames.is_empty() {
        let (tag, tag_style) = if v.new_frames_failed {
            ("error", style::fail())
        } else {
            ("warning", style::warn())
        };
        out.styled(tag_style, tag)?;
        writeln!(out, ": frames the baseline does not have (new graph breaks?):")?;
        for k in &v.new_frames {
            let at = match (&k.file, k.line) {
                (Some(f), Some(l)) => format!("{f}:{l}"),
                _ => "?".into(),
            };
            write_wrapped(
                out,
                &format!("{} at {at}", k.function.as_deref().unwrap_or("?")),
                w,
                "  ",
                "      ",
            )?;
        }
        writeln!(out)?;
    }
    if !v.new_graph_breaks.is_empty() {
        let (tag, tag_style) = if v.new_graph_breaks_failed {
            ("error", style::fail())
        } else {
            ("warning", style::warn())
        };
        out.styled(tag_style, tag)?;
        writeln!(out, ": graph breaks the baseline does not have:")?;
        for g in &v.new_graph_breaks {
            let id = g
                .registry_id
                .as_deref()
                .map(|i| format!(" [{}]", i.to_uppercase()))
                .unwrap_or_default();
            let at = g.user_line.as_deref().map_or_else(|| "?".to_string(), display_site);
            let line = format!("{}{id} at {at} ({})", g.reason, g.compile_ids.join(", "));
            write_wrapped(out, &line, w, "  ", "      ")?;
            if !g.per_call.is_empty() {
                write_wrapped(out, &g.per_call, w, "      cost: ", "            ")?;
            }
            if let Some(hint) = g.hints.first() {
                write_wrapped(out, hint, w, "      fix: ", "           ")?;
            }
        }
        writeln!(out)?;
    }
    if !v.unread_inputs.is_empty() {
        out.styled(style::fail(), "error")?;
        writeln!(out, ": input that could not be read (the gate fails closed):")?;
        for p in &v.unread_inputs {
            write_wrapped(out, p, w, "  ", "    ")?;
        }
        writeln!(out)?;
    }
    let verdict = if v.passed { style::pass() } else { style::fail() };
    for line in wrap(&v.message, w, "", "  ") {
        out.styled(verdict, &line)?;
        writeln!(out)?;
    }
    Ok(())
}

/// `run N rank R frame F (name)`: how the text and the JUnit document name
/// an offense's frame. Like rank 0, the first run goes unsaid: a later run
/// is there only when the inputs hold several (a rerun, a stale log).
pub(crate) fn frame(o: &Offense) -> String {
    let f = &o.frame;
    let run = if f.run > 0 {
        format!("run {} ", f.run)
    } else {
        String::new()
    };
    let rank = f
        .rank
        .filter(|r| *r > 0)
        .map(|r| format!("rank {r} "))
        .unwrap_or_default();
    format!("{run}{rank}frame {} ({})", f.frame_id, f.name)
}

/// An offense's first line: id, frame (on how many ranks), category and
/// severity, culprit, seconds.
fn offense_head(o: &Offense, ranks: &[u32]) -> String {
    let secs = o.duration_s.map(|d| format!(", {d:.2} s")).unwrap_or_default();
    let name = if ranks.len() > 1 {
        let f = &o.frame;
        let run = if f.run > 0 {
            format!("run {} ", f.run)
        } else {
            String::new()
        };
        format!(
            "{run}frame {} ({}) on {} ranks ({})",
            f.frame_id,
            f.name,
            ranks.len(),
            rank_list(ranks)
        )
    } else {
        frame(o)
    };
    let tag = format!("[{}, {}]", o.cause.category.name(), o.severity.name());
    format!("{} {name} {tag} {}{secs}", o.compile_id, o.cause.culprit)
}

fn write_offense(out: &mut Terminal, o: &Offense, ranks: &[u32], w: usize) -> io::Result<()> {
    let category = o.cause.category.name();
    let head = offense_head(o, ranks);
    let styles = [
        (category, style::category(o.cause.category)),
        (o.severity.name(), style::severity(o.severity)),
    ];
    write_styled(out, &wrap(&head, w, "  ", "      "), &styles)?;
    if let Some(from) = &o.cause.called_from {
        write_labelled(out, "      called from ", &display_site(from), w, "        ")?;
    }
    if let Some(src) = &o.cause.source {
        write_labelled(out, "      at ", &display_site(src), w, "        ")?;
    }
    if !o.evidence.text.is_empty() {
        let first = format!("      why {}: ", o.severity.name());
        write_wrapped(out, &o.evidence.text, w, &first, "           ")?;
    }
    let owner = match &o.cause_entry {
        Some(entry) => format!("{} (cause: cache entry {entry})", o.owner.words()),
        None => o.owner.words().to_string(),
    };
    write_wrapped(out, &owner, w, "      owner: ", "             ")?;
    if !o.cause.advice.is_empty() {
        write_wrapped(out, &o.cause.advice, w, "      fix: ", "           ")?;
    }
    Ok(())
}
