//! The terminal summary: readable in ten seconds, one line per thing.

use super::frames::write_frames;
use crate::analysis::{self, CulpritGroup, Finding, Findings, Severity};
use crate::model::{Frame, Run};
use crate::report::format::{ellipsize_middle, fold_ranks, plural, rank_list, width, wrap_words};
use crate::report::paths::{display_site, file_name};
use crate::report::runs::runs_line;
use crate::report::text::{style, Terminal};
use std::io::{self, Write};

pub struct TerminalOptions {
    /// Columns to fit lines into.
    pub width: usize,
    /// List every kept parse diagnostic instead of a one-line count.
    pub verbose: bool,
}

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
    writeln!(out, "{} · {who}", plural(files, "log file", "log files"))?;
    if let Some(line) = runs_line(run) {
        writeln!(out, "{line}")?;
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
    let mut line = format!(
        "{frames} · {} · {} · {} failed · {} · {:.2} s compiling",
        plural(t.compiles, "compile", "compiles"),
        plural(t.recompiles, "recompile", "recompiles"),
        t.failed_compiles,
        plural(t.graph_breaks, "graph break", "graph breaks"),
        if parallel {
            t.compile_wall_seconds
        } else {
            t.compile_seconds
        }
    );
    let mut notes = Vec::new();
    if parallel {
        notes.push(format!("wall clock; {:.2} s summed over processes", t.compile_seconds));
    }
    if t.recompiles > 0 {
        notes.push(format!("{:.2} s in recompiles", t.recompile_seconds));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    writeln!(out, "{line}")?;
    if let Some(line) = crate::report::cost::cost_line(&findings.cost) {
        writeln!(out, "{line}")?;
    }
    if t.unfinished_compiles > 0 {
        writeln!(
            out,
            "{} compile(s) unfinished: the log ends before their compilation_metrics",
            t.unfinished_compiles
        )?;
    }
    for (f, c) in run.compiles().filter(|(_, c)| c.cache_limit) {
        writeln!(
            out,
            "{}frame {} ({}) hit the recompile limit at {}: from then on it runs eagerly, uncompiled, for the rest of the run",
            rank_prefix(f),
            f.frame_id,
            analysis::frame_name(f),
            c.compile_id
        )?;
    }
    for lone in &findings.lone_ranks {
        writeln!(out, "{}", lone.sentence())?;
    }

    if !run.frames.is_empty() {
        writeln!(out)?;
        write_frames(out, findings, opts)?;
    }
    let (problems, expected): (Vec<&CulpritGroup>, Vec<&CulpritGroup>) =
        findings.culprits.iter().partition(|g| g.severity == Severity::Problem);
    if !problems.is_empty() {
        writeln!(out)?;
        out.styled(style::severity(Severity::Problem), "What to fix")?;
        writeln!(
            out,
            " (problems: recompiles that repeat, hit the limit, break a declared range or come from state your code changes while it runs; most expensive first):"
        )?;
        for g in &problems {
            write_culprit(out, g, opts)?;
        }
    }
    if !expected.is_empty() {
        writeln!(out)?;
        write_expected(out, &expected, opts)?;
    }
    let recompiles = &findings.recompiles;
    if !recompiles.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Recompiles (cause = the failed cache entry closest to the new call; ! = problem):"
        )?;
        let several_runs = run.runs.iter().filter(|r| r.selected).count() > 1;
        for (r, ranks) in fold_across_ranks(recompiles) {
            write_recompile(out, r, &ranks, several_runs, opts)?;
        }
    }
    if !findings.graph_breaks.is_empty() {
        writeln!(out)?;
        super::breaks::write_graph_breaks(out, &findings.graph_breaks, opts)?;
    }
    if !run.compiled_autograd.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{} compiled-autograd graph(s) outside any frame",
            run.compiled_autograd.len()
        )?;
    }
    write_problems(out, run, opts)
}

