//! The terminal summary: readable in ten seconds, one line per thing.

use super::causes::compile_ids;
use super::fit::{wrap, wrap_code, write_labelled, write_site, write_wrapped};
use super::frames::write_frames;
use super::recompiles::write_recompiles;
use crate::analysis::{self, CulpritGroup, Findings, Severity, COSTLY_EXPECTED_SECONDS};
use crate::model::{Frame, Run};
use crate::report::format::{plural, rank_list};
use crate::report::paths::{display_site, file_name};
use crate::report::runs::runs_line;
use crate::report::text::{style, Terminal};
use std::io::{self, Write};

// Callers name the summary's options beside `write_summary`.
pub use super::TerminalOptions;

pub fn write_summary(out: &mut Terminal, findings: &Findings<'_>, opts: &TerminalOptions) -> io::Result<()> {
    let run = findings.run;
    let t = &findings.totals;
    let files = run.inputs.len();
    let who = if t.ranks > 1 {
        format!("{} ranks, {} processes", t.ranks, t.processes)
    } else if t.processes > 1 {
        format!("{} processes", t.processes)
    } else {
        "1 process".to_string()
    };
    let w = opts.width;
    writeln!(out, "{} · {who}", plural(files, "log file", "log files"))?;
    if let Some(line) = runs_line(run) {
        write_wrapped(out, &line, w, "", "  ")?;
    }
    // Parallel processes compile side by side: the job waited the
    // wall-clock time, not the sum, so both are said.
    let parallel = t.processes > 1;
    let frames = if t.process_frames > t.frames {
        format!(
            "{} ({} copies across {})",
            plural(t.frames, "frame", "frames"),
            t.process_frames,
            plural(t.processes, "process", "processes")
        )
    } else {
        plural(t.frames, "frame", "frames")
    };
    let text_log = run.text_log();
    let seconds = match (&text_log, parallel) {
        (Some(_), _) => "compile times not in a text log".to_string(),
        (None, true) => format!("{:.2} s compiling", t.compile_wall_seconds),
        (None, false) => format!("{:.2} s compiling", t.compile_seconds),
    };
    let mut line = format!(
        "{frames} · {} · {} · {} failed · {} · {seconds}",
        plural(t.compiles, "compile", "compiles"),
        super::causes::recompiles_from(t.recompiles, t.recompile_causes),
        t.failed_compiles,
        plural(t.graph_breaks, "graph break", "graph breaks"),
    );
    let mut notes = Vec::new();
    if let Some(text) = &text_log {
        write_wrapped(out, &crate::report::text_log::read_from_text(text), w, "", "  ")?;
    } else if parallel {
        notes.push(format!("wall clock; {:.2} s summed over processes", t.compile_seconds));
    }
    if t.recompiles > 0 && text_log.is_none() {
        notes.push(format!("{:.2} s in recompiles", t.recompile_seconds));
    }
    if !findings.eager_frames.is_empty() {
        let n = findings.eager_frames.len();
        notes.push(plural(
            n,
            "frame runs eagerly, not compiled",
            "frames run eagerly, not compiled",
        ));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    write_wrapped(out, &line, w, "", "  ")?;
    if let Some(line) = crate::report::cost::cost_line(&findings.cost) {
        write_wrapped(out, &line, w, "", "  ")?;
    }
    if t.unfinished_compiles > 0 {
        let line = format!(
            "{} compile(s) unfinished: the log ends before their compilation_metrics",
            t.unfinished_compiles
        );
        write_wrapped(out, &line, w, "", "  ")?;
    }
    for (f, c) in run.compiles().filter(|(_, c)| c.cache_limit) {
        let line = format!(
            "{}frame {} ({}) hit the recompile limit at {}: from then on it runs eagerly, uncompiled, for the rest of the run",
            rank_prefix(f),
            f.frame_id,
            analysis::frame_name(f),
            c.compile_id
        );
        write_wrapped(out, &line, w, "", "  ")?;
    }
    for lone in &findings.lone_ranks {
        write_wrapped(out, &lone.sentence(), w, "", "  ")?;
    }

    if !run.frames.is_empty() {
        writeln!(out)?;
        write_frames(out, findings, opts)?;
    }
    if !findings.eager_frames.is_empty() {
        writeln!(out)?;
        super::eager::write_eager_frames(out, &findings.eager_frames, opts)?;
    }
    let (problems, expected): (Vec<&CulpritGroup>, Vec<&CulpritGroup>) =
        findings.culprits.iter().partition(|g| g.severity == Severity::Problem);
    if !problems.is_empty() {
        writeln!(out)?;
        let head = "What to fix (problems: recompiles that repeat, hit the limit, break a declared range or come from state your code changes while it runs; most expensive first):";
        write_styled(
            out,
            &wrap(head, w, "", "  "),
            &[("What to fix", style::severity(Severity::Problem))],
        )?;
        // One entry per cause: the frames one change recompiled together.
        for entry in findings.fix_entries.iter() {
            let groups: Vec<&CulpritGroup> = entry.iter().map(|&i| &findings.culprits[i]).collect();
            if groups[0].severity == Severity::Problem {
                write_culprit(out, &groups, opts, text_log.is_none())?;
            }
        }
    }
    if !expected.is_empty() {
        writeln!(out)?;
        write_expected(out, findings, &expected, opts)?;
    }
    if !findings.recompiles.is_empty() {
        writeln!(out)?;
        write_recompiles(out, findings, w)?;
    }
    if !findings.graph_breaks.is_empty() {
        writeln!(out)?;
        super::breaks::write_graph_breaks(out, &findings.graph_breaks, opts)?;
    }
    if !run.compiled_autograd.is_empty() {
        writeln!(out)?;
        let line = format!(
            "{} compiled-autograd graph(s) outside any frame",
            run.compiled_autograd.len()
        );
        write_wrapped(out, &line, w, "", "  ")?;
    }
    write_problems(out, run, opts)
}

/// `timed`: the log holds compile times (a text log does not).
/// `entry`: the groups one cause recompiled, the first given in full.
fn write_culprit(out: &mut Terminal, entry: &[&CulpritGroup], opts: &TerminalOptions, timed: bool) -> io::Result<()> {
    let g = entry[0];
    let n = g.compile_ids.len();
    let (f, c) = (&g.frame, &g.cause);
    let frame = match (&f.file, f.line) {
        (Some(file), Some(line)) => format!("{}, {}:{line}", f.name, file_name(file)),
        _ => f.name.clone(),
    };
    let several = g.ranks.len() > 1;
    let rank = f
        .rank
        .filter(|r| *r > 0 && !several)
        .map(|r| format!("rank {r} "))
        .unwrap_or_default();
    let on_ranks = if several {
        format!(" on {} ranks ({})", g.ranks.len(), rank_list(&g.ranks))
    } else {
        String::new()
    };
    // As in check: a later run is named, the first goes unsaid like rank 0.
    let rank = if f.run > 0 {
        format!("run {} {rank}", f.run)
    } else {
        rank
    };
    let seconds = match timed {
        true => format!("{:.2} s", g.seconds),
        false => "time not logged".to_string(),
    };
    let head = match entry {
        [_] => format!(
            "{} of {rank}frame {} ({frame}){on_ranks} caused by {} [{}], {seconds} ({})",
            plural(n, "recompile", "recompiles"),
            f.frame_id,
            c.culprit,
            c.category.name(),
            compile_ids(g)
        ),
        _ => super::causes::entry_head(entry, &c.culprit, c.category.name(), timed),
    };
    let w = opts.width;
    let tag = c.category.name();
    write_styled(
        out,
        &wrap(&head, w, "  ", "      "),
        &[(tag, style::category(c.category))],
    )?;
    // Each frame of a cause several share, then the first one's detail.
    for frame in entry.iter().filter(|_| entry.len() > 1) {
        write_wrapped(out, &super::causes::also(frame, timed), w, "      ", "        ")?;
    }
    let wrap_at = w.saturating_sub(6).max(40);
    if let Some(from) = &c.called_from {
        write_site(out, "      called from ", from, c.called_from_code.as_deref(), w)?;
    }
    if let Some(src) = &c.source {
        write_site(out, "      at ", src, c.code.as_deref(), w)?;
    }
    let read_at = g.user_line.as_ref().filter(|l| l.from == "graph");
    if let Some(l) = read_at {
        write_labelled(
            out,
            "      read at ",
            &format!("{} (where the compiled code reads it)", display_site(&l.site)),
            w,
            "        ",
        )?;
    }
    if c.source.is_none() && c.called_from.is_none() && read_at.is_none() {
        // Neither the guard nor a direct caller names the user's code:
        // what the stack still holds, said as such, or that it holds none.
        let line = match &g.user_line {
            Some(l) if l.from == "symbol_stack" => format!(
                "your line: {} (your call into the compiled code, from the stack torch logged while compiling it)",
                display_site(&l.site)
            ),
            Some(l) if l.from == "outer_caller" => format!(
                "your line: {} (the outermost call of yours on the compile's stack; torch recorded no direct caller)",
                display_site(&l.site)
            ),
            Some(l) => format!(
                "your line: {} (the compiled function itself; the log records no line of yours that called it)",
                display_site(&l.site)
            ),
            None => "your line: none in the log (no guard comment into your code, no caller on the compile's stack)"
                .to_string(),
        };
        write_wrapped(out, &line, w, "      ", "        ")?;
    }
    if let Some(lib) = &c.library_line {
        write_labelled(out, "      guard in a library: ", &display_site(lib), w, "        ")?;
    }
    for (i, change) in c.changed.iter().take(CHANGES_SHOWN).enumerate() {
        let first = if i == 0 { "      changed: " } else { "               " };
        for line in wrap_code(&change.describe(), w, first, "                 ") {
            writeln!(out, "{line}")?;
        }
    }
    if c.changed.len() > CHANGES_SHOWN {
        writeln!(
            out,
            "               +{} more (--json lists all)",
            c.changed.len() - CHANGES_SHOWN
        )?;
    }
    if let Some(d) = &c.detail {
        write_wrapped(out, d, w, "      ", "      ")?;
    }
    if !g.evidence.text.is_empty() {
        let why = format!(
            "{} ({}): {}",
            g.severity.name(),
            g.evidence.kind.name(),
            g.evidence.text
        );
        write_wrapped(out, &why, wrap_at + 6, "      why: ", "           ")?;
    }
    write_wrapped(out, g.owner.words(), wrap_at + 6, "      owner: ", "             ")?;
    write_wrapped(out, &c.advice, wrap_at + 6, "      fix: ", "           ")?;
    Ok(())
}

/// Changed values shown per cause; `--json` lists all.
const CHANGES_SHOWN: usize = 3;

/// Wrapped lines, with each of `tokens` in its style where it first
/// appears (after the one before it): a category's colour survives the
/// line it lands on.
pub(super) fn write_styled(out: &mut Terminal, lines: &[String], tokens: &[(&str, anstyle::Style)]) -> io::Result<()> {
    let mut next = tokens.iter().peekable();
    for line in lines {
        let mut rest = line.as_str();
        while let Some((token, style)) = next.peek() {
            let Some(at) = rest.find(token) else { break };
            write!(out, "{}", &rest[..at])?;
            out.styled(*style, token)?;
            rest = &rest[at + token.len()..];
            next.next();
        }
        writeln!(out, "{rest}")?;
    }
    Ok(())
}

/// Expected one-off recompiles, folded: one line each, with the fix only
/// when it cost `COSTLY_EXPECTED_SECONDS` or more.
fn write_expected(
    out: &mut dyn Write,
    findings: &Findings<'_>,
    groups: &[&CulpritGroup],
    opts: &TerminalOptions,
) -> io::Result<()> {
    let n: usize = groups.iter().map(|g| g.compile_ids.len()).sum();
    let head = format!(
        "Expected (made dynamic, one per variant, or set once; a problem only if it repeats): {}",
        super::causes::recompiles_from(n, super::causes::count(findings, groups))
    );
    write_wrapped(out, &head, opts.width, "", "  ")?;
    let mut shown = std::collections::HashSet::new();
    for g in groups {
        let shared = super::causes::shared_by(findings, g);
        if shared.is_some_and(|(i, _)| !shown.insert(i)) {
            continue;
        }
        let read = g
            .user_line
            .as_ref()
            .filter(|l| l.from == "graph")
            .map(|l| format!(", read at {}", display_site(&l.site)))
            .unwrap_or_default();
        let from = g
            .cause
            .called_from
            .as_deref()
            .map(|s| format!("{read}, called from {}", display_site(s)))
            .unwrap_or(read);
        let line = format!(
            "{} frame {} ({}){}: {} [{}]{from}; why: {}",
            compile_ids(g),
            g.frame.frame_id,
            g.frame.name,
            if g.ranks.len() > 1 {
                format!(" on {} ranks ({})", g.ranks.len(), rank_list(&g.ranks))
            } else {
                String::new()
            },
            g.cause.culprit,
            g.cause.category.name(),
            g.evidence.text
        );
        write_wrapped(out, &line, opts.width, "  ", "      ")?;
        if let Some((_, c)) = shared {
            write_wrapped(out, &super::causes::others(c, g), opts.width, "      ", "      ")?;
        }
        let seconds = shared.map_or(g.seconds, |(_, c)| c.seconds);
        if seconds >= COSTLY_EXPECTED_SECONDS && !g.cause.advice.is_empty() {
            let costly = format!("costly ({seconds:.2} s): {}", g.cause.advice);
            write_wrapped(out, &costly, opts.width, "      fix: ", "           ")?;
        }
    }
    Ok(())
}

fn rank_prefix(f: &Frame) -> String {
    f.rank
        .filter(|r| *r > 0)
        .map(|r| format!("rank {r} "))
        .unwrap_or_default()
}

fn write_problems(out: &mut dyn Write, run: &Run, opts: &TerminalOptions) -> io::Result<()> {
    let p = &run.problems;
    if p.count == 0 {
        return Ok(());
    }
    writeln!(out)?;
    let w = opts.width;
    let kinds: Vec<String> = p.by_kind.iter().map(|(k, n)| format!("{} {n}", k.label())).collect();
    if !opts.verbose {
        let line = format!(
            "{} input error(s): {}; run with --verbose to list them",
            p.count,
            kinds.join(", ")
        );
        return write_wrapped(out, &line, w, "", "  ");
    }
    write_wrapped(
        out,
        &format!("{} input error(s): {}", p.count, kinds.join(", ")),
        w,
        "",
        "  ",
    )?;
    for problem in &p.first {
        write_wrapped(out, &problem.to_string(), w, "  ", "    ")?;
    }
    if p.count as usize > p.first.len() {
        writeln!(out, "  … {} more not shown", p.count as usize - p.first.len())?;
    }
    Ok(())
}