fn write_culprit(out: &mut Terminal, g: &CulpritGroup, opts: &TerminalOptions) -> io::Result<()> {
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
    write!(
        out,
        "  {} of {rank}frame {} ({frame}){on_ranks} caused by {} [",
        plural(n, "recompile", "recompiles"),
        f.frame_id,
        c.culprit,
    )?;
    out.styled(style::category(c.category), c.category.name())?;
    writeln!(out, "], {:.2} s ({})", g.seconds, compile_ids(g))?;
    let wrap = opts.width.saturating_sub(6).max(40);
    let with_code = |site: &str, code: Option<&str>| {
        let site = display_site(site);
        let code = code.map(|c| format!(": {c}")).unwrap_or_default();
        format!(
            "{site}{}",
            ellipsize_middle(&code, wrap.saturating_sub(width(&site) + 16))
        )
    };
    if let Some(from) = &c.called_from {
        writeln!(
            out,
            "      called from {}",
            with_code(from, c.called_from_code.as_deref())
        )?;
    }
    if let Some(src) = &c.source {
        writeln!(out, "      at {}", with_code(src, c.code.as_deref()))?;
    }
    if let Some(lib) = &c.library_line {
        writeln!(out, "      guard in a library: {}", display_site(lib))?;
    }
    for line in changed_lines(&c.changed) {
        writeln!(out, "      {}", ellipsize_middle(&line, wrap))?;
    }
    if let Some(d) = &c.detail {
        writeln!(out, "      {}", ellipsize_middle(d, wrap))?;
    }
    if !g.evidence.text.is_empty() {
        let why = format!(
            "{} ({}): {}",
            g.severity.name(),
            g.evidence.kind.name(),
            g.evidence.text
        );
        for (i, line) in wrap_words(&why, wrap.saturating_sub(5)).iter().enumerate() {
            writeln!(out, "      {}{line}", if i == 0 { "why: " } else { "     " })?;
        }
    }
    writeln!(out, "      owner: {}", g.owner.words())?;
    for (i, line) in wrap_words(&c.advice, wrap.saturating_sub(5)).iter().enumerate() {
        writeln!(out, "      {}{line}", if i == 0 { "fix: " } else { "     " })?;
    }
    Ok(())
}

/// Expected one-off recompiles, folded: one line each, no advice.
fn write_expected(out: &mut dyn Write, groups: &[&CulpritGroup], opts: &TerminalOptions) -> io::Result<()> {
    let n: usize = groups.iter().map(|g| g.compile_ids.len()).sum();
    writeln!(
        out,
        "Expected (made dynamic, one per variant, or set once; a problem only if it repeats): {}",
        plural(n, "recompile", "recompiles")
    )?;
    for g in groups {
        let from = g
            .cause
            .called_from
            .as_deref()
            .map(|s| format!(", called from {}", display_site(s)))
            .unwrap_or_default();
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
        for (i, part) in wrap_words(&line, opts.width.saturating_sub(6).max(40))
            .iter()
            .enumerate()
        {
            writeln!(out, "{}{part}", if i == 0 { "  " } else { "      " })?;
        }
    }
    Ok(())
}

/// One line per changed value (the first few): "changed: a: 1 -> 2", then
/// "         b: x -> y", then "         +N more (--json lists all)".
fn changed_lines(changes: &[crate::reasons::GuardChange]) -> Vec<String> {
    const SHOWN: usize = 3;
    let mut lines: Vec<String> = changes
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, c)| format!("{}{}", if i == 0 { "changed: " } else { "         " }, c.describe()))
        .collect();
    if changes.len() > SHOWN {
        lines.push(format!("         +{} more (--json lists all)", changes.len() - SHOWN));
    }
    lines
}

/// A compile-id list, cut with a count when long.
/// A group's compile ids; across ranks each id once (every rank has its
/// own `0/1`).
fn compile_ids(g: &CulpritGroup) -> String {
    const SHOWN: usize = 8;
    let mut ids: Vec<&str> = g.compile_ids.iter().map(String::as_str).collect();
    if g.ranks.len() > 1 {
        let mut seen = std::collections::HashSet::new();
        ids.retain(|id| seen.insert(*id));
    }
    if ids.len() <= SHOWN {
        return ids.join(", ");
    }
    format!("{}, … {} more", ids[..SHOWN].join(", "), ids.len() - SHOWN)
}

fn rank_prefix(f: &Frame) -> String {
    f.rank
        .filter(|r| *r > 0)
        .map(|r| format!("rank {r} "))
        .unwrap_or_default()
}

/// The recompiles, each once with the ranks it happened on: the same
/// recompile (compile id, cause, guard) of 64 ranks' copies is one line,
/// with the slowest rank's seconds.
fn fold_across_ranks<'a, 'r>(recompiles: &'a [Finding<'r>]) -> Vec<(&'a Finding<'r>, Vec<u32>)> {
    fold_ranks(
        recompiles,
        |r| r.frame.rank,
        |r| {
            let f = r.frame;
            Some((
                (f.run, f.generation, f.frame_id, f.function.as_deref()),
                (&r.compile.compile_id, r.compile.failed, r.severity, r.cause.category),
                r.guard().map(|g| &g.guard),
            ))
        },
        |a, b| a.compile.duration_s > b.compile.duration_s,
    )
}

fn write_recompile(
    out: &mut Terminal,
    r: &Finding<'_>,
    ranks: &[u32],
    several_runs: bool,
    opts: &TerminalOptions,
) -> io::Result<()> {
    let c = r.compile;
    let secs = c.duration_s.map_or("   ? s".to_string(), |d| format!("{d:>5.2} s"));
    let rank = match ranks {
        [] | [0] => String::new(),
        [one] => format!("r{one} "),
        many => format!("r{} ", rank_list(many)),
    };
    let rank = if several_runs {
        format!("run{} {rank}", r.frame.run)
    } else {
        rank
    };
    let category = r.cause.category.name();
    let mark = if r.severity == Severity::Problem { "!" } else { " " };
    let after_mark = format!(" {rank}{:<6} {secs}  [", c.compile_id);
    let head = format!("{mark}{after_mark}{category}] ");
    let room = opts.width.saturating_sub(width(&head)).max(30);
    let text = match r.guard() {
        Some(g) => {
            // Truncate only the guard: the source and the count must stay readable.
            let mut suffix = String::new();
            if let Some(src) = &g.source {
                suffix.push_str(&format!("  [{}]", display_site(src)));
            }
            let older = c.recompile_reasons.len() - 1;
            if older > 0 {
                suffix.push_str(&format!("  (+{older} older)"));
            }
            let guard = match &g.entry {
                Some(e) => format!("{e}: {}", g.guard),
                None => g.guard.clone(),
            };
            let guard_room = room.saturating_sub(width(&suffix)).max(30);
            format!("{}{suffix}", ellipsize_middle(&guard, guard_room))
        }
        None if c.cache_limit => "recompile limit hit: Dynamo refused to compile".to_string(),
        None => "(no recompile_reasons logged)".to_string(),
    };
    // The head in pieces, for its colours; `head` measured it whole.
    out.styled(style::severity(r.severity), mark)?;
    write!(out, "{after_mark}")?;
    out.styled(style::category(r.cause.category), category)?;
    writeln!(out, "] {text}")?;
    if c.cache_limit && c.recompile_reasons.is_empty() {
        return Ok(());
    }
    if c.failed {
        let why = c.fail_reason.as_deref().or(c.fail_type.as_deref()).unwrap_or("failed");
        let first = why.lines().next().unwrap_or(why);
        writeln!(
            out,
            "  {:<6}         failed: {}",
            "",
            ellipsize_middle(first, room.saturating_sub(8).max(20))
        )?;
    }
    Ok(())
}

fn write_problems(out: &mut dyn Write, run: &Run, opts: &TerminalOptions) -> io::Result<()> {
    let p = &run.problems;
    if p.count == 0 {
        return Ok(());
    }
    writeln!(out)?;
    let kinds: Vec<String> = p.by_kind.iter().map(|(k, n)| format!("{} {n}", k.label())).collect();
    if !opts.verbose {
        writeln!(
            out,
            "{} input error(s): {}; run with --verbose to list them",
            p.count,
            kinds.join(", ")
        )?;
        return Ok(());
    }
    writeln!(out, "{} input error(s): {}", p.count, kinds.join(", "))?;
    for problem in &p.first {
        writeln!(out, "  {problem}")?;
    }
    if p.count as usize > p.first.len() {
        writeln!(out, "  … {} more not shown", p.count as usize - p.first.len())?;
    }
    Ok(())
}
